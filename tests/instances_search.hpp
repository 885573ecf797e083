#ifndef PROPANE_TESTS_INSTANCES_SEARCH_HPP
#define PROPANE_TESTS_INSTANCES_SEARCH_HPP

// The store and the search at each domain width, compiled once for the
// whole suite (instances_*.cpp): the part of instances.hpp that a test
// that searches but posts no AllDifferent needs, without AllDifferent's
// headers (see instances_store.hpp).

#include "instances_store.hpp"

#include <propane/engine/view.hpp>
#include <propane/search/search.hpp>

#define PROPANE_TEST_SEARCH_INSTANCES(how, D) how class propane::Search<propane::Store<D>, propane::IntVar>;

PROPANE_TEST_EACH_WIDTH(PROPANE_TEST_SEARCH_INSTANCES, extern template)

#endif
