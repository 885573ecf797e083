// rel(x, r, y, iff(b) | implies(b)) and rel(x, r, c, iff(b) | implies(b))
// through the checker (checker.hpp), and half reification held to the one
// direction it promises.
//
// Claims checked exactly: domain consistency on x, y and b, for every Rel,
// both modes, every view kind (b as IntVar b, OffsetView x + 1 over
// {-1, 0}, AffineView 1 - x; mixed: IntVar x, AffineView y, OffsetView b).
// x and y over every subset of -1..2 (15 each) under the kind's
// coefficient vectors (1 for IntVar, 3 for the others), b over every
// non-empty subset of its two values (fixed to 0, to 1, open).

#include <doctest/doctest.h>

#include "bool_sweep.hpp"

#include <propane/constraints/bool/rel_reif.hpp>

#include <array>
#include <string>
#include <vector>

#include "instances_store.hpp"

namespace {

using checker::Case;
using checker::compare;
using checker::Kind;
using checker::Spec;
using checker::Store;
using propane::IntVar;
using propane::Rel;
using Affine = propane::AffineView;
using Offset = propane::OffsetView;

constexpr std::array<Rel, 6> relations{Rel::eq, Rel::ne, Rel::lt, Rel::le, Rel::gt, Rel::ge};
constexpr int lo = -1, range = 4;

std::string mode_name(propane::ReifyMode m) { return m == propane::ReifyMode::iff ? "iff" : "implies"; }

template <class B>
propane::Reify<B> reify(const B& b, propane::ReifyMode m) {
    return m == propane::ReifyMode::iff ? propane::iff(b) : propane::implies(b);
}

bool reified_holds(propane::ReifyMode m, int b, bool rel) {
    return m == propane::ReifyMode::iff ? (b == 1) == rel : b == 0 || rel;
}

// b at position `at`: the Boolean coefficients of the kind, and the mask
// of its variable's values that map into {0, 1}.
checker::ViewSpec bool_coefs(Kind k, int at) {
    switch (k) {
    case Kind::var: return {at, 1, 0};
    case Kind::offset:
    case Kind::mixed: return {at, 1, 1};
    case Kind::affine: return {at, -1, 1};
    }
    return {at, 1, 0};
}
checker::Mask bool_mask(const checker::ViewSpec& v) {
    checker::Mask m = 0;
    for (int t = 0; t < range; ++t) {
        const int w = v.a * (lo + t) + v.b;
        if (w == 0 || w == 1) m |= checker::Mask{1} << t;
    }
    return m;
}

std::vector<checker::Coefs> coefs_with_bool(Kind k, int n) {
    std::vector<checker::Coefs> all = checker::coefficients(k, n - 1, 3);
    if (all.size() > 3) all.resize(3);
    for (checker::Coefs& c : all) c[static_cast<std::size_t>(n - 1)] = bool_coefs(k, n - 1);
    return all;
}

Spec rel_reif_spec(Rel r, propane::ReifyMode m) {
    Spec spec;
    spec.name = "rel(x, " + std::string(propane::to_string(r)) + ", y, " + mode_name(m) + "(b))";
    spec.claim = checker::Claim::domain;
    spec.holds = [r, m](const int* v) { return reified_holds(m, v[2], compare(r, v[0], v[1])); };
    spec.post = [r, m](Store& s, const std::vector<IntVar>& xs, const Case& c) {
        using checker::view;
        auto post = [&](auto x, auto y, auto b) { s.post(propane::rel(x, r, y, reify(b, m))); };
        switch (c.kind) {
        case Kind::var: post(view<IntVar>(xs, c, 0), view<IntVar>(xs, c, 1), view<IntVar>(xs, c, 2)); break;
        case Kind::offset: post(view<Offset>(xs, c, 0), view<Offset>(xs, c, 1), view<Offset>(xs, c, 2)); break;
        case Kind::affine: post(view<Affine>(xs, c, 0), view<Affine>(xs, c, 1), view<Affine>(xs, c, 2)); break;
        case Kind::mixed: post(view<IntVar>(xs, c, 0), view<Affine>(xs, c, 1), view<Offset>(xs, c, 2)); break;
        }
    };
    return spec;
}

Spec rel_const_reif_spec(Rel r, int k, propane::ReifyMode m) {
    Spec spec;
    spec.name = "rel(x, " + std::string(propane::to_string(r)) + ", " + std::to_string(k) + ", " + mode_name(m) +
                "(b))";
    spec.claim = checker::Claim::domain;
    spec.holds = [r, k, m](const int* v) { return reified_holds(m, v[1], compare(r, v[0], k)); };
    spec.post = [r, k, m](Store& s, const std::vector<IntVar>& xs, const Case& c) {
        using checker::view;
        switch (c.kind) {
        case Kind::var: s.post(propane::rel(view<IntVar>(xs, c, 0), r, k, reify(view<IntVar>(xs, c, 1), m))); break;
        case Kind::offset:
        case Kind::mixed: s.post(propane::rel(view<Offset>(xs, c, 0), r, k, reify(view<Offset>(xs, c, 1), m))); break;
        case Kind::affine: s.post(propane::rel(view<Affine>(xs, c, 0), r, k, reify(view<Affine>(xs, c, 1), m))); break;
        }
    };
    return spec;
}

checker::Outcome sweep_reif(const Spec& spec, Kind k, int n) {
    const std::vector<checker::Coefs> coefs = coefs_with_bool(k, n);
    std::vector<checker::Mask> allowed(static_cast<std::size_t>(n), (checker::Mask{1} << range) - 1);
    allowed.back() = bool_mask(coefs[0][static_cast<std::size_t>(n - 1)]);
    return checker::bool_sweep(spec, k, n, lo, range, coefs, allowed);
}

} // namespace

TEST_CASE("rel(x, r, y, iff(b) | implies(b)): domain consistent, b fixed to 0, to 1 and open") {
    for (const auto m : {propane::ReifyMode::iff, propane::ReifyMode::implies})
        for (const Rel r : relations)
            for (const Kind k : checker::kinds) {
                const Spec spec = rel_reif_spec(r, m);
                checker::report(spec.name + " x " + checker::name_of(k), sweep_reif(spec, k, 3));
            }
}

TEST_CASE("rel(x, r, c, iff(b) | implies(b)): domain consistent, constants on and off the views' values") {
    for (const auto m : {propane::ReifyMode::iff, propane::ReifyMode::implies})
        for (const Rel r : relations)
            for (const Kind k : {Kind::var, Kind::offset, Kind::affine}) {
                checker::Outcome all;
                for (const int c : {-5, -1, 0, 1, 2, 7}) all += sweep_reif(rel_const_reif_spec(r, c, m), k, 2);
                checker::report("rel(x, " + std::string(propane::to_string(r)) + ", c, " + mode_name(m) +
                                    "(b)) for 6 constants x " + checker::name_of(k),
                                all);
            }
}

TEST_CASE("rel(x, r, y, implies(b)): nothing from entailment or from b == 0") {
    for (const Rel r : relations) {
        CAPTURE(propane::to_string(r));
        Store s;
        const IntVar x = s.int_var(0, 3), y = s.int_var(0, 3), b = s.bool_var();
        s.post(propane::rel(x, r, y, propane::implies(b)));
        REQUIRE(s.propagate());
        // Values that satisfy r, and values that violate it.
        const auto yes = [r]() -> std::array<int, 2> {
            switch (r) {
            case Rel::ne:
            case Rel::lt: return {1, 2};
            case Rel::gt: return {2, 1};
            default: return {1, 1};
            }
        }();
        const auto no = [r]() -> std::array<int, 2> {
            switch (r) {
            case Rel::eq:
            case Rel::le: return {2, 1};
            case Rel::ge: return {1, 2};
            default: return {2, 2};
            }
        }();
        // Entailed: b stays open.
        s.push_level();
        REQUIRE(s.assign(x, yes[0]) != propane::Change::failed);
        REQUIRE(s.assign(y, yes[1]) != propane::Change::failed);
        REQUIRE(s.propagate());
        CHECK(s.domain(b).size() == 2);
        s.pop_level();
        // b == 0: y keeps every value whatever x is.
        s.push_level();
        REQUIRE(s.assign(b, 0) != propane::Change::failed);
        REQUIRE(s.assign(x, 2) != propane::Change::failed);
        REQUIRE(s.propagate());
        CHECK(s.domain(y).size() == 4);
        s.pop_level();
        // Disentailed: b = 0.
        s.push_level();
        REQUIRE(s.assign(x, no[0]) != propane::Change::failed);
        REQUIRE(s.assign(y, no[1]) != propane::Change::failed);
        REQUIRE(s.propagate());
        CHECK(s.domain(b).max() == 0);
        s.pop_level();
    }
}

TEST_CASE("rel(..., iff(b)): a control view that is not Boolean is a model_error naming rel") {
    Store s;
    const IntVar x = s.int_var(0, 3), b = s.bool_var();
    CHECK_THROWS_WITH_AS(s.post(propane::rel(x, Rel::le, x + 1, propane::iff(x))), doctest::Contains("rel"),
                         propane::model_error);
    CHECK_THROWS_AS(s.post(propane::rel(x, Rel::eq, 2, propane::implies(b + 1))), propane::model_error);
    CHECK_THROWS_AS(s.post(propane::rel(x, Rel::eq, 2, propane::iff(-b))), propane::model_error);
}

TEST_CASE("rel(x, r, f(x), iff(b) | implies(b)): x and y of one variable, domain consistent over it") {
    for (const auto m : {propane::ReifyMode::iff, propane::ReifyMode::implies})
        for (const Rel r : relations)
            for (const Kind k : checker::kinds) {
                Spec spec = rel_reif_spec(r, m);
                spec.exact_when_shared = true;
                std::vector<checker::Coefs> coefs = coefs_with_bool(k, 3);
                for (checker::Coefs& c : coefs) c[1].var = 0;
                std::vector<checker::Mask> allowed{(checker::Mask{1} << range) - 1, 1, bool_mask(coefs[0][2])};
                checker::report(spec.name + " x " + checker::name_of(k) + ", one variable",
                                checker::bool_sweep(spec, k, 3, lo, range, coefs, allowed));
            }
}
