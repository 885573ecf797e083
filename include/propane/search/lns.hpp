#ifndef PROPANE_SEARCH_LNS_HPP
#define PROPANE_SEARCH_LNS_HPP

// Large-neighbourhood search for branch and bound:
//   minimize(store, vars, strategy, limits, Lns{.relax = 0.3, .failures = 200}, cost, visitor)
// First a branch and bound to a first solution. Then, again and again: at
// a new level, the objective is bounded below the best value so far and a
// random share (1 - relax) of the views is fixed to the best solution's
// values; a branch and bound searches the rest within `failures` failures,
// and the level is popped. The visitor sees each better solution, as with
// minimize() without it. A neighbourhood leaves the store as it found it.
//
// LNS gives up completeness for speed on large models: st.complete() is
// true only when the first branch and bound explored the whole tree (the
// optimum is then proven, or a neighbourhood that fixed nothing did), and
// the search ends at a time or failure limit (there must be one; a
// neighbourhood that fails at once counts as a failure) or when the
// visitor stops it. The random choices come from
// `seed` alone, so a run under count limits is the same every time; under
// a time limit it ends where the clock says.
//
// A neighbourhood of one's own replaces the random share:
//   minimize(store, vars, strategy, limits, lns, neighbourhood, cost, visitor)
// calls neighbourhood(const LnsRound& round, std::span<char> fix) at each
// round; fix holds one flag per view, all 0, and the views it sets to 1
// are fixed to round.best's values (Lns::relax and Lns::fixable are then
// unused). round.random is drawn from Lns::seed for the round, so a
// neighbourhood that draws only on it keeps the run the same for a seed.
// A round that fixes nothing searches the whole tree within its budget,
// and proves the optimum if it finishes.

#include <algorithm>
#include <chrono>
#include <concepts>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "../engine/error.hpp"
#include "limits.hpp"
#include "objective.hpp"
#include "search.hpp"
#include "solve.hpp" // detail::visit_one
#include "stats.hpp"
#include "strategy.hpp"

namespace propane {

struct Lns {
    double relax = 0.3;           // the share of the views left free, in (0, 1]
    std::uint64_t failures = 200; // each neighbourhood's failure budget, >= 1
    std::uint64_t seed = 1;
    // Only the first `fixable` views may be fixed; the rest are always
    // free. Put the decisions first: fixing what follows from them (a job
    // shop's start times, once its orders are chosen) leaves no room to
    // improve.
    std::size_t fixable = static_cast<std::size_t>(-1);
};

// What a neighbourhood is told at each round.
struct LnsRound {
    std::uint64_t round = 0;    // from 0
    std::span<const int> best;  // the best solution's values, one per view
    std::uint64_t random = 0;   // drawn for this round from Lns::seed
};

// A neighbourhood: called as neighbourhood(round, fix).
template <class N>
concept LnsNeighbourhood = std::invocable<N&, const LnsRound&, std::span<char>>;

namespace detail {

// Lns's own neighbourhood: each of the first `fixable` views fixed with
// probability 1 - relax, drawn from a generator seeded with Lns::seed.
struct RandomShare {
    double relax;
    std::size_t fixable;
    SplitMix64 rng;
    void operator()(const LnsRound&, std::span<char> fix) {
        for (std::size_t i = 0; i < std::min(fix.size(), fixable); ++i)
            // A uniform draw in [0, 1) from the top 53 bits.
            fix[i] = static_cast<double>(rng() >> 11) * 0x1.0p-53 < relax ? 0 : 1;
    }
};

// relax matters only to the random share.
inline void check_lns(const Lns& lns, const Limits& limits, bool random_share) {
    if (random_share && !(lns.relax > 0.0 && lns.relax <= 1.0))
        throw model_error("Lns: relax is " + std::to_string(lns.relax) + ", must be in (0, 1]");
    if (lns.failures == 0) throw model_error("Lns: a neighbourhood needs a failure budget of at least 1");
    // Every neighbourhood costs a failure at least (below), or improves
    // the objective, which cannot go on for ever: a failure or time limit
    // ends the search, a branch or solution limit alone might not.
    if (limits.time == std::chrono::nanoseconds::max() && limits.failures == unlimited)
        throw model_error("Lns: the search needs a time or failure limit: it never ends by itself");
}

inline void add_stats(SearchStats& total, const SearchStats& run) {
    total.solutions += run.solutions;
    total.failures += run.failures;
    total.branches += run.branches;
    total.propagations += run.propagations;
    total.restarts += run.restarts;
    total.max_depth = std::max(total.max_depth, run.max_depth);
}

template <Sense sense, class Store, class W, class VarSel, class ValSel, class V, class Neighbourhood, class Visitor>
OptimizeStats lns_optimize(Store& s, const std::vector<W>& views, const BasicStrategy<VarSel, ValSel>& strategy,
                           const Limits& limits, const Lns& lns, Neighbourhood& neighbourhood, const V& objective,
                           Visitor& visitor) {
    check_lns(lns, limits, std::same_as<Neighbourhood, RandomShare>);
    using clock = std::chrono::steady_clock;
    const auto started = clock::now();
    OptimizeStats total;
    std::vector<int> best(views.size());
    bool stopped = false;

    // What is left of the limits, with `failures` at most `budget`.
    const auto left = [&](std::uint64_t budget) {
        const auto less = [](std::uint64_t limit, std::uint64_t used) {
            return limit == unlimited ? unlimited : limit - std::min(limit, used);
        };
        Limits l;
        l.solutions = less(limits.solutions, total.solutions);
        l.branches = less(limits.branches, total.branches);
        l.failures = std::min(budget, less(limits.failures, total.failures));
        if (limits.time != std::chrono::nanoseconds::max())
            l.time = std::max(std::chrono::nanoseconds(0),
                              limits.time - std::chrono::duration_cast<std::chrono::nanoseconds>(clock::now() - started));
        return l;
    };
    const auto run = [&](const Limits& l) {
        Search<Store, W, VarSel, ValSel> search(s, views, strategy, l, Objective<V>{objective, sense});
        while (search.next()) {
            for (std::size_t i = 0; i < views.size(); ++i) best[i] = views[i].value(s);
            total.objective = search.objective();
            if (visit_one(visitor, search.solution()) == Action::stop) {
                stopped = true;
                break;
            }
        }
        const SearchStats st = search.stats();
        add_stats(total, st);
        return st.outcome;
    };
    const auto out_of_limits = [&] {
        if (total.solutions >= limits.solutions) return Outcome::solution_limit;
        if (total.branches >= limits.branches) return Outcome::branch_limit;
        if (total.failures >= limits.failures) return Outcome::failure_limit;
        if (limits.time != std::chrono::nanoseconds::max() && clock::now() - started >= limits.time)
            return Outcome::time_limit;
        return Outcome::running;
    };

    Limits first = left(unlimited);
    first.solutions = std::min<std::uint64_t>(first.solutions, 1);
    Outcome o = run(first);
    if (o == Outcome::complete) total.outcome = Outcome::complete; // no solution at all
    std::vector<char> fix(views.size());
    SplitMix64 draws{lns.seed ^ 0x9E3779B97F4A7C15ULL};
    for (std::uint64_t round = 0; total.outcome == Outcome::running; ++round) {
        if (stopped) {
            total.outcome = Outcome::stopped;
            break;
        }
        if (const Outcome end = out_of_limits(); end != Outcome::running) {
            total.outcome = end;
            break;
        }
        s.push_level();
        const std::int64_t bound = *total.objective;
        Change c = sense == Sense::minimize ? objective.remove_above(s, static_cast<int>(bound - 1))
                                            : objective.remove_below(s, static_cast<int>(bound + 1));
        std::fill(fix.begin(), fix.end(), 0);
        neighbourhood(LnsRound{round, best, draws()}, std::span<char>(fix));
        bool all_free = true;
        for (std::size_t i = 0; i < views.size() && c != Change::failed; ++i) {
            if (!fix[i]) continue;
            all_free = false;
            c = views[i].assign(s, best[i]);
        }
        if (c != Change::failed && s.propagate()) {
            o = run(left(lns.failures));
            // Nothing fixed and the tree exhausted: nothing better exists.
            if (o == Outcome::complete && all_free) total.outcome = Outcome::complete;
        } else {
            ++total.failures; // the neighbourhood failed at its root
            if (all_free) total.outcome = Outcome::complete;
        }
        s.pop_level();
        ++total.restarts;
    }
    total.wall_time = std::chrono::duration_cast<std::chrono::nanoseconds>(clock::now() - started);
    return total;
}

} // namespace detail

} // namespace propane

#endif
