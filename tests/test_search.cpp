// Depth-first search: the solutions it reports against brute-force
// enumeration, the order the strategies promise, the statistics identities,
// and the promise that the store is back at its root state however the
// search ends (exhausted, stopped, thrown out of, destroyed).

#include <doctest/doctest.h>

#include "support.hpp"

#include <propane/constraints/all_different.hpp>
#include <propane/search/search.hpp>
#include <propane/search/stats.hpp>
#include <propane/engine/store.hpp>
#include <propane/engine/view.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "instances.hpp"
#include "whole_models.hpp"

namespace {

using test_support::str;

using Dom = propane::BitDomain<1>;
using Store = propane::Store<Dom>;
using propane::IntVar;
using Tuple = std::vector<int>;

// ---- random models --------------------------------------------------------------

constexpr int range = 5; // variables start as 0..4

enum class Kind { var, offset, affine };

// a*x_var + b; for Kind::var a = 1, b = 0, for Kind::offset a = 1.
struct ViewSpec {
    int var;
    int a;
    int b;
};

struct ConSpec {
    Kind kind;
    propane::Consistency strength;
    std::vector<ViewSpec> views;
};

struct Model {
    int n = 0;
    std::vector<std::uint32_t> dom; // bit v: value v present
    std::vector<ConSpec> cons;
    Kind search_kind = Kind::var;
    std::vector<ViewSpec> search; // every variable once, in a random order

    std::string text() const {
        std::ostringstream o;
        for (int i = 0; i < n; ++i) {
            o << "x" << i << " in {";
            for (int v = 0; v < range; ++v)
                if ((dom[static_cast<std::size_t>(i)] >> v) & 1U) o << v << ' ';
            o << "}; ";
        }
        for (const ConSpec& c : cons) {
            o << "all_different[" << (c.strength == propane::value ? "value" : "bounds") << "](";
            for (const ViewSpec& v : c.views) o << v.a << "*x" << v.var << "+" << v.b << ' ';
            o << "); ";
        }
        o << "search over (";
        for (const ViewSpec& v : search) o << v.a << "*x" << v.var << "+" << v.b << ' ';
        return o.str() + ")";
    }
};

Model random_model(unsigned seed) {
    std::mt19937 rng(seed);
    auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    constexpr int scales[] = {-2, -1, 2, 3};
    auto spec = [&](Kind k, int var) {
        switch (k) {
        case Kind::var: return ViewSpec{var, 1, 0};
        case Kind::offset: return ViewSpec{var, 1, uniform(-3, 3)};
        case Kind::affine: break;
        }
        return ViewSpec{var, scales[uniform(0, 3)], uniform(-3, 3)};
    };

    Model m;
    m.n = uniform(3, 5);
    for (int i = 0; i < m.n; ++i) m.dom.push_back(static_cast<std::uint32_t>(uniform(1, (1 << range) - 1)));
    const int ncons = uniform(1, 3);
    for (int c = 0; c < ncons; ++c) {
        ConSpec con{static_cast<Kind>(uniform(0, 2)),
                    uniform(0, 1) == 0 ? propane::Consistency::value : propane::Consistency::bounds,
                    {}};
        std::vector<int> vars(static_cast<std::size_t>(m.n));
        for (int i = 0; i < m.n; ++i) vars[static_cast<std::size_t>(i)] = i;
        std::shuffle(vars.begin(), vars.end(), rng);
        vars.resize(static_cast<std::size_t>(uniform(2, m.n)));
        for (int v : vars) con.views.push_back(spec(con.kind, v));
        m.cons.push_back(con);
    }
    // The search list is a permutation of the variables, seen through views
    // of one kind: first_unbound must follow list positions, not variable
    // indices, and min_value must mean the view's minimum, not the
    // variable's (they differ for a < 0).
    m.search_kind = static_cast<Kind>(seed % 3);
    std::vector<int> order(static_cast<std::size_t>(m.n));
    for (int i = 0; i < m.n; ++i) order[static_cast<std::size_t>(i)] = i;
    std::shuffle(order.begin(), order.end(), rng);
    for (int v : order) {
        ViewSpec s = spec(m.search_kind, v);
        if (m.search_kind == Kind::affine && uniform(0, 4) == 0) s.a = 1; // some plain ones too
        m.search.push_back(s);
    }
    return m;
}

// Every solution, as the tuple of search-view values, in lexicographic order.
std::vector<Tuple> brute_force(const Model& m) {
    std::vector<Tuple> sols;
    std::vector<int> x(static_cast<std::size_t>(m.n), 0);
    auto val = [&](const ViewSpec& v) { return v.a * x[static_cast<std::size_t>(v.var)] + v.b; };
    for (;;) {
        bool ok = true;
        for (int i = 0; i < m.n && ok; ++i) ok = (m.dom[static_cast<std::size_t>(i)] >> x[static_cast<std::size_t>(i)]) & 1U;
        for (std::size_t c = 0; c < m.cons.size() && ok; ++c) {
            const auto& vs = m.cons[c].views;
            for (std::size_t i = 0; i < vs.size() && ok; ++i)
                for (std::size_t j = 0; j < i && ok; ++j) ok = val(vs[i]) != val(vs[j]);
        }
        if (ok) {
            Tuple t;
            for (const ViewSpec& v : m.search) t.push_back(val(v));
            sols.push_back(t);
        }
        int i = 0;
        while (i < m.n && ++x[static_cast<std::size_t>(i)] == range) x[static_cast<std::size_t>(i++)] = 0;
        if (i == m.n) break;
    }
    std::sort(sols.begin(), sols.end());
    return sols;
}

template <class View>
View make_view(const std::vector<IntVar>& xs, const ViewSpec& v) {
    const IntVar x = xs[static_cast<std::size_t>(v.var)];
    if constexpr (std::is_same_v<View, IntVar>)
        return x;
    else if constexpr (std::is_same_v<View, propane::OffsetView>)
        return x + v.b;
    else
        return v.a * x + v.b;
}

template <class View>
std::vector<View> make_views(const std::vector<IntVar>& xs, const std::vector<ViewSpec>& vs) {
    std::vector<View> out;
    for (const ViewSpec& v : vs) out.push_back(make_view<View>(xs, v));
    return out;
}

// Builds the model on `s` without propagating: the search's own root
// propagation is part of what is tested.
std::vector<IntVar> build(Store& s, const Model& m) {
    auto xs = s.int_vars(m.n, 0, range - 1);
    for (int i = 0; i < m.n; ++i)
        for (int v = 0; v < range; ++v)
            if (!((m.dom[static_cast<std::size_t>(i)] >> v) & 1U))
                CHECK(s.remove(xs[static_cast<std::size_t>(i)], v) != propane::Change::failed);
    for (const ConSpec& c : m.cons) switch (c.kind) {
        case Kind::var: s.post(propane::all_different(make_views<IntVar>(xs, c.views), c.strength)); break;
        case Kind::offset:
            s.post(propane::all_different(make_views<propane::OffsetView>(xs, c.views), c.strength));
            break;
        case Kind::affine:
            s.post(propane::all_different(make_views<propane::AffineView>(xs, c.views), c.strength));
            break;
        }
    return xs;
}

// ---- running searches -----------------------------------------------------------

struct Run {
    std::vector<Tuple> sols;
    propane::SearchStats stats;
};

template <class Sol>
Tuple tuple_of(const Sol& sol) {
    Tuple t;
    for (std::size_t i = 0; i < sol.size(); ++i) t.push_back(sol[i]);
    return t;
}

template <class View>
Run run_solve(Store& s, const std::vector<View>& vars, propane::Strategy st) {
    Run r;
    r.stats = propane::solve(s, vars, st, [&](const auto& sol) {
        r.sols.push_back(tuple_of(sol));
        return propane::next;
    });
    return r;
}

template <class View>
Run run_pull(Store& s, const std::vector<View>& vars, propane::Strategy st) {
    Run r;
    propane::Search search(s, vars, st);
    while (search.next()) r.sols.push_back(tuple_of(search.solution()));
    r.stats = search.stats();
    return r;
}

std::vector<Dom> domains(const Store& s) {
    std::vector<Dom> d;
    for (int i = 0; i < s.num_vars(); ++i) d.push_back(s.domain(i));
    return d;
}

// The shape of the tree, and then the work done in it.
bool same_shape(const propane::SearchStats& a, const propane::SearchStats& b) {
    return a.solutions == b.solutions && a.failures == b.failures && a.branches == b.branches &&
           a.max_depth == b.max_depth && a.complete() == b.complete();
}
bool same_tree(const propane::SearchStats& a, const propane::SearchStats& b) {
    return same_shape(a, b) && a.propagations == b.propagations;
}

std::string strategy_text(propane::Strategy st) {
    return std::string(st.var == propane::first_unbound ? "first_unbound" : "smallest_domain") + "/" +
           (st.val == propane::min_value ? "min_value" : "max_value");
}

constexpr propane::Strategy strategies[] = {
    {.var = propane::first_unbound, .val = propane::min_value},
    {.var = propane::first_unbound, .val = propane::max_value},
    {.var = propane::smallest_domain, .val = propane::min_value},
    {.var = propane::smallest_domain, .val = propane::max_value},
};

// Whatever a complete search did, these hold: each decision node has a left
// and a right branch and each leaf is a solution or a failure, so branches
// = 2 * (leaves - 1); every open decision fixes a distinct search view, so
// depth <= number of views.
void check_complete_stats(const propane::SearchStats& st, std::size_t nvars, std::size_t nsols) {
    CHECK(st.complete());
    CHECK(st.solutions == nsols);
    CHECK(st.failures + st.solutions > 0);
    CHECK(st.branches == 2 * (st.failures + st.solutions - 1));
    CHECK(st.max_depth <= nvars);
    CHECK((st.branches == 0) == (st.max_depth == 0));
}

template <class View>
void check_model(const Model& m, const std::vector<Tuple>& want) {
    for (const propane::Strategy st : strategies) {
        CAPTURE(strategy_text(st));
        Store s;
        const auto xs = build(s, m);
        const auto vars = make_views<View>(xs, m.search);
        const auto before = domains(s);
        const auto runs_before = s.propagations();
        const Run a = run_solve(s, vars, st);
        const auto runs_solve = s.propagations() - runs_before;
        CHECK(domains(s) == before);
        CHECK(s.level() == 0);

        std::vector<Tuple> sorted = a.sols;
        std::sort(sorted.begin(), sorted.end());
        CHECK(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end()); // no duplicates
        CHECK(sorted == want);                                                    // none missing, none extra
        if (st.var == propane::first_unbound) {
            // Binary branching on the first unfixed view, smallest value
            // first: the leftmost leaf is the lexicographically smallest.
            if (st.val == propane::min_value)
                CHECK(a.sols == want);
            else
                CHECK(std::equal(a.sols.begin(), a.sols.end(), want.rbegin(), want.rend()));
        }
        check_complete_stats(a.stats, vars.size(), want.size());
        CHECK(a.stats.propagations == runs_solve);

        // The pull form is the same engine: same solutions in the same
        // order, same tree. A fresh store, because a store searched once is
        // not guaranteed to search the same way again (see the test case on
        // reuse below).
        Store s2;
        const auto xs2 = build(s2, m);
        const Run b = run_pull(s2, make_views<View>(xs2, m.search), st);
        CHECK(b.sols == a.sols);
        CHECK(same_tree(b.stats, a.stats));
        CHECK(domains(s2) == before);
        CHECK(s2.level() == 0);
    }
}

// N-queens with its solutions by brute force. Propagated at level 0 unless
// asked not to, so that searches repeated on the same store do not depend
// on the first one's root propagation (see the test case on reuse).
struct Queens {
    Store s;
    std::vector<IntVar> q;
    std::vector<Tuple> all; // lexicographic

    explicit Queens(int n, bool propagate_root = true) {
        q = s.int_vars(n, 0, n - 1);
        std::vector<propane::OffsetView> up, down;
        for (int c = 0; c < n; ++c) {
            up.push_back(q[static_cast<std::size_t>(c)] + c);
            down.push_back(q[static_cast<std::size_t>(c)] - c);
        }
        s.post(propane::all_different(q, propane::bounds));
        s.post(propane::all_different(up, propane::value));
        s.post(propane::all_different(down, propane::bounds));
        if (propagate_root) REQUIRE(s.propagate());
        Tuple t(static_cast<std::size_t>(n), 0);
        for (;;) {
            bool ok = true;
            for (int i = 0; i < n; ++i)
                for (int j = 0; j < i; ++j) {
                    const int a = t[static_cast<std::size_t>(i)], b = t[static_cast<std::size_t>(j)];
                    ok &= a != b && a + i != b + j && a - i != b - j;
                }
            if (ok) all.push_back(t);
            int i = n - 1;
            while (i >= 0 && ++t[static_cast<std::size_t>(i)] == n) t[static_cast<std::size_t>(i--)] = 0;
            if (i < 0) break;
        }
    }
};

} // namespace

TEST_CASE("search finds exactly the brute-force solutions of random models, in the promised order") {
    int models = 0;
    std::size_t solutions = 0, infeasible = 0;
    for (unsigned seed = 1; seed <= 300; ++seed) {
        const Model m = random_model(seed);
        CAPTURE(seed);
        CAPTURE(m.text());
        const std::vector<Tuple> want = brute_force(m);
        switch (m.search_kind) {
        case Kind::var: check_model<IntVar>(m, want); break;
        case Kind::offset: check_model<propane::OffsetView>(m, want); break;
        case Kind::affine: check_model<propane::AffineView>(m, want); break;
        }
        ++models;
        solutions += want.size();
        infeasible += want.empty() ? 1 : 0;
    }
    MESSAGE(models << " random models (" << infeasible << " infeasible, " << solutions
                   << " solutions in all), each searched with 4 strategies by solve() and by Search::next()");
}

TEST_CASE("a root failure is one failure and no branch") {
    Store s;
    const auto xs = s.int_vars(3, 0, 1);
    s.post(propane::all_different(xs, propane::bounds)); // three views, two values: a Hall violation at the root
    const auto before = domains(s);
    const Run r = run_solve(s, xs, {});
    CHECK(r.sols.empty());
    CHECK(r.stats.solutions == 0);
    CHECK(r.stats.failures == 1);
    CHECK(r.stats.branches == 0);
    CHECK(r.stats.max_depth == 0);
    CHECK(r.stats.complete());
    CHECK(domains(s) == before);
    CHECK(s.level() == 0);
}

TEST_CASE("a limit of 0 failures stops before the root's propagation, one of 0 branches after it") {
    Store s;
    const auto xs = s.int_vars(3, 0, 1);
    s.post(propane::all_different(xs, propane::bounds)); // fails at the root
    for (const bool pull : {false, true}) {
        CAPTURE(pull);
        const auto limited = [&](const propane::Limits& limits) {
            if (!pull) return propane::solve(s, xs, {}, limits, [](const auto&) {});
            propane::Search search(s, xs, {}, limits);
            while (search.next()) {}
            return search.stats();
        };
        // At most 0 failures, so the failing root is not propagated.
        const propane::SearchStats f = limited({.failures = 0});
        CHECK(f.failures == 0);
        CHECK(f.branches == 0);
        CHECK(f.outcome == propane::Outcome::failure_limit);
        const propane::SearchStats b = limited({.branches = 0});
        CHECK(b.failures == 1);
        CHECK(b.branches == 0);
        CHECK(b.complete());
        const propane::SearchStats one = limited({.failures = 1});
        CHECK(one.failures == 1);
        CHECK(one.complete());
        CHECK(s.level() == 0);
    }
}

TEST_CASE("a solution refuses to read a view it does not fix, or one of another store") {
    Store s;
    const IntVar x = s.int_var(0, 2), y = s.int_var(0, 2);
    Store other;
    const IntVar w = other.int_var(0, 2), fixed = other.int_var(4, 4);
    (void)w;
    std::uint64_t visits = 0;
    // Views alone: a whole assignment would fix y too.
    const propane::Strategy partial{.assign_all = false};
    propane::solve(s, std::vector{x}, partial, [&](const auto& sol) {
        ++visits;
        CHECK(sol[0] == sol.value(x));
        CHECK(sol.value(x + 1) == sol[0] + 1);
        CHECK_THROWS_AS((void)sol.value(y), propane::model_error);
        CHECK_THROWS_AS((void)sol.value(2 * y + 1), propane::model_error);
        CHECK_THROWS_AS((void)sol[1], propane::model_error);
        // Fixed in its own store, with a value s has too: still not s's.
        CHECK_THROWS_AS((void)sol.value(fixed), propane::model_error);
        CHECK_THROWS_WITH_AS((void)sol.value(y), doctest::Contains("not fixed"), propane::model_error);
    });
    CHECK(visits == 3);
    // A solution read where the search is at none: before the first next()
    // and after the last.
    propane::Search search(s, std::vector{x}, partial);
    CHECK_THROWS_AS((void)search.solution()[0], propane::model_error);
    while (search.next()) {}
    CHECK_THROWS_AS((void)search.solution()[0], propane::model_error);
    CHECK(s.level() == 0);
}

TEST_CASE("value strength finds the same infeasibility below the root, and the identities still hold") {
    Store s;
    const auto xs = s.int_vars(3, 0, 1);
    s.post(propane::all_different(xs, propane::value)); // cannot see the Hall violation
    const Run r = run_solve(s, xs, {});
    CHECK(r.stats.solutions == 0);
    CHECK(r.stats.failures > 1);
    check_complete_stats(r.stats, xs.size(), 0);
}

TEST_CASE("an empty search list decides every variable, or with assign_all = false has one solution, the root") {
    Store s;
    const IntVar x = s.int_var(0, 3);
    s.post(propane::all_different(std::vector{x}, propane::bounds));
    const Run partial = run_solve(s, std::vector<IntVar>{}, {.assign_all = false});
    CHECK(partial.sols == std::vector<Tuple>{Tuple{}});
    check_complete_stats(partial.stats, 0, 1);
    CHECK(partial.stats.branches == 0);
    std::vector<int> xs;
    const propane::SearchStats whole = propane::solve(s, std::vector<IntVar>{}, {}, [&](const auto& sol) {
        xs.push_back(sol.value(x));
    });
    CHECK(xs == std::vector{0, 1, 2, 3});
    CHECK(whole.complete());
    CHECK(whole.branches == 6); // x = 0, x != 0, x = 1, ...
    CHECK(whole.max_depth == 1);
}

TEST_CASE("smallest_domain breaks ties by lowest position, and re-chooses at every node") {
    // Without constraints the search enumerates in lexicographic order of
    // the views taken in the order it chooses them, so the order of the
    // solutions shows which view was chosen at each depth.
    auto order_by = [](std::vector<Tuple> sols, std::vector<std::size_t> key) {
        std::sort(sols.begin(), sols.end(), [&](const Tuple& p, const Tuple& q) {
            for (std::size_t k : key)
                if (p[k] != q[k]) return p[k] < q[k];
            return false;
        });
        return sols;
    };
    auto all_tuples = [](const Store& s, const std::vector<IntVar>& xs) {
        std::vector<Tuple> out{Tuple{}};
        for (const IntVar x : xs) {
            std::vector<Tuple> next;
            for (const Tuple& t : out)
                s.domain(x).for_each([&](int v) {
                    Tuple u = t;
                    u.push_back(v);
                    next.push_back(u);
                });
            out = next;
        }
        return out;
    };

    SUBCASE("static sizes 4, 2, 3, 2: x1 before x3 (tie), then x2, then x0") {
        Store s;
        const std::vector<IntVar> xs{s.int_var(0, 3), s.int_var(0, 1), s.int_var(0, 2), s.int_var(5, 6)};
        const auto all = all_tuples(s, xs);
        const auto want = order_by(all, {1, 3, 2, 0});
        // Ties going to the highest index would give (x3, x1, x2, x0).
        REQUIRE(want != order_by(all, {3, 1, 2, 0}));
        const Run r = run_solve(s, xs, {.var = propane::smallest_domain, .val = propane::min_value});
        CHECK(r.sols == want);
        const Run back = run_solve(s, xs, {.var = propane::smallest_domain, .val = propane::max_value});
        CHECK(std::equal(back.sols.begin(), back.sols.end(), want.rbegin(), want.rend()));
    }

    SUBCASE("sizes that change: x0 = v shrinks x1 to tie with x2, and x1 wins the tie") {
        // x0 in {0,1}, x1 in 0..3, x2 in 0..2, x0 != x1. A choice fixed by
        // the initial sizes (2, 4, 3) would take x2 before x1.
        Store s;
        const std::vector<IntVar> xs{s.int_var(0, 1), s.int_var(0, 3), s.int_var(0, 2)};
        s.post(propane::all_different(std::vector{xs[0], xs[1]}, propane::value));
        REQUIRE(s.propagate());
        std::vector<Tuple> all = all_tuples(s, xs);
        std::erase_if(all, [](const Tuple& t) { return t[0] == t[1]; });
        const auto want = order_by(all, {0, 1, 2});
        REQUIRE(want != order_by(all, {0, 2, 1}));
        const Run r = run_solve(s, xs, {.var = propane::smallest_domain, .val = propane::min_value});
        CHECK(r.sols == want);
    }
}

TEST_CASE("a visitor that stops after k solutions") {
    for (const bool pushed : {false, true}) {
        CAPTURE(pushed);
        Queens m(5);
        std::vector<Tuple> allowed = m.all;
        if (pushed) {
            // The search's root is then the caller's level, not level 0: it
            // must pop back to it and no further.
            m.s.push_level();
            CHECK(m.s.remove(m.q[0], 0) != propane::Change::failed);
            REQUIRE(m.s.propagate());
            std::erase_if(allowed, [](const Tuple& t) { return t[0] == 0; });
        }
        REQUIRE(allowed.size() >= 3);
        const int level = m.s.level();
        const auto before = domains(m.s);
        for (const std::size_t k : {std::size_t{1}, std::size_t{2}, allowed.size() - 1, allowed.size()}) {
            CAPTURE(k);
            std::vector<Tuple> seen;
            const auto st = propane::solve(m.s, m.q, {}, [&](const auto& sol) {
                seen.push_back(tuple_of(sol));
                return seen.size() == k ? propane::stop : propane::next;
            });
            CHECK(st.solutions == k);
            CHECK_FALSE(st.complete()); // it stopped: that nothing was left is not known
            CHECK(seen == std::vector<Tuple>(allowed.begin(), allowed.begin() + static_cast<std::ptrdiff_t>(k)));
            CHECK(m.s.level() == level);
            CHECK(domains(m.s) == before);
        }
        if (pushed) {
            m.s.pop_level();
            CHECK(m.s.domain(m.q[0]).contains(0));
        }
    }
}

TEST_CASE("a visitor returning void sees every solution") {
    Queens m(6);
    std::vector<Tuple> seen;
    const auto st = propane::solve(m.s, m.q, [&](const auto& sol) { seen.push_back(tuple_of(sol)); });
    CHECK(seen == m.all); // the default strategy is first_unbound / min_value
    check_complete_stats(st, m.q.size(), m.all.size());
}

TEST_CASE("an exception from the visitor reaches the caller and the store is back at its root") {
    struct Boom {};
    Queens m(5);
    const auto before = domains(m.s);
    int calls = 0;
    CHECK_THROWS_AS(propane::solve(m.s, m.q, {}, [&](const auto&) -> propane::Action {
                        if (++calls == 3) throw Boom{};
                        return propane::next;
                    }),
                    Boom);
    CHECK(calls == 3);
    CHECK(m.s.level() == 0);
    CHECK(domains(m.s) == before);
    // And the store still searches correctly.
    CHECK(run_solve(m.s, m.q, {}).sols == m.all);

    SUBCASE("the same from the body of a pull loop") {
        try {
            propane::Search search(m.s, m.q);
            while (search.next())
                if (search.stats().solutions == 2) throw Boom{};
        } catch (const Boom&) {
        }
        CHECK(m.s.level() == 0);
        CHECK(domains(m.s) == before);
    }
}

TEST_CASE("the pull API") {
    Queens m(5);
    const auto before = domains(m.s);

    SUBCASE("next() after exhaustion keeps returning false and changes nothing") {
        propane::Search search(m.s, m.q);
        std::size_t n = 0;
        while (search.next()) ++n;
        CHECK(n == m.all.size());
        const propane::SearchStats st = search.stats();
        check_complete_stats(st, m.q.size(), m.all.size());
        for (int i = 0; i < 3; ++i) CHECK_FALSE(search.next());
        CHECK(same_tree(search.stats(), st));
        CHECK(m.s.level() == 0);
        CHECK(domains(m.s) == before);
    }

    SUBCASE("a search destroyed mid-way leaves the root, and the next search sees everything") {
        // Not propagated before: the root propagation is the first search's
        // own, and destroying the search must undo it too.
        Queens fresh(5, false);
        const auto unpropagated = domains(fresh.s);
        {
            propane::Search search(fresh.s, fresh.q);
            REQUIRE(search.next());
            REQUIRE(search.next());
            CHECK(fresh.s.level() > 0); // it holds the second solution
        }
        CHECK(fresh.s.level() == 0);
        CHECK(domains(fresh.s) == unpropagated);
        CHECK(run_pull(fresh.s, fresh.q, {}).sols == fresh.all);
    }

    SUBCASE("stop() ends the search as incomplete, at the root") {
        propane::Search search(m.s, m.q);
        REQUIRE(search.next());
        REQUIRE(search.next());
        search.stop();
        CHECK_FALSE(search.stats().complete());
        CHECK(search.stats().solutions == 2);
        CHECK(m.s.level() == 0);
        CHECK(domains(m.s) == before);
        CHECK_FALSE(search.next());
        CHECK_FALSE(search.stats().complete());
    }

    SUBCASE("stop() before the first next()") {
        propane::Search search(m.s, m.q);
        search.stop();
        CHECK_FALSE(search.next());
        CHECK_FALSE(search.stats().complete());
        CHECK(search.stats().solutions == 0);
        CHECK(domains(m.s) == before);
    }
}

TEST_CASE("the solution object reads search views by position and any view of the store") {
    Store s;
    const IntVar x = s.int_var(0, 2), y = s.int_var(0, 2), z = s.int_var(7, 7);
    // Searching over views: x + 10 and -2*y + 1 (negative scale, so
    // min_value is y's maximum).
    const std::vector<propane::AffineView> vars{1 * x + 10, -2 * y + 1};
    s.post(propane::all_different(std::vector{x, y}, propane::bounds));
    std::vector<Tuple> seen;
    propane::solve(s, vars, {}, [&](const auto& sol) {
        CHECK(&sol.store() == &s);
        REQUIRE(sol.size() == 2);
        const int xv = s.domain(x).value(), yv = s.domain(y).value();
        CHECK(sol[0] == xv + 10);
        CHECK(sol[1] == -2 * yv + 1);
        CHECK(sol.value(x) == xv);
        CHECK(sol.value(y + 3) == yv + 3);
        CHECK(sol.value(3 * y - 4) == 3 * yv - 4);
        CHECK(sol.value(z) == 7); // not searched, fixed all along
        CHECK(sol.value(z - 7) == 0);
        seen.push_back({xv, yv});
        return propane::next;
    });
    // x ascending, then y descending (its view ascending), x != y.
    std::vector<Tuple> want;
    for (int xv = 0; xv <= 2; ++xv)
        for (int yv = 2; yv >= 0; --yv)
            if (xv != yv) want.push_back({xv, yv});
    CHECK(seen == want);
}

// The store must be back at its *root state* after a search, and a second
// search on it must behave like the first. Domains come back through the
// trail, but propagation work queued before the search (a freshly posted
// constraint, or views already fixed when it was posted) is consumed by the
// first search's root propagation inside a level that is then popped; it
// is not queued again. The second search starts from unpropagated domains
// with nothing queued.
TEST_CASE("a second search on the same store finds the same solutions with the same tree") {
    SUBCASE("minimal: two equal fixed views posted, not yet propagated") {
        Store s;
        const IntVar x = s.int_var(1, 1), y = s.int_var(1, 1);
        s.post(propane::all_different(std::vector{x, y}, propane::value));
        const Run first = run_solve(s, std::vector{x, y}, {});
        CHECK(first.sols.empty());
        const Run second = run_solve(s, std::vector{x, y}, {});
        CHECK(second.sols == first.sols); // fails: the second search reports the "solution" x = y = 1
    }

    SUBCASE("a root Hall interval is lost: same solutions, different tree") {
        Store s;
        const IntVar x = s.int_var(1, 2), y = s.int_var(1, 2), z = s.int_var(1, 3);
        const std::vector<IntVar> xs{z, x, y};
        s.post(propane::all_different(xs, propane::bounds));
        const Run first = run_solve(s, xs, {});
        const Run second = run_solve(s, xs, {});
        CHECK(second.sols == first.sols);
        // Fails: the root no longer fixes z = 3, so the second search
        // branches on z and fails where the first did not branch at all.
        CHECK(second.stats.failures == first.stats.failures);
        CHECK(second.stats.branches == first.stats.branches);
    }

    SUBCASE("random models, each searched twice on one store") {
        std::vector<unsigned> wrong_solutions, other_shape, other_work;
        for (unsigned seed = 1; seed <= 300; ++seed) {
            const Model m = random_model(seed);
            Store s;
            const auto xs = build(s, m);
            const auto vars = make_views<IntVar>(xs, m.search);
            const Run first = run_solve(s, vars, {});
            const Run second = run_solve(s, vars, {});
            if (second.sols != first.sols) wrong_solutions.push_back(seed);
            if (!same_shape(second.stats, first.stats)) other_shape.push_back(seed);
            if (second.stats.propagations != first.stats.propagations) other_work.push_back(seed);
        }
        auto head = [](const std::vector<unsigned>& v) {
            std::string t;
            for (std::size_t i = 0; i < v.size() && i < 10; ++i) t += std::to_string(v[i]) + " ";
            return t;
        };
        CHECK_MESSAGE(wrong_solutions.empty(), wrong_solutions.size()
                                                   << " of 300 seeds found other solutions the second time, e.g. "
                                                   << head(wrong_solutions));
        CHECK_MESSAGE(other_shape.empty(), other_shape.size() << " of 300 seeds had other failures/branches, e.g. "
                                                              << head(other_shape));
        CHECK_MESSAGE(other_work.empty(), other_work.size() << " of 300 seeds ran the propagators another number "
                                                               "of times, e.g. "
                                                            << head(other_work));
    }

    SUBCASE("after propagating at level 0 first, a second search is identical") {
        for (unsigned seed = 1; seed <= 300; ++seed) {
            CAPTURE(seed);
            const Model m = random_model(seed);
            Store s;
            const auto xs = build(s, m);
            if (!s.propagate()) continue; // infeasible at level 0: no search to repeat
            const auto vars = make_views<IntVar>(xs, m.search);
            const Run first = run_solve(s, vars, {});
            const Run second = run_pull(s, vars, {});
            CHECK(second.sols == first.sols);
            CHECK(same_tree(second.stats, first.stats));
        }
    }
}

// ---- a solution is a whole assignment (Strategy::assign_all) -------------------

namespace {

// Every solution's whole assignment (-1 for a variable left open), in order.
std::vector<whole_models::Assignment> whole_solve(Store& s, const std::vector<IntVar>& views,
                                                  const propane::Strategy& st, propane::SearchStats& stats) {
    std::vector<whole_models::Assignment> out;
    stats = propane::solve(s, views, st, [&](const auto& sol) { out.push_back(whole_models::read_all(sol.store())); });
    return out;
}

template <class S>
std::vector<whole_models::Assignment> pull_whole(S& search, const Store& s) {
    std::vector<whole_models::Assignment> out;
    while (search.next()) out.push_back(whole_models::read_all(s));
    return out;
}

std::vector<whole_models::Assignment> sorted(std::vector<whole_models::Assignment> v) {
    std::sort(v.begin(), v.end());
    return v;
}

} // namespace

TEST_CASE("with variables outside the views, every solution is a whole solution, each once") {
    for (unsigned seed = 1; seed <= 150; ++seed) {
        const whole_models::Model m = whole_models::random_model(seed, false);
        CAPTURE(m.text());
        const auto want = sorted(whole_models::brute_force(m));
        for (const propane::Strategy& st : strategies) {
            CAPTURE(strategy_text(st));
            Store s;
            const auto xs = whole_models::build(s, m);
            const auto views = whole_models::views_of(m, xs);
            propane::SearchStats stats;
            const auto got = whole_solve(s, views, st, stats);
            CHECK(sorted(got) == want);
            // A binary tree whose leaves are the solutions and the failures,
            // each open decision on a distinct variable.
            check_complete_stats(stats, xs.size(), want.size());
            CHECK(s.level() == 0);
            // The pull form: the same solutions in the same order, the same tree.
            Store s2;
            const auto xs2 = whole_models::build(s2, m);
            propane::Search search(s2, whole_models::views_of(m, xs2), st);
            CHECK(pull_whole(search, s2) == got);
            CHECK(same_tree(search.stats(), stats));
        }
        // Without views: every variable, in creation order, as if listed.
        const propane::Strategy first_fail{.var = propane::smallest_domain, .val = propane::max_value};
        for (const propane::Strategy& st : {propane::Strategy{}, first_fail}) {
            CAPTURE(strategy_text(st));
            const bool plain = st.var == propane::first_unbound;
            Store s;
            (void)whole_models::build(s, m);
            std::vector<whole_models::Assignment> got;
            const auto record = [&](const auto& sol) { got.push_back(whole_models::read_all(sol.store())); };
            const propane::SearchStats a = plain ? propane::solve(s, record) : propane::solve(s, st, record);
            CHECK(sorted(got) == want);
            Store s2;
            const auto xs2 = whole_models::build(s2, m);
            propane::SearchStats b;
            CHECK(whole_solve(s2, xs2, st, b) == got);
            CHECK(same_tree(a, b));
            Store s3;
            (void)whole_models::build(s3, m);
            propane::Search pull(s3, st, propane::Limits{});
            CHECK(pull_whole(pull, s3) == got);
            CHECK(same_tree(pull.stats(), a));
        }
    }
}

TEST_CASE("assign_all = false reports each assignment of the views once, safe where the rest is defined by them") {
    for (unsigned seed = 1; seed <= 150; ++seed) {
        const whole_models::Model m = whole_models::random_model(seed, true);
        CAPTURE(m.text());
        const auto whole = whole_models::brute_force(m);
        // y is a function of the views: as many projections as solutions.
        REQUIRE(whole_models::projections(m, whole).size() == whole.size());
        for (const propane::Strategy& st : strategies) {
            CAPTURE(strategy_text(st));
            Store s;
            const auto xs = whole_models::build(s, m);
            propane::Strategy partial = st;
            partial.assign_all = false;
            propane::SearchStats p, w;
            const auto got = whole_solve(s, whole_models::views_of(m, xs), partial, p);
            CHECK(sorted(got) == sorted(whole));
            // y is fixed by propagation wherever the views are: nothing to
            // decide, the same tree.
            CHECK(whole_solve(s, whole_models::views_of(m, xs), st, w) == got);
            CHECK(same_tree(p, w));
        }
    }
    // Where the rest is not defined by the views, partial answers need not
    // be solutions: three variables over {0, 1} under all_different (value
    // strength, which sees nothing until one is fixed), outside the views.
    Store s;
    const IntVar x = s.int_var(0, 1);
    s.post(propane::all_different(s.int_vars(3, 0, 1), propane::value));
    std::vector<int> partial, whole;
    propane::solve(s, std::vector{x}, {.assign_all = false}, [&](const auto& sol) { partial.push_back(sol[0]); });
    const propane::SearchStats st =
        propane::solve(s, std::vector{x}, {}, [&](const auto& sol) { whole.push_back(sol[0]); });
    CHECK(partial == std::vector{0, 1});
    CHECK(whole.empty());
    CHECK(st.complete());
}
