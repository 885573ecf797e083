// unary(starts, durations) and disjunctive(...) through the checker
// (checker.hpp).
//
// Claim checked, for views on distinct variables: exactly the fixpoint of
// the rules unary.hpp names, each written here from its statement over
// every subset of tasks (brute force, no Θ-tree): overload, detectable
// precedences, not-last and edge finding, and each one's mirror image
// (not-first, and the same rules on latest ends). Where views share a
// variable the checker holds unary to soundness and the fixed-assignment
// rule.
//
// Configurations, per view kind and duration vector: three tasks over
// every triple of subsets of 0..4 (or -1..3), four tasks sampled over 0..5
// and 0..7, durations including 0; then shared variables and random walks.

#include <doctest/doctest.h>

#include "checker.hpp"
#include "optional_tasks.hpp"
#include "unary_reference.hpp"

#include <propane/constraints/unary.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "instances_store.hpp"

namespace {

using checker::unary_closure;

using checker::Case;
using checker::Doms;
using checker::Kind;
using checker::Mask;
using checker::Spec;
using checker::Store;
using checker::list;
using checker::u;
using propane::IntVar;
using Affine = propane::AffineView;
using Offset = propane::OffsetView;

const std::vector<Kind> all_kinds(checker::kinds.begin(), checker::kinds.end());

// present: the tasks' presences (1: present), or null when all are.
bool overlap_free(const std::vector<int>& durations, bool strict, const int* v, const int* present = nullptr) {
    const int n = static_cast<int>(durations.size());
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j) {
            const int di = durations[u(i)], dj = durations[u(j)];
            if (!strict && (di == 0 || dj == 0)) continue;
            if (present && (present[i] != 1 || present[j] != 1)) continue;
            if (!(v[i] + di <= v[j] || v[j] + dj <= v[i])) return false;
        }
    return true;
}

// strict: unary(); else disjunctive(), whose claim is unary's over the
// tasks of positive duration.
Spec unary_spec(const std::vector<int>& durations, bool strict) {
    Spec spec;
    const int n = static_cast<int>(durations.size());
    spec.name = std::string(strict ? "unary" : "disjunctive") + "(" + std::to_string(n) + " starts, " +
                list(durations) + ")";
    spec.claim = checker::Claim::custom;
    spec.holds = [=](const int* v) { return overlap_free(durations, strict, v); };
    spec.closure = [=](const Case& c, Doms& d) {
        if (strict) return unary_closure(durations, c, d);
        // The tasks of positive duration, as a case of their own.
        Case sub = c;
        std::vector<int> kept;
        sub.n = 0;
        for (int i = 0; i < n; ++i)
            if (durations[u(i)] > 0) {
                sub.v[u(sub.n++)] = c.v[u(i)];
                kept.push_back(durations[u(i)]);
            }
        return sub.n < 2 || unary_closure(kept, sub, d);
    };
    spec.post = [=](Store& s, const std::vector<IntVar>& xs, const Case& c) {
        auto post = [&](const auto& starts) {
            if (strict)
                s.post(propane::unary(starts, durations));
            else
                s.post(propane::disjunctive(starts, durations));
        };
        switch (c.kind) {
        case Kind::var: post(checker::views<IntVar>(xs, c, 0, n)); break;
        case Kind::offset: post(checker::views<Offset>(xs, c, 0, n)); break;
        case Kind::affine:
        case Kind::mixed: post(checker::views<Affine>(xs, c, 0, n)); break;
        }
    };
    return spec;
}

// unary(starts, durations, present) or disjunctive(...): views 0 .. n-1
// the starts, n .. 2n-1 the presences (optional_tasks.hpp).
Spec optional_spec(const std::vector<int>& durations, bool strict) {
    Spec spec;
    const int n = static_cast<int>(durations.size());
    spec.name = std::string(strict ? "unary" : "disjunctive") + "(" + std::to_string(n) + " starts, " +
                list(durations) + ", present)";
    spec.claim = checker::Claim::custom;
    spec.holds = [=](const int* v) { return overlap_free(durations, strict, v, v + n); };
    spec.closure = [=](const Case& c, Doms& d) {
        const auto rules = [&](const Case& sub, Doms& dd, const std::vector<int>& tasks) {
            std::vector<int> kept;
            for (const int i : tasks) kept.push_back(durations[u(i)]);
            return sub.n < 2 || unary_closure(kept, sub, dd);
        };
        return checker::optional::closure(c, d, n, rules, [&](int i) { return strict || durations[u(i)] > 0; });
    };
    spec.post = [=](Store& s, const std::vector<IntVar>& xs, const Case& c) {
        checker::optional::post_by_kind(xs, c, n, [&](const auto& starts, const auto& present) {
            if (strict)
                s.post(propane::unary(starts, durations, present));
            else
                s.post(propane::disjunctive(starts, durations, present));
        });
    };
    return spec;
}

} // namespace

TEST_CASE("unary(starts, durations, present): optional tasks, the claimed fixpoint exactly") {
    for (const bool strict : {true, false})
        for (const auto& d : std::vector<std::vector<int>>{{2, 3}, {3, 1}, {0, 2}, {1, 1}}) {
            checker::Outcome full;
            for (const Kind k : all_kinds) full += checker::optional::sweep(optional_spec(d, strict), k, 2, 0, 5);
            checker::report(optional_spec(d, strict).name + " x 4 kinds, every pair of subsets of 0..4, presences "
                                                          "open or fixed",
                            full);
        }
    for (const bool strict : {true, false})
        for (const auto& d : std::vector<std::vector<int>>{{2, 1, 3}, {2, 2, 2}, {0, 2, 1}, {3, 1, 1}}) {
            checker::Outcome sampled, wide;
            for (const Kind k : all_kinds) {
                sampled += checker::optional::sampled(optional_spec(d, strict), k, 3, 0, 5, 3000, 5);
                wide += checker::optional::sampled(optional_spec(d, strict), k, 3, -1, 6, 3000, 9);
            }
            checker::report(optional_spec(d, strict).name + " x 4 kinds, sampled over 0..4", sampled);
            checker::report(optional_spec(d, strict).name + " x 4 kinds, sampled over -1..4", wide);
        }
}

TEST_CASE("unary(starts, durations): the fixpoint of its rules, exactly") {
    const std::vector<std::vector<int>> three{{2, 1, 3}, {0, 2, 1}, {3, 0, 0}, {2, 2, 2}};
    for (const auto& d : three) {
        checker::Outcome full, walked, shared;
        for (const Kind k : all_kinds) {
            full += checker::sweep(unary_spec(d, true), k, {.n = 3, .lo = 0, .range = 5, .posted_every = 3});
            shared += checker::shared_sweep(unary_spec(d, true), k, 3, 2, 0, 5, 300, 7);
            walked += checker::walks(unary_spec(d, true), k, 3, 0, 5, 4, 120, 11);
        }
        checker::report("unary(3 starts, " + list(d) + ") x 4 kinds, every triple of subsets of 0..4", full);
        checker::report("unary(3 starts, " + list(d) + ") x 4 kinds, shared variables", shared);
        checker::report("unary(3 starts, " + list(d) + ") x 4 kinds, walks", walked);
    }
    const std::vector<std::vector<int>> four{{2, 1, 3, 1}, {1, 2, 0, 2}, {3, 3, 1, 2}, {1, 1, 1, 1}};
    for (const auto& d : four) {
        checker::Outcome sampled, wide, walked;
        for (const Kind k : all_kinds) {
            sampled += checker::sweep(unary_spec(d, true), k,
                                      {.n = 4, .lo = 0, .range = 6, .samples = 2000, .posted_every = 3, .seed = 5});
            wide += checker::sweep(unary_spec(d, true), k,
                                   {.n = 4, .lo = -1, .range = 8, .samples = 2000, .posted_every = 3, .seed = 9});
            walked += checker::walks(unary_spec(d, true), k, 4, 0, 7, 4, 120, 13);
        }
        checker::report("unary(4 starts, " + list(d) + ") x 4 kinds, sampled over 0..5", sampled);
        checker::report("unary(4 starts, " + list(d) + ") x 4 kinds, sampled over -1..6", wide);
        checker::report("unary(4 starts, " + list(d) + ") x 4 kinds, walks", walked);
    }
    checker::Outcome five;
    for (const Kind k : all_kinds)
        five += checker::sweep(unary_spec({2, 1, 1, 2, 1}, true), k,
                               {.n = 5, .lo = 0, .range = 8, .samples = 2000, .posted_every = 3, .seed = 17});
    checker::report("unary(5 starts, {2, 1, 1, 2, 1}) x 4 kinds, sampled over 0..7", five);
}

TEST_CASE("disjunctive(starts, durations): unary over the tasks of positive duration") {
    for (const auto& d : std::vector<std::vector<int>>{{0, 2, 1}, {2, 0, 0}, {1, 2, 2}}) {
        checker::Outcome full;
        for (const Kind k : all_kinds)
            full += checker::sweep(unary_spec(d, false), k, {.n = 3, .lo = 0, .range = 5, .posted_every = 3});
        checker::report("disjunctive(3 starts, " + list(d) + ") x 4 kinds, every triple of subsets of 0..4", full);
    }
}

TEST_CASE("unary: model errors name the constraint") {
    Store s;
    const std::vector<IntVar> xs = s.int_vars(3, 0, 5);
    CHECK_THROWS_WITH_AS(propane::unary(xs, {1, 2}), doctest::Contains("unary: 3 starts but 2 durations"),
                         propane::model_error);
    CHECK_THROWS_WITH_AS(propane::unary(xs, {1, -2, 1}), doctest::Contains("unary: durations[1] is -2"),
                         propane::model_error);
    CHECK_THROWS_WITH_AS(propane::disjunctive(xs, {1, 2, 3, 4}), doctest::Contains("disjunctive"),
                         propane::model_error);
    CHECK_THROWS_WITH_AS(s.post(propane::unary(std::vector<IntVar>{xs[0], IntVar{}}, {1, 1})),
                         doctest::Contains("unary"), propane::model_error);
    const std::vector<IntVar> bs = s.int_vars(3, 0, 1);
    CHECK_THROWS_WITH_AS(propane::unary(xs, {1, 2, 1}, std::vector<IntVar>{bs[0], bs[1]}),
                         doctest::Contains("unary: 3 starts but 2 presence views"), propane::model_error);
    CHECK_THROWS_WITH_AS(propane::disjunctive(xs, {1, 2, 1}, std::vector<IntVar>{}),
                         doctest::Contains("disjunctive: 3 starts but 0 presence views"), propane::model_error);
    CHECK_THROWS_WITH_AS(s.post(propane::unary(xs, {1, 2, 1}, std::vector<IntVar>{bs[0], xs[1], bs[2]})),
                         doctest::Contains("unary: present[1] is over 0..5"), propane::model_error);
    const std::vector<Offset> shifted{bs[0] + 0, bs[1] + 0, bs[2] - 1};
    CHECK_THROWS_WITH_AS(s.post(propane::disjunctive(xs, {1, 2, 1}, shifted)),
                         doctest::Contains("disjunctive: present[2] is over -1..0"), propane::model_error);
    // Tasks of 2 starting in 0..5 run within 0..6: three fit, four do not.
    s.post(propane::unary(xs, {2, 2, 2}));
    CHECK(s.propagate());
    Store t = s;
    const IntVar w = t.int_var(0, 5);
    t.post(propane::unary(std::vector<IntVar>{xs[0], xs[1], xs[2], w}, {2, 2, 2, 2}));
    CHECK_FALSE(t.propagate());
}

// test_models_mixed, seed 1239 (the globals' models): b3 is the start of a
// task of duration 0 and the presence of two others. Present beside
// [-2, 1), the zero-length task cannot start at 0, which fixes b3 to 1 and
// so makes the other two present in the same run: the propagator must see
// them, and that they overlap.
TEST_CASE("unary with optional tasks: a start pruned that fixes another task's presence is propagated") {
    Store s;
    const IntVar x0 = s.int_var(-3, 3), x2 = s.int_var(-1, 3);
    const IntVar b0 = s.bool_var(), b3 = s.bool_var(), b4 = s.bool_var();
    const std::vector<Affine> starts{x0, x2, 2 * x2 + 1, b3};
    const std::vector<Affine> present{1 - b0, b3, b3, b4};
    s.post(propane::unary(starts, {3, 3, 1, 0}, present));
    REQUIRE(s.propagate());
    for (const auto& [x, v] : {std::pair{x0, -2}, std::pair{x2, 1}, std::pair{b0, 0}})
        REQUIRE((x.assign(s, v) != propane::Change::failed && s.propagate()));
    CHECK((b4.assign(s, 1) == propane::Change::failed || !s.propagate()));
}
