#ifndef PROPANE_CONSTRAINTS_GLOBAL_CARDINALITY_HPP
#define PROPANE_CONSTRAINTS_GLOBAL_CARDINALITY_HPP

// global_cardinality(xs, values, counts): counts[k] is the number of views
// of xs equal to values[k]; views may take other values too (MiniZinc's
// global_cardinality). xs and counts are ranges of views of one type each
// (AffineView holds any mix) or braced lists, which may hold expressions
// (x + y, abs(x - y): each gets its view or auxiliary variable when
// posted, arguments.hpp's Listing); values are distinct numbers of any
// integral type, within int, one per count.
//
// Posted as count(xs, values[k], Rel::eq, counts[k]) for each k (each
// domain consistent on its own, count.hpp) and the counts' sum at most
// the number of views (linear, bounds): the fixpoint of those is the
// strength. Gecode's and Régin's flow-based propagators reason on all the
// values at once, which this does not.

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <initializer_list>
#include <ranges>
#include <string>
#include <utility>
#include <vector>

#include "../engine/error.hpp"
#include "../engine/view.hpp"
#include "arguments.hpp"
#include "count.hpp"
#include "linear.hpp"

namespace propane {

// The constraint, as global_cardinality() returns it.
template <class X, class C>
    requires std::convertible_to<X, AffineView> && std::convertible_to<C, AffineView>
struct GlobalCardinality {
    std::vector<X> xs;
    std::vector<int> values;
    std::vector<C> counts;

    template <class S>
    void post(S& s) const {
        check(values, counts.size());
        for (const X& x : xs) s.check(x.var(), "global_cardinality");
        for (const C& c : counts) s.check(c.var(), "global_cardinality");
        for (std::size_t k = 0; k < values.size(); ++k) count(xs, values[k], Rel::eq, counts[k]).post(s);
        if (!counts.empty()) linear(counts, Rel::le, static_cast<int>(xs.size())).post(s);
    }

    static void check(const std::vector<int>& values, std::size_t counts) {
        if (values.size() != counts)
            throw model_error("global_cardinality: " + std::to_string(values.size()) + " values but " +
                              std::to_string(counts) + " counts");
        std::vector<int> sorted = values;
        std::sort(sorted.begin(), sorted.end());
        if (const auto it = std::adjacent_find(sorted.begin(), sorted.end()); it != sorted.end())
            throw model_error("global_cardinality: the value " + std::to_string(*it) + " is given twice");
    }
};

namespace detail {

template <class X, class C>
GlobalCardinality<X, C> make_gcc(std::vector<X> xs, const Numbers& values, std::vector<C> counts) {
    std::vector<int> v = values.as_ints("global_cardinality", "values");
    GlobalCardinality<X, C>::check(v, counts.size());
    return {std::move(xs), std::move(v), std::move(counts)};
}

} // namespace detail

// xs and counts as ranges of one view type each, or braced lists; values
// as a braced list or a range of any integral type.
template <detail::ViewRange R, detail::ViewRange RC>
    requires std::convertible_to<std::ranges::range_value_t<R>, AffineView> &&
             std::convertible_to<std::ranges::range_value_t<RC>, AffineView>
GlobalCardinality<std::ranges::range_value_t<R>, std::ranges::range_value_t<RC>>
global_cardinality(const R& xs, const detail::Numbers& values, const RC& counts) {
    return detail::make_gcc(detail::views_of(xs), values, detail::views_of(counts));
}
inline GlobalCardinality<AffineView, AffineView> global_cardinality(std::initializer_list<AffineView> xs,
                                                                    const detail::Numbers& values,
                                                                    std::initializer_list<AffineView> counts) {
    return detail::make_gcc(detail::views_of(xs), values, detail::views_of(counts));
}

// global_cardinality over expressions, as global_cardinality() returns it
// when xs or counts holds an Expr: posted as the GlobalCardinality over
// AffineView that the braced-list form posts, auxiliary variables first.
struct GlobalCardinalityOfExprs {
    detail::Listing xs;
    std::vector<int> values;
    detail::Listing counts;

    template <class S>
    void post(S& s) const {
        GlobalCardinality<AffineView, AffineView>{xs.views(s, "global_cardinality"), values,
                                                  counts.views(s, "global_cardinality")}
            .post(s);
    }
};

// xs and counts as braced lists or ranges of views and expressions,
// {x + y, y * z, x}; lists of views alone take the overloads above.
inline GlobalCardinalityOfExprs global_cardinality(detail::Listing xs, const detail::Numbers& values,
                                                   detail::Listing counts) {
    std::vector<int> v = values.as_ints("global_cardinality", "values");
    GlobalCardinality<AffineView, AffineView>::check(v, counts.size());
    return {std::move(xs), std::move(v), std::move(counts)};
}

} // namespace propane

#endif
