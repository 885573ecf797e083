// The definitions <propane/compiled.hpp> declares, for propane::BitDomain<propane::dynamic>. One file
// per width, so that a build spreads them over its cores.
#include <propane/compiled.hpp>
#include <propane/parallel.hpp>

PROPANE_COMPILED_ALL(template, propane::BitDomain<propane::dynamic>)
PROPANE_COMPILED_PARALLEL(template, propane::BitDomain<propane::dynamic>)
