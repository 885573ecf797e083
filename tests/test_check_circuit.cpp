// circuit(succ) through the checker (checker.hpp).
//
// Claim checked, for views on distinct variables: exactly the fixpoint of
// what circuit.hpp posts, each part written here from its statement:
// successors within 0 .. n-1 and not the node itself; all_different at
// domain consistency (a value stays when some assignment of distinct
// values uses it, by brute force); the end of a path of fixed successors
// shorter than n not leading back to its first node. Where views share a
// variable the checker holds circuit to soundness and the fixed-assignment
// rule.
//
// Configurations, per view kind: four and three nodes over every
// combination of subsets of 0..3 (0..2), five sampled over -1..5; shared
// variables; random walks.

#include <doctest/doctest.h>

#include "checker.hpp"

#include <propane/constraints/circuit.hpp>
#include <propane/search/search.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "instances_search.hpp"
#include "instances_store.hpp"

namespace {

using checker::Case;
using checker::Doms;
using checker::Kind;
using checker::Mask;
using checker::Spec;
using checker::Store;
using checker::restrict_view;
using checker::u;
using checker::view_values;
using propane::IntVar;
using Affine = propane::AffineView;
using Offset = propane::OffsetView;

const std::vector<Kind> all_kinds(checker::kinds.begin(), checker::kinds.end());

// Which values of each view some assignment of distinct values uses.
bool all_different_supports(const Case& c, const Doms& d, std::vector<std::vector<int>>& used) {
    const int n = c.n;
    std::vector<std::vector<int>> vals;
    for (int i = 0; i < n; ++i) vals.push_back(view_values(c, d, i));
    used.assign(u(n), {});
    std::vector<int> pick(u(n), 0), chosen(u(n));
    bool any = false;
    for (;;) {
        bool ok = true;
        for (int i = 0; i < n && ok; ++i) {
            if (vals[u(i)].empty()) return false;
            chosen[u(i)] = vals[u(i)][u(pick[u(i)])];
            for (int j = 0; j < i && ok; ++j) ok = chosen[u(j)] != chosen[u(i)];
        }
        if (ok) {
            any = true;
            for (int i = 0; i < n; ++i) used[u(i)].push_back(chosen[u(i)]);
        }
        int k = 0;
        for (; k < n; ++k) {
            if (++pick[u(k)] < static_cast<int>(vals[u(k)].size())) break;
            pick[u(k)] = 0;
        }
        if (k == n) return any;
    }
}

bool circuit_closure(const Case& c, Doms& d) {
    const int n = c.n;
    for (int i = 0; i < n; ++i) {
        restrict_view(c, d, i, [&](int w) { return w >= 0 && w < n && (n == 1 || w != i); });
        if (d[u(c.v[u(i)].var)] == 0) return false;
    }
    for (;;) {
        const Doms before = d;
        std::vector<std::vector<int>> used;
        if (!all_different_supports(c, d, used)) return false;
        for (int i = 0; i < n; ++i)
            restrict_view(c, d, i, [&](int w) { return std::find(used[u(i)].begin(), used[u(i)].end(), w) != used[u(i)].end(); });
        // Paths of fixed successors.
        std::vector<int> next(u(n), -1);
        std::vector<char> entered(u(n), 0);
        for (int i = 0; i < n; ++i) {
            const std::vector<int> w = view_values(c, d, i);
            if (w.size() == 1) next[u(i)] = w[0], entered[u(w[0])] = 1;
        }
        for (int first = 0; first < n; ++first) {
            if (entered[u(first)]) continue;
            int last = first, length = 1;
            while (next[u(last)] >= 0) last = next[u(last)], ++length;
            if (length < n) restrict_view(c, d, last, [&](int w) { return w != first; });
        }
        // A cycle of fixed successors shorter than n.
        for (int start = 0; start < n; ++start) {
            int node = start, length = 0;
            while (node >= 0 && length <= n) {
                node = next[u(node)];
                ++length;
                if (node == start) break;
            }
            if (node == start && length < n) return false;
        }
        for (int i = 0; i < n; ++i)
            if (d[u(c.v[u(i)].var)] == 0) return false;
        if (d == before) return true;
    }
}

bool one_cycle(const int* v, int n) {
    for (int i = 0; i < n; ++i)
        if (v[i] < 0 || v[i] >= n) return false;
    int node = 0, length = 0;
    do {
        node = v[node];
        ++length;
    } while (node != 0 && length <= n);
    return node == 0 && length == n;
}

Spec circuit_spec(int n) {
    Spec spec;
    spec.name = "circuit(" + std::to_string(n) + " successors)";
    spec.claim = checker::Claim::custom;
    spec.holds = [=](const int* v) { return one_cycle(v, n); };
    spec.closure = [](const Case& c, Doms& d) { return circuit_closure(c, d); };
    spec.post = [=](Store& s, const std::vector<IntVar>& xs, const Case& c) {
        switch (c.kind) {
        case Kind::var: s.post(propane::circuit(checker::views<IntVar>(xs, c, 0, n))); break;
        case Kind::offset: s.post(propane::circuit(checker::views<Offset>(xs, c, 0, n))); break;
        case Kind::affine:
        case Kind::mixed: s.post(propane::circuit(checker::views<Affine>(xs, c, 0, n))); break;
        }
    };
    return spec;
}

} // namespace

TEST_CASE("circuit(succ): the fixpoint of all_different (domain) and the no-subtour rule, exactly") {
    checker::Outcome three, four, five, shared, walked;
    for (const Kind k : all_kinds) {
        three += checker::sweep(circuit_spec(3), k, {.n = 3, .lo = 0, .range = 3});
        four += checker::sweep(circuit_spec(4), k, {.n = 4, .lo = 0, .range = 4, .posted_every = 3});
        five += checker::sweep(circuit_spec(5), k, {.n = 5, .lo = -1, .range = 7, .samples = 4000, .posted_every = 3, .seed = 5});
        shared += checker::shared_sweep(circuit_spec(4), k, 4, 3, 0, 4, 400, 7);
        walked += checker::walks(circuit_spec(5), k, 5, 0, 5, 4, 150, 11);
    }
    checker::report("circuit(3) x 4 kinds, every triple of subsets of 0..2", three);
    checker::report("circuit(4) x 4 kinds, every quadruple of subsets of 0..3", four);
    checker::report("circuit(5) x 4 kinds, sampled over -1..5", five);
    checker::report("circuit(4) x 4 kinds, shared variables", shared);
    checker::report("circuit(5) x 4 kinds, walks", walked);
}

TEST_CASE("circuit: counts the Hamiltonian cycles, (n-1)! of them") {
    for (int n = 1; n <= 6; ++n) {
        Store s;
        const std::vector<IntVar> succ = s.int_vars(n, -3, n + 3);
        s.post(propane::circuit(succ));
        const auto stats = propane::solve(s, succ, [&](const auto& sol) {
            std::vector<int> v;
            for (int i = 0; i < n; ++i) v.push_back(sol[u(i)]);
            CHECK(one_cycle(v.data(), n));
            return propane::next;
        });
        long long want = 1;
        for (int k = 2; k < n; ++k) want *= k;
        CHECK(stats.solutions == static_cast<std::uint64_t>(want));
    }
}
