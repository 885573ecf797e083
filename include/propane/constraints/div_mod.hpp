#ifndef PROPANE_CONSTRAINTS_DIV_MOD_HPP
#define PROPANE_CONSTRAINTS_DIV_MOD_HPP

// div(x, y, z): z == x / y, and mod(x, y, z): z == x % y, with C++'s
// truncating division (the quotient rounds toward 0, the remainder takes
// x's sign), over any three views. y == 0 is never a solution, so 0 leaves
// y at the first propagation: a y that can only be 0, when posted or at
// any node of a search, fails there, as any constraint without a solution
// does (MiniZinc's relational semantics, and FlatZinc's: no exception, as
// the divisor may come to be 0 only through other constraints).
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
// mod's strength: bounds(Z) on x, y and z as well, plus 0 removed from y.
// The remainder depends on |y| only and takes x's sign, so the reasoning is
// on magnitudes again, m mod n == r with m >= 1, n >= 1, r >= 0 (and x == 0
// gives z == 0 for every y). Remainders are not monotone in m or n, so the
// supports are not one closed form; they are a union of closed forms:
//   quotient 0   m == r < n: m and r over the common values of M and R
//                below n2, n from just above them up to n2;
//   one n        the residues of [m1, m2] run from m1 mod n to m2 mod n
//                (all of them when the interval spans n values), so the
//                least m >= m1 and greatest m <= m2 with a residue in R,
//                and the least and greatest such residue, are one step;
//   one q >= 1   m == q*n + r: the n for which some r fits form one
//                interval (each constraint on r is linear in n), over which
//                r's least is at its greatest n, r's greatest where n - 1
//                meets m2 - q*n, and m's extremes at its ends.
// n beyond m2 has quotient 0 only. The rest is walked by divisor up to
// about sqrt(m2) and by quotient beyond it, so a run costs O(sqrt(max|x|))
// steps at worst (a few for the small values of most models, and fewer
// when y's range is narrow), and each view is narrowed to the hull of its
// supports, to a fixpoint, as div is.
//
// Every value is an int and every product and quotient is computed in 64
// bits, so nothing overflows. INT_MIN / -1 is 2^31, beyond any view's
// domain, so that pair simply has no solution for div (a bound beyond int
// empties the view, which keep_at_least / keep_at_most handle); its
// remainder is 0 (m == 2^31 is a magnitude like any other). The rules read
// bounds only (and whether 0 lies within them), so both propagators wake on
// bounds events.

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

namespace detail::remainder {

using product::Interval;
using product::nothing;

// The hulls of the supported magnitudes of m mod n == r over a box with
// m >= 1, n >= 1, r >= 0; each empty when the box holds no solution.
struct Supports {
    Interval m = nothing;
    Interval n = nothing;
    Interval r = nothing;

    void add(Interval sm, Interval sn, Interval sr) noexcept {
        m = product::hull(m, sm);
        n = product::hull(n, sn);
        r = product::hull(r, sr);
    }
};

// The solutions with the one divisor n: m mod n takes the residues from
// m1 mod n to m2 mod n (every one when M spans n values or more), so the
// least m past m1 and the greatest before m2 with a residue in R, and the
// residues in R that M reaches, are one step each.
inline void with_divisor(Interval M, std::int64_t n, Interval R, Supports& out) noexcept {
    const std::int64_t r_hi = std::min(R.hi, n - 1);
    if (R.lo > r_hi) return;
    const std::int64_t a = M.lo % n, b = M.hi % n;
    const std::int64_t m_lo = a < R.lo ? M.lo - a + R.lo : a <= r_hi ? M.lo : M.lo - a + n + R.lo;
    if (m_lo > M.hi) return;
    const std::int64_t m_hi = b > r_hi ? M.hi - b + r_hi : b >= R.lo ? M.hi : M.hi - b - n + r_hi;
    Interval r{R.lo, r_hi};
    if (M.hi - M.lo + 1 < n) {
        if (a <= b) r = {std::max(a, R.lo), std::min(b, r_hi)};
        else r = {R.lo <= b ? R.lo : std::max(a, R.lo), r_hi >= a ? r_hi : std::min(b, r_hi)};
    }
    out.add({m_lo, m_hi}, {n, n}, r);
}

// The solutions m = q*n + r with the one quotient q >= 1 and n in [L, H].
// For a given n the r that fit form the interval
//   max(r1, m1 - q*n) .. min(r2, n - 1, m2 - q*n),
// nonempty for the n of one interval (each pair of bounds is one linear
// inequality in n). Over it, the least r is at the greatest n, the
// greatest where n - 1 meets m2 - q*n, and m = q*n + r grows with n at
// both ends.
inline void with_quotient(Interval M, std::int64_t L, std::int64_t H, std::int64_t q, Interval R,
                          Supports& out) noexcept {
    const std::int64_t na =
        std::max({L, R.lo + 1, ceil_div(M.lo - R.hi, q), ceil_div(M.lo + 1, q + 1)});
    const std::int64_t nb = std::min(H, floor_div(M.hi - R.lo, q));
    if (na > nb) return;
    const auto r_at = [&](std::int64_t n) { return std::min({R.hi, n - 1, M.hi - q * n}); };
    const std::int64_t cross = std::clamp((M.hi + 1) / (q + 1), na, nb);
    const std::int64_t r_hi = std::max(r_at(cross), r_at(std::min(cross + 1, nb)));
    out.add({std::max(q * na + R.lo, M.lo), std::min({q * nb + R.hi, (q + 1) * nb - 1, M.hi})}, {na, nb},
            {std::max(R.lo, M.lo - q * nb), r_hi});
}

// All the solutions over M x N x R. Quotient 0 (m == r < n) takes every n
// at once. Above it, n > m2 has none, and the rest is walked divisor by
// divisor up to T and quotient by quotient beyond (q < m2 / T there): with
// T near sqrt(m2), O(sqrt(m2)) steps, fewer when N is narrow.
inline Supports supports(Interval M, Interval N, Interval R) noexcept {
    Supports out;
    const std::int64_t lo = std::max(M.lo, R.lo), hi = std::min({M.hi, R.hi, N.hi - 1});
    if (lo <= hi) out.add({lo, hi}, {std::max(N.lo, lo + 1), N.hi}, {lo, hi});
    const std::int64_t H = std::min(N.hi, M.hi);
    if (N.lo > H) return out;
    // The floor of M.hi's square root, by Newton's method from above (exact
    // on integers: it stops at the floor).
    std::int64_t root = std::max<std::int64_t>(M.hi, 0);
    for (std::int64_t next = (root + 1) / 2; next < root; next = (root + M.hi / root) / 2) root = next;
    const std::int64_t T = H - N.lo <= 2 * root ? H : std::max(N.lo - 1, root);
    for (std::int64_t n = N.lo; n <= T; ++n) with_divisor(M, n, R, out);
    if (T < H)
        for (std::int64_t q = 1, top = M.hi / (T + 1); q <= top; ++q) with_quotient(M, T + 1, H, q, R, out);
    return out;
}

} // namespace detail::remainder

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

// x % y == z to bounds(Z): the supports of each sign of x (z takes it, or
// is 0) and each sign of y (only its magnitude counts), and x == 0 with
// z == 0 for every y.
template <class Store, class X, class Y, class Z>
class ModBounds : public PropagatorBase<Store, ModBounds<Store, X, Y, Z>> {
public:
    ModBounds(X x, Y y, Z z) : x_(x), y_(y), z_(z) {}

    PropStatus propagate(Store& s) override {
        using product::bounds_of;
        using product::hull;
        using product::Interval;
        using product::magnitudes;
        using product::nothing;
        using quotient::quotient_magnitudes;
        using quotient::signed_range;
        return to_fixpoint(s, [&](const auto& narrow, const auto& apply) {
            if (!apply(y_.remove(s, 0))) return false;
            const Interval x = bounds_of(x_, s), y = quotient::nonzero(bounds_of(y_, s)), z = bounds_of(z_, s);
            Interval hx = nothing, hy = nothing, hz = nothing;
            if (!y.empty() && x.holds_zero() && z.holds_zero()) hx = {0, 0}, hy = y, hz = {0, 0};
            for (const int sx : {-1, 1}) {
                const Interval M = magnitudes(x, sx), R = quotient_magnitudes(z, sx);
                if (M.empty() || R.empty()) continue;
                for (const int sy : {-1, 1}) {
                    const Interval N = magnitudes(y, sy);
                    if (N.empty()) continue;
                    const remainder::Supports sup = remainder::supports(M, N, R);
                    if (sup.n.empty()) continue;
                    hx = hull(hx, signed_range(sup.m, sx));
                    hy = hull(hy, signed_range(sup.n, sy));
                    hz = hull(hz, signed_range(sup.r, sx));
                }
            }
            return narrow(x_, hx) && narrow(y_, hy) && narrow(z_, hz);
        });
    }

private:
    X x_;
    Y y_;
    Z z_;
};

// Posts propagator P of x / y or x % y: the same checks and bounds
// subscriptions for both.
template <template <class, class, class, class> class P, class Store, class X, class Y, class Z>
int post_division(Store& s, const X& x, const Y& y, const Z& z, const char* who) {
    s.check(x.var(), who);
    s.check(y.var(), who);
    s.check(z.var(), who);
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
        return detail::post_division<detail::ModBounds>(s, x, y, z, "mod");
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
