#ifndef PROPANE_SEARCH_PARALLEL_OPTIMIZE_HPP
#define PROPANE_SEARCH_PARALLEL_OPTIMIZE_HPP

// minimize() and maximize() with a Parallel: branch and bound on threads,
// on the parallel solve's machinery (optimize.hpp says what they promise).
// Apart from optimize.hpp so that a model without threads does not compile
// them: <propane/parallel.hpp> brings both.

#include <algorithm>
#include <cstdint>
#include <exception>
#include <mutex>
#include <optional>
#include <ranges>
#include <vector>

#include "claim.hpp"
#include "clock.hpp"
#include "limits.hpp"
#include "objective.hpp"
#include "optimize.hpp"
#include "parallel.hpp"
#include "search.hpp"
#include "split.hpp"
#include "stats.hpp"
#include "strategy.hpp"
#include "workers.hpp"

namespace propane::detail {

// The search on the calling thread, with parallel.progress's reports.
template <Sense sense, class Store, class View, class VarSel, class ValSel, class V>
OptimizeStats optimize_one_thread(Store& s, const std::vector<View>& views,
                                  const BasicStrategy<VarSel, ValSel>& strategy, const Limits& limits,
                                  const Parallel& parallel, const V& objective,
                                  VisitorRef<Solution<Store, View>>& visitor) {
    Search<Store, View, VarSel, ValSel> search(s, views, strategy, limits, Objective<V>{objective, sense});
    visit_reporting(search, parallel, visitor);
    return optimize_result(search);
}

template <Sense sense, class Store, class View, class VarSel, class ValSel, class V>
OptimizeStats optimize_on_threads(Store& s, const std::vector<View>& views,
                                  const BasicStrategy<VarSel, ValSel>& strategy, const Limits& limits,
                                  const Parallel& parallel, const V& objective,
                                  VisitorRef<Solution<Store, View>> visitor) {
    using clock = std::chrono::steady_clock;
    const unsigned threads = resolve_threads(parallel.threads);
    if (threads == 1 || stops_at_once(limits))
        return optimize_one_thread<sense>(s, views, strategy, limits, parallel, objective, visitor);
    s.check(objective.var(), "objective");
    const auto start = clock::now();
    // As the parallel solve (parallel.hpp): the store stays as it is,
    // held as running, while the split and the workers use copies.
    StoreClaim<Store, View> claim(s, sense == Sense::minimize ? "minimize" : "maximize");
    Store root(s);
    const std::optional<Split> split = split_for(root, views, strategy, limits, parallel, threads);
    if (!split) {
        claim.release();
        return optimize_one_thread<sense>(s, views, strategy, limits, parallel, objective, visitor);
    }
    const Split& sp = *split;

    // The workers' searches have no solution limit of their own: most
    // of their solutions are not improvements, and only those count.
    Limits inner = limits;
    inner.solutions = unlimited;
    ParallelShared shared(inner, start, sp.top, reports(parallel));
    Reporter reporter(parallel, shared, sp.subproblems.size(), start);
    std::mutex visiting;
    std::uint64_t delivered = 0; // guarded by visiting
    const auto offer = [&](const auto& solution) {
        const int value = objective.value(solution.store());
        const std::lock_guard lock(visiting);
        // A worker can reach this after another's call ended the
        // search (solution limit or stop) but before it sees the halt:
        // it must not deliver one more. After a branch, failure or
        // time limit it may: the solution lies inside the counted work.
        if (shared.discarding()) return Action::stop;
        const std::optional<int> best = shared.bound();
        if (best && !(sense == Sense::minimize ? value < *best : value > *best)) return Action::next;
        shared.set_bound(value);
        ++delivered;
        const Action a = visit_one(visitor, solution);
        if (a == Action::stop) {
            shared.halt(Outcome::stopped);
        } else if (delivered >= limits.solutions) {
            shared.halt(Outcome::solution_limit);
            return Action::stop;
        }
        return shared.stopped() ? Action::stop : a;
    };
    std::vector<WorkerTally> tallies(std::min<std::size_t>(threads, sp.subproblems.size()));
    OptimizeStats total;
    static_cast<SearchStats&>(total) = sp.top;
    if (!tallies.empty()) {
        run_unordered(shared, root, views, strategy, inner, sp, tallies, offer, reporter,
                      Objective<V>{objective, sense});
        if (const std::exception_ptr e = shared.error()) std::rethrow_exception(e);
    }
    merge(total, tallies, shared);
    total.solutions = delivered;
    if (delivered > 0) total.objective = shared.bound();
    total.wall_time = clock::now() - start;
    return total;
}

} // namespace propane::detail

#endif
