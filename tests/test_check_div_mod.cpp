// div and mod through the checker (checker.hpp).
//
// Claims checked, in view space, for views on distinct variables:
//   div   z == x / y (truncating), bounds(Z) with 0 removed from y, exact:
//         the reference removes y's 0, then takes the greatest box whose
//         every bound has a support with the other views taking integers
//         between their bounds, by enumeration. Pruning too little fails
//         as surely as losing a solution.
//   mod   z == x % y (remainder of x's sign), held to the same closure.
// A divisor that can only be 0 fails the store at the first propagation
// (no exception): the "posted" mode meets it whenever y is cut to {0}
// first, and the reference expects a failure of such a box.
// Where views share a variable both are held to soundness only.
//
// Configurations, each for every view kind: every triple of subsets of
// -2..2, samples over -3..3 (wide enough for |x| > |y| > |z| > 1), shared
// variables and random walks; a divisor of {0} and INT_MIN / -1 apart.

#include <doctest/doctest.h>

#include "checker.hpp"

#include <propane/constraints/div_mod.hpp>
#include <propane/engine/error.hpp>
#include <propane/search/search.hpp>

#include <array>
#include <climits>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
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
using checker::u;
using checker::view;
using propane::IntVar;
using Affine = propane::AffineView;
using Offset = propane::OffsetView;

const std::vector<Kind> all_kinds(checker::kinds.begin(), checker::kinds.end());

// Posts make(x, y, z) over the case's view kind.
template <class Make>
void post_kind(Store& s, const std::vector<IntVar>& xs, const Case& c, Make&& make) {
    switch (c.kind) {
    case Kind::var: s.post(make(view<IntVar>(xs, c, 0), view<IntVar>(xs, c, 1), view<IntVar>(xs, c, 2))); break;
    case Kind::offset: s.post(make(view<Offset>(xs, c, 0), view<Offset>(xs, c, 1), view<Offset>(xs, c, 2))); break;
    case Kind::affine: s.post(make(view<Affine>(xs, c, 0), view<Affine>(xs, c, 1), view<Affine>(xs, c, 2))); break;
    case Kind::mixed: s.post(make(view<IntVar>(xs, c, 0), view<Affine>(xs, c, 1), view<Offset>(xs, c, 2))); break;
    }
}

// Bounds(Z) with 0 removed from y, for div and mod alike: the reference
// removes y's 0, then takes the greatest box whose every bound has a
// support with the other views taking integers between their bounds.
Spec division_spec(std::string name, checker::Holds holds) {
    Spec spec;
    spec.name = std::move(name);
    spec.claim = checker::Claim::custom;
    spec.holds = holds;
    spec.closure = [holds](const Case& c, Doms& d) {
        for (int t = 0; t < c.range; ++t)
            if (c.value(1, t) == 0) d[u(1)] &= ~(Mask{1} << t);
        if (d[u(1)] == 0) return false;
        Spec inner;
        inner.holds = holds;
        return checker::bounds_closure(
            c, d, [&](const checker::Box& b, int i, int w) { return checker::integer_support(inner, c, b, i, w); });
    };
    return spec;
}

Spec div_spec() {
    Spec spec = division_spec("div(x, y, z)",
                              [](const int* v) { return v[1] != 0 && std::int64_t{v[0]} / v[1] == v[2]; });
    spec.post = [](Store& s, const std::vector<IntVar>& xs, const Case& c) {
        post_kind(s, xs, c, [](auto x, auto y, auto z) { return propane::div(x, y, z); });
    };
    return spec;
}

Spec mod_spec() {
    Spec spec = division_spec("mod(x, y, z)",
                              [](const int* v) { return v[1] != 0 && std::int64_t{v[0]} % v[1] == v[2]; });
    spec.post = [](Store& s, const std::vector<IntVar>& xs, const Case& c) {
        post_kind(s, xs, c, [](auto x, auto y, auto z) { return propane::mod(x, y, z); });
    };
    return spec;
}

void run_all(const Spec& spec, unsigned seed) {
    for (const Kind k : all_kinds)
        checker::report(spec.name + " x " + checker::name_of(k) + ", every triple of subsets of -2..2",
                        checker::sweep(spec, k, {.n = 3, .lo = -2, .range = 5, .posted_every = 3}));
    for (const Kind k : all_kinds)
        checker::report(spec.name + " x " + checker::name_of(k) + ", sampled over -3..3",
                        checker::sweep(spec, k, {.n = 3, .lo = -3, .range = 7, .samples = 3000, .posted_every = 2, .seed = seed}));
    for (const Kind k : all_kinds) {
        checker::Outcome all;
        all += checker::shared_sweep(spec, k, 3, 1, -3, 7, 400, seed + 1);
        all += checker::shared_sweep(spec, k, 3, 2, -3, 7, 400, seed + 2);
        checker::report(spec.name + " x " + checker::name_of(k) + ", shared variables", all);
    }
    for (const Kind k : all_kinds)
        checker::report(spec.name + " x " + checker::name_of(k) + ", walks", checker::walks(spec, k, 3, -3, 7, 16, 150, seed + 3));
}

} // namespace

TEST_CASE("div(x, y, z): bounds(Z), 0 removed from y") { run_all(div_spec(), 101); }

TEST_CASE("mod(x, y, z): bounds(Z), 0 removed from y") { run_all(mod_spec(), 201); }

// A divisor of {0} is no modelling mistake: in FlatZinc and MiniZinc it
// may come from other constraints, and the model then has no solution.
TEST_CASE("div and mod over a divisor that can only be 0 fail the store, with no exception") {
    const auto post_both = [](Store& s, auto x, auto y, auto z) {
        s.post(propane::div(x, y, z));
        s.post(propane::mod(x, y, z));
    };
    for (const bool scaled : {false, true}) {
        Store s;
        const IntVar x = s.int_var(-3, 3), y = s.int_var(0, 0), z = s.int_var(-3, 3);
        if (scaled) post_both(s, x, 2 * y, z);
        else post_both(s, x, y, z);
        CHECK_FALSE(s.propagate());
    }
    // y in -1..1: its 0 goes at the root, every solution stays.
    Store s;
    const IntVar x = s.int_var(-3, 3), y = s.int_var(-1, 1), z = s.int_var(-3, 3), w = s.int_var(-3, 3);
    s.post(propane::div(x, y, z));
    s.post(propane::mod(x, y, w));
    const std::vector<IntVar> order{y, x, z, w};
    REQUIRE(s.propagate());
    CHECK_FALSE(s.domain(y).contains(0));
    std::uint64_t count = 0;
    const auto st = propane::solve(s, order, propane::Strategy{}, [&](const auto& sol) {
        CHECK(sol.value(y) != 0);
        CHECK(sol.value(z) == sol.value(x) / sol.value(y));
        CHECK(sol.value(w) == sol.value(x) % sol.value(y));
        ++count;
    });
    CHECK(st.complete());
    CHECK(count == 14); // x in -3..3, y in {-1, 1}
}

TEST_CASE("div and mod: INT_MIN / -1 has no quotient in int, its remainder is 0") {
    Store s;
    const IntVar x = s.int_var(INT_MIN, INT_MIN), y = s.int_var(-1, -1), q = s.int_var(INT_MAX - 40, INT_MAX);
    const IntVar r = s.int_var(-5, 5);
    s.post(propane::mod(x, y, r));
    REQUIRE(s.propagate());
    CHECK(s.domain(r).fixed());
    CHECK(s.domain(r).min() == 0);
    s.post(propane::div(x, y, q));
    CHECK_FALSE(s.propagate());

    Store t;
    const IntVar a = t.int_var(INT_MIN, INT_MIN + 40), b = t.int_var(-3, 3), c = t.int_var(INT_MAX - 40, INT_MAX);
    t.post(propane::div(a, b, c));
    t.post(propane::mod(a, b, -c));
    CHECK_FALSE(t.propagate());
}

TEST_CASE("div and mod: a small model counted against enumeration") {
    for (int lo = -7; lo <= 0; ++lo) {
        Store s;
        const IntVar x = s.int_var(lo, 7), y = s.int_var(-4, 4), q = s.int_var(-8, 8), r = s.int_var(-8, 8);
        s.post(propane::div(x, y, q));
        s.post(propane::mod(2 * x + 1, y + 1, r));
        std::uint64_t count = 0;
        propane::solve(s, std::vector<IntVar>{x, y, q, r}, [&](const auto& sol) {
            CHECK(sol[1] != 0);
            CHECK(sol[0] / sol[1] == sol[2]);
            CHECK((2 * sol[0] + 1) % (sol[1] + 1) == sol[3]);
            ++count;
            return propane::next;
        });
        std::uint64_t want = 0;
        for (int a = lo; a <= 7; ++a)
            for (int b = -4; b <= 4; ++b) want += b != 0 && b != -1;
        CHECK(count == want);
    }
}

// Far from 0 and over wide divisor ranges the supports of mod come from the
// walk by quotient as well as by divisor (see div_mod.hpp): the box left
// is compared with the greatest bounds(Z) box, found by enumerating the
// integers between the bounds (up to 64 values a variable).
TEST_CASE("mod(x, y, z): bounds(Z) on wide intervals far from 0") {
    std::mt19937 rng(7);
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    auto holds = [](std::int64_t x, std::int64_t y, std::int64_t z) { return y != 0 && x % y == z; };
    int pruned = 0, failed = 0;
    for (int round = 0; round < 60; ++round) {
        std::array<int, 3> lo{}, hi{};
        const int far = round % 2 == 0 ? 1000 : -1063;
        lo[0] = far + pick(0, 40), hi[0] = lo[0] + pick(0, 23);
        lo[1] = pick(-63, 40), hi[1] = std::min(lo[1] + pick(0, 63), 63);
        lo[2] = pick(-63, 30), hi[2] = std::min(lo[2] + pick(0, 63), 63);
        Store s;
        const IntVar x = s.int_var(lo[0], hi[0]), y = s.int_var(lo[1], hi[1]), z = s.int_var(lo[2], hi[2]);
        if (lo[1] == 0 && hi[1] == 0) continue;
        s.post(propane::mod(x, y, z));
        const bool ok = s.propagate();
        // The reference: y's 0 out, then unsupported bounds off until none is left.
        std::array<int, 3> a = lo, b = hi;
        bool empty = false;
        if (a[1] == 0) ++a[1];
        if (b[1] == 0) --b[1];
        auto supported = [&](int i, int w) {
            std::array<int, 3> v{};
            const int j = (i + 1) % 3, k = (i + 2) % 3;
            v[static_cast<std::size_t>(i)] = w;
            for (int p = a[static_cast<std::size_t>(j)]; p <= b[static_cast<std::size_t>(j)]; ++p)
                for (int q = a[static_cast<std::size_t>(k)]; q <= b[static_cast<std::size_t>(k)]; ++q) {
                    v[static_cast<std::size_t>(j)] = p, v[static_cast<std::size_t>(k)] = q;
                    if (holds(v[0], v[1], v[2])) return true;
                }
            return false;
        };
        for (bool changed = true; changed && !empty;) {
            changed = false;
            for (std::size_t i = 0; i < 3 && !empty; ++i) {
                while (a[i] <= b[i] && !supported(static_cast<int>(i), a[i])) ++a[i], changed = true;
                while (a[i] <= b[i] && !supported(static_cast<int>(i), b[i])) --b[i], changed = true;
                empty = a[i] > b[i];
            }
        }
        const std::string box = "x " + std::to_string(lo[0]) + ".." + std::to_string(hi[0]) + ", y " +
                                std::to_string(lo[1]) + ".." + std::to_string(hi[1]) + ", z " +
                                std::to_string(lo[2]) + ".." + std::to_string(hi[2]);
        CAPTURE(box);
        REQUIRE(ok == !empty);
        if (!ok) {
            ++failed;
            continue;
        }
        const std::array<IntVar, 3> v{x, y, z};
        for (std::size_t i = 0; i < 3; ++i) {
            CHECK(s.domain(v[i]).min() == a[i]);
            CHECK(s.domain(v[i]).max() == b[i]);
            pruned += a[i] != lo[i] || b[i] != hi[i];
        }
    }
    MESSAGE("60 boxes: " << failed << " failed, " << pruned << " bounds moved");
    CHECK(pruned > 20);
}
