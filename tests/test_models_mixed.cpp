// Whole random models against enumeration, mixing every constraint family
// of issue 34's parts 1 and 2, over IntVar and a*x + b views (literals b or
// 1 - b) on small domains with holes. models_mixed.hpp says what a model is
// and how it is drawn; models_mixed_search.hpp how it is posted, searched
// (twice on one store) and checked.
//
// Each model runs on Store<BitDomain<1>>, then on
// Store<BitDomain<dynamic>> twice: its variables drawn bitsets or intervals,
// then each in the other form. Those runs must find what the first found,
// in the same order, with the same failures, branches and propagator runs.
//
// Three sets of models: part 1's families alone (rel, linear, abs, min,
// max, times, all_different; the models this file drew before part 2, seed
// for seed); every family of both parts (with Booleans, clauses, reified
// rel, linear and clauses, element over numbers and over views, count
// against a number and a view, div and mod, tables of allowed and of
// forbidden tuples; the models drawn before the globals, seed for seed);
// and all of those with half the constraints from the globals (unary,
// cumulative, each also over optional tasks, cumulative over variable
// durations, heights and capacity, circuit, inverse, regular,
// global_cardinality, lex, bin_packing, increasing, nvalue).
//
// Seeds 1..3000 run by default; PROPANE_MODEL_SEEDS=<count> runs 1..count,
// PROPANE_MODEL_SEEDS=<first>..<last> just those (as test_models does).
// A failure prints its seed and the model.

#include <doctest/doctest.h>

#include "models_mixed_search.hpp"

TEST_CASE("random models mixing rel, linear, abs, min, max, times and all_different: exactly the enumerated solutions, "
          "alike in both domain forms") {
    models::run_seeds(models::Part::arithmetic);
}

TEST_CASE("random models mixing every family with Booleans, clauses, reification, element, count, div, mod and "
          "table: exactly the enumerated solutions, alike in both domain forms") {
    models::run_seeds(models::Part::logic);
}

TEST_CASE("random models with the globals among every other family: exactly the enumerated solutions, alike in both "
          "domain forms") {
    models::run_seeds(models::Part::globals);
}
