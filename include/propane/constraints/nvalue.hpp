#ifndef PROPANE_CONSTRAINTS_NVALUE_HPP
#define PROPANE_CONSTRAINTS_NVALUE_HPP

// nvalue(n, xs): n is the number of distinct values the views xs take
// (MiniZinc's nvalue; n = 0 for no views). n is a view; xs a range of
// views of one type (AffineView holds any mix) or a braced list.
//
// Bounds on n, and pruning of xs where n sits at one of them. With F the
// values of the fixed views (f of them) and u the views left open:
//   n <= U = f + min(u, the number of values outside F that open views
//            still hold);
//   n >= L = f + the fewest points that meet the interval [min, max] of
//            every open view holding no value of F (a greedy sweep by
//            right ends finds it, Beldiceanu 2001); views that can take
//            a value of F may add nothing.
//   max(n) = f: every open view keeps only values of F;
//   min(n) = f + u = U: every open view must add a value of its own, so
//            it loses the values of F.
// Strength: the fixpoint of those rules; the exact bounds need a matching
// (upper) and a hitting set (lower, NP-hard with holes), which Gecode's
// nvalues approximates in the same spirit. Each rule holds whatever the
// views share, so the propagator is sound for shared variables too. A run
// is O(n (log n + f)) plus the values of the open views, at most u + f
// of each visited, and their runs where they keep only values of F.

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <ranges>
#include <utility>
#include <vector>

#include "../engine/propagator.hpp"
#include "../engine/runs.hpp"
#include "../engine/view.hpp"
#include "arguments.hpp"

namespace propane {

namespace detail {

template <class S, class N, class X>
class NValue : public PropagatorBase<S, NValue<S, N, X>> {
public:
    NValue(N n, const std::vector<X>& xs, bool shared) : n_(kept(n)), xs_(kept(xs)), shared_(shared) {}

    PropStatus propagate(S& s) override {
        for (;;) {
            fixed_.clear();
            int open = 0;
            for (const auto& x : xs_) {
                if (x.fixed(s))
                    fixed_.push_back(x.value(s));
                else
                    ++open;
            }
            std::sort(fixed_.begin(), fixed_.end());
            fixed_.erase(std::unique(fixed_.begin(), fixed_.end()), fixed_.end());
            const int f = static_cast<int>(fixed_.size());
            const int upper = f + std::min(open, fresh_values(s, open));
            const int lower = f + hits(s);
            const Change on_n = keep_between(n_, s, lower, upper);
            if (on_n == Change::failed) return PropStatus::failed;
            // n on a variable of xs: narrowing it may have fixed views.
            if (shared_ && on_n != Change::none) continue;
            if (open == 0) return PropStatus::subsumed;
            const bool only_old = n_.max(s) == f;
            const bool only_new = n_.min(s) == f + open && upper == f + open;
            if (!only_old && !only_new) return PropStatus::fix;
            bool moved = false;
            for (const auto& x : xs_) {
                if (x.fixed(s)) continue;
                drop_.clear();
                if (only_old) {
                    // Gap by gap between F's values, not value by value: x
                    // may be wide.
                    const unsigned before = x.size(s);
                    if (!keep_only(s, x, SortedValues{fixed_})) return PropStatus::failed;
                    moved = moved || x.size(s) != before;
                } else {
                    for (const int v : fixed_)
                        if (x.contains(s, v)) drop_.push_back(v);
                }
                for (const int v : drop_) {
                    if (x.remove(s, v) == Change::failed) return PropStatus::failed;
                    moved = true;
                }
            }
            if (!moved) return PropStatus::fix;
        }
    }

private:
    bool in_fixed(int v) const { return std::binary_search(fixed_.begin(), fixed_.end(), v); }

    // How many values outside F the open views hold, counted up to `enough`
    // (beyond it the bound is the number of open views).
    int fresh_values(const S& s, int enough) {
        fresh_.clear();
        for (const auto& x : xs_) {
            if (x.fixed(s)) continue;
            // Value by value up to `enough` of them, however wide x is.
            int taken = 0;
            for (std::int64_t v = x.min(s); v != no_value && taken < enough; v = first_from(x, s, v + 1))
                if (!in_fixed(static_cast<int>(v))) {
                    fresh_.push_back(static_cast<int>(v));
                    ++taken;
                }
            if (taken >= enough) return enough;
        }
        std::sort(fresh_.begin(), fresh_.end());
        return static_cast<int>(std::unique(fresh_.begin(), fresh_.end()) - fresh_.begin());
    }

    // The fewest points meeting the hull of every open view that holds no
    // value of F: sorted by right end, a point at the right end of each
    // interval the last point missed.
    int hits(const S& s) {
        spans_.clear();
        for (const auto& x : xs_) {
            if (x.fixed(s)) continue;
            const bool meets = std::ranges::any_of(fixed_, [&](int v) { return x.contains(s, v); });
            if (!meets) spans_.emplace_back(x.max(s), x.min(s));
        }
        std::sort(spans_.begin(), spans_.end());
        int count = 0;
        bool any = false;
        int point = 0;
        for (const auto& [hi, lo] : spans_) {
            if (any && lo <= point) continue;
            point = hi;
            any = true;
            ++count;
        }
        return count;
    }

    kept_t<N> n_;
    std::vector<kept_t<X>> xs_;
    bool shared_;
    std::vector<int> fixed_, fresh_, drop_;
    std::vector<std::pair<int, int>> spans_;
};

} // namespace detail

// The constraint, as nvalue() returns it.
template <class N, class X>
    requires std::convertible_to<N, AffineView> && std::convertible_to<X, AffineView>
struct NValueConstraint {
    N n;
    std::vector<X> xs;

    template <class S>
    void post(S& s) const {
        s.check(n.var(), "nvalue");
        for (const X& x : xs) s.check(x.var(), "nvalue");
        const bool shared = std::ranges::any_of(xs, [&](const X& x) { return x.var().index() == n.var().index(); });
        const int id = s.add_propagator(std::make_unique<detail::NValue<S, N, X>>(n, xs, shared));
        s.subscribe(n.var(), id, Event::bounds);
        for (const X& x : xs) s.subscribe(x.var(), id, Event::domain);
    }
};

template <detail::ViewHandle N, detail::ViewRange R>
    requires std::convertible_to<N, AffineView> && std::convertible_to<std::ranges::range_value_t<R>, AffineView>
NValueConstraint<N, std::ranges::range_value_t<R>> nvalue(const N& n, const R& xs) {
    return {n, detail::views_of(xs)};
}
template <detail::ViewHandle N>
    requires std::convertible_to<N, AffineView>
NValueConstraint<N, AffineView> nvalue(const N& n, std::initializer_list<AffineView> xs) {
    return {n, detail::views_of(xs)};
}

} // namespace propane

#endif
