// global_cardinality(xs, values, counts) through the checker (checker.hpp).
//
// Claim checked, for views on distinct variables: exactly the fixpoint of
// what global_cardinality.hpp posts, written here from its statements:
// for each value alone, domain consistency of its count (brute force over
// xs and that count), and the counts' sum at most the number of views
// (bounds). Where views share a variable the checker holds it to
// soundness and the fixed-assignment rule.
//
// Configurations, per view kind: three xs and two counts, sampled over
// -1..3 and 0..2; two xs and two counts over every quadruple of subsets of
// -1..2; shared variables; random walks.

#include <doctest/doctest.h>

#include "checker.hpp"

#include <propane/constraints/global_cardinality.hpp>

#include <algorithm>
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
using checker::u;
using propane::IntVar;
using Affine = propane::AffineView;
using Offset = propane::OffsetView;

const std::vector<Kind> all_kinds(checker::kinds.begin(), checker::kinds.end());

// The (value, bit) pairs of view i.
std::vector<std::pair<int, int>> values_of(const Case& c, const Doms& d, int i) {
    std::vector<std::pair<int, int>> out;
    for (int t = 0; t < c.range; ++t)
        if ((d[u(c.v[u(i)].var)] >> t) & 1U) out.push_back({c.value(i, t), t});
    return out;
}

// Views 0 .. n-1 are xs, n .. n+m-1 the counts.
bool gcc_closure(int n, const std::vector<int>& vals, const Case& c, Doms& d) {
    const int m = static_cast<int>(vals.size());
    for (;;) {
        const Doms before = d;
        for (int k = 0; k < m; ++k) {
            // Domain consistency of count(xs, vals[k], eq, counts[k]) alone:
            // every assignment of xs and that count, the bits used.
            std::vector<std::vector<std::pair<int, int>>> vs;
            for (int i = 0; i < n; ++i) vs.push_back(values_of(c, d, i));
            vs.push_back(values_of(c, d, n + k));
            for (const auto& v : vs)
                if (v.empty()) return false;
            std::vector<Mask> used(u(n + 1), 0);
            std::vector<std::size_t> pick(u(n + 1), 0);
            for (;;) {
                int hits = 0;
                for (int i = 0; i < n; ++i) hits += vs[u(i)][pick[u(i)]].first == vals[u(k)];
                if (hits == vs[u(n)][pick[u(n)]].first)
                    for (int i = 0; i <= n; ++i) used[u(i)] |= Mask{1} << vs[u(i)][pick[u(i)]].second;
                int p = 0;
                for (; p <= n; ++p) {
                    if (++pick[u(p)] < vs[u(p)].size()) break;
                    pick[u(p)] = 0;
                }
                if (p > n) break;
            }
            for (int i = 0; i <= n; ++i) {
                const int view = i < n ? i : n + k;
                d[u(c.v[u(view)].var)] &= used[u(i)];
                if (d[u(c.v[u(view)].var)] == 0) return false;
            }
        }
        // The counts' sum at most n.
        for (int k = 0; k < m; ++k) {
            int others = 0;
            for (int j = 0; j < m; ++j)
                if (j != k) {
                    const auto v = values_of(c, d, n + j);
                    others += std::min_element(v.begin(), v.end())->first;
                }
            Mask& mk = d[u(c.v[u(n + k)].var)];
            for (int t = 0; t < c.range; ++t)
                if (c.value(n + k, t) > n - others) mk &= ~(Mask{1} << t);
            if (mk == 0) return false;
        }
        if (d == before) return true;
    }
}

Spec gcc_spec(int n, const std::vector<int>& vals) {
    Spec spec;
    const int m = static_cast<int>(vals.size());
    spec.name = "global_cardinality(" + std::to_string(n) + " xs, " + std::to_string(m) + " values)";
    spec.claim = checker::Claim::custom;
    spec.holds = [=](const int* v) {
        for (int k = 0; k < m; ++k) {
            int hits = 0;
            for (int i = 0; i < n; ++i) hits += v[i] == vals[u(k)];
            if (hits != v[n + k]) return false;
        }
        return true;
    };
    spec.closure = [=](const Case& c, Doms& d) { return gcc_closure(n, vals, c, d); };
    spec.post = [=](Store& s, const std::vector<IntVar>& xs, const Case& c) {
        switch (c.kind) {
        case Kind::var: s.post(propane::global_cardinality(checker::views<IntVar>(xs, c, 0, n), vals, checker::views<IntVar>(xs, c, n, m))); break;
        case Kind::offset: s.post(propane::global_cardinality(checker::views<Offset>(xs, c, 0, n), vals, checker::views<Offset>(xs, c, n, m))); break;
        case Kind::affine:
        case Kind::mixed: s.post(propane::global_cardinality(checker::views<Affine>(xs, c, 0, n), vals, checker::views<Affine>(xs, c, n, m))); break;
        }
    };
    return spec;
}

} // namespace

TEST_CASE("global_cardinality(xs, values, counts): the fixpoint of its counts and their sum, exactly") {
    checker::Outcome two, three, narrow, shared, walked;
    for (const Kind k : all_kinds) {
        two += checker::sweep(gcc_spec(2, {0, 1}), k, {.n = 4, .lo = -1, .range = 4, .posted_every = 3});
        three += checker::sweep(gcc_spec(3, {1, 2}), k, {.n = 5, .lo = -1, .range = 5, .samples = 3000, .posted_every = 2, .seed = 5});
        narrow += checker::sweep(gcc_spec(3, {0, 2}), k, {.n = 5, .lo = 0, .range = 3, .samples = 3000, .posted_every = 2, .seed = 7});
        shared += checker::shared_sweep(gcc_spec(3, {0, 1}), k, 5, 3, 0, 3, 300, 9);
        walked += checker::walks(gcc_spec(3, {0, 1}), k, 5, 0, 4, 4, 120, 11);
    }
    checker::report("global_cardinality(2 xs, {0, 1}) x 4 kinds, every quadruple of subsets of -1..2", two);
    checker::report("global_cardinality(3 xs, {1, 2}) x 4 kinds, sampled over -1..3", three);
    checker::report("global_cardinality(3 xs, {0, 2}) x 4 kinds, sampled over 0..2", narrow);
    checker::report("global_cardinality x 4 kinds, shared variables", shared);
    checker::report("global_cardinality(3 xs, {0, 1}) x 4 kinds, walks", walked);
}

TEST_CASE("global_cardinality: model errors name the constraint") {
    Store s;
    const std::vector<IntVar> xs = s.int_vars(3, 0, 2), counts = s.int_vars(2, 0, 3);
    CHECK_THROWS_WITH_AS(propane::global_cardinality(xs, {1}, counts),
                         doctest::Contains("global_cardinality: 1 values but 2 counts"), propane::model_error);
    CHECK_THROWS_WITH_AS(propane::global_cardinality(xs, {1, 1}, counts),
                         doctest::Contains("global_cardinality: the value 1 is given twice"), propane::model_error);
}
