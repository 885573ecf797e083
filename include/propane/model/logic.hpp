#ifndef PROPANE_MODEL_LOGIC_HPP
#define PROPANE_MODEL_LOGIC_HPP

// Logic over relations and Booleans: && (and), || (or), ! (not),
// >> (implies) and == (equivalence; != is its negation, exclusive or)
// between relations (x < y, x + y <= 4, ...), Boolean views (b, 1 - b) and
// other such formulas, nested at will:
//
//   s.post((x > 2) >> (y < 3));
//   s.post((x < y) || (y == z));
//   s.post(!(x == z));                         // posted as x != z
//   s.post(b == ((x < y) && (z != 1)));
//   s.post((x + y <= 4) >> ((x == 1) || (y >= 3)));
//
// Each is a BoolExpr, a tree nothing touches until it is posted
// (formula.hpp; formula_post.hpp says how it is posted). A Boolean view b or 1 - b
// stands for "b is 1"; it must take values within {0, 1} when posted, else
// model_error. Between Booleans alone, &&, || , >> and ! build formulas
// too (s.post(b1 || !b2) is a clause), but == and != keep their meaning
// for views: b1 == b2 is the relation between their values (the same
// thing for Booleans), so a formula's == needs a relation or a formula on
// one side.
//
// b == (relation) and b >> (relation) stay the reified relations of
// reified.hpp, and take part in formulas as what they say.

#include <concepts>
#include <vector>

#include "formula.hpp"
#include "formula_post.hpp"

namespace propane {

namespace detail {

template <class T>
inline constexpr bool is_reified_relation = false;
template <class B>
inline constexpr bool is_reified_relation<ReifiedExprRel<B>> = true;

// What makes an operator logical: a relation or a formula on one side.
template <class T>
concept LogicTerm = std::derived_from<T, ExprRel> || std::same_as<T, BoolExpr> || is_reified_relation<T>;

template <class T>
concept LogicOperand = LogicTerm<T> || BoolOperand<T>;

template <class A, class B>
concept LogicOperands = (LogicTerm<A> || LogicTerm<B>) && LogicOperand<A> && LogicOperand<B>;

// What &&, || and >> take: Booleans alone too.
template <class A, class B>
concept ConnectiveOperands = LogicOperand<A> && LogicOperand<B>;

// b == (relation) and b >> (relation) are reified.hpp's.
template <class A, class B>
concept ReifiedSpelling =
    (BoolOperand<A> && std::derived_from<B, ExprRel>) || (std::derived_from<A, ExprRel> && BoolOperand<B>);

template <class T>
BoolExpr as_logic(const T& t) {
    if constexpr (BoolOperand<T>)
        return BoolExpr::boolean(AffineView(t));
    else
        return BoolExpr(t);
}

template <class A, class B>
BoolExpr logic(LogicOp op, const A& a, const B& b) {
    return BoolExpr::of(op, {as_logic(a), as_logic(b)});
}

} // namespace detail

template <class A, class B>
    requires detail::ConnectiveOperands<A, B>
BoolExpr operator&&(const A& a, const B& b) {
    return detail::logic(detail::LogicOp::conjunction, a, b);
}

template <class A, class B>
    requires detail::ConnectiveOperands<A, B>
BoolExpr operator||(const A& a, const B& b) {
    return detail::logic(detail::LogicOp::disjunction, a, b);
}

template <detail::LogicOperand A>
BoolExpr operator!(const A& a) {
    return BoolExpr::of(detail::LogicOp::negation, {detail::as_logic(a)});
}

// a >> c: a implies c, that is !a || c.
template <class A, class B>
    requires detail::ConnectiveOperands<A, B> && (!detail::ReifiedSpelling<A, B>)
BoolExpr operator>>(const A& a, const B& c) {
    return BoolExpr::of(detail::LogicOp::disjunction, {!detail::as_logic(a), detail::as_logic(c)});
}

template <class A, class B>
    requires detail::LogicOperands<A, B> && (!detail::ReifiedSpelling<A, B>)
BoolExpr operator==(const A& a, const B& b) {
    return detail::logic(detail::LogicOp::equivalence, a, b);
}

// a != b: exactly one of the two holds. Constrained as == is, and b != r
// declared as reified.hpp declares b == r: C++20 also tries a != b as
// !(a == b), and only an equally specialised != is preferred to it.
template <class A, class B>
    requires detail::LogicOperands<A, B> && (!detail::ReifiedSpelling<A, B>)
BoolExpr operator!=(const A& a, const B& b) {
    return !detail::logic(detail::LogicOp::equivalence, a, b);
}
template <detail::BoolOperand B>
BoolExpr operator!=(const B& b, const ExprRel& r) {
    return !detail::logic(detail::LogicOp::equivalence, b, r);
}
template <detail::BoolOperand B>
BoolExpr operator!=(const ExprRel& r, const B& b) {
    return !detail::logic(detail::LogicOp::equivalence, b, r);
}

} // namespace propane

#endif
