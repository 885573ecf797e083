#ifndef PROPANE_MODEL_RELATION_HPP
#define PROPANE_MODEL_RELATION_HPP

// Relations between expressions are constraints: x + y <= z, x != y,
// sum(xs) == 10, 2 * x - 3 * y + 4 != z - 1. Each of == != < <= > >=
// between views, expressions and numbers (at least one side not a number)
// is an ExprRel, which s.post() lowers to the best propagator the library
// has (lower.hpp); its non-linear parts become auxiliary variables first
// (define.hpp).
//
// Between two variables, == is therefore a constraint, not a comparison
// of handles: x.same(y) tells whether two handles name one variable. A
// relation is never a bool: logic between relations (&&, ||, !, >>, ==)
// builds a formula (logic.hpp), and a relation tested as a bool fails to
// compile with a message naming what to write instead.

#include <concepts>
#include <string>
#include <utility>

#include "define.hpp"
#include "expr.hpp"
#include "lower.hpp"

namespace propane {

// e r 0, as the comparison operators return it.
class ExprRel {
public:
    ExprRel(Expr e, Rel r) : e_(std::move(e)), r_(r) {}

    // The relation as lhs - rhs r 0.
    const Expr& expr() const noexcept { return e_; }
    Rel rel() const noexcept { return r_; }

    // Defined below, out of the class and not inline, so that an explicit
    // instantiation declaration (propane/compiled.hpp) keeps a model's file
    // from instantiating the lowering: it reaches nearly every propagator.
    template <class S>
    void post(S& s) const;

    // A relation is a constraint, for s.post(); testing it as a bool
    // (if (x < y), bool same = x == y) has no meaning before a search, so
    // it does not compile. Not explicit: copy-initialising a bool must meet
    // the assertion too, not a bare "cannot convert".
    template <class D = void>
    operator bool() const { // NOLINT: implicit, so that every use as a bool meets the assertion
        static_assert(detail::never<D>, "propane: a relation such as x < y is a constraint, not a bool: post it "
                                        "with s.post(x < y), or reify it with a Boolean, s.post(b == (x < y)); "
                                        "to compare variable handles use x.same(y)");
        return false;
    }

private:
    Expr e_;
    Rel r_;
};

template <class S>
void ExprRel::post(S& s) const {
    detail::post_linear(s, detail::resolved(s, e_, "post"), r_);
}

// A relation between two linear sides (views, numbers, LinearExpr): an
// ExprRel wherever one is taken, posted through the linear lowering alone
// (expr.hpp says why).
class LinearRel : public ExprRel {
public:
    LinearRel(LinearExpr e, Rel r) : ExprRel(std::move(e), r) {}

    // Out of the class, as ExprRel::post.
    template <class S>
    void post(S& s) const;
};

template <class S>
void LinearRel::post(S& s) const {
    detail::post_linear(s, detail::resolved_linear(s, expr(), "post"), rel());
}

namespace detail {

// x R y between two views, or x R c with c a number (Y = std::int64_t),
// as the operators make it: posted as rel(x, R, y) or rel(x, R, c) over
// the views as written, with R's propagator alone.
template <class X, class Y, Rel R>
class ViewRelation : public LinearRel {
public:
    ViewRelation(LinearExpr e, const X& x, const Y& y) : LinearRel(std::move(e), R), x_(x), y_(y) {}

    template <class S>
    void post(S& s) const;

private:
    X x_;
    Y y_;
};

template <class X, class Y, Rel R>
template <class S>
void ViewRelation<X, Y, R>::post(S& s) const {
    if constexpr (std::integral<Y>)
        post_const_rel<R>(s, x_, y_, "post");
    else
        post_rel<R>(s, x_, y_, "post");
}

// A relation with a LinearSum<N> on a side (N counting both sides' view
// operands, 4 for four or more): post_linear_shaped's.
template <int N, Rel R>
class SumRelation : public LinearRel {
public:
    explicit SumRelation(LinearExpr e) : LinearRel(std::move(e), R) {}

    template <class S>
    void post(S& s) const;
};

template <int N, Rel R>
template <class S>
void SumRelation<N, R>::post(S& s) const {
    post_linear_shaped<N, R>(s, resolved_linear(s, expr(), "post"));
}

template <class A, class B>
concept RelOperands = (Operand<A> && (Operand<B> || std::integral<B>)) || (std::integral<A> && Operand<B>);

// What a R b is: an ExprRel when a side is not linear, a LinearRel when a
// side is a LinearExpr its type does not count (sum(xs)), a ViewRelation
// between views and numbers, a SumRelation otherwise.
template <Rel R, class A, class B>
auto relation(const A& a, const B& b) {
    if constexpr (!(LinearSide<A> && LinearSide<B>)) {
        return ExprRel(as_expr(a) - as_expr(b), R);
    } else if constexpr (sum_count<A, B> < 0) {
        return LinearRel(LinearExpr(as_expr(a) - as_expr(b)), R);
    } else if constexpr (operand_count<A> <= 1 && operand_count<B> <= 1) {
        // A number on the left is the relation's right side, R swapped
        // (in the expression too: b - a swapped(R) 0).
        if constexpr (std::integral<A>)
            return ViewRelation<B, std::int64_t, swapped(R)>(LinearExpr(as_expr(b) - as_expr(a)), b, to64(a));
        else if constexpr (std::integral<B>)
            return ViewRelation<A, std::int64_t, R>(LinearExpr(as_expr(a) - as_expr(b)), a, to64(b));
        else
            return ViewRelation<A, B, R>(LinearExpr(as_expr(a) - as_expr(b)), a, b);
    } else {
        return SumRelation<sum_count<A, B>, R>(LinearExpr(as_expr(a) - as_expr(b)));
    }
}

} // namespace detail

template <class A, class B>
    requires detail::RelOperands<A, B>
auto operator==(const A& a, const B& b) {
    return detail::relation<Rel::eq>(a, b);
}
template <class A, class B>
    requires detail::RelOperands<A, B>
auto operator!=(const A& a, const B& b) {
    return detail::relation<Rel::ne>(a, b);
}
template <class A, class B>
    requires detail::RelOperands<A, B>
auto operator<(const A& a, const B& b) {
    return detail::relation<Rel::lt>(a, b);
}
template <class A, class B>
    requires detail::RelOperands<A, B>
auto operator<=(const A& a, const B& b) {
    return detail::relation<Rel::le>(a, b);
}
template <class A, class B>
    requires detail::RelOperands<A, B>
auto operator>(const A& a, const B& b) {
    return detail::relation<Rel::gt>(a, b);
}
template <class A, class B>
    requires detail::RelOperands<A, B>
auto operator>=(const A& a, const B& b) {
    return detail::relation<Rel::ge>(a, b);
}

} // namespace propane

#endif
