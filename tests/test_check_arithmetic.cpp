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
//   times over Booleans: with x and y within {0, 1} when posted, z is cut
//               to {0, 1} and z == x and y is posted: domain consistent
//               (exact), for x, y and z of every Boolean view shape (b,
//               1 - b, b + 1 over {-1, 0}, 2 - b over {1, 2}, ...), and z
//               also any view that posting cuts into {0, 1} (a variable
//               over -1..2, 2*b, 2*b - 1).
// Where views share a variable min, max and times are relaxations: that
// sweep checks soundness and the fixed-assignment rule only.
//
// Configurations: abs over every pair of subsets of -2..2 and samples over
// -3..3; min and max with one xs (every pair of subsets of -2..2), two
// (every triple of subsets of -2..2) and three (sampled over -2..2); times
// over every triple of subsets of -2..2 and samples over -3..3; each for
// every view kind, then shared variables and random walks. Times over
// Booleans: every combination of the view shapes above for each kind,
// every non-empty subset of each variable's allowed values; shared
// variables (b * b, b * (1 - b), b * c == b, ...); and random walks from
// Boolean views.

#include <doctest/doctest.h>

#include "bool_sweep.hpp"
#include "checker.hpp"

#include <propane/constraints/abs.hpp>
#include <propane/constraints/min_max.hpp>
#include <propane/constraints/times.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <random>
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

// Times over Booleans: variables over -1..2 (bit t is the value t - 1),
// each view a*x + b with the variable values it may take.
constexpr int bool_lo = -1;
constexpr int bool_range = 4;

struct Shape {
    int a, b;
    checker::Mask allowed;
};

constexpr checker::Mask zero_one = 0b0110, minus_one_zero = 0b0011, one_two = 0b1100, all_four = 0b1111;

// Shapes that are Booleans for any position, and those that only z may
// take (posting cuts them into {0, 1}), per position kind.
std::vector<Shape> bool_shapes(Kind k) {
    switch (k) {
    case Kind::var: return {{1, 0, zero_one}};
    case Kind::offset: return {{1, 0, zero_one}, {1, 1, minus_one_zero}, {1, -1, one_two}};
    case Kind::affine:
        return {{1, 0, zero_one}, {1, 1, minus_one_zero}, {-1, 1, zero_one}, {-1, 0, minus_one_zero}, {-1, 2, one_two}};
    case Kind::mixed: break;
    }
    return {};
}
std::vector<Shape> z_shapes(Kind k) {
    std::vector<Shape> out = bool_shapes(k);
    switch (k) {
    case Kind::var: out.push_back({1, 0, all_four}); break;
    case Kind::offset: out.push_back({1, 0, all_four}), out.push_back({1, 1, all_four}); break;
    case Kind::affine:
        out.push_back({1, 0, all_four}), out.push_back({2, 0, zero_one}), out.push_back({2, -1, zero_one});
        out.push_back({-2, 1, zero_one});
        break;
    case Kind::mixed: break;
    }
    return out;
}

Spec times_bool_spec() {
    Spec spec = times_spec();
    spec.name = "times(x, y, z) over Booleans";
    spec.claim = checker::Claim::domain;
    return spec;
}

// Every combination of shapes for x, y and z of the kind (mixed: an
// IntVar, an AffineView, an OffsetView), each swept over every subset of
// its variable's allowed values.
checker::Outcome times_bool_sweep(const Spec& spec, Kind kind) {
    const auto at = [kind](int i) { return kind == Kind::mixed ? checker::mixed_at(i) : kind; };
    checker::Outcome all;
    for (const Shape& x : bool_shapes(at(0)))
        for (const Shape& y : bool_shapes(at(1)))
            for (const Shape& z : z_shapes(at(2))) {
                checker::Coefs v{};
                const std::array<Shape, 3> shapes{x, y, z};
                for (int i = 0; i < 3; ++i) v[u(i)] = {i, shapes[u(i)].a, shapes[u(i)].b};
                all += checker::bool_sweep(spec, kind, 3, bool_lo, bool_range, {v}, {x.allowed, y.allowed, z.allowed});
            }
    return all;
}

// Views sharing a variable, given as (variable, a, b) per position, over
// variables 0 and 1 (variable 2 unused): x * x, x * (1 - x), x * y == x,
// x * y == 1 - x, x * x == x, x * (1 - x) == x, (1 - x) * y == 1 - y.
checker::Outcome times_bool_shared(const Spec& spec, Kind kind) {
    using V = checker::ViewSpec;
    const bool negations = kind == Kind::affine;
    std::vector<std::array<V, 3>> layouts{{V{0, 1, 0}, V{0, 1, 0}, V{1, 1, 0}},
                                          {V{0, 1, 0}, V{1, 1, 0}, V{0, 1, 0}},
                                          {V{0, 1, 0}, V{0, 1, 0}, V{0, 1, 0}}};
    if (negations) {
        layouts.push_back({V{0, 1, 0}, V{0, -1, 1}, V{1, 1, 0}});
        layouts.push_back({V{0, 1, 0}, V{1, 1, 0}, V{0, -1, 1}});
        layouts.push_back({V{0, 1, 0}, V{0, -1, 1}, V{0, 1, 0}});
        layouts.push_back({V{0, -1, 1}, V{1, 1, 0}, V{1, -1, 1}});
    }
    checker::Outcome all;
    for (const auto& l : layouts) {
        checker::Coefs v{};
        for (int i = 0; i < 3; ++i) v[u(i)] = l[u(i)];
        all += checker::bool_sweep(spec, kind, 3, bool_lo, bool_range, {v}, {zero_one, zero_one, zero_one});
    }
    return all;
}

// Random walks (push, cut, propagate, pop, copy) on stores posted over
// 0..1, with the kind's Boolean views: b and 1 - b.
checker::Outcome times_bool_walks(const Spec& spec, Kind kind, int count, int steps, unsigned seed) {
    checker::Outcome out;
    std::mt19937 rng(seed);
    std::vector<checker::Coefs> coefs;
    const auto with = [&](std::array<int, 3> negated) {
        checker::Coefs v{};
        for (int i = 0; i < 3; ++i) v[u(i)] = {i, negated[u(i)] ? -1 : 1, negated[u(i)] ? 1 : 0};
        coefs.push_back(v);
    };
    switch (kind) {
    case Kind::var:
    case Kind::offset: with({0, 0, 0}); break;
    case Kind::affine: with({0, 0, 0}), with({1, 0, 1}), with({1, 1, 0}), with({0, 1, 1}); break;
    case Kind::mixed: with({0, 1, 0}), with({0, 0, 0}); break;
    }
    for (int w = 0; w < count; ++w) {
        checker::Case shape = checker::base_case(kind, 3, 3, 0, 2, coefs[u(w) % coefs.size()]);
        shape.forms = static_cast<unsigned>(rng()) & 7U;
        checker::Walk walk(spec, shape, out.chk, out.tally);
        walk.run(rng, steps);
        ++out.tally.walks;
    }
    return out;
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

TEST_CASE("times(x, y, z) over Booleans: z == x and y, domain consistent") {
    const Spec spec = times_bool_spec();
    for (const Kind k : all_kinds)
        checker::report(spec.name + " x " + checker::name_of(k) + ", every shape and subset", times_bool_sweep(spec, k));
    for (const Kind k : {Kind::var, Kind::affine})
        checker::report(spec.name + " x " + checker::name_of(k) + ", shared variables", times_bool_shared(spec, k));
    for (const Kind k : all_kinds)
        checker::report(spec.name + " x " + checker::name_of(k) + ", walks", times_bool_walks(spec, k, 40, 150, 73));
}
