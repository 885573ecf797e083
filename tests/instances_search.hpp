#ifndef PROPANE_TESTS_INSTANCES_SEARCH_HPP
#define PROPANE_TESTS_INSTANCES_SEARCH_HPP

// The store and the search at each domain width, compiled once for the
// whole suite: the part of instances.hpp that a test that searches but
// posts no AllDifferent needs, without AllDifferent's headers (see
// instances_store.hpp).

#include <propane/compiled/search.hpp>

#endif
