// inverse(f, g) through the checker (checker.hpp).
//
// Claim checked, in view space, for views on distinct variables: domain
// consistency (exact), against brute force. Where views share a variable
// the checker holds inverse to soundness and the fixed-assignment rule.
//
// Configurations, per view kind: two nodes a side over every quadruple of
// subsets of -1..2; three a side sampled over -1..3 and 0..2; shared
// variables; random walks.

#include <doctest/doctest.h>

#include "checker.hpp"

#include <propane/constraints/inverse.hpp>
#include <propane/search/search.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "instances_search.hpp"
#include "instances_store.hpp"

namespace {

using checker::Case;
using checker::Kind;
using checker::Spec;
using checker::Store;
using checker::u;
using propane::IntVar;
using Affine = propane::AffineView;
using Offset = propane::OffsetView;

const std::vector<Kind> all_kinds(checker::kinds.begin(), checker::kinds.end());

bool inverse_holds(const int* v, int n) {
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            if ((v[i] == j) != (v[n + j] == i)) return false;
    for (int k = 0; k < 2 * n; ++k)
        if (v[k] < 0 || v[k] >= n) return false;
    return true;
}

// Views 0 .. n-1 are f, n .. 2n-1 g.
Spec inverse_spec(int n) {
    Spec spec;
    spec.name = "inverse(" + std::to_string(n) + " + " + std::to_string(n) + " views)";
    spec.claim = checker::Claim::domain;
    spec.holds = [=](const int* v) { return inverse_holds(v, n); };
    spec.post = [=](Store& s, const std::vector<IntVar>& xs, const Case& c) {
        switch (c.kind) {
        case Kind::var: s.post(propane::inverse(checker::views<IntVar>(xs, c, 0, n), checker::views<IntVar>(xs, c, n, n))); break;
        case Kind::offset: s.post(propane::inverse(checker::views<Offset>(xs, c, 0, n), checker::views<Offset>(xs, c, n, n))); break;
        case Kind::affine:
        case Kind::mixed: s.post(propane::inverse(checker::views<Affine>(xs, c, 0, n), checker::views<Affine>(xs, c, n, n))); break;
        }
    };
    return spec;
}

} // namespace

TEST_CASE("inverse(f, g): domain consistent") {
    checker::Outcome two, three, narrow, shared, walked;
    for (const Kind k : all_kinds) {
        two += checker::sweep(inverse_spec(2), k, {.n = 4, .lo = -1, .range = 4, .posted_every = 3});
        three += checker::sweep(inverse_spec(3), k, {.n = 6, .lo = -1, .range = 5, .samples = 600, .posted_every = 2, .seed = 5});
        narrow += checker::sweep(inverse_spec(3), k, {.n = 6, .lo = 0, .range = 3, .samples = 4000, .posted_every = 2, .seed = 7});
        shared += checker::shared_sweep(inverse_spec(2), k, 4, 3, -1, 4, 400, 9);
        shared += checker::shared_sweep(inverse_spec(3), k, 6, 4, 0, 3, 400, 13);
        walked += checker::walks(inverse_spec(3), k, 6, 0, 3, 4, 150, 11);
    }
    checker::report("inverse(2 + 2) x 4 kinds, every quadruple of subsets of -1..2", two);
    checker::report("inverse(3 + 3) x 4 kinds, sampled over -1..3", three);
    checker::report("inverse(3 + 3) x 4 kinds, sampled over 0..2", narrow);
    checker::report("inverse x 4 kinds, shared variables", shared);
    checker::report("inverse(3 + 3) x 4 kinds, walks", walked);
}

TEST_CASE("inverse: n! solutions, each a permutation and its inverse; lengths must match") {
    for (int n = 1; n <= 5; ++n) {
        Store s;
        const std::vector<IntVar> f = s.int_vars(n, -1, n), g = s.int_vars(n, 0, n + 2);
        s.post(propane::inverse(f, g));
        std::vector<IntVar> all = f;
        all.insert(all.end(), g.begin(), g.end());
        const auto stats = propane::solve(s, all, [&](const auto& sol) {
            std::vector<int> v;
            for (int k = 0; k < 2 * n; ++k) v.push_back(sol[u(k)]);
            CHECK(inverse_holds(v.data(), n));
            return propane::next;
        });
        std::uint64_t want = 1;
        for (int k = 2; k <= n; ++k) want *= static_cast<std::uint64_t>(k);
        CHECK(stats.solutions == want);
    }
    Store s;
    CHECK_THROWS_WITH_AS(propane::inverse(s.int_vars(3, 0, 2), s.int_vars(2, 0, 2)),
                         doctest::Contains("inverse: f has 3 views, g 2"), propane::model_error);
}
