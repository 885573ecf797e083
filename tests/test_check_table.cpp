// table(xs, tuples) and table(xs, tuples, TableMode::forbidden) through the
// checker (checker.hpp), in nested levels, and in search.
//
// Claim checked, in view space, for views on distinct variables: domain
// consistency (exact) on every view, in both modes. Where views share a
// variable: soundness, and the fixed-assignment rule (propagation fails
// exactly when the assignment is not allowed, or is forbidden).
//
// Tuple sets are drawn in variable space, one value beyond each end of the
// variables' range included (a tuple holding one is dropped when posted),
// and mapped through the views' coefficients, so that they meet the views'
// values; a few tuples of arbitrary view values are added (mostly absent
// from a view with holes). Shapes: no tuple, every tuple of the domains,
// one tuple, and random draws with repeats at three densities.
//
// Configurations: per mode, view kind (IntVar, x + c, a*x + b with
// negative scales, a mix) and coefficient vector, every pair of subsets of
// -1..2 (arity 2) and every triple of subsets of 0..2 (arity 3) for each
// shape; samples at arity 4 and 5 with tables of several words; shared
// variables; random walks through nested levels and copies. Then levels
// against fresh stores, random models against enumeration, misuse.

#include <doctest/doctest.h>

#include "checker.hpp"

#include <propane/constraints/table.hpp>
#include <propane/search/solve.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <random>
#include <string>
#include <vector>

#include "instances_search.hpp"

namespace {

using checker::Case;
using checker::Coefs;
using checker::Kind;
using checker::Mask;
using checker::Spec;
using checker::Store;
using checker::u;
using propane::IntVar;
using propane::TableMode;
using Affine = propane::AffineView;
using Offset = propane::OffsetView;
using Tuples = std::vector<std::vector<int>>;

const std::vector<Kind> all_kinds(checker::kinds.begin(), checker::kinds.end());
constexpr std::array<TableMode, 2> modes{TableMode::allowed, TableMode::forbidden};
constexpr int shapes = 7;

const char* name_of(TableMode m) { return m == TableMode::allowed ? "allowed" : "forbidden"; }

// Tuple set `shape` for the views of c, drawn in variable space over
// c.lo - 1 .. c.lo + c.range and mapped through c's coefficients.
Tuples draw_tuples(const Case& c, int shape, std::mt19937& rng) {
    const int lo = c.lo - 1, width = c.range + 2;
    long long box = 1;
    for (int i = 0; i < c.n; ++i) box *= c.range;
    std::vector<std::vector<int>> vars; // in variable values
    if (shape == 1) {
        std::vector<int> t(u(c.n), c.lo);
        for (;;) {
            vars.push_back(t);
            int i = c.n - 1;
            for (; i >= 0 && t[u(i)] == c.lo + c.range - 1; --i) t[u(i)] = c.lo;
            if (i < 0) break;
            ++t[u(i)];
        }
    } else if (shape >= 2) {
        // One tuple; then 15, 40 and 70 % of the box, and as many draws as
        // the box holds (about 63 % of it, the rest repeats).
        constexpr std::array<double, 4> density{0.15, 0.4, 0.7, 1.0};
        const long long draws =
            shape == 2 ? 1 : std::max(1LL, static_cast<long long>(density[u(shape - 3)] * static_cast<double>(box)));
        for (long long k = 0; k < draws; ++k) {
            std::vector<int> t;
            for (int i = 0; i < c.n; ++i) {
                // Mostly inside the range: a value beyond it drops its tuple.
                const bool beyond = rng() % 16 == 0;
                t.push_back(beyond ? lo + static_cast<int>(rng() % 2) * (width - 1) : c.lo + static_cast<int>(rng() % u(c.range)));
            }
            vars.push_back(t);
        }
    }
    Tuples out;
    for (const auto& t : vars) {
        std::vector<int> w;
        for (int i = 0; i < c.n; ++i) w.push_back(c.v[u(i)].a * t[u(i)] + c.v[u(i)].b);
        out.push_back(w);
    }
    if (shape >= 3)
        for (int k = 0; k < 2; ++k) {
            std::vector<int> w;
            for (int i = 0; i < c.n; ++i) w.push_back(static_cast<int>(rng() % 21) - 10);
            out.push_back(w);
        }
    std::shuffle(out.begin(), out.end(), rng);
    return out;
}

std::string tuples_string(const Tuples& ts) {
    std::string s = std::to_string(ts.size()) + " tuples {";
    for (std::size_t k = 0; k < ts.size() && k < 12; ++k) {
        s += k ? " (" : "(";
        for (std::size_t i = 0; i < ts[k].size(); ++i) s += (i ? "," : "") + std::to_string(ts[k][i]);
        s += ")";
    }
    return s + (ts.size() > 12 ? " ...}" : "}");
}

bool member(const Tuples& ts, const int* v) {
    return std::any_of(ts.begin(), ts.end(), [&](const std::vector<int>& t) {
        return std::equal(t.begin(), t.end(), v);
    });
}

Spec table_spec(const Tuples& tuples, TableMode mode, int n) {
    Spec spec;
    spec.name = std::string("table(") + std::to_string(n) + " views, " + tuples_string(tuples) + ", " + name_of(mode) + ")";
    spec.claim = checker::Claim::domain;
    spec.holds = [tuples, mode](const int* v) { return member(tuples, v) == (mode == TableMode::allowed); };
    spec.post = [tuples, mode, n](Store& s, const std::vector<IntVar>& xs, const Case& c) {
        switch (c.kind) {
        case Kind::var: s.post(propane::table(checker::views<IntVar>(xs, c, 0, n), tuples, mode)); break;
        case Kind::offset: s.post(propane::table(checker::views<Offset>(xs, c, 0, n), tuples, mode)); break;
        case Kind::affine:
        case Kind::mixed: s.post(propane::table(checker::views<Affine>(xs, c, 0, n), tuples, mode)); break;
        }
    };
    return spec;
}

// The checker's sweep for one layout of views (c's coefficients and
// variables): every combination of non-empty subsets of the variables'
// domains, or `samples` random ones, each posted fresh (every
// posted_every-th) and cut in a store posted once on full domains.
checker::Outcome sweep_layout(const Spec& spec, const Case& shape, long long samples, int posted_every, std::mt19937& rng) {
    checker::Outcome out;
    Store blank;
    const std::vector<IntVar> xs = blank.int_vars(shape.nvars, shape.lo, shape.lo + shape.range - 1);
    checker::Reused r;
    r.s = blank;
    r.xs = xs;
    r.props = checker::post_counted(spec, r.s, r.xs, shape);
    r.root_ok = r.s.propagate();
    checker::snapshot(r.s, r.root);
    for (int k = 0; k < shape.nvars; ++k)
        r.root_masks[u(k)] = r.root_ok ? checker::mask_of(r.s, xs[u(k)], shape.lo, shape.range) : 0;
    std::vector<checker::Dom> before, scratch;
    const Mask subsets = (Mask{1} << shape.range) - 1;
    long long total = samples;
    if (total == 0) {
        total = 1;
        for (int k = 0; k < shape.nvars; ++k) total *= subsets;
    }
    for (long long idx = 0; idx < total; ++idx) {
        Case c = shape;
        long long rest = idx;
        for (int k = 0; k < c.nvars; ++k, rest /= subsets)
            c.dom[u(k)] = samples == 0 ? static_cast<Mask>(rest % subsets) + 1 : checker::random_domain(rng, c.range);
        checker::run_case(spec, c, blank, xs, r, idx % posted_every == 0, out, before, scratch);
    }
    return out;
}

// Cases (views on distinct variables) for each coefficient vector of a kind.
std::vector<Case> layouts(Kind kind, int n, int lo, int range, unsigned seed) {
    std::vector<Case> out;
    for (const Coefs& v : checker::coefficients(kind, n, seed)) out.push_back(checker::base_case(kind, n, n, lo, range, v));
    return out;
}

} // namespace

TEST_CASE("table: domain consistent, every combination of domains at arity 2 and 3") {
    std::mt19937 rng(1);
    for (const TableMode mode : modes) {
        checker::Outcome pairs, triples;
        for (const Kind kind : all_kinds)
            for (int shape = 0; shape < shapes; ++shape) {
                for (const Case& c : layouts(kind, 2, -1, 4, 3))
                    pairs += sweep_layout(table_spec(draw_tuples(c, shape, rng), mode, 2), c, 0, 2, rng);
                for (const Case& c : layouts(kind, 3, 0, 3, 5))
                    triples += sweep_layout(table_spec(draw_tuples(c, shape, rng), mode, 3), c, 0, 2, rng);
            }
        const std::string m = name_of(mode);
        checker::report("table(2 views, " + m + ") x 4 kinds x 7 shapes, every pair of subsets of -1..2", pairs);
        checker::report("table(3 views, " + m + ") x 4 kinds x 7 shapes, every triple of subsets of 0..2", triples);
    }
}

TEST_CASE("table: domain consistent over tables of several words (arity 4 and 5, sampled)") {
    std::mt19937 rng(7);
    for (const TableMode mode : modes) {
        checker::Outcome four, five;
        for (const Kind kind : all_kinds)
            for (const int shape : {1, 3, 4, 5, 6}) {
                const std::vector<Case> l4 = layouts(kind, 4, -1, 4, 9), l5 = layouts(kind, 5, 0, 3, 11);
                const Case& c4 = l4[rng() % l4.size()];
                four += sweep_layout(table_spec(draw_tuples(c4, shape, rng), mode, 4), c4, 120, 3, rng);
                const Case& c5 = l5[rng() % l5.size()];
                five += sweep_layout(table_spec(draw_tuples(c5, shape, rng), mode, 5), c5, 60, 3, rng);
            }
        const std::string m = name_of(mode);
        checker::report("table(4 views, " + m + ") x 4 kinds, up to 256 tuples, sampled over -1..2", four);
        checker::report("table(5 views, " + m + ") x 4 kinds, up to 243 tuples, sampled over 0..2", five);
    }
}

TEST_CASE("table: views sharing a variable stay sound, and exact once fixed") {
    std::mt19937 rng(13);
    // Which variable each position reads: one variable twice, one three
    // times, and pairs in every order.
    const std::vector<std::vector<int>> maps{{0, 0}, {0, 1, 0}, {1, 0, 0}, {0, 1, 1}, {0, 0, 0}};
    for (const TableMode mode : modes) {
        checker::Outcome out;
        for (const Kind kind : all_kinds)
            for (const auto& map : maps)
                for (int shape = 0; shape < shapes; ++shape) {
                    const int n = static_cast<int>(map.size());
                    const int nvars = *std::max_element(map.begin(), map.end()) + 1;
                    const std::vector<Coefs> pool = checker::coefficients(kind, n, 17 + static_cast<unsigned>(shape));
                    Case c = checker::base_case(kind, n, nvars, -1, 4, pool[rng() % pool.size()]);
                    for (int i = 0; i < n; ++i) c.v[u(i)].var = map[u(i)];
                    c.nvars = nvars;
                    out += sweep_layout(table_spec(draw_tuples(c, shape, rng), mode, n), c, 0, 1, rng);
                }
        checker::report(std::string("table(") + name_of(mode) + ") x 4 kinds, views sharing variables over -1..2", out);
    }
}

TEST_CASE("table: random walks through nested levels and copies") {
    std::mt19937 rng(19);
    for (const TableMode mode : modes) {
        checker::Outcome out;
        for (const Kind kind : all_kinds)
            for (const int n : {3, 4})
                for (int w = 0; w < 6; ++w) {
                    const std::vector<Case> l = layouts(kind, n, -1, 4, 23 + static_cast<unsigned>(w));
                    const Case& c = l[rng() % l.size()];
                    const Spec spec = table_spec(draw_tuples(c, 3 + w % 4, rng), mode, n);
                    checker::Walk walk(spec, c, out.chk, out.tally);
                    walk.run(rng, 150);
                    ++out.tally.walks;
                }
        checker::report(std::string("table(3 and 4 views, ") + name_of(mode) + ") x 4 kinds, walks over -1..2", out);
    }
}
