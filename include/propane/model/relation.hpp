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

template <class A, class B>
concept RelOperands = (Operand<A> && (Operand<B> || std::integral<B>)) || (std::integral<A> && Operand<B>);

// LinearRel between two linear sides, ExprRel otherwise.
template <class A, class B>
using relation_t = std::conditional_t<LinearSide<A> && LinearSide<B>, LinearRel, ExprRel>;

template <class A, class B>
relation_t<A, B> relation(const A& a, const B& b, Rel r) {
    return {typed<sum_t<A, B>>(as_expr(a) - as_expr(b)), r};
}

} // namespace detail

template <class A, class B>
    requires detail::RelOperands<A, B>
detail::relation_t<A, B> operator==(const A& a, const B& b) {
    return detail::relation(a, b, Rel::eq);
}
template <class A, class B>
    requires detail::RelOperands<A, B>
detail::relation_t<A, B> operator!=(const A& a, const B& b) {
    return detail::relation(a, b, Rel::ne);
}
template <class A, class B>
    requires detail::RelOperands<A, B>
detail::relation_t<A, B> operator<(const A& a, const B& b) {
    return detail::relation(a, b, Rel::lt);
}
template <class A, class B>
    requires detail::RelOperands<A, B>
detail::relation_t<A, B> operator<=(const A& a, const B& b) {
    return detail::relation(a, b, Rel::le);
}
template <class A, class B>
    requires detail::RelOperands<A, B>
detail::relation_t<A, B> operator>(const A& a, const B& b) {
    return detail::relation(a, b, Rel::gt);
}
template <class A, class B>
    requires detail::RelOperands<A, B>
detail::relation_t<A, B> operator>=(const A& a, const B& b) {
    return detail::relation(a, b, Rel::ge);
}

} // namespace propane

#endif
