// nvalue(n, xs) through the checker (checker.hpp).
//
// Claim checked, for views on distinct variables: exactly the fixpoint of
// the rules nvalue.hpp states, written again here from its comment: n
// within f + the fewest points meeting the open views that hold no fixed
// value .. f + min(open views, values outside F they hold); the open views
// keep only F when max(n) = f, and lose F when min(n) = f + open = that
// upper bound. Where views share a variable the checker holds nvalue to
// soundness and the fixed-assignment rule.
//
// Configurations, per view kind: n and two or three xs over every
// combination of subsets; three, four and five xs sampled wider; shared
// variables; random walks.

#include <doctest/doctest.h>

#include "checker.hpp"

#include <propane/constraints/nvalue.hpp>

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "instances_store.hpp"

namespace {

using checker::Case;
using checker::Doms;
using checker::Kind;
using checker::Spec;
using checker::Store;
using checker::restrict_view;
using checker::view_values;
using propane::IntVar;
using Affine = propane::AffineView;
using Offset = propane::OffsetView;

const std::vector<Kind> all_kinds(checker::kinds.begin(), checker::kinds.end());

// View 0 is n, views 1 .. k the xs.
bool nvalue_closure(int k, const Case& c, Doms& d) {
    for (;;) {
        const Doms before = d;
        std::vector<std::vector<int>> w(static_cast<std::size_t>(k) + 1);
        for (int i = 0; i <= k; ++i) {
            w[static_cast<std::size_t>(i)] = view_values(c, d, i);
            if (w[static_cast<std::size_t>(i)].empty()) return false;
        }
        std::set<int> fixed;
        int open = 0;
        for (int i = 1; i <= k; ++i) {
            if (w[static_cast<std::size_t>(i)].size() == 1)
                fixed.insert(w[static_cast<std::size_t>(i)][0]);
            else
                ++open;
        }
        const int f = static_cast<int>(fixed.size());
        std::set<int> fresh;
        std::vector<std::pair<int, int>> spans; // (right end, left end)
        for (int i = 1; i <= k; ++i) {
            const std::vector<int>& vi = w[static_cast<std::size_t>(i)];
            if (vi.size() == 1) continue;
            bool meets = false;
            for (const int v : vi) {
                if (fixed.count(v))
                    meets = true;
                else
                    fresh.insert(v);
            }
            if (!meets) spans.emplace_back(vi.back(), vi.front());
        }
        std::sort(spans.begin(), spans.end());
        int points = 0;
        long long last = -1'000'000'000LL;
        for (const auto& [hi, lo] : spans)
            if (lo > last) {
                last = hi;
                ++points;
            }
        const int upper = f + std::min(open, static_cast<int>(fresh.size()));
        const int lower = f + points;
        restrict_view(c, d, 0, [&](int v) { return v >= lower && v <= upper; });
        const std::vector<int> n = view_values(c, d, 0);
        if (n.empty()) return false;
        if (open == 0) return true;
        for (int i = 1; i <= k; ++i) {
            if (w[static_cast<std::size_t>(i)].size() == 1) continue;
            if (n.back() == f)
                restrict_view(c, d, i, [&](int v) { return fixed.count(v) != 0; });
            else if (n.front() == f + open && upper == f + open)
                restrict_view(c, d, i, [&](int v) { return fixed.count(v) == 0; });
        }
        if (d == before) return true;
    }
}

Spec nvalue_spec(int k) {
    Spec spec;
    spec.name = "nvalue(n, " + std::to_string(k) + " views)";
    spec.claim = checker::Claim::custom;
    spec.holds = [=](const int* v) {
        const std::set<int> distinct(v + 1, v + 1 + k);
        return v[0] == static_cast<int>(distinct.size());
    };
    spec.closure = [=](const Case& c, Doms& d) { return nvalue_closure(k, c, d); };
    spec.post = [=](Store& s, const std::vector<IntVar>& xs, const Case& c) {
        switch (c.kind) {
        case Kind::var: s.post(propane::nvalue(checker::view<IntVar>(xs, c, 0), checker::views<IntVar>(xs, c, 1, k))); break;
        case Kind::offset: s.post(propane::nvalue(checker::view<Offset>(xs, c, 0), checker::views<Offset>(xs, c, 1, k))); break;
        case Kind::affine: s.post(propane::nvalue(checker::view<Affine>(xs, c, 0), checker::views<Affine>(xs, c, 1, k))); break;
        // n and the xs of two view types.
        case Kind::mixed: s.post(propane::nvalue(checker::view<Offset>(xs, c, 0), checker::views<Affine>(xs, c, 1, k))); break;
        }
    };
    return spec;
}

} // namespace

TEST_CASE("nvalue(n, xs): the fixpoint of its rules, exactly") {
    checker::Outcome two, three, three_wide, four, five, shared, walked;
    for (const Kind k : all_kinds) {
        two += checker::sweep(nvalue_spec(2), k, {.n = 3, .lo = 0, .range = 4});
        three += checker::sweep(nvalue_spec(3), k, {.n = 4, .lo = 0, .range = 3});
        three_wide += checker::sweep(nvalue_spec(3), k,
                                     {.n = 4, .lo = 0, .range = 4, .samples = 4000, .posted_every = 2, .seed = 3});
        four += checker::sweep(nvalue_spec(4), k,
                               {.n = 5, .lo = -1, .range = 6, .samples = 2000, .posted_every = 2, .seed = 5});
        five += checker::sweep(nvalue_spec(5), k,
                               {.n = 6, .lo = 0, .range = 5, .samples = 1000, .posted_every = 2, .seed = 7});
        shared += checker::shared_sweep(nvalue_spec(4), k, 5, 3, 0, 5, 300, 9);
        walked += checker::walks(nvalue_spec(5), k, 6, 0, 6, 4, 120, 11);
    }
    checker::report("nvalue(n, 2 views) x 4 kinds, every triple of subsets of 0..3", two);
    checker::report("nvalue(n, 3 views) x 4 kinds, every quadruple of subsets of 0..2", three);
    checker::report("nvalue(n, 3 views) x 4 kinds, sampled over 0..3", three_wide);
    checker::report("nvalue(n, 4 views) x 4 kinds, sampled over -1..4", four);
    checker::report("nvalue(n, 5 views) x 4 kinds, sampled over 0..4", five);
    checker::report("nvalue(n, 4 views) x 4 kinds, shared variables", shared);
    checker::report("nvalue(n, 5 views) x 4 kinds, walks", walked);
}

TEST_CASE("nvalue: no views means no values") {
    Store s;
    const IntVar n = s.int_var(0, 3);
    s.post(propane::nvalue(n, std::vector<IntVar>{}));
    REQUIRE(s.propagate());
    CHECK(s.domain(n).min() == 0);
    CHECK(s.domain(n).max() == 0);
}
