#ifndef PROPANE_CONSTRAINTS_REL_HPP
#define PROPANE_CONSTRAINTS_REL_HPP

// rel(x, r, y) and rel(x, r, c): a relation between two views, or between a
// view and a constant, r one of eq, ne, lt, le, gt, ge. The views may be of
// different kinds (IntVar, OffsetView, AffineView); the propagator is a
// template over both, so each view's arithmetic is inlined.
//
// Strength, in view space:
//   eq           domain consistent: each view keeps exactly the values the
//                other can also take. Woken by any domain change.
//   ne           domain consistent: once one view is fixed, its value leaves
//                the other. Woken when a view becomes fixed.
//   lt le gt ge  bounds consistent: x <= y cuts x above max(y) and y below
//                min(x) (lt by one more; gt and ge swap the views). Woken by
//                bounds changes. For one order relation between two views
//                this is also domain consistent: every value of x up to
//                max(y) has max(y) as its support, and likewise for y.
//   a constant   applied once, when posted, as a trailed update through the
//                view (domain consistent, nothing is left to propagate). A
//                failing update leaves the store failed, as any failed update
//                does; a post inside a level is undone by pop_level.
//   one variable views over the same variable (rel(x, eq, x + 1),
//                rel(x, ne, 2 * x)) are not independent, so the relation is
//                a unary constraint on that variable: applied once, when
//                posted, by keeping exactly the variable's values v for which
//                x.of(v) r y.of(v) holds (domain consistent).
//
// The views' values fit in int, so every comparison, and every bound moved
// by one, is exact in 64 bits: rel never refuses a model for overflow.

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include "../engine/error.hpp"
#include "../engine/names.hpp"
#include "../engine/propagator.hpp"
#include "../engine/runs.hpp"
#include "../engine/view.hpp"
#include "arguments.hpp"

namespace propane {

enum class Rel : std::uint8_t { eq, ne, lt, le, gt, ge };

// The names used in the documentation and on command lines.
constexpr std::string_view to_string(Rel r) noexcept {
    switch (r) {
    case Rel::eq: return "eq";
    case Rel::ne: return "ne";
    case Rel::lt: return "lt";
    case Rel::le: return "le";
    case Rel::gt: return "gt";
    case Rel::ge: return "ge";
    }
    return "?";
}
constexpr std::optional<Rel> rel_from_string(std::string_view name) noexcept {
    return detail::from_name(name, {Rel::eq, Rel::ne, Rel::lt, Rel::le, Rel::gt, Rel::ge});
}

namespace detail {

// A Rel made by a cast from a number outside the enum would reach no
// propagator: refused where it is first seen. `who` names the constraint.
inline void check_rel(Rel r, std::string_view who) {
    if (static_cast<unsigned>(r) > static_cast<unsigned>(Rel::ge))
        throw model_error(formatted("%.*s: relation %u is not a propane::Rel (eq, ne, lt, le, gt or ge)",
                                    static_cast<int>(who.size()), who.data(), static_cast<unsigned>(r)));
}

// r with its sides swapped: a r b is b swapped(r) a.
constexpr Rel swapped(Rel r) noexcept {
    switch (r) {
    case Rel::lt: return Rel::gt;
    case Rel::le: return Rel::ge;
    case Rel::gt: return Rel::lt;
    case Rel::ge: return Rel::le;
    default: return r;
    }
}

// The relation a post is made for: any (RelOf = Rel, read at run time, as
// rel(x, r, y) takes it) or one (std::integral_constant<Rel, R>, as x < y
// fixes it). may_be<RelOf>(r) says whether r is possible, so that a post
// for one relation instantiates only its propagators (`if constexpr`).
template <class RelOf>
constexpr bool may_be(Rel r) noexcept {
    if constexpr (std::same_as<RelOf, Rel>)
        return true;
    else
        return RelOf::value == r;
}

template <Rel R>
using RelIs = std::integral_constant<Rel, R>;

// f(RelIs<R>{}) for the relation R that r is: a relation read at run time
// handed to code written for one.
template <class F>
void with_rel(Rel r, F&& f) {
    switch (r) {
    case Rel::eq: f(RelIs<Rel::eq>{}); return;
    case Rel::ne: f(RelIs<Rel::ne>{}); return;
    case Rel::lt: f(RelIs<Rel::lt>{}); return;
    case Rel::le: f(RelIs<Rel::le>{}); return;
    case Rel::gt: f(RelIs<Rel::gt>{}); return;
    case Rel::ge: f(RelIs<Rel::ge>{}); return;
    }
}

constexpr bool holds(Rel r, std::int64_t a, std::int64_t b) noexcept {
    switch (r) {
    case Rel::eq: return a == b;
    case Rel::ne: return a != b;
    case Rel::lt: return a < b;
    case Rel::le: return a <= b;
    case Rel::gt: return a > b;
    case Rel::ge: return a >= b;
    }
    return false;
}

// Keeps the values w of view v for which keep(w) holds; false on failure.
// Removal by removal, so each goes through the store, which remembers the
// failure when the last value goes; the removals stop there (the failed
// update left the domain whole, and the store is failed until its level is
// popped).
template <class S, class V, class Keep>
bool filter_values(S& s, const V& v, Keep&& keep) {
    bool ok = true;
    v.for_each(s, [&](int w) {
        if (ok && !keep(w)) ok = v.remove(s, w) != Change::failed;
    });
    return ok;
}

// x r y over views of one variable: the values v of the variable with
// x(v) r y(v) (the header says why).
template <class S, class X, class Y>
void same_var_rel(S& s, Rel r, const X& x, const Y& y) {
    filter_values(s, x.var(), [&](int v) { return holds(r, x.of(v), y.of(v)); });
}

// Removes from a the values b cannot take; false on failure. The bounds
// first: one update each instead of a removal per value outside them. A
// wide domain on either side is then walked by runs (engine/runs.hpp).
// Either way the bounds go by bound updates, which wake only the
// propagators of the bound that moved, so that both forms wake the same
// ones.
template <class S, class A, class B>
bool keep_common(S& s, const A& a, const B& b) {
    if (a.remove_below(s, b.min(s)) == Change::failed || a.remove_above(s, b.max(s)) == Change::failed)
        return false;
    if (wide(a, s) || wide(b, s)) return keep_only(s, a, ValuesOf{b, s});
    return filter_values(s, a, [&](int v) { return b.contains(s, v); });
}

// The ints t with k*t + c r 0: none, all, a point, a half-line, or all but
// a point. Solved rather than tried per value, for a variable of billions.
inline IntervalSet solutions(std::int64_t k, std::int64_t c, Rel r) {
    IntervalSet out;
    const auto add = [&out](std::int64_t lo, std::int64_t hi) { out.add(std::max(lo, int_min), std::min(hi, int_max)); };
    if (k == 0) {
        if (holds(r, c, 0)) add(int_min, int_max);
        return out;
    }
    if (k < 0) { // k*t + c r 0 is -k*t - c r' 0, r' the converse of r
        k = -k;
        c = -c;
        r = r == Rel::lt ? Rel::gt : r == Rel::gt ? Rel::lt : r == Rel::le ? Rel::ge : r == Rel::ge ? Rel::le : r;
    }
    // k > 0: k*t + c r 0 is t r -c/k.
    switch (r) {
    case Rel::eq:
        if (c % k == 0) add(-c / k, -c / k);
        break;
    case Rel::ne:
        if (c % k == 0) {
            add(int_min, -c / k - 1);
            add(-c / k + 1, int_max);
        } else {
            add(int_min, int_max);
        }
        break;
    case Rel::lt: add(int_min, ceil_div(-c, k) - 1); break;
    case Rel::le: add(int_min, floor_div(-c, k)); break;
    case Rel::gt: add(floor_div(-c, k) + 1, int_max); break;
    case Rel::ge: add(ceil_div(-c, k), int_max); break;
    }
    return out;
}

// x == y: each view keeps the values of the other (two different variables).
template <class S, class X, class Y>
class RelEq : public PropagatorBase<S, RelEq<S, X, Y>> {
public:
    RelEq(X x, Y y) : x_(x), y_(y) {}

    // After the first pass x holds only values of y; the second removes from
    // y what x lacks, which leaves x alone: one run reaches the fixpoint.
    PropStatus propagate(S& s) override {
        return keep_common(s, x_, y_) && keep_common(s, y_, x_) ? PropStatus::fix : PropStatus::failed;
    }

private:
    X x_;
    Y y_;
};

// x != y: the value of a fixed view leaves the other.
template <class S, class X, class Y>
class RelNe : public PropagatorBase<S, RelNe<S, X, Y>> {
public:
    RelNe(X x, Y y) : x_(x), y_(y) {}

    // If the first removal fixes y, its value differs from x's, so the
    // second removes nothing: one run is a fixpoint.
    PropStatus propagate(S& s) override {
        if (x_.fixed(s) && y_.remove(s, x_.value(s)) == Change::failed) return PropStatus::failed;
        if (y_.fixed(s) && x_.remove(s, y_.value(s)) == Change::failed) return PropStatus::failed;
        return PropStatus::fix;
    }

private:
    X x_;
    Y y_;
};

// x + strict <= y, strict 0 (le) or 1 (lt).
template <class S, class X, class Y>
class RelLe : public PropagatorBase<S, RelLe<S, X, Y>> {
public:
    RelLe(X x, Y y, int strict) : x_(kept(x)), y_(kept(y)), strict_(strict) {}

    // Cutting x from above leaves min(x) where it was, so y's cut reads the
    // same min(x) the first would have: one run is a fixpoint.
    //
    // Each cut is tested here first: most runs cut one side or neither, and
    // an update that changes nothing still costs a call into the store.
    PropStatus propagate(S& s) override {
        if (const std::int64_t top = std::int64_t{y_.max(s)} - strict_;
            x_.max(s) > top && keep_at_most(x_, s, top) == Change::failed)
            return PropStatus::failed;
        if (const std::int64_t bottom = std::int64_t{x_.min(s)} + strict_;
            y_.min(s) < bottom && keep_at_least(y_, s, bottom) == Change::failed)
            return PropStatus::failed;
        // Once every x lies below every y, nothing is left to cut here. In
        // Golomb's chain of marks, where the differences' linear sums cut
        // what x < y would, half its runs came after that.
        return std::int64_t{x_.max(s)} + strict_ <= y_.min(s) ? PropStatus::subsumed : PropStatus::fix;
    }

private:
    kept_t<X> x_;
    kept_t<Y> y_;
    int strict_;
};

template <class P, class S, class X, class Y, class... Args>
void post_binary(S& s, Event event, const X& x, const Y& y, Args... args) {
    const int id = s.add_propagator(std::make_unique<P>(x, y, args...));
    s.subscribe(x.var(), id, event);
    s.subscribe(y.var(), id, event);
}

// x + strict <= y reads only min(x) and max(y).
template <class S, class X, class Y>
void post_le(S& s, const X& x, const Y& y, int strict) {
    const int id = s.add_propagator(std::make_unique<RelLe<S, X, Y>>(x, y, strict));
    s.subscribe(x.var(), id, min_event(x));
    s.subscribe(y.var(), id, max_event(y));
}

// x R y (Relation::post), for the one relation R: the propagator of R
// alone is instantiated. `who` names the post in messages.
template <Rel R, class S, class X, class Y>
void post_rel(S& s, const X& x, const Y& y, std::string_view who) {
    s.check(x.var(), who);
    s.check(y.var(), who);
    if (x.var().same(y.var())) {
        // A function, not a lambda here, so that the six relations share one.
        same_var_rel(s, R, x, y);
        return;
    }
    if constexpr (R == Rel::eq)
        post_binary<RelEq<S, X, Y>>(s, Event::domain, x, y);
    else if constexpr (R == Rel::ne)
        post_binary<RelNe<S, X, Y>>(s, Event::fixed, x, y);
    else if constexpr (R == Rel::lt || R == Rel::le)
        post_le(s, x, y, R == Rel::lt ? 1 : 0);
    else
        post_le(s, y, x, R == Rel::gt ? 1 : 0);
}

// x R c (ConstRelation::post), for the one relation R.
template <Rel R, class S, class X>
void post_const_rel(S& s, const X& x, std::int64_t c, std::string_view who) {
    s.check(x.var(), who);
    // Beyond int's range by one, c still means what it meant to every
    // view value, and c - 1, c + 1 stay far from overflow.
    const std::int64_t k = std::clamp(c, int_min - 1, int_max + 1);
    const bool in_int = k >= int_min && k <= int_max;
    // A failure is the store's to remember (a view that refuses the
    // value fails it too), so the Change itself is not needed here.
    [[maybe_unused]] Change done = Change::none;
    if constexpr (R == Rel::eq)
        done = in_int ? x.assign(s, static_cast<int>(k)) : s.fail();
    else if constexpr (R == Rel::ne)
        done = in_int ? x.remove(s, static_cast<int>(k)) : Change::none;
    else if constexpr (R == Rel::lt || R == Rel::le)
        done = keep_at_most(x, s, R == Rel::lt ? k - 1 : k);
    else
        done = keep_at_least(x, s, R == Rel::gt ? k + 1 : k);
}

} // namespace detail

// The constraint x r y, as rel(x, r, y) returns it.
template <class X, class Y>
struct Relation {
    X x;
    Rel r = Rel::eq;
    Y y;

    // Defined below, out of the class and not inline, so that an explicit
    // instantiation declaration (propane/compiled.hpp) keeps a model's file
    // from instantiating the propagators it chooses from.
    template <class S>
    void post(S& s) const;
};

template <class X, class Y>
template <class S>
void Relation<X, Y>::post(S& s) const {
    detail::check_rel(r, "rel");
    detail::with_rel(r, [&](auto rel) { detail::post_rel<rel.value>(s, x, y, "rel"); });
}

// The constraint x r c, as rel(x, r, c) returns it.
template <class X>
struct ConstRelation {
    X x;
    Rel r = Rel::eq;
    std::int64_t c = 0;

    // Out of the class body, so that compiled.hpp can declare it for IntVar.
    template <class S>
    void post(S& s) const;
};

template <class X>
template <class S>
void ConstRelation<X>::post(S& s) const {
    detail::check_rel(r, "rel");
    detail::with_rel(r, [&](auto rel) { detail::post_const_rel<rel.value>(s, x, c, "rel"); });
}

template <detail::ViewHandle X, detail::ViewHandle Y>
Relation<X, Y> rel(const X& x, Rel r, const Y& y) {
    detail::check_rel(r, "rel");
    return {x, r, y};
}

// c of any integral type; one beyond 64 bits (unsigned) relates to every
// view value as INT64_MAX does.
template <detail::ViewHandle X>
ConstRelation<X> rel(const X& x, Rel r, detail::Number c) {
    detail::check_rel(r, "rel");
    return {x, r, c.saturated()};
}

} // namespace propane

#endif
