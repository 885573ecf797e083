#ifndef PROPANE_COMPILED_CONSTRAINTS_HPP
#define PROPANE_COMPILED_CONSTRAINTS_HPP

// The posts of a model's sums and comparisons at each common domain width,
// compiled once in propane::compiled (see compiled.hpp): linear() and rel()
// over IntVar (rel() with a constant too), expressions (s.post(x + y <= z)),
// the relations the operators type by their shape (x < y, x + y == z),
// reified ones over each view kind (s.post(b == (x + y <= z))), formulas
// (s.post((x < y) || (y < z))), variables defined by expressions
// (s.int_var(abs(x - y))), clauses over IntVar and a schedule's
// precedences; with the linear and binary relation propagators over
// IntVar, for the tests.

#include <cstdint>

#include "store.hpp"

#include "../constraints/bool/clause.hpp"
#include "../constraints/bool/rel_reif.hpp"
#include "../constraints/linear.hpp"
#include "../constraints/rel.hpp"
#include "../engine/view.hpp"
#include "../model/define.hpp"
#include "../model/logic.hpp"
#include "../model/reified.hpp"
#include "../model/relation.hpp"

#define PROPANE_COMPILED_RELATIONS(how, S, X, Y)                                                                     \
    how class propane::detail::RelEq<S, X, Y>;                                                                       \
    how class propane::detail::RelNe<S, X, Y>;                                                                       \
    how class propane::detail::RelLe<S, X, Y>;

// The relations the operators make (model/relation.hpp), one post per
// relation R: sums of two, three and more operands, and each view kind
// against each view kind or a number.
#define PROPANE_COMPILED_VIEW_RELATIONS(how, S, X, R)                                                                \
    how void propane::detail::ViewRelation<X, propane::IntVar, propane::Rel::R>::post(S&) const;                      \
    how void propane::detail::ViewRelation<X, propane::OffsetView, propane::Rel::R>::post(S&) const;                  \
    how void propane::detail::ViewRelation<X, propane::AffineView, propane::Rel::R>::post(S&) const;                  \
    how void propane::detail::ViewRelation<X, std::int64_t, propane::Rel::R>::post(S&) const;

#define PROPANE_COMPILED_OPERATOR_RELATIONS(how, S, R)                                                               \
    how void propane::detail::SumRelation<2, propane::Rel::R>::post(S&) const;                                       \
    how void propane::detail::SumRelation<3, propane::Rel::R>::post(S&) const;                                       \
    how void propane::detail::SumRelation<4, propane::Rel::R>::post(S&) const;                                       \
    PROPANE_COMPILED_VIEW_RELATIONS(how, S, propane::IntVar, R)                                                      \
    PROPANE_COMPILED_VIEW_RELATIONS(how, S, propane::OffsetView, R)                                                  \
    PROPANE_COMPILED_VIEW_RELATIONS(how, S, propane::AffineView, R)

#define PROPANE_COMPILED_CONSTRAINTS(how, D)                                                                         \
    PROPANE_COMPILED_OPERATOR_RELATIONS(how, propane::Store<D>, eq)                                                  \
    PROPANE_COMPILED_OPERATOR_RELATIONS(how, propane::Store<D>, ne)                                                  \
    PROPANE_COMPILED_OPERATOR_RELATIONS(how, propane::Store<D>, lt)                                                  \
    PROPANE_COMPILED_OPERATOR_RELATIONS(how, propane::Store<D>, le)                                                  \
    PROPANE_COMPILED_OPERATOR_RELATIONS(how, propane::Store<D>, gt)                                                  \
    PROPANE_COMPILED_OPERATOR_RELATIONS(how, propane::Store<D>, ge)                                                  \
    how void propane::Linear<propane::IntVar>::post(propane::Store<D>&) const;                                       \
    how void propane::Relation<propane::IntVar, propane::IntVar>::post(propane::Store<D>&) const;                    \
    how void propane::ConstRelation<propane::IntVar>::post(propane::Store<D>&) const;                                \
    how void propane::ExprRel::post(propane::Store<D>&) const;                                                       \
    how void propane::LinearRel::post(propane::Store<D>&) const;                                                     \
    how void propane::ReifiedExprRel<propane::IntVar>::post(propane::Store<D>&) const;                               \
    how void propane::ReifiedExprRel<propane::OffsetView>::post(propane::Store<D>&) const;                           \
    how void propane::ReifiedExprRel<propane::AffineView>::post(propane::Store<D>&) const;                           \
    how void propane::BoolExpr::post(propane::Store<D>&) const;                                                      \
    how propane::IntVar propane::detail::define_var(propane::Store<D>&, const propane::Expr&);                       \
    how void propane::Clause<propane::IntVar, propane::IntVar>::post(propane::Store<D>&) const;                      \
    PROPANE_COMPILED_SCHEDULING(how, propane::Store<D>)

// What a schedule's precedences post: x + d <= y, and that under a Boolean
// or its negation (b >> ..., 1 - b >> ...).
#define PROPANE_COMPILED_SCHEDULING(how, S)                                                                          \
    how void propane::Relation<propane::OffsetView, propane::IntVar>::post(S&) const;                                \
    how void propane::ReifiedRelation<propane::OffsetView, propane::IntVar, propane::IntVar>::post(S&) const;        \
    how void propane::ReifiedRelation<propane::OffsetView, propane::IntVar, propane::AffineView>::post(S&) const;

#define PROPANE_COMPILED_CONSTRAINT_PROPAGATORS(how, D)                                                              \
    how class propane::detail::LinearBounds<propane::Store<D>, propane::IntVar>;                                     \
    how class propane::detail::LinearNe<propane::Store<D>, propane::IntVar>;                                         \
    PROPANE_COMPILED_RELATIONS(how, propane::Store<D>, propane::IntVar, propane::IntVar)                             \
    PROPANE_COMPILED_RELATIONS(how, propane::Store<D>, propane::OffsetView, propane::IntVar)

PROPANE_COMPILED_EACH_WIDTH(PROPANE_COMPILED_CONSTRAINTS, extern template)

#endif
