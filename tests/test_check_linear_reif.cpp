// linear(a, x, r, c, iff(b) | implies(b)) through the checker (checker.hpp),
// and random models of reified sums counted against enumeration.
//
// Claim checked exactly (a custom closure), in view space, for views on
// distinct variables, as bool/linear_reif.hpp states it:
//   b open    b alone is pruned: to 1 (iff only) when the sum's bounds
//             entail the relation, to 0 when they disentail it;
//   b == 1    linear(a, x, r, c)'s own closure: bounds(R) for the order
//             relations and eq, the last-open-term rule for ne (the same
//             references as test_check_linear);
//   b == 0    under iff, the closure of the negated relation; under
//             implies, nothing.
// Coefficients include negative ones and 0 (a zero term constrains
// nothing, but with b fixed its bounds need the rest to be satisfiable in
// the reals, as in test_check_linear), and all-zero vectors, whose sum is
// the constant 0. All-ones vectors post through linear(x, r, c, re).
//
// Configurations: 2 terms over every pair of subsets of -1..2, 3 terms
// over every triple of subsets of -1..1, two coefficient vectors of the
// view kind (one for IntVar), b over every non-empty subset of
// its two values (fixed to 0, to 1, open), each for every Rel, both modes
// and every view kind (b as IntVar b, OffsetView x + 1 over {-1, 0},
// AffineView 1 - x; mixed: a std::vector<AffineView> of the three kinds
// and an OffsetView b). Then views sharing a variable (b among the terms,
// or two terms of one variable) held to soundness, refusals, and the
// random models.

#include <doctest/doctest.h>

#include "bool_sweep.hpp"

#include <propane/constraints/bool/linear_reif.hpp>
#include <propane/constraints/linear.hpp>
#include <propane/search/search.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "instances_search.hpp"
#include "instances_store.hpp"

namespace {

using checker::Box;
using checker::Case;
using checker::compare;
using checker::Doms;
using checker::Kind;
using checker::Mask;
using checker::Spec;
using checker::Store;
using checker::u;
using propane::IntVar;
using propane::Rel;
using propane::ReifyMode;
using Affine = propane::AffineView;
using Offset = propane::OffsetView;

constexpr std::array<Rel, 6> relations{Rel::eq, Rel::ne, Rel::lt, Rel::le, Rel::gt, Rel::ge};

std::string mode_name(ReifyMode m) { return m == ReifyMode::iff ? "iff" : "implies"; }

template <class B>
propane::Reify<B> reify(const B& b, ReifyMode m) {
    return m == ReifyMode::iff ? propane::iff(b) : propane::implies(b);
}

bool reified_holds(ReifyMode m, int b, bool rel) { return m == ReifyMode::iff ? (b == 1) == rel : b == 0 || rel; }

Rel negation(Rel r) {
    switch (r) {
    case Rel::eq: return Rel::ne;
    case Rel::ne: return Rel::eq;
    case Rel::lt: return Rel::ge;
    case Rel::le: return Rel::gt;
    case Rel::gt: return Rel::le;
    case Rel::ge: return Rel::lt;
    }
    return r;
}

std::string list(const std::vector<int>& k) {
    std::string s = "{";
    for (std::size_t i = 0; i < k.size(); ++i) s.append(i ? "," : "").append(std::to_string(k[i]));
    return s + "}";
}

// The least and greatest real sum of the terms other than `skip` over the
// box (skip = -1: all of them).
std::array<std::int64_t, 2> sum_range(const std::vector<int>& k, int skip, const Box& b) {
    std::int64_t lo = 0, hi = 0;
    for (int j = 0; j < static_cast<int>(k.size()); ++j) {
        if (j == skip) continue;
        const std::int64_t p = std::int64_t{k[u(j)]} * b.lo[u(j)], q = std::int64_t{k[u(j)]} * b.hi[u(j)];
        lo += std::min(p, q);
        hi += std::max(p, q);
    }
    return {lo, hi};
}

// Whether term i taking w has a support with the others real in the box.
bool real_support(const std::vector<int>& k, Rel r, int c, int i, int w, const Box& b) {
    const auto [lo, hi] = sum_range(k, i, b);
    const std::int64_t t = std::int64_t{k[u(i)]} * w;
    switch (r) {
    case Rel::eq: return lo + t <= c && c <= hi + t;
    case Rel::lt: return lo + t < c;
    case Rel::le: return lo + t <= c;
    case Rel::gt: return hi + t > c;
    case Rel::ge: return hi + t >= c;
    case Rel::ne: break;
    }
    return true;
}

// linear's ne rule to its fixpoint: the last open term loses the value
// that makes the sum c; no open term and a sum of c fails.
bool ne_closure(const std::vector<int>& k, int c, const Case& cs, Doms& d) {
    for (;;) {
        int open = -1, opens = 0;
        std::int64_t fixed_sum = 0;
        for (int i = 0; i < static_cast<int>(k.size()); ++i) {
            if (k[u(i)] == 0) continue;
            if (std::popcount(d[u(i)]) > 1) {
                open = i;
                ++opens;
            } else {
                fixed_sum += std::int64_t{k[u(i)]} * cs.value(i, std::countr_zero(d[u(i)]));
            }
        }
        if (opens == 0) return fixed_sum != c;
        if (opens > 1) return true;
        for (int t = 0; t < cs.range; ++t)
            if (fixed_sum + std::int64_t{k[u(open)]} * cs.value(open, t) == c) d[u(open)] &= ~(Mask{1} << t);
        if (d[u(open)] == 0) return false;
        if (std::popcount(d[u(open)]) > 1) return true;
    }
}

// Whether the sum's bounds entail (1) or disentail (-1) sum r c.
int entailment(const std::vector<int>& k, Rel r, int c, const Box& b) {
    const auto [lo, hi] = sum_range(k, -1, b);
    bool all = true, none = true;
    // Over the integers lo .. hi (the sum's values over the box's reals
    // with integer ends: enough for comparing with an integer c).
    for (std::int64_t v = lo; v <= hi; ++v) {
        const bool h = compare(r, v, c);
        all = all && h;
        none = none && !h;
    }
    return all ? 1 : none ? -1 : 0;
}

// The closure the header claims: terms are views 0 .. n-1, b is view n.
bool reif_closure(const std::vector<int>& k, Rel r, int c, ReifyMode m, const Case& cs, Doms& d) {
    const int n = static_cast<int>(k.size());
    const int bv = cs.v[u(n)].var;
    auto b_can = [&](int val) {
        for (int t = 0; t < cs.range; ++t)
            if (((d[u(bv)] >> t) & 1U) && cs.value(n, t) == val) return true;
        return false;
    };
    auto set_b = [&](int val) {
        for (int t = 0; t < cs.range; ++t)
            if (cs.value(n, t) != val) d[u(bv)] &= ~(Mask{1} << t);
    };
    Case terms = cs;
    terms.n = n;
    terms.nvars = n;
    if (b_can(0) && b_can(1)) {
        const int st = entailment(k, r, c, checker::box_of(terms, d));
        if (st > 0 && m == ReifyMode::iff) set_b(1);
        if (st < 0) set_b(0);
        return true;
    }
    if (!b_can(1) && m == ReifyMode::implies) return true;
    const Rel want = b_can(1) ? r : negation(r);
    if (want == Rel::ne) return ne_closure(k, c, terms, d);
    return checker::bounds_closure(terms, d,
                                   [&](const Box& b, int i, int w) { return real_support(k, want, c, i, w, b); });
}

Spec reif_spec(const std::vector<int>& k, Rel r, int c, ReifyMode m) {
    Spec spec;
    spec.name = "linear(" + list(k) + ", " + std::string(propane::to_string(r)) + ", " + std::to_string(c) + ", " +
                mode_name(m) + "(b))";
    spec.claim = checker::Claim::custom;
    const int n = static_cast<int>(k.size());
    spec.holds = [k, r, c, m, n](const int* v) {
        std::int64_t sum = 0;
        for (int i = 0; i < n; ++i) sum += std::int64_t{k[u(i)]} * v[i];
        return reified_holds(m, v[n], compare(r, sum, c));
    };
    spec.closure = [k, r, c, m](const Case& cs, Doms& d) { return reif_closure(k, r, c, m, cs, d); };
    const bool ones = std::all_of(k.begin(), k.end(), [](int a) { return a == 1; });
    spec.post = [k, r, c, m, n, ones](Store& s, const std::vector<IntVar>& xs, const Case& cs) {
        auto post = [&](const auto& vs, auto b) {
            if (ones)
                s.post(propane::linear(vs, r, c, reify(b, m)));
            else
                s.post(propane::linear(k, vs, r, c, reify(b, m)));
        };
        using checker::view;
        using checker::views;
        switch (cs.kind) {
        case Kind::var: post(views<IntVar>(xs, cs, 0, n), view<IntVar>(xs, cs, n)); break;
        case Kind::offset: post(views<Offset>(xs, cs, 0, n), view<Offset>(xs, cs, n)); break;
        case Kind::affine: post(views<Affine>(xs, cs, 0, n), view<Affine>(xs, cs, n)); break;
        case Kind::mixed: post(views<Affine>(xs, cs, 0, n), view<Offset>(xs, cs, n)); break;
        }
    };
    return spec;
}

// b at position `at`: the Boolean coefficients of the kind.
checker::ViewSpec bool_coefs(Kind k, int at) {
    switch (k) {
    case Kind::var: return {at, 1, 0};
    case Kind::offset:
    case Kind::mixed: return {at, 1, 1};
    case Kind::affine: return {at, -1, 1};
    }
    return {at, 1, 0};
}

Mask bool_mask(const checker::ViewSpec& v, int lo, int range) {
    Mask m = 0;
    for (int t = 0; t < range; ++t) {
        const int w = v.a * (lo + t) + v.b;
        if (w == 0 || w == 1) m |= Mask{1} << t;
    }
    return m;
}

// Up to two coefficient vectors of the kind for the n terms, b last.
std::vector<checker::Coefs> coefs_with_bool(Kind k, int n) {
    std::vector<checker::Coefs> all = checker::coefficients(k, n, 3);
    if (all.size() > 2) all.resize(2);
    for (checker::Coefs& c : all) c[u(n)] = bool_coefs(k, n);
    return all;
}

struct Family {
    std::vector<int> coeffs;
    std::vector<int> constants;
};

// Every family and constant for one Rel, mode and kind, terms over every
// subset of lo .. lo + range - 1 each.
checker::Outcome sweep_families(const std::vector<Family>& families, Rel r, ReifyMode m, Kind kind, int lo,
                                int range) {
    checker::Outcome all;
    for (const Family& f : families) {
        const int n = static_cast<int>(f.coeffs.size());
        const std::vector<checker::Coefs> coefs = coefs_with_bool(kind, n);
        std::vector<Mask> allowed(u(n + 1), (Mask{1} << range) - 1);
        allowed.back() = bool_mask(coefs[0][u(n)], lo, range);
        for (const int c : f.constants)
            all += checker::bool_sweep(reif_spec(f.coeffs, r, c, m), kind, n + 1, lo, range, coefs, allowed);
    }
    return all;
}

void run(const std::vector<Family>& families, int lo, int range, const std::string& what) {
    for (const ReifyMode m : {ReifyMode::iff, ReifyMode::implies})
        for (const Rel r : relations)
            for (const Kind kind : checker::kinds)
                checker::report("linear, " + what + ", " + std::string(propane::to_string(r)) + ", " + mode_name(m) +
                                    " x " + checker::name_of(kind),
                                sweep_families(families, r, m, kind, lo, range));
}

} // namespace

TEST_CASE("linear(a, x, r, c, iff(b) | implies(b)), two terms: exact, every pair of subsets of -1..2") {
    run({{{1, 1}, {1}}, {{2, -3}, {1}}, {{-1, -2}, {-2}}, {{3, 0}, {2}}, {{1, -1}, {0}}, {{0, 0}, {0}}}, -1, 4,
        "2 terms, 6 coefficient sets and constants");
}

TEST_CASE("linear(a, x, r, c, iff(b) | implies(b)), three terms: exact, every triple of subsets of -1..1") {
    run({{{1, -1, -1}, {0}}, {{-2, 3, 1}, {1}}, {{2, 0, -1}, {-1}}}, -1, 3, "3 terms, 3 coefficient sets and constants");
}

TEST_CASE("linear(..., iff(b) | implies(b)) over shared variables (b among the terms, or a term twice): sound") {
    for (const ReifyMode m : {ReifyMode::iff, ReifyMode::implies})
        for (const Rel r : relations)
            for (const Kind kind : {Kind::var, Kind::offset, Kind::affine}) {
                checker::Outcome all;
                for (const int on : {0, 2}) {
                    std::vector<checker::Coefs> coefs = coefs_with_bool(kind, 2);
                    for (checker::Coefs& c : coefs) {
                        c[1].var = on;
                        // b's variable must keep values the term's view can take.
                        if (on == 2) c[1] = c[2];
                    }
                    std::vector<Mask> allowed{(Mask{1} << 4) - 1, 1, bool_mask(coefs[0][2], -1, 4)};
                    for (const auto& k : std::vector<std::vector<int>>{{1, 2}, {2, -1}, {-1, -1}})
                        for (const int c : {0, 1})
                            all += checker::bool_sweep(reif_spec(k, r, c, m), kind, 3, -1, 4, coefs, allowed);
                }
                checker::report("linear, shared variables, " + std::string(propane::to_string(r)) + ", " +
                                    mode_name(m) + " x " + checker::name_of(kind),
                                all);
            }
}

TEST_CASE("linear(..., implies(b)): nothing from entailment or from b == 0, b = 0 on disentailment") {
    for (const Rel r : relations) {
        CAPTURE(propane::to_string(r));
        Store s;
        const std::vector<IntVar> x = s.int_vars(2, 0, 3);
        const IntVar b = s.bool_var();
        s.post(propane::linear(std::vector<int>{1, -1}, x, r, 0, propane::implies(b)));
        REQUIRE(s.propagate());
        // x0 - x1 for pairs that satisfy r and that violate it.
        const bool sat_eq = r == Rel::eq || r == Rel::le || r == Rel::ge;
        const std::array<int, 2> yes = sat_eq ? std::array{1, 1} : r == Rel::gt ? std::array{2, 1} : std::array{1, 2};
        const bool no_eq = r == Rel::ne || r == Rel::lt || r == Rel::gt;
        const std::array<int, 2> no = no_eq ? std::array{1, 1} : r == Rel::le ? std::array{2, 1} : std::array{1, 2};
        REQUIRE(compare(r, yes[0] - yes[1], 0));
        REQUIRE_FALSE(compare(r, no[0] - no[1], 0));
        s.push_level();
        REQUIRE(s.assign(x[0], yes[0]) != propane::Change::failed);
        REQUIRE(s.assign(x[1], yes[1]) != propane::Change::failed);
        REQUIRE(s.propagate());
        CHECK(s.domain(b).size() == 2);
        s.pop_level();
        s.push_level();
        REQUIRE(s.assign(b, 0) != propane::Change::failed);
        REQUIRE(s.assign(x[0], 2) != propane::Change::failed);
        REQUIRE(s.propagate());
        CHECK(s.domain(x[1]).size() == 4);
        s.pop_level();
        s.push_level();
        REQUIRE(s.assign(x[0], no[0]) != propane::Change::failed);
        REQUIRE(s.assign(x[1], no[1]) != propane::Change::failed);
        REQUIRE(s.propagate());
        CHECK(s.domain(b).max() == 0);
        s.pop_level();
    }
}

TEST_CASE("linear(..., iff(b)): misuse is a model_error naming linear") {
    Store s;
    const std::vector<IntVar> x = s.int_vars(2, 0, 3);
    const IntVar b = s.bool_var(), big = s.int_var(2000000000, 2000000010);
    CHECK_THROWS_WITH_AS(s.post(propane::linear(x, Rel::le, 2, propane::iff(x[0]))), doctest::Contains("linear"),
                         propane::model_error);
    CHECK_THROWS_AS(s.post(propane::linear(x, Rel::le, 2, propane::implies(b + 1))), propane::model_error);
    CHECK_THROWS_WITH_AS(s.post(propane::linear(std::vector<int>{1}, x, Rel::le, 2, propane::iff(b))),
                         doctest::Contains("coefficients"), propane::model_error);
    CHECK_THROWS_WITH_AS(s.post(propane::linear(std::vector<int>{1 << 30, 1 << 30, 1 << 30},
                                                std::vector<IntVar>{big, big, big}, Rel::eq, 0, propane::iff(b))),
                         doctest::Contains("overflow"), propane::model_error);
    CHECK_THROWS_WITH_AS(s.post(propane::linear(x, Rel::eq, std::int64_t{1} << 62, propane::iff(b))),
                         doctest::Contains("2^62"), propane::model_error);
    CHECK_THROWS_AS(s.post(propane::linear(x, static_cast<Rel>(17), 0, propane::iff(b))), propane::model_error);
}

// A random model: integer variables over -2..2 (some with holes) and
// Booleans, with reified sums over a few of them (a term may be a
// Boolean, b may be negated as 1 - b, a plain linear now and then), every
// solution enumerated by a search and by brute force.
struct RandomSum {
    std::vector<int> coeffs;
    std::vector<int> vars;   // indexes into the model's variables
    std::vector<int> scales; // view i is scales[i] * var + offsets[i]
    std::vector<int> offsets;
    Rel r = Rel::eq;
    int c = 0;
    int mode = 0; // 0 iff, 1 implies, 2 plain linear
    int b = 0;    // a Boolean variable's index
    bool negated = false;

    bool holds(const std::vector<int>& val) const {
        std::int64_t sum = 0;
        for (std::size_t i = 0; i < vars.size(); ++i)
            sum += std::int64_t{coeffs[i]} * (scales[i] * val[u(vars[i])] + offsets[i]);
        const bool rel = compare(r, sum, c);
        if (mode == 2) return rel;
        const int bv = negated ? 1 - val[u(b)] : val[u(b)];
        return reified_holds(mode == 0 ? ReifyMode::iff : ReifyMode::implies, bv, rel);
    }
};

TEST_CASE("linear(..., iff(b) | implies(b)): random models, every solution and no other") {
    long long models = 0, solutions = 0;
    for (unsigned seed = 1; seed <= 1000; ++seed) {
        std::mt19937 rng(seed);
        auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
        const int ints = pick(2, 4), bools = pick(1, 3), nv = ints + bools;
        Store s;
        std::vector<IntVar> vars;
        std::vector<std::vector<int>> values(u(nv));
        for (int i = 0; i < nv; ++i) {
            const bool is_bool = i >= ints;
            vars.push_back(is_bool ? s.bool_var() : s.int_var(-2, 2));
            for (int v = is_bool ? 0 : -2; v <= (is_bool ? 1 : 2); ++v) {
                if (!is_bool && pick(0, 5) == 0) {
                    REQUIRE(s.remove(vars.back(), v) != propane::Change::failed);
                    continue;
                }
                values[u(i)].push_back(v);
            }
            if (values[u(i)].empty()) {
                values[u(i)].push_back(0);
                REQUIRE(s.intersect(vars.back(), checker::Dom(0, 0)) != propane::Change::failed);
            }
        }
        std::vector<RandomSum> sums(u(pick(1, 4)));
        std::ostringstream text;
        for (RandomSum& q : sums) {
            const int terms = pick(1, 3);
            for (int t = 0; t < terms; ++t) {
                q.coeffs.push_back(pick(-3, 3));
                q.vars.push_back(pick(0, nv - 1));
                q.scales.push_back(pick(0, 2) == 0 ? -2 : pick(0, 1) == 0 ? 1 : -1);
                q.offsets.push_back(pick(-1, 1));
            }
            q.r = relations[u(pick(0, 5))];
            q.c = pick(-4, 4);
            q.mode = pick(0, 4) == 0 ? 2 : pick(0, 1);
            q.b = pick(ints, nv - 1);
            q.negated = pick(0, 1) == 1;
            std::vector<Affine> views;
            text << " [";
            for (std::size_t i = 0; i < q.vars.size(); ++i) {
                views.push_back(q.scales[i] * vars[u(q.vars[i])] + q.offsets[i]);
                text << q.coeffs[i] << "*(" << q.scales[i] << "*v" << q.vars[i] << "+" << q.offsets[i] << ") ";
            }
            text << propane::to_string(q.r) << " " << q.c << " mode " << q.mode << " b v" << q.b
                 << (q.negated ? " negated]" : "]");
            if (q.mode == 2) {
                s.post(propane::linear(q.coeffs, views, q.r, q.c));
            } else {
                const Affine bv = q.negated ? 1 - vars[u(q.b)] : 1 * vars[u(q.b)];
                s.post(propane::linear(q.coeffs, views, q.r, q.c, reify(bv, q.mode == 0 ? ReifyMode::iff : ReifyMode::implies)));
            }
        }
        const std::string model = text.str();
        CAPTURE(seed);
        CAPTURE(model);
        // Brute force, an odometer over the values kept.
        long long want = 0;
        std::vector<std::size_t> at(u(nv), 0);
        std::vector<int> val(u(nv));
        for (bool more = true; more;) {
            for (int i = 0; i < nv; ++i) val[u(i)] = values[u(i)][at[u(i)]];
            want += std::all_of(sums.begin(), sums.end(), [&](const RandomSum& q) { return q.holds(val); }) ? 1 : 0;
            more = false;
            for (int i = nv - 1; i >= 0 && !more; --i) {
                if (++at[u(i)] < values[u(i)].size()) more = true;
                else at[u(i)] = 0;
            }
        }
        long long got = 0, wrong = 0;
        propane::solve(s, vars, propane::Strategy{propane::first_unbound, propane::min_value}, [&](const auto& sol) {
            for (int i = 0; i < nv; ++i) val[u(i)] = sol[u(i)];
            wrong += std::all_of(sums.begin(), sums.end(), [&](const RandomSum& q) { return q.holds(val); }) ? 0 : 1;
            ++got;
            return propane::next;
        });
        CHECK(wrong == 0);
        CHECK(got == want);
        ++models;
        solutions += want;
    }
    MESSAGE(models << " random models, " << solutions << " solutions in all");
}
