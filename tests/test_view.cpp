// Views against the mathematics they stand for: a view a*x + b over a
// domain D must behave as the set {a*x + b : x in D}, and an update of the
// view must leave x with exactly the preimage of the updated set.

#include <doctest/doctest.h>

#include "support.hpp"

#include <propane/engine/domain.hpp>
#include <propane/engine/error.hpp>
#include <propane/engine/store.hpp>
#include <propane/engine/view.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <limits>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "instances_store.hpp"

namespace {

using test_support::first_difference;
using test_support::str;
using test_support::expected_change;

using propane::AffineView;
using propane::Change;
using propane::IntVar;
using propane::OffsetView;

using Set = std::set<std::int64_t>;

constexpr std::int64_t int_min = std::numeric_limits<int>::min();
constexpr std::int64_t int_max = std::numeric_limits<int>::max();

using S1 = propane::Store<propane::BitDomain<1>>;
using SD = propane::Store<propane::BitDomain<propane::dynamic>>;

static_assert(propane::View<IntVar, S1>);
static_assert(propane::View<OffsetView, S1>);
static_assert(propane::View<AffineView, S1>);
static_assert(propane::View<IntVar, SD>);
static_assert(propane::View<OffsetView, SD>);
static_assert(propane::View<AffineView, SD>);
static_assert(propane::View<IntVar, propane::Store<propane::BitDomain<4>>>);
static_assert(!propane::View<int, S1>);
static_assert(!propane::View<propane::BitDomain<1>, S1>);

// The map a view claims to be, computed in 64 bits.
struct Affine {
    std::int64_t a, b;
    std::int64_t operator()(std::int64_t x) const { return a * x + b; }
};

template <class S>
Set var_set(const S& s, IntVar x) {
    Set r;
    s.domain(x).for_each([&](int v) { r.insert(v); });
    return r;
}

Set image(const Set& xs, Affine f) {
    Set r;
    for (std::int64_t x : xs) r.insert(f(x));
    return r;
}

// Arguments worth trying: every value around the image, and the ends of int.
std::vector<int> probe_values(const Set& e, std::int64_t margin) {
    std::vector<int> vs{static_cast<int>(int_min), static_cast<int>(int_max)};
    for (std::int64_t v = std::max(*e.begin() - margin, int_min); v <= std::min(*e.rbegin() + margin, int_max); ++v)
        vs.push_back(static_cast<int>(v));
    return vs;
}

template <class S, class V>
void check_queries(const S& s, const V& view, IntVar x, Affine f) {
    const Set e = image(var_set(s, x), f);
    const std::int64_t lo = *e.begin(), hi = *e.rbegin();
    CHECK(view.var().same(x));
    CHECK(view.lo() == std::min(f(x.lo()), f(x.hi())));
    CHECK(view.hi() == std::max(f(x.lo()), f(x.hi())));
    CHECK(first_difference(
              "of", x.lo(), x.hi(), [&](int v) { return view.of(v); }, f) == "");
    CHECK(view.min(s) == lo);
    CHECK(view.max(s) == hi);
    CHECK(view.size(s) == e.size());
    CHECK(view.fixed(s) == (e.size() == 1));
    if (e.size() == 1) CHECK(view.value(s) == lo);
    const std::int64_t margin = 2 * std::abs(f.a) + 3;
    CHECK(first_difference(
              "contains", lo - margin, hi + margin, [&](int v) { return view.contains(s, v); },
              [&](std::int64_t v) { return e.count(v) == 1; }) == "");
    CHECK(view.contains(s, static_cast<int>(int_min)) == (e.count(int_min) == 1));
    CHECK(view.contains(s, static_cast<int>(int_max)) == (e.count(int_max) == 1));
    CHECK(first_difference(
              "next", lo - margin, hi - 1, [&](int v) { return view.next(s, v); },
              [&](std::int64_t v) { return *e.upper_bound(v); }) == "");
    CHECK(first_difference(
              "prev", lo + 1, hi + margin, [&](int v) { return view.prev(s, v); },
              [&](std::int64_t v) { return *std::prev(e.lower_bound(v)); }) == "");
    if (lo > int_min) CHECK(view.next(s, static_cast<int>(int_min)) == lo);
    if (hi < int_max) CHECK(view.prev(s, static_cast<int>(int_max)) == hi);
    // for_each: every value once, in the order of the variable's values.
    std::vector<std::int64_t> seen, want;
    view.for_each(s, [&](int v) { seen.push_back(v); });
    for (std::int64_t v : var_set(s, x)) want.push_back(f(v));
    CHECK(seen == want);
    // bits: the same set, a word at a time, from starts on either side.
    for (const std::int64_t start : {lo - 70, lo - 64, lo - 5, lo, lo + 7, hi - 63, hi - 10, hi, hi + 1}) {
        std::uint64_t expect = 0;
        for (std::int64_t v : e)
            if (v >= start && v < start + 64) expect |= std::uint64_t{1} << (v - start);
        CHECK(view.bits(s, start) == expect);
    }
}

// Applies each update, with each probe value, to a copy of the store.
template <class S, class V>
void check_updates(const S& s, const V& view, IntVar x, Affine f) {
    const Set d = var_set(s, x);
    const Set e = image(d, f);
    struct Op {
        const char* name;
        Change (*apply)(const V&, S&, int);
        Set (*expect)(const Set&, std::int64_t);
    };
    static const Op ops[] = {
        {"remove", [](const V& w, S& t, int v) { return w.remove(t, v); },
         [](const Set& e0, std::int64_t v) {
             Set r = e0;
             r.erase(v);
             return r;
         }},
        {"remove_below", [](const V& w, S& t, int v) { return w.remove_below(t, v); },
         [](const Set& e0, std::int64_t v) { return Set(e0.lower_bound(v), e0.end()); }},
        {"remove_above", [](const V& w, S& t, int v) { return w.remove_above(t, v); },
         [](const Set& e0, std::int64_t v) { return Set(e0.begin(), e0.upper_bound(v)); }},
        {"assign", [](const V& w, S& t, int v) { return w.assign(t, v); },
         [](const Set& e0, std::int64_t v) { return e0.count(v) ? Set{v} : Set{}; }},
    };
    for (const Op& op : ops) {
        for (int v : probe_values(e, 2 * std::abs(f.a) + 2)) {
            S t = s;
            const Change got = op.apply(view, t, v);
            const Set want = op.expect(e, v);
            Set preimage;
            for (std::int64_t xv : d)
                if (want.count(f(xv))) preimage.insert(xv);
            const Set after = var_set(t, x);
            if (str(got) != str(expected_change(e, want)) || after != (want.empty() ? d : preimage)) {
                FAIL_CHECK(op.name << "(" << v << "): reported " << str(got) << ", want "
                                   << str(expected_change(e, want)) << "; var domain size " << after.size()
                                   << ", want " << (want.empty() ? d : preimage).size());
            }
        }
    }
}

// op on a copy of the store against the view values `want` it should leave:
// the Change reported and the variable's domain after it (unchanged when
// nothing is left).
template <class S, class V, class Op>
void check_update(const S& s, IntVar x, Affine f, const Set& want, const char* what, Op op) {
    const Set d = var_set(s, x);
    const Set e = image(d, f);
    S t = s;
    const Change got = op(t);
    Set preimage;
    for (std::int64_t xv : d)
        if (want.count(f(xv))) preimage.insert(xv);
    const Set after = var_set(t, x);
    if (str(got) != str(expected_change(e, want)) || after != (want.empty() ? d : preimage)) {
        FAIL_CHECK(what << ": reported " << str(got) << ", want " << str(expected_change(e, want))
                        << "; var domain size " << after.size() << ", want " << (want.empty() ? d : preimage).size());
    }
}

// keep_between on pairs of probe values (ends reversed too), and
// remove_bits on windows from either side of the values.
template <class S, class V>
void check_joint_updates(const S& s, const V& view, IntVar x, Affine f) {
    const Set e = image(var_set(s, x), f);
    const std::vector<int> probes = probe_values(e, 2 * std::abs(f.a) + 2);
    for (std::size_t i = 0; i < probes.size(); ++i)
        for (const std::size_t step : {std::size_t{0}, std::size_t{1}, std::size_t{3}, std::size_t{7}}) {
            const int a = probes[i], b = probes[(i + step) % probes.size()];
            Set want;
            for (std::int64_t v : e)
                if (v >= a && v <= b) want.insert(v);
            INFO("keep_between(" << a << ", " << b << ")");
            check_update<S, V>(s, x, f, want, "keep_between", [&](S& t) { return view.keep_between(t, a, b); });
        }
    const std::int64_t lo = *e.begin(), hi = *e.rbegin();
    for (const std::int64_t start : {lo - 70, lo - 64, lo - 5, lo, lo + 7, hi - 63, hi - 10, hi, hi + 1})
        for (const std::uint64_t mask : {~std::uint64_t{0}, std::uint64_t{0x5555555555555555}, std::uint64_t{1},
                                         std::uint64_t{1} << 63, std::uint64_t{0xF0F00000000F0F0F}}) {
            Set want;
            for (std::int64_t v : e)
                if (const std::int64_t k = v - start; k < 0 || k >= 64 || ((mask >> k) & 1) == 0) want.insert(v);
            INFO("remove_bits(" << start << ", " << mask << ")");
            check_update<S, V>(s, x, f, want, "remove_bits", [&](S& t) { return view.remove_bits(t, start, mask); });
        }
}

template <class S, class V>
void check_view(const S& s, const V& view, IntVar x, Affine f) {
    INFO("view " << f.a << "*x + " << f.b);
    check_queries(s, view, x, f);
    check_updates(s, view, x, f);
    check_joint_updates(s, view, x, f);
}

// Every view built from x, by constructor and by operator, with the map each
// must equal.
template <class S>
void check_all_views(const S& s, IntVar x, std::mt19937& rng) {
    check_view(s, x, x, {1, 0});
    const int c = std::uniform_int_distribution<int>(-50, 50)(rng);
    const int d = std::uniform_int_distribution<int>(-9, 9)(rng);
    check_view(s, x + c, x, {1, c});
    check_view(s, x - c, x, {1, -c});
    check_view(s, c + x, x, {1, c});
    check_view(s, OffsetView(x, c), x, {1, c});
    check_view(s, (x + c) + d, x, {1, c + d});
    check_view(s, (x + c) - d, x, {1, c - d});
    check_view(s, -x, x, {-1, 0});
    for (int a : {-3, -2, -1, 1, 2, 3}) {
        const int b = std::uniform_int_distribution<int>(-20, 20)(rng);
        check_view(s, AffineView(x, a, b), x, {a, b});
        check_view(s, a * x, x, {a, 0});
        check_view(s, x * a, x, {a, 0});
        check_view(s, a * x + b, x, {a, b});
        check_view(s, a * x - b, x, {a, -b});
        check_view(s, a * (x + d), x, {a, std::int64_t{a} * d});
        check_view(s, a * AffineView(x, 2, b), x, {2 * a, std::int64_t{a} * b});
    }
}

// x over lo..hi with random holes (never empty).
template <class S>
IntVar holey_var(S& s, std::mt19937& rng, int lo, int hi) {
    const IntVar x = s.int_var(lo, hi);
    std::bernoulli_distribution drop(std::uniform_int_distribution<int>(0, 3)(rng) * 0.25);
    for (std::int64_t v = lo; v <= hi; ++v)
        if (s.domain(x).size() > 1 && drop(rng)) CHECK(s.remove(x, static_cast<int>(v)) != propane::Change::failed);
    return x;
}

} // namespace

TEST_CASE_TEMPLATE("views agree with the mapped set on small domains", S, S1, SD) {
    std::mt19937 rng(424242);
    for (int round = 0; round < 20; ++round) {
        CAPTURE(round);
        S s;
        s.int_var(0, 0); // so x is not variable 0
        const int lo = std::uniform_int_distribution<int>(-15, 15)(rng);
        const int hi = lo + std::uniform_int_distribution<int>(0, 11)(rng);
        const IntVar x = holey_var(s, rng, lo, hi);
        check_all_views(s, x, rng);
    }
}

TEST_CASE("views near the ends of int") {
    std::mt19937 rng(7);
    const int imin = static_cast<int>(int_min), imax = static_cast<int>(int_max);
    for (int round = 0; round < 4; ++round) {
        CAPTURE(round);
        S1 s;
        // Includes INT_MAX.
        const IntVar top = holey_var(s, rng, imax - 10, imax);
        check_view(s, top, top, {1, 0});
        check_view(s, top + 0, top, {1, 0});
        check_view(s, top - 5, top, {1, -5});
        check_view(s, top - 10, top, {1, -10});
        check_view(s, top + imin, top, {1, imin});
        check_view(s, -top, top, {-1, 0});
        check_view(s, -top - 1, top, {-1, -1});
        check_view(s, AffineView(top, -1, 0), top, {-1, 0});
        // Includes INT_MIN.
        const IntVar bottom = holey_var(s, rng, imin, imin + 10);
        check_view(s, bottom, bottom, {1, 0});
        check_view(s, bottom + 5, bottom, {1, 5});
        check_view(s, bottom + imax, bottom, {1, imax});
        check_view(s, 10 + bottom, bottom, {1, 10});
        // Images at the ends of int through a scale.
        const int half = imin / 2; // -2^30
        const IntVar low_half = holey_var(s, rng, half, half + 10);
        check_view(s, 2 * low_half, low_half, {2, 0});
        check_view(s, 2 * low_half + 7, low_half, {2, 7});
        const IntVar high_half = holey_var(s, rng, -half - 11, -half - 1);
        check_view(s, 2 * high_half, high_half, {2, 0});
        check_view(s, -2 * high_half, high_half, {-2, 0});
        check_view(s, 2 * high_half + 1, high_half, {2, 1});
        check_view(s, AffineView(high_half, -2, -1), high_half, {-2, -1});
    }
}

TEST_CASE("bounds beyond int remove everything or nothing") {
    const int imin = static_cast<int>(int_min), imax = static_cast<int>(int_max);
    S1 s;
    const IntVar top = s.int_var(imax - 3, imax);
    const IntVar bottom = s.int_var(imin, imin + 3);
    const S1 s0 = s;
    // x - 5 < INT_MAX - 4: asking for values >= INT_MAX needs x >= INT_MAX + 5.
    S1 t = s0;
    CHECK(str((top - 5).remove_below(t, imax)) == "failed");
    CHECK(t.domain(top) == s0.domain(top));
    CHECK(str((top - 5).remove_above(t, imax)) == "none");
    CHECK(str((top - 5).remove_above(t, imax - 8)) == "fixed");
    CHECK(t.domain(top).value() == imax - 3);
    // x + 5 > INT_MIN + 4: the bound INT_MIN maps below int.
    t = s0;
    CHECK(str((bottom + 5).remove_below(t, imin)) == "none");
    CHECK(str((bottom + 5).remove_above(t, imin)) == "failed");
    CHECK(str((bottom + 5).remove_above(t, imin + 4)) == "failed");
    CHECK(t.domain(bottom) == s0.domain(bottom));
    CHECK(str((bottom + 5).remove_above(t, imin + 5)) == "fixed");
    // Through a negative scale: -x spans -INT_MAX .. -INT_MAX + 3, so
    // INT_MIN is below all of it and its preimage is beyond int.
    t = s0;
    CHECK(str((-top).remove_below(t, imin)) == "none");
    CHECK(str((-top).remove_above(t, imin)) == "failed");
    CHECK(str((-top).assign(t, imin)) == "failed");
    CHECK(str((-top).remove(t, imin)) == "none");
    CHECK(t.domain(top) == s0.domain(top));
}

TEST_CASE("views refuse overflow when they are made") {
    const int imin = static_cast<int>(int_min), imax = static_cast<int>(int_max);
    S1 s;
    const IntVar x = s.int_var(0, 10);
    const IntVar neg = s.int_var(-10, 0);

    CHECK_THROWS_AS(x + imax, propane::model_error);
    CHECK_THROWS_AS(imax + x, propane::model_error);
    CHECK_THROWS_AS(OffsetView(x, imax - 9), propane::model_error);
    CHECK(OffsetView(x, imax - 10).hi() == imax);
    CHECK(OffsetView(x, imax - 10).lo() == imax - 10);
    CHECK_THROWS_AS(x - imin, propane::model_error); // -INT_MIN is not an int
    CHECK_THROWS_AS(neg + imin, propane::model_error);
    CHECK(OffsetView(neg, imin + 10).lo() == imin);
    CHECK_THROWS_AS(neg - imax, propane::model_error);
    CHECK((neg - (imax - 9)).lo() == imin);
    CHECK_THROWS_AS((x + 5) + (imax - 10), propane::model_error);
    CHECK_THROWS_AS((x + 5) - imin, propane::model_error);
    CHECK_THROWS_AS((neg - 5) - (imax - 10), propane::model_error);

    CHECK_THROWS_AS(AffineView(x, 0, 0), propane::model_error);
    CHECK_THROWS_AS(0 * x, propane::model_error);
    CHECK_THROWS_AS(AffineView(x, imax / 10 + 1, 0), propane::model_error);
    CHECK(AffineView(x, imax / 10, 0).hi() == imax / 10 * 10);
    CHECK_THROWS_AS(AffineView(x, imin / 10 - 1, 0), propane::model_error);
    CHECK(AffineView(x, imin / 10, 0).lo() == imin / 10 * 10);
    CHECK_THROWS_AS(AffineView(x, imin, 0), propane::model_error);
    CHECK_THROWS_AS(AffineView(x, imax, 0), propane::model_error);
    CHECK_THROWS_AS(AffineView(x, 1, imax - 9), propane::model_error);
    CHECK_THROWS_AS(AffineView(neg, 1, imin + 9), propane::model_error);
    CHECK_THROWS_AS(AffineView(neg, -1, imax - 9), propane::model_error);
    CHECK_THROWS_AS(3 * x + (imax - 29), propane::model_error);
    CHECK_THROWS_AS(3 * x - imin, propane::model_error);
    CHECK_THROWS_AS((imax / 2) * (2 * x), propane::model_error);
    CHECK_THROWS_AS(2 * (x + (imax / 2)), propane::model_error);
    CHECK_THROWS_AS(-s.int_var(imin, 0), propane::model_error);

    try {
        (void)(x + imax);
        FAIL("no exception");
    } catch (const std::invalid_argument& e) {
        const std::string what = e.what();
        CAPTURE(what);
        CHECK(what.find("overflow") != std::string::npos);
    }
    try {
        (void)AffineView(x, 0, 3);
        FAIL("no exception");
    } catch (const std::invalid_argument& e) {
        const std::string what = e.what();
        CAPTURE(what);
        CHECK(what.find("a != 0") != std::string::npos);
    }
}

// The view's value arithmetic must stay inside int whenever the result is
// inside int. For -x - 1 over a variable holding INT_MIN the result
// INT_MAX fits, but (-1) * INT_MIN does not: run under UBSan with
// halt_on_error=1 (or -fno-sanitize-recover) to see this fail; with
// wrapping arithmetic the values happen to come out right.
TEST_CASE("affine views do not overflow in between") {
    const int imin = static_cast<int>(int_min);
    S1 s;
    const IntVar x = s.int_var(imin, imin + 10);
    const AffineView v(x, -1, -1); // spans INT_MAX - 10 .. INT_MAX: it fits
    CHECK(v.hi() == int_max);
    CHECK(v.max(s) == int_max);
    CHECK(v.of(imin) == int_max);
    const IntVar y = s.int_var(imin / 2, imin / 2 + 3);
    const AffineView w(y, -2, -1); // spans INT_MAX - 6 .. INT_MAX
    CHECK(w.hi() == int_max);
    CHECK(w.max(s) == int_max);
}

// Mixed view kinds: each conversion and each operator, on either side,
// must map every value of x as the arithmetic it spells does. A view is
// compared with the expression through of() and lo()/hi() and then through
// the store (min, max and membership), for x over a range with negatives.
TEST_CASE("views mix: conversions and arithmetic on either side") {
    S1 s;
    const IntVar x = s.int_var(-4, 5);
    const IntVar y = s.int_var(0, 3);
    struct Case {
        const char* text;
        AffineView view;
        std::int64_t a, b;
    };
    const std::vector<Case> cases{
        {"x", x, 1, 0},
        {"x + 2 (OffsetView)", x + 2, 1, 2},
        {"(x + 1) * 2", (x + 1) * 2, 2, 2},
        {"2 * (x + 1)", 2 * (x + 1), 2, 2},
        {"2 * x * 3", 2 * x * 3, 6, 0},
        {"x * 2 * 3", x * 2 * 3, 6, 0},
        {"3 * (2 * x)", 3 * (2 * x), 6, 0},
        {"-(x + 1)", -(x + 1), -1, -1},
        {"-(2 * x + 1)", -(2 * x + 1), -2, -1},
        {"7 - x", 7 - x, -1, 7},
        {"7 - (x + 1)", 7 - (x + 1), -1, 6},
        {"7 - (2 * x - 1)", 7 - (2 * x - 1), -2, 8},
        {"3 + (x - 2)", 3 + (x - 2), 1, 1},
        {"3 + 2 * x", 3 + 2 * x, 2, 3},
        {"(-x) * -3", (-x) * -3, 3, 0},
    };
    for (const Case& c : cases) {
        CAPTURE(c.text);
        CHECK(c.view.var().same(x));
        CHECK(c.view.scale() == c.a);
        CHECK(c.view.offset() == c.b);
        std::set<int> values;
        for (int v = x.lo(); v <= x.hi(); ++v) {
            CHECK(c.view.of(v) == c.a * v + c.b);
            values.insert(static_cast<int>(c.a * v + c.b));
        }
        CHECK(c.view.lo() == *values.begin());
        CHECK(c.view.hi() == *values.rbegin());
        CHECK(c.view.min(s) == *values.begin());
        CHECK(c.view.max(s) == *values.rbegin());
        for (int w = c.view.lo() - 2; w <= c.view.hi() + 2; ++w) CHECK(c.view.contains(s, w) == (values.count(w) == 1));
    }

    // One vector holds every kind; OffsetView takes IntVar as x + 0.
    const std::vector<AffineView> mixed{x, y + 1, 2 * y, -(y + 1)};
    CHECK(mixed[0].max(s) == 5);
    CHECK(mixed[1].max(s) == 4);
    CHECK(mixed[2].max(s) == 6);
    CHECK(mixed[3].min(s) == -4);
    const std::vector<OffsetView> offsets{x, y + 2};
    CHECK(offsets[0].offset() == 0);
    CHECK(offsets[1].min(s) == 2);
    // An update through a converted view reaches the variable.
    CHECK(str(mixed[2].remove_above(s, 3)) == "bounds");
    CHECK(s.domain(y).max() == 1);

    const int imin = static_cast<int>(int_min), imax = static_cast<int>(int_max);
    const IntVar z = s.int_var(0, 10);
    CHECK_THROWS_AS(imin - z, propane::model_error); // -z + INT_MIN reaches INT_MIN - 10
    CHECK_THROWS_AS(-(z + imin), propane::model_error);       // the offset -INT_MIN is not an int
    CHECK((-(z - imax)).hi() == imax);
    CHECK_THROWS_AS((z + (imax - 10)) * 2, propane::model_error);
    CHECK_THROWS_AS(2 * z * (imax / 4), propane::model_error);
    CHECK_THROWS_AS(imin - (z + 1), propane::model_error);
    CHECK_THROWS_AS(imin - 3 * z, propane::model_error);
    CHECK((-(z + (imax - 10))).lo() == -imax);
    CHECK((imax - z).lo() == imax - 10);
}

TEST_CASE("min_event and max_event follow the view's direction") {
    S1 s;
    const IntVar x = s.int_var(-4, 5);
    using propane::Event;
    using propane::max_event;
    using propane::min_event;
    // Each view's least value, read after its variable's least value rises
    // and, apart, after its greatest falls: the end that moved the view's
    // min must be the event min_event names, and the same for max.
    const auto check = [&](const auto& view, const char* text) {
        CAPTURE(text);
        const auto ends = [&](auto cut) {
            s.push_level();
            CHECK(cut() != Change::failed);
            const std::pair<int, int> e{view.min(s), view.max(s)};
            s.pop_level();
            return e;
        };
        const std::pair<int, int> full{view.min(s), view.max(s)};
        const auto raised = ends([&] { return s.remove_below(x, 0); });
        const auto lowered = ends([&] { return s.remove_above(x, 0); });
        const Event on_min = raised.first != full.first ? Event::min : Event::max;
        const Event on_max = lowered.second != full.second ? Event::max : Event::min;
        CHECK((raised.first != full.first) != (lowered.first != full.first)); // one end moves the view's min
        CHECK(min_event(view) == on_min);
        CHECK(max_event(view) == on_max);
    };
    check(x, "x");
    check(x + 3, "x + 3");
    check(OffsetView(x, -2), "OffsetView x - 2");
    check(2 * x + 1, "2 * x + 1");
    check(-x, "-x");
    check(-3 * x + 4, "-3 * x + 4");
    check(7 - (x + 1), "7 - (x + 1)");
    // A view of one's own: its direction is unknown, so both ends.
    struct Own {
        IntVar v;
    };
    CHECK(min_event(Own{x}) == Event::bounds);
    CHECK(max_event(Own{x}) == Event::bounds);
}

TEST_CASE("a constant of another integral type beside a view is kept when it fits int, refused when not") {
    propane::Store<propane::BitDomain<1>> s;
    const IntVar x = s.int_var(0, 9);
    const std::size_t i = 3;
    const OffsetView up = x + i; // q[c] + c with a size_t c, as N-queens writes it
    CHECK(up.offset() == 3);
    CHECK((x - 2L).offset() == -2);
    CHECK((short{4} + x).offset() == 4);
    const AffineView scaled = std::int64_t{-3} * x;
    CHECK(scaled.scale() == -3);
    CHECK((7u - x).offset() == 7);
    CHECK((up * 2LL).scale() == 2);
    CHECK((up * 2LL).offset() == 6);
    CHECK(((2 * x) + std::uint8_t{5}).offset() == 5);
    // Cut to int, 2^32 would be 0 and 2^32 + 3 would be 3: a wrong model
    // without a word. Refused instead, naming the constant.
    const long long big = std::int64_t{1} << 32;
    CHECK_THROWS_AS(x + big, propane::model_error);
    CHECK_THROWS_WITH_AS(x * (big + 3), doctest::Contains("4294967299"), propane::model_error);
    CHECK_THROWS_AS((1 - big) - x, propane::model_error);
    CHECK_THROWS_AS(3000000000u * x, propane::model_error);
    CHECK_THROWS_AS(up + big, propane::model_error);
    CHECK_THROWS_AS(scaled - std::numeric_limits<long long>::min(), propane::model_error);
}
