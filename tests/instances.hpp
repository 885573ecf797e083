#ifndef PROPANE_TESTS_INSTANCES_HPP
#define PROPANE_TESTS_INSTANCES_HPP

// The engine templates that most test files use, compiled once for the
// whole suite instead of once in every test file: what a project gets
// from <propane/compiled.hpp> and propane::compiled, from the same sources
// (src/compiled/), built here at the tests' flags as the library
// propane_test_instances. Compiling them again in each file made up most
// of each test's build time, and more than half of it under the sanitizers
// (clang -O1, ASan and UBSan: test_all_different 136 s -> 69 s,
// test_nqueens 98 s -> 45 s).
//
// A test file includes this after the propane headers: the extern
// declarations tell the compiler the definitions come from elsewhere. A
// template a test uses and this list leaves out is compiled in that test,
// as before. A test that needs only the store, or the store and the
// search, includes instances_store.hpp or instances_search.hpp instead,
// and one that needs neither (test_domain) none. test_parallel, the one
// test the ThreadSanitizer stage builds, includes this only where the
// build defines PROPANE_TEST_INSTANCES, so that stage compiles only what
// that test needs.

#include <propane/compiled.hpp>

// Tests make propagators themselves (the checker, the benchmarks of a
// propagator alone), so they declare those extern too.
PROPANE_COMPILED_EACH_WIDTH(PROPANE_COMPILED_PROPAGATORS, extern template)

#endif
