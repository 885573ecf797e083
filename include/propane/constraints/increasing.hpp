#ifndef PROPANE_CONSTRAINTS_INCREASING_HPP
#define PROPANE_CONSTRAINTS_INCREASING_HPP

// increasing(xs): xs[0] <= xs[1] <= ... <= xs[n-1];
// strictly_increasing(xs): each < the next. xs is a range of views of one
// type (AffineView holds any mix) or a braced list, which may hold
// expressions (x + y, abs(x - y): each gets its view or auxiliary variable
// when posted, arguments.hpp's Listing). (For decreasing, pass the views
// in reverse.)
//
// Posted as one rel() between each two neighbours. Strength: domain
// consistent, for views on distinct variables: a chain of binary
// relations has no cycle, so each relation's own consistency (a view
// keeps the values up to the next one's greatest) makes the whole
// consistent. Views that share a variable are sound.

#include <concepts>
#include <cstddef>
#include <initializer_list>
#include <ranges>
#include <utility>
#include <vector>

#include "../engine/view.hpp"
#include "arguments.hpp"
#include "rel.hpp"

namespace propane {

// The constraint, as increasing() and strictly_increasing() return it.
template <class X>
    requires std::convertible_to<X, AffineView>
struct IncreasingConstraint {
    std::vector<X> xs;
    bool strict = false;

    template <class S>
    void post(S& s) const {
        for (const X& x : xs) s.check(x.var(), strict ? "strictly_increasing" : "increasing");
        for (std::size_t i = 0; i + 1 < xs.size(); ++i) rel(xs[i], strict ? Rel::lt : Rel::le, xs[i + 1]).post(s);
    }
};

template <detail::ViewRange R>
    requires std::convertible_to<std::ranges::range_value_t<R>, AffineView>
IncreasingConstraint<std::ranges::range_value_t<R>> increasing(const R& xs) {
    return {detail::views_of(xs), false};
}
template <detail::ViewHandle X>
    requires std::convertible_to<X, AffineView>
IncreasingConstraint<X> increasing(std::initializer_list<X> xs) {
    return {detail::views_of(xs), false};
}
inline IncreasingConstraint<AffineView> increasing(std::initializer_list<AffineView> xs) {
    return {detail::views_of(xs), false};
}

template <detail::ViewRange R>
    requires std::convertible_to<std::ranges::range_value_t<R>, AffineView>
IncreasingConstraint<std::ranges::range_value_t<R>> strictly_increasing(const R& xs) {
    return {detail::views_of(xs), true};
}
template <detail::ViewHandle X>
    requires std::convertible_to<X, AffineView>
IncreasingConstraint<X> strictly_increasing(std::initializer_list<X> xs) {
    return {detail::views_of(xs), true};
}
inline IncreasingConstraint<AffineView> strictly_increasing(std::initializer_list<AffineView> xs) {
    return {detail::views_of(xs), true};
}

// increasing or strictly_increasing over expressions, as they return it
// when xs holds an Expr: posted as the IncreasingConstraint over
// AffineView that the braced-list form posts, auxiliary variables first.
struct IncreasingOfExprs {
    detail::Listing xs;
    bool strict = false;

    template <class S>
    void post(S& s) const {
        IncreasingConstraint<AffineView>{xs.views(s, strict ? "strictly_increasing" : "increasing"), strict}.post(s);
    }
};

// xs as a braced list or range of views and expressions, {x + y, y * z,
// x}; lists of views alone take the overloads above.
inline IncreasingOfExprs increasing(detail::Listing xs) { return {std::move(xs), false}; }
inline IncreasingOfExprs strictly_increasing(detail::Listing xs) { return {std::move(xs), true}; }

} // namespace propane

#endif
