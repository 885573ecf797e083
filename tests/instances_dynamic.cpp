// The definitions instances.hpp declares, for BitDomain<propane::dynamic>. One
// file per width, so that a build spreads them over its cores.
#include "instances.hpp"

PROPANE_TEST_INSTANCES(template, propane::BitDomain<propane::dynamic>)
