// Large-neighbourhood search (search/lns.hpp), on the job-shop model of
// examples/jobshop_model.hpp: every schedule it reports is one, each better
// than the last; the same seed and count limits give the same run; with
// everything relaxed it proves the optimum that branch and bound proves;
// a neighbourhood of one's own decides what is fixed; the store is left
// as it was; misuse is a model_error.

#include <doctest/doctest.h>

#include "jobshop_model.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace {

using jobshop::Formulation;
using jobshop::Instance;
using Model = jobshop::Model<propane::BitDomain<2>>; // horizons up to 127

struct Run {
    std::vector<int> makespans;
    propane::OptimizeStats st;
};

// One LNS run on a fresh model of `in`, each schedule it reports checked.
Run lns_run(const Instance& in, const propane::Lns& lns, const propane::Limits& limits) {
    Model m(in, Formulation::unary);
    Run r;
    r.st = propane::minimize(m.store, m.branching, jobshop::strategy, limits, lns, m.makespan, [&](const auto& sol) {
        // A schedule: each job in order, no two operations of a machine
        // overlapping, ending at the makespan.
        int end = 0;
        for (int j = 0; j < in.jobs; ++j)
            for (int k = 0; k < in.machines; ++k) {
                const auto& op = in.ops[static_cast<std::size_t>(j)][static_cast<std::size_t>(k)];
                const int s = sol.value(m.start[static_cast<std::size_t>(j)][static_cast<std::size_t>(k)]);
                if (k + 1 < in.machines)
                    CHECK(s + op.duration <= sol.value(m.start[static_cast<std::size_t>(j)][static_cast<std::size_t>(k + 1)]));
                end = std::max(end, s + op.duration);
                for (int j2 = 0; j2 < j; ++j2)
                    for (int k2 = 0; k2 < in.machines; ++k2) {
                        const auto& op2 = in.ops[static_cast<std::size_t>(j2)][static_cast<std::size_t>(k2)];
                        if (op2.machine != op.machine) continue;
                        const int s2 = sol.value(m.start[static_cast<std::size_t>(j2)][static_cast<std::size_t>(k2)]);
                        CHECK((s + op.duration <= s2 || s2 + op2.duration <= s));
                    }
            }
        CHECK(end == sol.value(m.makespan));
        if (!r.makespans.empty()) CHECK(sol.value(m.makespan) < r.makespans.back());
        r.makespans.push_back(sol.value(m.makespan));
    });
    if (!r.makespans.empty()) CHECK(r.st.objective == r.makespans.back());
    return r;
}

int proven_optimum(const Instance& in) {
    Model m(in, Formulation::unary);
    const propane::OptimizeStats st = propane::minimize(m.store, m.branching, jobshop::strategy, m.makespan);
    REQUIRE(st.complete());
    return static_cast<int>(*st.objective);
}

} // namespace

TEST_CASE("LNS: improving schedules, the same run for the same seed, a proof when everything is relaxed") {
    for (std::uint64_t seed = 0; seed < 12; ++seed) {
        const Instance in = jobshop::random_instance(5, 4, 6, seed);
        CAPTURE(seed);
        const int optimum = proven_optimum(in);
        const std::size_t orders = Model(in, Formulation::unary).order.size();
        const propane::Lns lns{.relax = 0.5, .failures = 20, .seed = seed, .fixable = orders};
        const propane::Limits limits{.failures = 3000};
        const Run a = lns_run(in, lns, limits);
        const Run b = lns_run(in, lns, limits);
        REQUIRE(!a.makespans.empty());
        CHECK(a.makespans.back() >= optimum);
        CHECK(a.makespans == b.makespans);
        CHECK(a.st.failures == b.st.failures);
        CHECK(a.st.branches == b.st.branches);
        CHECK(a.st.restarts == b.st.restarts);
        CHECK(a.st.failures <= limits.failures);
        // Complete only when the first branch and bound ran to its end.
        if (a.st.complete()) CHECK(a.makespans.back() == optimum);
        // Everything relaxed: a neighbourhood is the whole tree under the
        // bound, which a large enough budget exhausts.
        const Run all = lns_run(in, {.relax = 1.0, .failures = 1000000, .seed = seed}, {.failures = 2000000});
        CHECK(all.st.complete());
        CHECK(all.st.objective == optimum);
    }
}

TEST_CASE("LNS: the store is left as it was; a stop from the visitor ends it; no solution is complete") {
    const Instance in = jobshop::random_instance(4, 3, 9, 5);
    Model m(in, Formulation::unary);
    REQUIRE(m.store.propagate());
    std::vector<std::pair<int, int>> before;
    for (int v = 0; v < m.store.num_vars(); ++v)
        before.push_back({m.store.domain(m.store.var(v)).min(), m.store.domain(m.store.var(v)).max()});
    int calls = 0;
    const propane::OptimizeStats st =
        propane::minimize(m.store, m.branching, jobshop::strategy, propane::Limits{.failures = 500},
                          propane::Lns{.relax = 0.5, .failures = 10, .seed = 3}, m.makespan, [&](const auto&) {
                              ++calls;
                              return calls == 2 ? propane::stop : propane::next;
                          });
    CHECK(calls <= 2);
    if (calls == 2) CHECK(st.outcome == propane::Outcome::stopped);
    CHECK(m.store.level() == 0);
    for (int v = 0; v < m.store.num_vars(); ++v) {
        CHECK(m.store.domain(m.store.var(v)).min() == before[static_cast<std::size_t>(v)].first);
        CHECK(m.store.domain(m.store.var(v)).max() == before[static_cast<std::size_t>(v)].second);
    }

    // Without a solution the first branch and bound exhausts the tree.
    Model none(in, Formulation::unary);
    none.store.post(propane::rel(none.makespan, propane::Rel::lt, 1));
    const propane::OptimizeStats empty = propane::minimize(none.store, none.branching, jobshop::strategy,
                                                           propane::Limits{.failures = 100}, propane::Lns{}, none.makespan);
    CHECK(empty.complete());
    CHECK(!empty.objective.has_value());
}

TEST_CASE("LNS with a neighbourhood of one's own: it alone says what is fixed, round after round") {
    for (std::uint64_t seed = 0; seed < 6; ++seed) {
        const Instance in = jobshop::random_instance(5, 4, 6, seed);
        CAPTURE(seed);
        const int optimum = proven_optimum(in);
        Model m(in, Formulation::unary);
        const std::size_t orders = m.order.size();
        // Each round keeps one machine's orders (those of round % machines)
        // and frees the rest: a deterministic neighbourhood that records
        // what it was told.
        std::vector<std::uint64_t> rounds, randoms;
        std::size_t best_size = 0;
        const auto by_machine = [&](const propane::LnsRound& r, std::span<char> fix) {
            rounds.push_back(r.round);
            randoms.push_back(r.random);
            best_size = r.best.size();
            CHECK(std::all_of(fix.begin(), fix.end(), [](char f) { return f == 0; }));
            // The order Booleans come machine by machine, as many each.
            const std::size_t per = orders / static_cast<std::size_t>(in.machines);
            const std::size_t kept = static_cast<std::size_t>(r.round % static_cast<std::uint64_t>(in.machines));
            for (std::size_t i = 0; i < orders; ++i) fix[i] = i / per == kept ? 1 : 0;
        };
        int last = 0, reported = 0;
        const propane::OptimizeStats st =
            propane::minimize(m.store, m.branching, jobshop::strategy, propane::Limits{.failures = 2000},
                              propane::Lns{.failures = 30, .seed = seed}, by_machine, m.makespan, [&](const auto& sol) {
                                  if (reported > 0) CHECK(sol.value(m.makespan) < last);
                                  last = sol.value(m.makespan);
                                  ++reported;
                              });
        REQUIRE(reported > 0);
        CHECK(*st.objective == last);
        CHECK(last >= optimum);
        CHECK(best_size == m.branching.size());
        for (std::size_t k = 0; k < rounds.size(); ++k) CHECK(rounds[k] == k);
        CHECK(rounds.size() == st.restarts);
        // The same seed draws the same numbers; another seed others.
        std::vector<std::uint64_t> again;
        Model m2(in, Formulation::unary);
        (void)propane::minimize(m2.store, m2.branching, jobshop::strategy, propane::Limits{.failures = 200},
                                propane::Lns{.failures = 30, .seed = seed},
                                [&](const propane::LnsRound& r, std::span<char>) { again.push_back(r.random); },
                                m2.makespan);
        REQUIRE(!again.empty());
        CHECK(std::equal(again.begin(), again.end(), randoms.begin(), randoms.begin() + static_cast<std::ptrdiff_t>(std::min(again.size(), randoms.size()))));
        // Fixing nothing: the first round is the whole tree under the
        // bound, which proves the optimum.
        Model m3(in, Formulation::unary);
        const propane::OptimizeStats proof = propane::minimize(
            m3.store, m3.branching, jobshop::strategy, propane::Limits{.failures = 2000000},
            propane::Lns{.relax = 0.0, .failures = 1000000}, [](const propane::LnsRound&, std::span<char>) {},
            m3.makespan);
        CHECK(proof.complete());
        CHECK(proof.objective == optimum);
    }
}

TEST_CASE("LNS: model errors") {
    const Instance in = jobshop::random_instance(3, 3, 9, 1);
    Model m(in, Formulation::unary);
    const auto lns = [&](propane::Lns l, propane::Limits limits) {
        return propane::minimize(m.store, m.branching, jobshop::strategy, limits, l, m.makespan);
    };
    CHECK_THROWS_WITH_AS(lns({.relax = 0.0}, {.failures = 10}), doctest::Contains("Lns: relax is 0"), propane::model_error);
    CHECK_THROWS_WITH_AS(lns({.relax = 1.5}, {.failures = 10}), doctest::Contains("must be in (0, 1]"), propane::model_error);
    CHECK_THROWS_WITH_AS(lns({.failures = 0}, {.failures = 10}), doctest::Contains("failure budget of at least 1"),
                         propane::model_error);
    CHECK_THROWS_WITH_AS(lns({}, {}), doctest::Contains("Lns: the search needs a time or failure limit"), propane::model_error);
}
