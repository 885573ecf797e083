#ifndef PROPANE_ENGINE_VIEW_HPP
#define PROPANE_ENGINE_VIEW_HPP

// Views let one propagator serve x, x + c and a*x + b. A view is a small
// value (a variable handle plus coefficients) whose methods take the store;
// propagators are templates over the view type, so the mapping is inlined
// and costs no virtual call per value (Gecode's design, without its macros).
//
// Every view offers the same members, which is what the View concept checks:
//   var()                          the underlying IntVar
//   min(s) max(s) size(s) fixed(s) value(s) contains(s, v)
//   next(s, v)  smallest view value > v   (precondition v < max(s))
//   prev(s, v)  largest view value < v    (precondition v > min(s))
//   for_each(s, f)  f(value) for each view value, in increasing order of
//               the variable's value (so decreasing when a < 0); f may
//               remove the value it is given. Faster than a walk by next().
//   bits(s, start)  the membership bits of the view values start ..
//               start + 63 (bit k for start + k), in one word
//   remove(s, v) remove_below(s, v) remove_above(s, v) assign(s, v) -> Change
// The views here also offer two updates that do in one call into the store
// what would otherwise take several (a view of your own need not:
// detail::keep_between and detail::remove_bits fall back on the ones above):
//   keep_between(s, a, b)  the view values a .. b -> Change
//   remove_bits(s, start, mask)  removes the view values start + k for the
//               bits k of mask -> Change
//   of(x)       the view's value when its variable takes the value x
//   lo() hi()   the least and greatest value the view could ever take
//
// Each view is checked when it is made: the image of its variable's initial
// range must fit in int, so no arithmetic inside propagation can overflow.

#include <algorithm>
#include <bit>
#include <cassert>
#include <concepts>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "domain.hpp"
#include "error.hpp"
#include "event.hpp"

namespace propane {

namespace detail {

inline constexpr std::int64_t int_min = std::numeric_limits<int>::min();
inline constexpr std::int64_t int_max = std::numeric_limits<int>::max();

// Division rounding toward -inf / +inf, for any sign of the divisor.
constexpr std::int64_t floor_div(std::int64_t n, std::int64_t d) noexcept {
    const std::int64_t q = n / d;
    return (n % d != 0 && ((n < 0) != (d < 0))) ? q - 1 : q;
}
constexpr std::int64_t ceil_div(std::int64_t n, std::int64_t d) noexcept {
    const std::int64_t q = n / d;
    return (n % d != 0 && ((n < 0) == (d < 0))) ? q + 1 : q;
}

// Updates of a variable by a bound computed in 64 bits: a bound beyond int
// either removes nothing or everything, never wraps. Everything gone is a
// failure the store must remember (Store::fail), as if the update had
// reached the domain: a caller that ignores the Change must not be handed
// a solution.
template <class X, class S>
Change keep_at_least(const X& x, S& s, std::int64_t t) {
    if (t < int_min) return Change::none;
    if (t > int_max) return s.fail();
    return x.remove_below(s, static_cast<int>(t));
}
template <class X, class S>
Change keep_at_most(const X& x, S& s, std::int64_t t) {
    if (t > int_max) return Change::none;
    if (t < int_min) return s.fail();
    return x.remove_above(s, static_cast<int>(t));
}

// keep_between for bounds computed in 64 bits, as the two above.
template <class X, class S>
Change keep_within(const X& x, S& s, std::int64_t a, std::int64_t b) {
    if (a > b || a > int_max || b < int_min) return s.fail();
    return x.keep_between(s, static_cast<int>(std::max(a, int_min)), static_cast<int>(std::min(b, int_max)));
}

inline void check_fits(std::int64_t lo, std::int64_t hi, const char* what) {
    if (lo < int_min || hi > int_max)
        throw model_error(formatted("%s overflows int: its values span %lld..%lld", what, static_cast<long long>(lo),
                                    static_cast<long long>(hi)));
}

} // namespace detail

namespace detail {

// A variable by its index alone, with the members a propagator calls while
// it runs, unchecked: what IntVar's own members do, and how the busiest
// propagators keep an IntVar (detail::kept below), in 4 bytes rather than
// IntVar's 24 (which carry the initial range and the model, read when
// posting). Golomb's three-term sums then fit one cache line instead of
// two: 0.975 of the time at N = 11.
class VarRef {
public:
    explicit VarRef(int index) noexcept : index_(index) {}
    int index() const noexcept { return index_; }

    template <class S> int min(const S& s) const noexcept { return s.domain(index_).min(); }
    template <class S> int max(const S& s) const noexcept { return s.domain(index_).max(); }
    template <class S> unsigned size(const S& s) const noexcept { return s.domain(index_).size(); }
    template <class S> bool fixed(const S& s) const noexcept { return s.domain(index_).fixed(); }
    template <class S> int value(const S& s) const noexcept { return s.domain(index_).value(); }
    template <class S> bool contains(const S& s, std::int64_t v) const noexcept {
        return s.domain(index_).contains(v);
    }
    template <class S> int next(const S& s, std::int64_t v) const noexcept { return s.domain(index_).next(v); }
    template <class S> int prev(const S& s, std::int64_t v) const noexcept { return s.domain(index_).prev(v); }
    template <class S, class F> void for_each(const S& s, F&& f) const { s.domain(index_).for_each(f); }
    template <class S> std::uint64_t bits(const S& s, std::int64_t start) const noexcept {
        return s.domain(index_).bits_from(start);
    }

    // Takes any 64-bit value (one outside int is simply absent), so views
    // pass their arithmetic on without a range test: the domain tests
    // membership anyway, on the commonest update of all.
    template <class S> Change remove(S& s, std::int64_t v) const { return s.remove_at(index_, v); }
    template <class S> Change remove_below(S& s, int v) const { return s.remove_below_at(index_, v); }
    template <class S> Change remove_above(S& s, int v) const { return s.remove_above_at(index_, v); }
    template <class S> Change assign(S& s, int v) const { return s.assign_at(index_, v); }
    template <class S> Change keep_between(S& s, int a, int b) const { return s.keep_between_at(index_, a, b); }
    template <class S> Change remove_bits(S& s, std::int64_t start, std::uint64_t mask) const {
        return s.remove_bits_at(index_, start, mask);
    }
    template <class S> Change remove_range(S& s, std::int64_t a, std::int64_t b) const {
        return s.remove_range_at(index_, a, b);
    }

private:
    int index_;
};

} // namespace detail

// A variable of a Store, by index. It also remembers the variable's initial
// bounds, which is what lets views refuse overflow when they are made, and
// which model it belongs to, so a store can refuse another model's handle.
// Only a store makes usable handles (Store::int_var); a default-built one,
// or one built from numbers, belongs to no model and every checked entry
// point refuses it.
//
// The view members below are the propagators' hot path and do not check:
// in debug builds they assert that the handle is the store's (see "Rules of
// use" in the README).
class IntVar {
public:
    IntVar() = default;
    IntVar(int index, int lo, int hi, const void* model = nullptr) noexcept
        : index_(index), lo_(lo), hi_(hi), model_(model) {}

    int index() const noexcept { return index_; }
    // What identifies the store's model; nullptr for a handle no store made.
    const void* model() const noexcept { return model_; }
    IntVar var() const noexcept { return *this; }
    int lo() const noexcept { return lo_; }
    int hi() const noexcept { return hi_; }
    static constexpr int of(int x) noexcept { return x; }

    template <class S> int min(const S& s) const noexcept { return ref().min(s); }
    template <class S> int max(const S& s) const noexcept { return ref().max(s); }
    template <class S> unsigned size(const S& s) const noexcept { return ref().size(s); }
    template <class S> bool fixed(const S& s) const noexcept { return ref().fixed(s); }
    template <class S> int value(const S& s) const noexcept { return ref().value(s); }
    template <class S> bool contains(const S& s, std::int64_t v) const noexcept { return ref().contains(s, v); }
    template <class S> int next(const S& s, std::int64_t v) const noexcept { return ref().next(s, v); }
    template <class S> int prev(const S& s, std::int64_t v) const noexcept { return ref().prev(s, v); }
    template <class S, class F> void for_each(const S& s, F&& f) const { ref().for_each(s, f); }
    template <class S> std::uint64_t bits(const S& s, std::int64_t start) const noexcept {
        return ref().bits(s, start);
    }

    // Updates, as VarRef's, which also take any 64-bit value to remove.
    template <class S> Change remove(S& s, std::int64_t v) const {
        assert(s.owns(*this));
        return ref().remove(s, v);
    }
    template <class S> Change remove_below(S& s, int v) const {
        assert(s.owns(*this));
        return ref().remove_below(s, v);
    }
    template <class S> Change remove_above(S& s, int v) const {
        assert(s.owns(*this));
        return ref().remove_above(s, v);
    }
    template <class S> Change assign(S& s, int v) const {
        assert(s.owns(*this));
        return ref().assign(s, v);
    }
    template <class S> Change keep_between(S& s, int a, int b) const {
        assert(s.owns(*this));
        return ref().keep_between(s, a, b);
    }
    template <class S> Change remove_bits(S& s, std::int64_t start, std::uint64_t mask) const {
        assert(s.owns(*this));
        return ref().remove_bits(s, start, mask);
    }

    // Whether both handles name one variable of one model. Not operator==:
    // x == y between variables is a constraint (propane/model/relation.hpp).
    bool same(const IntVar& o) const noexcept {
        return index_ == o.index_ && lo_ == o.lo_ && hi_ == o.hi_ && model_ == o.model_;
    }

private:
    detail::VarRef ref() const noexcept { return detail::VarRef(index_); }

    int index_ = -1;
    int lo_ = 0;
    int hi_ = 0;
    const void* model_ = nullptr;
};

namespace detail {

// The view a propagator keeps for a view it is given: VarRef for an
// IntVar, the view itself otherwise.
template <class View>
struct Kept {
    using type = View;
    static const View& of(const View& v) noexcept { return v; }
};
template <>
struct Kept<IntVar> {
    using type = VarRef;
    static VarRef of(IntVar v) noexcept { return VarRef(v.index()); }
};
template <class View>
using kept_t = typename Kept<View>::type;
template <class View>
kept_t<View> kept(const View& v) noexcept {
    return Kept<View>::of(v);
}
template <class View>
std::vector<kept_t<View>> kept(const std::vector<View>& views) {
    std::vector<kept_t<View>> out;
    out.reserve(views.size());
    for (const View& v : views) out.push_back(kept(v));
    return out;
}

} // namespace detail

// x + c. An IntVar converts to x + 0, so one vector may hold both.
class OffsetView {
public:
    OffsetView(IntVar x) noexcept : x_(x), c_(0) {} // NOLINT: implicit by design
    OffsetView(IntVar x, int c) : x_(x), c_(c) {
        detail::check_fits(std::int64_t{x.lo()} + c, std::int64_t{x.hi()} + c, "offset view x + c");
    }

    IntVar var() const noexcept { return x_; }
    int offset() const noexcept { return c_; }
    int lo() const noexcept { return x_.lo() + c_; }
    int hi() const noexcept { return x_.hi() + c_; }
    int of(int x) const noexcept { return x + c_; }

    template <class S> int min(const S& s) const noexcept { return x_.min(s) + c_; }
    template <class S> int max(const S& s) const noexcept { return x_.max(s) + c_; }
    template <class S> unsigned size(const S& s) const noexcept { return x_.size(s); }
    template <class S> bool fixed(const S& s) const noexcept { return x_.fixed(s); }
    template <class S> int value(const S& s) const noexcept { return x_.value(s) + c_; }
    template <class S> bool contains(const S& s, int v) const noexcept { return x_.contains(s, std::int64_t{v} - c_); }
    template <class S> int next(const S& s, int v) const noexcept { return x_.next(s, std::int64_t{v} - c_) + c_; }
    template <class S> int prev(const S& s, int v) const noexcept { return x_.prev(s, std::int64_t{v} - c_) + c_; }
    template <class S, class F> void for_each(const S& s, F&& f) const {
        x_.for_each(s, [&](int x) { f(x + c_); });
    }
    template <class S> std::uint64_t bits(const S& s, std::int64_t start) const noexcept {
        return x_.bits(s, start - c_);
    }

    template <class S> Change remove(S& s, int v) const { return x_.remove(s, std::int64_t{v} - c_); }
    template <class S> Change remove_below(S& s, int v) const {
        return detail::keep_at_least(x_, s, std::int64_t{v} - c_);
    }
    template <class S> Change remove_above(S& s, int v) const {
        return detail::keep_at_most(x_, s, std::int64_t{v} - c_);
    }
    template <class S> Change assign(S& s, int v) const {
        return contains(s, v) ? x_.assign(s, static_cast<int>(std::int64_t{v} - c_)) : s.fail();
    }
    template <class S> Change keep_between(S& s, int a, int b) const {
        return detail::keep_within(x_, s, std::int64_t{a} - c_, std::int64_t{b} - c_);
    }
    template <class S> Change remove_bits(S& s, std::int64_t start, std::uint64_t mask) const {
        return x_.remove_bits(s, start - c_, mask);
    }

private:
    IntVar x_;
    int c_;
};

// a*x + b, a != 0. For |a| > 1 the view has holes (values a does not
// divide are absent), and bounds are rounded inward as Gecode's ScaleView
// does, so remove_below(v) keeps exactly the view values >= v. IntVar and
// OffsetView convert to it (1*x + 0, 1*x + c), so a vector of AffineView
// holds any mix of views, at the cost of a multiplication per access.
class AffineView {
public:
    AffineView(IntVar x) noexcept : x_(x), a_(1), b_(0) {}                    // NOLINT: implicit by design
    AffineView(OffsetView v) noexcept : x_(v.var()), a_(1), b_(v.offset()) {} // NOLINT: implicit by design
    AffineView(IntVar x, int a, int b) : x_(x), a_(a), b_(b) {
        if (a == 0) throw model_error("affine view a*x + b needs a != 0");
        const std::int64_t u = std::int64_t{a} * x.lo() + b, w = std::int64_t{a} * x.hi() + b;
        detail::check_fits(u < w ? u : w, u < w ? w : u, "affine view a*x + b");
    }

    IntVar var() const noexcept { return x_; }
    int scale() const noexcept { return a_; }
    int offset() const noexcept { return b_; }
    int lo() const noexcept { return a_ > 0 ? of(x_.lo()) : of(x_.hi()); }
    int hi() const noexcept { return a_ > 0 ? of(x_.hi()) : of(x_.lo()); }
    // In 64 bits: a*x alone may leave int even when a*x + b does not.
    int of(int x) const noexcept { return static_cast<int>(std::int64_t{a_} * x + b_); }

    template <class S> int min(const S& s) const noexcept { return a_ > 0 ? of(x_.min(s)) : of(x_.max(s)); }
    template <class S> int max(const S& s) const noexcept { return a_ > 0 ? of(x_.max(s)) : of(x_.min(s)); }
    template <class S> unsigned size(const S& s) const noexcept { return x_.size(s); }
    template <class S> bool fixed(const S& s) const noexcept { return x_.fixed(s); }
    template <class S> int value(const S& s) const noexcept { return of(x_.value(s)); }
    template <class S> bool contains(const S& s, int v) const noexcept {
        const std::int64_t d = std::int64_t{v} - b_;
        // & rather than &&: no branch (see BitDomain::contains).
        return (static_cast<int>(d % a_ == 0) & static_cast<int>(x_.contains(s, d / a_))) != 0;
    }
    template <class S> int next(const S& s, int v) const noexcept {
        const std::int64_t d = std::int64_t{v} - b_;
        return a_ > 0 ? of(x_.next(s, detail::floor_div(d, a_)))
                      : of(x_.prev(s, detail::ceil_div(d, a_)));
    }
    template <class S> int prev(const S& s, int v) const noexcept {
        const std::int64_t d = std::int64_t{v} - b_;
        return a_ > 0 ? of(x_.prev(s, detail::ceil_div(d, a_)))
                      : of(x_.next(s, detail::floor_div(d, a_)));
    }

    template <class S, class F> void for_each(const S& s, F&& f) const {
        x_.for_each(s, [&](int x) { f(of(x)); });
    }
    // Scaling spreads the variable's bits apart (and a < 0 reverses them),
    // so this one gathers them value by value.
    template <class S> std::uint64_t bits(const S& s, std::int64_t start) const noexcept {
        std::uint64_t out = 0;
        for_each(s, [&](int v) {
            const std::int64_t k = v - start;
            if (k >= 0 && k < 64) out |= std::uint64_t{1} << k;
        });
        return out;
    }

    template <class S> Change remove(S& s, int v) const {
        const std::int64_t d = std::int64_t{v} - b_;
        return d % a_ == 0 ? x_.remove(s, d / a_) : Change::none;
    }
    template <class S> Change remove_below(S& s, int v) const {
        const std::int64_t d = std::int64_t{v} - b_;
        return a_ > 0 ? detail::keep_at_least(x_, s, detail::ceil_div(d, a_))
                      : detail::keep_at_most(x_, s, detail::floor_div(d, a_));
    }
    template <class S> Change remove_above(S& s, int v) const {
        const std::int64_t d = std::int64_t{v} - b_;
        return a_ > 0 ? detail::keep_at_most(x_, s, detail::floor_div(d, a_))
                      : detail::keep_at_least(x_, s, detail::ceil_div(d, a_));
    }
    template <class S> Change assign(S& s, int v) const {
        return contains(s, v) ? x_.assign(s, static_cast<int>((std::int64_t{v} - b_) / a_)) : s.fail();
    }
    template <class S> Change keep_between(S& s, int a, int b) const {
        const std::int64_t lo = std::int64_t{a} - b_, hi = std::int64_t{b} - b_;
        return a_ > 0 ? detail::keep_within(x_, s, detail::ceil_div(lo, a_), detail::floor_div(hi, a_))
                      : detail::keep_within(x_, s, detail::ceil_div(hi, a_), detail::floor_div(lo, a_));
    }
    // Value by value, as bits(); all of them going is a failure that
    // leaves the domain as it was, as for the other views.
    template <class S> Change remove_bits(S& s, std::int64_t start, std::uint64_t mask) const {
        std::uint64_t hit = bits(s, start) & mask;
        if (hit == 0) return Change::none;
        if (static_cast<unsigned>(std::popcount(hit)) == size(s)) return s.fail();
        Change c = Change::none;
        for (; hit != 0; hit &= hit - 1) c = std::max(c, remove(s, static_cast<int>(start + std::countr_zero(hit))));
        return c;
    }

private:
    IntVar x_;
    int a_;
    int b_;
};

// ---- building views with arithmetic ----------------------------------------
//
// Every view kind takes + c, - c, c +, c -, unary -, * k and k * on either
// side, and the result is the simplest kind that can hold it: sums stay
// OffsetView, anything that scales or negates is an AffineView. Each result
// is checked as its constructor checks (model_error on overflow).

namespace detail {

// A constant of a view being built (its offset or its coefficient), which
// must fit in int before the view's values are even looked at.
inline int constant_checked(std::int64_t v, const char* what, const char* part) {
    if (v < int_min || v > int_max)
        throw model_error(formatted("%s overflows int: its %s would be %lld", what, part, static_cast<long long>(v)));
    return static_cast<int>(v);
}

inline int add_checked(std::int64_t a, std::int64_t b, const char* what) {
    return constant_checked(a + b, what, "offset");
}

// |a|, |b| < 2^31: the product cannot overflow in 64 bits.
inline int mul_checked(std::int64_t a, std::int64_t b, const char* what, const char* part) {
    return constant_checked(a * b, what, part);
}

// Whether two of the views whose variables' indices are given are over
// one variable (the indices are sorted in place). One function for every
// kind of view and term, so that a file compiles one sort for them all.
inline bool repeats_variable(std::vector<int>& indices) {
    std::sort(indices.begin(), indices.end());
    return std::adjacent_find(indices.begin(), indices.end()) != indices.end();
}

// k * (a*x + b) as a view: both coefficients must stay within int.
inline AffineView scaled(IntVar x, std::int64_t a, std::int64_t b, int k) {
    return {x, mul_checked(k, a, "affine view k*(a*x + b)", "coefficient"),
            mul_checked(k, b, "affine view k*(a*x + b)", "offset")};
}

} // namespace detail

inline OffsetView operator+(IntVar x, int c) { return {x, c}; }
inline OffsetView operator+(int c, IntVar x) { return {x, c}; }
inline OffsetView operator-(IntVar x, int c) {
    return {x, detail::add_checked(0, -std::int64_t{c}, "offset view x - c")};
}
inline AffineView operator-(int c, IntVar x) { return {x, -1, c}; }
inline AffineView operator-(IntVar x) { return {x, -1, 0}; }
inline AffineView operator*(int a, IntVar x) { return {x, a, 0}; }
inline AffineView operator*(IntVar x, int a) { return {x, a, 0}; }

inline OffsetView operator+(OffsetView v, int c) {
    return {v.var(), detail::add_checked(v.offset(), c, "offset view (x + c) + d")};
}
inline OffsetView operator+(int c, OffsetView v) { return v + c; }
inline OffsetView operator-(OffsetView v, int c) {
    return {v.var(), detail::add_checked(v.offset(), -std::int64_t{c}, "offset view (x + c) - d")};
}
inline AffineView operator-(int c, OffsetView v) {
    return {v.var(), -1, detail::add_checked(c, -std::int64_t{v.offset()}, "affine view d - (x + c)")};
}
inline AffineView operator-(OffsetView v) { return detail::scaled(v.var(), 1, v.offset(), -1); }
inline AffineView operator*(int k, OffsetView v) { return detail::scaled(v.var(), 1, v.offset(), k); }
inline AffineView operator*(OffsetView v, int k) { return k * v; }

inline AffineView operator+(AffineView v, int c) {
    return {v.var(), v.scale(), detail::add_checked(v.offset(), c, "affine view (a*x + b) + c")};
}
inline AffineView operator+(int c, AffineView v) { return v + c; }
inline AffineView operator-(AffineView v, int c) {
    return {v.var(), v.scale(), detail::add_checked(v.offset(), -std::int64_t{c}, "affine view (a*x + b) - c")};
}
inline AffineView operator-(int c, AffineView v) {
    return {v.var(), detail::mul_checked(-1, v.scale(), "affine view c - (a*x + b)", "coefficient"),
            detail::add_checked(c, -std::int64_t{v.offset()}, "affine view c - (a*x + b)")};
}
inline AffineView operator-(AffineView v) { return detail::scaled(v.var(), v.scale(), v.offset(), -1); }
inline AffineView operator*(int k, AffineView v) { return detail::scaled(v.var(), v.scale(), v.offset(), k); }
inline AffineView operator*(AffineView v, int k) { return k * v; }

namespace detail {

// A constant of an integral type other than int beside a view (x + 5L,
// q[i] + i with a size_t i): the view keeps it as an int, so one that does
// not fit is refused, never cut.
template <class T>
concept OtherIntegral = std::integral<T> && !std::same_as<T, int>;
template <class V>
concept PlainView = std::same_as<V, IntVar> || std::same_as<V, OffsetView> || std::same_as<V, AffineView>;

template <OtherIntegral T>
int view_constant(T c, const char* what) {
    if (!std::in_range<int>(c))
        throw model_error(std::string(what) + ": the constant " + std::to_string(c) +
                          " is beyond int, which a view holds (a sum holds 64 bits: propane::Expr(x) + c)");
    return static_cast<int>(c);
}

} // namespace detail

template <detail::PlainView V, detail::OtherIntegral T>
auto operator+(V v, T c) {
    return v + detail::view_constant(c, "view + c");
}
template <detail::PlainView V, detail::OtherIntegral T>
auto operator+(T c, V v) {
    return detail::view_constant(c, "c + view") + v;
}
template <detail::PlainView V, detail::OtherIntegral T>
auto operator-(V v, T c) {
    return v - detail::view_constant(c, "view - c");
}
template <detail::PlainView V, detail::OtherIntegral T>
auto operator-(T c, V v) {
    return detail::view_constant(c, "c - view") - v;
}
template <detail::PlainView V, detail::OtherIntegral T>
auto operator*(V v, T k) {
    return v * detail::view_constant(k, "view * k");
}
template <detail::PlainView V, detail::OtherIntegral T>
auto operator*(T k, V v) {
    return detail::view_constant(k, "k * view") * v;
}

// What a propagator needs from a view over store type S.
template <class V, class S>
concept View = requires(const V& v, S& s, const S& cs, int x) {
    { v.var() } -> std::same_as<IntVar>;
    { v.of(x) } -> std::convertible_to<int>;
    { v.lo() } -> std::convertible_to<int>;
    { v.hi() } -> std::convertible_to<int>;
    { v.min(cs) } -> std::convertible_to<int>;
    { v.max(cs) } -> std::convertible_to<int>;
    { v.size(cs) } -> std::convertible_to<unsigned>;
    { v.fixed(cs) } -> std::convertible_to<bool>;
    { v.value(cs) } -> std::convertible_to<int>;
    { v.contains(cs, x) } -> std::convertible_to<bool>;
    { v.next(cs, x) } -> std::convertible_to<int>;
    { v.prev(cs, x) } -> std::convertible_to<int>;
    v.for_each(cs, [](int) {});
    { v.bits(cs, std::int64_t{x}) } -> std::same_as<std::uint64_t>;
    { v.remove(s, x) } -> std::same_as<Change>;
    { v.remove_below(s, x) } -> std::same_as<Change>;
    { v.remove_above(s, x) } -> std::same_as<Change>;
    { v.assign(s, x) } -> std::same_as<Change>;
};

// The event of v's variable that fires when v's least value rises
// (min_event) or its greatest falls (max_event): the same end for a view
// that grows with its variable, the other for one that shrinks (a*x + b
// with a < 0). Bounds for a view of one's own, whose direction is unknown.
template <class V>
Event min_event(const V& v) noexcept {
    if constexpr (std::same_as<V, IntVar> || std::same_as<V, OffsetView>)
        return Event::min;
    else if constexpr (std::same_as<V, AffineView>)
        return v.scale() > 0 ? Event::min : Event::max;
    else
        return Event::bounds;
}
template <class V>
Event max_event(const V& v) noexcept {
    const Event e = min_event(v);
    return e == Event::min ? Event::max : e == Event::max ? Event::min : e;
}

namespace detail {

// x.keep_between(s, a, b), or for a view without it remove_below then
// remove_above (a failure of the second leaves the first done, which the
// failed store's backtrack undoes).
template <class X, class S>
Change keep_between(const X& x, S& s, int a, int b) {
    if constexpr (requires { { x.keep_between(s, a, b) } -> std::same_as<Change>; }) {
        return x.keep_between(s, a, b);
    } else {
        const Change c = x.remove_below(s, a);
        return c == Change::failed ? c : std::max(c, x.remove_above(s, b));
    }
}

// x.remove_bits(s, start, mask), or for a view without it one remove per
// value.
template <class X, class S>
Change remove_bits(const X& x, S& s, std::int64_t start, std::uint64_t mask) {
    if constexpr (requires { { x.remove_bits(s, start, mask) } -> std::same_as<Change>; }) {
        return x.remove_bits(s, start, mask);
    } else {
        Change c = Change::none;
        for (std::uint64_t hit = x.bits(s, start) & mask; hit != 0 && c != Change::failed; hit &= hit - 1)
            c = std::max(c, x.remove(s, static_cast<int>(start + std::countr_zero(hit))));
        return c;
    }
}

} // namespace detail

} // namespace propane

#endif
