#ifndef PROPANE_CONSTRAINTS_COUNT_HPP
#define PROPANE_CONSTRAINTS_COUNT_HPP

// count(xs, v, r, c): #{k : xs[k] == v} r c, v a number, r any Rel, c a
// number or a view; xs a range of views of one type (AffineView holds any
// mix) or a braced list; numbers of any integral type, within int. xs and
// c may also be expressions (x + y, abs(x - y)): each gets its view or
// auxiliary variable when posted (arguments.hpp's Listing).
//
// Strength: domain consistent, on c and on every xs[k], for views on
// distinct variables. Let `sure` be the number of views fixed to v and
// `open` the number of the others that still hold v: the count can be any
// integer N in sure .. sure + open, as the views are independent. So
//   c keeps w when some such N has N r w;
//   an open view keeps v when some N in sure + 1 .. sure + open relates to
//   some value of c, and its other values when some N in sure ..
//   sure + open - 1 does; every open view is in the same case, so either
//   all lose v, or all are fixed to v, or none changes;
//   a view fixed to v, or without v, keeps its values once c has any.
// For eq this is: the views fixed to v already reach max(c), so v leaves
// the others; the views that can be v are just min(c), so they all are v.
// c a number is c a view fixed to it, on which nothing is removed.
//
// Views that share a variable are treated as independent (sound), and the
// pass repeats until nothing changes, so a run still ends at a fixpoint.
//
// A run counts over all the views, O(n): sure and open are not kept
// between runs, as keeping them would take a trailed pair of counters and
// a tagged subscription per view, and the views are walked anyway whenever
// the count becomes tight.

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <ranges>
#include <type_traits>
#include <memory>
#include <utility>
#include <vector>

#include "../engine/error.hpp"
#include "../engine/propagator.hpp"
#include "../engine/view.hpp"
#include "arguments.hpp"
#include "rel.hpp"

namespace propane {

namespace detail::counting {

// c given as a number: a view fixed to it that is never updated.
struct Constant {
    int c;
    template <class S> int min(const S&) const noexcept { return c; }
    template <class S> int max(const S&) const noexcept { return c; }
    template <class S> bool fixed(const S&) const noexcept { return true; }
    template <class S> int value(const S&) const noexcept { return c; }
    template <class S> int next(const S&, int) const noexcept { return c; }
};

template <class C>
struct KeptCount {
    using type = kept_t<C>;
};
template <>
struct KeptCount<Constant> {
    using type = Constant;
};

// Whether some N in lo .. hi (lo <= hi) has N r w for some value w of c.
template <class S, class C>
bool some(const S& s, const C& c, Rel r, int lo, int hi) {
    switch (r) {
    case Rel::eq:
        if (c.max(s) < lo || c.min(s) > hi) return false;
        return lo <= c.min(s) || c.next(s, lo - 1) <= hi;
    case Rel::ne: return lo < hi || !c.fixed(s) || c.value(s) != lo;
    case Rel::lt: return lo < c.max(s);
    case Rel::le: return lo <= c.max(s);
    case Rel::gt: return hi > c.min(s);
    case Rel::ge: return hi >= c.min(s);
    }
    return false;
}

// Keeps the values w of c with some N in lo .. hi, N r w; false on failure.
template <class S, class C>
bool filter(S& s, const C& c, Rel r, int lo, int hi) {
    if constexpr (std::same_as<C, Constant>) {
        return some(s, c, r, lo, hi);
    } else {
        Change ch = Change::none;
        switch (r) {
        case Rel::eq: ch = detail::keep_between(c, s, lo, hi); break;
        case Rel::ne: ch = lo == hi ? c.remove(s, lo) : Change::none; break;
        case Rel::lt: ch = c.remove_below(s, lo + 1); break;
        case Rel::le: ch = c.remove_below(s, lo); break;
        case Rel::gt: ch = c.remove_above(s, hi - 1); break;
        case Rel::ge: ch = c.remove_above(s, hi); break;
        }
        return ch != Change::failed;
    }
}

} // namespace detail::counting

namespace detail {

template <class S, class X, class C>
class Count : public PropagatorBase<S, Count<S, X, C>> {
    using Kept = typename counting::KeptCount<C>::type;

public:
    Count(const std::vector<X>& xs, int v, Rel r, Kept c, bool shared)
        : xs_(kept(xs)), v_(v), r_(r), c_(c), shared_(shared) {}

    PropStatus propagate(S& s) override {
        for (;;) {
            const std::uint64_t before = shared_ ? total(s) : 0;
            const PropStatus st = pass(s);
            if (st != PropStatus::fix || !shared_ || total(s) == before) return st;
        }
    }

private:
    // c first, then the open views; when they change, the count is fixed
    // and c is filtered once more. Then every view is decided and c relates
    // to the count by every value: one pass is a fixpoint, and the
    // constraint is entailed.
    PropStatus pass(S& s) {
        int sure = 0, open = 0;
        for (const auto& x : xs_)
            if (x.contains(s, v_)) ++(x.fixed(s) ? sure : open);
        if (!counting::filter(s, c_, r_, sure, sure + open)) return PropStatus::failed;
        if (open == 0) return PropStatus::subsumed;
        const bool take = counting::some(s, c_, r_, sure + 1, sure + open);
        const bool leave = counting::some(s, c_, r_, sure, sure + open - 1);
        if (take && leave) return PropStatus::fix;
        for (const auto& x : xs_) {
            if (!x.contains(s, v_) || x.fixed(s)) continue;
            if ((take ? x.assign(s, v_) : x.remove(s, v_)) == Change::failed) return PropStatus::failed;
        }
        // Over shared variables an update may have decided another view
        // otherwise: the next pass counts again.
        if (shared_) return PropStatus::fix;
        const int n = take ? sure + open : sure;
        return counting::filter(s, c_, r_, n, n) ? PropStatus::subsumed : PropStatus::failed;
    }

    std::uint64_t total(const S& s) const {
        std::uint64_t n = 0;
        for (const auto& x : xs_) n += x.size(s);
        if constexpr (!std::same_as<C, counting::Constant>) n += c_.size(s);
        return n;
    }

    std::vector<kept_t<X>> xs_;
    int v_;
    Rel r_;
    Kept c_;
    bool shared_;
};

} // namespace detail

// The constraint #{k : xs[k] == v} r c, as count() returns it; C is a view
// type or int.
template <class X, class C>
    requires std::convertible_to<X, AffineView> && (std::convertible_to<C, AffineView> || std::same_as<C, int>)
struct Count {
    std::vector<X> xs;
    int v = 0;
    Rel r = Rel::eq;
    C c;

    template <class S>
    void post(S& s) const {
        detail::check_rel(r, "count");
        std::vector<int> vars;
        vars.reserve(xs.size() + 1);
        for (const X& x : xs) {
            s.check(x.var(), "count");
            vars.push_back(x.var().index());
        }
        if constexpr (std::same_as<C, int>) {
            add(s, detail::counting::Constant{c}, vars);
        } else {
            s.check(c.var(), "count");
            vars.push_back(c.var().index());
            // What of c each relation reads: its bounds for eq, its value
            // for ne, one end for an order.
            const Event e = r == Rel::eq                  ? Event::bounds
                            : r == Rel::ne                ? Event::fixed
                            : r == Rel::lt || r == Rel::le ? max_event(c)
                                                           : min_event(c);
            const int id = add(s, detail::kept(c), vars);
            s.subscribe(c.var(), id, e);
        }
    }

private:
    template <class S, class K>
    int add(S& s, K kc, std::vector<int>& vars) const {
        std::sort(vars.begin(), vars.end());
        const bool shared = std::adjacent_find(vars.begin(), vars.end()) != vars.end();
        using Kind = std::conditional_t<std::same_as<C, int>, detail::counting::Constant, C>;
        const int id = s.add_propagator(std::make_unique<detail::Count<S, X, Kind>>(xs, v, r, kc, shared));
        // Only v's leaving or a view's fixing matters, both domain events.
        for (const X& x : xs) s.subscribe(x.var(), id, Event::domain);
        return id;
    }
};

namespace detail::counting {

// c as a number of any integral type, or a view.
template <class C>
concept Target = Integer<C> || std::convertible_to<C, AffineView>;

template <class C>
using Kind = std::conditional_t<Integer<C>, int, C>;

template <class X, class C>
propane::Count<X, Kind<C>> make(std::vector<X> xs, const Number& v, Rel r, const C& c) {
    check_rel(r, "count");
    const int value = v.get_int("count", "the value v");
    if constexpr (Integer<C>)
        return {std::move(xs), value, r, Number(c).get_int("count", "the count c")};
    else
        return {std::move(xs), value, r, c};
}

} // namespace detail::counting

// xs as a range of one view type or a braced list (arguments.hpp); v and a
// constant c of any integral type.
template <detail::ViewRange R, detail::counting::Target C>
    requires std::convertible_to<std::ranges::range_value_t<R>, AffineView>
Count<std::ranges::range_value_t<R>, detail::counting::Kind<C>> count(const R& xs, detail::Number v, Rel r,
                                                                       const C& c) {
    return detail::counting::make(detail::views_of(xs), v, r, c);
}
template <detail::ViewHandle X, detail::counting::Target C>
    requires std::convertible_to<X, AffineView>
Count<X, detail::counting::Kind<C>> count(std::initializer_list<X> xs, detail::Number v, Rel r, const C& c) {
    return detail::counting::make(detail::views_of(xs), v, r, c);
}
template <detail::counting::Target C>
Count<AffineView, detail::counting::Kind<C>> count(std::initializer_list<AffineView> xs, detail::Number v, Rel r,
                                                   const C& c) {
    return detail::counting::make(detail::views_of(xs), v, r, c);
}

namespace detail::counting {

// c as the forms above take it, or as an expression.
template <class C>
concept ListedTarget = Target<C> || std::derived_from<C, Expr>;

// What CountOfExprs keeps of c: a number as int, a view as it is, an
// expression as a Listed item.
template <class C>
using ListedKind = std::conditional_t<std::derived_from<C, Expr>, Listed, Kind<C>>;

} // namespace detail::counting

// count over expressions, as count() returns it when xs holds an Expr (or
// c is one): posted as the Count over AffineView, and c's view when it is
// an expression, that the braced-list form posts, auxiliary variables
// first.
template <class C>
struct CountOfExprs {
    detail::Listing xs;
    int v = 0;
    Rel r = Rel::eq;
    C c;

    template <class S>
    void post(S& s) const {
        detail::check_rel(r, "count");
        std::vector<AffineView> views = xs.views(s, "count");
        if constexpr (std::same_as<C, detail::Listed>)
            Count<AffineView, AffineView>{std::move(views), v, r, detail::as_view(s, c, "count")}.post(s);
        else
            Count<AffineView, C>{std::move(views), v, r, c}.post(s);
    }
};

// xs as a braced list or range of views and expressions, {x + y, y * z,
// x}; c a number, a view or an expression. Lists of views with c a number
// or a view take the overloads above.
template <detail::counting::ListedTarget C>
CountOfExprs<detail::counting::ListedKind<C>> count(detail::Listing xs, detail::Number v, Rel r, const C& c) {
    detail::check_rel(r, "count");
    const int value = v.get_int("count", "the value v");
    if constexpr (detail::Integer<C>)
        return {std::move(xs), value, r, detail::Number(c).get_int("count", "the count c")};
    else
        return {std::move(xs), value, r, c};
}

} // namespace propane

#endif
