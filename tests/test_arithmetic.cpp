// abs, min, max and times checked against brute force.
//
// The references share nothing with the propagators: they work on bitmasks
// of variable values in -3..3 and on each view's coefficients (view = a*t +
// b), and decide supports from the definitions:
//   abs       the values that occur in some solution (domain consistency);
//   min, max  the greatest box whose every bound has a support with the
//             other views at integers within their bounds (bounds(Z)),
//             reached by removing unsupported bounds until none is left;
//   times     no solution lost, every bound supported when the other two
//             views take real values within their bounds (bounds(R)), a
//             fixpoint, and failure once every view is fixed to values
//             whose product is wrong.
// Whole models are counted by search and by enumeration.

#include <doctest/doctest.h>

#include "support.hpp"

#include <propane/constraints/abs.hpp>
#include <propane/constraints/min_max.hpp>
#include <propane/constraints/times.hpp>
#include <propane/engine/error.hpp>
#include <propane/engine/store.hpp>
#include <propane/engine/view.hpp>
#include <propane/search/search.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "instances_search.hpp"

namespace {

using Store = propane::Store<propane::BitDomain<1>>;
using propane::AffineView;
using propane::Change;
using propane::IntVar;

// ---- configurations -----------------------------------------------------------

// Variables range over -3..3; bit t - lowest of a mask is value t.
constexpr int lowest = -3;
constexpr int span = 7;
using Mask = std::uint32_t;
constexpr Mask full = (Mask{1} << span) - 1;

bool has(Mask m, int t) { return ((m >> (t - lowest)) & 1U) != 0; }
Mask bit(int t) { return Mask{1} << (t - lowest); }

// A view a*t + b of a variable t, for the references.
struct Map {
    int a = 1;
    int b = 0;
    std::int64_t of(int t) const { return std::int64_t{a} * t + b; }
};

constexpr std::array<Map, 7> maps{{{1, 0}, {1, 2}, {-1, 0}, {-1, 1}, {2, -1}, {-2, 1}, {3, 0}}};

// A view's least and greatest value over a mask (the mask is not empty).
struct Bounds {
    std::int64_t lo = 0;
    std::int64_t hi = 0;
};
Bounds bounds(Map m, Mask d) {
    Bounds r{INT64_MAX, INT64_MIN};
    for (int t = lowest; t < lowest + span; ++t)
        if (has(d, t)) r = {std::min(r.lo, m.of(t)), std::max(r.hi, m.of(t))};
    return r;
}

// Removes from d the values t whose view value is v.
Mask without(Mask d, Map m, std::int64_t v) {
    for (int t = lowest; t < lowest + span; ++t)
        if (m.of(t) == v) d &= ~bit(t);
    return d;
}

IntVar var_with(Store& s, Mask d) {
    const IntVar x = s.int_var(lowest, lowest + span - 1);
    for (int t = lowest; t < lowest + span; ++t)
        if (!has(d, t)) CHECK(s.remove(x, t) != Change::failed);
    return x;
}

Mask mask_of(const Store& s, IntVar x) {
    Mask m = 0;
    s.domain(x).for_each([&](int t) { m |= bit(t); });
    return m;
}

AffineView view(IntVar x, Map m) { return {x, m.a, m.b}; }

std::string describe(const char* what, const std::vector<Map>& ms, const std::vector<Mask>& ds) {
    std::ostringstream o;
    o << what;
    for (std::size_t i = 0; i < ms.size(); ++i) {
        o << "  " << ms[i].a << "*x" << i << (ms[i].b < 0 ? "" : "+") << ms[i].b << " x" << i << " in {";
        for (int t = lowest; t < lowest + span; ++t)
            if (has(ds[i], t)) o << t << ' ';
        o << '}';
    }
    return o.str();
}

struct Random {
    std::mt19937 gen{20240518};
    int below(int n) { return std::uniform_int_distribution<int>(0, n - 1)(gen); }
    Mask mask() { return static_cast<Mask>(1 + below(static_cast<int>(full))); }
    Map map() { return maps[static_cast<std::size_t>(below(static_cast<int>(maps.size())))]; }
};

// ---- abs ----------------------------------------------------------------------

TEST_CASE("abs is domain consistent on every pair of small domains") {
    for (const Map mx : maps)
        for (const Map my : {Map{1, 0}, Map{2, -1}, Map{-1, 2}})
            for (Mask dx = 1; dx <= full; dx += 5)
                for (Mask dy = 1; dy <= full; dy += 5) {
                    Mask want_x = 0, want_y = 0;
                    for (int t = lowest; t < lowest + span; ++t)
                        for (int u = lowest; u < lowest + span; ++u)
                            if (has(dx, t) && has(dy, u) && my.of(u) == std::abs(mx.of(t))) {
                                want_x |= bit(t);
                                want_y |= bit(u);
                            }
                    Store s;
                    const IntVar x = var_with(s, dx), y = var_with(s, dy);
                    s.post(propane::abs(view(x, mx), view(y, my)));
                    INFO(describe("abs", {mx, my}, {dx, dy}));
                    REQUIRE(s.propagate() == (want_x != 0));
                    if (want_x == 0) continue;
                    CHECK(mask_of(s, x) == want_x);
                    CHECK(mask_of(s, y) == want_y);
                }
}

TEST_CASE("abs over one variable keeps exactly the values that satisfy it") {
    for (const Map mx : maps)
        for (const Map my : maps)
            for (Mask d = 1; d <= full; d += 2) {
                Mask want = 0;
                for (int t = lowest; t < lowest + span; ++t)
                    if (has(d, t) && my.of(t) == std::abs(mx.of(t))) want |= bit(t);
                Store s;
                const IntVar x = var_with(s, d);
                s.post(propane::abs(view(x, mx), view(x, my)));
                INFO(describe("abs, one variable", {mx, my}, {d, d}));
                REQUIRE(s.propagate() == (want != 0));
                if (want != 0) CHECK(mask_of(s, x) == want);
            }
}

TEST_CASE("abs on hand-picked domains") {
    Store s;
    const IntVar x = s.int_var(-5, 3), y = s.int_var(-2, 4);
    s.post(propane::abs(x, y));
    REQUIRE(s.propagate());
    CHECK(test_support::contents(s.domain(x)) == std::set<int>{-4, -3, -2, -1, 0, 1, 2, 3});
    CHECK(test_support::contents(s.domain(y)) == std::set<int>{0, 1, 2, 3, 4});
    CHECK(s.remove(y, 0) == Change::bounds);
    CHECK(s.remove(y, 2) == Change::domain);
    REQUIRE(s.propagate());
    CHECK(test_support::contents(s.domain(x)) == std::set<int>{-4, -3, -1, 1, 3});

    Store t;
    const IntVar a = t.int_var(-3, 3), b = t.int_var(-3, 3), c = t.int_var(-3, 3), d = t.int_var(-4, 4);
    t.post(propane::abs(a, a));
    t.post(propane::abs(b, -b));
    t.post(propane::abs(2 * d, d + 3)); // |2d| = d + 3: d = -1 or d = 3
    t.post(propane::abs(c, c + 1));     // no solution
    CHECK_FALSE(t.propagate());
    Store u;
    const IntVar a2 = u.int_var(-3, 3), b2 = u.int_var(-3, 3), d2 = u.int_var(-4, 4);
    u.post(propane::abs(a2, a2));
    u.post(propane::abs(b2, -b2));
    u.post(propane::abs(2 * d2, d2 + 3));
    REQUIRE(u.propagate());
    CHECK(test_support::contents(u.domain(a2)) == std::set<int>{0, 1, 2, 3});
    CHECK(test_support::contents(u.domain(b2)) == std::set<int>{-3, -2, -1, 0});
    CHECK(test_support::contents(u.domain(d2)) == std::set<int>{-1, 3});
}

// ---- min and max -------------------------------------------------------------

// The greatest bounds(Z)-consistent box of y == min(xs) (view 0 is y), or
// all zero if there is none. max(xs) == y is min(-xs) == -y: the caller
// negates the maps.
std::vector<Mask> min_reference(const std::vector<Map>& ms, std::vector<Mask> ds) {
    const std::size_t n = ms.size();
    const auto supported = [&](std::size_t k, std::int64_t v) {
        std::vector<Bounds> b(n);
        for (std::size_t i = 0; i < n; ++i) b[i] = bounds(ms[i], ds[i]);
        // Some value w of y is the minimum of an assignment with view k at v.
        for (std::int64_t w = b[0].lo; w <= b[0].hi; ++w) {
            if (k == 0 && w != v) continue;
            if (k > 0 && v < w) continue;
            bool others_fit = true, someone_is_w = k > 0 && v == w;
            for (std::size_t i = 1; i < n; ++i) {
                if (i == k) continue;
                others_fit = others_fit && b[i].hi >= w;
                someone_is_w = someone_is_w || (b[i].lo <= w && w <= b[i].hi);
            }
            if (others_fit && someone_is_w) return true;
        }
        return false;
    };
    for (bool changed = true; changed;) {
        changed = false;
        for (std::size_t k = 0; k < n; ++k)
            for (const bool upper : {false, true}) {
                const Bounds b = bounds(ms[k], ds[k]);
                const std::int64_t v = upper ? b.hi : b.lo;
                if (supported(k, v)) continue;
                ds[k] = without(ds[k], ms[k], v);
                if (ds[k] == 0) return std::vector<Mask>(n, 0);
                changed = true;
            }
    }
    return ds;
}

TEST_CASE("min and max reach the greatest bounds(Z)-consistent box") {
    Random rnd;
    for (int round = 0; round < 6000; ++round) {
        const bool is_max = round % 2 == 1;
        const std::size_t n = 2 + static_cast<std::size_t>(rnd.below(3)); // y and 1 to 3 xs
        std::vector<Map> ms(n), mirrored(n);
        std::vector<Mask> ds(n);
        for (std::size_t i = 0; i < n; ++i) {
            ms[i] = rnd.map();
            mirrored[i] = {-ms[i].a, -ms[i].b};
            ds[i] = rnd.mask();
        }
        const std::vector<Mask> want = min_reference(is_max ? mirrored : ms, ds);
        Store s;
        std::vector<IntVar> vars;
        for (std::size_t i = 0; i < n; ++i) vars.push_back(var_with(s, ds[i]));
        std::vector<AffineView> xs;
        for (std::size_t i = 1; i < n; ++i) xs.push_back(view(vars[i], ms[i]));
        if (is_max)
            s.post(propane::max(xs, view(vars[0], ms[0])));
        else
            s.post(propane::min(xs, view(vars[0], ms[0])));
        INFO(describe(is_max ? "y == max(xs)" : "y == min(xs)", ms, ds));
        REQUIRE(s.propagate() == (want[0] != 0));
        if (want[0] == 0) continue;
        for (std::size_t i = 0; i < n; ++i) CHECK(mask_of(s, vars[i]) == want[i]);
    }
}

TEST_CASE("min and max on hand-picked domains") {
    Store s;
    const IntVar x1 = s.int_var(1, 9), x2 = s.int_var(5, 9), y = s.int_var(-4, 3);
    s.post(propane::min(std::vector<IntVar>{x1, x2}, y));
    REQUIRE(s.propagate());
    // x2 cannot be the minimum, so x1 is, and x1 <= max(y).
    CHECK(s.domain(y).min() == 1);
    CHECK(s.domain(y).max() == 3);
    CHECK(s.domain(x1).max() == 3);
    CHECK(s.domain(x2).min() == 5);

    const IntVar a = s.int_var(-9, -1), b = s.int_var(-5, -1), m = s.int_var(-3, 0);
    s.post(propane::max(std::vector<propane::OffsetView>{a + 0, b - 2}, m)); // m == max(a, b - 2)
    REQUIRE(s.propagate());
    CHECK(s.domain(m).min() == -3);
    CHECK(s.domain(m).max() == -1);
    CHECK(s.domain(b).max() == -1);
    CHECK(s.domain(a).max() == -1);

    // One view: y == x0 on bounds.
    const IntVar z = s.int_var(-6, 6), w = s.int_var(0, 10);
    s.post(propane::max(std::vector<AffineView>{2 * z + 1}, w));
    REQUIRE(s.propagate());
    CHECK(s.domain(z).min() == 0);
    CHECK(s.domain(z).max() == 4);
    CHECK(s.domain(w).min() == 1);
    CHECK(s.domain(w).max() == 9);
}

// ---- times ------------------------------------------------------------------

// Whether value v of one factor has a real support: v * [c, d] meets [e, f].
bool factor_supported(std::int64_t v, Bounds other, Bounds product) {
    const std::int64_t p = v * other.lo, q = v * other.hi;
    return std::max(p, q) >= product.lo && std::min(p, q) <= product.hi;
}

bool product_supported(std::int64_t w, Bounds x, Bounds y) {
    const std::array<std::int64_t, 4> c{x.lo * y.lo, x.lo * y.hi, x.hi * y.lo, x.hi * y.hi};
    return *std::min_element(c.begin(), c.end()) <= w && w <= *std::max_element(c.begin(), c.end());
}

// Variables v[0..2] (some possibly the same), views ms over them: checks
// soundness, bounds(R), the fixpoint and failure once fixed.
void check_times(const std::vector<int>& var_of, const std::vector<Map>& ms, const std::vector<Mask>& ds) {
    INFO(describe("x0 * x1 == x2", ms, ds));
    const std::size_t nv = ds.size();
    Store s;
    std::vector<IntVar> vars;
    for (std::size_t i = 0; i < nv; ++i) vars.push_back(var_with(s, ds[i]));
    const auto v = [&](std::size_t k) { return view(vars[static_cast<std::size_t>(var_of[k])], ms[k]); };
    s.post(propane::times(v(0), v(1), v(2)));
    const bool ok = s.propagate();
    std::vector<Mask> got(nv, 0);
    if (ok)
        for (std::size_t i = 0; i < nv; ++i) got[i] = mask_of(s, vars[i]);

    // Every solution of the original domains survives.
    std::array<int, 3> t{};
    const std::function<void(std::size_t)> each = [&](std::size_t i) {
        if (i == nv) {
            const auto val = [&](std::size_t k) { return ms[k].of(t[static_cast<std::size_t>(var_of[k])]); };
            if (val(0) * val(1) != val(2)) return;
            for (std::size_t j = 0; j < nv; ++j) CHECK(has(got[j], t[j]));
            return;
        }
        for (t[i] = lowest; t[i] < lowest + span; ++t[i])
            if (has(ds[i], t[i])) each(i + 1);
    };
    each(0);
    if (!ok) return;

    const auto b = [&](std::size_t k) { return bounds(ms[k], got[static_cast<std::size_t>(var_of[k])]); };
    for (const bool upper : {false, true}) {
        CHECK(factor_supported(upper ? b(0).hi : b(0).lo, b(1), b(2)));
        CHECK(factor_supported(upper ? b(1).hi : b(1).lo, b(0), b(2)));
        CHECK(product_supported(upper ? b(2).hi : b(2).lo, b(0), b(1)));
    }
    if (b(0).lo == b(0).hi && b(1).lo == b(1).hi && b(2).lo == b(2).hi) CHECK(b(0).lo * b(1).lo == b(2).lo);

    // A second copy of the constraint finds nothing left to prune.
    s.post(propane::times(v(0), v(1), v(2)));
    REQUIRE(s.propagate());
    for (std::size_t i = 0; i < nv; ++i) CHECK(mask_of(s, vars[i]) == got[i]);
}

TEST_CASE("times keeps every solution, supports its bounds in the reals and is a fixpoint") {
    Random rnd;
    for (int round = 0; round < 4000; ++round) {
        const std::vector<Map> ms{rnd.map(), rnd.map(), rnd.map()};
        check_times({0, 1, 2}, ms, {rnd.mask(), rnd.mask(), rnd.mask()});
        // Shared variables: a square, x*y == x, and x*x == x.
        if (round % 4 == 0) {
            check_times({0, 0, 1}, ms, {rnd.mask(), rnd.mask()});
            check_times({0, 1, 0}, ms, {rnd.mask(), rnd.mask()});
            check_times({0, 0, 0}, ms, {rnd.mask()});
        }
    }
}

TEST_CASE("times on hand-picked domains, negative and straddling 0") {
    Store s;
    const IntVar x = s.int_var(-2, 3), y = s.int_var(-4, 5), z = s.int_var(-30, 30);
    s.post(propane::times(x, y, z));
    REQUIRE(s.propagate());
    CHECK(s.domain(z).min() == -12);
    CHECK(s.domain(z).max() == 15);

    // y in [-3, 3] and 0 not in z: |x| <= max |z| and neither factor is 0.
    const IntVar a = s.int_var(-10, 10), b = s.int_var(-3, 3), c = s.int_var(1, 2);
    s.post(propane::times(a, b, c));
    REQUIRE(s.propagate());
    CHECK(test_support::contents(s.domain(a)) == std::set<int>{-2, -1, 1, 2});
    CHECK(test_support::contents(s.domain(b)) == std::set<int>{-2, -1, 1, 2});

    // Both factors negative.
    const IntVar p = s.int_var(-6, -2), q = s.int_var(-5, -3), r = s.int_var(0, 12);
    s.post(propane::times(p, q, r));
    REQUIRE(s.propagate());
    CHECK(s.domain(p).min() == -4);
    CHECK(s.domain(p).max() == -2);
    CHECK(s.domain(q).min() == -5);
    CHECK(s.domain(q).max() == -3);
    CHECK(s.domain(r).min() == 6);
    CHECK(s.domain(r).max() == 12);

    // Fixed and wrong fails; fixed and right holds.
    Store f;
    const IntVar u = f.int_var(-3, -3), w = f.int_var(4, 4), prod = f.int_var(-12, 20);
    f.post(propane::times(-1 * u, w - 1, prod - 9)); // 3 * 3 == prod - 9
    REQUIRE(f.propagate());
    CHECK(f.domain(prod).value() == 18);
    f.post(propane::times(u, w, prod));
    CHECK_FALSE(f.propagate());
}

// ---- models, counted ---------------------------------------------------------

// Solutions of a model by search, and by enumeration of the variables'
// ranges under `holds`.
template <class Holds>
void check_count(Store& s, const std::vector<IntVar>& vars, Holds holds) {
    std::uint64_t want = 0;
    std::vector<int> t(vars.size());
    const std::function<void(std::size_t)> each = [&](std::size_t i) {
        if (i == vars.size()) {
            want += holds(t) ? 1 : 0;
            return;
        }
        for (t[i] = vars[i].lo(); t[i] <= vars[i].hi(); ++t[i]) each(i + 1);
    };
    each(0);
    const propane::SearchStats st = propane::solve(s, vars, [](const auto&) { return propane::next; });
    CHECK(want > 0); // a model without solutions would test little
    CHECK(st.solutions == want);
}

TEST_CASE("models count as many solutions as enumeration finds") {
    {
        Store s;
        auto v = s.int_vars(3, -4, 4);
        const IntVar z = s.int_var(-30, 30);
        s.post(propane::times(2 * v[0] - 1, v[1] + 1, z));
        s.post(propane::abs(v[2], v[1] - 1));
        v.push_back(z);
        check_count(s, v, [](const std::vector<int>& t) {
            return (2 * t[0] - 1) * (t[1] + 1) == t[3] && std::abs(t[2]) == t[1] - 1;
        });
    }
    {
        Store s;
        auto v = s.int_vars(4, -3, 3);
        s.post(propane::min(std::vector<AffineView>{v[0], -v[1], 2 * v[2]}, v[3]));
        s.post(propane::max(std::vector<IntVar>{v[0], v[1]}, v[2] + 1));
        check_count(s, v, [](const std::vector<int>& t) {
            return std::min({t[0], -t[1], 2 * t[2]}) == t[3] && std::max(t[0], t[1]) == t[2] + 1;
        });
    }
    {
        // Shared variables: a square, a fixpoint x*y == x, y among xs.
        Store s;
        auto v = s.int_vars(4, -4, 4);
        s.post(propane::times(v[0], v[0], v[1] + 4));
        s.post(propane::times(v[2], v[3], v[2]));
        s.post(propane::max(std::vector<IntVar>{v[1], v[3]}, v[3]));
        check_count(s, v, [](const std::vector<int>& t) {
            return t[0] * t[0] == t[1] + 4 && t[2] * t[3] == t[2] && std::max(t[1], t[3]) == t[3];
        });
    }
}

// ---- API, errors, backtracking -------------------------------------------------

TEST_CASE("every call form compiles, with mixed view types") {
    using Tuple = std::vector<int>;
    {
        Store s;
        const IntVar x = s.int_var(-3, 3), y = s.int_var(-3, 3), z = s.int_var(-9, 9);
        s.post(propane::abs(x + 1, -2 * y + 1));
        s.post(propane::times(x, y - 1, -z));
        check_count(s, {x, y, z}, [](const Tuple& t) {
            return std::abs(t[0] + 1) == -2 * t[1] + 1 && t[0] * (t[1] - 1) == -t[2];
        });
    }
    {
        Store s;
        const IntVar x = s.int_var(-3, 3), y = s.int_var(-3, 3), z = s.int_var(-9, 9);
        const std::array<propane::OffsetView, 2> offsets{x + 1, y - 1};
        s.post(propane::min(offsets, 2 * z - 1));
        s.post(propane::max(std::vector<IntVar>{x, y}, z + 2));
        check_count(s, {x, y, z}, [](const Tuple& t) {
            return std::min(t[0] + 1, t[1] - 1) == 2 * t[2] - 1 && std::max(t[0], t[1]) == t[2] + 2;
        });
    }
    // With both namespaces open, numbers still mean std's functions.
    using namespace propane;
    using namespace std;
    CHECK(min(3, 4) == 3);
    CHECK(max(3, 4) == 4);
    CHECK(abs(-3) == 3);
    {
        Store s;
        const IntVar x = s.int_var(-3, 3), y = s.int_var(-3, 3), z = s.int_var(-9, 9);
        const vector<IntVar> xs{x, y};
        s.post(min(xs, z - 1));
        s.post(max(xs, z + 1));
        check_count(s, {x, y, z},
                    [](const Tuple& t) { return min(t[0], t[1]) == t[2] - 1 && max(t[0], t[1]) == t[2] + 1; });
    }
    {
        Store s;
        const IntVar x = s.int_var(-3, 3), y = s.int_var(-3, 3), z = s.int_var(-9, 9);
        s.post(abs(x, y));
        s.post(times(x, y, z));
        check_count(s, {x, y, z}, [](const Tuple& t) { return abs(t[0]) == t[1] && t[0] * t[1] == t[2]; });
    }
}

template <class F>
std::string error_of(F&& f) {
    try {
        f();
    } catch (const propane::model_error& e) {
        return e.what();
    }
    return "no error";
}

TEST_CASE("model errors name the problem") {
    Store s, other;
    const IntVar x = s.int_var(0, 3), y = s.int_var(0, 3);
    const IntVar foreign = other.int_var(0, 3);
    const auto has_all = [](const std::string& msg, std::initializer_list<const char*> parts) {
        INFO(msg);
        for (const char* p : parts) CHECK(msg.find(p) != std::string::npos);
    };
    has_all(error_of([&] { s.post(propane::abs(x, foreign)); }), {"abs", "another store"});
    has_all(error_of([&] { s.post(propane::min(std::vector<IntVar>{x, foreign}, y)); }), {"min", "another store"});
    has_all(error_of([&] { s.post(propane::max(std::vector<IntVar>{x}, foreign + 1)); }), {"max", "another store"});
    has_all(error_of([&] { s.post(propane::times(x, y, 2 * foreign)); }), {"times", "another store"});
    has_all(error_of([&] { (void)propane::min(std::vector<IntVar>{}, y); }), {"min", "xs is empty"});
    has_all(error_of([&] { (void)propane::max(std::vector<AffineView>{}, y); }), {"max", "xs is empty"});
    has_all(error_of([&] { s.post(propane::Extremum<IntVar, IntVar, propane::Extreme::greatest>{{}, y}); }),
            {"max", "xs is empty"});
    has_all(error_of([&] { s.post(propane::abs(x, IntVar{})); }), {"abs", "default-constructed"});
}

TEST_CASE("pop_level restores what propagation removed") {
    Store s;
    const IntVar x = s.int_var(-4, 4), y = s.int_var(-4, 4), z = s.int_var(-6, 6);
    const IntVar m = s.int_var(-4, 4), w = s.int_var(-4, 4);
    s.post(propane::times(x, y, z));
    s.post(propane::abs(x, m + 1));
    s.post(propane::min(std::vector<IntVar>{x, y}, w));
    REQUIRE(s.propagate());
    const std::vector<IntVar> vars{x, y, z, m, w};
    std::vector<std::set<int>> before;
    for (const IntVar v : vars) before.push_back(test_support::contents(s.domain(v)));
    s.push_level();
    CHECK(s.assign(y, 3) == Change::fixed);
    REQUIRE(s.propagate());
    CHECK(test_support::contents(s.domain(x)) == std::set<int>{-2, -1, 0, 1, 2}); // z == 3x within [-6, 6]
    CHECK(test_support::contents(s.domain(m)) == std::set<int>{-1, 0, 1});
    s.push_level();
    CHECK(s.assign(x, -2) == Change::fixed);
    REQUIRE(s.propagate());
    CHECK(s.domain(z).value() == -6);
    CHECK(s.domain(m).value() == 1);
    CHECK(s.domain(w).value() == -2);
    s.pop_level();
    s.push_level();
    CHECK(s.assign(z, 5) == Change::fixed); // not a multiple of 3
    CHECK_FALSE(s.propagate());
    s.pop_level();
    CHECK(test_support::contents(s.domain(x)) == std::set<int>{-2, -1, 0, 1, 2});
    s.pop_level();
    for (std::size_t i = 0; i < vars.size(); ++i) CHECK(test_support::contents(s.domain(vars[i])) == before[i]);
}

} // namespace
