#ifndef PROPANE_CONSTRAINTS_REGULAR_HPP
#define PROPANE_CONSTRAINTS_REGULAR_HPP

// regular(xs, dfa): the automaton accepts the word xs[0] xs[1] ...
// xs[n-1]. States are 0 .. states-1; each transition {from, symbol, to}
// reads one value; a word is accepted when a run of transitions from
// `start` reading it ends in one of `finals`. A missing transition
// rejects. Two transitions may leave one state on one symbol (the
// automaton is then nondeterministic, and accepts when some run does).
// xs is a range of views of one type (AffineView holds any mix) or a
// braced list.
//
// Strength: domain consistent, for views on distinct variables (Pesant
// 2004): x_i keeps v when some run of the automaton over a word of the
// domains reads v at position i and ends in a final state. The unrolled
// automaton, a layered graph, is kept between runs (in the store's
// cells, so backtracking restores it) and each run updates only the
// layers around the positions that lost values (regular/layered_graph.hpp).
// Views that share a variable are sound.

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <ranges>
#include <utility>
#include <vector>

#include "../engine/propagator.hpp"
#include "../engine/view.hpp"
#include "arguments.hpp"
#include "regular/automaton.hpp"
#include "regular/layered_graph.hpp"

namespace propane {

// The constraint, as regular() returns it.
template <class X>
    requires std::convertible_to<X, AffineView>
struct RegularConstraint {
    std::vector<X> xs;
    Dfa dfa;

    template <class S>
    void post(S& s) const {
        detail::check_dfa(dfa);
        std::vector<int> vars;
        for (const X& x : xs) {
            s.check(x.var(), "regular");
            vars.push_back(x.var().index());
        }
        std::sort(vars.begin(), vars.end());
        const bool shared = std::adjacent_find(vars.begin(), vars.end()) != vars.end();
        auto automaton = std::make_shared<const detail::automata::Automaton>(dfa);
        const int id = s.add_propagator(
            std::make_unique<detail::automata::LayeredGraph<S, X>>(s, std::move(automaton), xs, shared));
        for (std::size_t i = 0; i < xs.size(); ++i) s.subscribe(xs[i].var(), id, Event::domain, static_cast<int>(i));
    }
};

// xs as a range of one view type or a braced list.
template <detail::ViewRange R>
    requires std::convertible_to<std::ranges::range_value_t<R>, AffineView>
RegularConstraint<std::ranges::range_value_t<R>> regular(const R& xs, Dfa dfa) {
    detail::check_dfa(dfa);
    return {detail::views_of(xs), std::move(dfa)};
}
template <detail::ViewHandle X>
    requires std::convertible_to<X, AffineView>
RegularConstraint<X> regular(std::initializer_list<X> xs, Dfa dfa) {
    detail::check_dfa(dfa);
    return {detail::views_of(xs), std::move(dfa)};
}
inline RegularConstraint<AffineView> regular(std::initializer_list<AffineView> xs, Dfa dfa) {
    detail::check_dfa(dfa);
    return {detail::views_of(xs), std::move(dfa)};
}

} // namespace propane

#endif
