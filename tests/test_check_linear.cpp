// linear(coeffs, views, r, c) through the checker (checker.hpp).
//
// Claims checked exactly, in view space, for views on distinct variables:
//   eq le ge lt gt  bounds(R): the greatest box within the domains (its
//                   bounds actual view values) whose every view min and max
//                   has a support with the other terms taking real values
//                   between their bounds. The support test below is that
//                   definition: the other terms' real sums fill the interval
//                   between the sums of their least and greatest products.
//   ne              the last open term loses the value that would make the
//                   sum equal c; with no open term, a sum equal to c fails;
//                   otherwise nothing.
// Terms with coefficient 0 are part of some sets (they constrain nothing,
// but every bound of theirs needs the other terms to be satisfiable).
// Where views share a variable linear is a relaxation: that sweep checks
// soundness and the fixed-assignment rule only.
//
// Configurations: one term over every subset of -3..3; two over every pair
// of subsets of -2..2; three over every triple of subsets of -2..1; four
// sampled over -2..2; each for every relation and view kind, with a few
// coefficient sets and constants; random walks over three terms.

#include <doctest/doctest.h>

#include "checker.hpp"

#include <propane/constraints/linear.hpp>
#include <propane/constraints/rel.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "instances_store.hpp"

namespace {

using checker::Box;
using checker::Case;
using checker::Doms;
using checker::compare;
using checker::Kind;
using checker::Mask;
using checker::Spec;
using checker::Store;
using checker::u;
using propane::IntVar;
using propane::Rel;

constexpr std::array<Rel, 6> relations{Rel::eq, Rel::ne, Rel::lt, Rel::le, Rel::gt, Rel::ge};

std::string rel_name(Rel r) { return std::string(propane::to_string(r)); }

std::string list(const std::vector<int>& k) {
    std::string s = "{";
    for (std::size_t i = 0; i < k.size(); ++i) s.append(i ? "," : "").append(std::to_string(k[i]));
    return s + "}";
}

// The least and greatest real sum of the terms other than i over the box.
std::array<std::int64_t, 2> rest_range(const std::vector<int>& k, int i, const Box& b) {
    std::int64_t lo = 0, hi = 0;
    for (int j = 0; j < static_cast<int>(k.size()); ++j) {
        if (j == i) continue;
        const std::int64_t p = std::int64_t{k[u(j)]} * b.lo[u(j)], q = std::int64_t{k[u(j)]} * b.hi[u(j)];
        lo += std::min(p, q);
        hi += std::max(p, q);
    }
    return {lo, hi};
}

// ne's rule, applied until it changes nothing. Terms with coefficient 0
// are no terms at all.
bool ne_closure(const std::vector<int>& k, int c, const Case& cs, Doms& d) {
    for (;;) {
        int open = -1, opens = 0;
        std::int64_t fixed_sum = 0;
        for (int i = 0; i < cs.n; ++i) {
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

Spec linear_spec(const std::vector<int>& k, Rel r, int c) {
    Spec spec;
    spec.name = "linear(" + list(k) + ", " + rel_name(r) + ", " + std::to_string(c) + ")";
    spec.claim = r == Rel::ne ? checker::Claim::custom : checker::Claim::bounds_r;
    spec.holds = [k, r, c](const int* v) {
        std::int64_t sum = 0;
        for (std::size_t i = 0; i < k.size(); ++i) sum += std::int64_t{k[i]} * v[i];
        return compare(r, sum, c);
    };
    spec.real_support = [k, r, c](int i, int w, const Box& b) {
        const auto [lo, hi] = rest_range(k, i, b);
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
    };
    spec.closure = [k, c](const Case& cs, Doms& d) { return ne_closure(k, c, cs, d); };
    // The plain-sum form when every coefficient is 1, so both entry points
    // are checked.
    const bool ones = std::all_of(k.begin(), k.end(), [](int a) { return a == 1; });
    spec.post = [k, r, c, ones](Store& s, const std::vector<IntVar>& xs, const Case& cs) {
        auto post = [&](const auto& vs) {
            if (ones)
                s.post(propane::linear(vs, r, c));
            else
                s.post(propane::linear(k, vs, r, c));
        };
        switch (cs.kind) {
        case Kind::var: post(checker::views<IntVar>(xs, cs, 0, cs.n)); break;
        case Kind::offset: post(checker::views<propane::OffsetView>(xs, cs, 0, cs.n)); break;
        case Kind::affine:
        case Kind::mixed: post(checker::views<propane::AffineView>(xs, cs, 0, cs.n)); break;
        }
    };
    return spec;
}

struct Family {
    std::vector<int> coeffs;
    std::vector<int> constants;
};

// Runs every relation of every family over opt's configurations, one line
// per relation and kind.
void run(const std::vector<Family>& families, const checker::Options& opt, const std::vector<Kind>& kinds) {
    for (const Rel r : relations)
        for (const Kind kind : kinds) {
            checker::Outcome all;
            int specs = 0;
            for (const Family& f : families)
                for (const int c : f.constants) {
                    all += checker::sweep(linear_spec(f.coeffs, r, c), kind, opt);
                    ++specs;
                }
            checker::report("linear, " + std::to_string(opt.n) + " terms, " + rel_name(r) + ", " +
                                std::to_string(specs) + " coefficient sets and constants x " + checker::name_of(kind),
                            all);
        }
}

const std::vector<Kind> all_kinds(checker::kinds.begin(), checker::kinds.end());

} // namespace

TEST_CASE("linear, one term: exact, every subset of -3..3") {
    run({{{3}, {-3, 0, 4}}, {{-2}, {-4, 1}}, {{1}, {2}}, {{0}, {0, 1}}}, {.n = 1, .lo = -3, .range = 7},
        {Kind::var, Kind::offset, Kind::affine});
}

TEST_CASE("linear, two terms: exact, every pair of subsets of -2..2") {
    run({{{1, 1}, {0, 3}}, {{1, -1}, {-1, 2}}, {{-1, -1}, {1}}, {{2, -3}, {1, -4}}, {{-1, -2}, {-3}}, {{3, 0}, {2}}},
        {.n = 2, .lo = -2, .range = 5, .posted_every = 2}, all_kinds);
}

// Two or three unit coefficients over distinct variables go to their own
// propagator, one per sign pattern (a majority of -1 is negated first):
// {1, -1, -1} is the Golomb ruler's m[j] - m[i] - d = 0.
TEST_CASE("linear, three terms: exact, every triple of subsets of -2..1") {
    run({{{1, 2, -1}, {0, 3}}, {{1, 1, 1}, {-2}}, {{1, -1, -1}, {0}}, {{-1, 1, 1}, {-1}}, {{-1, -1, -1}, {2}},
         {{-2, 3, 1}, {1}}, {{2, 0, -1}, {2}}},
        {.n = 3, .lo = -2, .range = 4, .posted_every = 4}, all_kinds);
}

TEST_CASE("linear, four terms: exact, sampled over -2..2") {
    run({{{1, 1, 1, 1}, {0, 3}}, {{1, -1, 2, -2}, {1}}, {{3, -2, 1, 1}, {-2}}},
        {.n = 4, .lo = -2, .range = 5, .samples = 1200, .posted_every = 2, .seed = 9}, all_kinds);
}

TEST_CASE("linear over shared variables: sound, and exact on fixed assignments") {
    const std::vector<std::vector<int>> sets{{1, 2, -1}, {1, -1, 1}, {2, -1}, {1, 1}};
    for (const Rel r : relations)
        for (const Kind kind : all_kinds) {
            checker::Outcome all;
            for (const auto& k : sets) {
                const int n = static_cast<int>(k.size());
                all += checker::shared_sweep(linear_spec(k, r, 1), kind, n, n - 1, -2, 5, 160, 17);
            }
            checker::report("linear, shared variables, " + rel_name(r) + " x " + checker::name_of(kind), all);
        }
}

TEST_CASE("linear: random push/cut/propagate/pop/copy walks") {
    for (const Rel r : relations)
        for (const Kind kind : all_kinds) {
            checker::report("linear({1,2,-1}, " + rel_name(r) + ", 2) x " + checker::name_of(kind) + ", walks",
                            checker::walks(linear_spec({1, 2, -1}, r, 2), kind, 3, -2, 5, 16, 150, 29));
            checker::report("linear({1,-1,-1}, " + rel_name(r) + ", 0) x " + checker::name_of(kind) + ", walks",
                            checker::walks(linear_spec({1, -1, -1}, r, 0), kind, 3, -2, 5, 16, 150, 31));
        }
}
