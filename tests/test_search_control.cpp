// Search control: the five variable and five value choices, user choosers
// that break their contract, limits, restarts, and the pull API's progress
// estimate and end of search.
//
// How: each built-in choice is compared, on random small models, with a
// reference chooser written here from the definitions in search/strategy.hpp's
// comments and handed to the same engine as a user callable. Both must grow
// the same tree (the same solutions in the same order, the same statistics)
// and find exactly the brute-force solutions. Limited searches are compared
// with the unlimited run of the same search; restart points with budgets
// summed here from Luby's recursive definition, a geometric series or a
// linear one.

#include <doctest/doctest.h>

#include "nqueens_model.hpp"
#include "support.hpp"

#include <propane/propane.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <limits>
#include <memory>
#include <numeric>
#include <random>
#include <set>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "instances.hpp"

namespace {

using namespace std::chrono_literals;
using Dom = propane::BitDomain<1>;
using Store = propane::Store<Dom>;
using Queens = nqueens::Model<Dom>;
using propane::IntVar;
using propane::Outcome;
using propane::SearchStats;
using Tuple = std::vector<int>;

constexpr propane::VarChoice var_choices[] = {propane::first_unbound, propane::smallest_domain,
                                              propane::largest_domain, propane::smallest_min, propane::dom_wdeg};
constexpr propane::ValChoice val_choices[] = {propane::min_value, propane::max_value, propane::middle_value,
                                              propane::split_value, propane::random_value};
constexpr propane::Strategy guide = nqueens::guide_strategy;

std::size_t at(int i) { return static_cast<std::size_t>(i); }

// ---- running searches and comparing them ------------------------------------------

struct Run {
    std::vector<Tuple> sols;
    SearchStats stats;
};

template <class Sol>
Tuple tuple_of(const Sol& sol) {
    Tuple t;
    for (std::size_t i = 0; i < sol.size(); ++i) t.push_back(sol[i]);
    return t;
}

template <class View, class VarSel, class ValSel>
Run run_solve(Store& s, const std::vector<View>& vars, const propane::BasicStrategy<VarSel, ValSel>& st,
              propane::Limits limits = {}) {
    Run r;
    r.stats = propane::solve(s, vars, st, limits, [&](const auto& sol) {
        r.sols.push_back(tuple_of(sol));
        return propane::next;
    });
    return r;
}

template <class View, class VarSel, class ValSel>
Run run_pull(Store& s, const std::vector<View>& vars, const propane::BasicStrategy<VarSel, ValSel>& st,
             propane::Limits limits = {}) {
    Run r;
    propane::Search search(s, vars, st, limits);
    while (search.next()) r.sols.push_back(tuple_of(search.solution()));
    r.stats = search.stats();
    return r;
}

// Every statistic but wall_time that differs, or "" when the trees match.
std::string tree_diff(const SearchStats& a, const SearchStats& b) {
    std::ostringstream o;
    auto field = [&](const char* name, std::uint64_t x, std::uint64_t y) {
        if (x != y) o << name << " " << x << " vs " << y << "; ";
    };
    field("solutions", a.solutions, b.solutions);
    field("failures", a.failures, b.failures);
    field("branches", a.branches, b.branches);
    field("max_depth", a.max_depth, b.max_depth);
    field("restarts", a.restarts, b.restarts);
    field("propagations", a.propagations, b.propagations);
    if (a.outcome != b.outcome) o << "outcome " << to_string(a.outcome) << " vs " << to_string(b.outcome);
    return o.str();
}

std::vector<Dom> domains(const Store& s) {
    std::vector<Dom> d;
    for (int i = 0; i < s.num_vars(); ++i) d.push_back(s.domain(i));
    return d;
}

bool is_prefix(const std::vector<Tuple>& part, const std::vector<Tuple>& whole) {
    return part.size() <= whole.size() && std::equal(part.begin(), part.end(), whole.begin());
}

template <class View>
int first_unfixed(const Store& s, std::span<const View> vars) {
    for (std::size_t i = 0; i < vars.size(); ++i)
        if (!vars[i].fixed(s)) return static_cast<int>(i);
    return -1;
}

// ---- reference choosers, from the comments in search/strategy.hpp--------------------------

// User choosers behind std::function, so that every reference chooser, and
// every misbehaving one below, makes a search of the same type: the engine
// calls a callable chooser the same way whatever its type, and one
// instantiation of Search per view type and return type keeps this file's
// compile time down.
template <class View>
using VarFn = std::function<int(const Store&, std::span<const View>)>;
template <class View>
using IntValFn = std::function<int(const Store&, const View&)>;
template <class View>
using DecisionValFn = std::function<propane::Decision(const Store&, const View&)>;

// The unfixed view whose key is best; on ties the lowest position.
template <class Key, class Better>
auto best_view(Key key, Better better) {
    return [key, better](const Store& s, auto vars) {
        int best = -1;
        for (std::size_t i = 0; i < vars.size(); ++i)
            if (!vars[i].fixed(s) && (best < 0 || better(key(s, vars[i]), key(s, vars[at(best)]))))
                best = static_cast<int>(i);
        return best;
    };
}

// The reference chooser for c. dom_wdeg counts propagator failures from
// those `s` holds now, which must be the counts at the start of the search
// it is used in.
template <class View>
VarFn<View> var_reference(propane::VarChoice c, const Store& s) {
    auto size = [](const Store& st, const auto& x) { return x.size(st); };
    switch (c) {
    case propane::first_unbound: return best_view([](const Store&, const auto&) { return 0; }, std::less<>{});
    case propane::smallest_domain: return best_view(size, std::less<>{});
    case propane::largest_domain: return best_view(size, std::greater<>{});
    case propane::smallest_min:
        return best_view([](const Store& st, const auto& x) { return x.min(st); }, std::less<>{});
    case propane::dom_wdeg: {
        std::vector<std::uint64_t> base;
        for (int p = 0; p < s.num_propagators(); ++p) base.push_back(s.failures_of(p));
        auto key = [base](const Store& st, const auto& x) {
            std::uint64_t w = 0;
            for (int p : st.propagators_of(x.var().index())) w += 1 + st.failures_of(p) - base[at(p)];
            return std::pair<std::uint64_t, std::uint64_t>{x.size(st), w};
        };
        // size/w compared exactly by cross-multiplying; a view without
        // propagators (w = 0) is never better than anything.
        return best_view(key, [](auto a, auto b) { return a.first * b.second < b.first * a.second; });
    }
    }
    throw std::logic_error("unknown VarChoice");
}

// The reference run of vc / lc on s, dom_wdeg counting from `base`'s
// propagator failures. random_value has no reference: its stream is its
// own. The built-in one is passed through, so the reference run is a
// same-seed run.
template <class View>
Run reference_run(propane::VarChoice vc, propane::ValChoice lc, std::uint64_t seed, propane::Restarts restarts,
                  const Store& base, Store& s, const std::vector<View>& vars) {
    const VarFn<View> var = var_reference<View>(vc, base);
    auto run = [&](auto val) { return run_pull(s, vars, propane::strategy(var, val, seed, restarts)); };
    switch (lc) {
    case propane::min_value: return run(IntValFn<View>([](const Store& st, const View& x) { return x.min(st); }));
    case propane::max_value: return run(IntValFn<View>([](const Store& st, const View& x) { return x.max(st); }));
    case propane::middle_value:
        return run(IntValFn<View>([](const Store& st, const View& x) {
            std::vector<int> values;
            for (int v = x.min(st); v <= x.max(st); ++v)
                if (x.contains(st, v)) values.push_back(v);
            return values[(values.size() - 1) / 2];
        }));
    case propane::split_value:
        return run(DecisionValFn<View>([](const Store& st, const View& x) {
            return propane::Decision{propane::Branch::split,
                                     static_cast<int>(std::floor((x.min(st) + x.max(st)) / 2.0))};
        }));
    case propane::random_value: return run(propane::random_value);
    }
    throw std::logic_error("unknown ValChoice");
}

// ---- random models --------------------------------------------------------------

constexpr int range = 5; // variables start as 0..4

struct Term {
    int var, a, b; // a*x_var + b
};
enum class Kind { var, offset, affine };
struct Con {
    Kind kind;
    propane::Consistency strength;
    std::vector<Term> terms;
};
struct Model {
    int n = 0;
    std::vector<unsigned> dom; // bit v: value v present
    std::vector<Con> cons;
    std::vector<Term> search; // each variable once, shuffled
};

Model random_model(unsigned seed, bool plain_search) {
    std::mt19937 rng(seed);
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    constexpr int scales[] = {-3, -2, -1, 2, 3};
    constexpr propane::Consistency strengths[] = {propane::value, propane::bounds, propane::domain};
    auto term = [&](Kind k, int var) {
        if (k == Kind::var) return Term{var, 1, 0};
        if (k == Kind::offset) return Term{var, 1, pick(-3, 3)};
        return Term{var, scales[pick(0, 4)], pick(-3, 3)};
    };
    Model m;
    m.n = pick(3, 6);
    for (int i = 0; i < m.n; ++i) m.dom.push_back(static_cast<unsigned>(pick(1, (1 << range) - 1)));
    std::vector<int> order(at(m.n));
    std::iota(order.begin(), order.end(), 0);
    for (int c = pick(1, 3); c > 0; --c) {
        Con con{static_cast<Kind>(pick(0, 2)), strengths[pick(0, 2)], {}};
        std::shuffle(order.begin(), order.end(), rng);
        for (int k = pick(2, m.n); k > 0; --k) con.terms.push_back(term(con.kind, order[at(k - 1)]));
        m.cons.push_back(con);
    }
    std::shuffle(order.begin(), order.end(), rng);
    for (int v : order) m.search.push_back(term(plain_search ? Kind::var : static_cast<Kind>(pick(1, 2)), v));
    return m;
}

// Every solution as the tuple of search-view values, sorted.
std::vector<Tuple> brute_force(const Model& m) {
    std::vector<Tuple> sols;
    std::vector<int> x(at(m.n), 0);
    auto val = [&](const Term& t) { return t.a * x[at(t.var)] + t.b; };
    for (;;) {
        bool ok = true;
        for (int i = 0; i < m.n; ++i) ok = ok && ((m.dom[at(i)] >> x[at(i)]) & 1U);
        for (const Con& c : m.cons)
            for (std::size_t i = 0; i < c.terms.size(); ++i)
                for (std::size_t j = 0; j < i; ++j) ok = ok && val(c.terms[i]) != val(c.terms[j]);
        if (ok) {
            Tuple t;
            for (const Term& v : m.search) t.push_back(val(v));
            sols.push_back(t);
        }
        int i = 0;
        while (i < m.n && ++x[at(i)] == range) x[at(i++)] = 0;
        if (i == m.n) break;
    }
    std::sort(sols.begin(), sols.end());
    return sols;
}

template <class View>
std::vector<View> views(const std::vector<IntVar>& xs, const std::vector<Term>& terms) {
    std::vector<View> out;
    for (const Term& t : terms) {
        const IntVar x = xs[at(t.var)];
        if constexpr (std::is_same_v<View, IntVar>) out.push_back(x);
        else if constexpr (std::is_same_v<View, propane::OffsetView>) out.push_back(x + t.b);
        else out.push_back(t.a * x + t.b);
    }
    return out;
}

struct Built {
    Store s;
    std::vector<IntVar> xs;
};

Built build(const Model& m) {
    Built b;
    b.xs = b.s.int_vars(m.n, 0, range - 1);
    for (int i = 0; i < m.n; ++i)
        for (int v = 0; v < range; ++v)
            if (!((m.dom[at(i)] >> v) & 1U)) CHECK(b.s.remove(b.xs[at(i)], v) != propane::Change::failed);
    auto post = [&]<class View>(std::type_identity<View>, const Con& c) {
        b.s.post(propane::all_different(views<View>(b.xs, c.terms), c.strength));
    };
    for (const Con& c : m.cons) switch (c.kind) {
        case Kind::var: post(std::type_identity<IntVar>{}, c); break;
        case Kind::offset: post(std::type_identity<propane::OffsetView>{}, c); break;
        case Kind::affine: post(std::type_identity<propane::AffineView>{}, c); break;
        }
    return b;
}

// What went wrong in a long loop, so a failure prints a few readable lines
// rather than thousands of assertions.
struct Problems {
    std::vector<std::string> list;
    void expect(bool ok, const std::string& what) {
        if (!ok) list.push_back(what);
    }
    std::string summary() const {
        std::string out = std::to_string(list.size()) + " problems, the first ones:";
        for (std::size_t i = 0; i < list.size() && i < 8; ++i) out += "\n  " + list[i];
        return out;
    }
};

// Evidence that the comparisons could have failed: the choices really make
// different trees on these models.
struct Tally {
    bool differs[5][5] = {};        // [var][val]: from first_unbound / min_value
    int wdeg_learns = 0;            // dom_wdeg trees unlike smallest_domain's
    int wdeg_counts_from_start = 0; // trees that counting the store's older failures would change
    int seeds_differ = 0;           // random_value trees that depend on the seed
    std::uint64_t restarts = 0;
};

template <class View>
void check_choices(const Model& m, unsigned seed, Tally& tally, Problems& problems) {
    const std::vector<Tuple> want = brute_force(m);
    // Odd seeds search the stores once before: dom_wdeg must count the
    // failures of its own search, not the store's.
    const bool warm = seed % 2 == 1;
    auto prepared = [&] {
        Built b = build(m);
        if (warm) run_solve(b.s, b.xs, guide);
        return b;
    };
    for (const propane::RestartPolicy policy : {propane::RestartPolicy::none, propane::RestartPolicy::luby}) {
        const propane::Restarts restarts{policy, 1, 1.5};
        std::vector<Run> runs;
        for (const propane::VarChoice vc : var_choices)
            for (const propane::ValChoice lc : val_choices) {
                const std::string where = "seed " + std::to_string(seed) + " " + std::string(to_string(vc)) + "/" +
                                          std::string(to_string(lc)) + ", " + std::string(to_string(policy)) + ": ";
                Built a = prepared(), b = prepared();
                const auto before = domains(a.s);
                const Run got = run_solve(a.s, views<View>(a.xs, m.search), propane::Strategy{vc, lc, seed, restarts});
                const Run ref = reference_run(vc, lc, seed, restarts, b.s, b.s, views<View>(b.xs, m.search));
                problems.expect(got.sols == ref.sols, where + "other solutions or order than the reference");
                const std::string diff = tree_diff(got.stats, ref.stats);
                problems.expect(diff.empty(), where + "other tree than the reference: " + diff);

                std::vector<Tuple> sorted = got.sols;
                std::sort(sorted.begin(), sorted.end());
                problems.expect(sorted == want && std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end(),
                                where + "not the brute-force solutions, each once");
                problems.expect(got.stats.complete(), where + "not complete");
                const SearchStats& st = got.stats;
                if (policy == propane::RestartPolicy::none)
                    problems.expect(st.branches == 2 * (st.failures + st.solutions - 1),
                                    where + "branches != 2 * (failures + solutions - 1)");
                problems.expect(domains(a.s) == before && a.s.level() == 0, where + "store not back at its root");
                tally.restarts += st.restarts;
                runs.push_back(got);

                if (vc == propane::dom_wdeg && warm) {
                    // The reference fed the store's lifetime counts (those of
                    // an unsearched store are all 0).
                    Built unsearched = build(m), c = prepared();
                    const Run lifetime =
                        reference_run(vc, lc, seed, restarts, unsearched.s, c.s, views<View>(c.xs, m.search));
                    tally.wdeg_counts_from_start += tree_diff(lifetime.stats, got.stats).empty() ? 0 : 1;
                }
            }
        if (policy != propane::RestartPolicy::none) continue;
        auto run_of = [&](std::size_t vc, std::size_t lc) -> const Run& { return runs[vc * 5 + lc]; };
        for (std::size_t vc = 0; vc < 5; ++vc)
            for (std::size_t lc = 0; lc < 5; ++lc)
                tally.differs[vc][lc] |= run_of(vc, lc).sols != run_of(0, 0).sols ||
                                         !tree_diff(run_of(vc, lc).stats, run_of(0, 0).stats).empty();
        for (std::size_t lc = 0; lc < 5; ++lc)
            tally.wdeg_learns += tree_diff(run_of(4, lc).stats, run_of(1, lc).stats).empty() ? 0 : 1;

        Built c = build(m);
        const Run other_seed = run_solve(c.s, views<View>(c.xs, m.search),
                                         propane::Strategy{propane::first_unbound, propane::random_value, seed + 1});
        tally.seeds_differ += other_seed.sols != run_of(0, 4).sols ? 1 : 0;
    }
}

// ---- other models ---------------------------------------------------------------

// N-queens propagated at level 0, so that searches repeated on its store
// all start from the same root; `pushed` adds a caller's level (q0 != 0)
// that searches must return to and not below.
Queens queens(int n, propane::Consistency strength = propane::bounds, bool pushed = false) {
    Queens m(n, strength);
    REQUIRE(m.store.propagate());
    if (pushed) {
        m.store.push_level();
        CHECK(m.store.remove(m.q[0], 0) != propane::Change::failed);
        REQUIRE(m.store.propagate());
    }
    return m;
}

// Lexicographic, by permutations: rows differ by construction.
std::vector<Tuple> queens_solutions(int n) {
    std::vector<Tuple> out;
    Tuple t(at(n));
    std::iota(t.begin(), t.end(), 0);
    do {
        bool ok = true;
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < i; ++j) ok = ok && std::abs(t[at(i)] - t[at(j)]) != i - j;
        if (ok) out.push_back(t);
    } while (std::next_permutation(t.begin(), t.end()));
    return out;
}

// n + 1 pigeons in n holes at value strength: infeasible, and only search
// finds it out.
Built pigeons(int holes) {
    Built b;
    b.xs = b.s.int_vars(holes + 1, 0, holes - 1);
    b.s.post(propane::all_different(b.xs, propane::value));
    return b;
}

// Luby et al. 1993: t(i) = 2^(k-1) if i = 2^k - 1, else t(i - 2^(k-1) + 1)
// for 2^(k-1) <= i < 2^k - 1.
std::uint64_t luby_reference(std::uint64_t i) {
    int k = 1;
    while ((std::uint64_t{1} << k) - 1 < i) ++k;
    if ((std::uint64_t{1} << k) - 1 == i) return std::uint64_t{1} << (k - 1);
    return luby_reference(i - (std::uint64_t{1} << (k - 1)) + 1);
}

} // namespace

// ---- strategies -------------------------------------------------------------------

TEST_CASE("each built-in choice grows the tree of its reference chooser and finds the brute-force solutions") {
    constexpr unsigned models = 150;
    Tally tally;
    Problems problems;
    for (unsigned seed = 1; seed <= models; ++seed) {
        // Half search plain variables, half offset and affine views, where
        // min, max and the middle are the view's, not the variable's.
        if (seed % 4 < 2) check_choices<IntVar>(random_model(seed, true), seed, tally, problems);
        else check_choices<propane::AffineView>(random_model(seed, false), seed, tally, problems);
    }
    CHECK_MESSAGE(problems.list.empty(), problems.summary());
    for (std::size_t vc = 0; vc < 5; ++vc)
        for (std::size_t lc = 0; lc < 5; ++lc) {
            CAPTURE(std::string(to_string(var_choices[vc])));
            CAPTURE(std::string(to_string(val_choices[lc])));
            if (vc + lc > 0) CHECK(tally.differs[vc][lc]);
        }
    CHECK(tally.wdeg_learns > 0);
    CHECK(tally.wdeg_counts_from_start > 0);
    CHECK(tally.seeds_differ > 0);
    CHECK(tally.restarts > 0);
    MESSAGE(models << " random models, 25 strategies each, without and with Luby restarts (scale 1: "
                   << tally.restarts << " restarts in all)");
}

TEST_CASE("split_value branches x <= mid / x > mid: a balanced binary tree on 2^k values") {
    for (int k = 1; k <= 5; ++k) {
        CAPTURE(k);
        Store s;
        const auto x = s.int_vars(1, 0, (1 << k) - 1);
        std::vector<Tuple> ascending;
        for (int v = 0; v < 1 << k; ++v) ascending.push_back({v});
        const Run split = run_solve(s, x, propane::Strategy{.val = propane::split_value});
        CHECK(split.sols == ascending);
        CHECK(split.stats.max_depth == static_cast<std::uint64_t>(k));
        CHECK(split.stats.failures == 0);
        CHECK(split.stats.branches == 2 * (ascending.size() - 1));
        // x = v / x != v on the same domain: one open decision at a time.
        CHECK(run_solve(s, x, propane::Strategy{.val = propane::min_value}).stats.max_depth == 1);
    }
}

TEST_CASE("random_value draws from the whole domain: some seed picks each value first") {
    Store s;
    const auto x = s.int_vars(1, 0, 9);
    std::set<int> first;
    for (std::uint64_t seed = 0; seed < 200; ++seed) {
        propane::Search search(s, x, propane::Strategy{.val = propane::random_value, .seed = seed});
        REQUIRE(search.next());
        first.insert(search.solution()[0]);
    }
    CHECK(first == std::set<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
}

// ---- user choosers that break their contract ----------------------------------------

namespace {

// Answers like first_unbound / min_value for a few calls, so the bad answer
// comes with decisions open and levels to undo.
constexpr int good_calls = 3;

template <class Bad>
VarFn<IntVar> var_going_bad(Bad bad) {
    return [bad, calls = 0](const Store& s, std::span<const IntVar> vars) mutable {
        return calls++ < good_calls ? first_unfixed(s, vars) : bad(s, vars);
    };
}

template <class Bad>
DecisionValFn<IntVar> val_going_bad(Bad bad) {
    return [bad, calls = 0](const Store& s, const IntVar& x) mutable -> propane::Decision {
        if (calls++ < good_calls) return {propane::Branch::assign, x.min(s)};
        return bad(s, x);
    };
}

template <class VarSel, class ValSel>
void check_rejected(const propane::BasicStrategy<VarSel, ValSel>& bad) {
    for (const bool pushed : {false, true}) {
        CAPTURE(pushed);
        Queens m = queens(6, propane::bounds, pushed);
        const auto before = domains(m.store);
        const int level = m.store.level();
        {
            propane::Search search(m.store, m.q, bad);
            CHECK_THROWS_AS([&] { while (search.next()) {} }(), propane::model_error);
            CHECK(m.store.level() == level);
            CHECK(domains(m.store) == before);
            CHECK(search.stats().outcome == Outcome::stopped);
            CHECK_FALSE(search.next());
        }
        CHECK_THROWS_AS(propane::solve(m.store, m.q, bad, {}, [](const auto&) { return propane::next; }),
                        propane::model_error);
        CHECK(m.store.level() == level);
        CHECK(domains(m.store) == before);
        // The store still searches as a fresh one does.
        Queens fresh = queens(6, propane::bounds, pushed);
        const Run again = run_pull(m.store, m.q, guide), want = run_pull(fresh.store, fresh.q, guide);
        CHECK(again.sols == want.sols);
        CHECK(tree_diff(again.stats, want.stats) == "");
    }
}

} // namespace

TEST_CASE("a chooser that breaks its contract makes next() throw model_error, and the store is back at its root") {
    using propane::Branch;
    using propane::Decision;
    SUBCASE("variable chooser: a fixed view") {
        // Only once one is fixed, so that nothing else can be the fault.
        check_rejected(propane::strategy(var_going_bad([](const Store& s, auto vars) {
                                             for (std::size_t i = 0; i < vars.size(); ++i)
                                                 if (vars[i].fixed(s)) return static_cast<int>(i);
                                             return first_unfixed(s, vars);
                                         }),
                                         propane::min_value));
    }
    SUBCASE("variable chooser: past the end") {
        check_rejected(propane::strategy(
            var_going_bad([](const Store&, auto vars) { return static_cast<int>(vars.size()); }), propane::min_value));
    }
    SUBCASE("variable chooser: -1") {
        check_rejected(
            propane::strategy(var_going_bad([](const Store&, auto) { return -1; }), propane::min_value));
    }
    SUBCASE("value chooser returning an int below the domain") {
        check_rejected(propane::strategy(propane::first_unbound,
                                         IntValFn<IntVar>([calls = 0](const Store& s, const IntVar& x) mutable {
                                             return calls++ < good_calls ? x.min(s) : x.min(s) - 1;
                                         })));
    }
    SUBCASE("value chooser: x = a hole of the domain") {
        check_rejected(propane::strategy(propane::first_unbound, val_going_bad([](const Store& s, const auto& x) {
                                             int v = x.min(s) + 1;
                                             while (v < x.max(s) && x.contains(s, v)) ++v;
                                             return Decision{Branch::assign, v == x.max(s) ? v + 1 : v};
                                         })));
    }
    SUBCASE("value chooser: x <= max leaves the right side empty") {
        check_rejected(propane::strategy(propane::first_unbound, val_going_bad([](const Store& s, const auto& x) {
                                             return Decision{Branch::split, x.max(s)};
                                         })));
    }
    SUBCASE("value chooser: x <= min - 1 leaves the left side empty") {
        check_rejected(propane::strategy(propane::first_unbound, val_going_bad([](const Store& s, const auto& x) {
                                             return Decision{Branch::split, x.min(s) - 1};
                                         })));
    }
    SUBCASE("value chooser: a branch kind outside Branch, which was taken as a split") {
        check_rejected(propane::strategy(propane::first_unbound, val_going_bad([](const Store& s, const auto& x) {
                                             return Decision{static_cast<Branch>(3), x.min(s)};
                                         })));
    }
}

// ---- limits ----------------------------------------------------------------------

namespace {

// A search run unlimited, then under each kind of limit at several values,
// by solve() and by the pull API: both forms agree, a limited search
// follows the unlimited one's path (its solutions are a prefix), and the
// store is back at its root every time.
template <class VarSel, class ValSel>
void check_limits(const propane::BasicStrategy<VarSel, ValSel>& st) {
    Queens m = queens(8);
    Store& s = m.store;
    const auto before = domains(s);
    const Run full = run_solve(s, m.q, st);
    REQUIRE(full.stats.complete());
    const std::uint64_t sols = full.sols.size(), branches = full.stats.branches, failures = full.stats.failures;
    REQUIRE(sols >= 3);
    REQUIRE(failures >= 3);

    auto limited = [&](propane::Limits limits, const std::function<void(const SearchStats&)>& expect) {
        const Run a = run_solve(s, m.q, st, limits);
        CHECK(domains(s) == before);
        CHECK(s.level() == 0);
        const Run b = run_pull(s, m.q, st, limits);
        CHECK(domains(s) == before);
        CHECK(a.sols == b.sols);
        CHECK(tree_diff(a.stats, b.stats) == "");
        CHECK(is_prefix(a.sols, full.sols));
        CHECK(a.sols.size() == a.stats.solutions);
        if (a.stats.complete()) CHECK(tree_diff(a.stats, full.stats) == "");
        expect(a.stats);
    };
    for (const std::uint64_t k : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{2}, sols - 1, sols, sols + 1}) {
        CAPTURE(k);
        limited({.solutions = k}, [&](const SearchStats& r) {
            CHECK(r.solutions == std::min(k, sols));
            CHECK(r.outcome == (k <= sols ? Outcome::solution_limit : Outcome::complete));
            if (k == 0) CHECK(tree_diff(r, SearchStats{.outcome = Outcome::solution_limit}) == "");
        });
    }
    for (const std::uint64_t k : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{7}, branches / 2, branches - 1,
                                  branches, branches + 1}) {
        CAPTURE(k);
        limited({.branches = k}, [&](const SearchStats& r) {
            CHECK(r.branches == std::min(k, branches));
            CHECK(r.outcome == (k < branches ? Outcome::branch_limit : Outcome::complete));
        });
    }
    // A failure limit of 0 stops the search before it starts, as a solution
    // limit of 0 does: at most k failures, for every k.
    for (const std::uint64_t k : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{2}, failures / 2, failures - 1,
                                  failures, failures + 1}) {
        CAPTURE(k);
        limited({.failures = k}, [&](const SearchStats& r) {
            CHECK(r.failures == std::min(k, failures));
            CHECK(r.outcome == (k <= failures ? Outcome::failure_limit : Outcome::complete));
            if (k == 0) CHECK(tree_diff(r, SearchStats{.outcome = Outcome::failure_limit}) == "");
        });
    }
    // Limits that are not reached, the time limit included (which makes the
    // search read the clock), change nothing.
    limited({.solutions = sols + 1, .branches = branches + 1, .failures = failures + 1, .time = 1h},
            [&](const SearchStats& r) { CHECK(r.complete()); });

    const SearchStats stopped = propane::solve(s, m.q, st, {}, [n = 0](const auto&) mutable {
        return ++n == 2 ? propane::stop : propane::next;
    });
    CHECK(stopped.outcome == Outcome::stopped);
    CHECK(stopped.solutions == 2);
    CHECK(domains(s) == before);
}

} // namespace

TEST_CASE("limits on solutions, branches and failures, by solve() and by the pull API") {
    SUBCASE("first_unbound / min_value") { check_limits(guide); }
    SUBCASE("smallest_domain / split_value") {
        check_limits(propane::Strategy{.var = propane::smallest_domain, .val = propane::split_value});
    }
    SUBCASE("dom_wdeg / random_value with Luby restarts") {
        check_limits(
            propane::Strategy{propane::dom_wdeg, propane::random_value, 7, {propane::RestartPolicy::luby, 2}});
    }
    SUBCASE("a user chooser: the smallest maximum first") {
        auto max = [](const Store& s, const auto& x) { return x.max(s); };
        check_limits(propane::strategy(VarFn<IntVar>(best_view(max, std::less<>{})), propane::max_value));
    }
}

TEST_CASE("a time limit stops a search of many seconds soon after it runs out, at the root") {
    // Counting the solutions of 14 queens takes many seconds.
    Queens m = queens(14);
    const auto before = domains(m.store);
    constexpr auto limit = 200ms;
    for (const bool pull : {false, true}) {
        CAPTURE(pull);
        const auto t0 = std::chrono::steady_clock::now();
        const propane::Limits limits{.time = limit};
        const Run r = pull ? run_pull(m.store, m.q, guide, limits) : run_solve(m.store, m.q, guide, limits);
        const auto elapsed = std::chrono::steady_clock::now() - t0;
        CHECK(r.stats.outcome == Outcome::time_limit);
        CHECK(r.stats.solutions > 0);
        CHECK(r.stats.wall_time >= limit);
        CHECK(r.stats.wall_time < limit + 2s);
        CHECK(elapsed < limit + 2s);
        CHECK(domains(m.store) == before);
        CHECK(m.store.level() == 0);
    }
}

TEST_CASE("time spent by the caller between solutions does not count against the time limit") {
    Queens m = queens(14);
    constexpr int slow = 20; // solutions after which the caller sleeps 10 ms: twice the limit
    constexpr auto limit = 100ms;
    for (const bool pull : {false, true}) {
        CAPTURE(pull);
        std::uint64_t seen = 0;
        SearchStats st;
        if (pull) {
            propane::Search search(m.store, m.q, guide, {.time = limit});
            while (search.next())
                if (++seen <= slow) std::this_thread::sleep_for(10ms);
            st = search.stats();
        } else {
            st = propane::solve(m.store, m.q, guide, {.time = limit}, [&](const auto&) {
                if (++seen <= slow) std::this_thread::sleep_for(10ms);
            });
        }
        CHECK(st.outcome == Outcome::time_limit);
        CHECK(seen > slow);
        CHECK(st.wall_time >= limit);
    }
}

// ---- restarts ---------------------------------------------------------------------

TEST_CASE("detail::luby follows Luby's recursive definition") {
    Problems problems;
    for (std::uint64_t i = 1; i <= 5000; ++i)
        problems.expect(propane::detail::luby(i) == luby_reference(i), "luby(" + std::to_string(i) + ")");
    for (int k = 2; k < 62; ++k)
        for (const std::uint64_t i : {(std::uint64_t{1} << k) - 2, (std::uint64_t{1} << k) - 1, std::uint64_t{1} << k,
                                      (std::uint64_t{1} << k) + 5})
            problems.expect(propane::detail::luby(i) == luby_reference(i), "luby(" + std::to_string(i) + ")");
    CHECK_MESSAGE(problems.list.empty(), problems.summary());
}

TEST_CASE("run k of a restarting search fails its budget and then restarts") {
    // The failure count at each restart, seen by a chooser as the first
    // choice after stats().restarts grew.
    struct Log {
        const SearchStats* stats = nullptr;
        std::vector<std::uint64_t> failures_at;
    };
    auto check = [](propane::Restarts r, const std::function<std::uint64_t(std::uint64_t)>& budget) {
        Built p = pigeons(6);
        auto log = std::make_shared<Log>();
        const VarFn<IntVar> var = [log](const Store& s, std::span<const IntVar> vars) {
            while (log->failures_at.size() < log->stats->restarts) log->failures_at.push_back(log->stats->failures);
            return first_unfixed(s, vars);
        };
        propane::Search search(p.s, p.xs, propane::strategy(var, propane::min_value, 0, r));
        log->stats = &search.stats();
        CHECK_FALSE(search.next());
        const SearchStats& st = search.stats();
        CHECK(st.outcome == Outcome::complete);
        REQUIRE(st.restarts >= 5);
        REQUIRE(log->failures_at.size() == st.restarts);
        std::uint64_t sum = 0;
        for (std::uint64_t k = 0; k < st.restarts; ++k) {
            CAPTURE(k);
            sum += budget(k);
            CHECK(log->failures_at[static_cast<std::size_t>(k)] == sum);
        }
        CHECK(st.failures - sum <= budget(st.restarts)); // the last run ended the tree within its budget
    };
    SUBCASE("Luby, scale 3") {
        check({propane::RestartPolicy::luby, 3}, [](std::uint64_t k) { return 3 * luby_reference(k + 1); });
    }
    SUBCASE("linear, scale 2") {
        check({propane::RestartPolicy::linear, 2}, [](std::uint64_t k) { return 2 * (k + 1); });
    }
    SUBCASE("geometric, scale 2, growth 1.5") {
        // 2 * 1.5^k is exact in a double for these k: floor is the budget.
        check({propane::RestartPolicy::geometric, 2, 1.5}, [](std::uint64_t k) {
            double b = 2;
            for (std::uint64_t j = 0; j < k; ++j) b *= 1.5;
            return static_cast<std::uint64_t>(std::floor(b));
        });
    }
}

TEST_CASE("a restart due at the failure that ends the tree does not search on") {
    // Pigeonhole problems have no solution. A restart triggered by the
    // failure of the root's last right branch must not resume from that
    // failed state.
    Problems problems;
    for (int holes = 2; holes <= 4; ++holes)
        for (std::uint64_t scale = 1; scale <= 6; ++scale)
            for (const auto policy : {propane::RestartPolicy::luby, propane::RestartPolicy::geometric,
                                      propane::RestartPolicy::linear}) {
                Built p = pigeons(holes);
                const Run r = run_pull(p.s, p.xs, propane::Strategy{.restarts = {policy, scale, 2.0}},
                                       {.failures = 100000});
                problems.expect(r.sols.empty() && r.stats.complete(),
                                std::to_string(holes + 1) + " pigeons, " + std::string(to_string(policy)) + " scale " +
                                    std::to_string(scale) + ": " + std::to_string(r.sols.size()) + " solutions, " +
                                    std::string(to_string(r.stats.outcome)));
            }
    CHECK_MESSAGE(problems.list.empty(), problems.summary());
}

TEST_CASE("restarts end at the first solution, and counting with them finds every solution once") {
    const std::vector<Tuple> want = queens_solutions(8);
    for (const propane::Restarts r : {propane::Restarts{propane::RestartPolicy::luby, 1},
                                      propane::Restarts{propane::RestartPolicy::geometric, 1, 1.5},
                                      propane::Restarts{propane::RestartPolicy::linear, 1}}) {
        for (const propane::VarChoice vc : {propane::first_unbound, propane::dom_wdeg}) {
            CAPTURE(std::string(to_string(r.policy)));
            CAPTURE(std::string(to_string(vc)));
            Queens m = queens(8, propane::value);
            const auto before = domains(m.store);
            propane::Search search(m.store, m.q, propane::Strategy{vc, propane::random_value, 3, r});
            std::vector<Tuple> sols;
            std::uint64_t restarts_at_first = 0;
            while (search.next()) {
                if (sols.empty()) restarts_at_first = search.stats().restarts;
                sols.push_back(tuple_of(search.solution()));
            }
            CHECK(restarts_at_first > 0);
            CHECK(search.stats().restarts == restarts_at_first);
            CHECK(search.stats().complete());
            std::sort(sols.begin(), sols.end());
            CHECK(sols == want);
            CHECK(domains(m.store) == before);
        }
    }
}

TEST_CASE("restart settings that make no sense are rejected when the search is made") {
    Queens m = queens(5);
    const auto before = domains(m.store);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (const propane::Restarts r : {propane::Restarts{propane::RestartPolicy::luby, 0},
                                      propane::Restarts{propane::RestartPolicy::geometric, 0, 2.0},
                                      propane::Restarts{propane::RestartPolicy::geometric, 10, 1.0},
                                      propane::Restarts{propane::RestartPolicy::geometric, 10, 0.5},
                                      propane::Restarts{propane::RestartPolicy::geometric, 10, -3.0},
                                      propane::Restarts{propane::RestartPolicy::geometric, 10, nan},
                                      propane::Restarts{propane::RestartPolicy::linear, 0}}) {
        CAPTURE(std::string(to_string(r.policy)));
        CAPTURE(r.scale);
        CAPTURE(r.growth);
        const propane::Strategy st{.restarts = r};
        CHECK_THROWS_AS(propane::Search(m.store, m.q, st), propane::model_error);
        CHECK_THROWS_AS(propane::solve(m.store, m.q, st, [](const auto&) {}), propane::model_error);
        CHECK(domains(m.store) == before);
    }
    for (const propane::Restarts r : {propane::Restarts{propane::RestartPolicy::luby, 1},
                                      propane::Restarts{propane::RestartPolicy::geometric, 1, 1.01}})
        CHECK_NOTHROW(propane::Search(m.store, m.q, propane::Strategy{.restarts = r}));
}

// ---- the pull API -------------------------------------------------------------------

TEST_CASE("a search that has ended returns false from next(), and its statistics stay as they were") {
    struct Ending {
        const char* how;
        propane::Limits limits;
        std::uint64_t stop_after; // solutions, then stop(); 0: never
        Outcome outcome;
    };
    const Ending endings[] = {
        {"exhausted", {}, 0, Outcome::complete},
        {"no solution wanted", {.solutions = 0}, 0, Outcome::solution_limit},
        {"solution limit", {.solutions = 2}, 0, Outcome::solution_limit},
        {"branch limit", {.branches = 20}, 0, Outcome::branch_limit},
        {"failure limit", {.failures = 5}, 0, Outcome::failure_limit},
        {"stop()", {}, 1, Outcome::stopped},
    };
    Queens m = queens(6);
    const auto before = domains(m.store);
    for (const Ending& e : endings) {
        CAPTURE(std::string(e.how));
        propane::Search search(m.store, m.q, guide, e.limits);
        while (search.next())
            if (search.stats().solutions == e.stop_after) search.stop();
        const SearchStats end = search.stats();
        CHECK(end.outcome == e.outcome);
        // Another search moves the store's counters and clock meanwhile.
        run_pull(m.store, m.q, guide);
        for (int i = 0; i < 3; ++i) CHECK_FALSE(search.next());
        CHECK(tree_diff(search.stats(), end) == "");
        CHECK(search.stats().wall_time == end.wall_time);
        CHECK(domains(m.store) == before);
    }
}

TEST_CASE("a restarting search destroyed mid-way leaves the root, and the next one searches as on a fresh store") {
    const propane::Strategy st{propane::dom_wdeg, propane::random_value, 11, {propane::RestartPolicy::luby, 1}};
    Queens m = queens(8, propane::value);
    const auto before = domains(m.store);
    {
        propane::Search search(m.store, m.q, st);
        REQUIRE(search.next());
        REQUIRE(search.next());
        REQUIRE(search.stats().restarts > 0);
        CHECK(m.store.level() > 0);
    }
    CHECK(m.store.level() == 0);
    CHECK(domains(m.store) == before);
    // The first search's failures are in the store's counts; dom_wdeg must
    // learn from its own search only.
    Queens fresh = queens(8, propane::value);
    const Run again = run_pull(m.store, m.q, st), want = run_pull(fresh.store, fresh.q, st);
    CHECK(again.sols == want.sols);
    CHECK(tree_diff(again.stats, want.stats) == "");
}

TEST_CASE("progress() estimates the share of the tree explored") {
    SUBCASE("without constraints every leaf is 1/16 of two variables of four values, whatever the value choice") {
        for (const propane::ValChoice lc : val_choices) {
            CAPTURE(std::string(to_string(lc)));
            Store s;
            const auto xs = s.int_vars(2, 0, 3);
            propane::Search search(s, xs, propane::Strategy{.val = lc, .seed = 5});
            CHECK(search.progress() == 0.0);
            int k = 0;
            while (search.next()) {
                ++k;
                CHECK(search.progress() == doctest::Approx(k / 16.0));
            }
            CHECK(k == 16);
            CHECK(search.progress() == 1.0);
        }
    }
    SUBCASE("with failures: in [0, 1], never decreasing, 1 at the end; below 1 when a limit cuts the search") {
        Queens m = queens(8);
        propane::Search search(m.store, m.q, guide);
        double last = 0;
        while (search.next()) {
            CHECK(search.progress() >= last);
            CHECK(search.progress() <= 1.0);
            last = search.progress();
        }
        CHECK(search.stats().complete());
        CHECK(search.progress() == 1.0);

        propane::Search cut(m.store, m.q, guide, {.branches = 100});
        while (cut.next()) {}
        REQUIRE(cut.stats().outcome == Outcome::branch_limit);
        CHECK(cut.progress() > 0.0);
        CHECK(cut.progress() < 1.0);
    }
}

TEST_CASE("on_progress calls back between nodes with the search's current statistics") {
    Queens m = queens(8);
    const Run plain = run_pull(m.store, m.q, guide);

    propane::Search search(m.store, m.q, guide);
    const std::uint64_t props0 = m.store.propagations();
    int calls = 0;
    SearchStats last;
    double last_progress = 0;
    search.on_progress(
        [&](const auto& s) {
            ++calls;
            const SearchStats& st = s.stats();
            CHECK(st.outcome == Outcome::running);
            CHECK(st.branches >= last.branches);
            CHECK(st.solutions >= last.solutions);
            CHECK(st.wall_time >= last.wall_time);
            CHECK(st.propagations == m.store.propagations() - props0);
            CHECK(s.progress() >= last_progress);
            CHECK(s.progress() <= 1.0);
            last = st;
            last_progress = s.progress();
        },
        0ns);
    std::vector<Tuple> sols;
    while (search.next()) sols.push_back(tuple_of(search.solution()));
    CHECK(calls > 0);
    CHECK(last.branches <= search.stats().branches);
    // Reading the clock does not change the search.
    CHECK(sols == plain.sols);
    CHECK(tree_diff(search.stats(), plain.stats) == "");

    int rare = 0;
    propane::Search hourly(m.store, m.q, guide);
    hourly.on_progress([&](const auto&) { ++rare; }, 1h);
    while (hourly.next()) {}
    CHECK(rare == 0);
}

TEST_CASE("on_progress takes any callable; an empty std::function or a null pointer is no callback") {
    Queens m = queens(6);
    const Run plain = run_pull(m.store, m.q, guide);
    using S = propane::Search<decltype(m.store)>;
    const auto run = [&](auto&& callback) {
        S search(m.store, m.q, guide);
        search.on_progress(std::forward<decltype(callback)>(callback), 0ns);
        std::vector<Tuple> sols;
        while (search.next()) sols.push_back(tuple_of(search.solution()));
        CHECK(sols == plain.sols);
        CHECK(tree_diff(search.stats(), plain.stats) == "");
    };
    // Called, either would throw (std::bad_function_call) or crash.
    run(std::function<void(const S&)>{});
    run(static_cast<void (*)(const S&)>(nullptr));
    int calls = 0;
    run(std::function<void(const S&)>([&](const S&) { ++calls; }));
    CHECK(calls > 0);
    static int plain_calls = 0;
    plain_calls = 0;
    run(+[](const S&) { ++plain_calls; });
    CHECK(plain_calls > 0);
}

TEST_CASE("an exception from the progress callback leaves next() with the store at its root") {
    struct Boom {};
    Queens m = queens(6, propane::bounds, true);
    const auto before = domains(m.store);
    const int level = m.store.level();
    propane::Search search(m.store, m.q, guide);
    search.on_progress([](const auto& s) {
        if (s.stats().branches >= 3) throw Boom{};
    }, 0ns);
    CHECK_THROWS_AS([&] { while (search.next()) {} }(), Boom);
    CHECK(m.store.level() == level);
    CHECK(domains(m.store) == before);
    CHECK(search.stats().outcome == Outcome::stopped);
    CHECK_FALSE(search.next());
}
