// cumulative(starts, durations, heights, capacity) with durations, heights
// and the capacity views (cumulative_var.hpp), through the checker
// (checker.hpp).
//
// Claim checked, for views on distinct variables: exactly the fixpoint of
// the header's rules, written here from their statement one time point at
// a time over the views' values: durations and heights >= 0; a task whose
// least duration and least height are > 0 takes part, with the compulsory
// part [lst, est + dmin) at height hmin; none higher than the greatest
// capacity, the compulsory parts summed within it at every time, a start's
// least (greatest) value gone while the task, started there for dmin,
// meets a time at which the others' compulsory parts leave less than hmin
// free; the least capacity at least every hmin and the compulsory parts'
// sum at every time; a task of positive dmin no higher than cmax less the
// others' compulsory parts at any time of its own compulsory part, or 0
// (its least height may be 0); and, when no two tasks taking part fit beside each
// other (the two least hmin above the greatest capacity), the unary rules'
// fixpoint on [s, s + dmin) (unary_reference.hpp).
//
// Tasks are views 0 .. n-1 (starts), n .. 2n-1 (durations), 2n .. 3n-1
// (heights) and 3n (the capacity), every variable over -1..3: the starts
// take their kind's coefficients, the resource views their own kind's
// (so IntVar starts meet AffineView durations and so on), each duration
// held to values -1..2 and each height to -1..3, so that the pruning of
// negative values is checked too.

#include <doctest/doctest.h>

#include "bool_sweep.hpp"
#include "checker.hpp"
#include "unary_reference.hpp"

#include <propane/constraints/cumulative.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "instances_store.hpp"

namespace {

using checker::Case;
using checker::Coefs;
using checker::Doms;
using checker::Kind;
using checker::Mask;
using checker::Spec;
using checker::Store;
using checker::ViewSpec;
using checker::u;
using propane::IntVar;
using Affine = propane::AffineView;
using Offset = propane::OffsetView;

constexpr int lo = -1;
constexpr int range = 5;

// The constraint's meaning: durations and heights >= 0, and wherever the
// tasks running use anything, they use at most the capacity.
bool holds(const int* v, int n) {
    const int* d = v + n;
    const int* h = v + 2 * n;
    const int capacity = v[3 * n];
    for (int i = 0; i < n; ++i)
        if (d[i] < 0 || h[i] < 0) return false;
    for (int i = 0; i < n; ++i)
        for (int t = v[i]; t < v[i] + d[i]; ++t) {
            int used = 0;
            for (int j = 0; j < n; ++j)
                if (v[j] <= t && t < v[j] + d[j]) used += h[j];
            if (used > 0 && used > capacity) return false;
        }
    return true;
}

bool closure(const Case& c, Doms& d, int n) {
    const auto values = [&](int i) { return checker::view_values(c, d, i); };
    for (int i = n; i < 3 * n; ++i) checker::restrict_view(c, d, i, [](int w) { return w >= 0; });
    for (;;) {
        std::vector<int> est(u(n)), lst(u(n)), p(u(n)), h(u(n));
        for (int i = 0; i < 3 * n + 1; ++i)
            if (values(i).empty()) return false;
        const int cmax = values(3 * n).back();
        int from = 0, to = 0;
        for (int i = 0; i < n; ++i) {
            est[u(i)] = values(i).front();
            lst[u(i)] = values(i).back();
            p[u(i)] = values(n + i).front();
            h[u(i)] = values(2 * n + i).front();
            from = std::min(from, est[u(i)]);
            to = std::max(to, lst[u(i)] + p[u(i)]);
        }
        const auto part = [&](int i) { return p[u(i)] > 0 && h[u(i)] > 0; };
        // The least capacity the tasks taking part need; with none, any.
        int need = lo - 99;
        for (int i = 0; i < n; ++i)
            if (part(i)) {
                if (h[u(i)] > cmax) return false;
                need = std::max(need, h[u(i)]);
            }
        // The compulsory parts of the tasks other than i at t.
        const auto others = [&](int i, int t) {
            int used = 0;
            for (int j = 0; j < n; ++j)
                if (j != i && part(j) && lst[u(j)] <= t && t < est[u(j)] + p[u(j)]) used += h[u(j)];
            return used;
        };
        for (int t = from; t < to; ++t) {
            const int used = others(-1, t);
            if (used > 0 && used > cmax) return false;
            if (used > 0) need = std::max(need, used);
        }
        const auto fits_at = [&](int i, int s) {
            for (int t = s; t < s + p[u(i)]; ++t)
                if (others(i, t) + h[u(i)] > cmax) return false;
            return true;
        };
        bool moved = false;
        for (int i = 0; i < n; ++i) {
            if (part(i) && !checker::trim_bounds(c, d, i, [&](int s) { return fits_at(i, s); }, moved))
                return false;
        }
        if (need > values(3 * n).front()) {
            moved = true;
            checker::restrict_view(c, d, 3 * n, [&](int x) { return x >= need; });
        }
        // A task certain to run over [lst, est + dmin) (dmin > 0, whatever
        // its least height) shares each time there with the others'
        // compulsory parts: its height is at most what they leave of cmax.
        for (int i = 0; i < n && !moved; ++i) {
            if (p[u(i)] <= 0) continue;
            int top = -1;
            for (int t = lst[u(i)]; t < est[u(i)] + p[u(i)]; ++t) top = std::max(top, others(i, t));
            if (top < 0) continue;
            const auto hs = values(2 * n + i);
            const int most = std::max(0, cmax - top);
            if (hs.back() > most) {
                moved = true;
                checker::restrict_view(c, d, 2 * n + i, [&](int w) { return w <= most; });
            }
        }
        // No two tasks taking part fit beside each other: the unary rules
        // on [s, s + dmin), once time-tabling is done.
        Case tasks = c;
        tasks.n = 0;
        std::vector<int> lengths, heights;
        for (int i = 0; i < n; ++i)
            if (part(i)) tasks.v[u(tasks.n++)] = c.v[u(i)], lengths.push_back(p[u(i)]), heights.push_back(h[u(i)]);
        std::sort(heights.begin(), heights.end());
        if (!moved && tasks.n >= 2 && heights[0] + heights[1] > cmax) {
            const Doms was = d;
            if (!checker::unary_closure(lengths, tasks, d)) return false;
            moved = d != was;
        }
        if (!moved) return true;
    }
}

// A resource view of a kind: role 0 a duration, 1 a height, 2 the
// capacity; mixed takes var, affine, offset in turn.
ViewSpec resource_view(Kind kind, int role, int i, int var) {
    if (kind == Kind::mixed) kind = checker::mixed_at(role + i);
    switch (kind) {
    case Kind::offset: return {var, 1, role == 1 ? 0 : -1};
    case Kind::affine: return role == 0 ? ViewSpec{var, -1, 2} : role == 1 ? ViewSpec{var, 2, -1} : ViewSpec{var, -1, 3};
    default: return {var, 1, 0};
    }
}

struct Layout {
    std::vector<Coefs> coefs;
    std::vector<Mask> allowed;
};

Layout layout(Kind starts, Kind resource, int n, unsigned seed) {
    Layout out;
    out.coefs = checker::coefficients(starts, n, seed);
    for (Coefs& v : out.coefs) {
        for (int i = 0; i < n; ++i) {
            v[u(n + i)] = resource_view(resource, 0, i, n + i);
            v[u(2 * n + i)] = resource_view(resource, 1, i, 2 * n + i);
        }
        v[u(3 * n)] = resource_view(resource, 2, 0, 3 * n);
    }
    Case c;
    c.n = 3 * n + 1;
    c.lo = lo;
    c.range = range;
    c.v = out.coefs.front();
    for (int i = 0; i < c.n; ++i) {
        const int top = i < n || i == 3 * n ? 99 : i < 2 * n ? 2 : 3;
        Mask m = 0;
        for (int t = 0; t < range; ++t)
            if (c.value(i, t) <= top) m |= Mask{1} << t;
        out.allowed.push_back(m);
    }
    return out;
}

Spec spec_of(int n, Kind resource) {
    Spec spec;
    spec.name = "cumulative(" + std::to_string(n) + " starts, durations, heights, capacity of " +
                checker::name_of(resource) + ")";
    spec.claim = checker::Claim::custom;
    spec.holds = [=](const int* v) { return holds(v, n); };
    spec.closure = [=](const Case& c, Doms& d) { return closure(c, d, n); };
    spec.post = [=](Store& s, const std::vector<IntVar>& xs, const Case& c) {
        const auto with_resource = [&](const auto& starts) {
            const auto post = [&]<class V, class C>() {
                s.post(propane::cumulative(starts, checker::views<V>(xs, c, n, n), checker::views<V>(xs, c, 2 * n, n),
                                           checker::view<C>(xs, c, 3 * n)));
            };
            switch (resource) {
            case Kind::var: post.template operator()<IntVar, IntVar>(); break;
            case Kind::offset: post.template operator()<Offset, Offset>(); break;
            case Kind::affine: post.template operator()<Affine, Affine>(); break;
            case Kind::mixed: post.template operator()<Affine, Offset>(); break;
            }
        };
        checker::with_views(xs, c, 0, n, with_resource);
    };
    return spec;
}

} // namespace

TEST_CASE("cumulative(starts, durations, heights, capacity) over views: the claimed fixpoint exactly") {
    for (const Kind starts : checker::kinds)
        for (const Kind resource : checker::kinds) {
            const Spec one = spec_of(1, resource), two = spec_of(2, resource);
            const Layout l1 = layout(starts, resource, 1, 3), l2 = layout(starts, resource, 2, 5);
            const checker::Outcome single =
                checker::sampled_within(one, starts, 4, lo, range, l1.coefs, l1.allowed, 300, 3);
            const checker::Outcome pair =
                checker::sampled_within(two, starts, 7, lo, range, l2.coefs, l2.allowed, 2000, 5);
            const std::string kinds = " x starts " + checker::name_of(starts);
            checker::report(one.name + kinds + ", sampled", single);
            checker::report(two.name + kinds + ", sampled", pair);
        }
}

// Every configuration of two tasks on IntVars whose variables are held to
// the values given (bits of -1..3): the starts to 0..2, the rest as the
// resource says.
checker::Outcome every(const std::vector<int>& durations, const std::vector<int>& heights,
                       const std::vector<int>& capacity) {
    const auto mask = [](const std::vector<int>& values) {
        Mask m = 0;
        for (const int v : values) m |= Mask{1} << (v - lo);
        return m;
    };
    const Mask starts = mask({0, 1, 2}), d = mask(durations), h = mask(heights);
    const Layout l = layout(Kind::var, Kind::var, 2, 1);
    return checker::bool_sweep(spec_of(2, Kind::var), Kind::var, 7, lo, range, l.coefs,
                               {starts, starts, d, d, h, h, mask(capacity)});
}

TEST_CASE("cumulative(starts, durations, heights, capacity) over IntVars: every configuration, the claimed fixpoint") {
    checker::report("cumulative(2 starts over 0..2, durations in 1..2, heights in 1..2, capacity in 1..3), every "
                    "configuration",
                    every({1, 2}, {1, 2}, {1, 2, 3}));
    checker::report("cumulative(2 starts over 0..2, durations in {0, 2}, heights in {0, 2}, capacity in {-1, 1, 2}), "
                    "every configuration",
                    every({0, 2}, {0, 2}, {-1, 1, 2}));
    checker::report("cumulative(2 starts over 0..2, durations in {1, 3}, heights in 2..3, capacity in 2..3: no two "
                    "tasks fit beside each other), every configuration",
                    every({1, 3}, {2, 3}, {2, 3}));
}

TEST_CASE("cumulative over views: model errors name the constraint") {
    Store s;
    const std::vector<IntVar> xs = s.int_vars(3, 0, 5);
    const IntVar cap = s.int_var(0, 3);
    CHECK_THROWS_WITH_AS(propane::cumulative(xs, std::vector<IntVar>{xs[0], xs[1]}, xs, cap),
                         doctest::Contains("cumulative: 3 starts but 2 durations"), propane::model_error);
    CHECK_THROWS_WITH_AS(propane::cumulative(xs, xs, std::vector<IntVar>{xs[0]}, cap),
                         doctest::Contains("cumulative: 3 starts but 1 heights"), propane::model_error);
    Store other;
    const IntVar alien = other.int_var(0, 3);
    CHECK_THROWS_WITH_AS(s.post(propane::cumulative(xs, xs, xs, alien)), doctest::Contains("cumulative"),
                         propane::model_error);
    CHECK_THROWS_WITH_AS(s.post(propane::cumulative(xs, std::vector<IntVar>{xs[0], xs[1], alien}, xs, cap)),
                         doctest::Contains("cumulative"), propane::model_error);
}

TEST_CASE("cumulative over views: a negative capacity holds only tasks that use nothing") {
    Store s;
    const std::vector<IntVar> starts = s.int_vars(2, 0, 3);
    const std::vector<IntVar> d = s.int_vars(2, 0, 2);
    const std::vector<IntVar> h = s.int_vars(2, 0, 2);
    const IntVar cap = s.int_var(-2, 3);
    s.post(propane::cumulative(starts, d, h, cap));
    REQUIRE(s.propagate());
    CHECK(cap.min(s) == -2);
    Store t = s;
    REQUIRE(d[0].remove_below(t, 1) != propane::Change::failed);
    REQUIRE(h[0].remove_below(t, 2) != propane::Change::failed);
    REQUIRE(t.propagate());
    CHECK(cap.min(t) == 2);
    Store none = s;
    REQUIRE(cap.assign(none, -1) != propane::Change::failed);
    REQUIRE(none.propagate());
    CHECK(d[0].max(none) == 2);
}
