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
// 2004). A run unrolls the automaton over the positions: the states some
// run can be in before position i (forward from start), the states from
// which the rest can still reach a final state (backward from finals);
// x_i keeps v when some transition q --v--> q' has q forward-reachable
// before i and q' backward-reachable after it. O(n * |transitions|) per
// run; nothing is kept between runs. Views that share a variable are
// sound.

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <ranges>
#include <string>
#include <utility>
#include <vector>

#include "../engine/error.hpp"
#include "../engine/propagator.hpp"
#include "../engine/view.hpp"
#include "arguments.hpp"
#include "rel.hpp" // detail::filter_values

namespace propane {

struct Transition {
    int from = 0;
    int symbol = 0;
    int to = 0;
};

struct Dfa {
    int states = 0;
    int start = 0;
    std::vector<int> finals;
    std::vector<Transition> transitions;
};

namespace detail {

inline void check_dfa(const Dfa& d) {
    if (d.states < 1) throw model_error("regular: the automaton has " + std::to_string(d.states) + " states");
    const auto state = [&](int q, const std::string& what) {
        if (q < 0 || q >= d.states)
            throw model_error("regular: " + what + " is state " + std::to_string(q) + ", beyond 0.." +
                              std::to_string(d.states - 1));
    };
    state(d.start, "the start");
    for (std::size_t k = 0; k < d.finals.size(); ++k) state(d.finals[k], "finals[" + std::to_string(k) + "]");
    for (std::size_t k = 0; k < d.transitions.size(); ++k) {
        state(d.transitions[k].from, "transitions[" + std::to_string(k) + "].from");
        state(d.transitions[k].to, "transitions[" + std::to_string(k) + "].to");
    }
}

template <class S, class X>
class Regular : public PropagatorBase<S, Regular<S, X>> {
public:
    Regular(const std::vector<X>& xs, const Dfa& dfa, bool shared)
        : xs_(kept(xs)), shared_(shared), states_(static_cast<std::size_t>(dfa.states)), start_(dfa.start), finals_(dfa.finals),
          transitions_(dfa.transitions) {}

    // Views on shared variables: a position's pruning changes another's
    // domain after its layer was read, so the unrolling goes round again
    // until nothing is removed.
    PropStatus propagate(S& s) override {
        for (;;) {
            bool removed = false;
            if (!pass(s, removed)) return PropStatus::failed;
            if (!shared_ || !removed) return PropStatus::fix;
        }
    }

private:
    bool pass(S& s, bool& removed) {
        const std::size_t n = xs_.size(), q = states_;
        forward_.assign((n + 1) * q, 0);
        backward_.assign((n + 1) * q, 0);
        forward_[static_cast<std::size_t>(start_)] = 1;
        for (std::size_t i = 0; i < n; ++i)
            for (const Transition& t : transitions_)
                if (forward_[i * q + u(t.from)] && xs_[i].contains(s, t.symbol)) forward_[(i + 1) * q + u(t.to)] = 1;
        for (const int f : finals_) backward_[n * q + u(f)] = 1;
        for (std::size_t i = n; i-- > 0;)
            for (const Transition& t : transitions_)
                if (backward_[(i + 1) * q + u(t.to)] && xs_[i].contains(s, t.symbol)) backward_[i * q + u(t.from)] = 1;
        if (!backward_[u(start_)]) return false;
        for (std::size_t i = 0; i < n; ++i) {
            used_.clear();
            for (const Transition& t : transitions_)
                if (forward_[i * q + u(t.from)] && backward_[(i + 1) * q + u(t.to)] && xs_[i].contains(s, t.symbol))
                    used_.push_back(t.symbol);
            std::sort(used_.begin(), used_.end());
            used_.erase(std::unique(used_.begin(), used_.end()), used_.end());
            if (used_.size() == xs_[i].size(s)) continue;
            removed = true;
            if (!filter_values(s, xs_[i], [&](int v) { return std::binary_search(used_.begin(), used_.end(), v); }))
                return false;
        }
        return true;
    }

    static std::size_t u(int i) noexcept { return static_cast<std::size_t>(i); }

    std::vector<kept_t<X>> xs_;
    bool shared_;
    std::size_t states_;
    int start_;
    std::vector<int> finals_;
    std::vector<Transition> transitions_;
    // Scratch: (n + 1) layers of states, and one position's symbols.
    std::vector<char> forward_, backward_;
    std::vector<int> used_;
};

} // namespace detail

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
        const int id = s.add_propagator(std::make_unique<detail::Regular<S, X>>(xs, dfa, shared));
        for (const X& x : xs) s.subscribe(x.var(), id, Event::domain);
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
