#ifndef PROPANE_COMPILED_SEARCH_HPP
#define PROPANE_COMPILED_SEARCH_HPP

// The store and the search over IntVar with the default choosers (the
// chooser is a value, so every Strategy runs on this one class), at each
// common domain width, compiled once in propane::compiled (see
// compiled.hpp). Without AllDifferent's headers, for a file that searches
// but posts no AllDifferent.

#include "store.hpp"

#include "../engine/view.hpp"
#include "../search/search.hpp"
#include "../search/solve.hpp"

#define PROPANE_COMPILED_SEARCH(how, D)                                                                              \
    how class propane::Search<propane::Store<D>, propane::IntVar>;                                                   \
    how propane::SearchStats propane::detail::solve_views(                                                           \
        propane::Store<D>&, const std::vector<propane::IntVar>&, const propane::Strategy&, const propane::Limits&,   \
        propane::detail::VisitorRef<propane::Solution<propane::Store<D>, propane::IntVar>>);

PROPANE_COMPILED_EACH_WIDTH(PROPANE_COMPILED_SEARCH, extern template)

#endif
