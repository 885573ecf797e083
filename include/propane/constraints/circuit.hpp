#ifndef PROPANE_CONSTRAINTS_CIRCUIT_HPP
#define PROPANE_CONSTRAINTS_CIRCUIT_HPP

// circuit(succ): node i is followed by node succ[i], nodes numbered 0 ..
// n-1, and following them from any node visits all n before it comes
// back: one Hamiltonian cycle. succ is a range of views of one type
// (AffineView holds any mix; MiniZinc's 1-based successors are succ[i] - 1)
// or a braced list.
//
// Posted as all_different(succ, domain), succ[i] within 0 .. n-1 and != i
// (for n > 1), and a propagator against sub-tours: the fixed successors
// form paths; the node at the end of a path of fewer than n nodes may not
// lead back to the path's first node, which would close a cycle too short
// (Caseau and Laburthe's nocycle rule, as in Gecode's and OR-Tools'
// circuit). A run follows every path once, O(n).
//
// Strength: the fixpoint of the domain-consistent all_different and of
// that rule. With every successor fixed, propagation fails exactly when
// they do not form one cycle. Views that share a variable are sound.

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
#include "all_different.hpp"
#include "arguments.hpp"

namespace propane {

namespace detail {

template <class S, class X>
class NoSubtour : public PropagatorBase<S, NoSubtour<S, X>> {
public:
    explicit NoSubtour(const std::vector<X>& succ) : succ_(kept(succ)) {}

    PropStatus propagate(S& s) override {
        const int n = static_cast<int>(succ_.size());
        for (;;) {
            // Which nodes a fixed successor enters: the others start paths.
            entered_.assign(succ_.size(), 0);
            for (int i = 0; i < n; ++i)
                if (at(i).fixed(s)) entered_[u(at(i).value(s))] = 1;
            bool moved = false;
            int visited = 0;
            for (int first = 0; first < n; ++first) {
                if (entered_[u(first)]) continue;
                int last = first, length = 1;
                for (; at(last).fixed(s); ++length) {
                    last = at(last).value(s);
                    // Longer than n: two successors enter one node, which
                    // all_different refuses too.
                    if (length == n) return PropStatus::failed;
                }
                visited += length;
                if (length < n && at(last).contains(s, first)) {
                    if (at(last).remove(s, first) == Change::failed) return PropStatus::failed;
                    moved = true;
                }
            }
            // Nodes on no path lie on cycles of fixed successors; one cycle
            // of all n is the solution, any other is too short.
            if (visited < n) return visited == 0 && closes(s) ? PropStatus::subsumed : PropStatus::failed;
            if (!moved) return PropStatus::fix;
        }
    }

private:
    // With every successor fixed and no path: whether following them from
    // node 0 visits all n nodes.
    bool closes(const S& s) const {
        const int n = static_cast<int>(succ_.size());
        int node = 0, length = 0;
        do {
            node = at(node).value(s);
            ++length;
        } while (node != 0 && length <= n);
        return length == n;
    }

    static std::size_t u(int i) noexcept { return static_cast<std::size_t>(i); }
    const kept_t<X>& at(int i) const noexcept { return succ_[u(i)]; }

    std::vector<kept_t<X>> succ_;
    std::vector<char> entered_;
};

} // namespace detail

// The constraint, as circuit() returns it.
template <class X>
    requires std::convertible_to<X, AffineView>
struct CircuitConstraint {
    std::vector<X> succ;

    template <class S>
    void post(S& s) const {
        const int n = static_cast<int>(succ.size());
        for (const X& x : succ) s.check(x.var(), "circuit");
        if (n == 0) return;
        for (int i = 0; i < n; ++i) {
            const X& x = succ[static_cast<std::size_t>(i)];
            if (x.remove_below(s, 0) == Change::failed || x.remove_above(s, n - 1) == Change::failed) return;
            if (n > 1 && x.remove(s, i) == Change::failed) return;
        }
        all_different(succ, domain).post(s);
        if (n < 3) return; // all_different alone makes the cycle of 1 or 2
        const int id = s.add_propagator(std::make_unique<detail::NoSubtour<S, X>>(succ));
        for (const X& x : succ) s.subscribe(x.var(), id, Event::fixed);
    }
};

// succ as a range of one view type or a braced list.
template <detail::ViewRange R>
    requires std::convertible_to<std::ranges::range_value_t<R>, AffineView>
CircuitConstraint<std::ranges::range_value_t<R>> circuit(const R& succ) {
    return {detail::views_of(succ)};
}
template <detail::ViewHandle X>
    requires std::convertible_to<X, AffineView>
CircuitConstraint<X> circuit(std::initializer_list<X> succ) {
    return {detail::views_of(succ)};
}
inline CircuitConstraint<AffineView> circuit(std::initializer_list<AffineView> succ) {
    return {detail::views_of(succ)};
}

} // namespace propane

#endif
