#ifndef PROPANE_COMPILED_ALL_DIFFERENT_HPP
#define PROPANE_COMPILED_ALL_DIFFERENT_HPP

// The three AllDifferent propagators over IntVar, OffsetView and
// AffineView at each common domain width, compiled once in
// propane::compiled (see compiled.hpp): the largest propagators, and the
// ones N-queens, Sudoku, Golomb rulers and magic squares all post.

#include "search.hpp"

#include "../constraints/all_different.hpp"

// Each strength as chosen at run time and as fixed in the model.
#define PROPANE_COMPILED_ALL_DIFFERENT_OVER(how, S, V)                                                               \
    how int propane::AllDifferent<V>::post(S&) const;                                                                \
    how int propane::AllDifferent<V, propane::ConsistencyTag<propane::Consistency::value>>::post(S&) const;          \
    how int propane::AllDifferent<V, propane::ConsistencyTag<propane::Consistency::bounds>>::post(S&) const;         \
    how int propane::AllDifferent<V, propane::ConsistencyTag<propane::Consistency::domain>>::post(S&) const;
#define PROPANE_COMPILED_ALL_DIFFERENT_PROPAGATORS_OVER(how, S, V)                                                   \
    how class propane::detail::AllDifferentValue<S, V>;                                                              \
    how class propane::detail::AllDifferentBounds<S, V>;                                                             \
    how class propane::detail::AllDifferentDomain<S, V>;

#define PROPANE_COMPILED_ALL_DIFFERENT(how, D)                                                                       \
    PROPANE_COMPILED_ALL_DIFFERENT_OVER(how, propane::Store<D>, propane::IntVar)                                     \
    PROPANE_COMPILED_ALL_DIFFERENT_OVER(how, propane::Store<D>, propane::OffsetView)                                 \
    PROPANE_COMPILED_ALL_DIFFERENT_OVER(how, propane::Store<D>, propane::AffineView)

#define PROPANE_COMPILED_ALL_DIFFERENT_PROPAGATORS(how, D)                                                           \
    PROPANE_COMPILED_ALL_DIFFERENT_PROPAGATORS_OVER(how, propane::Store<D>, propane::IntVar)                         \
    PROPANE_COMPILED_ALL_DIFFERENT_PROPAGATORS_OVER(how, propane::Store<D>, propane::OffsetView)                     \
    PROPANE_COMPILED_ALL_DIFFERENT_PROPAGATORS_OVER(how, propane::Store<D>, propane::AffineView)

PROPANE_COMPILED_EACH_WIDTH(PROPANE_COMPILED_ALL_DIFFERENT, extern template)

#endif
