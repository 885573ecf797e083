#ifndef PROPANE_TESTS_INSTANCES_STORE_HPP
#define PROPANE_TESTS_INSTANCES_STORE_HPP

// The store at each domain width, compiled once for the whole suite (the
// library propane_test_instances, built from src/compiled/ as
// propane::compiled is): the part of instances.hpp that a test of the
// engine or of a constraint that does not search needs. Such a test
// includes this instead, and with it neither the search nor AllDifferent:
// under the sanitizers (clang -O1, ASan and UBSan) that is 2 to 4 s less a
// file.

#include <propane/compiled/store.hpp>

#endif
