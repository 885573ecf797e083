#ifndef PROPANE_MODEL_LOWER_HPP
#define PROPANE_MODEL_LOWER_HPP

// How a linear relation sum(a_i * x_i) + c r 0 (an Expr whose non-linear
// parts are already variables, merged per variable) becomes the best
// propagator the library has, plain or reified:
//
//   terms  posted as                                    (reified: the same
//   0      nothing if c r 0 holds, else a failed store   with iff / implies)
//   1      rel(x, r', k): a bound, a value or a hole, applied at once
//   2      rel(X, r, Y) of two views (x == y + 1 is rel(x, eq, y + 1)),
//          when both views fit in int; else as below
//   3+     linear(), which itself takes the unit-coefficient sum for two or
//          three terms of coefficient +-1
//
// No per-node cost is added: the propagators are the ones the calls above
// would post by hand.
//
// A relation the operators made knows more when it is compiled: which of
// the six relations it is, and how many view operands it has
// (relation.hpp). post_linear_shaped follows the same table for it, but
// instantiates only that relation's propagators, and the cheaper shapes
// (views of one kind, the unit sums) only for the count it expects: for
// x + y + z + w == 10 the sum and one pair of AffineViews, for x != 0 a
// removal, where post_linear compiles some twenty propagator classes.

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "../constraints/bool/linear_reif.hpp"
#include "../constraints/bool/rel_reif.hpp"
#include "../constraints/linear.hpp"
#include "../constraints/reify.hpp"
#include "../constraints/rel.hpp"
#include "expr.hpp"

namespace propane::detail {

// a*x + c r 0 as x r' k, or as a constant truth when no x satisfies it
// (2x == 3) or every x does (2x != 3).
struct UnaryBound {
    Rel r;
    std::int64_t k;
    int truth; // 1 always true, -1 never, 0 the bound x r k
};

inline UnaryBound unary_bound(std::int64_t a, std::int64_t c, Rel r) {
    std::int64_t m = mul64(c, -1);
    if (a < 0) {
        a = mul64(a, -1);
        m = mul64(m, -1);
        r = swapped(r);
    }
    // Now a > 0 and a*x r m; for integer x, a*x < m is x < ceil(m / a) and
    // so on, none of which can overflow.
    switch (r) {
    case Rel::eq: return m % a != 0 ? UnaryBound{r, 0, -1} : UnaryBound{r, m / a, 0};
    case Rel::ne: return m % a != 0 ? UnaryBound{r, 0, 1} : UnaryBound{r, m / a, 0};
    case Rel::lt: return {r, ceil_div(m, a), 0};
    case Rel::le: return {r, floor_div(m, a), 0};
    case Rel::gt: return {r, floor_div(m, a), 0};
    case Rel::ge: return {r, ceil_div(m, a), 0};
    }
    return {r, m, 0};
}

// Whether a*x + b is a view whose values fit in int (AffineView's check,
// without the exception).
inline bool affine_fits(IntVar x, std::int64_t a, std::int64_t b) {
    if (a == 0 || a < int_min || a > int_max || b < int_min || b > int_max) return false;
    const std::int64_t u = a * x.lo() + b, w = a * x.hi() + b;
    return std::min(u, w) >= int_min && std::max(u, w) <= int_max;
}

// a*x + b*y + c r 0 as two views X r Y, handed to post(X, r, Y): x r y,
// x r y + q, or a*x r p*y + q. False, posting nothing, when a side does
// not fit a view.
// Cheapest false: always the pair of AffineViews, one propagator class for
// a post that did not expect two terms (post_linear_shaped).
template <bool Cheapest = true, class Post>
bool with_two_views(const Expr::Term& tx, const Expr::Term& ty, std::int64_t c, Rel r, Post&& post) {
    std::int64_t a = tx.a, b = ty.a;
    if (a < 0) {
        a = mul64(a, -1);
        b = mul64(b, -1);
        c = mul64(c, -1);
        r = swapped(r);
    }
    const std::int64_t p = mul64(b, -1), q = mul64(c, -1);
    const IntVar x = tx.x, y = ty.x;
    if (!affine_fits(x, a, 0) || !affine_fits(y, p, q)) return false;
    const int ia = static_cast<int>(a), ip = static_cast<int>(p), iq = static_cast<int>(q);
    // Three view pairs, not one per shape: each pair is a propagator class
    // per relation that every file posting an expression compiles. x = y
    // and x = y + c, the common shapes, keep their cheapest views.
    if constexpr (Cheapest) {
        if (p == 1 && q == 0 && a == 1) {
            post(x, r, y);
            return true;
        }
        if (p == 1 && a == 1) {
            post(x, r, OffsetView(y, iq));
            return true;
        }
    }
    post(AffineView(x, ia, 0), r, AffineView(y, ip, iq));
    return true;
}

// The coefficients and variables of e's terms, and the constant moved to
// the right: linear()'s arguments.
inline Linear<IntVar> as_linear(const Expr& e, Rel r) {
    Linear<IntVar> l{{}, {}, r, mul64(e.constant(), -1)};
    for (const Expr::Term& t : e.terms()) {
        l.coeffs.push_back(t.a);
        l.views.push_back(t.x);
    }
    return l;
}

// A relation that cannot hold: the model is unsatisfiable, which the store
// remembers (as rel and linear leave a constant contradiction), not an error.
template <class S>
void contradiction(S& s) noexcept {
    [[maybe_unused]] const Change c = s.fail();
}

// e R 0 for e linear and normal (see the table above), made by the
// operators from N view operands (N = 4: four or more; expr.hpp's
// LinearSum) or not counted (N = 0), R fixed by the operator: the table
// for whatever count of terms e has (terms merge, cancel, or are added in
// place to a sum its type counted), but only R's propagators, and the
// cheaper shapes only for the count the type expects: views of one kind
// each for two operands, the unit-coefficient sums for three (for two and
// three when not counted).
template <int N, Rel R, class S>
void post_linear_shaped(S& s, const Expr& e) {
    const std::vector<Expr::Term>& t = e.terms();
    if (t.empty()) {
        if (!holds(R, e.constant(), 0)) contradiction(s);
        return;
    }
    if (t.size() == 1) {
        const UnaryBound u = unary_bound(t[0].a, e.constant(), R);
        if (u.truth < 0) contradiction(s);
        if (u.truth == 0) {
            if (u.r == R)
                post_const_rel<R>(s, t[0].x, u.k, "post");
            else
                post_const_rel<swapped(R)>(s, t[0].x, u.k, "post");
        }
        return;
    }
    const auto post = [&](const auto& x, Rel r, const auto& y) {
        if (r == R)
            post_rel<R>(s, x, y, "post");
        else
            post_rel<swapped(R)>(s, x, y, "post");
    };
    if (t.size() == 2 && with_two_views<N == 0 || N == 2>(t[0], t[1], e.constant(), R, post)) return;
    const Linear<IntVar> l = as_linear(e, R);
    constexpr UnitShapes units = N == 0 ? UnitShapes::two_and_three : N == 3 ? UnitShapes::three : UnitShapes::none;
    post_terms<units>(s, linear_terms(l.coeffs, l.views, l.c), RelIs<R>{}, l.c);
}

// Posts e r 0, e linear and normal, r read at run time: every shape of the
// table, for each relation.
template <class S>
void post_linear(S& s, const Expr& e, Rel r) {
    check_rel(r, "post");
    with_rel(r, [&](auto rel) { post_linear_shaped<0, rel.value>(s, e); });
}

// b == (e r 0) (iff) or b == 1 => e r 0 (implies), e linear and normal.
template <class S, class B>
void post_linear_reified(S& s, const Expr& e, Rel r, const Reify<B>& re) {
    const std::vector<Expr::Term>& t = e.terms();
    int truth = 0;
    if (t.empty()) truth = holds(r, e.constant(), 0) ? 1 : -1;
    if (t.size() == 1) {
        const UnaryBound u = unary_bound(t[0].a, e.constant(), r);
        truth = u.truth;
        if (truth == 0) ReifiedConstRelation<IntVar, B>{t[0].x, u.r, u.k, re}.post(s);
    }
    if (t.size() <= 1) {
        // A relation decided already fixes b (iff), or b to 0 when false
        // (implies).
        if (truth < 0 || (truth > 0 && re.mode == ReifyMode::iff))
            ConstRelation<B>{re.b, Rel::eq, truth > 0 ? 1 : 0}.post(s);
        return;
    }
    if (t.size() == 2 && with_two_views(t[0], t[1], e.constant(), r, [&](const auto& x, Rel rr, const auto& y) {
            ReifiedRelation<std::decay_t<decltype(x)>, std::decay_t<decltype(y)>, B>{x, rr, y, re}.post(s);
        }))
        return;
    Linear<IntVar> l = as_linear(e, r);
    ReifiedLinear<IntVar, B>{std::move(l.coeffs), std::move(l.views), r, l.c, re}.post(s);
}

} // namespace propane::detail

#endif
