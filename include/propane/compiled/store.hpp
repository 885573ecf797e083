#ifndef PROPANE_COMPILED_STORE_HPP
#define PROPANE_COMPILED_STORE_HPP

// The store at each common domain width, compiled once in the library
// propane::compiled (see compiled.hpp). A file that posts nothing and
// searches nothing, an engine test for one, can include this alone.

#include "../engine/domain.hpp"
#include "../engine/store.hpp"

// Applies M(how, D) to each domain width the library compiles: the widths
// the examples choose by size (up to 64, 128, 256 values, and beyond).
// width_1.hpp and its siblings define it first to name one width only, for
// a file whose stores all have it: a class declared extern is instantiated,
// declarations and all, in the file that declares it, which for the four
// widths cost SEND + MORE 21 MB of g++'s 274 (docs/compile_time.md). After
// compiled.hpp or another width's header, one adds nothing: the file then
// compiles any other width's templates itself, with the same answers.
#ifndef PROPANE_COMPILED_EACH_WIDTH
#define PROPANE_COMPILED_EACH_WIDTH(M, how)                                                                          \
    M(how, propane::BitDomain<1>)                                                                                    \
    M(how, propane::BitDomain<2>)                                                                                    \
    M(how, propane::BitDomain<4>)                                                                                    \
    M(how, propane::BitDomain<propane::dynamic>)
#endif

// `how` is `extern template` (the declaration a model sees) or `template`
// (the definition, in src/compiled/).
#define PROPANE_COMPILED_STORE(how, D) how class propane::Store<D>;

PROPANE_COMPILED_EACH_WIDTH(PROPANE_COMPILED_STORE, extern template)

#endif
