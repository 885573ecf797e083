#ifndef PROPANE_COMPILED_WIDTH_DYNAMIC_HPP
#define PROPANE_COMPILED_WIDTH_DYNAMIC_HPP

// compiled.hpp for propane::BitDomain<propane::dynamic> only (compiled/store.hpp says why).

#ifndef PROPANE_COMPILED_EACH_WIDTH
#define PROPANE_COMPILED_EACH_WIDTH(M, how) M(how, propane::BitDomain<propane::dynamic>)
#endif

#include "../compiled.hpp"

#endif
