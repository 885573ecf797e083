#ifndef PROPANE_FZN_GLOBALS_HPP
#define PROPANE_FZN_GLOBALS_HPP

// The posters of the native globals: the propane_* predicates that
// propane's MiniZinc library folder (fzn/mznlib) declares, each posting
// one propane constraint. builtins.cpp lists them in its table.

#include "builder.hpp"

namespace propane::fzn::globals {

void all_different_int(Builder& b, const ConstraintItem& c);
void bin_packing_load(Builder& b, const ConstraintItem& c);
void circuit(Builder& b, const ConstraintItem& c);
// #{k : xs[k] == v} r c, for each Rel (defined for all six).
template <Rel r>
void count_rel(Builder& b, const ConstraintItem& c);
void cumulative(Builder& b, const ConstraintItem& c);
void cumulative_var(Builder& b, const ConstraintItem& c);
void disjunctive(Builder& b, const ConstraintItem& c);
void disjunctive_strict(Builder& b, const ConstraintItem& c);
void cumulative_opt(Builder& b, const ConstraintItem& c);
void disjunctive_opt(Builder& b, const ConstraintItem& c);
void disjunctive_strict_opt(Builder& b, const ConstraintItem& c);
void global_cardinality(Builder& b, const ConstraintItem& c);
void inverse(Builder& b, const ConstraintItem& c);
void lex_less_int(Builder& b, const ConstraintItem& c);
void lex_lesseq_int(Builder& b, const ConstraintItem& c);
void nvalue(Builder& b, const ConstraintItem& c);
void regular(Builder& b, const ConstraintItem& c);
void table_int(Builder& b, const ConstraintItem& c);

} // namespace propane::fzn::globals

#endif
