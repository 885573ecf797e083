// increasing(xs) and strictly_increasing(xs) through the checker
// (checker.hpp).
//
// Claim checked, in view space, for views on distinct variables: domain
// consistency (exact), against brute force; soundness and the
// fixed-assignment rule where views share a variable.

#include <doctest/doctest.h>

#include "checker.hpp"

#include <propane/constraints/increasing.hpp>

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

Spec increasing_spec(int n, bool strict) {
    Spec spec;
    spec.name = std::string(strict ? "strictly_increasing" : "increasing") + "(" + std::to_string(n) + " views)";
    spec.claim = checker::Claim::domain;
    spec.holds = [=](const int* v) {
        for (int i = 0; i + 1 < n; ++i)
            if (strict ? v[i] >= v[i + 1] : v[i] > v[i + 1]) return false;
        return true;
    };
    spec.post = [=](Store& s, const std::vector<IntVar>& xs, const Case& c) {
        auto post = [&](const auto& views) {
            if (strict)
                s.post(propane::strictly_increasing(views));
            else
                s.post(propane::increasing(views));
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

} // namespace

TEST_CASE("increasing and strictly_increasing: domain consistent") {
    for (const bool strict : {false, true}) {
        const std::string name = strict ? "strictly_increasing" : "increasing";
        checker::Outcome three, five, shared, walked;
        for (const Kind k : all_kinds) {
            three += checker::sweep(increasing_spec(3, strict), k, {.n = 3, .lo = -1, .range = 5});
            five += checker::sweep(increasing_spec(5, strict), k,
                                   {.n = 5, .lo = -2, .range = 7, .samples = 3000, .posted_every = 2, .seed = 5});
            shared += checker::shared_sweep(increasing_spec(4, strict), k, 4, 2, -1, 5, 300, 7);
            walked += checker::walks(increasing_spec(5, strict), k, 5, -1, 6, 4, 120, 11);
        }
        checker::report(name + "(3) x 4 kinds, every triple of subsets of -1..3", three);
        checker::report(name + "(5) x 4 kinds, sampled over -2..4", five);
        checker::report(name + "(4) x 4 kinds, shared variables", shared);
        checker::report(name + "(5) x 4 kinds, walks", walked);
    }
}
