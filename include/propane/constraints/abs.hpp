#ifndef PROPANE_CONSTRAINTS_ABS_HPP
#define PROPANE_CONSTRAINTS_ABS_HPP

// abs(x, y): y == |x|, over any two views (IntVar, x + c, a*x + b, of one
// type or of two).
//
// Strength: domain consistency. After a run every value left to x has its
// absolute value left to y, and every value left to y is >= 0 and has itself
// or its opposite left to x. One pass reaches this: y is filtered by x,
// then x by y, and the second pass cannot take away a support of a value
// the first kept (x loses u only when |u| has left y, and then no value of y
// relied on u). A run costs O(|x| + |y|) value visits, so the propagator
// wakes on any domain change.
//
// When x and y are views of one variable t, y == |x| is a condition on t
// alone: post() detects it, and a propagator run once removes each t for
// which it fails. Every value left then satisfies it, so the constraint is
// entailed and needs no subscription (abs(x, x) leaves x >= 0, abs(x, -x)
// leaves x <= 0).
//
// |x| is computed in 64 bits, where it cannot overflow (|INT_MIN| does not
// fit in int, and is simply a value no view holds), so no view is refused
// for its range.

#include <concepts>
#include <cstdint>
#include <memory>

#include "../engine/error.hpp"
#include "../engine/propagator.hpp"
#include "../engine/runs.hpp"
#include "../engine/view.hpp"
#include "rel.hpp" // detail::solutions

namespace propane {

namespace detail::absolute {

// Whether view v holds the 64-bit value w: a value outside int is held by
// no view, so the narrowing below is exact when it happens.
template <class V, class S>
bool holds(const V& v, const S& s, std::int64_t w) noexcept {
    return w >= int_min && w <= int_max && v.contains(s, static_cast<int>(w));
}

constexpr std::int64_t magnitude(std::int64_t v) noexcept { return v < 0 ? -v : v; }

// The word with its bits in the opposite order: bit k goes to bit 63 - k.
constexpr std::uint64_t reversed(std::uint64_t v) noexcept {
    v = ((v >> 1) & 0x5555555555555555ULL) | ((v & 0x5555555555555555ULL) << 1);
    v = ((v >> 2) & 0x3333333333333333ULL) | ((v & 0x3333333333333333ULL) << 2);
    v = ((v >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((v & 0x0F0F0F0F0F0F0F0FULL) << 4);
    v = ((v >> 8) & 0x00FF00FF00FF00FFULL) | ((v & 0x00FF00FF00FF00FFULL) << 8);
    v = ((v >> 16) & 0x0000FFFF0000FFFFULL) | ((v & 0x0000FFFF0000FFFFULL) << 16);
    return (v >> 32) | (v << 32);
}

} // namespace detail::absolute

namespace detail {

template <class Store, class X, class Y>
class AbsDomain : public PropagatorBase<Store, AbsDomain<Store, X, Y>> {
public:
    AbsDomain(X x, Y y) : x_(x), y_(y) {}

    // Both passes walk 64 values at a time: y's window w .. w + 63 against
    // x's same window and x's mirrored one, -w - 63 .. -w, whose bits come
    // reversed; x's window u .. u + 63 against y's, for its values >= 0, and
    // against y's mirrored window, for its values < 0. FlatZinc makes abs
    // of distances over hundreds of thousands of values, where a walk value
    // by value took 70 % of a search.
    PropStatus propagate(Store& s) override {
        using detail::remove_bits;
        if (keep_at_least(y_, s, 0) == Change::failed) return PropStatus::failed;
        if (wide(x_, s) || wide(y_, s)) {
            // By runs: y keeps the values of x and of -x, x those of y and -y.
            const bool ok = keep_only(s, y_, UnionOf{ValuesOf{x_, s}, NegatedValuesOf{x_, s}}) &&
                            keep_only(s, x_, UnionOf{ValuesOf{y_, s}, NegatedValuesOf{y_, s}});
            return ok ? PropStatus::fix : PropStatus::failed;
        }
        for (std::int64_t w = y_.min(s); w <= y_.max(s); w += 64) {
            const std::uint64_t ys = y_.bits(s, w);
            const std::uint64_t keep = x_.bits(s, w) | absolute::reversed(x_.bits(s, -w - 63));
            if ((ys & ~keep) != 0 && remove_bits(y_, s, w, ys & ~keep) == Change::failed) return PropStatus::failed;
        }
        for (std::int64_t u = x_.min(s); u <= x_.max(s); u += 64) {
            const std::uint64_t xs = x_.bits(s, u);
            // Bit k is a value >= 0 when k >= -u.
            const std::uint64_t nonneg = u >= 0 ? ~std::uint64_t{0} : (u <= -64 ? 0 : ~low_mask(static_cast<int>(-u)));
            const std::uint64_t keep =
                (nonneg & y_.bits(s, u)) | (~nonneg & absolute::reversed(y_.bits(s, -u - 63)));
            if ((xs & ~keep) != 0 && remove_bits(x_, s, u, xs & ~keep) == Change::failed) return PropStatus::failed;
        }
        return PropStatus::fix;
    }

private:
    X x_;
    Y y_;
};

// x and y over one variable: keeps the variable's values t with
// y.of(t) == |x.of(t)|.
template <class Store, class X, class Y>
class AbsSameVariable : public PropagatorBase<Store, AbsSameVariable<Store, X, Y>> {
public:
    AbsSameVariable(X x, Y y) : x_(x), y_(y) {}

    // ay*t + by == |ax*t + bx| is ay*t + by == ax*t + bx where ax*t + bx >= 0,
    // and ay*t + by == -(ax*t + bx) where it is < 0: solved, not tried per t.
    PropStatus propagate(Store& s) override {
        const auto [ax, bx] = coefficients(AffineView(x_));
        const auto [ay, by] = coefficients(AffineView(y_));
        const auto both = [](const IntervalSet& a, const IntervalSet& b, IntervalSet& into) {
            for (std::int64_t v = a.first_from(int_min); v <= int_max; v = a.first_from(v)) {
                const std::int64_t w = b.first_from(v);
                if (w > int_max) return;
                if (w > v) {
                    v = w;
                    continue;
                }
                const std::int64_t end = std::min(a.run_end(v), b.run_end(v));
                into.add(v, end);
                v = end + 1;
            }
        };
        IntervalSet keep;
        both(solutions(ay - ax, by - bx, Rel::eq), solutions(ax, bx, Rel::ge), keep);
        both(solutions(ay + ax, by + bx, Rel::eq), solutions(ax, bx, Rel::lt), keep);
        return keep_only(s, x_.var(), keep) ? PropStatus::fix : PropStatus::failed;
    }

private:
    X x_;
    Y y_;
};

} // namespace detail

// The arguments are constrained to views (each view kind converts to
// AffineView, a number does not), so that a user's `using namespace
// propane` leaves abs(-3) to the standard library.
template <class X, class Y>
    requires std::convertible_to<X, AffineView> && std::convertible_to<Y, AffineView>
struct Abs {
    X x;
    Y y;

    template <class Store>
    int post(Store& s) const {
        s.check(x.var(), "abs");
        s.check(y.var(), "abs");
        if (x.var().index() == y.var().index())
            return s.add_propagator(std::make_unique<detail::AbsSameVariable<Store, X, Y>>(x, y));
        const int id = s.add_propagator(std::make_unique<detail::AbsDomain<Store, X, Y>>(x, y));
        s.subscribe(x.var(), id, Event::domain);
        s.subscribe(y.var(), id, Event::domain);
        return id;
    }
};

template <class X, class Y>
    requires std::convertible_to<X, AffineView> && std::convertible_to<Y, AffineView>
Abs<X, Y> abs(X x, Y y) {
    return {x, y};
}

} // namespace propane

#endif
