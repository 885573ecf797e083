#ifndef PROPANE_PROPANE_HPP
#define PROPANE_PROPANE_HPP

// The whole library for a model on one thread: include this one header.
// The searches on threads are parallel.hpp, over MPI mpi.hpp; each
// includes this one.
//
//   engine/       domains, the trail, the store, views, the propagator
//                 interface: what every constraint and search is built on
//   constraints/  one header per constraint family (a family with several
//                 algorithms keeps them in a folder of its own)
//   search/       strategies, limits, the search engine, its statistics

#include "version.hpp"

#include "engine/domain.hpp"
#include "engine/error.hpp"
#include "engine/model.hpp"
#include "engine/searches.hpp"
#include "engine/names.hpp"
#include "engine/propagator.hpp"
#include "engine/queue.hpp"
#include "engine/store.hpp"
#include "engine/trail.hpp"
#include "engine/view.hpp"
#include "engine/watches.hpp"

#include "constraints/abs.hpp"
#include "constraints/all_different.hpp"
#include "constraints/bin_packing.hpp"
#include "constraints/bool/clause.hpp"
#include "constraints/bool/linear_reif.hpp"
#include "constraints/bool/rel_reif.hpp"
#include "constraints/circuit.hpp"
#include "constraints/count.hpp"
#include "constraints/cumulative.hpp"
#include "constraints/div_mod.hpp"
#include "constraints/element.hpp"
#include "constraints/element2d.hpp"
#include "constraints/global_cardinality.hpp"
#include "constraints/increasing.hpp"
#include "constraints/inverse.hpp"
#include "constraints/lex.hpp"
#include "constraints/linear.hpp"
#include "constraints/min_max.hpp"
#include "constraints/nvalue.hpp"
#include "constraints/regex.hpp"
#include "constraints/regular.hpp"
#include "constraints/reify.hpp"
#include "constraints/rel.hpp"
#include "constraints/table.hpp"
#include "constraints/times.hpp"
#include "constraints/unary.hpp"

#include "model/define.hpp"
#include "model/expr.hpp"
#include "model/formula.hpp"
#include "model/formula_post.hpp"
#include "model/logic.hpp"
#include "model/lower.hpp"
#include "model/reified.hpp"
#include "model/relation.hpp"

#include "search/limits.hpp"
#include "search/objective.hpp"
#include "search/optimize.hpp"
#include "search/search.hpp"
#include "search/solution.hpp"
#include "search/solve.hpp"
#include "search/stats.hpp"
#include "search/strategy.hpp"

#endif
