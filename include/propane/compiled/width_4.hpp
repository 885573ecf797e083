#ifndef PROPANE_COMPILED_WIDTH_4_HPP
#define PROPANE_COMPILED_WIDTH_4_HPP

// compiled.hpp for propane::BitDomain<4> only (compiled/store.hpp says why).

#ifndef PROPANE_COMPILED_EACH_WIDTH
#define PROPANE_COMPILED_EACH_WIDTH(M, how) M(how, propane::BitDomain<4>)
#endif

#include "../compiled.hpp"

#endif
