#ifndef PROPANE_COMPILED_WIDTH_2_HPP
#define PROPANE_COMPILED_WIDTH_2_HPP

// compiled.hpp for the one width propane::BitDomain<2>: for a file whose stores
// all have it, the same prebuilt instances (the same library, linked the
// same way) for less to read. Included after compiled.hpp, or after another
// width's header, it adds nothing: that file then declares what the first
// one did, and compiles any other width's templates itself.

#ifndef PROPANE_COMPILED_EACH_WIDTH
#define PROPANE_COMPILED_EACH_WIDTH(M, how) M(how, propane::BitDomain<2>)
#endif

#include "../compiled.hpp"

#endif
