#ifndef PROPANE_TESTS_SUPPORT_HPP
#define PROPANE_TESTS_SUPPORT_HPP

// Helpers shared by the test files: readable failure messages, the
// reference meaning of a Change, and the views and cuts of the propagator
// sweeps.

#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include <propane/engine/domain.hpp>
#include <propane/engine/view.hpp>

// Failed checks print containers and domains by value instead of "{?}".
namespace doctest {
template <class T>
struct StringMaker<std::vector<T>> {
    static String convert(const std::vector<T>& v) {
        String out = "{";
        for (std::size_t i = 0; i < v.size(); ++i) out += String(i == 0 ? "" : ", ") + toString(v[i]);
        return out + "}";
    }
};
template <class T>
struct StringMaker<std::set<T>> {
    static String convert(const std::set<T>& s) {
        String out = "{";
        for (const T& v : s) out += String(out.size() > 1 ? ", " : "") + toString(v);
        return out + "}";
    }
};
template <std::size_t W>
struct StringMaker<propane::BitDomain<W>> {
    static String convert(const propane::BitDomain<W>& d) {
        String out = "{";
        d.for_each([&](int v) { out += String(out == "{" ? "" : ",") + toString(v); });
        return out + "}";
    }
};
} // namespace doctest

namespace test_support {

// doctest would print a Change as its underlying uint8_t, a raw char.
inline std::string str(propane::Change c) {
    switch (c) {
    case propane::Change::none: return "none";
    case propane::Change::domain: return "domain";
    case propane::Change::bounds: return "bounds";
    case propane::Change::fixed: return "fixed";
    case propane::Change::failed: return "failed";
    }
    return "invalid Change " + std::to_string(static_cast<int>(c));
}

// What an update taking a set of values from `before` to `after` must
// report. An update that would empty the set reports failed.
template <class Set>
propane::Change expected_change(const Set& before, const Set& after) {
    using propane::Change;
    if (after.empty()) return Change::failed;
    if (after == before) return Change::none;
    if (after.size() == 1) return Change::fixed;
    if (*after.begin() != *before.begin() || *after.rbegin() != *before.rbegin()) return Change::bounds;
    return Change::domain;
}

// A domain's values as a std::set, the reference the tests compare with.
template <class Domain>
std::set<int> contents(const Domain& d) {
    std::set<int> r;
    d.for_each([&](int v) { r.insert(v); });
    return r;
}

// The view of kind View over x that maps v to a*v + b. An IntVar is only
// the identity and an OffsetView only a = 1, so a sweep over view kinds
// gives those kinds no other coefficients.
template <class View>
View make_view(propane::IntVar x, int a, int b) {
    if constexpr (std::is_same_v<View, propane::IntVar>) {
        REQUIRE((a == 1 && b == 0));
        return x;
    } else if constexpr (std::is_same_v<View, propane::OffsetView>) {
        REQUIRE(a == 1);
        return x + b;
    } else {
        return propane::AffineView(x, a, b);
    }
}

// Cuts x to the values of keep; false when that empties it (the removals
// stop there, the store failed).
template <class Store>
bool cut(Store& s, propane::IntVar x, const std::set<int>& keep) {
    bool ok = true;
    s.domain(x).for_each([&](int v) {
        if (ok && !keep.contains(v)) ok = s.remove(x, v) != propane::Change::failed;
    });
    return ok;
}

// Compares got(v) with want(v) for every int v in [from, to]: the first
// difference, described, or "" if none.
template <class Got, class Want>
std::string first_difference(const char* what, std::int64_t from, std::int64_t to, Got got, Want want) {
    from = std::max<std::int64_t>(from, std::numeric_limits<int>::min());
    to = std::min<std::int64_t>(to, std::numeric_limits<int>::max());
    for (std::int64_t v = from; v <= to; ++v) {
        const auto g = got(static_cast<int>(v));
        const auto w = want(v);
        if (g != w) {
            std::ostringstream os;
            os << what << "(" << v << "): got " << g << ", want " << w;
            return os.str();
        }
    }
    return "";
}

} // namespace test_support

#endif
