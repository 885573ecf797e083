// bin_packing(loads, bins, sizes) through the checker (checker.hpp).
//
// Claim checked, for views on distinct variables: exactly the fixpoint of
// what bin_packing.hpp posts, written here from its statements: bins
// within 0 .. m-1; per bin, loads[b] within R .. R + P, an item leaving b
// when R + its size exceeds max(loads[b]), an item put into b when R + P -
// its size is below min(loads[b]); and the loads' bounds against the sum
// of the sizes. Where views share a variable the checker holds bin_packing
// to soundness and the fixed-assignment rule.
//
// Configurations, per view kind and sizes: two bins and two items over
// every combination of subsets of -1..2; two or three bins and three items
// sampled wider; shared variables; random walks.

#include <doctest/doctest.h>

#include "checker.hpp"

#include <propane/constraints/bin_packing.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "instances_store.hpp"

namespace {

using checker::Case;
using checker::Doms;
using checker::Kind;
using checker::Mask;
using checker::Spec;
using checker::Store;
using checker::list;
using checker::restrict_view;
using checker::u;
using checker::view_values;
using propane::IntVar;
using Affine = propane::AffineView;
using Offset = propane::OffsetView;

const std::vector<Kind> all_kinds(checker::kinds.begin(), checker::kinds.end());

// Views 0 .. m-1 are the loads, m .. m+n-1 the items' bins.
bool packing_closure(int m, const std::vector<int>& sizes, const Case& c, Doms& d) {
    const int n = static_cast<int>(sizes.size());
    std::int64_t total = 0;
    for (const int z : sizes) total += z;
    for (int i = 0; i < n; ++i) restrict_view(c, d, m + i, [&](int w) { return w >= 0 && w < m; });
    for (;;) {
        const Doms before = d;
        for (int k = 0; k < m + n; ++k)
            if (view_values(c, d, k).empty()) return false;
        std::vector<std::int64_t> req(u(m), 0), pos(u(m), 0);
        for (int i = 0; i < n; ++i) {
            const std::vector<int> w = view_values(c, d, m + i);
            if (w.size() == 1)
                req[u(w[0])] += sizes[u(i)];
            else
                for (const int b : w) pos[u(b)] += sizes[u(i)];
        }
        for (int k = 0; k < m; ++k)
            restrict_view(c, d, k, [&](int w) { return w >= req[u(k)] && w <= req[u(k)] + pos[u(k)]; });
        for (int i = 0; i < n; ++i) {
            const std::vector<int> w = view_values(c, d, m + i);
            if (w.size() < 2) continue;
            int only = -1;
            for (const int b : w) {
                const std::vector<int> load = view_values(c, d, b);
                if (load.empty()) return false;
                if (req[u(b)] + sizes[u(i)] > load.back())
                    restrict_view(c, d, m + i, [&](int x) { return x != b; });
                else if (req[u(b)] + pos[u(b)] - sizes[u(i)] < load.front())
                    only = b;
            }
            if (only >= 0 && !view_values(c, d, m + i).empty())
                restrict_view(c, d, m + i, [&](int x) { return x == only; });
        }
        // The sum of the loads.
        for (int k = 0; k < m; ++k) {
            std::int64_t lo = total, hi = total;
            bool empty = false;
            for (int j = 0; j < m; ++j) {
                if (j == k) continue;
                const std::vector<int> w = view_values(c, d, j);
                if (w.empty()) {
                    empty = true;
                    break;
                }
                lo -= w.back();
                hi -= w.front();
            }
            if (empty) return false;
            restrict_view(c, d, k, [&](int w) { return w >= lo && w <= hi; });
        }
        for (int k = 0; k < m + n; ++k)
            if (view_values(c, d, k).empty()) return false;
        if (d == before) return true;
    }
}

bool packed(int m, const std::vector<int>& sizes, const int* v) {
    const int n = static_cast<int>(sizes.size());
    for (int i = 0; i < n; ++i)
        if (v[m + i] < 0 || v[m + i] >= m) return false;
    for (int k = 0; k < m; ++k) {
        int load = 0;
        for (int i = 0; i < n; ++i)
            if (v[m + i] == k) load += sizes[u(i)];
        if (load != v[k]) return false;
    }
    return true;
}

Spec packing_spec(int m, const std::vector<int>& sizes) {
    Spec spec;
    const int n = static_cast<int>(sizes.size());
    spec.name = "bin_packing(" + std::to_string(m) + " loads, " + std::to_string(n) + " bins, " + list(sizes) + ")";
    spec.claim = checker::Claim::custom;
    spec.holds = [=](const int* v) { return packed(m, sizes, v); };
    spec.closure = [=](const Case& c, Doms& d) { return packing_closure(m, sizes, c, d); };
    spec.post = [=](Store& s, const std::vector<IntVar>& xs, const Case& c) {
        switch (c.kind) {
        case Kind::var: s.post(propane::bin_packing(checker::views<IntVar>(xs, c, 0, m), checker::views<IntVar>(xs, c, m, n), sizes)); break;
        case Kind::offset: s.post(propane::bin_packing(checker::views<Offset>(xs, c, 0, m), checker::views<Offset>(xs, c, m, n), sizes)); break;
        case Kind::affine: s.post(propane::bin_packing(checker::views<Affine>(xs, c, 0, m), checker::views<Affine>(xs, c, m, n), sizes)); break;
        // Two view types, one for the loads and one for the bins.
        case Kind::mixed: s.post(propane::bin_packing(checker::views<Affine>(xs, c, 0, m), checker::views<Affine>(xs, c, m, n), sizes)); break;
        }
    };
    return spec;
}

} // namespace

TEST_CASE("bin_packing(loads, bins, sizes): the fixpoint of its rules, exactly") {
    for (const auto& sizes : std::vector<std::vector<int>>{{1, 2}, {2, 2}, {0, 3}}) {
        checker::Outcome full;
        for (const Kind k : all_kinds)
            full += checker::sweep(packing_spec(2, sizes), k, {.n = 4, .lo = -1, .range = 4, .posted_every = 3});
        checker::report("bin_packing(2, 2, " + list(sizes) + ") x 4 kinds, every quadruple of subsets of -1..2", full);
    }
    for (const auto& sizes : std::vector<std::vector<int>>{{1, 2, 1}, {2, 1, 3}}) {
        checker::Outcome sampled, three_bins, shared, walked;
        for (const Kind k : all_kinds) {
            sampled += checker::sweep(packing_spec(2, sizes), k,
                                      {.n = 5, .lo = -1, .range = 6, .samples = 4000, .posted_every = 2, .seed = 5});
            three_bins += checker::sweep(packing_spec(3, sizes), k,
                                         {.n = 6, .lo = 0, .range = 5, .samples = 2000, .posted_every = 2, .seed = 7});
            shared += checker::shared_sweep(packing_spec(2, sizes), k, 5, 3, 0, 5, 300, 9);
            walked += checker::walks(packing_spec(2, sizes), k, 5, 0, 6, 4, 120, 11);
        }
        checker::report("bin_packing(2, 3, " + list(sizes) + ") x 4 kinds, sampled over -1..4", sampled);
        checker::report("bin_packing(3, 3, " + list(sizes) + ") x 4 kinds, sampled over 0..4", three_bins);
        checker::report("bin_packing(2, 3, " + list(sizes) + ") x 4 kinds, shared variables", shared);
        checker::report("bin_packing(2, 3, " + list(sizes) + ") x 4 kinds, walks", walked);
    }
}

TEST_CASE("bin_packing: model errors name the constraint") {
    Store s;
    const std::vector<IntVar> loads = s.int_vars(2, 0, 5), bins = s.int_vars(3, 0, 1);
    CHECK_THROWS_WITH_AS(propane::bin_packing(loads, bins, {1, 2}), doctest::Contains("bin_packing: 3 bins but 2 sizes"),
                         propane::model_error);
    CHECK_THROWS_WITH_AS(propane::bin_packing(loads, bins, {1, -2, 1}), doctest::Contains("bin_packing: sizes[1] is -2"),
                         propane::model_error);
}
