#ifndef PROPANE_COMPILED_WIDTH_2_HPP
#define PROPANE_COMPILED_WIDTH_2_HPP

// compiled.hpp for propane::BitDomain<2> only (compiled/store.hpp says why).

#ifndef PROPANE_COMPILED_EACH_WIDTH
#define PROPANE_COMPILED_EACH_WIDTH(M, how) M(how, propane::BitDomain<2>)
#endif

#include "../compiled.hpp"

#endif
