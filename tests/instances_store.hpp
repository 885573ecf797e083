#ifndef PROPANE_TESTS_INSTANCES_STORE_HPP
#define PROPANE_TESTS_INSTANCES_STORE_HPP

// The store at each domain width, compiled once for the whole suite
// (instances_*.cpp): the part of instances.hpp that a test of the engine or
// of a constraint that does not search needs. Such a test includes this
// instead, and with it neither the search nor AllDifferent: under the
// sanitizers (clang -O1, ASan and UBSan) that is 2 to 4 s less a file.

#include <propane/engine/domain.hpp>
#include <propane/engine/store.hpp>

// Applies M(how, D) to each domain width the suite compiles once.
#define PROPANE_TEST_EACH_WIDTH(M, how)                                                                              \
    M(how, propane::BitDomain<1>)                                                                                    \
    M(how, propane::BitDomain<2>)                                                                                    \
    M(how, propane::BitDomain<4>)                                                                                    \
    M(how, propane::BitDomain<propane::dynamic>)

// `how` is `extern template` (a declaration) or `template` (the definition).
#define PROPANE_TEST_STORE_INSTANCES(how, D) how class propane::Store<D>;

PROPANE_TEST_EACH_WIDTH(PROPANE_TEST_STORE_INSTANCES, extern template)

#endif
