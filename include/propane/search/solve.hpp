#ifndef PROPANE_SEARCH_SOLVE_HPP
#define PROPANE_SEARCH_SOLVE_HPP

// The search driven by a visitor instead of pulled:
//   SearchStats st = solve(store, vars, strategy, limits, visitor);
// is Search (search.hpp) with its solutions handed to visitor(solution),
// which returns propane::next or propane::stop, or nothing, meaning next.
// Without vars (solve(store, visitor), solve(store, strategy, visitor),
// solve(store, strategy, limits, visitor)) the views are every variable of
// the store, in creation order.
// The parallel form, with a Parallel after the limits, is in parallel.hpp;
// branch and bound, minimize() and maximize(), in optimize.hpp.

#include <concepts>
#include <memory>
#include <ranges>
#include <type_traits>
#include <utility>
#include <vector>

#include "../engine/view.hpp"
#include "limits.hpp"
#include "search.hpp"
#include "solution.hpp"
#include "stats.hpp"
#include "strategy.hpp"

namespace propane {

namespace detail {

// What a visitor answered: void means next.
template <class Visitor, class Sol>
Action visit_one(Visitor& visitor, const Sol& solution) {
    using Result = std::invoke_result_t<Visitor&, const Sol&>;
    if constexpr (std::is_void_v<Result>) {
        visitor(solution);
        return Action::next;
    } else {
        static_assert(std::same_as<Result, Action>, "a visitor returns propane::next, propane::stop or nothing");
        return visitor(solution);
    }
}

// A visitor behind one indirect call, so that the searches on threads
// (parallel.hpp) are compiled once per store and view rather than once per
// visitor, and can be compiled in the library (compiled/parallel.hpp). It
// refers to the visitor, which must outlive it; the call per solution is
// nothing beside the search that found the solution.
template <class Sol>
class VisitorRef {
public:
    template <class Visitor>
    explicit VisitorRef(Visitor& visitor) noexcept
        : visitor_(const_cast<void*>(static_cast<const void*>(std::addressof(visitor)))),
          call_([](void* v, const Sol& solution) { return visit_one(*static_cast<Visitor*>(v), solution); }) {}
    Action operator()(const Sol& solution) const { return call_(visitor_, solution); }

private:
    void* visitor_;
    Action (*call_)(void*, const Sol&);
};

// Hands each solution of `search` to the visitor until either is done.
template <class Search, class Visitor>
void visit_all(Search& search, Visitor& visitor) {
    while (search.next())
        if (visit_one(visitor, search.solution()) == Action::stop) {
            search.stop();
            return;
        }
}

// solve() over views in a vector, the visitor behind a VisitorRef: one
// instance per store, view and strategy type, whatever the visitor, which
// <propane/compiled.hpp> declares so that a model's file compiles none of
// the search.
template <class Store, class View, class VarSel, class ValSel>
SearchStats solve_views(Store& s, const std::vector<View>& views, const BasicStrategy<VarSel, ValSel>& strategy,
                        const Limits& limits, VisitorRef<Solution<Store, View>> visitor) {
    Search<Store, View, VarSel, ValSel> search(s, views, strategy, limits);
    visit_all(search, visitor);
    return search.stats();
}

} // namespace detail

// Explores the tree, calling visitor(solution) once per solution. The
// visitor returns next or stop (or nothing, meaning next). wall_time counts
// the search only, not the time spent inside the visitor.
// (A braced {} strategy means the default Strategy.)
template <class Store, std::ranges::input_range R, class VarSel = VarChoice, class ValSel = ValChoice, class Visitor>
SearchStats solve(Store& s, const R& vars, const BasicStrategy<VarSel, ValSel>& strategy, const Limits& limits,
                  Visitor&& visitor) {
    using View = std::ranges::range_value_t<R>;
    if constexpr (std::is_function_v<std::remove_reference_t<Visitor>>) {
        // A function: VisitorRef refers to objects, so to a pointer to it.
        auto* const function = &visitor;
        return solve(s, vars, strategy, limits, function);
    } else {
        const detail::VisitorRef<Solution<Store, View>> ref(visitor);
        if constexpr (std::same_as<std::remove_cvref_t<R>, std::vector<View>>)
            return detail::solve_views(s, vars, strategy, limits, ref);
        else
            return detail::solve_views(s, std::vector<View>(std::ranges::begin(vars), std::ranges::end(vars)),
                                       strategy, limits, ref);
    }
}

template <class Store, std::ranges::input_range R, class VarSel = VarChoice, class ValSel = ValChoice, class Visitor>
SearchStats solve(Store& s, const R& vars, const BasicStrategy<VarSel, ValSel>& strategy, Visitor&& visitor) {
    return solve(s, vars, strategy, Limits{}, std::forward<Visitor>(visitor));
}

template <class Store, std::ranges::input_range R, class Visitor>
SearchStats solve(Store& s, const R& vars, Visitor&& visitor) {
    return solve(s, vars, Strategy{}, Limits{}, std::forward<Visitor>(visitor));
}

// Without views: every variable of the store, in creation order.
template <class Store, class VarSel = VarChoice, class ValSel = ValChoice, class Visitor>
SearchStats solve(Store& s, const BasicStrategy<VarSel, ValSel>& strategy, const Limits& limits, Visitor&& visitor) {
    std::vector<IntVar> every;
    every.reserve(static_cast<std::size_t>(s.num_vars()));
    for (int i = 0; i < s.num_vars(); ++i) every.push_back(s.var(i));
    return solve(s, every, strategy, limits, std::forward<Visitor>(visitor));
}

template <class Store, class VarSel = VarChoice, class ValSel = ValChoice, class Visitor>
SearchStats solve(Store& s, const BasicStrategy<VarSel, ValSel>& strategy, Visitor&& visitor) {
    return solve(s, strategy, Limits{}, std::forward<Visitor>(visitor));
}

// Constrained, so that solve(s, vars) (a visitor forgotten) is not taken
// for this form.
template <class Store, class Visitor>
    requires std::invocable<Visitor&, const Solution<Store, IntVar>&>
SearchStats solve(Store& s, Visitor&& visitor) {
    return solve(s, Strategy{}, Limits{}, std::forward<Visitor>(visitor));
}

} // namespace propane

#endif
