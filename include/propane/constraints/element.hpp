#ifndef PROPANE_CONSTRAINTS_ELEMENT_HPP
#define PROPANE_CONSTRAINTS_ELEMENT_HPP

// element(array, i, y): y == array[i], array numbers of any integral type
// (within int), and element(xs, i, y): y == xs[i], xs views; each as a
// braced list or any range (arguments.hpp). The index is 0-based;
// an index outside 0 .. size - 1 supports nothing, so i loses it. i, y and
// the views of xs may be of any view kind, and i or y may be a number of
// any integral type instead (one outside int is a model_error):
//   element(array, i, c)  i keeps the indices whose entry is c, once, when
//       posted: exact, and then nothing is left to propagate.
//   element(xs, i, c)     i keeps k when xs[k] holds c; once i is fixed to
//       k, xs[k] = c. Domain consistent on i and on every xs[k] (while two
//       indices are left, each holds c, so every value of every xs[k] has
//       a support through the other).
//   element(..., k, y)    a fixed index: y == array[k] or y == xs[k], as
//       rel(..., Rel::eq, ...) posts it; k outside the array fails the
//       store (no solution, as any index outside it), with no exception.
// Two dimensions, element(matrix, i, j, r), are element2d.hpp's; element
// over expressions (element({x + y, z}, i - 1, y)) and the expression
// at(xs, i) are the modelling layer's (model/define.hpp, model/expr.hpp).
//
// Strength, for views on distinct variables:
//   element(array, i, y)  domain consistent on i and y: i keeps k when
//       array[k] is left to y, y keeps w when some k left to i has
//       array[k] == w. When i and y are views of one variable the
//       constraint is a condition on it alone, applied once when posted
//       (exact, and then entailed).
//   element(xs, i, y)     domain consistent on i: i keeps k when xs[k] and
//       y share a value. Bounds on y: y keeps the values between the least
//       and the greatest value it shares with some xs[k], k left to i. Once
//       i is fixed to k, y == xs[k] is domain consistent both ways, as
//       rel(x, Rel::eq, y). No xs[k] loses a value before then: with two
//       indices left, every value of each has a support.
// Views that share a variable are treated as independent (sound, no
// solution lost), and propagation repeats until nothing changes, so a run
// still ends at a fixpoint.

#include <algorithm>
#include <bit>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <memory>
#include <optional>
#include <ranges>
#include <string>
#include <utility>
#include <vector>

#include "../engine/error.hpp"
#include "../engine/propagator.hpp"
#include "../engine/runs.hpp"
#include "../engine/view.hpp"
#include "arguments.hpp"
#include "rel.hpp" // detail::filter_values, detail::keep_common

namespace propane {

namespace detail::elements {

inline void check_size(std::size_t n, const char* what) {
    if (n == 0) throw model_error(std::string("element: ") + what + " is empty, so no index can be chosen");
    if (n > static_cast<std::size_t>(int_max))
        throw model_error(std::string("element: ") + what + " has more positions than int can index");
}

// The array, read-only once posted, and shared by every copy of the
// propagator (a store copied per search thread copies no array). Its
// distinct values are numbered in increasing order, so the values an
// index supports are a bitset over those ranks.
struct Table {
    std::vector<int> array;
    std::vector<int> values; // distinct, increasing
    std::vector<int> rank;   // rank[k]: the position of array[k] in values

    explicit Table(std::vector<int> a) : array(std::move(a)), values(array) {
        std::sort(values.begin(), values.end());
        values.erase(std::unique(values.begin(), values.end()), values.end());
        rank.reserve(array.size());
        for (const int w : array)
            rank.push_back(static_cast<int>(std::lower_bound(values.begin(), values.end(), w) - values.begin()));
    }

    int size() const noexcept { return static_cast<int>(array.size()); }
    bool valid(std::int64_t k) const noexcept { return k >= 0 && k < size(); }
    // The rank of w, or -1 when no position holds it.
    int rank_of(int w) const noexcept {
        const auto it = std::lower_bound(values.begin(), values.end(), w);
        return it != values.end() && *it == w ? static_cast<int>(it - values.begin()) : -1;
    }
};

// Whether views a and b share a value, walking the smaller one by next(),
// or both by runs when either is wide.
template <class S, class A, class B>
bool meet(const S& s, const A& a, const B& b) {
    if (a.max(s) < b.min(s) || b.max(s) < a.min(s)) return false;
    if (wide(a, s) || wide(b, s)) return !disjoint(s, a, b);
    const auto walk = [&s](const auto& small, const auto& big) {
        for (int v = small.min(s);; v = small.next(s, v)) {
            if (big.contains(s, v)) return true;
            if (v == small.max(s)) return false;
        }
    };
    return a.size(s) <= b.size(s) ? walk(a, b) : walk(b, a);
}

// The least value a and b share (one exists), by leapfrog; when a walk
// over a wide domain gives up (as disjoint in runs.hpp does), a bound
// below it.
template <class S, class A, class B>
std::int64_t first_common(const S& s, const A& a, const B& b) {
    const std::int64_t start = std::max(a.min(s), b.min(s));
    std::int64_t v = start;
    const int limit = wide(a, s) || wide(b, s) ? run_limit : std::numeric_limits<int>::max();
    for (int steps = 0; steps < limit; ++steps) {
        v = detail::first_from(a, s, v);
        const std::int64_t w = detail::first_from(b, s, v);
        if (w == v) return v;
        v = w;
    }
    return start;
}

// The greatest value a and b share, as first_common.
template <class S, class A, class B>
std::int64_t last_common(const S& s, const A& a, const B& b) {
    const std::int64_t start = std::min(a.max(s), b.max(s));
    std::int64_t v = start;
    const int limit = wide(a, s) || wide(b, s) ? run_limit : std::numeric_limits<int>::max();
    for (int steps = 0; steps < limit; ++steps) {
        v = detail::last_to(a, s, v);
        const std::int64_t w = detail::last_to(b, s, v);
        if (w == v) return v;
        v = w;
    }
    return start;
}

} // namespace detail::elements

namespace detail {

// y == array[i] on two variables. A run walks i's values, then y's: no
// support counts are kept, so there is nothing to trail and nothing to
// restore on backtracking, and a run costs O(|i| + |y| log m) for m
// distinct array values. Support counts per value of y would make a
// removal from i cheaper, but each would have to be trailed and updated
// per removed index; after the first run y holds array values only, and i
// indices only, so a walk is short anyway.
//
// One run is a fixpoint: i keeps k only when array[k] is left to y, and y
// then keeps every array[k], so i loses nothing more.
template <class S, class I, class Y>
class ElementConst : public PropagatorBase<S, ElementConst<S, I, Y>> {
public:
    ElementConst(std::shared_ptr<const elements::Table> t, I i, Y y)
        : t_(std::move(t)), i_(kept(i)), y_(kept(y)), seen_((t_->values.size() + 63) / 64) {}

    PropStatus propagate(S& s) override {
        const elements::Table& t = *t_;
        if (!filter_values(s, i_, [&](int k) { return t.valid(k) && y_.contains(s, t.array[std::size_t(k)]); }))
            return PropStatus::failed;
        std::fill(seen_.begin(), seen_.end(), std::uint64_t{0});
        i_.for_each(s, [&](int k) {
            const auto r = static_cast<std::size_t>(t.rank[std::size_t(k)]);
            seen_[r / 64] |= std::uint64_t{1} << (r % 64);
        });
        const auto seen = [&](int r) { return ((seen_[std::size_t(r) / 64] >> (std::size_t(r) % 64)) & 1U) != 0; };
        bool ok;
        if (wide(y_, s)) {
            supported_.clear();
            for (std::size_t r = 0; r < t.values.size(); ++r)
                if (seen(static_cast<int>(r))) supported_.push_back(t.values[r]);
            ok = keep_only(s, y_, SortedValues{supported_});
        } else {
            ok = filter_values(s, y_, [&](int w) {
                const int r = t.rank_of(w);
                return r >= 0 && seen(r);
            });
        }
        if (!ok) return PropStatus::failed;
        // i fixed leaves y fixed to its value: nothing can change any more.
        return i_.fixed(s) ? PropStatus::subsumed : PropStatus::fix;
    }

private:
    std::shared_ptr<const elements::Table> t_;
    kept_t<I> i_;
    kept_t<Y> y_;
    std::vector<std::uint64_t> seen_; // the ranks of the values i supports, scratch of one run
    std::vector<int> supported_;      // those values, for a wide y, scratch of one run
};

// y == xs[i]. A run tests, for each index left, whether xs[k] meets y
// (walking the smaller domain), which also gives the least and greatest
// common value; y is cut to those bounds. O(sum over k of min(|xs[k]|,
// |y|)) per run: the wake-up on any change of any xs[k] is needed, as a
// removal inside xs[k] can take its last common value with y.
template <class S, class X, class I, class Y>
class ElementVar : public PropagatorBase<S, ElementVar<S, X, I, Y>> {
public:
    ElementVar(const std::vector<X>& xs, I i, Y y, bool shared)
        : xs_(kept(xs)), i_(kept(i)), y_(kept(y)), shared_(shared) {}

    PropStatus propagate(S& s) override {
        // Over shared variables one pass may leave work for the next; over
        // distinct ones it cannot (see pass()).
        for (;;) {
            const std::uint64_t before = shared_ ? total(s) : 0;
            if (!pass(s)) return PropStatus::failed;
            if (!shared_ || total(s) == before) return PropStatus::fix;
        }
    }

private:
    // i first, then y: y is cut to the hull of the values it shares with
    // the xs[k] left, which keeps every such value, so i loses no support.
    // With i fixed, y and xs[k] keep their common values, and the hull is
    // then y's own bounds.
    bool pass(S& s) {
        const int n = static_cast<int>(xs_.size());
        std::int64_t lo = int_max, hi = int_min;
        const bool ok = filter_values(s, i_, [&](int k) {
            if (k < 0 || k >= n) return false;
            const auto& x = xs_[std::size_t(k)];
            if (!elements::meet(s, x, y_)) return false;
            lo = std::min<std::int64_t>(lo, elements::first_common(s, x, y_));
            hi = std::max<std::int64_t>(hi, elements::last_common(s, x, y_));
            return true;
        });
        if (!ok) return false;
        if (i_.fixed(s)) {
            const auto& x = xs_[std::size_t(i_.value(s))];
            if (!keep_common(s, x, y_) || !keep_common(s, y_, x)) return false;
        }
        return detail::keep_within(y_, s, lo, hi) != Change::failed;
    }

    std::uint64_t total(const S& s) const {
        std::uint64_t n = std::uint64_t{i_.size(s)} + y_.size(s);
        for (const auto& x : xs_) n += x.size(s);
        return n;
    }

    std::vector<kept_t<X>> xs_;
    kept_t<I> i_;
    kept_t<Y> y_;
    bool shared_;
};

// c == xs[i], c a number. A run tests c against each xs[k], k left to i:
// O(|i|) membership tests, nothing trailed. Once i is fixed the constraint
// is xs[k] == c, applied, and then entailed.
template <class S, class X, class I>
class ElementVarValue : public PropagatorBase<S, ElementVarValue<S, X, I>> {
public:
    ElementVarValue(const std::vector<X>& xs, I i, int c, bool shared)
        : xs_(kept(xs)), i_(kept(i)), c_(c), shared_(shared) {}

    PropStatus propagate(S& s) override {
        const int n = static_cast<int>(xs_.size());
        // Over shared variables assigning xs[k] may take c from another
        // xs[k'] (or a value from i), so the filter runs again.
        for (;;) {
            const std::uint64_t before = shared_ ? total(s) : 0;
            if (!filter_values(s, i_, [&](int k) { return k >= 0 && k < n && xs_[std::size_t(k)].contains(s, c_); }))
                return PropStatus::failed;
            if (i_.fixed(s)) {
                if (xs_[std::size_t(i_.value(s))].assign(s, c_) == Change::failed) return PropStatus::failed;
                if (!shared_ || total(s) == before) return PropStatus::subsumed;
                continue;
            }
            if (!shared_ || total(s) == before) return PropStatus::fix;
        }
    }

private:
    std::uint64_t total(const S& s) const {
        std::uint64_t n = i_.size(s);
        for (const auto& x : xs_) n += x.size(s);
        return n;
    }

    std::vector<kept_t<X>> xs_;
    kept_t<I> i_;
    int c_;
    bool shared_;
};

} // namespace detail

// The constraint y == array[i], as element() returns it.
template <class I, class Y>
    requires std::convertible_to<I, AffineView> && std::convertible_to<Y, AffineView>
struct ElementConstant {
    std::vector<int> array;
    I i;
    Y y;

    template <class S>
    void post(S& s) const {
        detail::elements::check_size(array.size(), "the array");
        s.check(i.var(), "element");
        s.check(y.var(), "element");
        auto table = std::make_shared<const detail::elements::Table>(array);
        if (i.var().same(y.var())) {
            // One variable t: keep t when i.of(t) is an index whose entry is
            // y.of(t); the index's range first, so that the walk is the
            // array's length however wide t.
            if (detail::keep_within(i, s, 0, table->size() - 1) == Change::failed) return;
            detail::filter_values(s, i.var(), [&](int t) {
                const std::int64_t k = i.of(t);
                return table->valid(k) && table->array[std::size_t(k)] == y.of(t);
            });
            return;
        }
        // Once, here: propagation then never walks indices outside the
        // array. A failure is the store's to remember.
        [[maybe_unused]] const Change cut = detail::keep_within(i, s, 0, table->size() - 1);
        const int id = s.add_propagator(std::make_unique<detail::ElementConst<S, I, Y>>(std::move(table), i, y));
        s.subscribe(i.var(), id, Event::domain);
        s.subscribe(y.var(), id, Event::domain);
    }
};

// The constraint y == xs[i], as element() returns it.
template <class X, class I, class Y>
    requires std::convertible_to<X, AffineView> && std::convertible_to<I, AffineView> &&
             std::convertible_to<Y, AffineView>
struct ElementVariable {
    std::vector<X> xs;
    I i;
    Y y;

    template <class S>
    void post(S& s) const {
        detail::elements::check_size(xs.size(), "xs");
        std::vector<int> vars;
        vars.reserve(xs.size() + 2);
        for (const X& x : xs) {
            s.check(x.var(), "element");
            vars.push_back(x.var().index());
        }
        s.check(i.var(), "element");
        s.check(y.var(), "element");
        vars.push_back(i.var().index());
        vars.push_back(y.var().index());
        std::sort(vars.begin(), vars.end());
        const bool shared = std::adjacent_find(vars.begin(), vars.end()) != vars.end();
        [[maybe_unused]] const Change cut = detail::keep_within(i, s, 0, static_cast<std::int64_t>(xs.size()) - 1);
        const int id = s.add_propagator(std::make_unique<detail::ElementVar<S, X, I, Y>>(xs, i, y, shared));
        // Any removal can take a common value away, so every view wakes on any.
        for (const X& x : xs) s.subscribe(x.var(), id, Event::domain);
        s.subscribe(i.var(), id, Event::domain);
        s.subscribe(y.var(), id, Event::domain);
    }
};

// The constraint c == array[i], c a number, as element() returns it.
template <class I>
    requires std::convertible_to<I, AffineView>
struct ElementConstantValue {
    std::vector<int> array;
    I i;
    int c = 0;

    template <class S>
    void post(S& s) const {
        detail::elements::check_size(array.size(), "the array");
        s.check(i.var(), "element");
        // The index's range first: the walk is then the array's length
        // however wide i. A failure is the store's to remember.
        if (detail::keep_within(i, s, 0, static_cast<std::int64_t>(array.size()) - 1) == Change::failed) return;
        detail::filter_values(s, i, [&](int k) { return array[std::size_t(k)] == c; });
    }
};

// The constraint c == xs[i], c a number, as element() returns it.
template <class X, class I>
    requires std::convertible_to<X, AffineView> && std::convertible_to<I, AffineView>
struct ElementVariableValue {
    std::vector<X> xs;
    I i;
    int c = 0;

    template <class S>
    void post(S& s) const {
        detail::elements::check_size(xs.size(), "xs");
        std::vector<int> vars;
        vars.reserve(xs.size() + 1);
        for (const X& x : xs) {
            s.check(x.var(), "element");
            vars.push_back(x.var().index());
        }
        s.check(i.var(), "element");
        vars.push_back(i.var().index());
        std::sort(vars.begin(), vars.end());
        const bool shared = std::adjacent_find(vars.begin(), vars.end()) != vars.end();
        [[maybe_unused]] const Change cut = detail::keep_within(i, s, 0, static_cast<std::int64_t>(xs.size()) - 1);
        const int id = s.add_propagator(std::make_unique<detail::ElementVarValue<S, X, I>>(xs, i, c, shared));
        // Only c's removal matters to xs[k], but no event says that.
        for (const X& x : xs) s.subscribe(x.var(), id, Event::domain);
        s.subscribe(i.var(), id, Event::domain);
    }
};

// element() with a fixed index: the relation entry == y (a rel()
// constraint) when the index is within the array, no solution when not.
template <class C>
struct ElementFixedIndex {
    std::optional<C> relation;

    template <class S>
    void post(S& s) const {
        if (relation) {
            relation->post(s);
        } else {
            [[maybe_unused]] const Change failed = s.fail();
        }
    }
};

// element() over numbers only (array, index and y), decided when made.
struct ElementDecided {
    bool holds = false;

    template <class S>
    void post(S& s) const {
        if (!holds) {
            [[maybe_unused]] const Change failed = s.fail();
        }
    }
};

namespace detail::elements {

// What may stand for i or y: a view, or a number of any integral type.
template <class T>
concept Scalar = std::convertible_to<T, AffineView> || std::integral<T>;

template <std::integral T>
int number(T v, const char* what) {
    return Number(v).get_int("element", what);
}

template <class I, class Y>
auto over_array(std::vector<int> array, const I& i, const Y& y) {
    check_size(array.size(), "the array");
    if constexpr (std::integral<I>) {
        const int k = number(i, "the index i");
        const bool within = k >= 0 && static_cast<std::size_t>(k) < array.size();
        if constexpr (std::integral<Y>) {
            const int c = number(y, "y");
            return ElementDecided{within && array[std::size_t(k)] == c};
        } else {
            ElementFixedIndex<ConstRelation<Y>> out;
            if (within) out.relation = ConstRelation<Y>{y, Rel::eq, array[std::size_t(k)]};
            return out;
        }
    } else if constexpr (std::integral<Y>) {
        return ElementConstantValue<I>{std::move(array), i, number(y, "y")};
    } else {
        return ElementConstant<I, Y>{std::move(array), i, y};
    }
}

template <class X, class I, class Y>
auto over_views(std::vector<X> xs, const I& i, const Y& y) {
    check_size(xs.size(), "xs");
    if constexpr (std::integral<I>) {
        const int k = number(i, "the index i");
        const bool within = k >= 0 && static_cast<std::size_t>(k) < xs.size();
        if constexpr (std::integral<Y>) {
            const int c = number(y, "y");
            ElementFixedIndex<ConstRelation<X>> out;
            if (within) out.relation = ConstRelation<X>{xs[std::size_t(k)], Rel::eq, c};
            return out;
        } else {
            ElementFixedIndex<Relation<X, Y>> out;
            if (within) out.relation = Relation<X, Y>{xs[std::size_t(k)], Rel::eq, y};
            return out;
        }
    } else if constexpr (std::integral<Y>) {
        return ElementVariableValue<X, I>{std::move(xs), i, number(y, "y")};
    } else {
        return ElementVariable<X, I, Y>{std::move(xs), i, y};
    }
}

} // namespace detail::elements

// The array as numbers of any integral type, each within int, in a braced
// list or any range; xs as a range of one view type or a braced list
// (arguments.hpp). i and y each a view or a number.
template <detail::elements::Scalar I, detail::elements::Scalar Y>
auto element(const detail::Numbers& array, I i, Y y) {
    return detail::elements::over_array(array.as_ints("element", "array"), i, y);
}

template <detail::ViewRange R, detail::elements::Scalar I, detail::elements::Scalar Y>
    requires std::convertible_to<std::ranges::range_value_t<R>, AffineView>
auto element(const R& xs, I i, Y y) {
    return detail::elements::over_views(detail::views_of(xs), i, y);
}
template <detail::ViewHandle X, detail::elements::Scalar I, detail::elements::Scalar Y>
    requires std::convertible_to<X, AffineView>
auto element(std::initializer_list<X> xs, I i, Y y) {
    return detail::elements::over_views(detail::views_of(xs), i, y);
}
template <detail::elements::Scalar I, detail::elements::Scalar Y>
auto element(std::initializer_list<AffineView> xs, I i, Y y) {
    return detail::elements::over_views(detail::views_of(xs), i, y);
}

} // namespace propane

#endif
