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
// posted_every-th) and cut in a store posted once on full domains, the
// variables' forms mixed as in checker::sweep.
checker::Outcome sweep_layout(const Spec& spec, const Case& shape, long long samples, int posted_every, std::mt19937& rng) {
    checker::Outcome out;
    checker::Stores stores(spec, {shape});
    std::vector<checker::Dom> before, scratch;
    const Mask subsets = (Mask{1} << shape.range) - 1;
    long long total = samples;
    if (total == 0) {
        total = 1;
        for (int k = 0; k < shape.nvars; ++k) total *= subsets;
    }
    for (long long idx = 0; idx < total; ++idx) {
        Case c = shape;
        c.forms = checker::forms_of(idx, c.nvars);
        long long rest = idx;
        for (int k = 0; k < c.nvars; ++k, rest /= subsets)
            c.dom[u(k)] = samples == 0 ? static_cast<Mask>(rest % subsets) + 1 : checker::random_domain(rng, c.range);
        checker::run_case(spec, c, stores.blank(c.forms), stores.xs(c.forms), stores.reused(0, c.forms), idx % posted_every == 0, out,
                          before, scratch);
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

namespace {

// A table over three variables of 0..11, with the reference computed from
// the tuples: what a store reused through nested levels must agree with.
struct Big {
    static constexpr int n = 3, hi = 11;
    Tuples tuples;
    std::vector<bool> in; // by assignment, as a number in base hi + 1
    TableMode mode;

    Big(std::mt19937& rng, TableMode m, double density) : in(std::size_t{1728}, false), mode(m) {
        for (int a = 0; a <= hi; ++a)
            for (int b = 0; b <= hi; ++b)
                for (int c = 0; c <= hi; ++c)
                    if (std::uniform_real_distribution<double>(0, 1)(rng) < density) {
                        tuples.push_back({a, b, c});
                        in[u((a * 12 + b) * 12 + c)] = true;
                    }
        std::shuffle(tuples.begin(), tuples.end(), rng);
    }

    // The values with a support within d (by variable, bit v for value v);
    // false when none is left.
    bool closure(std::array<Mask, n>& d) const {
        std::array<Mask, n> sup{};
        for (int a = 0; a <= hi; ++a)
            for (int b = 0; b <= hi; ++b)
                for (int c = 0; c <= hi; ++c) {
                    const bool ok = ((d[0] >> a) & (d[1] >> b) & (d[2] >> c) & 1U) != 0 &&
                                    in[u((a * 12 + b) * 12 + c)] == (mode == TableMode::allowed);
                    if (ok) sup[0] |= Mask{1} << a, sup[1] |= Mask{1} << b, sup[2] |= Mask{1} << c;
                }
        d = sup;
        return sup[0] != 0;
    }
};

template <class S>
std::array<Mask, Big::n> masks(const S& s, const std::vector<IntVar>& xs) {
    std::array<Mask, Big::n> m{};
    for (int i = 0; i < Big::n; ++i)
        for (int v = 0; v <= Big::hi; ++v)
            if (s.domain(xs[u(i)]).contains(v)) m[u(i)] |= Mask{1} << v;
    return m;
}

} // namespace

TEST_CASE_TEMPLATE("table: nested levels restore the live tuples (tables of up to 27 words, against the closure)", S,
                   propane::Store<propane::BitDomain<2>>, propane::Store<propane::BitDomain<propane::dynamic>>) {
    std::mt19937 rng(29);
    long long propagations = 0, pops = 0, failures = 0, mismatches = 0;
    for (int round = 0; round < 24; ++round) {
        const Big big(rng, round % 2 == 0 ? TableMode::allowed : TableMode::forbidden,
                      std::array{0.01, 0.05, 0.4, 0.95}[u(round / 2 % 4)]);
        S s;
        const std::vector<IntVar> xs = s.int_vars(Big::n, 0, Big::hi);
        s.post(propane::table(xs, big.tuples, big.mode));
        std::array<Mask, Big::n> root{};
        root.fill((Mask{1} << (Big::hi + 1)) - 1);
        const bool root_ok = big.closure(root);
        CHECK(s.propagate() == root_ok);
        if (!root_ok) continue;
        CHECK(masks(s, xs) == root);
        // Levels, each cutting one variable to a random value set and
        // propagating, popped at random; every propagation is compared
        // with the closure of the domains it started from, and every pop
        // with the domains at its push. Sometimes the store is copied and
        // the copy goes on.
        std::vector<std::array<Mask, Big::n>> saved;
        for (int step = 0; step < 120; ++step) {
            if (!saved.empty() && (rng() % 3 == 0 || saved.size() == 6)) {
                s.pop_level();
                ++pops;
                mismatches += masks(s, xs) == saved.back() ? 0 : 1;
                saved.pop_back();
                continue;
            }
            if (rng() % 8 == 0) {
                S copy(s);
                s = std::move(copy);
            }
            saved.push_back(masks(s, xs));
            s.push_level();
            // One or two variables cut (one alone cannot fail a domain
            // consistent store), each to about three quarters of its
            // values, or a quarter.
            for (int cuts = 1 + static_cast<int>(rng() % 2); cuts > 0; --cuts) {
                const int k = static_cast<int>(rng() % Big::n);
                const Mask keep = rng() % 2 == 0 ? static_cast<Mask>(rng() | rng()) : static_cast<Mask>(rng() & rng());
                for (int v = 0; v <= Big::hi; ++v)
                    if (((keep >> v) & 1U) == 0 && s.domain(xs[u(k)]).size() > 1) (void)s.remove(xs[u(k)], v);
            }
            std::array<Mask, Big::n> want = masks(s, xs);
            const bool ok = big.closure(want);
            const bool got = s.propagate();
            ++propagations;
            failures += got ? 0 : 1;
            mismatches += got == ok ? 0 : 1;
            if (got && ok) mismatches += masks(s, xs) == want ? 0 : 1;
            if (!got) {
                s.pop_level();
                ++pops;
                mismatches += masks(s, xs) == saved.back() ? 0 : 1;
                saved.pop_back();
            }
        }
    }
    MESSAGE("table over 3 x 0..11, nested levels: " << propagations << " propagations (" << failures << " failed), "
                                                    << pops << " pops; " << mismatches << " mismatches");
    CHECK(propagations > 1000);
    CHECK(mismatches == 0);
}

namespace {

// A random model: 5 variables over 0..3 with holes, 2 to 4 tables of arity
// 1 to 4 over random views (IntVar, x + c, c - x, 2x + c), a variable
// possibly at two positions, each allowed or forbidden.
struct Model {
    struct Table {
        std::vector<int> var, a, b;
        Tuples tuples;
        TableMode mode = TableMode::allowed;
    };
    std::vector<Mask> dom;
    std::vector<Table> tables;

    explicit Model(unsigned seed) {
        std::mt19937 rng(seed);
        for (int x = 0; x < 5; ++x) {
            Mask m = 0;
            while (m == 0) m = static_cast<Mask>(rng() % 16);
            dom.push_back(m);
        }
        const int count = 2 + static_cast<int>(rng() % 3);
        for (int k = 0; k < count; ++k) {
            Table t;
            const int n = 1 + static_cast<int>(rng() % 4);
            for (int i = 0; i < n; ++i) {
                t.var.push_back(static_cast<int>(rng() % 5));
                constexpr std::array<int, 4> scales{1, 1, -1, 2};
                t.a.push_back(scales[rng() % 4]);
                t.b.push_back(t.a.back() == 1 && rng() % 2 == 0 ? 0 : static_cast<int>(rng() % 5) - 2);
            }
            t.mode = rng() % 3 == 0 ? TableMode::forbidden : TableMode::allowed;
            long long box = 1;
            for (int i = 0; i < n; ++i) box *= 4;
            const long long draws = std::max(1LL, static_cast<long long>(rng() % static_cast<unsigned>(box)));
            for (long long d = 0; d < draws; ++d) {
                std::vector<int> tuple;
                for (int i = 0; i < n; ++i) tuple.push_back(t.a[u(i)] * static_cast<int>(rng() % 5) + t.b[u(i)]);
                t.tuples.push_back(tuple);
            }
            tables.push_back(t);
        }
    }

    bool holds(const std::array<int, 5>& x) const {
        for (const Table& t : tables) {
            std::vector<int> v;
            for (std::size_t i = 0; i < t.var.size(); ++i) v.push_back(t.a[i] * x[u(t.var[i])] + t.b[i]);
            if (member(t.tuples, v.data()) != (t.mode == TableMode::allowed)) return false;
        }
        return true;
    }

    long long enumerate() const {
        long long n = 0;
        std::array<int, 5> x{};
        for (int code = 0; code < 1024; ++code) {
            bool in = true;
            for (int k = 0, c = code; k < 5; ++k, c /= 4) {
                x[u(k)] = c % 4;
                in = in && ((dom[u(k)] >> x[u(k)]) & 1U) != 0;
            }
            n += in && holds(x) ? 1 : 0;
        }
        return n;
    }
};

} // namespace

TEST_CASE("table: random models, exactly the enumerated solutions") {
    long long models = 0, solutions = 0, wrong = 0;
    for (unsigned seed = 1; seed <= 400; ++seed) {
        const Model m(seed);
        Store s;
        const std::vector<IntVar> xs = s.int_vars(5, 0, 3);
        for (int k = 0; k < 5; ++k)
            for (int v = 0; v < 4; ++v)
                if (((m.dom[u(k)] >> v) & 1U) == 0) (void)s.remove(xs[u(k)], v);
        for (const Model::Table& t : m.tables) {
            // IntVars alone as a vector of IntVar, otherwise of AffineView.
            const bool plain = std::all_of(t.a.begin(), t.a.end(), [](int a) { return a == 1; }) &&
                               std::all_of(t.b.begin(), t.b.end(), [](int b) { return b == 0; });
            if (plain) {
                std::vector<IntVar> vs;
                for (const int x : t.var) vs.push_back(xs[u(x)]);
                s.post(propane::table(vs, t.tuples, t.mode));
            } else {
                std::vector<Affine> vs;
                for (std::size_t i = 0; i < t.var.size(); ++i) vs.push_back(t.a[i] * xs[u(t.var[i])] + t.b[i]);
                s.post(propane::table(vs, t.tuples, t.mode));
            }
        }
        long long found = 0;
        bool all_hold = true;
        propane::solve(s, xs, [&](const auto& sol) {
            std::array<int, 5> x{};
            for (std::size_t k = 0; k < 5; ++k) x[k] = sol[k];
            all_hold = all_hold && m.holds(x);
            ++found;
        });
        const long long want = m.enumerate();
        CAPTURE(seed);
        CHECK(all_hold);
        CHECK(found == want);
        ++models;
        solutions += found;
        wrong += found == want && all_hold ? 0 : 1;
    }
    MESSAGE("table: " << models << " random models, " << solutions << " solutions in all, " << wrong << " wrong");
    CHECK(solutions > 0);
}

TEST_CASE("table: misuse names the constraint; empty tables") {
    Store s;
    const std::vector<IntVar> xs = s.int_vars(3, 0, 2);
    CHECK_THROWS_WITH_AS(propane::table(std::vector<IntVar>{}, Tuples{}), doctest::Contains("table"),
                         propane::model_error);
    CHECK_THROWS_WITH_AS(propane::table(xs, Tuples{{0, 1, 2}, {0, 1}}), doctest::Contains("table: tuple 1 has 2"),
                         propane::model_error);
    CHECK_THROWS_WITH_AS(propane::table(xs, Tuples{{0, 1, 2, 0}}, TableMode::forbidden), doctest::Contains("table"),
                         propane::model_error);
    CHECK_THROWS_WITH_AS(propane::table(xs, Tuples{}, static_cast<TableMode>(7)), doctest::Contains("table"),
                         propane::model_error);
    Store other;
    const IntVar foreign = other.int_var(0, 9);
    CHECK_THROWS_WITH_AS(s.post(propane::table(std::vector<IntVar>{foreign}, Tuples{{0}})), doctest::Contains("table"),
                         propane::model_error);
    CHECK_THROWS_WITH_AS(s.post(propane::table(std::vector<IntVar>{IntVar{}}, Tuples{{0}})), doctest::Contains("table"),
                         propane::model_error);
    CHECK(s.propagate());

    // No forbidden tuple, or none within the domains: nothing to post.
    const int props = s.num_propagators();
    s.post(propane::table(xs, Tuples{}, TableMode::forbidden));
    s.post(propane::table(xs, Tuples{{0, 1, 3}, {-1, 0, 0}}, TableMode::forbidden));
    CHECK(s.num_propagators() == props);
    CHECK(s.propagate());

    // No allowed tuple within the domains: the store fails, inside a level
    // until it is popped.
    s.push_level();
    s.post(propane::table(xs, Tuples{{0, 1, 3}, {5, 0, 0}}));
    CHECK_FALSE(s.propagate());
    s.pop_level();
    CHECK(s.propagate());
    s.push_level();
    s.post(propane::table(xs, Tuples{}));
    CHECK_FALSE(s.propagate());
    s.pop_level();
    CHECK(s.propagate());
    for (const IntVar x : xs) CHECK(s.domain(x).size() == 3);
}
