#ifndef PROPANE_ENGINE_RUNS_HPP
#define PROPANE_ENGINE_RUNS_HPP

// Walking views by runs, for domains too wide to walk value by value.
//
// A variable in the interval form may hold billions of values, so a domain
// propagator that filters one view by another's values, as x == y or
// y == |x| do, cannot call for_each on it. It walks runs instead, the
// maximal stretches of consecutive values: their number grows with what
// was removed from the domain, not with its width, and a whole stretch of
// absent values goes in one remove_range. The result is the same as the
// value walk's; only the cost differs.
//
// Every function here takes any view. The views of view.hpp map runs onto
// their variable's runs (a*x + b with |a| > 1 has a run per value); a view
// of one's own gets the same answers at a value's cost each.
//
// A walk stops after run_limit runs and keeps what it has not reached: the
// values it leaves are a superset of the exact answer, so propagation is
// weaker there, never wrong. Only a view whose values are spread apart on
// a wide variable (2*x over 0..10^9) can reach the limit, and filtering by
// it would leave a hole per value anyway.

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <limits>
#include <iterator>
#include <type_traits>
#include <utility>
#include <vector>

#include "change.hpp"
#include "intervals.hpp"
#include "view.hpp"

namespace propane::detail {

inline constexpr int run_limit = 1 << 16;
// Past every int, for "no such value": 64-bit arithmetic on it cannot wrap.
inline constexpr std::int64_t no_value = std::int64_t{1} << 40;

// The variable under a view, by index (VarRef has no IntVar to hand out).
template <class V>
int index_of(const V& x) noexcept {
    if constexpr (std::is_same_v<V, VarRef>)
        return x.index();
    else
        return x.var().index();
}

// Whether x's variable is in the interval form, which a propagator must
// not walk value by value. Never for a fixed-width store.
template <class V, class S>
bool wide(const V& x, const S& s) noexcept {
    if constexpr (S::domain_type::is_dynamic)
        return s.domain(index_of(x)).interval();
    else
        return false;
}

// The greatest w >= v with all of v..w values of x, for a value v of x;
// run_start is the least such w <= v.
template <class V, class S>
std::int64_t run_start(const V& x, const S& s, std::int64_t v);
template <class V, class S>
std::int64_t run_end(const V& x, const S& s, std::int64_t v) {
    if constexpr (std::is_same_v<V, VarRef> || std::is_same_v<V, IntVar>) {
        return s.domain(index_of(x)).run_end(static_cast<int>(v));
    } else if constexpr (std::is_same_v<V, OffsetView>) {
        return run_end(x.var(), s, v - x.offset()) + x.offset();
    } else if constexpr (std::is_same_v<V, AffineView>) {
        if (x.scale() == 1) return run_end(x.var(), s, v - x.offset()) + x.offset();
        if (x.scale() == -1) return x.offset() - run_start(x.var(), s, x.offset() - v);
        return v;
    } else {
        return v;
    }
}
template <class V, class S>
std::int64_t run_start(const V& x, const S& s, std::int64_t v) {
    if constexpr (std::is_same_v<V, VarRef> || std::is_same_v<V, IntVar>) {
        return s.domain(index_of(x)).run_start(static_cast<int>(v));
    } else if constexpr (std::is_same_v<V, OffsetView>) {
        return run_start(x.var(), s, v - x.offset()) + x.offset();
    } else if constexpr (std::is_same_v<V, AffineView>) {
        if (x.scale() == 1) return run_start(x.var(), s, v - x.offset()) + x.offset();
        if (x.scale() == -1) return x.offset() - run_end(x.var(), s, x.offset() - v);
        return v;
    } else {
        return v;
    }
}

// a and b of a view a*x + b of the kinds here, so that a condition on two
// views of one variable can be solved for it rather than tried per value.
template <class V>
constexpr bool known_affine = std::is_same_v<V, IntVar> || std::is_same_v<V, OffsetView> ||
                              std::is_same_v<V, AffineView>;
template <class V>
std::pair<std::int64_t, std::int64_t> coefficients(const V& x) noexcept {
    if constexpr (std::is_same_v<V, IntVar>)
        return {1, 0};
    else if constexpr (std::is_same_v<V, OffsetView>)
        return {1, x.offset()};
    else
        return {x.scale(), x.offset()};
}

// The least value of x at or above v, or no_value.
template <class V, class S>
std::int64_t first_from(const V& x, const S& s, std::int64_t v) {
    if (v > x.max(s)) return no_value;
    if (v <= x.min(s)) return x.min(s);
    return x.contains(s, static_cast<int>(v)) ? v : x.next(s, static_cast<int>(v));
}
// The greatest value of x at or below v, or -no_value.
template <class V, class S>
std::int64_t last_to(const V& x, const S& s, std::int64_t v) {
    if (v < x.min(s)) return -no_value;
    if (v >= x.max(s)) return x.max(s);
    return x.contains(s, static_cast<int>(v)) ? v : x.prev(s, static_cast<int>(v));
}

// Removes the values a..b of x, in one update for the views here (the
// values of a*x + b in a range are those of x in a range).
template <class V, class S>
Change remove_range(const V& x, S& s, std::int64_t a, std::int64_t b) {
    if (a > b) return Change::none;
    if constexpr (std::is_same_v<V, VarRef> || std::is_same_v<V, IntVar>) {
        return VarRef(index_of(x)).remove_range(s, a, b);
    } else if constexpr (std::is_same_v<V, OffsetView>) {
        return remove_range(x.var(), s, a - x.offset(), b - x.offset());
    } else if constexpr (std::is_same_v<V, AffineView>) {
        const std::int64_t k = x.scale(), c = x.offset();
        return k > 0 ? remove_range(x.var(), s, ceil_div(a - c, k), floor_div(b - c, k))
                     : remove_range(x.var(), s, ceil_div(b - c, k), floor_div(a - c, k));
    } else {
        Change out = Change::none;
        for (std::int64_t v = first_from(x, s, a); v <= b && out != Change::failed; v = first_from(x, s, v + 1))
            out = std::max(out, x.remove(s, static_cast<int>(v)));
        return out;
    }
}

// The sets a view is filtered by: a view's values, their negation, the
// union of two. Each answers first_from(v) (its least member >= v, or
// no_value) and run_end(v) (for a member v, the end of its run).
template <class V, class S>
struct ValuesOf {
    const V& x;
    const S& s;
    std::int64_t first_from(std::int64_t v) const { return detail::first_from(x, s, v); }
    std::int64_t run_end(std::int64_t v) const { return detail::run_end(x, s, v); }
};
template <class V, class S>
ValuesOf(const V&, const S&) -> ValuesOf<V, S>;

// { -v : v a value of x }.
template <class V, class S>
struct NegatedValuesOf {
    const V& x;
    const S& s;
    std::int64_t first_from(std::int64_t v) const {
        const std::int64_t w = detail::last_to(x, s, -v);
        return w == -no_value ? no_value : -w;
    }
    std::int64_t run_end(std::int64_t v) const { return -detail::run_start(x, s, -v); }
};
template <class V, class S>
NegatedValuesOf(const V&, const S&) -> NegatedValuesOf<V, S>;

template <class A, class B>
struct UnionOf {
    A a;
    B b;
    std::int64_t first_from(std::int64_t v) const { return std::min(a.first_from(v), b.first_from(v)); }
    // A run of the union may chain runs of both: extend while either set
    // holds the value past the end.
    std::int64_t run_end(std::int64_t v) const {
        std::int64_t e = v;
        for (;;) {
            const std::int64_t next = e + 1;
            if (a.first_from(next) == next) e = a.run_end(next);
            else if (b.first_from(next) == next) e = b.run_end(next);
            else return e;
        }
    }
};
template <class A, class B>
UnionOf(A, B) -> UnionOf<A, B>;

// A few intervals of values, as a set: what a linear condition on one
// variable leaves (a half-line, a point, all but a point). add() keeps
// them sorted and merged.
class IntervalSet {
public:
    void add(std::int64_t lo, std::int64_t hi) {
        if (lo > hi) return;
        Hole h{lo, hi};
        std::size_t k = 0;
        Hole out[capacity + 1];
        std::size_t m = 0;
        for (; k < n_ && runs_[k].hi + 1 < h.lo; ++k) out[m++] = runs_[k];
        for (; k < n_ && runs_[k].lo <= h.hi + 1; ++k) h = Hole{std::min(h.lo, runs_[k].lo), std::max(h.hi, runs_[k].hi)};
        out[m++] = h;
        for (; k < n_; ++k) out[m++] = runs_[k];
        assert(m <= capacity);
        n_ = m;
        std::copy(out, out + n_, runs_);
    }
    bool empty() const noexcept { return n_ == 0; }
    std::int64_t first_from(std::int64_t v) const noexcept {
        for (std::size_t k = 0; k < n_; ++k)
            if (runs_[k].hi >= v) return std::max(runs_[k].lo, v);
        return no_value;
    }
    std::int64_t run_end(std::int64_t v) const noexcept {
        for (std::size_t k = 0; k < n_; ++k)
            if (runs_[k].hi >= v) return runs_[k].hi;
        return v;
    }
    // Whether every value of x lies in the set: none in a gap between its
    // intervals or outside them.
    template <class V, class S>
    bool holds_all(const V& x, const S& s) const {
        std::int64_t from = x.min(s);
        for (std::size_t k = 0; k < n_; ++k) {
            if (detail::first_from(x, s, from) < runs_[k].lo) return false;
            from = runs_[k].hi + 1;
        }
        return n_ > 0 && from > x.max(s);
    }
    template <class V, class S>
    bool meets(const V& x, const S& s) const {
        for (std::size_t k = 0; k < n_; ++k)
            if (detail::first_from(x, s, runs_[k].lo) <= runs_[k].hi) return true;
        return false;
    }

private:
    static constexpr std::size_t capacity = 4;
    Hole runs_[capacity];
    std::size_t n_ = 0;
};

// Sorted distinct values as a set (an element's array).
struct SortedValues {
    const std::vector<int>& values;
    std::int64_t first_from(std::int64_t v) const {
        const auto it = std::lower_bound(values.begin(), values.end(), v);
        return it == values.end() ? no_value : *it;
    }
    std::int64_t run_end(std::int64_t v) const {
        auto it = std::lower_bound(values.begin(), values.end(), v);
        while (std::next(it) != values.end() && *std::next(it) == *it + 1) ++it;
        return *it;
    }
};

// Removes from x every value outside `keep` (a set as above). The walk
// leapfrogs: from a value of x to keep's next member, past its run, to x's
// next value; each gap of keep met inside x goes in one update. False on
// failure.
template <class V, class S, class Set>
bool keep_only(S& s, const V& x, const Set& keep) {
    std::int64_t v = x.min(s);
    for (int runs = 0; runs < run_limit; ++runs) {
        const std::int64_t k = keep.first_from(v), hi = x.max(s);
        if (k > v && remove_range(x, s, v, std::min(k - 1, hi)) == Change::failed) return false;
        if (k >= hi) return true;
        const std::int64_t end = keep.run_end(k);
        if (end >= x.max(s)) return true;
        v = first_from(x, s, end + 1);
    }
    return true;
}

// Whether x and y share no value: each jumps past the other's gaps in
// turn, so the walk costs what their gaps do. Over a wide domain,
// undecided after run_limit steps, which reads as "they may meet".
template <class X, class Y, class S>
bool disjoint(const S& s, const X& x, const Y& y) {
    std::int64_t v = std::max<std::int64_t>(x.min(s), y.min(s));
    const std::int64_t top = std::min<std::int64_t>(x.max(s), y.max(s));
    const int limit = wide(x, s) || wide(y, s) ? run_limit : std::numeric_limits<int>::max();
    for (int steps = 0; steps < limit && v <= top; ++steps) {
        v = first_from(x, s, v);
        if (v > top) return true;
        const std::int64_t w = first_from(y, s, v);
        if (w == v) return false;
        v = w;
    }
    return v > top;
}

} // namespace propane::detail

#endif
