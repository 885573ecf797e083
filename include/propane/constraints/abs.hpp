#ifndef PROPANE_CONSTRAINTS_ABS_HPP
#define PROPANE_CONSTRAINTS_ABS_HPP

// abs(x, y): y == |x|, over any two views (IntVar, x + c, a*x + b, of one
// type or of two).
//
// Strength: domain consistency. After a run every value left to x has its
// absolute value left to y, and every value left to y is >= 0 and has itself
// or its opposite left to x. One pass reaches this: y is filtered by x,
// then x by y, and the second pass cannot take away a support of a value
// the first kept (x loses u only when |u| has left y, and then no value of y
// relied on u). A run costs O(|x| + |y|) value visits, so the propagator
// wakes on any domain change.
//
// When x and y are views of one variable t, y == |x| is a condition on t
// alone: post() detects it, and a propagator run once removes each t for
// which it fails. Every value left then satisfies it, so the constraint is
// entailed and needs no subscription (abs(x, x) leaves x >= 0, abs(x, -x)
// leaves x <= 0).
//
// |x| is computed in 64 bits, where it cannot overflow (|INT_MIN| does not
// fit in int, and is simply a value no view holds), so no view is refused
// for its range.

#include <concepts>
#include <cstdint>
#include <memory>

#include "../engine/error.hpp"
#include "../engine/propagator.hpp"
#include "../engine/view.hpp"
#include "rel.hpp" // detail::filter_values

namespace propane {

namespace detail::absolute {

// Whether view v holds the 64-bit value w: a value outside int is held by
// no view, so the narrowing below is exact when it happens.
template <class V, class S>
bool holds(const V& v, const S& s, std::int64_t w) noexcept {
    return w >= int_min && w <= int_max && v.contains(s, static_cast<int>(w));
}

constexpr std::int64_t magnitude(std::int64_t v) noexcept { return v < 0 ? -v : v; }

} // namespace detail::absolute

namespace detail {

template <class Store, class X, class Y>
class AbsDomain : public PropagatorBase<Store, AbsDomain<Store, X, Y>> {
public:
    AbsDomain(X x, Y y) : x_(x), y_(y) {}

    PropStatus propagate(Store& s) override {
        const auto has_support = [&](int v) { return v >= 0 && (x_.contains(s, v) || x_.contains(s, -v)); };
        const bool ok = filter_values(s, y_, has_support) &&
                        filter_values(s, x_, [&](int u) { return absolute::holds(y_, s, absolute::magnitude(u)); });
        return ok ? PropStatus::fix : PropStatus::failed;
    }

private:
    X x_;
    Y y_;
};

// x and y over one variable: keeps the variable's values t with
// y.of(t) == |x.of(t)|.
template <class Store, class X, class Y>
class AbsSameVariable : public PropagatorBase<Store, AbsSameVariable<Store, X, Y>> {
public:
    AbsSameVariable(X x, Y y) : x_(x), y_(y) {}

    PropStatus propagate(Store& s) override {
        const bool ok =
            filter_values(s, x_.var(), [&](int t) { return y_.of(t) == absolute::magnitude(x_.of(t)); });
        return ok ? PropStatus::fix : PropStatus::failed;
    }

private:
    X x_;
    Y y_;
};

} // namespace detail

// The arguments are constrained to views (each view kind converts to
// AffineView, a number does not), so that a user's `using namespace
// propane` leaves abs(-3) to the standard library.
template <class X, class Y>
    requires std::convertible_to<X, AffineView> && std::convertible_to<Y, AffineView>
struct Abs {
    X x;
    Y y;

    template <class Store>
    int post(Store& s) const {
        s.check(x.var(), "abs");
        s.check(y.var(), "abs");
        if (x.var().index() == y.var().index())
            return s.add_propagator(std::make_unique<detail::AbsSameVariable<Store, X, Y>>(x, y));
        const int id = s.add_propagator(std::make_unique<detail::AbsDomain<Store, X, Y>>(x, y));
        s.subscribe(x.var(), id, Event::domain);
        s.subscribe(y.var(), id, Event::domain);
        return id;
    }
};

template <class X, class Y>
    requires std::convertible_to<X, AffineView> && std::convertible_to<Y, AffineView>
Abs<X, Y> abs(X x, Y y) {
    return {x, y};
}

} // namespace propane

#endif
