// linear(a, x, r, c) checked against brute force.
//
// The reference works on sets of variable values and on each term's numbers
// (term = a * (p*x + q)), not through the header's views or its cuts:
//   eq le ge lt gt  the greatest bounds(R) box, reached value by value: a
//           view's least or greatest value leaves while no real values of
//           the other terms within their bounds complete it to a sum in
//           relation with c, until every view's bounds have such a support
//           (a greatest common fixpoint, the same in any order);
//   ne      once one term with a nonzero coefficient is open, the value
//           completing the sum to c leaves it; with none open, a sum equal
//           to c fails.
// The propagator's result is compared with it exactly, so pruning too little
// fails as surely as pruning too much. Each configuration runs as posted on
// cut domains, and as a random walk of nested levels over one store posted
// on full domains (cuts learnt by events, trailed state restored by pops).
// Models with a variable in several terms are checked for their solutions
// only, since the box above treats terms as independent.

#include <doctest/doctest.h>

#include "support.hpp"

#include <propane/constraints/linear.hpp>
#include <propane/engine/error.hpp>
#include <propane/engine/store.hpp>
#include <propane/engine/view.hpp>
#include <propane/search/search.hpp>

#include <array>
#include <climits>
#include <cstdint>
#include <optional>
#include <random>
#include <set>
#include <sstream>
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
constexpr int range = 5; // variables over 0..4

// What each Rel means, as test_rel checks it against its own reference.
using propane::detail::holds;

struct RefTerm {
    int a;
    int p;
    int q;
    std::int64_t of(int x) const { return std::int64_t{a} * (std::int64_t{p} * x + q); }
};
using Doms = std::vector<std::set<int>>;

struct Config {
    std::vector<RefTerm> terms;
    Rel r = Rel::eq;
    std::int64_t c = 0;
    Doms start;
};

std::string describe(const Config& cfg, const Doms& d) {
    std::ostringstream o;
    for (std::size_t i = 0; i < cfg.terms.size(); ++i)
        o << (i ? " + " : "") << cfg.terms[i].a << "*(" << cfg.terms[i].p << "*x" << i << "+" << cfg.terms[i].q
          << ")";
    o << ' ' << propane::to_string(cfg.r) << ' ' << cfg.c << " with";
    for (std::size_t i = 0; i < d.size(); ++i) o << " x" << i << " in " << doctest::toString(d[i]);
    return o.str();
}

std::optional<Doms> reference(const Config& cfg, Doms d) {
    const auto& ts = cfg.terms;
    const std::size_t n = ts.size();
    if (cfg.r == Rel::ne) {
        std::int64_t fixed = 0;
        std::vector<std::size_t> open;
        for (std::size_t i = 0; i < n; ++i) {
            if (ts[i].a == 0) continue;
            if (d[i].size() == 1) fixed += ts[i].of(*d[i].begin());
            else open.push_back(i);
        }
        if (open.empty()) return fixed == cfg.c ? std::nullopt : std::optional{d};
        if (open.size() == 1) std::erase_if(d[open[0]], [&](int x) { return ts[open[0]].of(x) + fixed == cfg.c; });
        return d;
    }
    const bool upper = cfg.r == Rel::eq || cfg.r == Rel::le || cfg.r == Rel::lt;
    const bool lower = cfg.r == Rel::eq || cfg.r == Rel::ge || cfg.r == Rel::gt;
    const std::int64_t u = cfg.r == Rel::lt ? cfg.c - 1 : cfg.c, l = cfg.r == Rel::gt ? cfg.c + 1 : cfg.c;
    const auto least = [&](std::size_t j) {
        std::int64_t m = INT64_MAX;
        for (int x : d[j]) m = std::min(m, ts[j].of(x));
        return m;
    };
    const auto most = [&](std::size_t j) {
        std::int64_t m = INT64_MIN;
        for (int x : d[j]) m = std::max(m, ts[j].of(x));
        return m;
    };
    bool any = false;
    for (const RefTerm& t : ts) any = any || t.a != 0;
    if (!any) return (upper && 0 > u) || (lower && 0 < l) ? std::nullopt : std::optional{d};
    for (bool changed = true; changed;) {
        changed = false;
        for (std::size_t i = 0; i < n; ++i) {
            if (ts[i].a == 0) continue;
            std::int64_t lo = 0, hi = 0;
            for (std::size_t j = 0; j < n; ++j)
                if (j != i && ts[j].a != 0) {
                    lo += least(j);
                    hi += most(j);
                }
            const auto supported = [&](int x) {
                return (!upper || ts[i].of(x) + lo <= u) && (!lower || ts[i].of(x) + hi >= l);
            };
            // The view's least value is the variable's least when p > 0.
            for (const bool at_least : {true, false})
                while (!d[i].empty()) {
                    const int x = (ts[i].p > 0) == at_least ? *d[i].begin() : *d[i].rbegin();
                    if (supported(x)) break;
                    d[i].erase(x);
                    changed = true;
                }
            if (d[i].empty()) return std::nullopt;
        }
    }
    return d;
}

template <class View>
View make_view(IntVar x, const RefTerm& t) {
    return test_support::make_view<View>(x, t.p, t.q);
}

Doms domains(const Store& s, const std::vector<IntVar>& xs) {
    Doms d;
    for (IntVar x : xs) d.push_back(test_support::contents(s.domain(x)));
    return d;
}


template <class View>
struct Model {
    Store s;
    std::vector<IntVar> xs;

    explicit Model(const Config& cfg) {
        std::vector<int> coeffs;
        std::vector<View> views;
        for (const RefTerm& t : cfg.terms) {
            xs.push_back(s.int_var(0, range - 1));
            coeffs.push_back(t.a);
            views.push_back(make_view<View>(xs.back(), t));
        }
        for (std::size_t i = 0; i < xs.size(); ++i) REQUIRE(cut(s, xs[i], cfg.start[i]));
        s.post(propane::linear(coeffs, views, cfg.r, cfg.c));
    }

    // Propagates and compares with the reference from the current domains;
    // returns whether propagation succeeded.
    bool check(const Config& cfg) {
        const Doms before = domains(s, xs);
        const std::optional<Doms> want = reference(cfg, before);
        const bool ok = s.propagate();
        INFO(describe(cfg, before));
        CHECK(ok == want.has_value());
        if (ok && want) CHECK(domains(s, xs) == *want);
        return ok;
    }
};

std::set<int> random_subset(std::mt19937& rng) {
    std::set<int> r;
    while (r.empty())
        for (int v = 0; v < range; ++v)
            if (rng() % 2 == 0) r.insert(v);
    return r;
}

template <std::size_t N>
Config random_config(std::mt19937& rng, const std::array<std::array<int, 2>, N>& views, int max_terms) {
    Config cfg;
    const int n = static_cast<int>(rng() % static_cast<unsigned>(max_terms + 1));
    for (int i = 0; i < n; ++i) {
        const auto& pq = views[rng() % N];
        cfg.terms.push_back({static_cast<int>(rng() % 7) - 3, pq[0], pq[1]});
        cfg.start.push_back(random_subset(rng));
    }
    cfg.r = rels[rng() % rels.size()];
    cfg.c = static_cast<int>(rng() % 41) - 20;
    return cfg;
}

// Posted on the cut domains, then a walk of nested levels over a store
// posted on full domains: each propagation compared with the reference, each
// pop with the domains it must restore.
template <class View, std::size_t N>
void sweep(const std::array<std::array<int, 2>, N>& views, int configs, int max_terms, unsigned seed) {
    std::mt19937 rng(seed);
    for (int k = 0; k < configs; ++k) {
        Config cfg = random_config(rng, views, max_terms);
        {
            Model<View> m(cfg);
            m.check(cfg);
        }
        const Doms cut_to = cfg.start;
        cfg.start.assign(cfg.terms.size(), {0, 1, 2, 3, 4});
        Model<View> m(cfg);
        if (!m.check(cfg) || m.xs.empty()) continue;
        std::vector<Doms> saved;
        for (int step = 0; step < 8; ++step) {
            if (saved.size() < 3 && rng() % 3 != 0) {
                saved.push_back(domains(m.s, m.xs));
                m.s.push_level();
                const std::size_t i = rng() % m.xs.size();
                const bool ok = cut(m.s, m.xs[i], step == 0 ? cut_to[i] : random_subset(rng));
                if (ok && m.check(cfg)) continue;
            }
            if (saved.empty()) continue;
            m.s.pop_level();
            CHECK(!m.s.failed());
            CHECK(domains(m.s, m.xs) == saved.back());
            saved.pop_back();
        }
    }
}

constexpr std::array<std::array<int, 2>, 6> affine_pq{{{1, 0}, {1, 2}, {-1, 1}, {2, -1}, {-2, 3}, {3, 0}}};
constexpr std::array<std::array<int, 2>, 3> offset_pq{{{1, 0}, {1, 3}, {1, -2}}};
constexpr std::array<std::array<int, 2>, 1> identity_pq{{{1, 0}}};

// A view that counts how often a propagator reads it, to see which terms a
// run touches.
struct CountingView {
    IntVar x;
    std::vector<int>* reads;

    int touch() const { return ++(*reads)[static_cast<std::size_t>(x.index())]; }
    IntVar var() const { return x; }
    int lo() const { return x.lo(); }
    int hi() const { return x.hi(); }
    template <class S> int min(const S& s) const { return touch(), x.min(s); }
    template <class S> int max(const S& s) const { return touch(), x.max(s); }
    template <class S> bool fixed(const S& s) const { return touch(), x.fixed(s); }
    template <class S> int value(const S& s) const { return touch(), x.value(s); }
    template <class S> Change remove(S& s, int v) const { return touch(), x.remove(s, v); }
    template <class S> Change remove_below(S& s, int v) const { return touch(), x.remove_below(s, v); }
    template <class S> Change remove_above(S& s, int v) const { return touch(), x.remove_above(s, v); }
};

} // namespace

TEST_CASE("linear over a*x + b views agrees with the greatest bounds(R) box and the ne rule") {
    sweep<AffineView>(affine_pq, 6000, 4, 1);
}

TEST_CASE("linear over IntVar and x + c views agrees with the reference") {
    sweep<IntVar>(identity_pq, 1500, 4, 2);
    sweep<OffsetView>(offset_pq, 1500, 4, 3);
}

TEST_CASE("every call form compiles and solves: IntVar, OffsetView, mixed AffineView, plain sums") {
    Store s;
    const IntVar x = s.int_var(0, 9), y = s.int_var(0, 9), z = s.int_var(0, 9);
    s.post(propane::linear(std::vector<int>{1, 2, -1}, std::vector<IntVar>{x, y, z}, Rel::eq, 10));
    s.post(propane::linear(std::vector<int>{1, -1}, std::vector<OffsetView>{x + 1, y - 2}, Rel::ge, 0));
    s.post(propane::linear(std::vector<int>{3, 1, 1}, std::vector<AffineView>{x, y + 1, 2 * z}, Rel::lt, 30));
    s.post(propane::linear(std::vector<IntVar>{x, y}, Rel::ne, 7));
    s.post(propane::linear(std::vector<AffineView>{x, -y}, Rel::gt, std::int64_t{-5}));
    s.post(propane::linear(std::vector<int>{2}, std::vector<IntVar>{z}, Rel::le, 17));
    std::set<std::vector<int>> want, got;
    for (int a = 0; a < 10; ++a)
        for (int b = 0; b < 10; ++b)
            for (int c = 0; c < 10; ++c)
                if (a + 2 * b - c == 10 && a + 1 - (b - 2) >= 0 && 3 * a + b + 1 + 2 * c < 30 && a + b != 7 &&
                    a - b > -5 && 2 * c <= 17)
                    want.insert({a, b, c});
    const std::vector<IntVar> vars{x, y, z};
    const auto st = propane::solve(s, vars, [&](const auto& sol) { got.insert({sol[0], sol[1], sol[2]}); });
    CHECK(!want.empty());
    CHECK(st.solutions == want.size());
    CHECK(got == want);
}

TEST_CASE("solution counts match enumeration for every relation, distinct and shared variables") {
    for (Rel r : rels)
        for (const bool shared : {false, true}) {
            Store s;
            const IntVar x = s.int_var(-2, 4), y = s.int_var(0, 5), z = s.int_var(-3, 3);
            // Shared: the third term is over x again, as 3 - x.
            const std::vector<AffineView> views{2 * x, -y + 1, shared ? 3 - x : AffineView(z, 3, 0)};
            s.post(propane::linear(std::vector<int>{1, 2, -1}, views, r, 3));
            std::set<std::vector<int>> want, got;
            for (int a = -2; a <= 4; ++a)
                for (int b = 0; b <= 5; ++b)
                    for (int c = -3; c <= 3; ++c) {
                        const std::int64_t sum = 2 * a + 2 * (1 - b) - (shared ? 3 - a : 3 * c);
                        if (holds(r, sum, 3)) want.insert({a, b, c});
                    }
            const std::vector<IntVar> vars{x, y, z};
            const auto st =
                propane::solve(s, vars, [&](const auto& sol) { got.insert({sol[0], sol[1], sol[2]}); });
            INFO(propane::to_string(r), shared ? " shared" : " distinct");
            CHECK(st.solutions == want.size());
            CHECK(got == want);
        }
}

TEST_CASE("a variable in several terms: x + x == 4, x - x != 0, 2x - x <= 1") {
    Store s;
    const IntVar x = s.int_var(0, 5);
    s.push_level();
    // Terms are bounded independently (x + x' == 4 keeps 0..4); search
    // still finds only x = 2.
    s.post(propane::linear(std::vector<IntVar>{x, x}, Rel::eq, 4));
    REQUIRE(s.propagate());
    CHECK(test_support::contents(s.domain(x)) == std::set<int>{0, 1, 2, 3, 4});
    std::vector<int> found;
    const std::vector<IntVar> vars{x};
    const auto st = propane::solve(s, vars, [&](const auto& sol) { found.push_back(sol[0]); });
    CHECK(st.solutions == 1);
    CHECK(found == std::vector<int>{2});
    s.pop_level();
    s.push_level();
    s.post(propane::linear(std::vector<int>{1, -1}, std::vector<IntVar>{x, x}, Rel::ne, 0));
    REQUIRE(s.propagate());
    CHECK(s.assign(x, 3) == Change::fixed);
    CHECK(!s.propagate());
    s.pop_level();
    s.post(propane::linear(std::vector<int>{2, -1}, std::vector<IntVar>{x, x}, Rel::le, 1));
    REQUIRE(s.propagate());
    CHECK(test_support::contents(s.domain(x)) == std::set<int>{0, 1});
}

TEST_CASE("linear refuses bad input with a message naming the problem") {
    Store s, other;
    const IntVar x = s.int_var(0, 3), y = s.int_var(0, 3);
    const IntVar w = other.int_var(0, 3);
    CHECK_THROWS_WITH_AS(propane::linear(std::vector<int>{1, 2}, std::vector<IntVar>{x}, Rel::eq, 1),
                         doctest::Contains("linear: 2 coefficients for 1 views"), propane::model_error);
    CHECK_THROWS_WITH_AS(s.post(propane::Linear<IntVar>{{1}, {x, y}, Rel::eq, 1}),
                         doctest::Contains("1 coefficients for 2 views"), propane::model_error);
    CHECK_THROWS_WITH_AS(s.post(propane::linear(std::vector<IntVar>{x, w}, Rel::le, 1)),
                         doctest::Contains("linear: variable handle"), propane::model_error);
    CHECK_THROWS_WITH_AS(s.post(propane::linear(std::vector<IntVar>{x}, static_cast<Rel>(7), 1)),
                         doctest::Contains("not a propane::Rel"), propane::model_error);
    CHECK(s.num_propagators() == 0);
}

TEST_CASE("linear refuses a sum that could overflow 64 bits, and is exact just below the limit") {
    Store s;
    const IntVar x = s.int_var(0, 1), y = s.int_var(0, 1);
    // Views reaching 2^31 - 1, coefficients 2^31 - 1: one term is about
    // 2^62 - 2^32, two are too many; 2^31 * 2^31 alone is too many.
    const OffsetView bx = x + (INT_MAX - 1), by = y + (INT_MAX - 1);
    const std::int64_t top = std::int64_t{1 << 30} * INT_MAX;
    CHECK_THROWS_WITH_AS(s.post(propane::linear(std::vector<int>{INT_MAX, INT_MAX}, std::vector<OffsetView>{bx, by},
                                                Rel::eq, 0)),
                         doctest::Contains("overflow"), propane::model_error);
    CHECK_THROWS_WITH_AS(s.post(propane::linear(std::vector<int>{INT_MIN}, std::vector<OffsetView>{x + INT_MIN}, Rel::le, 0)),
                         doctest::Contains("overflow"), propane::model_error);
    CHECK_THROWS_WITH_AS(s.post(propane::linear(std::vector<IntVar>{x}, Rel::eq, std::int64_t{1} << 62)),
                         doctest::Contains("beyond"), propane::model_error);
    CHECK_THROWS_WITH_AS(s.post(propane::linear(std::vector<IntVar>{x}, Rel::eq, INT64_MIN)),
                         doctest::Contains("beyond"), propane::model_error);
    CHECK(s.num_propagators() == 0);
    s.post(propane::linear(std::vector<int>{1 << 30}, std::vector<OffsetView>{bx}, Rel::ge, top));
    REQUIRE(s.propagate());
    CHECK(s.domain(x).fixed());
    CHECK(s.domain(x).value() == 1);
    // Two terms of about 2^61 each, of opposite signs.
    const AffineView ny = AffineView(y, INT_MAX - 1, INT_MIN + 1); // -(2^31 - 1) or -1
    s.post(propane::linear(std::vector<int>{1 << 30, 1 << 30}, std::vector<AffineView>{bx, ny}, Rel::lt,
                           std::int64_t{1 << 30} * (INT_MAX - INT_MAX + 1)));
    REQUIRE(s.propagate());
    CHECK(s.domain(y).value() == 0);
}

TEST_CASE("an empty sum, or only zero coefficients, is 0 r c") {
    for (Rel r : rels)
        for (int c = -1; c <= 1; ++c) {
            const bool truth = holds(r, 0, c);
            Store s;
            const IntVar x = s.int_var(0, 3);
            s.push_level();
            s.post(propane::linear(std::vector<int>{}, std::vector<IntVar>{}, r, c));
            CHECK(s.propagate() == truth);
            s.pop_level();
            s.push_level();
            s.post(propane::linear(std::vector<int>{0}, std::vector<IntVar>{x}, r, c));
            CHECK(s.propagate() == truth);
            s.pop_level();
            CHECK(test_support::contents(s.domain(x)) == std::set<int>{0, 1, 2, 3});
        }
}

TEST_CASE("a run after terms are fixed reads only the open terms") {
    for (const Rel r : {Rel::eq, Rel::ne}) {
        Store s;
        std::vector<int> reads(12, 0);
        std::vector<CountingView> views;
        std::vector<IntVar> xs;
        for (int i = 0; i < 12; ++i) {
            xs.push_back(s.int_var(0, 9));
            views.push_back({xs.back(), &reads});
        }
        s.post(propane::linear(std::vector<int>(12, 1), views, r, 40));
        REQUIRE(s.propagate());
        s.push_level();
        for (int i = 0; i < 10; ++i) CHECK(s.assign(xs[static_cast<std::size_t>(i)], 3) == Change::fixed);
        REQUIRE(s.propagate()); // moves the ten fixed terms out: 30 + x10 + x11 r 40
        std::fill(reads.begin(), reads.end(), 0);
        const auto runs = s.propagations();
        if (r == Rel::eq) {
            CHECK(s.remove_above(xs[10], 4) == Change::bounds);
            REQUIRE(s.propagate());
            CHECK(test_support::contents(s.domain(xs[11])) == std::set<int>{6, 7, 8, 9});
        } else {
            CHECK(s.assign(xs[10], 2) == Change::fixed);
            REQUIRE(s.propagate());
            CHECK(!s.domain(xs[11]).contains(8));
        }
        CHECK(s.propagations() - runs == 1);
        for (int i = 0; i < 10; ++i) CHECK(reads[static_cast<std::size_t>(i)] == 0);
        CHECK(reads[11] > 0);
        s.pop_level();
        // The fixed terms are open again after the pop.
        CHECK(s.assign(xs[0], 9) == Change::fixed);
        CHECK(s.assign(xs[1], 9) == Change::fixed);
        CHECK(s.assign(xs[2], 9) == Change::fixed);
        CHECK(s.assign(xs[3], 9) == Change::fixed);
        REQUIRE(s.propagate());
        if (r == Rel::eq) CHECK(s.domain(xs[4]).max() == 4);
    }
}

TEST_CASE("linear posted inside a level is removed with it, and a failure there is undone") {
    Store s;
    const IntVar x = s.int_var(0, 5), y = s.int_var(0, 5);
    s.push_level();
    s.post(propane::linear(std::vector<IntVar>{x, y}, Rel::ge, 9));
    REQUIRE(s.propagate());
    CHECK(s.domain(x).min() == 4);
    s.push_level();
    s.post(propane::linear(std::vector<int>{1, 1}, std::vector<IntVar>{x, y}, Rel::lt, 9));
    CHECK(!s.propagate());
    CHECK(s.failed());
    s.pop_level();
    CHECK(!s.failed());
    CHECK(s.num_propagators() == 1);
    s.pop_level();
    CHECK(s.num_propagators() == 0);
    CHECK(test_support::contents(s.domain(x)) == std::set<int>{0, 1, 2, 3, 4, 5});
    CHECK(s.propagate());
}
