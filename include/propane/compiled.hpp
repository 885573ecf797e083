#ifndef PROPANE_COMPILED_HPP
#define PROPANE_COMPILED_HPP

// Opt-in prebuilt instances: include this instead of (or after)
// propane.hpp and link the library propane::compiled (CMake) or
// propane_compiled_dep (Meson), and the engine's largest templates at the
// common domain widths (BitDomain<1>, <2>, <4> and <dynamic>) are compiled
// once in that library instead of in every file of the project: the store,
// the search over IntVar with the default choosers (on threads too, in a
// file that includes <propane/parallel.hpp>), and the posts of
// AllDifferent over each view kind, of Linear and Relation over IntVar and
// of an expression (s.post(x + y <= z)), with the propagators they choose
// among.
//
// Those posts and Search::next are defined out of their class bodies and
// not inline, so a declaration here keeps the compiler from instantiating
// them at all: a model's file then compiles only the thin calls into them,
// not the propagators behind them. The propagator classes themselves are
// not declared here: a class declared extern has its inline members and
// its virtual functions instantiated all the same, for inlining and
// devirtualisation, which is work a model's file does not need (clang:
// SEND + MORE 5.6 s -> 3.5 s). A file that makes propagators itself, as the
// tests do, can declare them too (PROPANE_COMPILED_PROPAGATORS).
//
// The declarations are `extern template`: the compiler still reads the
// headers, but no longer compiles and optimises a copy of what they name
// in each file, which was most of a small model's compile time
// (docs/compile_time.md has the figures). A template this list leaves out
// (another width, another view, another chooser) is compiled in the file
// that uses it, as without this header; the answers are the same either
// way.

#include "propane.hpp"

#include "compiled/all_different.hpp"
#include "compiled/constraints.hpp"
#include "compiled/search.hpp"
#include "compiled/store.hpp"

// The searches on threads, for a file that has <propane/parallel.hpp> too
// (compiled/parallel.hpp says why so).
#ifdef PROPANE_PARALLEL_HPP
#include "compiled/parallel.hpp"
#endif

// The propagators the posts above choose among.
#define PROPANE_COMPILED_PROPAGATORS(how, D)                                                                         \
    PROPANE_COMPILED_ALL_DIFFERENT_PROPAGATORS(how, D)                                                               \
    PROPANE_COMPILED_CONSTRAINT_PROPAGATORS(how, D)

// Everything the library holds, for one width: src/compiled/.
#define PROPANE_COMPILED_ALL(how, D)                                                                                 \
    PROPANE_COMPILED_STORE(how, D)                                                                                   \
    PROPANE_COMPILED_SEARCH(how, D)                                                                                  \
    PROPANE_COMPILED_ALL_DIFFERENT(how, D)                                                                           \
    PROPANE_COMPILED_CONSTRAINTS(how, D)                                                                             \
    PROPANE_COMPILED_PROPAGATORS(how, D)

#endif
