// The store's watches (engine/watches.hpp) through their user, the clause:
// what the exhaustive checker cannot see, since it runs one propagation
// from a fresh post. Here the watches have a history: random CNF formulas
// walked through by random decisions, backtracking, copies and posts inside
// levels, with unit propagation required to be complete at every fixpoint
// (no clause all false, none with one open literal left unset) and
// searches counted against enumeration. And what the watches are for: a
// clause whose watched literals do not change is not run at all.

#include <doctest/doctest.h>

#include <propane/constraints/bool/clause.hpp>
#include <propane/engine/store.hpp>
#include <propane/engine/view.hpp>
#include <propane/search/solve.hpp>

#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "instances_store.hpp"

namespace {

using Store = propane::Store<propane::BitDomain<1>>;
using propane::AffineView;
using propane::IntVar;

// A literal of the formula: variable v is `value`; as a view, v or 1 - v.
struct Lit {
    int v;
    int value;
};
using Formula = std::vector<std::vector<Lit>>;

Formula random_formula(std::mt19937& rng, int vars) {
    const int clauses = std::uniform_int_distribution(1, 4 * vars)(rng);
    std::uniform_int_distribution var(0, vars - 1), bit(0, 1), len(1, 5);
    Formula f(static_cast<std::size_t>(clauses));
    for (auto& c : f) {
        const int n = len(rng);
        for (int k = 0; k < n; ++k) c.push_back({var(rng), bit(rng)});
    }
    return f;
}

std::string show(const Formula& f) {
    std::ostringstream out;
    for (const auto& c : f) {
        out << "(";
        for (const Lit& l : c) out << (l.value ? " x" : " !x") << l.v;
        out << " )";
    }
    return out.str();
}

// Posts each clause with its literals split between pos (x) and neg (x
// for !x), as IntVar or as 1 - x views, alternately.
void post(Store& s, const std::vector<IntVar>& xs, const Formula& f) {
    for (std::size_t k = 0; k < f.size(); ++k) {
        std::vector<AffineView> pos, neg;
        for (const Lit& l : f[k]) {
            const IntVar x = xs[static_cast<std::size_t>(l.v)];
            // One clause in two states a literal through the negated view:
            // x == 1 as "1 - x is 0", x == 0 as "1 - x is 1".
            if (k % 2 == 0)
                (l.value ? pos : neg).push_back(AffineView(x));
            else
                (l.value ? neg : pos).push_back(1 - x);
        }
        s.post(propane::clause(pos, neg));
    }
}

// -1 false, 0 open, 1 true.
int state(const Store& s, const std::vector<IntVar>& xs, Lit l) {
    const IntVar x = xs[static_cast<std::size_t>(l.v)];
    if (!x.fixed(s)) return 0;
    return x.value(s) == l.value ? 1 : -1;
}

// Unit propagation is complete: no clause is false, and none has every
// literal false but one open one. Empty when so, else the clause. A clause
// with x and !x holds always (its post drops it); a literal repeated is one.
std::string incomplete(const Store& s, const std::vector<IntVar>& xs, const Formula& f) {
    for (std::size_t k = 0; k < f.size(); ++k) {
        const auto& c = f[k];
        bool sat = false, tautology = false;
        int open = 0;
        for (std::size_t i = 0; i < c.size(); ++i) {
            bool repeated = false;
            for (std::size_t j = 0; j < i; ++j) {
                repeated = repeated || (c[j].v == c[i].v && c[j].value == c[i].value);
                tautology = tautology || (c[j].v == c[i].v && c[j].value != c[i].value);
            }
            const int st = state(s, xs, c[i]);
            sat = sat || st > 0;
            open += st == 0 && !repeated;
        }
        if (!sat && !tautology && open <= 1)
            return "clause " + std::to_string(k) + " has " + std::to_string(open) + " open literal(s) and none true";
    }
    return {};
}

// Solutions by enumeration.
std::uint64_t enumerate(int vars, const Formula& f) {
    std::uint64_t count = 0;
    for (std::uint32_t a = 0; a < (1U << vars); ++a) {
        bool ok = true;
        for (const auto& c : f) {
            bool sat = false;
            for (const Lit& l : c) sat = sat || static_cast<int>((a >> l.v) & 1U) == l.value;
            ok = ok && sat;
        }
        count += ok;
    }
    return count;
}

std::vector<int> domains(const Store& s) {
    std::vector<int> d;
    for (int v = 0; v < s.num_vars(); ++v) d.push_back(s.domain(v).min() * 2 + s.domain(v).max());
    return d;
}

} // namespace

TEST_CASE("watched clauses: unit propagation stays complete through decisions, backtracking and copies") {
    int walks = 0, fixpoints = 0;
    for (std::uint32_t seed = 1; seed <= 400; ++seed) {
        std::mt19937 rng(seed);
        const int vars = std::uniform_int_distribution(2, 10)(rng);
        const Formula f = random_formula(rng, vars);
        Store s;
        const std::vector<IntVar> xs = s.bool_vars(vars);
        post(s, xs, f);
        CAPTURE(seed);
        const std::string formula = show(f);
        CAPTURE(formula);
        if (!s.propagate()) {
            // Only a formula without solutions may fail at the root.
            CHECK(enumerate(vars, f) == 0);
            continue;
        }
        CHECK(incomplete(s, xs, f).empty());
        // Random dives with random backtracking; at each fixpoint the
        // clauses must be unit-propagated, and after each pop the store must
        // be exactly as it was at that level.
        std::vector<std::vector<int>> at_level{domains(s)};
        for (int step = 0; step < 60; ++step) {
            std::vector<int> open;
            for (int v = 0; v < vars; ++v)
                if (!xs[static_cast<std::size_t>(v)].fixed(s)) open.push_back(v);
            const bool down = !open.empty() && (s.level() == 0 || std::uniform_int_distribution(0, 3)(rng) > 0);
            if (!down) {
                if (s.level() == 0) break;
                s.pop_level();
                at_level.pop_back();
                CHECK(domains(s) == at_level.back());
                continue;
            }
            const int v = open[std::uniform_int_distribution<std::size_t>(0, open.size() - 1)(rng)];
            s.push_level();
            [[maybe_unused]] const propane::Change c =
                xs[static_cast<std::size_t>(v)].assign(s, std::uniform_int_distribution(0, 1)(rng));
            if (!s.propagate()) {
                s.pop_level();
                CHECK(domains(s) == at_level.back());
                continue;
            }
            {
                ++fixpoints;
                const std::string why = incomplete(s, xs, f);
                CHECK_MESSAGE(why.empty(), why);
                // A copy taken here goes on as the original does.
                if (step % 7 == 0) {
                    Store copy = s;
                    const int w = open.front();
                    for (Store* t : {&s, &copy}) {
                        t->push_level();
                        [[maybe_unused]] const propane::Change d = xs[static_cast<std::size_t>(w)].assign(*t, 0);
                    }
                    const bool a = s.propagate(), b = copy.propagate();
                    CHECK(a == b);
                    if (a) {
                        CHECK(domains(s) == domains(copy));
                        CHECK(incomplete(copy, xs, f).empty());
                    }
                    s.pop_level();
                }
            }
            at_level.push_back(domains(s));
        }
        ++walks;
    }
    MESSAGE(walks << " walks, " << fixpoints << " fixpoints checked");
    CHECK(walks > 200);
}

TEST_CASE("watched clauses: searches count the solutions of random formulas, with clauses posted inside levels") {
    for (std::uint32_t seed = 1; seed <= 300; ++seed) {
        std::mt19937 rng(seed);
        const int vars = std::uniform_int_distribution(2, 10)(rng);
        const Formula f = random_formula(rng, vars);
        CAPTURE(seed);
        const std::string formula = show(f);
        CAPTURE(formula);
        Store s;
        const std::vector<IntVar> xs = s.bool_vars(vars);
        // Half of the formula at the root; the other half inside a level,
        // removed again when it is popped, after an unrelated clause set
        // there too. The search sees the root's half only, then the whole.
        const Formula first(f.begin(), f.begin() + static_cast<std::ptrdiff_t>(f.size() / 2));
        post(s, xs, first);
        s.push_level();
        post(s, xs, random_formula(rng, vars));
        [[maybe_unused]] const bool ignored = s.propagate();
        s.pop_level();
        std::uint64_t found = 0;
        propane::solve(s, xs, propane::Strategy{}, [&](const auto&) { ++found; });
        CHECK(found == enumerate(vars, first));
        post(s, xs, Formula(f.begin() + static_cast<std::ptrdiff_t>(f.size() / 2), f.end()));
        found = 0;
        const propane::SearchStats st = propane::solve(s, xs, propane::Strategy{}, [&](const auto&) { ++found; });
        CHECK(found == enumerate(vars, f));
        CHECK(st.solutions == found);
    }
}

TEST_CASE("watched clauses: fixing a literal that no clause watches runs no clause") {
    // 5,000 clauses (a_i or b_i or z) over distinct a_i, b_i and one z
    // made last: each clause watches the literals of its first two
    // variables by index, a_i and b_i, none z. A fixing of a variable in
    // some clause runs the store's watch dispatcher once, and it wakes the
    // clauses whose watched literal became false, only those.
    Store s;
    std::vector<IntVar> ab = s.bool_vars(10000);
    const IntVar z = s.bool_var();
    for (std::size_t i = 0; i < 5000; ++i)
        s.post(propane::clause(std::vector<IntVar>{ab[2 * i], ab[2 * i + 1], z}, std::vector<IntVar>{}));
    REQUIRE(s.propagate());
    const std::uint64_t before = s.propagations();
    s.push_level();
    [[maybe_unused]] const propane::Change c1 = z.assign(s, 0);
    REQUIRE(s.propagate());
    CHECK(s.propagations() == before + 1); // the dispatcher
    // a_2 false: the dispatcher, then clause 2, which finds z false too, so
    // sets b_2; then the dispatcher for b_2, which wakes nothing (b_2 is
    // true, as watched).
    [[maybe_unused]] const propane::Change c2 = ab[4].assign(s, 0);
    REQUIRE(s.propagate());
    CHECK(s.propagations() == before + 4);
    CHECK(ab[5].fixed(s));
    CHECK(ab[5].value(s) == 1);
    // a_3 true: the dispatcher only.
    [[maybe_unused]] const propane::Change c3 = ab[6].assign(s, 1);
    REQUIRE(s.propagate());
    CHECK(s.propagations() == before + 5);
    s.pop_level();
    CHECK(!ab[5].fixed(s));
}

TEST_CASE("watched clauses: each clause counts among its variables' propagators, so dom_wdeg learns from it") {
    // An unsatisfiable core over x0, x1 (four binary clauses) behind ten
    // free Booleans y in clauses that hold open: x0 and x1 are in 13
    // clauses each, a y in two at most, so weighted degree must branch on
    // an x first and fail at once on both values; branching on the y
    // first would fail in each of their 1,024 assignments.
    Store s;
    const std::vector<IntVar> y = s.bool_vars(10), x = s.bool_vars(2);
    const std::vector<IntVar> none;
    std::vector<int> clauses;
    const auto post_clause = [&](const std::vector<IntVar>& pos, const std::vector<IntVar>& neg) {
        s.post(propane::clause(pos, neg));
        clauses.push_back(s.num_propagators() - 1);
    };
    for (std::size_t i = 0; i + 1 < 10; ++i) post_clause({y[i], y[i + 1], x[0], x[1]}, none);
    // The first clause's post made the store's dispatcher after the clause.
    const int dispatcher = clauses.front();
    clauses.front() = dispatcher - 1;
    post_clause({x[0], x[1]}, none);
    post_clause(none, {x[0], x[1]});
    post_clause({x[0]}, {x[1]});
    post_clause({x[1]}, {x[0]});
    for (const IntVar v : x) {
        std::vector<int> listed = s.propagators_of(v.index());
        std::sort(listed.begin(), listed.end());
        CHECK(listed == clauses);
    }
    CHECK(s.propagators_of(y[0].index()) == std::vector<int>{clauses[0]});
    std::vector<IntVar> all = y;
    all.insert(all.end(), x.begin(), x.end());
    const propane::SearchStats st = propane::solve(s, all, propane::Strategy{propane::dom_wdeg, propane::min_value},
                                                   [](const auto&) {});
    CHECK(st.solutions == 0);
    CHECK(st.failures == 2);
}

TEST_CASE("watches: a list moved off and back without a walk stays within twice its live entries") {
    propane::detail::Watches w;
    w.add_vars(3);
    const int a = w.add_slot(0), b = w.add_slot(1);
    w.point(b, 2, 1);
    // Slot a moves between variables 0 and 1 a thousand times; neither is
    // fixed, so neither list is walked. Each compaction keeps the live.
    for (int k = 0; k < 1000; ++k) w.point(a, k % 2, 1);
    CHECK(w.list_size(0) <= 10);
    CHECK(w.list_size(1) <= 10);
    std::vector<int> woken;
    const auto wake = [&woken](int p) { woken.push_back(p); };
    // a last pointed at variable 1 (k = 999): fixing 1 to 0 wakes it, once.
    w.fire(1, 0, wake);
    CHECK(woken == std::vector<int>{0});
    woken.clear();
    w.fire(0, 0, wake);
    CHECK(woken.empty());
    w.fire(2, 0, wake);
    CHECK(woken == std::vector<int>{1});
    CHECK(w.list_size(0) == 0);
    CHECK(w.list_size(1) == 1);
}
