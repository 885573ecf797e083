#ifndef PROPANE_CONSTRAINTS_ALL_DIFFERENT_HPP
#define PROPANE_CONSTRAINTS_ALL_DIFFERENT_HPP

// AllDifferent over any views, at a chosen strength:
//
//   value   when a view becomes fixed, its value is removed from the others
//           (OR-Tools' ValueAllDifferent, Gecode's IPL_VAL). Incremental: a
//           run handles only the views that became fixed since the last run,
//           which the store reports through tagged subscriptions
//           (all_different/value.hpp).
//   bounds  value stage first, then Hall intervals on the bounds, which
//           gives bounds consistency (OR-Tools' default BoundsAllDifferent,
//           Gecode IPL_BND). Values within one word: walks over the word of
//           values no fixed view holds. Wider: the sweeps of López-Ortiz,
//           Quimper, Tromp and van Beek, "A fast and simple algorithm for
//           bounds consistency of the alldifferent constraint", IJCAI 2003,
//           over the open views only, O(m log m) a run for m open views
//           (all_different/bounds.hpp).
//   domain  value stage first, then Régin's algorithm (AAAI 1994): a
//           maximum matching of views to values, and the strongly connected
//           components of the residual graph; every edge outside the
//           matching and outside every component (and every even
//           alternating path from a free value) is removed. This leaves only
//           values that belong to some solution (Gecode IPL_DOM, MiniCP's
//           AllDifferentDC). Up to 64 open views: closures on words. More,
//           over dense domains: Kosaraju's components on rows and columns of
//           bits (all_different/dense.hpp). More, over sparse domains:
//           Tarjan's, edge by edge (all_different/domain.hpp).
//
// Limit: domain strength numbers the values from the least to the greatest
// that any of its views could ever take, and keeps arrays over that span
// (a value's owner in the matching, its place in the graph), so it refuses
// a span wider than 2^22 = 4,194,304 values with a model_error when posted;
// views whose values are that far apart but few (say 100000 * x) would
// otherwise cost memory for values that cannot occur. Value and bounds
// strength number no values and take any range.
//
// All are templates over the view type, so x, x + c and a*x + b share one
// implementation with the view arithmetic inlined.

#include <algorithm>
#include <bit>
#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <ranges>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "all_different/bounds.hpp"
#include "all_different/domain.hpp"
#include "all_different/value.hpp"
#include "../engine/error.hpp"
#include "../engine/names.hpp"
#include "../engine/propagator.hpp"
#include "../engine/view.hpp"
#include "arguments.hpp"

namespace propane {

enum class Consistency : std::uint8_t { value, bounds, domain };

// A strength fixed where the model is written. propane::value, bounds and
// domain are of these types, not Consistency itself, so that a file posting
// all_different(xs, propane::domain) compiles the domain propagator alone:
// a Consistency known only at run time compiles all three. Each converts to
// Consistency wherever one is expected (a variable, a switch, a template
// argument); two of them in one ?: need a cast, as their types differ.
template <Consistency C>
struct ConsistencyTag {
    static constexpr Consistency consistency = C;
    constexpr operator Consistency() const noexcept { return C; }
};

inline constexpr ConsistencyTag<Consistency::value> value{};
inline constexpr ConsistencyTag<Consistency::bounds> bounds{};
inline constexpr ConsistencyTag<Consistency::domain> domain{};

// The names used in the documentation and on command lines.
constexpr std::string_view to_string(Consistency c) noexcept {
    switch (c) {
    case Consistency::value: return "value";
    case Consistency::bounds: return "bounds";
    case Consistency::domain: return "domain";
    }
    return "?";
}
constexpr std::optional<Consistency> consistency_from_string(std::string_view name) noexcept {
    return detail::from_name(name, {Consistency::value, Consistency::bounds, Consistency::domain});
}

namespace detail {

// A Consistency made by a cast from a number outside the enum would reach
// no propagator and no subscription: refused where it is first seen.
inline void check_strength(Consistency c) {
    if (c != Consistency::value && c != Consistency::bounds && c != Consistency::domain)
        throw model_error("all_different: strength " + std::to_string(static_cast<unsigned>(c)) +
                          " is not a propane::Consistency (value, bounds or domain)");
}

} // namespace detail

namespace detail {

template <class S>
inline constexpr bool is_consistency_tag = false;
template <Consistency C>
inline constexpr bool is_consistency_tag<ConsistencyTag<C>> = true;

// The propagator of strength C over the views.
template <Consistency C, class Store, class View>
std::unique_ptr<Propagator<Store>> all_different_propagator(Store& s, const std::vector<View>& views) {
    if constexpr (C == Consistency::value) return std::make_unique<AllDifferentValue<Store, View>>(s, views);
    else if constexpr (C == Consistency::bounds) return std::make_unique<AllDifferentBounds<Store, View>>(s, views);
    else return std::make_unique<AllDifferentDomain<Store, View>>(s, views);
}

} // namespace detail

// The constraint as the user writes it: all_different(views, strength).
// Posting creates the propagator for that strength and view type. Strength
// is Consistency, chosen at run time, or a ConsistencyTag, fixed when the
// model is compiled (the form all_different() returns for propane::value,
// bounds or domain, and without a strength); the second converts to the
// first.
template <class View, class Strength = Consistency>
struct AllDifferent {
    std::vector<View> views;
    Strength strength{};

    // Defined below, out of the class and not inline, so that an explicit
    // instantiation declaration (propane/compiled.hpp) keeps a model's file
    // from instantiating the propagators.
    template <class Store>
    int post(Store& s) const;

    operator AllDifferent<View>() const
        requires(detail::is_consistency_tag<Strength>)
    {
        return {views, strength};
    }
};

template <class View, class Strength>
template <class Store>
int AllDifferent<View, Strength>::post(Store& s) const {
    // Again here: the struct can be built without all_different().
    detail::check_strength(strength);
    for (const View& v : views) s.check(v.var(), "all_different");
    std::unique_ptr<Propagator<Store>> p;
    if constexpr (detail::is_consistency_tag<Strength>) {
        p = detail::all_different_propagator<Strength::consistency>(s, views);
    } else {
        switch (strength) {
        case Consistency::value: p = detail::all_different_propagator<Consistency::value>(s, views); break;
        case Consistency::bounds: p = detail::all_different_propagator<Consistency::bounds>(s, views); break;
        case Consistency::domain: p = detail::all_different_propagator<Consistency::domain>(s, views); break;
        }
    }
    // Views already fixed count as newly fixed for the first run.
    for (std::size_t i = 0; i < views.size(); ++i)
        if (views[i].fixed(s)) p->pending().push_back(static_cast<int>(i));
    const int id = s.add_propagator(std::move(p));
    const Consistency c = strength;
    for (std::size_t i = 0; i < views.size(); ++i) {
        s.subscribe(views[i].var(), id, Event::fixed, static_cast<int>(i));
        if (c == Consistency::bounds) s.subscribe(views[i].var(), id, Event::bounds);
        if (c == Consistency::domain) s.subscribe(views[i].var(), id, Event::domain);
    }
    return id;
}

// The views as a range of one view type or a braced list (arguments.hpp),
// at a strength fixed in the model (the default is bounds) or chosen at run
// time.
template <detail::ViewRange R, class Strength = ConsistencyTag<Consistency::bounds>>
    requires std::convertible_to<Strength, Consistency>
AllDifferent<std::ranges::range_value_t<R>, Strength> all_different(const R& views, Strength strength = {}) {
    detail::check_strength(strength);
    return {detail::views_of(views), strength};
}
template <detail::ViewHandle V, class Strength = ConsistencyTag<Consistency::bounds>>
    requires std::convertible_to<Strength, Consistency>
AllDifferent<V, Strength> all_different(std::initializer_list<V> views, Strength strength = {}) {
    detail::check_strength(strength);
    return {detail::views_of(views), strength};
}
template <class Strength = ConsistencyTag<Consistency::bounds>>
    requires std::convertible_to<Strength, Consistency>
AllDifferent<AffineView, Strength> all_different(std::initializer_list<AffineView> views, Strength strength = {}) {
    detail::check_strength(strength);
    return {detail::views_of(views), strength};
}

// all_different over expressions, as all_different(xs) with a braced list
// or a range holding an Expr returns it: posted as AllDifferent over each
// item's view (arguments.hpp's Listing), auxiliary variables first.
template <class Strength = Consistency>
struct AllDifferentOfExprs {
    detail::Listing xs;
    Strength strength{};

    template <class Store>
    int post(Store& s) const {
        return AllDifferent<AffineView, Strength>{xs.views(s, "all_different"), strength}.post(s);
    }
};

// A braced list or range of views and expressions, {x + y, y * z, x}; a
// list of views alone takes the overloads above.
template <class Strength = ConsistencyTag<Consistency::bounds>>
    requires std::convertible_to<Strength, Consistency>
AllDifferentOfExprs<Strength> all_different(detail::Listing xs, Strength strength = {}) {
    detail::check_strength(strength);
    return {std::move(xs), strength};
}

} // namespace propane

#endif
