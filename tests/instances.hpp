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
// as before. test_parallel, the one test the ThreadSanitizer stage builds,
// leaves it out, so that stage compiles only what that test needs.

#include <propane/propane.hpp>

#define PROPANE_TEST_ALL_DIFFERENT(how, S, V)                                                                        \
    how class propane::detail::AllDifferentValue<S, V>;                                                              \
    how class propane::detail::AllDifferentBounds<S, V>;                                                             \
    how class propane::detail::AllDifferentDomain<S, V>;

// `how` is `extern template` (a declaration) or `template` (the definition).
#define PROPANE_TEST_INSTANCES(how, D)                                                                               \
    how class propane::Store<D>;                                                                                     \
    how class propane::Search<propane::Store<D>, propane::IntVar>;                                                   \
    PROPANE_TEST_ALL_DIFFERENT(how, propane::Store<D>, propane::IntVar)                                              \
    PROPANE_TEST_ALL_DIFFERENT(how, propane::Store<D>, propane::OffsetView)                                          \
    PROPANE_TEST_ALL_DIFFERENT(how, propane::Store<D>, propane::AffineView)

PROPANE_TEST_INSTANCES(extern template, propane::BitDomain<1>)
PROPANE_TEST_INSTANCES(extern template, propane::BitDomain<2>)
PROPANE_TEST_INSTANCES(extern template, propane::BitDomain<4>)
PROPANE_TEST_INSTANCES(extern template, propane::BitDomain<propane::dynamic>)

#endif
