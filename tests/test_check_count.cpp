// count(xs, v, r, c) through the checker (checker.hpp).
//
// Claim checked, in view space, for views on distinct variables: domain
// consistency (exact) on every xs[k] and on c, for each Rel, with c a view
// and with c a number. Where views share a variable the checker holds
// count to soundness and the fixed-assignment rule.
//
// Configurations, per Rel and view kind: c a view with two xs over every
// triple of subsets of -1..2, with three xs sampled over -2..2; c a number
// (0 .. 3) with three xs over every triple of subsets of -1..2; then shared
// variables and random walks.

#include <doctest/doctest.h>

#include "checker.hpp"

#include <propane/constraints/count.hpp>

#include <string>
#include <vector>

#include "instances_store.hpp"

namespace {

using checker::Case;
using checker::Kind;
using checker::Spec;
using checker::Store;
using checker::view;
using propane::IntVar;
using propane::Rel;
using Affine = propane::AffineView;
using Offset = propane::OffsetView;

const std::vector<Kind> all_kinds(checker::kinds.begin(), checker::kinds.end());
constexpr std::array<Rel, 6> all_rels{Rel::eq, Rel::ne, Rel::lt, Rel::le, Rel::gt, Rel::ge};

int counted(const int* v, int n, int value) {
    int k = 0;
    for (int j = 0; j < n; ++j) k += v[j] == value ? 1 : 0;
    return k;
}

// n xs (views 0 .. n-1) counted for `value`, against view n.
Spec count_view_spec(int n, int value, Rel r) {
    Spec spec;
    spec.name = "count(" + std::to_string(n) + " xs, " + std::to_string(value) + ", " +
                std::string(propane::to_string(r)) + ", view c)";
    spec.claim = checker::Claim::domain;
    spec.holds = [=](const int* v) { return checker::compare(r, counted(v, n, value), v[n]); };
    spec.post = [=](Store& s, const std::vector<IntVar>& xs, const Case& c) {
        switch (c.kind) {
        case Kind::var: s.post(propane::count(checker::views<IntVar>(xs, c, 0, n), value, r, view<IntVar>(xs, c, n))); break;
        case Kind::offset: s.post(propane::count(checker::views<Offset>(xs, c, 0, n), value, r, view<Offset>(xs, c, n))); break;
        case Kind::affine: s.post(propane::count(checker::views<Affine>(xs, c, 0, n), value, r, view<Affine>(xs, c, n))); break;
        case Kind::mixed:
            // Position n gets the kind mixed_at gives it.
            if (checker::mixed_at(n) == Kind::offset)
                s.post(propane::count(checker::views<Affine>(xs, c, 0, n), value, r, view<Offset>(xs, c, n)));
            else
                s.post(propane::count(checker::views<Affine>(xs, c, 0, n), value, r, view<IntVar>(xs, c, n)));
            break;
        }
    };
    return spec;
}

Spec count_number_spec(int n, int value, Rel r, int bound) {
    Spec spec;
    spec.name = "count(" + std::to_string(n) + " xs, " + std::to_string(value) + ", " +
                std::string(propane::to_string(r)) + ", " + std::to_string(bound) + ")";
    spec.claim = checker::Claim::domain;
    spec.holds = [=](const int* v) { return checker::compare(r, counted(v, n, value), bound); };
    spec.post = [=](Store& s, const std::vector<IntVar>& xs, const Case& c) {
        switch (c.kind) {
        case Kind::var: s.post(propane::count(checker::views<IntVar>(xs, c, 0, n), value, r, bound)); break;
        case Kind::offset: s.post(propane::count(checker::views<Offset>(xs, c, 0, n), value, r, bound)); break;
        case Kind::affine:
        case Kind::mixed: s.post(propane::count(checker::views<Affine>(xs, c, 0, n), value, r, bound)); break;
        }
    };
    return spec;
}

} // namespace

TEST_CASE("count(xs, v, r, c), c a view: domain consistent") {
    for (const Rel r : all_rels) {
        checker::Outcome full, sampled, shared, walked;
        for (const Kind k : all_kinds) {
            full += checker::sweep(count_view_spec(2, 1, r), k, {.n = 3, .lo = -1, .range = 4});
            sampled += checker::sweep(count_view_spec(3, 0, r), k,
                                      {.n = 4, .lo = -2, .range = 5, .samples = 1500, .posted_every = 2, .seed = 5});
            shared += checker::shared_sweep(count_view_spec(3, 1, r), k, 4, 2, -1, 4, 160, 7);
            shared += checker::shared_sweep(count_view_spec(3, 1, r), k, 4, 3, -1, 4, 160, 9);
            walked += checker::walks(count_view_spec(3, 1, r), k, 4, -1, 4, 4, 120, 11);
        }
        const std::string rel(propane::to_string(r));
        checker::report("count(2 xs, 1, " + rel + ", view c) x 4 kinds, every triple of subsets of -1..2", full);
        checker::report("count(3 xs, 0, " + rel + ", view c) x 4 kinds, sampled over -2..2", sampled);
        checker::report("count(3 xs, 1, " + rel + ", view c) x 4 kinds, shared variables", shared);
        checker::report("count(3 xs, 1, " + rel + ", view c) x 4 kinds, walks", walked);
    }
}

TEST_CASE("count(xs, v, r, c), c a number: domain consistent") {
    for (const Rel r : all_rels) {
        checker::Outcome full, shared, walked;
        for (const int bound : {0, 1, 2, 3})
            for (const Kind k : all_kinds) {
                full += checker::sweep(count_number_spec(3, 1, r, bound), k, {.n = 3, .lo = -1, .range = 4, .posted_every = 2});
                shared += checker::shared_sweep(count_number_spec(3, 1, r, bound), k, 3, 2, -1, 4, 80, 13);
                walked += checker::walks(count_number_spec(3, 1, r, bound), k, 3, -1, 4, 2, 120, 17);
            }
        const std::string rel(propane::to_string(r));
        checker::report("count(3 xs, 1, " + rel + ", 0..3) x 4 kinds, every triple of subsets of -1..2", full);
        checker::report("count(3 xs, 1, " + rel + ", 0..3) x 4 kinds, shared variables", shared);
        checker::report("count(3 xs, 1, " + rel + ", 0..3) x 4 kinds, walks", walked);
    }
}

TEST_CASE("count: model errors name the constraint") {
    Store s;
    const std::vector<IntVar> xs = s.int_vars(3, 0, 2);
    const IntVar c = s.int_var(0, 3);
    const auto bad = static_cast<Rel>(9);
    CHECK_THROWS_WITH_AS(propane::count(xs, 1, bad, c), doctest::Contains("count"), propane::model_error);
    CHECK_THROWS_WITH_AS(propane::count(xs, 1, bad, 2), doctest::Contains("count"), propane::model_error);
    CHECK_THROWS_WITH_AS(s.post(propane::count(std::vector<IntVar>{IntVar{}}, 1, Rel::eq, c)),
                         doctest::Contains("count"), propane::model_error);
    // No views: the count is 0.
    s.post(propane::count(std::vector<IntVar>{}, 1, Rel::eq, c));
    CHECK(s.propagate());
    CHECK(s.domain(c).fixed());
    CHECK(s.domain(c).value() == 0);
}
