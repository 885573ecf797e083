#ifndef PROPANE_CONSTRAINTS_MIN_MAX_HPP
#define PROPANE_CONSTRAINTS_MIN_MAX_HPP

// min(xs, y): y == min(xs);  max(xs, y): y == max(xs). xs is a range of one
// view type (IntVar, x + c, a*x + b), y any view; one xs is y == xs[0].
//
// Strength: bounds(Z) consistency. After a run, each bound of each view has
// a support in which every other view takes an integer value between its
// own min and max (holes ignored), and the box is the greatest one with
// that property. For min, with y in [ly, uy] and x_i in [l_i, u_i], a
// support exists for every bound exactly when
//   (a) ly >= min_i l_i and uy <= min_i u_i   (y is some x_i, and no x_i
//       is below it),
//   (b) l_i >= ly for every i,
//   (c) when one x_i alone has l_i <= uy, then u_i <= uy (it is the only
//       one that can be the minimum, so it is).
// Each rule only removes values no solution has, so applying them until
// none changes a bound gives that greatest box; a view with holes (a*x + b,
// |a| > 1) may land beyond the bound asked for, which is why the rules
// repeat rather than trusting one pass. Views that share a variable are
// treated as if independent for consistency (the box is consistent in that
// relaxation), and the repetition keeps the result a fixpoint when an
// update through one of them moves another.
//
// max is min mirrored: the propagator reads each view negated (all in 64
// bits, where negating INT_MIN is safe) instead of having a second copy.
// A run costs O(n) per repetition, usually two; it wakes on bounds events,
// and waits (PropStatus::defer) while other propagators are queued.
// Nothing here can overflow, so no view is refused for its range.

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <memory>
#include <ranges>
#include <string>
#include <utility>
#include <vector>

#include "../engine/error.hpp"
#include "../engine/propagator.hpp"
#include "../engine/view.hpp"
#include "arguments.hpp"

namespace propane {

enum class Extreme : std::uint8_t { least, greatest };

namespace detail {

// A view's bounds and updates as min sees them: unchanged for min, negated
// for max (so max's lower bound of x is -x.max()).
template <Extreme Which>
struct Oriented {
    static constexpr bool mirrored = Which == Extreme::greatest;

    template <class V, class S>
    static std::int64_t low(const V& v, const S& s) noexcept {
        if constexpr (mirrored) return -std::int64_t{v.max(s)};
        else return v.min(s);
    }
    template <class V, class S>
    static std::int64_t high(const V& v, const S& s) noexcept {
        if constexpr (mirrored) return -std::int64_t{v.min(s)};
        else return v.max(s);
    }
    template <class V, class S>
    static Change at_least(const V& v, S& s, std::int64_t t) {
        if constexpr (mirrored) return keep_at_most(v, s, -t);
        else return keep_at_least(v, s, t);
    }
    template <class V, class S>
    static Change at_most(const V& v, S& s, std::int64_t t) {
        if constexpr (mirrored) return keep_at_least(v, s, -t);
        else return keep_at_most(v, s, t);
    }
};

template <class Store, class View, class Result, Extreme Which>
class ExtremumBounds : public PropagatorBase<Store, ExtremumBounds<Store, View, Result, Which>> {
    using O = Oriented<Which>;

public:
    ExtremumBounds(std::vector<View> xs, Result y) : xs_(std::move(xs)), y_(y) {}

    PropStatus propagate(Store& s) override {
        // A pass costs O(n) however little moved: it waits for the cheaper
        // propagators to settle, so that it runs once on their fixpoint
        // rather than once per bound they move (road_11: 4,000 to 3,000
        // propagator runs a node, 1.4 to 1.9 times the nodes a second).
        if (s.queued() > 0) return PropStatus::defer;
        bool changed = true;
        // Records an update: false on failure, and notes whether a bound
        // moved, which calls for another round.
        const auto apply = [&changed](Change c) {
            changed = changed || c != Change::none;
            return c != Change::failed;
        };
        while (changed) {
            changed = false;
            std::int64_t least_low = std::numeric_limits<std::int64_t>::max();
            std::int64_t least_high = least_low;
            for (const View& x : xs_) {
                least_low = std::min(least_low, O::low(x, s));
                least_high = std::min(least_high, O::high(x, s));
            }
            if (!apply(O::at_least(y_, s, least_low)) || !apply(O::at_most(y_, s, least_high)))
                return PropStatus::failed;
            const std::int64_t ly = O::low(y_, s), uy = O::high(y_, s);
            std::size_t candidates = 0, last = 0;
            for (std::size_t i = 0; i < xs_.size(); ++i) {
                // Tested here first: most views are above y's least value
                // already, and an update that changes nothing still costs
                // a call into the store (road-cons: a third of the time).
                if (O::low(xs_[i], s) < ly && !apply(O::at_least(xs_[i], s, ly))) return PropStatus::failed;
                if (O::low(xs_[i], s) <= uy) {
                    ++candidates;
                    last = i;
                }
            }
            // No candidate at all fails on the next round, through (a).
            if (candidates == 1 && !apply(O::at_most(xs_[last], s, uy))) return PropStatus::failed;
        }
        return PropStatus::fix;
    }

private:
    std::vector<View> xs_;
    Result y_;
};

inline const char* extreme_name(Extreme which) noexcept { return which == Extreme::least ? "min" : "max"; }

inline void check_not_empty(Extreme which, std::size_t n) {
    if (n == 0)
        throw model_error(std::string(extreme_name(which)) +
                          ": xs is empty, and the extremum of no views is undefined");
}

} // namespace detail

// The constraint y == min(xs) (Extreme::least) or y == max(xs)
// (Extreme::greatest), as min() and max() return it.
template <class View, class Result, Extreme Which>
    requires std::convertible_to<View, AffineView> && std::convertible_to<Result, AffineView>
struct Extremum {
    std::vector<View> xs;
    Result y;

    template <class Store>
    int post(Store& s) const {
        // Again here: the struct can be built without min() or max().
        detail::check_not_empty(Which, xs.size());
        for (const View& x : xs) s.check(x.var(), detail::extreme_name(Which));
        s.check(y.var(), detail::extreme_name(Which));
        const int id = s.add_propagator(std::make_unique<detail::ExtremumBounds<Store, View, Result, Which>>(xs, y));
        for (const View& x : xs) s.subscribe(x.var(), id, Event::bounds);
        s.subscribe(y.var(), id, Event::bounds);
        return id;
    }
};

namespace detail {

template <Extreme Which, class View, class Result>
Extremum<View, Result, Which> extremum(std::vector<View> xs, Result y) {
    check_not_empty(Which, xs.size());
    return {std::move(xs), y};
}

template <class View, class Result>
concept ExtremumArgs = std::convertible_to<View, AffineView> && std::convertible_to<Result, AffineView>;

} // namespace detail

// Constrained to views, so that with `using namespace propane` (and std) a
// call of min or max on numbers still means std::min or std::max, and one
// on views means this. xs is a range of one view type or a braced list
// (arguments.hpp).
template <detail::ViewRange R, class Result>
    requires detail::ExtremumArgs<std::ranges::range_value_t<R>, Result>
Extremum<std::ranges::range_value_t<R>, Result, Extreme::least> min(const R& xs, Result y) {
    return detail::extremum<Extreme::least>(detail::views_of(xs), y);
}
template <detail::ViewHandle X, class Result>
    requires detail::ExtremumArgs<X, Result>
Extremum<X, Result, Extreme::least> min(std::initializer_list<X> xs, Result y) {
    return detail::extremum<Extreme::least>(detail::views_of(xs), y);
}
template <class Result>
    requires detail::ExtremumArgs<AffineView, Result>
Extremum<AffineView, Result, Extreme::least> min(std::initializer_list<AffineView> xs, Result y) {
    return detail::extremum<Extreme::least>(detail::views_of(xs), y);
}

template <detail::ViewRange R, class Result>
    requires detail::ExtremumArgs<std::ranges::range_value_t<R>, Result>
Extremum<std::ranges::range_value_t<R>, Result, Extreme::greatest> max(const R& xs, Result y) {
    return detail::extremum<Extreme::greatest>(detail::views_of(xs), y);
}
template <detail::ViewHandle X, class Result>
    requires detail::ExtremumArgs<X, Result>
Extremum<X, Result, Extreme::greatest> max(std::initializer_list<X> xs, Result y) {
    return detail::extremum<Extreme::greatest>(detail::views_of(xs), y);
}
template <class Result>
    requires detail::ExtremumArgs<AffineView, Result>
Extremum<AffineView, Result, Extreme::greatest> max(std::initializer_list<AffineView> xs, Result y) {
    return detail::extremum<Extreme::greatest>(detail::views_of(xs), y);
}

} // namespace propane

#endif
