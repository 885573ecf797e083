#ifndef PROPANE_SEARCH_OPTIMIZE_HPP
#define PROPANE_SEARCH_OPTIMIZE_HPP

// Branch and bound with a visitor, as solve() is depth-first search with one:
//   OptimizeStats st = minimize(store, vars, strategy, limits, cost, visitor);
// The visitor sees a sequence of solutions, each with a strictly better
// objective value than the one before (it may stop the search, as solve()'s
// may). st.objective is the best value found, empty when there was none;
// st.complete() says the whole tree was explored, so that value is optimal
// (or, when empty, that the model has no solution). Under a limit or a stop
// it is the best found so far. Limits::solutions counts improving solutions.
// The objective is any view of the store: the search decides its variable
// if the views leave it open, even under Strategy::assign_all = false, so
// every solution has an objective value. Without vars
// (minimize(store, strategy, cost), with limits and a visitor as above)
// the views are every variable of the store, in creation order.
// The pull form is Search with minimizing(view) or maximizing(view).
//
// On threads, with a Parallel before the objective:
//   OptimizeStats st = minimize(store, vars, strategy, limits, Parallel{.threads = 4}, cost, visitor);
// The tree is split as for the parallel solve() (parallel.hpp) and the
// workers search their subproblems by branch and bound, sharing the best
// value found: a worker adopts a better one at the start of each
// subproblem and at its checks, about every millisecond. The visitor is
// called on the thread of the worker that found the solution, one call at
// a time, and only for a solution strictly better than all it has seen
// before, so it too sees a strictly improving sequence. A complete search
// ends with the optimum, as on one thread; which optimal solution comes
// last, the solutions before it, and the failures and branches vary from
// run to run with the workers' timing. Parallel::ordered does not apply.
// Limits as for solve() on threads, Limits::solutions counting the
// improving solutions the visitor got; threads == 1 is the one-thread form.

#include <cstdint>
#include <mutex>
#include <optional>
#include <ranges>
#include <utility>

#include "claim.hpp"
#include "limits.hpp"
#include "objective.hpp"
#include "parallel.hpp"
#include "search.hpp"
#include "solve.hpp"
#include "stats.hpp"
#include "strategy.hpp"

namespace propane {

struct OptimizeStats : SearchStats {
    std::optional<std::int64_t> objective; // the best value found
};

namespace detail {

// The visitor of the forms that take none.
struct IgnoreSolution {
    template <class Solution>
    void operator()(const Solution&) const noexcept {}
};

// minimize and maximize are objects of this type, so that each form is
// written once for both senses; they are called like functions.
template <Sense sense>
struct Optimize {
    template <class Store, std::ranges::input_range R, class VarSel = VarChoice, class ValSel = ValChoice,
              View<Store> V, class Visitor>
    OptimizeStats operator()(Store& s, const R& vars, const BasicStrategy<VarSel, ValSel>& strategy,
                             const Limits& limits, const V& objective, Visitor&& visitor) const {
        return one_thread(s, vars, strategy, limits, Parallel{}, objective, visitor);
    }
    template <class Store, std::ranges::input_range R, class VarSel = VarChoice, class ValSel = ValChoice,
              View<Store> V, class Visitor>
    OptimizeStats operator()(Store& s, const R& vars, const BasicStrategy<VarSel, ValSel>& strategy,
                             const V& objective, Visitor&& visitor) const {
        return (*this)(s, vars, strategy, Limits{}, objective, visitor);
    }
    template <class Store, std::ranges::input_range R, class VarSel = VarChoice, class ValSel = ValChoice,
              View<Store> V>
    OptimizeStats operator()(Store& s, const R& vars, const BasicStrategy<VarSel, ValSel>& strategy,
                             const Limits& limits, const V& objective) const {
        return (*this)(s, vars, strategy, limits, objective, IgnoreSolution{});
    }
    template <class Store, std::ranges::input_range R, class VarSel = VarChoice, class ValSel = ValChoice,
              View<Store> V>
    OptimizeStats operator()(Store& s, const R& vars, const BasicStrategy<VarSel, ValSel>& strategy,
                             const V& objective) const {
        return (*this)(s, vars, strategy, Limits{}, objective, IgnoreSolution{});
    }

    template <class Store, std::ranges::input_range R, class VarSel = VarChoice, class ValSel = ValChoice,
              View<Store> V, class Visitor>
    OptimizeStats operator()(Store& s, const R& vars, const BasicStrategy<VarSel, ValSel>& strategy,
                             const Limits& limits, const Parallel& parallel, const V& objective,
                             Visitor&& visitor) const {
        using clock = std::chrono::steady_clock;
        const unsigned threads = resolve_threads(parallel.threads);
        if (threads == 1 || stops_at_once(limits))
            return one_thread(s, vars, strategy, limits, parallel, objective, visitor);
        s.check(objective.var(), "objective");
        const auto start = clock::now();
        using W = std::ranges::range_value_t<R>;
        const std::vector<W> views(std::ranges::begin(vars), std::ranges::end(vars));
        // As the parallel solve (parallel.hpp): the store stays as it is,
        // held as running, while the split and the workers use copies.
        StoreClaim<Store, W> claim(s, sense == Sense::minimize ? "minimize" : "maximize");
        Store root(s);
        const std::optional<Split> split = split_for(root, views, strategy, limits, parallel, threads);
        if (!split) {
            claim.release();
            return one_thread(s, vars, strategy, limits, parallel, objective, visitor);
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
    template <class Store, std::ranges::input_range R, class VarSel = VarChoice, class ValSel = ValChoice,
              View<Store> V>
    OptimizeStats operator()(Store& s, const R& vars, const BasicStrategy<VarSel, ValSel>& strategy,
                             const Limits& limits, const Parallel& parallel, const V& objective) const {
        return (*this)(s, vars, strategy, limits, parallel, objective, IgnoreSolution{});
    }

    // Without views: every variable of the store, in creation order.
    template <class Store, class VarSel = VarChoice, class ValSel = ValChoice, View<Store> V, class Visitor>
    OptimizeStats operator()(Store& s, const BasicStrategy<VarSel, ValSel>& strategy, const Limits& limits,
                             const V& objective, Visitor&& visitor) const {
        Search<Store, IntVar, VarSel, ValSel> search(s, strategy, limits, Objective<V>{objective, sense});
        visit_all(search, visitor);
        return result(search);
    }
    template <class Store, class VarSel = VarChoice, class ValSel = ValChoice, View<Store> V, class Visitor>
    OptimizeStats operator()(Store& s, const BasicStrategy<VarSel, ValSel>& strategy, const V& objective,
                             Visitor&& visitor) const {
        return (*this)(s, strategy, Limits{}, objective, visitor);
    }
    template <class Store, class VarSel = VarChoice, class ValSel = ValChoice, View<Store> V>
    OptimizeStats operator()(Store& s, const BasicStrategy<VarSel, ValSel>& strategy, const Limits& limits,
                             const V& objective) const {
        return (*this)(s, strategy, limits, objective, IgnoreSolution{});
    }
    template <class Store, class VarSel = VarChoice, class ValSel = ValChoice, View<Store> V>
    OptimizeStats operator()(Store& s, const BasicStrategy<VarSel, ValSel>& strategy, const V& objective) const {
        return (*this)(s, strategy, Limits{}, objective, IgnoreSolution{});
    }

private:
    // The search on the calling thread, with parallel.progress's reports
    // (none from a default Parallel).
    template <class Store, std::ranges::input_range R, class VarSel, class ValSel, class V, class Visitor>
    static OptimizeStats one_thread(Store& s, const R& vars, const BasicStrategy<VarSel, ValSel>& strategy,
                                    const Limits& limits, const Parallel& parallel, const V& objective,
                                    Visitor& visitor) {
        Search<Store, std::ranges::range_value_t<R>, VarSel, ValSel> search(s, vars, strategy, limits,
                                                                            Objective<V>{objective, sense});
        visit_reporting(search, parallel, visitor);
        return result(search);
    }

    template <class OneSearch>
    static OptimizeStats result(const OneSearch& search) {
        OptimizeStats st;
        static_cast<SearchStats&>(st) = search.stats();
        st.objective = search.objective();
        return st;
    }
};

} // namespace detail

// (A braced {} strategy means the default Strategy, as for solve().)
inline constexpr detail::Optimize<Sense::minimize> minimize{};
inline constexpr detail::Optimize<Sense::maximize> maximize{};

} // namespace propane

#endif
