#ifndef PROPANE_SEARCH_OBJECTIVE_HPP
#define PROPANE_SEARCH_OBJECTIVE_HPP

// What a branch and bound search optimizes: minimizing(view) or
// maximizing(view), for any view of the search's store. Search takes one
// in its constructor; minimize() and maximize() (optimize.hpp) build it.

#include <cstdint>
#include <utility>

#include "../engine/domain.hpp"
#include "../engine/view.hpp"

namespace propane {

enum class Sense : std::uint8_t { minimize, maximize };

template <class V>
struct Objective {
    V view;
    Sense sense;
};
template <class V>
Objective<V> minimizing(V view) {
    return {std::move(view), Sense::minimize};
}
template <class V>
Objective<V> maximizing(V view) {
    return {std::move(view), Sense::maximize};
}

namespace detail {

// An objective with its view type erased, so that Search<Store, View, ...>
// is one type with or without one; it is called once per backtrack.
template <class Store>
struct ErasedObjective {
    virtual ~ErasedObjective() = default;
    virtual bool fixed(const Store& s) const = 0;
    virtual int value(const Store& s) const = 0;
    // Leaves only the values strictly better than `best`.
    virtual Change improve_on(Store& s, int best) const = 0;
    // Whether value a is strictly better than b.
    virtual bool better(int a, int b) const = 0;
};

template <class Store, class V>
struct ObjectiveOf final : ErasedObjective<Store> {
    explicit ObjectiveOf(Objective<V> o) : goal(std::move(o)) {}
    bool fixed(const Store& s) const override { return goal.view.fixed(s); }
    int value(const Store& s) const override { return goal.view.value(s); }
    // In 64 bits: nothing is better than INT_MIN when minimizing, and the
    // update then fails instead of wrapping.
    Change improve_on(Store& s, int best) const override {
        return goal.sense == Sense::minimize ? keep_at_most(goal.view, s, std::int64_t{best} - 1)
                                             : keep_at_least(goal.view, s, std::int64_t{best} + 1);
    }
    bool better(int a, int b) const override { return goal.sense == Sense::minimize ? a < b : a > b; }
    Objective<V> goal;
};

} // namespace detail

} // namespace propane

#endif
