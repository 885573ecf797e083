#ifndef PROPANE_PARALLEL_HPP
#define PROPANE_PARALLEL_HPP

// The searches on threads: solve() and minimize()/maximize() with a
// Parallel (with or without an Lns before it), and split(), the
// subproblems they share out. Include this beside (or instead of)
// propane.hpp in the files that use them; a model
// on one thread does not need it, and its files then compile neither
// <thread> nor the workers (docs/compile_time.md). The MPI search is
// mpi.hpp, which includes this.

#include "propane.hpp"

#include "search/lns_threads.hpp"
#include "search/parallel.hpp"
#include "search/parallel_optimize.hpp"
#include "search/split.hpp"

#ifdef PROPANE_COMPILED_HPP
#include "compiled/parallel.hpp"
#endif

#endif
