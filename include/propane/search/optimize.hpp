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
// The objective is any view of the store; it must be fixed whenever every
// search view is (a search view itself, or tied to them by constraints),
// or next() throws model_error at the first solution that leaves it open.
// The pull form is Search with minimizing(view) or maximizing(view).

#include <cstdint>
#include <optional>
#include <ranges>
#include <utility>

#include "limits.hpp"
#include "objective.hpp"
#include "search.hpp"
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
        Search<Store, std::ranges::range_value_t<R>, VarSel, ValSel> search(s, vars, strategy, limits,
                                                                            Objective<V>{objective, sense});
        visit_all(search, visitor);
        OptimizeStats st;
        static_cast<SearchStats&>(st) = search.stats();
        st.objective = search.objective();
        return st;
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
};

} // namespace detail

// (A braced {} strategy means the default Strategy, as for solve().)
inline constexpr detail::Optimize<Sense::minimize> minimize{};
inline constexpr detail::Optimize<Sense::maximize> maximize{};

} // namespace propane

#endif
