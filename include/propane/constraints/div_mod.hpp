#ifndef PROPANE_CONSTRAINTS_DIV_MOD_HPP
#define PROPANE_CONSTRAINTS_DIV_MOD_HPP

// div(x, y, z): z == x / y, and mod(x, y, z): z == x % y, with C++'s
// truncating division (the quotient rounds toward 0, the remainder takes
// x's sign), over any three views. y == 0 is never a solution, so 0 leaves
// y when posted; a y that can only be 0 is a model_error.
//
// div's strength: bounds(Z) on x, y and z, plus 0 removed from y. After a
// run every bound of every view has a support in which the other two take
// integers between their bounds (holes ignored), and the box is the
// greatest such: nothing with a support is removed. The reasoning is on
// magnitudes: for x of one sign and y of one sign, |z| = |x| / |y| rounded
// down, z takes the sign of x * y (or is 0), and x == 0 gives z == 0 for
// every y. With m in [m1, m2], n in [n1, n2] (both >= 1) and q in [q1, q2]
// (>= 0), floor(m / n) == q for some such triple exactly when
// q*n <= m < (q+1)*n, and for a fixed n the quotients of [m1, m2] are all
// of floor(m1/n) .. floor(m2/n). That gives each extreme in closed form:
//   n: the supported n form the interval
//      [floor(m1/(q2+1)) + 1, floor(m2/q1)] (no upper end when q1 == 0);
//   m: the least is max(m1, q1*n) at the least n with (q2+1)*n > m1, the
//      greatest min(m2, (q2+1)*n - 1) at the greatest n with q1*n <= m2;
//   q: the least is max(q1, floor(m1/n)) at the greatest n with
//      q1*n <= m2, the greatest min(q2, floor(m2/n)) at the least n with
//      (q2+1)*n > m1.
// Each view is narrowed to the hull of its supported values over the four
// sign pairs and x == 0, and the rules repeat until no bound moves (views
// with holes may land beyond the bound asked for; views sharing a variable
// move each other, where the result is sound but not bounds(Z)).
//
// mod's strength is a relaxation, sound and exact once x and y are fixed
// (z is then set), not bounds consistent: the remainder's magnitude is at most |x|'s
// and below |y|'s, z has x's sign, |y| exceeds the least |z|, x keeps the
// sign and at least the magnitude of z, and z == x when every |x| is below
// every |y|. The quotients of a remainder are not monotone, which is why
// its supports have no closed form like div's.
//
// Every value is an int and every product and quotient is computed in 64
// bits, so nothing overflows. INT_MIN / -1 is 2^31, beyond any view's
// domain, so that pair simply has no solution for div (a bound beyond int
// empties the view, which keep_at_least / keep_at_most handle); its
// remainder is 0, computed on magnitudes. The rules read bounds only (and
// whether 0 lies within them), so both propagators wake on bounds events.

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>

#include "../engine/error.hpp"
#include "../engine/propagator.hpp"
#include "../engine/view.hpp"
#include "times.hpp"

namespace propane {

namespace detail::quotient {

using product::Interval;
using product::nothing;

// The supported magnitudes of floor(m / n) == q over the box m in M, n in
// N, q in Q, all nonempty, m and n >= 1, q >= 0; each empty when the box
// holds no solution.
struct Supports {
    Interval m = nothing;
    Interval n = nothing;
    Interval q = nothing;
};

inline Supports supports(Interval M, Interval N, Interval Q) noexcept {
    Supports out;
    const std::int64_t n_least = std::max(N.lo, M.lo / (Q.hi + 1) + 1);
    const std::int64_t n_most = Q.lo > 0 ? std::min(N.hi, M.hi / Q.lo) : N.hi;
    if (n_least > n_most) return out;
    out.n = {n_least, n_most};
    out.m = {std::max(M.lo, Q.lo * n_least), std::min(M.hi, (Q.hi + 1) * n_most - 1)};
    out.q = {std::max(Q.lo, M.lo / n_most), std::min(Q.hi, M.hi / n_least)};
    return out;
}

inline Interval signed_range(Interval magnitude, int sign) noexcept {
    return sign > 0 ? magnitude : Interval{-magnitude.hi, -magnitude.lo};
}

// The magnitudes q >= 0 with sign * q in z.
inline Interval quotient_magnitudes(Interval z, int sign) noexcept {
    return sign > 0 ? Interval{std::max<std::int64_t>(z.lo, 0), z.hi} : Interval{std::max<std::int64_t>(-z.hi, 0), -z.lo};
}

// The least and greatest nonzero values of y, or nothing.
inline Interval nonzero(Interval y) noexcept {
    const Interval out{y.lo == 0 ? 1 : y.lo, y.hi == 0 ? -1 : y.hi};
    return out.empty() ? nothing : out;
}

struct Hulls {
    Interval x = nothing;
    Interval y = nothing;
    Interval z = nothing;
};

inline Hulls div_supports(Interval x, Interval y, Interval z) noexcept {
    using product::hull;
    using product::magnitudes;
    Hulls out;
    const Interval ny = nonzero(y);
    if (ny.empty()) return out;
    if (x.holds_zero() && z.holds_zero()) out = {{0, 0}, ny, {0, 0}};
    for (const int sx : {-1, 1}) {
        const Interval M = magnitudes(x, sx);
        if (M.empty()) continue;
        for (const int sy : {-1, 1}) {
            const Interval N = magnitudes(y, sy);
            const Interval Q = quotient_magnitudes(z, sx * sy);
            if (N.empty() || Q.empty()) continue;
            const Supports s = supports(M, N, Q);
            if (s.n.empty()) continue;
            out.x = hull(out.x, signed_range(s.m, sx));
            out.y = hull(out.y, signed_range(s.n, sy));
            out.z = hull(out.z, signed_range(s.q, sx * sy));
        }
    }
    return out;
}

} // namespace detail::quotient

namespace detail {

// Runs `rules` (which narrows and reports through `narrow` and `apply`)
// until no bound moves.
template <class Store, class Rules>
PropStatus to_fixpoint(Store& s, Rules&& rules) {
    bool changed = true;
    const auto apply = [&changed](Change c) {
        changed = changed || c != Change::none;
        return c != Change::failed;
    };
    const auto narrow = [&](const auto& v, product::Interval to) {
        return !to.empty() && apply(keep_at_least(v, s, to.lo)) && apply(keep_at_most(v, s, to.hi));
    };
    while (changed) {
        changed = false;
        if (!rules(narrow, apply)) return PropStatus::failed;
    }
    return PropStatus::fix;
}

template <class Store, class X, class Y, class Z>
class DivBounds : public PropagatorBase<Store, DivBounds<Store, X, Y, Z>> {
public:
    DivBounds(X x, Y y, Z z) : x_(x), y_(y), z_(z) {}

    PropStatus propagate(Store& s) override {
        using product::bounds_of;
        return to_fixpoint(s, [&](const auto& narrow, const auto& apply) {
            if (!apply(y_.remove(s, 0))) return false;
            const quotient::Hulls h = quotient::div_supports(bounds_of(x_, s), bounds_of(y_, s), bounds_of(z_, s));
            return narrow(x_, h.x) && narrow(y_, h.y) && narrow(z_, h.z);
        });
    }

private:
    X x_;
    Y y_;
    Z z_;
};

template <class Store, class X, class Y, class Z>
class ModRelaxed : public PropagatorBase<Store, ModRelaxed<Store, X, Y, Z>> {
public:
    ModRelaxed(X x, Y y, Z z) : x_(x), y_(y), z_(z) {}

    PropStatus propagate(Store& s) override {
        using product::bounds_of;
        using product::Interval;
        return to_fixpoint(s, [&](const auto& narrow, const auto& apply) {
            if (!apply(y_.remove(s, 0))) return false;
            const Interval x = bounds_of(x_, s), y = bounds_of(y_, s);
            if (x.lo == x.hi && y.lo == y.hi) {
                const std::int64_t r = x.lo % y.lo;
                return narrow(z_, {r, r});
            }
            const std::int64_t y_most = std::max(-y.lo, y.hi);
            const std::int64_t y_floor = y.lo > 0 ? y.lo : y.hi < 0 ? -y.hi : 1;
            const std::int64_t x_most = std::max(-x.lo, x.hi);
            if (x_most < y_floor) return narrow(z_, x) && narrow(x_, bounds_of(z_, s));
            if (!narrow(z_, {std::max({std::min<std::int64_t>(x.lo, 0), 1 - y_most}),
                             std::min({std::max<std::int64_t>(x.hi, 0), y_most - 1})}))
                return false;
            const Interval zz = bounds_of(z_, s);
            if (!narrow(x_, {zz.lo > 0 ? zz.lo : x.lo, zz.hi < 0 ? zz.hi : x.hi})) return false;
            if (zz.holds_zero()) return true;
            const std::int64_t k = zz.lo > 0 ? zz.lo : -zz.hi;
            if (!apply(x_.remove(s, 0))) return false;
            const Interval yy = bounds_of(y_, s);
            if (yy.lo > -(k + 1)) return narrow(y_, {k + 1, yy.hi});
            if (yy.hi < k + 1) return narrow(y_, {yy.lo, -(k + 1)});
            return true;
        });
    }

private:
    X x_;
    Y y_;
    Z z_;
};

// Posts propagator P of x / y or x % y: the same checks, refusal of a
// divisor that can only be 0, and bounds subscriptions for both.
template <template <class, class, class, class> class P, class Store, class X, class Y, class Z>
int post_division(Store& s, const X& x, const Y& y, const Z& z, const char* who) {
    s.check(x.var(), who);
    s.check(y.var(), who);
    s.check(z.var(), who);
    if (y.min(s) == 0 && y.max(s) == 0)
        throw model_error(std::string(who) + ": the divisor can only be 0, so no value of it is a solution");
    const int id = s.add_propagator(std::make_unique<P<Store, X, Y, Z>>(x, y, z));
    s.subscribe(x.var(), id, Event::bounds);
    s.subscribe(y.var(), id, Event::bounds);
    s.subscribe(z.var(), id, Event::bounds);
    return id;
}

} // namespace detail

template <class X, class Y, class Z>
    requires std::convertible_to<X, AffineView> && std::convertible_to<Y, AffineView> &&
             std::convertible_to<Z, AffineView>
struct Div {
    X x;
    Y y;
    Z z;

    template <class Store>
    int post(Store& s) const {
        return detail::post_division<detail::DivBounds>(s, x, y, z, "div");
    }
};

template <class X, class Y, class Z>
    requires std::convertible_to<X, AffineView> && std::convertible_to<Y, AffineView> &&
             std::convertible_to<Z, AffineView>
struct Mod {
    X x;
    Y y;
    Z z;

    template <class Store>
    int post(Store& s) const {
        return detail::post_division<detail::ModRelaxed>(s, x, y, z, "mod");
    }
};

template <class X, class Y, class Z>
    requires std::convertible_to<X, AffineView> && std::convertible_to<Y, AffineView> &&
             std::convertible_to<Z, AffineView>
Div<X, Y, Z> div(X x, Y y, Z z) {
    return {x, y, z};
}

template <class X, class Y, class Z>
    requires std::convertible_to<X, AffineView> && std::convertible_to<Y, AffineView> &&
             std::convertible_to<Z, AffineView>
Mod<X, Y, Z> mod(X x, Y y, Z z) {
    return {x, y, z};
}

} // namespace propane

#endif
