#ifndef PROPANE_COMPILED_PARALLEL_HPP
#define PROPANE_COMPILED_PARALLEL_HPP

// The searches on threads over IntVar with the default choosers, at each
// common domain width, compiled once in propane::compiled: solve() with a
// Parallel, and minimize()/maximize() with a Parallel and an IntVar
// objective. Their visitors are behind a VisitorRef, so one instance serves
// every visitor. compiled.hpp and <propane/parallel.hpp> each include this
// when the other was included first, so that a file that has both, in
// either order, gets the declarations, and a file without threads reads
// none of it.

#include <vector>

#include "store.hpp"

#include "../engine/view.hpp"
#include "../search/parallel.hpp"
#include "../search/parallel_optimize.hpp"

// The visitor of a search over IntVar on Store<D>.
#define PROPANE_COMPILED_VISITOR(D)                                                                                  \
    propane::detail::VisitorRef<propane::Solution<propane::Store<D>, propane::IntVar>>

#define PROPANE_COMPILED_PARALLEL(how, D)                                                                            \
    how propane::SearchStats propane::detail::solve_on_threads(                                                      \
        propane::Store<D>&, const std::vector<propane::IntVar>&, const propane::Strategy&, const propane::Limits&,   \
        const propane::Parallel&, PROPANE_COMPILED_VISITOR(D));                                                      \
    PROPANE_COMPILED_OPTIMIZE(how, D, propane::Sense::minimize)                                                      \
    PROPANE_COMPILED_OPTIMIZE(how, D, propane::Sense::maximize)

#define PROPANE_COMPILED_OPTIMIZE(how, D, sense)                                                                     \
    how propane::OptimizeStats propane::detail::optimize_on_threads<sense>(                                          \
        propane::Store<D>&, const std::vector<propane::IntVar>&, const propane::Strategy&, const propane::Limits&,   \
        const propane::Parallel&, const propane::IntVar&, PROPANE_COMPILED_VISITOR(D));

PROPANE_COMPILED_EACH_WIDTH(PROPANE_COMPILED_PARALLEL, extern template)

#endif
