#ifndef PROPANE_COMPILED_CONSTRAINTS_HPP
#define PROPANE_COMPILED_CONSTRAINTS_HPP

// The linear propagators and the binary relations over IntVar at each
// common domain width, compiled once in propane::compiled (see
// compiled.hpp): what a model's sums and comparisons post, with the posts
// of linear(), rel() over two IntVar and expressions (s.post(x + y <= z)).

#include "store.hpp"

#include "../constraints/linear.hpp"
#include "../constraints/rel.hpp"
#include "../engine/view.hpp"
#include "../model/relation.hpp"

#define PROPANE_COMPILED_RELATIONS(how, S, X, Y)                                                                     \
    how class propane::detail::RelEq<S, X, Y>;                                                                       \
    how class propane::detail::RelNe<S, X, Y>;                                                                       \
    how class propane::detail::RelLe<S, X, Y>;

#define PROPANE_COMPILED_CONSTRAINTS(how, D)                                                                         \
    how void propane::Linear<propane::IntVar>::post(propane::Store<D>&) const;                                       \
    how void propane::Relation<propane::IntVar, propane::IntVar>::post(propane::Store<D>&) const;                     \
    how void propane::ExprRel::post(propane::Store<D>&) const;

#define PROPANE_COMPILED_CONSTRAINT_PROPAGATORS(how, D)                                                              \
    how class propane::detail::LinearBounds<propane::Store<D>, propane::IntVar>;                                     \
    how class propane::detail::LinearNe<propane::Store<D>, propane::IntVar>;                                         \
    PROPANE_COMPILED_RELATIONS(how, propane::Store<D>, propane::IntVar, propane::IntVar)                             \
    PROPANE_COMPILED_RELATIONS(how, propane::Store<D>, propane::OffsetView, propane::IntVar)

PROPANE_COMPILED_EACH_WIDTH(PROPANE_COMPILED_CONSTRAINTS, extern template)

#endif
