// Branch and bound (minimize, maximize, Search with an objective) against
// brute force, and its edges: limits, a visitor's stop, infeasible models,
// fixed objectives, the pull form, restarts, misuse.
//
// The random models have 3..5 variables with small domains (holes, negative
// values), AllDifferent constraints over x, x + c and a*x + b views at each
// strength, and now and then u <= w through a propagator written here. The
// objective is a random view of one variable. Every assignment is
// enumerated to find the true optimum; each search under every strategy
// must report it as proven, through a strictly improving sequence of real
// solutions, and leave the store as it found it.
//
// PROPANE_MODEL_SEEDS=<count> runs seeds 1..count, <first>..<last> those
// (as in test_models.cpp); by default seeds 1..300.

#include <doctest/doctest.h>

#include <propane/constraints/all_different.hpp>
#include <propane/engine/propagator.hpp>
#include <propane/engine/store.hpp>
#include <propane/engine/view.hpp>
#include <propane/search/optimize.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "instances.hpp"
#include "whole_models.hpp"

namespace {

using propane::AffineView;
using propane::Change;
using propane::IntVar;
using Store = propane::Store<propane::BitDomain<1>>;

class Rng {
public:
    explicit Rng(std::uint64_t seed) : state_(seed * 0x2545F4914F6CDD1DULL + 1) {}
    int between(int lo, int hi) {
        state_ ^= state_ << 13;
        state_ ^= state_ >> 7;
        state_ ^= state_ << 17;
        return lo + static_cast<int>(state_ % static_cast<std::uint64_t>(hi - lo + 1));
    }

private:
    std::uint64_t state_; // xorshift64: never 0 from the seeding above
};

// u <= w on bounds: enough to interact with the objective's bound, and a
// constraint no library header provides.
class LessEqual : public propane::PropagatorBase<Store, LessEqual> {
public:
    LessEqual(AffineView u, AffineView w) : u_(u), w_(w) {}
    // Its own updates do not wake it, and u and w may be views of one
    // variable, so it runs to its fixpoint itself.
    propane::PropStatus propagate(Store& s) override {
        for (;;) {
            const Change a = u_.remove_above(s, w_.max(s));
            const Change b = a == Change::failed ? a : w_.remove_below(s, u_.min(s));
            if (b == Change::failed) return propane::PropStatus::failed;
            if (a == Change::none && b == Change::none) return propane::PropStatus::fix;
        }
    }

private:
    AffineView u_, w_;
};

struct Term { // a * x[var] + b
    int var, a, b;
    int of(const std::vector<int>& x) const { return a * x[static_cast<std::size_t>(var)] + b; }
};

enum class ObjKind { var, offset, affine };

struct Model {
    std::vector<std::vector<int>> values; // each variable's domain
    std::vector<std::vector<Term>> distinct;
    std::vector<propane::Consistency> strength;
    std::vector<std::pair<Term, Term>> less_equal;
    ObjKind kind = ObjKind::var;
    Term objective{0, 1, 0};

    std::size_t n() const { return values.size(); }

    bool satisfied(const std::vector<int>& x) const {
        for (const auto& terms : distinct)
            for (std::size_t i = 0; i < terms.size(); ++i)
                for (std::size_t j = i + 1; j < terms.size(); ++j)
                    if (terms[i].of(x) == terms[j].of(x)) return false;
        for (const auto& [u, w] : less_equal)
            if (u.of(x) > w.of(x)) return false;
        return true;
    }

    // The least and greatest objective value over all solutions.
    std::optional<std::pair<int, int>> optimum() const {
        std::optional<std::pair<int, int>> best;
        std::vector<std::size_t> at(n(), 0);
        std::vector<int> x(n());
        for (;;) {
            for (std::size_t i = 0; i < n(); ++i) x[i] = values[i][at[i]];
            if (satisfied(x)) {
                const int v = objective.of(x);
                if (!best) best = std::pair{v, v};
                best->first = std::min(best->first, v);
                best->second = std::max(best->second, v);
            }
            std::size_t i = 0;
            while (i < n() && ++at[i] == values[i].size()) at[i++] = 0;
            if (i == n()) return best;
        }
    }

    std::string describe() const {
        std::ostringstream o;
        for (std::size_t i = 0; i < n(); ++i) {
            o << "x" << i << " in {";
            for (int v : values[i]) o << ' ' << v;
            o << " }\n";
        }
        auto term = [&](const Term& t) { o << t.a << "*x" << t.var << "+" << t.b << ' '; };
        for (std::size_t c = 0; c < distinct.size(); ++c) {
            o << "all_different(" << propane::to_string(strength[c]) << ") ";
            for (const Term& t : distinct[c]) term(t);
            o << '\n';
        }
        for (const auto& [u, w] : less_equal) {
            term(u);
            o << "<= ";
            term(w);
            o << '\n';
        }
        o << "objective ";
        term(objective);
        o << '\n';
        return o.str();
    }
};

Term random_term(Rng& r, int n) {
    static constexpr int scales[] = {1, -1, 2, -2, 3};
    return {r.between(0, n - 1), scales[r.between(0, 4)], r.between(-3, 3)};
}

// n variables, each of up to `width` values; AllDifferent over at most
// `terms` views.
Model random_model(std::uint64_t seed, int min_n = 3, int max_n = 5, int width = 6, int terms = 5) {
    Rng r(seed);
    Model m;
    const int n = r.between(min_n, max_n);
    for (int i = 0; i < n; ++i) {
        const int lo = r.between(-4, 2), hi = lo + r.between(0, width - 1);
        std::vector<int> vs;
        for (int v = lo; v <= hi; ++v)
            if (v == lo || r.between(0, 3) > 0) vs.push_back(v);
        m.values.push_back(vs);
    }
    for (int c = r.between(1, 3); c > 0; --c) {
        std::vector<Term> views;
        for (int k = r.between(2, std::min(n, terms)); k > 0; --k) views.push_back(random_term(r, n));
        m.distinct.push_back(views);
        m.strength.push_back(static_cast<propane::Consistency>(r.between(0, 2)));
    }
    for (int c = r.between(-1, 1); c > 0; --c) m.less_equal.emplace_back(random_term(r, n), random_term(r, n));
    m.kind = static_cast<ObjKind>(r.between(0, 2));
    m.objective = random_term(r, n);
    if (m.kind == ObjKind::var) m.objective = {m.objective.var, 1, 0};
    if (m.kind == ObjKind::offset) m.objective.a = 1;
    return m;
}

struct Built {
    Store s;
    std::vector<IntVar> x;
    bool ok = true; // no update failed while building
};

std::unique_ptr<Built> build(const Model& m) {
    auto b = std::make_unique<Built>();
    for (const auto& vs : m.values) {
        const IntVar v = b->s.int_var(vs.front(), vs.back());
        for (int k = vs.front(); k <= vs.back(); ++k)
            if (std::find(vs.begin(), vs.end(), k) == vs.end()) b->ok &= b->s.remove(v, k) != Change::failed;
        b->x.push_back(v);
    }
    auto view = [&](const Term& t) { return AffineView(b->x[static_cast<std::size_t>(t.var)], t.a, t.b); };
    for (std::size_t c = 0; c < m.distinct.size(); ++c) {
        std::vector<AffineView> views;
        for (const Term& t : m.distinct[c]) views.push_back(view(t));
        b->s.post(propane::all_different(views, m.strength[c]));
    }
    for (const auto& [u, w] : m.less_equal) {
        const int id = b->s.add_propagator(std::make_unique<LessEqual>(view(u), view(w)));
        for (const Term& t : {u, w}) b->s.subscribe(b->x[static_cast<std::size_t>(t.var)], id, propane::Event::bounds);
    }
    return b;
}

std::vector<std::vector<int>> snapshot(const Store& s) {
    std::vector<std::vector<int>> out;
    for (int v = 0; v < s.num_vars(); ++v) {
        out.emplace_back();
        s.domain(v).for_each([&](int k) { out.back().push_back(k); });
    }
    return out;
}

// Runs one search and checks it; "" when all is well, else what went wrong.
template <class V>
std::string check_search(const Model& m, Built& b, const V& objective, propane::Sense sense,
                         const propane::Strategy& strategy, std::optional<std::int64_t> want) {
    std::ostringstream why;
    const auto before = snapshot(b.s);
    std::optional<std::int64_t> last;
    std::vector<int> x(m.n());
    auto visitor = [&](const auto& sol) {
        for (std::size_t i = 0; i < m.n(); ++i) x[i] = sol[i];
        const int v = sol.value(objective);
        if (!m.satisfied(x)) why << "visited a non-solution\n";
        if (v != m.objective.of(x)) why << "objective view reads " << v << ", want " << m.objective.of(x) << '\n';
        if (last && (sense == propane::Sense::minimize ? v >= *last : v <= *last))
            why << "solution " << v << " does not improve on " << *last << '\n';
        last = v;
    };
    const propane::OptimizeStats st = sense == propane::Sense::minimize
                                          ? propane::minimize(b.s, b.x, strategy, objective, visitor)
                                          : propane::maximize(b.s, b.x, strategy, objective, visitor);
    if (!st.complete()) why << "not complete: " << propane::to_string(st.outcome) << '\n';
    if (st.objective != want)
        why << "objective " << (st.objective ? std::to_string(*st.objective) : "none") << ", want "
            << (want ? std::to_string(*want) : "none") << '\n';
    if (last != want) why << "the last solution visited is not the optimum\n";
    if (snapshot(b.s) != before) why << "the store was not restored\n";
    return why.str();
}

std::string check_model(const Model& m, const propane::Strategy& strategy) {
    auto b = build(m);
    if (!b->ok) return "a domain update failed while building\n";
    const auto opt = m.optimum();
    const IntVar x = b->x[static_cast<std::size_t>(m.objective.var)];
    std::string why;
    for (const propane::Sense sense : {propane::Sense::minimize, propane::Sense::maximize}) {
        std::optional<std::int64_t> want;
        if (opt) want = sense == propane::Sense::minimize ? opt->first : opt->second;
        switch (m.kind) {
        case ObjKind::var: why += check_search(m, *b, x, sense, strategy, want); break;
        case ObjKind::offset: why += check_search(m, *b, x + m.objective.b, sense, strategy, want); break;
        case ObjKind::affine:
            why += check_search(m, *b, m.objective.a * x + m.objective.b, sense, strategy, want);
            break;
        }
    }
    return why;
}

// PROPANE_MODEL_SEEDS as test_models.cpp reads it; false if malformed.
bool seeds_from_env(std::uint64_t& first, std::uint64_t& last) {
    const char* env = std::getenv("PROPANE_MODEL_SEEDS");
    if (env == nullptr) return true;
    const std::string_view text = env;
    auto parse = [](std::string_view t, std::uint64_t& out) {
        const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), out);
        return ec == std::errc{} && end == t.data() + t.size();
    };
    const auto dots = text.find("..");
    if (dots == std::string_view::npos) {
        first = 1;
        return parse(text, last) && last >= 1;
    }
    return parse(text.substr(0, dots), first) && parse(text.substr(dots + 2), last) && first <= last;
}

constexpr propane::VarChoice var_choices[] = {propane::first_unbound, propane::smallest_domain,
                                              propane::largest_domain, propane::smallest_min, propane::dom_wdeg};
constexpr propane::ValChoice val_choices[] = {propane::min_value, propane::max_value, propane::middle_value,
                                              propane::split_value, propane::random_value};

// An objective fixed as late as possible: x in 0..20, minimized while the
// search tries the largest value first, improves by one per solution.
struct Countdown {
    Store s;
    IntVar x = s.int_var(0, 20);
    std::vector<IntVar> vars{x};
    propane::Strategy strategy{.var = propane::first_unbound, .val = propane::max_value};
};

} // namespace

constexpr std::array<propane::RestartPolicy, 3> restart_policies{
    propane::RestartPolicy::luby, propane::RestartPolicy::geometric, propane::RestartPolicy::linear};

TEST_CASE("random models: minimize and maximize find the brute-force optimum under every strategy") {
    std::uint64_t first = 1, last = 300;
    REQUIRE_MESSAGE(seeds_from_env(first, last), "PROPANE_MODEL_SEEDS: want a count or first..last");
    std::uint64_t bad = 0, infeasible = 0;
    for (std::uint64_t seed = first; seed <= last; ++seed) {
        const Model m = random_model(seed);
        infeasible += m.optimum() ? 0 : 1;
        for (const auto var : var_choices)
            for (const auto val : val_choices) {
                propane::Strategy strategy{.var = var, .val = val, .seed = seed};
                if (seed % 3 == 0) strategy.restarts = {restart_policies[(seed / 3) % restart_policies.size()], 1, 1.5};
                const std::string why = check_model(m, strategy);
                if (why.empty() || ++bad > 3) continue;
                // Streamed here: doctest would print the chars as numbers.
                std::ostringstream o;
                o << "seed " << seed << " (PROPANE_MODEL_SEEDS=" << seed << ".." << seed << "), strategy "
                  << propane::to_string(var) << '/' << propane::to_string(val)
                  << (seed % 3 == 0 ? " with restarts" : "") << ":\n"
                  << why << m.describe();
                FAIL_CHECK(o.str());
            }
    }
    CHECK(bad == 0);
    MESSAGE("seeds " << first << ".." << last << ", " << infeasible << " models without a solution");
}

// Paths deeper than the distance at which a new bound is tested above the
// node being resumed (search.hpp's probe), so that the test happens at
// ancestors in the middle of the path and the decisions below are taken
// again, the right branches among them.
TEST_CASE("deeper random models: testing the bound at an ancestor loses no optimum") {
    std::uint64_t bad = 0, infeasible = 0, models = 0;
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
        const Model m = random_model(seed, 9, 12, 3, 3);
        ++models;
        infeasible += m.optimum() ? 0 : 1;
        for (const auto var : var_choices)
            for (const auto val : val_choices) {
                const std::string why = check_model(m, {.var = var, .val = val, .seed = seed});
                if (why.empty() || ++bad > 3) continue;
                std::ostringstream o;
                o << "seed " << seed << ", strategy " << propane::to_string(var) << '/' << propane::to_string(val)
                  << ":\n"
                  << why << m.describe();
                FAIL_CHECK(o.str());
            }
    }
    CHECK(bad == 0);
    // Models without a solution test nothing here.
    CHECK(infeasible * 2 < models);
}

TEST_CASE("a better bound drops the pending branches it refutes at once, not one by one") {
    // x0..x5 in 0..1, x0 minimized, the largest value first. The first
    // solution is all ones, six levels down; the bound x0 < 1 refutes
    // the whole subtree under x0 = 1. Resumed at the deepest open branch,
    // the right branches x5 = 0 .. x1 = 0 would each fail in turn (5
    // failures) before x0 = 0; the second solution, five levels down
    // again, would be followed by 5 more. Tested at the root, each bound
    // fails once.
    Store s;
    const auto x = s.int_vars(6, 0, 1);
    const auto st = propane::minimize(s, x, {.var = propane::first_unbound, .val = propane::max_value}, x[0]);
    CHECK(st.complete());
    CHECK(st.objective == 0);
    CHECK(st.solutions == 2);
    CHECK(st.failures == 2);
}

TEST_CASE("a branch limit reports the best so far, not proven") {
    Countdown c;
    std::vector<int> seen;
    const auto st = propane::minimize(c.s, c.vars, c.strategy, propane::Limits{.branches = 5}, c.x,
                                      [&](const auto& sol) { seen.push_back(sol[0]); });
    CHECK(seen == std::vector<int>{20, 19, 18});
    CHECK_FALSE(st.complete());
    CHECK(st.outcome == propane::Outcome::branch_limit);
    CHECK(st.objective == 18);
    CHECK(c.s.domain(c.x).size() == 21);
}

TEST_CASE("Limits::solutions counts improving solutions") {
    Countdown c;
    const auto st = propane::minimize(c.s, c.vars, c.strategy, propane::Limits{.solutions = 4}, c.x);
    CHECK(st.solutions == 4);
    CHECK(st.objective == 17);
    CHECK(st.outcome == propane::Outcome::solution_limit);
}

TEST_CASE("the visitor may stop the search") {
    Countdown c;
    int calls = 0;
    const auto st = propane::maximize(c.s, c.vars, {.val = propane::min_value}, c.x - 3, [&](const auto& sol) {
        CHECK(sol.value(c.x - 3) == calls - 3);
        return ++calls == 2 ? propane::stop : propane::next;
    });
    CHECK(calls == 2);
    CHECK(st.objective == -2);
    CHECK(st.outcome == propane::Outcome::stopped);
    CHECK_FALSE(st.complete());
}

TEST_CASE("without limits the countdown ends proven at the optimum") {
    Countdown c;
    const auto st = propane::minimize(c.s, c.vars, c.strategy, c.x);
    CHECK(st.complete());
    CHECK(st.objective == 0);
    CHECK(st.solutions == 21);
    // The right branch x != 1 leaves x = 0, a solution with nothing
    // below it: 20 left and 20 right branches, no failure.
    CHECK(st.branches == 40);
    CHECK(st.failures == 0);
}

TEST_CASE("an infeasible model: no objective, and complete") {
    Store s;
    const auto x = s.int_vars(3, 0, 1);
    s.post(propane::all_different(x, propane::domain));
    const auto st = propane::maximize(s, x, {}, propane::Limits{}, 2 * x[0] - 1);
    CHECK(st.complete());
    CHECK_FALSE(st.objective.has_value());
    CHECK(st.solutions == 0);
}

TEST_CASE("an objective fixed at the root") {
    Store s;
    const IntVar c = s.int_var(7, 7);
    const auto x = s.int_vars(2, 0, 3);
    std::vector<IntVar> vars{x[0], x[1], c};
    s.post(propane::all_different(vars, propane::value));
    int calls = 0;
    const auto st = propane::minimize(s, vars, {}, -c, [&](const auto&) { ++calls; });
    CHECK(calls == 1);
    CHECK(st.objective == -7);
    CHECK(st.complete());
}

TEST_CASE("the extreme objective value INT_MIN ends the search without overflow") {
    Store s;
    const IntVar x = s.int_var(INT_MIN, INT_MIN + 3);
    const std::vector<IntVar> vars{x};
    const auto st = propane::minimize(s, vars, {.val = propane::max_value}, x);
    CHECK(st.complete());
    CHECK(st.objective == std::int64_t{INT_MIN});
    CHECK(st.solutions == 4);
}

TEST_CASE("pull form: Search with minimizing() or maximizing()") {
    Countdown c;
    propane::Search search(c.s, c.vars, c.strategy, propane::Limits{}, propane::minimizing(c.x + 1));
    CHECK_FALSE(search.objective().has_value());
    std::int64_t last = 100;
    while (search.next()) {
        CHECK(*search.objective() < last);
        last = *search.objective();
        CHECK(search.solution().value(c.x + 1) == last);
    }
    CHECK(search.stats().complete());
    CHECK(search.objective() == 1);

    propane::Search up(c.s, c.vars, propane::Strategy{}, propane::maximizing(-2 * c.x));
    int solutions = 0;
    while (up.next()) ++solutions;
    CHECK(solutions == 1); // min_value finds the maximum first
    CHECK(up.objective() == 0);
    CHECK(up.stats().complete());
}

TEST_CASE("the store is back at its root state, without the bound") {
    Countdown c;
    const auto before = snapshot(c.s);
    const auto st = propane::minimize(c.s, c.vars, c.strategy, c.x, [](const auto&) {});
    CHECK(st.objective == 0);
    CHECK(snapshot(c.s) == before);
    // The same store still has all 21 solutions.
    CHECK(propane::solve(c.s, c.vars, c.strategy, [](const auto&) {}).solutions == 21);
}

TEST_CASE("an objective of another store is refused") {
    Countdown c;
    Store other;
    const IntVar y = other.int_var(0, 3);
    CHECK_THROWS_AS(propane::minimize(c.s, c.vars, c.strategy, y), propane::model_error);
    CHECK_THROWS_AS(propane::Search(c.s, c.vars, c.strategy, propane::maximizing(y + 1)), propane::model_error);
    // Nothing stays registered: the store can be searched.
    CHECK(propane::minimize(c.s, c.vars, c.strategy, c.x).objective == 0);
}

TEST_CASE("an objective the views leave open is decided after them, even with assign_all = false") {
    Store s;
    const IntVar x = s.int_var(0, 3), y = s.int_var(1, 3);
    const std::vector<IntVar> vars{x};
    const auto before = snapshot(s);
    for (const bool all : {true, false}) {
        CAPTURE(all);
        const propane::Strategy st{.assign_all = all};
        std::vector<int> ys;
        const auto low = propane::minimize(s, vars, st, y, [&](const auto& sol) { ys.push_back(sol.value(y)); });
        CHECK(low.objective == 1);
        CHECK(ys == std::vector{1});
        CHECK(low.complete());
        const auto high = propane::maximize(s, vars, st, y + 10);
        CHECK(high.objective == 13);
        // Whole or not, x has a value at each solution; y is the objective.
        CHECK(high.solutions == 3);
        CHECK(snapshot(s) == before);
    }
}

TEST_CASE("random models with variables outside the views: the optimum of the whole solutions") {
    for (unsigned seed = 1; seed <= 120; ++seed) {
        const whole_models::Model m = whole_models::random_model(seed, seed % 2 == 0);
        CAPTURE(m.text());
        const auto whole = whole_models::brute_force(m);
        const int goal = static_cast<int>(seed % static_cast<unsigned>(m.n)); // any variable, in the views or not
        CAPTURE(goal);
        std::optional<int> lo, hi;
        for (const auto& a : whole) {
            const int v = a[static_cast<std::size_t>(goal)];
            lo = lo ? std::min(*lo, v) : v;
            hi = hi ? std::max(*hi, v) : v;
        }
        Store s;
        const auto xs = whole_models::build(s, m);
        const auto views = whole_models::views_of(m, xs);
        const IntVar cost = xs[static_cast<std::size_t>(goal)];
        bool whole_solutions = true;
        const auto check_whole = [&](const auto& sol) {
            const auto a = whole_models::read_all(sol.store());
            whole_solutions &= std::find(whole.begin(), whole.end(), a) != whole.end();
        };
        const propane::OptimizeStats a = propane::minimize(s, views, {}, cost, check_whole);
        CHECK(a.complete());
        CHECK(a.objective == lo);
        const propane::OptimizeStats b = propane::maximize(s, views, {}, {}, cost, check_whole);
        CHECK(b.objective == hi);
        CHECK(whole_solutions);
        // Without views: every variable, in creation order.
        const propane::OptimizeStats c = propane::minimize(s, propane::Strategy{}, cost, check_whole);
        CHECK(c.objective == lo);
        CHECK(propane::maximize(s, propane::Strategy{.var = propane::smallest_domain}, {}, cost).objective == hi);
        propane::Search pull(s, propane::Strategy{}, propane::maximizing(cost));
        std::optional<int> last;
        while (pull.next()) last = pull.solution().value(cost);
        CHECK(last == hi);
        CHECK(whole_solutions);
    }
}

TEST_CASE("restarts go on after solutions, and the bound holds across them") {
    Store s;
    const auto q = s.int_vars(8, 0, 7);
    std::vector<propane::OffsetView> up, down;
    for (int i = 0; i < 8; ++i) {
        up.push_back(q[static_cast<std::size_t>(i)] + i);
        down.push_back(q[static_cast<std::size_t>(i)] - i);
    }
    s.post(propane::all_different(q, propane::bounds));
    s.post(propane::all_different(up, propane::bounds));
    s.post(propane::all_different(down, propane::bounds));
    const AffineView cost = -3 * q[2] + 4;
    int best = INT_MAX;
    propane::solve(s, q, {}, [&](const auto& sol) { best = std::min(best, sol.value(cost)); });

    const propane::Strategy strategy{.var = propane::first_unbound,
                                     .val = propane::random_value,
                                     .seed = 5,
                                     .restarts = {propane::RestartPolicy::luby, 1, 1.5}};
    std::vector<int> seen;
    const auto st = propane::minimize(s, q, strategy, cost, [&](const auto& sol) {
        CHECK((seen.empty() || sol.value(cost) < seen.back()));
        seen.push_back(sol.value(cost));
    });
    CHECK(st.complete());
    CHECK(st.objective == best);
    CHECK(st.restarts > 0);
    CHECK(seen.size() > 1);
}
