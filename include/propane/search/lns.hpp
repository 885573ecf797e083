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
// Lns::prove_every = k > 0 makes every k-th round a proving round: it
// fixes nothing and searches the whole tree under the bound, within a
// budget of `failures` the first time, doubled at each proving round
// after. One of them eventually exhausts the tree, proving the incumbent
// optimal (or the model unsatisfiable), so the search then ends by itself
// and needs no limit; the rounds between keep improving the incumbent
// cheaply, which tightens the bound the proof works under.
//
// A neighbourhood of one's own replaces the random share:
//   minimize(store, vars, strategy, limits, lns, neighbourhood, cost, visitor)
// calls neighbourhood(const LnsRound& round, std::span<char> fix) at each
// round; fix holds one flag per view, all 0, and the views it sets to 1
// are fixed to round.best's values (Lns::relax and Lns::fixable are then
// unused). round.random is drawn from Lns::seed for the round, so a
// neighbourhood that draws only on it keeps the run the same for a seed.
// A round that fixes nothing searches the whole tree within its budget,
// and proves the optimum if it finishes. Proving rounds do not call it.
//
// On threads, with a Parallel after the Lns (lns_threads.hpp, which
// <propane/parallel.hpp> includes):
//   minimize(store, vars, strategy, limits, lns, Parallel{.threads = 4}, cost, visitor)
//   minimize(store, vars, strategy, limits, lns, Parallel{.threads = 4}, neighbourhood, cost, visitor)

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "../engine/error.hpp"
#include "clock.hpp"
#include "limits.hpp"
#include "objective.hpp"
#include "search.hpp"
#include "solve.hpp" // detail::visit_one
#include "stats.hpp"
#include "strategy.hpp"

namespace propane {

struct Parallel;

struct Lns {
    double relax = 0.3;           // the share of the views left free, in (0, 1]
    std::uint64_t failures = 200; // each neighbourhood's failure budget, >= 1
    std::uint64_t seed = 1;
    // Only the first `fixable` views may be fixed; the rest are always
    // free. Put the decisions first: fixing what follows from them (a job
    // shop's start times, once its orders are chosen) leaves no room to
    // improve.
    std::size_t fixable = static_cast<std::size_t>(-1);
    // Every prove_every-th round fixes nothing, within a budget that
    // doubles each time; 0: no such rounds.
    std::uint64_t prove_every = 0;
};

// What a neighbourhood is told at each round.
struct LnsRound {
    std::uint64_t round = 0;    // from 0
    std::span<const int> best;  // the best solution's values, one per view
    std::uint64_t random = 0;   // drawn for this round (and worker) from Lns::seed
    std::size_t worker = 0;     // on threads, the worker that searches it, 0 to threads - 1
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
    // ends the search, a branch or solution limit alone might not. Proving
    // rounds end it by themselves: their budgets grow past any tree.
    if (lns.prove_every == 0 && limits.time == std::chrono::nanoseconds::max() && limits.failures == unlimited)
        throw model_error("Lns: the search needs a time or failure limit, or prove_every > 0: it never ends by "
                          "itself");
}

inline void add_stats(SearchStats& total, const SearchStats& run) {
    total.solutions += run.solutions;
    total.failures += run.failures;
    total.branches += run.branches;
    total.propagations += run.propagations;
    total.restarts += run.restarts;
    total.max_depth = std::max(total.max_depth, run.max_depth);
}

// The bookkeeping of one LNS run, whichever threads search its rounds:
// the totals, the incumbent, the limits left, and the rounds' kinds.
class LnsBook {
public:
    using clock = std::chrono::steady_clock;

    LnsBook(const Limits& limits, const Lns& lns, std::size_t views)
        : best(views), limits_(limits), lns_(lns), started_(clock::now()), draws_{lns.seed ^ 0x9E3779B97F4A7C15ULL} {}

    // What is left of the limits, with `failures` at most `budget`.
    Limits left(std::uint64_t budget) const {
        const auto less = [](std::uint64_t limit, std::uint64_t used) {
            return limit == unlimited ? unlimited : limit - std::min(limit, used);
        };
        Limits l;
        l.solutions = less(limits_.solutions, total.solutions);
        l.branches = less(limits_.branches, total.branches);
        l.failures = std::min(budget, less(limits_.failures, total.failures));
        if (limits_.time != std::chrono::nanoseconds::max())
            l.time = std::max(std::chrono::nanoseconds(0), limits_.time - elapsed());
        return l;
    }
    // The limits of the first branch and bound, to a first solution.
    Limits first() const {
        Limits l = left(unlimited);
        l.solutions = std::min<std::uint64_t>(l.solutions, 1);
        return l;
    }
    // Outcome::running while the search may go on; else why it ends.
    Outcome end() const {
        if (stopped) return Outcome::stopped;
        if (total.solutions >= limits_.solutions) return Outcome::solution_limit;
        if (total.branches >= limits_.branches) return Outcome::branch_limit;
        if (total.failures >= limits_.failures) return Outcome::failure_limit;
        if (limits_.time != std::chrono::nanoseconds::max() && elapsed() >= limits_.time) return Outcome::time_limit;
        return Outcome::running;
    }

    bool proving(std::uint64_t round) const noexcept {
        return lns_.prove_every > 0 && (round + 1) % lns_.prove_every == 0;
    }
    // A round's failure budget: Lns::failures, doubled at each proving
    // round after the first (saturating, so the last one is unbounded).
    std::uint64_t budget(std::uint64_t round) const noexcept {
        if (!proving(round)) return lns_.failures;
        std::uint64_t b = lns_.failures;
        for (std::uint64_t p = (round + 1) / lns_.prove_every; p > 1 && b != unlimited; --p)
            b = b > unlimited / 2 ? unlimited : 2 * b;
        return b;
    }
    // The LnsRound of a neighbourhood, its number drawn in call order.
    LnsRound next_round(std::uint64_t round, std::size_t worker) {
        return LnsRound{round, best, draws_(), worker};
    }

    void finish() { total.wall_time = elapsed(); }

    OptimizeStats total;
    std::vector<int> best; // the incumbent's values, one per view
    bool stopped = false;  // by the visitor

private:
    std::chrono::nanoseconds elapsed() const {
        return std::chrono::duration_cast<std::chrono::nanoseconds>(clock::now() - started_);
    }

    Limits limits_;
    Lns lns_;
    clock::time_point started_;
    SplitMix64 draws_;
};

// Enters a round's neighbourhood on `s` at a new level (the caller pops
// it): the objective strictly better than `bound`, the flagged views fixed
// to `best`. False when that fails at once.
template <Sense sense, class Store, class W, class V>
bool enter_neighbourhood(Store& s, const std::vector<W>& views, const V& objective, std::int64_t bound,
                         std::span<const int> best, std::span<const char> fix) {
    s.push_level();
    Change c = sense == Sense::minimize ? objective.remove_above(s, static_cast<int>(bound - 1))
                                        : objective.remove_below(s, static_cast<int>(bound + 1));
    for (std::size_t i = 0; i < views.size() && c != Change::failed; ++i)
        if (fix[i]) c = views[i].assign(s, best[i]);
    return c != Change::failed && s.propagate();
}

inline bool fixes_nothing(std::span<const char> fix) {
    return std::none_of(fix.begin(), fix.end(), [](char f) { return f != 0; });
}

template <Sense sense, class Store, class W, class VarSel, class ValSel, class V, class Neighbourhood, class Visitor>
OptimizeStats lns_optimize(Store& s, const std::vector<W>& views, const BasicStrategy<VarSel, ValSel>& strategy,
                           const Limits& limits, const Lns& lns, Neighbourhood& neighbourhood, const V& objective,
                           Visitor& visitor) {
    check_lns(lns, limits, std::same_as<Neighbourhood, RandomShare>);
    LnsBook book(limits, lns, views.size());
    OptimizeStats& total = book.total;

    const auto run = [&](const Limits& l) {
        Search<Store, W, VarSel, ValSel> search(s, views, strategy, l, Objective<V>{objective, sense});
        while (search.next()) {
            for (std::size_t i = 0; i < views.size(); ++i) book.best[i] = views[i].value(s);
            total.objective = search.objective();
            if (visit_one(visitor, search.solution()) == Action::stop) {
                book.stopped = true;
                break;
            }
        }
        const SearchStats st = search.stats();
        add_stats(total, st);
        return st.outcome;
    };

    if (run(book.first()) == Outcome::complete) total.outcome = Outcome::complete; // no solution at all
    std::vector<char> fix(views.size());
    for (std::uint64_t round = 0; total.outcome == Outcome::running; ++round) {
        if (const Outcome end = book.end(); end != Outcome::running) {
            total.outcome = end;
            break;
        }
        std::fill(fix.begin(), fix.end(), 0);
        if (!book.proving(round)) neighbourhood(book.next_round(round, 0), std::span<char>(fix));
        const bool all_free = fixes_nothing(fix);
        if (enter_neighbourhood<sense>(s, views, objective, *total.objective, book.best, fix)) {
            // Nothing fixed and the tree exhausted: nothing better exists.
            if (run(book.left(book.budget(round))) == Outcome::complete && all_free)
                total.outcome = Outcome::complete;
        } else {
            ++total.failures; // the neighbourhood failed at its root
            if (all_free) total.outcome = Outcome::complete;
        }
        s.pop_level();
        ++total.restarts;
    }
    book.finish();
    return total;
}

// LNS on threads (lns_threads.hpp), declared here for optimize.hpp's
// forms with a Parallel after the Lns.
template <Sense sense, class Store, class W, class VarSel, class ValSel, class V, class Neighbourhood, class Visitor>
OptimizeStats lns_on_threads(Store& s, const std::vector<W>& views, const BasicStrategy<VarSel, ValSel>& strategy,
                             const Limits& limits, const Lns& lns, const Parallel& parallel,
                             Neighbourhood& neighbourhood, const V& objective, Visitor& visitor);

} // namespace detail

} // namespace propane

#endif
