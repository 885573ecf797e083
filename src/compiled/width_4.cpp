// The definitions <propane/compiled.hpp> declares, for propane::BitDomain<4>. One file
// per width, so that a build spreads them over its cores.
#include <propane/compiled.hpp>
#include <propane/parallel.hpp>

PROPANE_COMPILED_ALL(template, propane::BitDomain<4>)
PROPANE_COMPILED_PARALLEL(template, propane::BitDomain<4>)
