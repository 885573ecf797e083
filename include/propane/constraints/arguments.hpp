#ifndef PROPANE_CONSTRAINTS_ARGUMENTS_HPP
#define PROPANE_CONSTRAINTS_ARGUMENTS_HPP

// The shapes in which the constraint functions take their arguments, so
// that each function reads the same way whatever the caller has at hand.
//
// Numbers (coefficients, array entries, tuples, constants) come in any
// integral type, one at a time (Number), as a braced list or as any input
// range (Numbers: std::vector<long>, std::array<int, 3>,
// std::span<const short>, ...) and, for tables, as a list or range of
// such lists (Tuples). They are read into 64 bits; the one value 64 bits
// cannot hold, an unsigned one above INT64_MAX, is remembered as text, so
// that the function which reads it can refuse it by its name. Each
// function then asks for the type its propagator computes in (int or
// std::int64_t) and gets a model_error naming the function, the argument
// and the value that does not fit. Floating-point values are refused at
// compile time: a propagator over integers has no right rounding for them.
//
// Views come as any input range of one view type, or as a braced list. A
// braced list of one view type keeps it; one that mixes view types is read
// as AffineView, which holds any of them. The functions spell that as two
// overloads, a template on std::initializer_list<V> and one on
// std::initializer_list<AffineView>: the first wins on an exact match, the
// second is the only one left when the elements' types differ.
// views_of() turns any of these forms into a vector, of their own view
// type or of the one asked for.
//
// The global constraints (all_different, count, global_cardinality, lex_*,
// increasing) also take expressions (model/expr.hpp) among their views:
// a braced list or a range of Listed items, each a view or an Expr, read
// as a Listing. The Listing overload stays out of the way of the view
// forms: a braced list converts to std::initializer_list<X> better than
// to any other class ([over.ics.rank]/3.1), so a list of views still
// takes its initializer_list overload and keeps its return type; only a
// list with an Expr, which no view overload accepts, reaches it. Posted,
// each item becomes an AffineView: a view as it is, an expression through
// the modelling layer's expr_view (model/define.hpp), which gives a*x + b
// for a single term that fits a view and an auxiliary variable otherwise.
// These headers only declare Expr; a model that passes expressions
// includes <propane/model/define.hpp> (or <propane/propane.hpp>), and a
// static_assert says so when it does not.

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <memory>
#include <ranges>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "../engine/error.hpp"
#include "../engine/view.hpp"

namespace propane {
class Expr; // model/expr.hpp
}

namespace propane::detail {

template <class V>
concept ViewHandle = requires(const V& v) {
    { v.var() } -> std::same_as<IntVar>;
};

template <class R>
concept ViewRange = std::ranges::input_range<R> && ViewHandle<std::ranges::range_value_t<R>>;

// bool counts, as 0 and 1: rel(b, Rel::eq, true) means what it says.
template <class T>
concept Integer = std::integral<T>;

template <class R>
concept IntegerRange = std::ranges::input_range<R> && Integer<std::ranges::range_value_t<R>>;

template <class T>
concept NotInteger = std::floating_point<T>;

template <class R>
concept NotIntegerRange = std::ranges::input_range<R> && NotInteger<std::ranges::range_value_t<R>>;

// The view type two ranges meet in: their own when they share it, else
// AffineView, which holds any view.
template <class R1, class R2>
using common_view_t = std::conditional_t<std::same_as<std::ranges::range_value_t<R1>, std::ranges::range_value_t<R2>>,
                                         std::ranges::range_value_t<R1>, AffineView>;

template <class>
inline constexpr bool refused = false;

template <class View = void, ViewRange R>
auto views_of(const R& views) {
    using V = std::conditional_t<std::is_void_v<View>, std::ranges::range_value_t<R>, View>;
    std::vector<V> out;
    for (const auto& v : views) out.push_back(v);
    return out;
}

// One integer of any integral type, read into 64 bits (see the header
// comment).
class Number {
public:
    template <Integer T>
    Number(T v) { // NOLINT: implicit by design, so any integer converts
        if constexpr (std::is_unsigned_v<T> && sizeof(T) >= sizeof(std::int64_t)) {
            if (v > static_cast<T>(std::numeric_limits<std::int64_t>::max())) {
                value_ = std::numeric_limits<std::int64_t>::max();
                beyond_ = std::to_string(v);
                return;
            }
        }
        value_ = static_cast<std::int64_t>(v);
    }
    template <NotInteger T>
    Number(T) {
        static_assert(refused<T>, "propane: this argument takes an integer, not a floating-point value");
    }

    // The value within lo .. hi, else model_error "who: what is v, ...".
    std::int64_t get(const char* who, const std::string& what, std::int64_t lo, std::int64_t hi) const {
        if (!beyond_.empty() || value_ < lo || value_ > hi)
            throw model_error(formatted("%s: %s is %s, beyond %lld..%lld", who, what.c_str(), text().c_str(),
                                        static_cast<long long>(lo), static_cast<long long>(hi)));
        return value_;
    }
    int get_int(const char* who, const std::string& what) const {
        return static_cast<int>(get(who, what, int_min, int_max));
    }
    std::int64_t get_int64(const char* who, const std::string& what) const {
        return get(who, what, std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max());
    }
    // The value with one beyond 64 bits read as INT64_MAX, for a relation
    // whose truth that does not change.
    std::int64_t saturated() const noexcept { return value_; }

private:
    std::string text() const { return beyond_.empty() ? formatted("%lld", static_cast<long long>(value_)) : beyond_; }

    std::int64_t value_ = 0;
    std::string beyond_;
};

// A list of integers of any integral type (see the header comment).
class Numbers {
public:
    Numbers() = default;
    template <Integer T>
    Numbers(std::initializer_list<T> list) { // NOLINT: implicit by design
        for (const T v : list) values_.emplace_back(v);
    }
    // A braced list mixing integer types, as {1, 2u}.
    Numbers(std::initializer_list<std::int64_t> list) { // NOLINT: implicit by design
        for (const std::int64_t v : list) values_.emplace_back(v);
    }
    template <IntegerRange R>
    Numbers(const R& range) { // NOLINT: implicit by design
        for (const auto v : range) values_.emplace_back(v);
    }
    template <NotInteger T>
    Numbers(std::initializer_list<T>) {
        static_assert(refused<T>, "propane: a list of numbers takes integers, not floating-point values");
    }
    template <NotIntegerRange R>
    Numbers(const R&) {
        static_assert(refused<R>, "propane: a range of numbers takes integers, not floating-point values");
    }

    std::size_t size() const noexcept { return values_.size(); }

    // Each value as int (as_ints) or std::int64_t (as_int64s), else
    // model_error "who: what[k] is v, beyond lo..hi".
    std::vector<int> as_ints(const char* who, const char* what) const {
        std::vector<int> out;
        out.reserve(values_.size());
        for (std::size_t k = 0; k < values_.size(); ++k) out.push_back(values_[k].get_int(who, item(what, k)));
        return out;
    }
    std::vector<std::int64_t> as_int64s(const char* who, const char* what) const {
        std::vector<std::int64_t> out;
        out.reserve(values_.size());
        for (std::size_t k = 0; k < values_.size(); ++k) out.push_back(values_[k].get_int64(who, item(what, k)));
        return out;
    }

private:
    static std::string item(const char* what, std::size_t k) {
        return std::string(what) + "[" + std::to_string(k) + "]";
    }

    std::vector<Number> values_;
};

// The tuples of a table: a braced list of braced lists, or a range of
// ranges, of integers of any integral type.
class Tuples {
public:
    Tuples() = default;
    Tuples(std::initializer_list<Numbers> tuples) : tuples_(tuples) {} // NOLINT: implicit by design
    template <std::ranges::input_range R>
        requires IntegerRange<std::ranges::range_value_t<R>>
    Tuples(const R& tuples) { // NOLINT: implicit by design
        for (const auto& t : tuples) tuples_.emplace_back(t);
    }

    // Every value as int, else model_error "who: tuples[k][i] is v, ...".
    std::vector<std::vector<int>> as_ints(const char* who) const {
        std::vector<std::vector<int>> out;
        out.reserve(tuples_.size());
        for (std::size_t k = 0; k < tuples_.size(); ++k)
            out.push_back(tuples_[k].as_ints(who, ("tuples[" + std::to_string(k) + "]").c_str()));
        return out;
    }

private:
    std::vector<Numbers> tuples_;
};

// One item of a global constraint's list: a view, or an expression turned
// into one when the constraint is posted (see the header comment).
class Listed {
public:
    Listed(IntVar x) : view_(x) {}       // NOLINT: implicit by design, so a braced list mixes views
    Listed(OffsetView v) : view_(v) {}   // NOLINT: implicit by design
    Listed(AffineView v) : view_(v) {}   // NOLINT: implicit by design
    // A template, so that Expr need only be declared here.
    template <std::derived_from<Expr> E>
    Listed(const E& e) : view_(IntVar{}), expr_(std::make_shared<const E>(e)) {} // NOLINT: implicit by design

    // The view, when the item is one (expr() is null).
    const AffineView& view() const noexcept { return view_; }
    const Expr* expr() const noexcept { return expr_.get(); }

private:
    AffineView view_;
    std::shared_ptr<const Expr> expr_;
};

// The item as a view in s: the view itself, or the one define.hpp's
// expr_view makes of the expression (found through Listed's namespace
// when the constraint is posted, so that these headers need not include
// the modelling layer). `who` names the constraint in messages.
template <class S>
AffineView as_view(S& s, const Listed& item, const char* who) {
    if (!item.expr()) return item.view();
    if constexpr (requires(S& st, const Listed& e, const char* name) {
                      { expr_view(st, e, name) } -> std::same_as<AffineView>;
                  })
        return expr_view(s, item, who);
    else
        static_assert(refused<S>, "propane: a global constraint given an expression needs "
                                  "#include <propane/model/define.hpp> (or <propane/propane.hpp>) to post it");
}

// A braced list or a range of Listed items (see the header comment).
class Listing {
public:
    Listing(std::initializer_list<Listed> items) : items_(items) {} // NOLINT: implicit by design
    template <std::ranges::input_range R>
        requires std::convertible_to<std::ranges::range_reference_t<R>, Listed>
    Listing(const R& items) { // NOLINT: implicit by design
        for (const auto& item : items) items_.emplace_back(item);
    }

    std::size_t size() const noexcept { return items_.size(); }

    // Every item as a view in s, making the auxiliary variables the
    // expressions need, in the list's order.
    template <class S>
    std::vector<AffineView> views(S& s, const char* who) const {
        std::vector<AffineView> out;
        out.reserve(items_.size());
        for (const Listed& item : items_) out.push_back(as_view(s, item, who));
        return out;
    }

private:
    std::vector<Listed> items_;
};

} // namespace propane::detail

#endif
