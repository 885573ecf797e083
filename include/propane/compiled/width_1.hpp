#ifndef PROPANE_COMPILED_WIDTH_1_HPP
#define PROPANE_COMPILED_WIDTH_1_HPP

// compiled.hpp for propane::BitDomain<1> only (compiled/store.hpp says why).

#ifndef PROPANE_COMPILED_EACH_WIDTH
#define PROPANE_COMPILED_EACH_WIDTH(M, how) M(how, propane::BitDomain<1>)
#endif

#include "../compiled.hpp"

#endif
