// rel(x, r, y) and rel(x, r, c) checked against brute force.
//
// The reference works on sets of variable values and on each view's
// coefficients (view = a*x + b), not through the header's views. For two
// views over different variables it keeps the values that have a support in
// the other domain: for eq and ne that is the domain consistency they
// promise, and for an order relation between two views bounds consistency
// keeps the same values (every value up to the other's greatest has it as a
// support), so every relation is compared with it exactly. Views over one
// variable keep the values v with a*v + b r a'*v + b'; a constant keeps the
// values whose image is in relation with it.
//
// Each configuration runs two ways: cut at level 0 and then posted (the
// first run sees the cut), and posted once on full domains, then cut inside
// a level (the propagator learns of the cut by events), popped, and checked
// to be restored.

#include <doctest/doctest.h>

#include "support.hpp"

#include <propane/constraints/rel.hpp>
#include <propane/engine/error.hpp>
#include <propane/engine/store.hpp>
#include <propane/engine/view.hpp>
#include <propane/search/search.hpp>

#include <array>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "instances_search.hpp"

namespace {

using Store = propane::Store<propane::BitDomain<1>>;
using propane::AffineView;
using propane::Change;
using propane::IntVar;
using propane::OffsetView;
using propane::Rel;
using test_support::cut;

constexpr std::array<Rel, 6> rels{Rel::eq, Rel::ne, Rel::lt, Rel::le, Rel::gt, Rel::ge};
constexpr int range = 4; // variables over 0..3; a cut is a nonempty subset, as a mask

struct Spec {
    int a;
    int b;
};
// The identity is swept by the IntVar instantiations.
constexpr std::array<Spec, 4> affine_specs{{{1, 2}, {-1, 1}, {2, -1}, {-3, 2}}};
constexpr std::array<Spec, 3> offset_specs{{{1, 0}, {1, 2}, {1, -1}}};
constexpr std::array<Spec, 1> identity_spec{{{1, 0}}};

bool holds(Rel r, std::int64_t u, std::int64_t v) {
    switch (r) {
    case Rel::eq: return u == v;
    case Rel::ne: return u != v;
    case Rel::lt: return u < v;
    case Rel::le: return u <= v;
    case Rel::gt: return u > v;
    case Rel::ge: return u >= v;
    }
    return false;
}

template <class V>
V make(IntVar x, Spec sp) {
    return test_support::make_view<V>(x, sp.a, sp.b);
}

std::set<int> values(const Store& s, IntVar x) { return test_support::contents(s.domain(x)); }

std::set<int> of_mask(unsigned mask) {
    std::set<int> r;
    for (int v = 0; v < range; ++v)
        if ((mask >> v) & 1U) r.insert(v);
    return r;
}

std::string describe(Rel r, Spec sx, Spec sy, const std::set<int>& dx, const std::set<int>& dy) {
    return std::string(propane::to_string(r)) + ": " + std::to_string(sx.a) + "*x+" + std::to_string(sx.b) +
           " vs " + std::to_string(sy.a) + "*y+" + std::to_string(sy.b) + ", x in " +
           doctest::toString(dx).c_str() + ", y in " + doctest::toString(dy).c_str();
}

// Supported values of x (view sx) against y's values (view sy); the reverse
// by swapping the arguments and the relation.
std::set<int> supported(Rel r, Spec sx, const std::set<int>& dx, Spec sy, const std::set<int>& dy) {
    std::set<int> out;
    for (int u : dx)
        for (int v : dy)
            if (holds(r, sx.a * u + sx.b, sy.a * v + sy.b)) {
                out.insert(u);
                break;
            }
    return out;
}

Rel mirrored(Rel r) {
    switch (r) {
    case Rel::lt: return Rel::gt;
    case Rel::le: return Rel::ge;
    case Rel::gt: return Rel::lt;
    case Rel::ge: return Rel::le;
    default: return r;
    }
}

// Checks the propagated domains of x and y, from dx and dy, against the
// reference; returns whether the store should have failed.
bool check_result(Store& s, bool ok, IntVar x, IntVar y, Rel r, Spec sx, Spec sy, const std::set<int>& dx,
                  const std::set<int>& dy) {
    const std::set<int> kx = supported(r, sx, dx, sy, dy), ky = supported(mirrored(r), sy, dy, sx, dx);
    const bool want = !kx.empty();
    INFO(describe(r, sx, sy, dx, dy));
    CHECK(ok == want);
    if (ok && want) {
        CHECK(values(s, x) == kx);
        CHECK(values(s, y) == ky);
    }
    return want;
}

template <class X, class Y, std::size_t NX, std::size_t NY>
void sweep_two_variables(const std::array<Spec, NX>& xs, const std::array<Spec, NY>& ys) {
    for (Rel r : rels)
        for (Spec sx : xs)
            for (Spec sy : ys) {
                // Posted once on full domains, cut inside levels.
                Store shared;
                const IntVar px = shared.int_var(0, range - 1), py = shared.int_var(0, range - 1);
                shared.post(propane::rel(make<X>(px, sx), r, make<Y>(py, sy)));
                const bool root_ok = shared.propagate();
                const std::set<int> root_x = values(shared, px), root_y = values(shared, py);
                check_result(shared, root_ok, px, py, r, sx, sy, of_mask(15), of_mask(15));
                for (unsigned mx = 1; mx < 16; ++mx)
                    for (unsigned my = 1; my < 16; ++my) {
                        Store s;
                        const IntVar x = s.int_var(0, range - 1), y = s.int_var(0, range - 1);
                        const bool cut_ok = cut(s, x, of_mask(mx)) && cut(s, y, of_mask(my));
                        REQUIRE(cut_ok);
                        s.post(propane::rel(make<X>(x, sx), r, make<Y>(y, sy)));
                        check_result(s, s.propagate(), x, y, r, sx, sy, of_mask(mx), of_mask(my));

                        if (!root_ok) continue;
                        shared.push_level();
                        const std::set<int> dx = values(shared, px), dy = values(shared, py);
                        if (cut(shared, px, of_mask(mx)) && cut(shared, py, of_mask(my))) {
                            std::set<int> cx, cy;
                            for (int v : dx)
                                if (of_mask(mx).contains(v)) cx.insert(v);
                            for (int v : dy)
                                if (of_mask(my).contains(v)) cy.insert(v);
                            check_result(shared, shared.propagate(), px, py, r, sx, sy, cx, cy);
                        }
                        shared.pop_level();
                        CHECK(!shared.failed());
                        CHECK(values(shared, px) == root_x);
                        CHECK(values(shared, py) == root_y);
                    }
            }
}

} // namespace

TEST_CASE("Rel names round-trip, and unknown names and relations are refused") {
    for (Rel r : rels) CHECK(propane::rel_from_string(propane::to_string(r)) == r);
    CHECK(!propane::rel_from_string("<=").has_value());
    CHECK(!propane::rel_from_string("").has_value());
    Store s;
    const IntVar x = s.int_var(0, 3), y = s.int_var(0, 3);
    CHECK_THROWS_WITH_AS(s.post(propane::rel(x, static_cast<Rel>(9), y)),
                         doctest::Contains("not a propane::Rel"), propane::model_error);
    CHECK_THROWS_WITH_AS(propane::rel(x, static_cast<Rel>(6), 2), doctest::Contains("rel: relation 6"),
                         propane::model_error);
}

TEST_CASE("rel between two affine views agrees with brute force, exhaustively over small domains") {
    sweep_two_variables<AffineView, AffineView>(affine_specs, affine_specs);
}

TEST_CASE("rel between views of different kinds agrees with brute force") {
    sweep_two_variables<IntVar, OffsetView>(identity_spec, offset_specs);
    sweep_two_variables<OffsetView, AffineView>(offset_specs, affine_specs);
    sweep_two_variables<IntVar, IntVar>(identity_spec, identity_spec);
}

TEST_CASE("rel between views of one variable keeps exactly the values that satisfy it, at post") {
    for (Rel r : rels)
        for (Spec sx : affine_specs)
            for (Spec sy : affine_specs)
                for (unsigned m = 1; m < 16; ++m) {
                    Store s;
                    const IntVar x = s.int_var(0, range - 1);
                    REQUIRE(cut(s, x, of_mask(m)));
                    s.push_level();
                    s.post(propane::rel(AffineView(x, sx.a, sx.b), r, AffineView(x, sy.a, sy.b)));
                    std::set<int> want;
                    for (int v : of_mask(m))
                        if (holds(r, sx.a * v + sx.b, sy.a * v + sy.b)) want.insert(v);
                    INFO(describe(r, sx, sy, of_mask(m), of_mask(m)));
                    // Decided when posted, before any propagation.
                    CHECK(s.failed() == want.empty());
                    CHECK(s.num_propagators() == 0);
                    CHECK(s.propagate() == !want.empty());
                    if (!want.empty()) CHECK(values(s, x) == want);
                    s.pop_level();
                    CHECK(!s.failed());
                    CHECK(values(s, x) == of_mask(m));
                }
}

TEST_CASE("the documented one-variable cases") {
    Store s;
    const IntVar x = s.int_var(-3, 3);
    s.push_level();
    s.post(propane::rel(x, Rel::eq, x + 1));
    CHECK(s.failed());
    s.pop_level();
    s.post(propane::rel(x, Rel::ne, 2 * x)); // removes 0
    s.post(propane::rel(x, Rel::lt, -x));    // x < 0
    REQUIRE(s.propagate());
    CHECK(values(s, x) == std::set<int>{-3, -2, -1});
}

TEST_CASE("rel against a constant acts at post, through the view, and is undone by pop_level") {
    for (Rel r : rels)
        for (Spec sp : affine_specs)
            for (unsigned m = 1; m < 16; ++m)
                for (int c = -8; c <= 8; ++c) {
                    Store s;
                    const IntVar x = s.int_var(0, range - 1);
                    REQUIRE(cut(s, x, of_mask(m)));
                    std::set<int> want;
                    for (int v : of_mask(m))
                        if (holds(r, sp.a * v + sp.b, c)) want.insert(v);
                    INFO(propane::to_string(r), " ", sp.a, "*x+", sp.b, " x in ", of_mask(m), " c ", c);
                    s.push_level();
                    s.post(propane::rel(AffineView(x, sp.a, sp.b), r, c));
                    CHECK(s.failed() == want.empty());
                    if (!want.empty()) CHECK(values(s, x) == want);
                    CHECK(s.propagate() == !want.empty());
                    s.pop_level();
                    CHECK(!s.failed());
                    CHECK(values(s, x) == of_mask(m));
                }
}

TEST_CASE("rel against a constant beyond int, with every view kind") {
    constexpr std::int64_t big = std::int64_t{1} << 40;
    Store s;
    const IntVar x = s.int_var(0, 9);
    s.post(propane::rel(x + 3, Rel::ne, big));
    s.post(propane::rel(2 * x, Rel::lt, big));
    s.post(propane::rel(x, Rel::gt, -big));
    s.post(propane::rel(x, Rel::ne, 3));
    s.post(propane::rel(x + 1, Rel::le, 8));
    s.post(propane::rel(-2 * x + 1, Rel::le, -1)); // x >= 1
    REQUIRE(s.propagate());
    CHECK(values(s, x) == std::set<int>{1, 2, 4, 5, 6, 7});
    for (const Rel r : {Rel::eq, Rel::gt, Rel::ge}) {
        s.push_level();
        s.post(propane::rel(x, r, big));
        CHECK(s.failed());
        CHECK(!s.propagate());
        s.pop_level();
        CHECK(values(s, x) == std::set<int>{1, 2, 4, 5, 6, 7});
    }
    s.push_level();
    s.post(propane::rel(x, Rel::lt, std::numeric_limits<std::int64_t>::min()));
    CHECK(s.failed());
    s.pop_level();
    // A value the view cannot take (odd, for 2 * x) fails eq the same way.
    s.push_level();
    s.post(propane::rel(2 * x, Rel::eq, 5));
    CHECK(s.failed());
    s.pop_level();
    CHECK(s.propagate());
}

TEST_CASE("rel refuses a handle of another store, naming rel") {
    Store s, other;
    const IntVar x = s.int_var(0, 3);
    const IntVar y = other.int_var(0, 3);
    CHECK_THROWS_WITH_AS(s.post(propane::rel(x, Rel::lt, y)), doctest::Contains("rel: variable handle"),
                         propane::model_error);
    CHECK_THROWS_WITH_AS(s.post(propane::rel(y + 1, Rel::ne, 2)), doctest::Contains("another store"),
                         propane::model_error);
    CHECK_THROWS_WITH_AS(s.post(propane::rel(IntVar{}, Rel::eq, x)), doctest::Contains("default-constructed"),
                         propane::model_error);
}

TEST_CASE("a model of relations has exactly the brute-force solutions") {
    constexpr int n = 6;
    Store s;
    const IntVar x = s.int_var(0, n - 1), y = s.int_var(0, n - 1), z = s.int_var(0, n - 1);
    s.post(propane::rel(x, Rel::lt, y));
    s.post(propane::rel(y + 1, Rel::ne, z));
    s.post(propane::rel(2 * x, Rel::le, z));
    s.post(propane::rel(-z, Rel::ge, -3 * y + 1));
    s.post(propane::rel(z, Rel::ne, 4));
    s.post(propane::rel(x - 1, Rel::eq, AffineView(z, -1, 3)) /* x - 1 == 3 - z */);
    std::set<std::vector<int>> want;
    for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b)
            for (int c = 0; c < n; ++c)
                if (a < b && b + 1 != c && 2 * a <= c && -c >= -3 * b + 1 && c != 4 && a - 1 == 3 - c)
                    want.insert({a, b, c});
    std::set<std::vector<int>> got;
    const std::vector<IntVar> vars{x, y, z};
    const auto st = propane::solve(s, vars, [&](const auto& sol) { got.insert({sol[0], sol[1], sol[2]}); });
    CHECK(st.solutions == want.size());
    CHECK(got == want);
    CHECK(!want.empty());
}

TEST_CASE("rel propagators reach their fixpoint in one run") {
    // A second run after the first finds nothing: each says fix only at
    // its fixpoint (a propagator that stopped early would be rerun here
    // only by luck, and the sweeps above compare after the queue empties).
    for (Rel r : rels) {
        Store s;
        const IntVar x = s.int_var(0, 20), y = s.int_var(0, 20);
        REQUIRE(s.remove_below(x, 5) != Change::failed);
        REQUIRE(s.remove(y, 7) != Change::failed);
        REQUIRE(s.remove_above(y, 12) != Change::failed);
        s.post(propane::rel(3 * x - 10, r, -y + 15));
        const auto before = s.propagations();
        REQUIRE(s.propagate());
        CHECK(s.propagations() - before == 1);
        const std::set<int> dx = values(s, x), dy = values(s, y);
        s.schedule(s.num_propagators() - 1);
        REQUIRE(s.propagate());
        CHECK(values(s, x) == dx);
        CHECK(values(s, y) == dy);
    }
}

TEST_CASE("rel posted inside a level is removed with it") {
    Store s;
    const IntVar x = s.int_var(0, 5), y = s.int_var(0, 5);
    s.push_level();
    s.post(propane::rel(x, Rel::gt, y + 2));
    REQUIRE(s.propagate());
    CHECK(values(s, x) == std::set<int>{3, 4, 5});
    CHECK(values(s, y) == std::set<int>{0, 1, 2});
    s.pop_level();
    CHECK(s.num_propagators() == 0);
    CHECK(values(s, x) == std::set<int>{0, 1, 2, 3, 4, 5});
    CHECK(s.assign(y, 5) == Change::fixed);
    CHECK(s.propagate());
    CHECK(values(s, x) == std::set<int>{0, 1, 2, 3, 4, 5});
}
