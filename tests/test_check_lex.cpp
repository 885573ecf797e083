// lex_lesseq(xs, ys) and lex_less(xs, ys) through the checker
// (checker.hpp).
//
// Claim checked, in view space, for views on distinct variables: domain
// consistency (exact), against brute force. Where views share a variable
// (xs and ys over the same variables, as symmetry breaking posts them) the
// checker holds lex to soundness and the fixed-assignment rule.
//
// Configurations, per view kind: one and two positions a side over every
// combination of subsets of -1..2 (two a side: every quadruple, cut in a
// reused store every time and posted fresh every third), sampled over
// -2..3; then shared variables and random walks.

#include <doctest/doctest.h>

#include "checker.hpp"

#include <propane/constraints/lex.hpp>

#include <string>
#include <vector>

#include "instances_store.hpp"

namespace {

using checker::Case;
using checker::Kind;
using checker::Spec;
using checker::Store;
using propane::IntVar;
using Affine = propane::AffineView;
using Offset = propane::OffsetView;

const std::vector<Kind> all_kinds(checker::kinds.begin(), checker::kinds.end());

// Views 0 .. n-1 are xs, n .. 2n-1 ys.
Spec lex_spec(int n, bool strict) {
    Spec spec;
    spec.name = std::string(strict ? "lex_less" : "lex_lesseq") + "(" + std::to_string(n) + " + " + std::to_string(n) +
                " views)";
    spec.claim = checker::Claim::domain;
    spec.holds = [=](const int* v) {
        for (int i = 0; i < n; ++i)
            if (v[i] != v[n + i]) return v[i] < v[n + i];
        return !strict;
    };
    spec.post = [=](Store& s, const std::vector<IntVar>& xs, const Case& c) {
        auto post = [&](const auto& a, const auto& b) {
            if (strict)
                s.post(propane::lex_less(a, b));
            else
                s.post(propane::lex_lesseq(a, b));
        };
        switch (c.kind) {
        case Kind::var: post(checker::views<IntVar>(xs, c, 0, n), checker::views<IntVar>(xs, c, n, n)); break;
        case Kind::offset: post(checker::views<Offset>(xs, c, 0, n), checker::views<Offset>(xs, c, n, n)); break;
        case Kind::affine:
        case Kind::mixed: post(checker::views<Affine>(xs, c, 0, n), checker::views<Affine>(xs, c, n, n)); break;
        }
    };
    return spec;
}

} // namespace

TEST_CASE("lex_lesseq and lex_less: domain consistent") {
    for (const bool strict : {false, true}) {
        const std::string name = strict ? "lex_less" : "lex_lesseq";
        checker::Outcome one, two, sampled, shared, walked;
        for (const Kind k : all_kinds) {
            one += checker::sweep(lex_spec(1, strict), k, {.n = 2, .lo = -1, .range = 4});
            two += checker::sweep(lex_spec(2, strict), k, {.n = 4, .lo = -1, .range = 4, .posted_every = 3});
            sampled += checker::sweep(lex_spec(2, strict), k,
                                      {.n = 4, .lo = -2, .range = 6, .samples = 4000, .posted_every = 2, .seed = 5});
            shared += checker::shared_sweep(lex_spec(2, strict), k, 4, 2, -1, 4, 400, 7);
            shared += checker::shared_sweep(lex_spec(2, strict), k, 4, 3, -1, 4, 400, 9);
            walked += checker::walks(lex_spec(2, strict), k, 4, -1, 5, 4, 120, 11);
        }
        checker::report(name + "(1 + 1 views) x 4 kinds, every pair of subsets of -1..2", one);
        checker::report(name + "(2 + 2 views) x 4 kinds, every quadruple of subsets of -1..2", two);
        checker::report(name + "(2 + 2 views) x 4 kinds, sampled over -2..3", sampled);
        checker::report(name + "(2 + 2 views) x 4 kinds, shared variables", shared);
        checker::report(name + "(2 + 2 views) x 4 kinds, walks", walked);
    }
}

TEST_CASE("lex: lengths must match; empty sequences") {
    Store s;
    const std::vector<IntVar> xs = s.int_vars(3, 0, 2);
    const std::vector<IntVar> ys = s.int_vars(2, 0, 2);
    CHECK_THROWS_WITH_AS(propane::lex_lesseq(xs, ys), doctest::Contains("lex_lesseq: xs has 3 views, ys 2"),
                         propane::model_error);
    CHECK_THROWS_WITH_AS(propane::lex_less(xs, ys), doctest::Contains("lex_less"), propane::model_error);
    // Two view types meet as AffineView: (x0 + 1, x1) <= (2 * y0, y1) with
    // x0 >= 1 and y0 <= 1 leaves x0 + 1 == 2 == 2 * y0, then x1 <= y1.
    Store m = s;
    m.post(propane::rel(xs[0], propane::Rel::ge, 1));
    m.post(propane::rel(ys[0], propane::Rel::le, 1));
    m.post(propane::rel(ys[1], propane::Rel::le, 1));
    m.post(propane::lex_lesseq(std::vector<propane::OffsetView>{xs[0] + 1, xs[1] + 0},
                               std::vector<propane::AffineView>{2 * ys[0], ys[1]}));
    REQUIRE(m.propagate());
    CHECK(m.domain(xs[0]).fixed());
    CHECK(m.domain(ys[0]).fixed());
    CHECK(m.domain(xs[1]).max() == 1);
    Store t = s;
    t.post(propane::lex_lesseq(std::vector<IntVar>{}, std::vector<IntVar>{}));
    CHECK(t.propagate());
    t.post(propane::lex_less(std::vector<IntVar>{}, std::vector<IntVar>{}));
    CHECK_FALSE(t.propagate());
}
