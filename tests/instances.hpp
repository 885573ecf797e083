#ifndef PROPANE_TESTS_INSTANCES_HPP
#define PROPANE_TESTS_INSTANCES_HPP

// The engine templates that most test files use, compiled once for the
// whole suite (instances_*.cpp, the library propane_test_instances) instead
// of once in every test file: the store, the search and the three
// AllDifferent propagators at each domain width, over each view kind.
// Compiling them again in each file made up most of each test's build
// time, and more than half of it under the sanitizers (clang -O1, ASan and
// UBSan: test_all_different 136 s -> 69 s, test_nqueens 98 s -> 45 s).
//
// A test file includes this after the propane headers: the extern
// declarations tell the compiler the definitions come from elsewhere. A
// template a test uses and this list leaves out is compiled in that test,
// as before. A test that needs only the store, or the store and the
// search, includes instances_store.hpp or instances_search.hpp instead,
// and one that needs neither (test_domain) none. test_parallel, the one
// test the ThreadSanitizer stage builds, leaves them out, so that stage
// compiles only what that test needs.

#include "instances_search.hpp"

#include <propane/propane.hpp>

#define PROPANE_TEST_ALL_DIFFERENT(how, S, V)                                                                        \
    how class propane::detail::AllDifferentValue<S, V>;                                                              \
    how class propane::detail::AllDifferentBounds<S, V>;                                                             \
    how class propane::detail::AllDifferentDomain<S, V>;

#define PROPANE_TEST_ALL_DIFFERENT_INSTANCES(how, D)                                                                 \
    PROPANE_TEST_ALL_DIFFERENT(how, propane::Store<D>, propane::IntVar)                                              \
    PROPANE_TEST_ALL_DIFFERENT(how, propane::Store<D>, propane::OffsetView)                                          \
    PROPANE_TEST_ALL_DIFFERENT(how, propane::Store<D>, propane::AffineView)

PROPANE_TEST_EACH_WIDTH(PROPANE_TEST_ALL_DIFFERENT_INSTANCES, extern template)

// Everything the three headers declare, for one width: instances_*.cpp.
#define PROPANE_TEST_INSTANCES(how, D)                                                                               \
    PROPANE_TEST_STORE_INSTANCES(how, D)                                                                             \
    PROPANE_TEST_SEARCH_INSTANCES(how, D)                                                                            \
    PROPANE_TEST_ALL_DIFFERENT_INSTANCES(how, D)

#endif
