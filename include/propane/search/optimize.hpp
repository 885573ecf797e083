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
// On threads, with a Parallel before the objective (<propane/parallel.hpp>):
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
#include <optional>
#include <ranges>
#include <utility>
#include <vector>

#include "limits.hpp"
#include "lns.hpp"
#include "objective.hpp"
#include "search.hpp"
#include "solve.hpp"
#include "stats.hpp"
#include "strategy.hpp"

namespace propane {

struct Parallel;

namespace detail {

// The statistics of a finished branch and bound.
template <class OneSearch>
OptimizeStats optimize_result(const OneSearch& search) {
    OptimizeStats st;
    static_cast<SearchStats&>(st) = search.stats();
    st.objective = search.objective();
    return st;
}

// Branch and bound on threads (search/parallel_optimize.hpp, which
// <propane/parallel.hpp> includes along with the definition of Parallel),
// with the views in a vector and the visitor behind a VisitorRef, as the
// parallel solve(), so that compiled/parallel.hpp can declare it.
template <Sense sense, class Store, class View, class VarSel, class ValSel, class V>
OptimizeStats optimize_on_threads(Store& s, const std::vector<View>& views,
                                  const BasicStrategy<VarSel, ValSel>& strategy, const Limits& limits,
                                  const Parallel& parallel, const V& objective,
                                  VisitorRef<Solution<Store, View>> visitor);

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
        Search<Store, std::ranges::range_value_t<R>, VarSel, ValSel> search(s, vars, strategy, limits,
                                                                            Objective<V>{objective, sense});
        visit_all(search, visitor);
        return optimize_result(search);
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
        using W = std::ranges::range_value_t<R>;
        const std::vector<W> views(std::ranges::begin(vars), std::ranges::end(vars));
        return optimize_on_threads<sense>(s, views, strategy, limits, parallel, objective,
                                          VisitorRef<Solution<Store, W>>(visitor));
    }
    template <class Store, std::ranges::input_range R, class VarSel = VarChoice, class ValSel = ValChoice,
              View<Store> V>
    OptimizeStats operator()(Store& s, const R& vars, const BasicStrategy<VarSel, ValSel>& strategy,
                             const Limits& limits, const Parallel& parallel, const V& objective) const {
        return (*this)(s, vars, strategy, limits, parallel, objective, IgnoreSolution{});
    }

    // Large-neighbourhood search (lns.hpp).
    template <class Store, std::ranges::input_range R, class VarSel = VarChoice, class ValSel = ValChoice,
              View<Store> V, class Visitor>
    OptimizeStats operator()(Store& s, const R& vars, const BasicStrategy<VarSel, ValSel>& strategy,
                             const Limits& limits, const Lns& lns, const V& objective, Visitor&& visitor) const {
        RandomShare share{lns.relax, lns.fixable, SplitMix64{lns.seed}};
        return (*this)(s, vars, strategy, limits, lns, share, objective, visitor);
    }
    template <class Store, std::ranges::input_range R, class VarSel = VarChoice, class ValSel = ValChoice,
              View<Store> V>
    OptimizeStats operator()(Store& s, const R& vars, const BasicStrategy<VarSel, ValSel>& strategy,
                             const Limits& limits, const Lns& lns, const V& objective) const {
        IgnoreSolution ignore;
        return (*this)(s, vars, strategy, limits, lns, objective, ignore);
    }
    template <class Store, std::ranges::input_range R, class VarSel = VarChoice, class ValSel = ValChoice,
              LnsNeighbourhood N, View<Store> V, class Visitor>
    OptimizeStats operator()(Store& s, const R& vars, const BasicStrategy<VarSel, ValSel>& strategy,
                             const Limits& limits, const Lns& lns, N&& neighbourhood, const V& objective,
                             Visitor&& visitor) const {
        using W = std::ranges::range_value_t<R>;
        const std::vector<W> views(std::ranges::begin(vars), std::ranges::end(vars));
        return lns_optimize<sense>(s, views, strategy, limits, lns, neighbourhood, objective, visitor);
    }
    template <class Store, std::ranges::input_range R, class VarSel = VarChoice, class ValSel = ValChoice,
              LnsNeighbourhood N, View<Store> V>
    OptimizeStats operator()(Store& s, const R& vars, const BasicStrategy<VarSel, ValSel>& strategy,
                             const Limits& limits, const Lns& lns, N&& neighbourhood, const V& objective) const {
        IgnoreSolution ignore;
        return (*this)(s, vars, strategy, limits, lns, neighbourhood, objective, ignore);
    }

    // Large-neighbourhood search on threads (lns.hpp, lns_threads.hpp).
    template <class Store, std::ranges::input_range R, class VarSel = VarChoice, class ValSel = ValChoice,
              View<Store> V, class Visitor>
    OptimizeStats operator()(Store& s, const R& vars, const BasicStrategy<VarSel, ValSel>& strategy,
                             const Limits& limits, const Lns& lns, const Parallel& parallel, const V& objective,
                             Visitor&& visitor) const {
        RandomShare share{lns.relax, lns.fixable, SplitMix64{lns.seed}};
        return (*this)(s, vars, strategy, limits, lns, parallel, share, objective, visitor);
    }
    template <class Store, std::ranges::input_range R, class VarSel = VarChoice, class ValSel = ValChoice,
              View<Store> V>
    OptimizeStats operator()(Store& s, const R& vars, const BasicStrategy<VarSel, ValSel>& strategy,
                             const Limits& limits, const Lns& lns, const Parallel& parallel,
                             const V& objective) const {
        IgnoreSolution ignore;
        return (*this)(s, vars, strategy, limits, lns, parallel, objective, ignore);
    }
    template <class Store, std::ranges::input_range R, class VarSel = VarChoice, class ValSel = ValChoice,
              LnsNeighbourhood N, View<Store> V, class Visitor>
    OptimizeStats operator()(Store& s, const R& vars, const BasicStrategy<VarSel, ValSel>& strategy,
                             const Limits& limits, const Lns& lns, const Parallel& parallel, N&& neighbourhood,
                             const V& objective, Visitor&& visitor) const {
        using W = std::ranges::range_value_t<R>;
        const std::vector<W> views(std::ranges::begin(vars), std::ranges::end(vars));
        return lns_on_threads<sense>(s, views, strategy, limits, lns, parallel, neighbourhood, objective, visitor);
    }
    template <class Store, std::ranges::input_range R, class VarSel = VarChoice, class ValSel = ValChoice,
              LnsNeighbourhood N, View<Store> V>
    OptimizeStats operator()(Store& s, const R& vars, const BasicStrategy<VarSel, ValSel>& strategy,
                             const Limits& limits, const Lns& lns, const Parallel& parallel, N&& neighbourhood,
                             const V& objective) const {
        IgnoreSolution ignore;
        return (*this)(s, vars, strategy, limits, lns, parallel, neighbourhood, objective, ignore);
    }

    // Without views: every variable of the store, in creation order.
    template <class Store, class VarSel = VarChoice, class ValSel = ValChoice, View<Store> V, class Visitor>
    OptimizeStats operator()(Store& s, const BasicStrategy<VarSel, ValSel>& strategy, const Limits& limits,
                             const V& objective, Visitor&& visitor) const {
        Search<Store, IntVar, VarSel, ValSel> search(s, strategy, limits, Objective<V>{objective, sense});
        visit_all(search, visitor);
        return optimize_result(search);
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
};

} // namespace detail

// (A braced {} strategy means the default Strategy, as for solve().)
inline constexpr detail::Optimize<Sense::minimize> minimize{};
inline constexpr detail::Optimize<Sense::maximize> maximize{};

} // namespace propane

#endif
