// Large-neighbourhood search on threads (search/lns_threads.hpp) and its
// proving rounds (Lns::prove_every): one thread is the one-thread LNS run
// for run; a seed and a thread count give the same run every time; on
// random models every reported solution is one, each better than the last,
// and with proving rounds the run ends at the brute-force optimum, proven
// (or proves there is none); a neighbourhood of one's own is called on the
// calling thread, worker by worker; misuse is a model_error. In the
// ThreadSanitizer lane of .ci/run.

#include <doctest/doctest.h>

#include "jobshop_model.hpp"

#include <propane/constraints/all_different.hpp>
#include <propane/constraints/linear.hpp>
#include <propane/parallel.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <span>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

namespace {

using jobshop::Formulation;
using jobshop::Instance;
using JobShop = jobshop::Model<propane::BitDomain<2>>; // horizons up to 127

// A run's reported objective values and its statistics.
struct Trace {
    std::vector<int> values;
    propane::OptimizeStats st;
};

// LNS on a fresh job-shop model of `in`; threads 0: without a Parallel.
template <class... Neighbourhood>
Trace jobshop_run(const Instance& in, const propane::Lns& lns, const propane::Limits& limits, unsigned threads,
                  Neighbourhood&... neighbourhood) {
    JobShop m(in, Formulation::unary);
    Trace t;
    const auto record = [&](const auto& sol) {
        if (!t.values.empty()) CHECK(sol.value(m.makespan) < t.values.back());
        t.values.push_back(sol.value(m.makespan));
    };
    t.st = threads == 0 ? propane::minimize(m.store, m.branching, jobshop::strategy, limits, lns, neighbourhood...,
                                            m.makespan, record)
                        : propane::minimize(m.store, m.branching, jobshop::strategy, limits, lns,
                                            propane::Parallel{.threads = threads}, neighbourhood..., m.makespan,
                                            record);
    if (!t.values.empty()) CHECK(t.st.objective == t.values.back());
    CHECK(t.st.solutions == t.values.size());
    return t;
}

auto stats_of(const propane::OptimizeStats& st) {
    return std::tuple(st.outcome, st.objective, st.solutions, st.failures, st.branches, st.propagations,
                      st.restarts, st.max_depth);
}

// A neighbourhood that fixes the first views by round.random alone.
struct ByRandom {
    std::size_t fixable;
    void operator()(const propane::LnsRound& r, std::span<char> fix) const {
        for (std::size_t i = 0; i < std::min(fixable, fix.size()); ++i) fix[i] = (r.random >> (i % 64)) & 1 ? 1 : 0;
    }
};

// A random model, small enough to enumerate: integer variables, linear
// constraints, an all-different over a few of them, and a weighted sum as
// the objective.
struct Model {
    struct Linear {
        std::vector<int> a;
        propane::Rel rel;
        int c;
    };
    std::vector<std::pair<int, int>> ranges;
    std::vector<Linear> linears;
    std::vector<std::size_t> distinct;
    std::vector<int> weights;

    static int dot(const std::vector<int>& a, const std::vector<int>& x) {
        int s = 0;
        for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * x[i];
        return s;
    }
    bool satisfied(const std::vector<int>& x) const {
        for (const Linear& l : linears)
            if (l.rel == propane::Rel::le ? dot(l.a, x) > l.c : dot(l.a, x) < l.c) return false;
        for (std::size_t i = 0; i < distinct.size(); ++i)
            for (std::size_t j = i + 1; j < distinct.size(); ++j)
                if (x[distinct[i]] == x[distinct[j]]) return false;
        return true;
    }
    // The best objective value over all solutions, by enumeration.
    std::optional<int> optimum(propane::Sense sense) const {
        std::optional<int> best;
        std::vector<int> x;
        for (const auto& [lo, hi] : ranges) x.push_back(lo);
        for (;;) {
            if (satisfied(x)) {
                const int v = dot(weights, x);
                if (!best || (sense == propane::Sense::minimize ? v < *best : v > *best)) best = v;
            }
            std::size_t i = 0;
            while (i < x.size() && x[i] == ranges[i].second) {
                x[i] = ranges[i].first;
                ++i;
            }
            if (i == x.size()) return best;
            ++x[i];
        }
    }
};

Model random_model(std::uint64_t seed) {
    propane::detail::SplitMix64 rng{seed};
    const auto between = [&](int lo, int hi) {
        return lo + static_cast<int>(rng() % static_cast<std::uint64_t>(hi - lo + 1));
    };
    Model m;
    const int n = between(5, 7);
    std::vector<int> planted;
    for (int i = 0; i < n; ++i) {
        const int lo = between(-2, 0);
        m.ranges.emplace_back(lo, lo + between(2, 4));
        planted.push_back(between(lo, m.ranges.back().second));
    }
    for (int k = between(1, 3); k > 0; --k) {
        Model::Linear l;
        for (int i = 0; i < n; ++i) l.a.push_back(between(-2, 2));
        l.rel = between(0, 1) == 0 ? propane::Rel::le : propane::Rel::ge;
        // Mostly satisfied by the planted assignment, now and then not.
        const int slack = between(-1, 3);
        l.c = Model::dot(l.a, planted) + (l.rel == propane::Rel::le ? slack : -slack);
        m.linears.push_back(l);
    }
    for (int i = 0; i < n; ++i)
        if (between(0, 2) == 0) m.distinct.push_back(static_cast<std::size_t>(i));
    for (int i = 0; i < n; ++i) m.weights.push_back(between(-3, 3));
    return m;
}

struct Built {
    propane::Store<propane::BitDomain<1>> s;
    std::vector<propane::IntVar> x;
    propane::IntVar objective;
};

std::unique_ptr<Built> build(const Model& m) {
    auto b = std::make_unique<Built>();
    int lo = 0, hi = 0;
    for (std::size_t i = 0; i < m.ranges.size(); ++i) {
        b->x.push_back(b->s.int_var(m.ranges[i].first, m.ranges[i].second));
        const int w = m.weights[i];
        lo += std::min(w * m.ranges[i].first, w * m.ranges[i].second);
        hi += std::max(w * m.ranges[i].first, w * m.ranges[i].second);
    }
    for (const Model::Linear& l : m.linears) b->s.post(propane::linear(l.a, b->x, l.rel, l.c));
    if (m.distinct.size() > 1) {
        std::vector<propane::IntVar> d;
        for (std::size_t i : m.distinct) d.push_back(b->x[i]);
        b->s.post(propane::all_different(d));
    }
    b->objective = b->s.int_var(lo, hi);
    std::vector<int> a = m.weights;
    a.push_back(-1);
    std::vector<propane::IntVar> sum = b->x;
    sum.push_back(b->objective);
    b->s.post(propane::linear(a, sum, propane::Rel::eq, 0));
    return b;
}

constexpr propane::Sense senses[] = {propane::Sense::minimize, propane::Sense::maximize};

} // namespace

TEST_CASE("LNS on one thread through a Parallel is the one-thread LNS, run for run") {
    for (std::uint64_t seed = 0; seed < 6; ++seed) {
        const Instance in = jobshop::random_instance(5, 4, 6, seed);
        CAPTURE(seed);
        const std::size_t orders = JobShop(in, Formulation::unary).order.size();
        const propane::Lns lns{.relax = 0.5, .failures = 20, .seed = seed, .fixable = orders};
        const Trace a = jobshop_run(in, lns, {.failures = 3000}, 0);
        const Trace b = jobshop_run(in, lns, {.failures = 3000}, 1);
        REQUIRE(!a.values.empty());
        CHECK(a.values == b.values);
        CHECK(stats_of(a.st) == stats_of(b.st));

        // With proving rounds and no limit, and with a neighbourhood of one's own.
        propane::Lns proving = lns;
        proving.prove_every = 3;
        const Trace c = jobshop_run(in, proving, {}, 0);
        const Trace d = jobshop_run(in, proving, {}, 1);
        CHECK(c.st.complete());
        CHECK(c.values == d.values);
        CHECK(stats_of(c.st) == stats_of(d.st));
        ByRandom mine{orders};
        const Trace e = jobshop_run(in, lns, {.failures = 2000}, 0, mine);
        const Trace f = jobshop_run(in, lns, {.failures = 2000}, 1, mine);
        CHECK(e.values == f.values);
        CHECK(stats_of(e.st) == stats_of(f.st));
    }
}

TEST_CASE("LNS on 2, 3 and 4 threads: the same seed, the same run; the seed matters") {
    const Instance in = jobshop::random_instance(6, 4, 9, 11);
    const std::size_t orders = JobShop(in, Formulation::unary).order.size();
    const propane::Limits limits{.failures = 2500};
    for (unsigned threads = 2; threads <= 4; ++threads) {
        std::set<std::pair<std::vector<int>, std::uint64_t>> runs;
        for (std::uint64_t seed = 0; seed < 3; ++seed) {
            CAPTURE(threads);
            CAPTURE(seed);
            const propane::Lns lns{.relax = 0.4, .failures = 15, .seed = seed, .fixable = orders};
            const Trace a = jobshop_run(in, lns, limits, threads);
            const Trace b = jobshop_run(in, lns, limits, threads);
            REQUIRE(!a.values.empty());
            CHECK(a.values == b.values);
            CHECK(stats_of(a.st) == stats_of(b.st));
            CHECK(a.st.outcome == propane::Outcome::failure_limit);
            // Checked between rounds: each worker may spend a budget.
            CHECK(a.st.failures < limits.failures + threads * lns.failures);
            runs.insert({a.values, a.st.failures});
        }
        CHECK(runs.size() > 1);
    }
}

TEST_CASE("LNS on threads, on random models: real, improving solutions; with proving rounds the optimum, proven") {
    std::uint64_t infeasible = 0;
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
        const Model m = random_model(seed);
        for (const propane::Sense sense : senses) {
            const std::optional<int> want = m.optimum(sense);
            infeasible += want ? 0 : 1;
            for (unsigned threads = 1; threads <= 3; ++threads)
                for (const bool proving : {false, true}) {
                    CAPTURE(seed);
                    CAPTURE(threads);
                    CAPTURE(proving);
                    auto b = build(m);
                    const propane::Lns lns{
                        .relax = 0.5, .failures = 2, .seed = seed, .prove_every = proving ? 2U : 0U};
                    const propane::Limits limits = proving ? propane::Limits{} : propane::Limits{.failures = 200};
                    std::optional<int> last;
                    std::vector<int> x(m.ranges.size());
                    const auto check = [&](const auto& sol) {
                        for (std::size_t i = 0; i < x.size(); ++i) x[i] = sol.value(b->x[i]);
                        CHECK(m.satisfied(x));
                        const int v = sol.value(b->objective);
                        CHECK(v == Model::dot(m.weights, x));
                        if (last) CHECK((sense == propane::Sense::minimize ? v < *last : v > *last));
                        last = v;
                    };
                    const propane::Parallel parallel{.threads = threads};
                    const propane::OptimizeStats st =
                        sense == propane::Sense::minimize
                            ? propane::minimize(b->s, b->x, propane::Strategy{}, limits, lns, parallel, b->objective,
                                                check)
                            : propane::maximize(b->s, b->x, propane::Strategy{}, limits, lns, parallel, b->objective,
                                                check);
                    CHECK(st.objective == last);
                    CHECK(b->s.level() == 0);
                    if (proving || st.complete()) {
                        CHECK(st.complete());
                        CHECK(st.objective == want);
                    }
                }
        }
    }
    // Both kinds of model come up.
    CHECK(infeasible > 0);
    CHECK(infeasible < 100);
}

TEST_CASE("LNS on threads with a neighbourhood of one's own: called on the calling thread, worker by worker") {
    const Instance in = jobshop::random_instance(5, 4, 6, 3);
    const std::size_t orders = JobShop(in, Formulation::unary).order.size();
    for (unsigned threads = 2; threads <= 4; ++threads)
        for (const std::uint64_t prove_every : {0U, 3U}) {
            CAPTURE(threads);
            CAPTURE(prove_every);
            JobShop m(in, Formulation::unary);
            const std::thread::id caller = std::this_thread::get_id();
            std::vector<std::pair<std::uint64_t, std::size_t>> calls; // (round, worker)
            std::vector<int> incumbent;
            std::size_t wrong_best = 0;
            ByRandom share{orders};
            const auto mine = [&](const propane::LnsRound& r, std::span<char> fix) {
                CHECK(std::this_thread::get_id() == caller);
                if (!std::equal(r.best.begin(), r.best.end(), incumbent.begin(), incumbent.end())) ++wrong_best;
                calls.emplace_back(r.round, r.worker);
                share(r, fix);
            };
            const propane::OptimizeStats st = propane::minimize(
                m.store, m.branching, jobshop::strategy, propane::Limits{.failures = 1500},
                propane::Lns{.failures = 10, .seed = 5, .prove_every = prove_every},
                propane::Parallel{.threads = threads}, mine, m.makespan, [&](const auto& sol) {
                    CHECK(std::this_thread::get_id() == caller);
                    incumbent.clear();
                    for (const propane::IntVar& v : m.branching) incumbent.push_back(sol.value(v));
                });
            CHECK(wrong_best == 0);
            REQUIRE(!calls.empty());
            // Round by round, workers 0 to threads - 1, but for worker 0 in a proving round.
            std::uint64_t round = 0;
            std::size_t k = 0, proving_rounds = 0;
            while (k < calls.size()) {
                const bool proving = prove_every > 0 && (round + 1) % prove_every == 0;
                proving_rounds += proving ? 1 : 0;
                for (std::size_t w = proving ? 1 : 0; w < threads && k < calls.size(); ++w, ++k)
                    CHECK(calls[k] == std::pair{round, w});
                ++round;
            }
            CHECK(st.restarts == calls.size() + proving_rounds);
            CHECK(st.restarts == round * threads);
        }
}

TEST_CASE("LNS on threads: model errors, and the store left as it was") {
    const Instance in = jobshop::random_instance(3, 3, 9, 1);
    JobShop m(in, Formulation::unary);
    const auto lns = [&](propane::Lns l, propane::Limits limits) {
        return propane::minimize(m.store, m.branching, jobshop::strategy, limits, l, propane::Parallel{.threads = 2},
                                 m.makespan);
    };
    CHECK_THROWS_WITH_AS(lns({.relax = 0.0}, {.failures = 10}), doctest::Contains("Lns: relax is 0"), propane::model_error);
    CHECK_THROWS_WITH_AS(lns({.failures = 0}, {.failures = 10}), doctest::Contains("failure budget of at least 1"),
                         propane::model_error);
    CHECK_THROWS_WITH_AS(lns({}, {}), doctest::Contains("or prove_every > 0"), propane::model_error);
    CHECK(lns({.prove_every = 1}, {}).complete());
    // A visitor that starts a search on the store while the LNS holds it.
    CHECK_THROWS_AS(propane::minimize(m.store, m.branching, jobshop::strategy, {.failures = 100}, propane::Lns{},
                                      propane::Parallel{.threads = 2}, m.makespan,
                                      [&](const auto&) { (void)propane::minimize(m.store, m.branching, jobshop::strategy, m.makespan); }),
                    propane::model_error);
    CHECK(m.store.level() == 0);
    CHECK(propane::minimize(m.store, m.branching, jobshop::strategy, m.makespan).complete());
}
