#ifndef PROPANE_COMPILED_HPP
#define PROPANE_COMPILED_HPP

// Opt-in prebuilt instances: include this instead of (or after)
// propane.hpp and link the library propane::compiled (CMake) or
// propane_compiled_dep (Meson), and the engine's largest templates at the
// common domain widths (BitDomain<1>, <2>, <4> and <dynamic>) are compiled
// once in that library instead of in every file of the project: the store,
// the search over IntVar with the default choosers, the three AllDifferent
// propagators over each view kind, the linear and binary relation
// propagators over IntVar, and the posts that choose among them:
// AllDifferent's over each view kind, Linear's and Relation's over IntVar
// and an expression's (s.post(x + y <= z)).
//
// Those posts and Search::next are defined out of their class bodies and
// not inline, so a declaration here keeps the compiler from instantiating
// them at all: a model's file then compiles only the thin calls into them,
// not the propagators behind them (members defined in a class body are
// inline, and GCC instantiates them at -O2 to inline them even when they
// are declared extern).
//
// The declarations are `extern template`: the compiler still reads the
// headers, and still inlines what it finds worth inlining, but it no
// longer compiles and optimises a copy of every member in each file, which
// was most of a small model's compile time (docs/compile_time.md has the
// figures). A template this list leaves out (another width, another view,
// another chooser) is compiled in the file that uses it, as without this
// header; the answers are the same either way.

#include "propane.hpp"

#include "compiled/all_different.hpp"
#include "compiled/constraints.hpp"
#include "compiled/search.hpp"
#include "compiled/store.hpp"

// Everything the headers above declare, for one width: src/compiled/.
#define PROPANE_COMPILED_ALL(how, D)                                                                                 \
    PROPANE_COMPILED_STORE(how, D)                                                                                   \
    PROPANE_COMPILED_SEARCH(how, D)                                                                                  \
    PROPANE_COMPILED_ALL_DIFFERENT(how, D)                                                                           \
    PROPANE_COMPILED_CONSTRAINTS(how, D)

#endif
