// element over numbers and over views through the checker (checker.hpp).
//
// Claims checked, in view space, for views on distinct variables:
//   element(array, i, y)  domain consistent on i and y (exact). i and y on
//               one variable are filtered exactly too, which the shared
//               sweep holds it to.
//   element(xs, i, y)     the closure below (exact): i keeps k when xs[k]
//               and y share a value; with one index k left, xs[k] and y
//               keep their common values; y is cut to the least and
//               greatest value it shares with the xs[k] left.
// Where views share a variable element(xs, i, y) is checked for soundness
// and the fixed-assignment rule only.
//
// Configurations: element over numbers with random arrays of 1 to 6
// values in -4..4, every pair of subsets of -1..4 per array and view kind,
// samples over -3..3, shared variables and random walks; element over two
// views with every 4-tuple of subsets of -1..2, over three sampled over
// -1..3, then shared variables and walks.

#include <doctest/doctest.h>

#include "checker.hpp"

#include <propane/constraints/element.hpp>

#include <algorithm>
#include <random>
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
using checker::restrict_view;
using checker::u;
using checker::view;
using propane::IntVar;
using Affine = propane::AffineView;
using Offset = propane::OffsetView;

const std::vector<Kind> all_kinds(checker::kinds.begin(), checker::kinds.end());

std::string array_string(const std::vector<int>& a) {
    std::string s = "{";
    for (std::size_t k = 0; k < a.size(); ++k) s += (k ? "," : "") + std::to_string(a[k]);
    return s + "}";
}

Spec element_const_spec(const std::vector<int>& array) {
    Spec spec;
    spec.name = "element(" + array_string(array) + ", i, y)";
    spec.claim = checker::Claim::domain;
    spec.exact_when_shared = true;
    spec.holds = [array](const int* v) {
        return v[0] >= 0 && v[0] < static_cast<int>(array.size()) && array[u(v[0])] == v[1];
    };
    spec.post = [array](Store& s, const std::vector<IntVar>& xs, const Case& c) {
        auto post = [&](auto i, auto y) { s.post(propane::element(array, i, y)); };
        switch (c.kind) {
        case Kind::var: post(view<IntVar>(xs, c, 0), view<IntVar>(xs, c, 1)); break;
        case Kind::offset: post(view<Offset>(xs, c, 0), view<Offset>(xs, c, 1)); break;
        case Kind::affine: post(view<Affine>(xs, c, 0), view<Affine>(xs, c, 1)); break;
        case Kind::mixed: post(view<IntVar>(xs, c, 0), view<Affine>(xs, c, 1)); break;
        }
    };
    return spec;
}

// Whether view i (on its own variable) holds the view value w in d.
bool has(const Case& c, const Doms& d, int i, int w) {
    for (int t = 0; t < c.range; ++t)
        if (((d[u(c.v[u(i)].var)] >> t) & 1U) && c.value(i, t) == w) return true;
    return false;
}

template <class F>
void each_value(const Case& c, const Doms& d, int i, F&& f) {
    for (int t = 0; t < c.range; ++t)
        if ((d[u(c.v[u(i)].var)] >> t) & 1U) f(c.value(i, t));
}

// element(xs, i, y)'s promise, written from its statement: views 0 .. n-1
// are xs, view n is i, view n + 1 is y.
bool element_var_closure(int n, const Case& c, Doms& d) {
    const int iv = n, yv = n + 1;
    auto meets = [&](int k) {
        bool any = false;
        each_value(c, d, k, [&](int w) { any = any || has(c, d, yv, w); });
        return any;
    };
    restrict_view(c, d, iv, [&](int k) { return k >= 0 && k < n && meets(k); });
    if (d[u(c.v[u(iv)].var)] == 0) return false;
    int left = 0, only = 0;
    each_value(c, d, iv, [&](int k) { ++left, only = k; });
    if (left == 1) {
        const Doms before = d;
        restrict_view(c, d, only, [&](int w) { return has(c, before, yv, w); });
        restrict_view(c, d, yv, [&](int w) { return has(c, before, only, w); });
    }
    bool first = true;
    int lo = 0, hi = 0;
    each_value(c, d, iv, [&](int k) {
        each_value(c, d, k, [&](int w) {
            if (!has(c, d, yv, w)) return;
            if (first || w < lo) lo = w;
            if (first || w > hi) hi = w;
            first = false;
        });
    });
    restrict_view(c, d, yv, [&](int w) { return w >= lo && w <= hi; });
    return true;
}

Spec element_var_spec(int n) {
    Spec spec;
    spec.name = "element(" + std::to_string(n) + " xs, i, y)";
    spec.claim = checker::Claim::custom;
    spec.holds = [n](const int* v) { return v[n] >= 0 && v[n] < n && v[v[n]] == v[n + 1]; };
    spec.closure = [n](const Case& c, Doms& d) { return element_var_closure(n, c, d); };
    spec.post = [n](Store& s, const std::vector<IntVar>& xs, const Case& c) {
        switch (c.kind) {
        case Kind::var:
            s.post(propane::element(checker::views<IntVar>(xs, c, 0, n), view<IntVar>(xs, c, n), view<IntVar>(xs, c, n + 1)));
            break;
        case Kind::offset:
            s.post(propane::element(checker::views<Offset>(xs, c, 0, n), view<Offset>(xs, c, n), view<Offset>(xs, c, n + 1)));
            break;
        case Kind::affine:
            s.post(propane::element(checker::views<Affine>(xs, c, 0, n), view<Affine>(xs, c, n), view<Affine>(xs, c, n + 1)));
            break;
        case Kind::mixed:
            // Positions n and n + 1 get the kinds mixed_at gives them.
            if (n == 2)
                s.post(propane::element(checker::views<Affine>(xs, c, 0, n), view<Offset>(xs, c, n), view<IntVar>(xs, c, n + 1)));
            else
                s.post(propane::element(checker::views<Affine>(xs, c, 0, n), view<IntVar>(xs, c, n), view<Affine>(xs, c, n + 1)));
            break;
        }
    };
    return spec;
}

std::vector<std::vector<int>> random_arrays(int count, unsigned seed) {
    std::mt19937 rng(seed);
    std::vector<std::vector<int>> out;
    for (int a = 0; a < count; ++a) {
        std::vector<int> array(1 + rng() % 6);
        for (int& w : array) w = static_cast<int>(rng() % 9) - 4;
        out.push_back(array);
    }
    return out;
}

} // namespace

TEST_CASE("element(array, i, y): domain consistent on i and y") {
    checker::Outcome all, sampled, shared, walked;
    for (const std::vector<int>& array : random_arrays(6, 11)) {
        const Spec spec = element_const_spec(array);
        for (const Kind k : all_kinds) {
            all += checker::sweep(spec, k, {.n = 2, .lo = -1, .range = 6, .posted_every = 2});
            sampled += checker::sweep(spec, k, {.n = 2, .lo = -3, .range = 7, .samples = 400, .posted_every = 2, .seed = 13});
            shared += checker::shared_sweep(spec, k, 2, 1, -3, 7, 80, 17);
            walked += checker::walks(spec, k, 2, -3, 7, 4, 120, 19);
        }
    }
    checker::report("element(array, i, y), 6 arrays x 4 kinds, every pair of subsets of -1..4", all);
    checker::report("element(array, i, y), 6 arrays x 4 kinds, sampled over -3..3", sampled);
    checker::report("element(array, i, y), 6 arrays x 4 kinds, one variable", shared);
    checker::report("element(array, i, y), 6 arrays x 4 kinds, walks", walked);
}

TEST_CASE("element(array, i, y): a model error for an empty array") {
    Store s;
    const IntVar i = s.int_var(0, 3), y = s.int_var(0, 3);
    CHECK_THROWS_AS(propane::element(std::vector<int>{}, i, y), propane::model_error);
    CHECK_THROWS_AS(s.post(propane::ElementConstant<IntVar, IntVar>{{}, i, y}), propane::model_error);
    CHECK_THROWS_AS(propane::element(std::vector<IntVar>{}, i, y), propane::model_error);
}

TEST_CASE("element(xs, i, y): domain on i, bounds on y, equality once i is fixed") {
    for (const Kind k : all_kinds) {
        checker::report("element(2 xs, i, y) x " + checker::name_of(k) + ", every 4-tuple of subsets of -1..2",
                        checker::sweep(element_var_spec(2), k, {.n = 4, .lo = -1, .range = 4, .posted_every = 4}));
        checker::report("element(3 xs, i, y) x " + checker::name_of(k) + ", sampled over -1..3",
                        checker::sweep(element_var_spec(3), k,
                                       {.n = 5, .lo = -1, .range = 5, .samples = 6000, .posted_every = 2, .seed = 23}));
        checker::Outcome shared;
        shared += checker::shared_sweep(element_var_spec(2), k, 4, 2, -1, 4, 400, 29);
        shared += checker::shared_sweep(element_var_spec(2), k, 4, 3, -1, 4, 400, 31);
        checker::report("element(2 xs, i, y) x " + checker::name_of(k) + ", shared variables", shared);
        checker::report("element(3 xs, i, y) x " + checker::name_of(k) + ", walks",
                        checker::walks(element_var_spec(3), k, 5, -1, 5, 12, 150, 37));
    }
}
