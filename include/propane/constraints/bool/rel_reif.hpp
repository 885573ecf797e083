#ifndef PROPANE_CONSTRAINTS_BOOL_REL_REIF_HPP
#define PROPANE_CONSTRAINTS_BOOL_REL_REIF_HPP

// rel(x, r, y, iff(b)), rel(x, r, c, iff(b)) and the same with implies(b):
// b == (x r y), or b == 1 => x r y, for every Rel and any views.
//
// Strength: domain consistent on x, y and b, for every relation, when x, y
// and b are views of three different variables. With b open, every value of
// x and y has a support (in the relation or in its negation), so only b is
// pruned, exactly: to 1 when the relation is entailed (iff only), to 0 when
// it is disentailed. Entailment and disentailment are decided exactly: for
// eq, both views fixed to one value, or no value in common; for order
// relations, on bounds. Once b is fixed the relation (b == 1) or its
// negation (b == 0, iff only) is enforced as rel(x, r, y) does it, and for
// two independent views that is domain consistent for every Rel (see
// rel.hpp). implies(b) never reads b == 0 and never concludes b == 1.
// Views of one variable (rel(x, lt, x + 1, iff(b))) are a unary relation
// on it, decided and enforced value by value (domain consistent too).
//
// Woken by: b fixed; x and y on domain changes for eq, and for ne under
// iff (the negation is eq); on fixing for ne under implies; on bounds for
// order relations (under implies, the one bound of each side that the cut
// and the disentailment read). With a constant, the same for x.

#include <cstdint>
#include <memory>

#include "../../engine/error.hpp"
#include "../../engine/propagator.hpp"
#include "../../engine/view.hpp"
#include "../reify.hpp"
#include "../rel.hpp"

namespace propane {

namespace detail {

constexpr Rel negated(Rel r) noexcept {
    switch (r) {
    case Rel::eq: return Rel::ne;
    case Rel::ne: return Rel::eq;
    case Rel::lt: return Rel::ge;
    case Rel::le: return Rel::gt;
    case Rel::gt: return Rel::le;
    case Rel::ge: return Rel::lt;
    }
    return r;
}

// 1 when x r y holds whatever values are left, -1 when it cannot, else 0;
// x and y on different variables.
template <class S, class X, class Y>
int rel_state(const S& s, Rel r, const X& x, const Y& y) {
    switch (r) {
    case Rel::eq:
    case Rel::ne: {
        int st = 0;
        if (x.fixed(s) && y.fixed(s))
            st = x.value(s) == y.value(s) ? 1 : -1;
        else if (disjoint(s, x, y))
            st = -1;
        return r == Rel::eq ? st : -st;
    }
    case Rel::lt:
    case Rel::le: {
        const int strict = r == Rel::lt ? 1 : 0;
        if (std::int64_t{x.max(s)} + strict <= y.min(s)) return 1;
        return std::int64_t{x.min(s)} + strict > y.max(s) ? -1 : 0;
    }
    case Rel::gt: return rel_state(s, Rel::lt, y, x);
    case Rel::ge: return rel_state(s, Rel::le, y, x);
    }
    return 0;
}

// Enforces x r y as rel.hpp's propagators do (one pass is their fixpoint);
// false on failure.
template <class S, class X, class Y>
bool enforce_rel(S& s, Rel r, const X& x, const Y& y) {
    switch (r) {
    case Rel::eq: return keep_common(s, x, y) && keep_common(s, y, x);
    case Rel::ne:
        if (x.fixed(s) && y.remove(s, x.value(s)) == Change::failed) return false;
        return !(y.fixed(s) && x.remove(s, y.value(s)) == Change::failed);
    case Rel::lt:
    case Rel::le: {
        const int strict = r == Rel::lt ? 1 : 0;
        if (keep_at_most(x, s, std::int64_t{y.max(s)} - strict) == Change::failed) return false;
        return keep_at_least(y, s, std::int64_t{x.min(s)} + strict) != Change::failed;
    }
    case Rel::gt: return enforce_rel(s, Rel::lt, y, x);
    case Rel::ge: return enforce_rel(s, Rel::le, y, x);
    }
    return true;
}

// What a reified propagator does with the relation's state and b: shared
// by the forms with a view and with a constant. `state` and `enforce`
// take the relation to decide or enforce.
template <class S, class B, class State, class Enforce>
PropStatus reified_run(S& s, const B& b, ReifyMode mode, Rel r, State&& state, Enforce&& enforce) {
    const int bs = bool_state(s, b);
    if (bs < 0 && mode == ReifyMode::implies) return PropStatus::subsumed;
    if (bs != 0) {
        const Rel want = bs > 0 ? r : negated(r);
        if (!enforce(want)) return PropStatus::failed;
        return state(want) > 0 ? PropStatus::subsumed : PropStatus::fix;
    }
    const int st = state(r);
    if (st > 0) {
        if (mode == ReifyMode::iff && b.remove_below(s, 1) == Change::failed) return PropStatus::failed;
        return PropStatus::subsumed;
    }
    if (st < 0) return b.remove_above(s, 0) == Change::failed ? PropStatus::failed : PropStatus::subsumed;
    return PropStatus::fix;
}

template <class S, class X, class Y, class B>
class RelReif : public PropagatorBase<S, RelReif<S, X, Y, B>> {
public:
    RelReif(X x, Y y, B b, Rel r, ReifyMode mode) : x_(x), y_(y), b_(b), r_(r), mode_(mode) {}

    PropStatus propagate(S& s) override {
        if (x_.var().same(y_.var()))
            return reified_run(
                s, b_, mode_, r_, [&](Rel r) { return unary_state(s, r); },
                [&](Rel r) {
                    if constexpr (known_affine<X> && known_affine<Y>)
                        return keep_only(s, x_.var(), unary_solutions(r));
                    else
                        return filter_values(s, x_.var(), [&](int v) { return holds(r, x_.of(v), y_.of(v)); });
                });
        return reified_run(
            s, b_, mode_, r_, [&](Rel r) { return rel_state(s, r, x_, y_); },
            [&](Rel r) { return enforce_rel(s, r, x_, y_); });
    }

private:
    // x r y over one variable t is (ax - ay)*t + (bx - by) r 0.
    IntervalSet unary_solutions(Rel r) const {
        const auto [ax, bx] = coefficients(x_);
        const auto [ay, by] = coefficients(y_);
        return solutions(ax - ay, bx - by, r);
    }

    int unary_state(const S& s, Rel r) const {
        if constexpr (known_affine<X> && known_affine<Y>) {
            const IntervalSet t = unary_solutions(r);
            return t.holds_all(x_.var(), s) ? 1 : t.meets(x_.var(), s) ? 0 : -1;
        }
        bool some = false, all = true;
        x_.var().for_each(s, [&](int v) {
            const bool h = holds(r, x_.of(v), y_.of(v));
            some = some || h;
            all = all && h;
        });
        return all ? 1 : some ? 0 : -1;
    }

    X x_;
    Y y_;
    B b_;
    Rel r_;
    ReifyMode mode_;
};

template <class S, class X, class B>
class ConstRelReif : public PropagatorBase<S, ConstRelReif<S, X, B>> {
public:
    ConstRelReif(X x, std::int64_t c, B b, Rel r, ReifyMode mode) : x_(x), c_(c), b_(b), r_(r), mode_(mode) {}

    PropStatus propagate(S& s) override {
        return reified_run(
            s, b_, mode_, r_, [&](Rel r) { return state(s, r); }, [&](Rel r) { return enforce(s, r); });
    }

private:
    int state(const S& s, Rel r) const {
        switch (r) {
        case Rel::eq:
        case Rel::ne: {
            int st = -1;
            if (c_ >= int_min && c_ <= int_max && x_.contains(s, static_cast<int>(c_)))
                st = x_.fixed(s) ? 1 : 0;
            return r == Rel::eq ? st : -st;
        }
        case Rel::lt: return x_.max(s) < c_ ? 1 : x_.min(s) >= c_ ? -1 : 0;
        case Rel::le: return x_.max(s) <= c_ ? 1 : x_.min(s) > c_ ? -1 : 0;
        case Rel::gt: return x_.min(s) > c_ ? 1 : x_.max(s) <= c_ ? -1 : 0;
        case Rel::ge: return x_.min(s) >= c_ ? 1 : x_.max(s) < c_ ? -1 : 0;
        }
        return 0;
    }
    // c_ lies within int's range widened by one (see post), so c_ +- 1 is
    // exact and the ends of the range decide eq and ne.
    bool enforce(S& s, Rel r) const {
        const bool in_int = c_ >= int_min && c_ <= int_max;
        switch (r) {
        case Rel::eq: return in_int && x_.assign(s, static_cast<int>(c_)) != Change::failed;
        case Rel::ne: return !in_int || x_.remove(s, static_cast<int>(c_)) != Change::failed;
        case Rel::lt: return keep_at_most(x_, s, c_ - 1) != Change::failed;
        case Rel::le: return keep_at_most(x_, s, c_) != Change::failed;
        case Rel::gt: return keep_at_least(x_, s, c_ + 1) != Change::failed;
        case Rel::ge: return keep_at_least(x_, s, c_) != Change::failed;
        }
        return true;
    }

    X x_;
    std::int64_t c_;
    B b_;
    Rel r_;
    ReifyMode mode_;
};

// The event on x that can change what an order relation's propagator
// reads of it: both bounds under iff; under implies only the bound that
// its cut of the other view and its disentailment read (x's min for
// x <= y, where x is `low`).
template <class V>
Event order_event(const V& v, ReifyMode mode, bool low) {
    if (mode == ReifyMode::iff) return Event::bounds;
    return low ? min_event(v) : max_event(v);
}

} // namespace detail

// rel(x, r, y, iff(b)) and rel(x, r, y, implies(b)).
template <class X, class Y, class B>
struct ReifiedRelation {
    X x;
    Rel r = Rel::eq;
    Y y;
    Reify<B> re;

    // Defined below, out of the class and not inline, for
    // <propane/compiled.hpp>.
    template <class S>
    void post(S& s) const;
};

template <class X, class Y, class B>
template <class S>
void ReifiedRelation<X, Y, B>::post(S& s) const {
    detail::check_rel(r, "rel");
    s.check(x.var(), "rel");
    s.check(y.var(), "rel");
    detail::check_bool(s, re.b, "rel");
    const int id = s.add_propagator(std::make_unique<detail::RelReif<S, X, Y, B>>(x, y, re.b, r, re.mode));
    s.subscribe(re.b.var(), id, Event::fixed);
    Event ex = Event::domain, ey = Event::domain;
    switch (r) {
    case Rel::eq: break;
    case Rel::ne:
        if (re.mode == ReifyMode::implies) ex = ey = Event::fixed;
        break;
    case Rel::lt:
    case Rel::le:
        ex = detail::order_event(x, re.mode, true);
        ey = detail::order_event(y, re.mode, false);
        break;
    case Rel::gt:
    case Rel::ge:
        ex = detail::order_event(x, re.mode, false);
        ey = detail::order_event(y, re.mode, true);
        break;
    }
    // One variable under both views: read value by value.
    if (y.var().same(x.var())) {
        s.subscribe(x.var(), id, Event::domain);
        return;
    }
    s.subscribe(x.var(), id, ex);
    s.subscribe(y.var(), id, ey);
}

// rel(x, r, c, iff(b)) and rel(x, r, c, implies(b)).
template <class X, class B>
struct ReifiedConstRelation {
    X x;
    Rel r = Rel::eq;
    std::int64_t c = 0;
    Reify<B> re;

    template <class S>
    void post(S& s) const {
        detail::check_rel(r, "rel");
        s.check(x.var(), "rel");
        detail::check_bool(s, re.b, "rel");
        // Beyond int's range by one, c still means what it meant to every
        // view value, and c - 1, c + 1 stay far from overflow.
        const std::int64_t k = std::clamp(c, detail::int_min - 1, detail::int_max + 1);
        const int id =
            s.add_propagator(std::make_unique<detail::ConstRelReif<S, X, B>>(x, k, re.b, r, re.mode));
        s.subscribe(re.b.var(), id, Event::fixed);
        Event e = Event::domain;
        switch (r) {
        case Rel::eq: break;
        case Rel::ne:
            if (re.mode == ReifyMode::implies) e = Event::fixed;
            break;
        case Rel::lt:
        case Rel::le: e = detail::order_event(x, re.mode, true); break;
        case Rel::gt:
        case Rel::ge: e = detail::order_event(x, re.mode, false); break;
        }
        s.subscribe(x.var(), id, e);
    }
};

template <detail::ViewHandle X, detail::ViewHandle Y, class B>
ReifiedRelation<X, Y, B> rel(const X& x, Rel r, const Y& y, const Reify<B>& re) {
    detail::check_rel(r, "rel");
    return {x, r, y, re};
}

template <detail::ViewHandle X, class B>
ReifiedConstRelation<X, B> rel(const X& x, Rel r, detail::Number c, const Reify<B>& re) {
    detail::check_rel(r, "rel");
    return {x, r, c.saturated(), re};
}

} // namespace propane

#endif
