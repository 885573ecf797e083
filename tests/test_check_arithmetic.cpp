// abs, min, max and times through the checker (checker.hpp).
//
// Claims checked, in view space, for views on distinct variables:
//   abs(x, y)   y == |x|, domain consistent (exact). Two views of one
//               variable are filtered exactly too, which the shared sweep
//               holds it to.
//   min, max    y == min(xs) / max(xs), bounds(Z) (exact): the greatest box
//               whose every bound has a support with the other views taking
//               integers between their bounds, holes ignored. The checker
//               finds those supports by enumerating the integers.
//   times       z == x * y, at least bounds(R): every solution kept, and
//               every bound left has a support with the other two views
//               taking real values within their bounds; pruning more is
//               allowed (and counted).
// Where views share a variable min, max and times are relaxations: that
// sweep checks soundness and the fixed-assignment rule only.
//
// Configurations: abs over every pair of subsets of -2..2 and samples over
// -3..3; min and max with one xs (every pair of subsets of -2..2), two
// (every triple of subsets of -2..2) and three (sampled over -2..2); times
// over every triple of subsets of -2..2 and samples over -3..3; each for
// every view kind, then shared variables and random walks.

#include <doctest/doctest.h>

#include "checker.hpp"

#include <propane/constraints/abs.hpp>
#include <propane/constraints/min_max.hpp>
#include <propane/constraints/times.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "instances_store.hpp"

namespace {

using checker::Box;
using checker::Case;
using checker::Kind;
using checker::Spec;
using checker::Store;
using checker::u;
using checker::view;
using propane::IntVar;
using Affine = propane::AffineView;
using Offset = propane::OffsetView;

const std::vector<Kind> all_kinds(checker::kinds.begin(), checker::kinds.end());

// Calls f with view i as the C++ type the kind gives position i.
template <class F>
void with_view(const std::vector<IntVar>& xs, const Case& c, int i, F&& f) {
    const Kind k = c.kind == Kind::mixed ? checker::mixed_at(i) : c.kind;
    switch (k) {
    case Kind::var: f(view<IntVar>(xs, c, i)); break;
    case Kind::offset: f(view<Offset>(xs, c, i)); break;
    case Kind::affine:
    case Kind::mixed: f(view<Affine>(xs, c, i)); break;
    }
}

// Two or three scalar views of one kind each: same-kind configurations use
// one type for all, mixed ones IntVar, AffineView, OffsetView in turn.
template <class Make>
void post_scalars(Store& s, const std::vector<IntVar>& xs, const Case& c, Make&& make) {
    switch (c.kind) {
    case Kind::var: s.post(make(view<IntVar>(xs, c, 0), view<IntVar>(xs, c, 1), view<IntVar>(xs, c, 2))); break;
    case Kind::offset: s.post(make(view<Offset>(xs, c, 0), view<Offset>(xs, c, 1), view<Offset>(xs, c, 2))); break;
    case Kind::affine: s.post(make(view<Affine>(xs, c, 0), view<Affine>(xs, c, 1), view<Affine>(xs, c, 2))); break;
    case Kind::mixed: s.post(make(view<IntVar>(xs, c, 0), view<Affine>(xs, c, 1), view<Offset>(xs, c, 2))); break;
    }
}

Spec abs_spec() {
    Spec spec;
    spec.name = "abs(x, y)";
    spec.claim = checker::Claim::domain;
    spec.exact_when_shared = true;
    spec.holds = [](const int* v) { return v[1] == (v[0] < 0 ? -v[0] : v[0]); };
    spec.post = [](Store& s, const std::vector<IntVar>& xs, const Case& c) {
        auto post = [&](auto x, auto y) { s.post(propane::abs(x, y)); };
        switch (c.kind) {
        case Kind::var: post(view<IntVar>(xs, c, 0), view<IntVar>(xs, c, 1)); break;
        case Kind::offset: post(view<Offset>(xs, c, 0), view<Offset>(xs, c, 1)); break;
        case Kind::affine: post(view<Affine>(xs, c, 0), view<Affine>(xs, c, 1)); break;
        case Kind::mixed: post(view<IntVar>(xs, c, 0), view<Affine>(xs, c, 1)); break;
        }
    };
    return spec;
}

Spec extremum_spec(bool least, int k) {
    Spec spec;
    spec.name = std::string(least ? "min" : "max") + "(" + std::to_string(k) + " xs, y)";
    spec.claim = checker::Claim::bounds_z;
    spec.holds = [least, k](const int* v) {
        const int e = least ? *std::min_element(v, v + k) : *std::max_element(v, v + k);
        return v[k] == e;
    };
    spec.post = [least, k](Store& s, const std::vector<IntVar>& xs, const Case& c) {
        auto post = [&](const auto& vs) {
            with_view(xs, c, k, [&](auto y) {
                if (least)
                    s.post(propane::min(vs, y));
                else
                    s.post(propane::max(vs, y));
            });
        };
        switch (c.kind) {
        case Kind::var: post(checker::views<IntVar>(xs, c, 0, k)); break;
        case Kind::offset: post(checker::views<Offset>(xs, c, 0, k)); break;
        case Kind::affine:
        case Kind::mixed: post(checker::views<Affine>(xs, c, 0, k)); break;
        }
    };
    return spec;
}

// The real products of [lo, hi] and [lo2, hi2]: the corners bound them.
std::array<std::int64_t, 2> product_range(std::int64_t lo, std::int64_t hi, std::int64_t lo2, std::int64_t hi2) {
    const std::array<std::int64_t, 4> p{lo * lo2, lo * hi2, hi * lo2, hi * hi2};
    return {*std::min_element(p.begin(), p.end()), *std::max_element(p.begin(), p.end())};
}

Spec times_spec() {
    Spec spec;
    spec.name = "times(x, y, z)";
    spec.claim = checker::Claim::at_least_bounds_r;
    spec.holds = [](const int* v) { return std::int64_t{v[0]} * v[1] == v[2]; };
    // x = w: some real y in its bounds puts w*y in z's bounds, that is
    // w * [ly, hy] meets [lz, hz]; likewise for y; z = w: w is a product of
    // reals from x's and y's bounds.
    spec.real_support = [](int i, int w, const Box& b) {
        if (i == 2) {
            const auto [lo, hi] = product_range(b.lo[0], b.hi[0], b.lo[1], b.hi[1]);
            return lo <= w && w <= hi;
        }
        const int other = 1 - i;
        const auto [lo, hi] = product_range(w, w, b.lo[u(other)], b.hi[u(other)]);
        return lo <= b.hi[2] && b.lo[2] <= hi;
    };
    spec.post = [](Store& s, const std::vector<IntVar>& xs, const Case& c) {
        post_scalars(s, xs, c, [](auto x, auto y, auto z) { return propane::times(x, y, z); });
    };
    return spec;
}

void run_sweeps(const Spec& spec, const std::string& what, const checker::Options& opt) {
    for (const Kind k : all_kinds) checker::report(spec.name + " x " + checker::name_of(k) + ", " + what, checker::sweep(spec, k, opt));
}

} // namespace

TEST_CASE("abs(x, y): domain consistent") {
    const Spec spec = abs_spec();
    run_sweeps(spec, "every pair of subsets of -2..2", {.n = 2, .lo = -2, .range = 5});
    run_sweeps(spec, "sampled over -3..3", {.n = 2, .lo = -3, .range = 7, .samples = 3000, .posted_every = 2, .seed = 3});
    for (const Kind k : all_kinds)
        checker::report(spec.name + " x " + checker::name_of(k) + ", one variable",
                        checker::shared_sweep(spec, k, 2, 1, -3, 7, 400, 41));
    for (const Kind k : all_kinds)
        checker::report(spec.name + " x " + checker::name_of(k) + ", walks", checker::walks(spec, k, 2, -3, 7, 16, 150, 43));
}

TEST_CASE("min and max: bounds(Z), the greatest box") {
    for (const bool least : {true, false}) {
        run_sweeps(extremum_spec(least, 1), "every pair of subsets of -2..2", {.n = 2, .lo = -2, .range = 5});
        run_sweeps(extremum_spec(least, 2), "every triple of subsets of -2..2",
                   {.n = 3, .lo = -2, .range = 5, .posted_every = 3});
        run_sweeps(extremum_spec(least, 3), "sampled over -2..2",
                   {.n = 4, .lo = -2, .range = 5, .samples = 4000, .posted_every = 2, .seed = 5});
    }
}

TEST_CASE("min and max over shared variables: sound, and exact on fixed assignments") {
    for (const bool least : {true, false})
        for (const Kind k : all_kinds) {
            checker::Outcome all;
            all += checker::shared_sweep(extremum_spec(least, 2), k, 3, 2, -2, 5, 400, 47);
            all += checker::shared_sweep(extremum_spec(least, 3), k, 4, 2, -2, 5, 400, 53);
            checker::report(std::string(least ? "min" : "max") + " x " + checker::name_of(k) + ", shared variables",
                            all);
        }
}

TEST_CASE("min and max: random push/cut/propagate/pop/copy walks") {
    for (const bool least : {true, false})
        for (const Kind k : all_kinds) {
            const Spec spec = extremum_spec(least, 3);
            checker::report(spec.name + " x " + checker::name_of(k) + ", walks", checker::walks(spec, k, 4, -2, 5, 12, 150, 59));
        }
}

TEST_CASE("times(x, y, z): sound and at least bounds(R)") {
    const Spec spec = times_spec();
    run_sweeps(spec, "every triple of subsets of -2..2", {.n = 3, .lo = -2, .range = 5, .posted_every = 3});
    run_sweeps(spec, "sampled over -3..3", {.n = 3, .lo = -3, .range = 7, .samples = 3000, .posted_every = 2, .seed = 7});
    for (const Kind k : all_kinds) {
        checker::Outcome all;
        all += checker::shared_sweep(spec, k, 3, 1, -3, 7, 400, 61);
        all += checker::shared_sweep(spec, k, 3, 2, -3, 7, 400, 67);
        checker::report(spec.name + " x " + checker::name_of(k) + ", shared variables", all);
    }
    for (const Kind k : all_kinds)
        checker::report(spec.name + " x " + checker::name_of(k) + ", walks", checker::walks(spec, k, 3, -3, 7, 16, 150, 71));
}
