#ifndef PROPANE_TESTS_OPTIONAL_TASKS_HPP
#define PROPANE_TESTS_OPTIONAL_TASKS_HPP

// The checker's side of optional tasks (scheduling/presence.hpp), shared by
// test_check_unary and test_check_cumulative: n tasks as 2n views, starts
// at 0 .. n-1 and presences at n .. 2n-1, each presence a view of its kind
// whose variable is held to the two values it maps onto 0 and 1; the claim
// written again from its statement over a resource's own reference; and
// sweeps over every configuration or a sample of them.

#include "bool_sweep.hpp"
#include "checker.hpp"

#include <algorithm>
#include <functional>
#include <vector>

namespace checker::optional {

// A resource's reference over the tasks `tasks` (task tasks[k] being view
// k of c): prunes d to its claimed fixpoint, false on failure.
using TaskClosure = std::function<bool(const Case& c, Doms& d, const std::vector<int>& tasks)>;

// The values view i can take in d, as bits of {0, 1}: bit 0 for 0, bit 1
// for 1.
inline unsigned presence_values(const Case& c, int i) {
    unsigned out = 0;
    for (int t = 0; t < c.range; ++t)
        if ((c.mask(i) >> t) & 1U) out |= 1U << c.value(i, t);
    return out;
}

// The claim of presence.hpp: the present tasks by the resource's rules on
// the store's domains; each open task that takes part made absent when the
// rules fail on the present tasks' bounds and its own, holes ignored (a
// case of intervals, one view per task).
inline bool closure(const Case& c, Doms& d, int n, const TaskClosure& rules,
                    const std::function<bool(int)>& takes_part) {
    Case now = c;
    now.dom = d;
    std::vector<int> present, open;
    for (int i = 0; i < n; ++i) {
        if (!takes_part(i)) continue;
        const unsigned p = presence_values(now, n + i);
        if (p == 2U) present.push_back(i);
        if (p == 3U) open.push_back(i);
    }
    Case sub = c;
    sub.n = static_cast<int>(present.size());
    for (int k = 0; k < sub.n; ++k) sub.v[u(k)] = c.v[u(present[u(k)])];
    if (!rules(sub, d, present)) return false;
    for (const int o : open) {
        std::vector<int> tasks = present;
        tasks.push_back(o);
        std::vector<int> lo, hi;
        for (const int i : tasks) {
            int a = 0, b = 0;
            bool any = false;
            for (int t = 0; t < c.range; ++t)
                if ((d[u(c.v[u(i)].var)] >> t) & 1U) {
                    const int w = c.value(i, t);
                    a = any ? std::min(a, w) : w;
                    b = any ? std::max(b, w) : w;
                    any = true;
                }
            lo.push_back(a);
            hi.push_back(b);
        }
        Case iv;
        iv.kind = Kind::var;
        iv.n = iv.nvars = static_cast<int>(tasks.size());
        iv.lo = *std::min_element(lo.begin(), lo.end());
        iv.range = *std::max_element(hi.begin(), hi.end()) - iv.lo + 1;
        REQUIRE(iv.range <= 31);
        for (int k = 0; k < iv.n; ++k) {
            iv.v[u(k)] = {k, 1, 0};
            iv.dom[u(k)] = ((Mask{2} << (hi[u(k)] - iv.lo)) - 1) & ~((Mask{1} << (lo[u(k)] - iv.lo)) - 1);
        }
        Doms trial = iv.dom;
        if (rules(iv, trial, tasks)) continue;
        Mask& m = d[u(c.v[u(n + o)].var)];
        for (int t = 0; t < c.range; ++t)
            if (c.value(n + o, t) == 1) m &= ~(Mask{1} << t);
    }
    return true;
}

// Presence view i (of n tasks) for a kind: IntVar over 0..1 itself, an
// offset x - (lo + 2), or 1 - x read as -x + lo + 2 (mixed: the two in
// turn). lo must be <= 0 for IntVar's.
inline ViewSpec presence_view(Kind kind, int n, int i, int lo) {
    const int var = n + i;
    switch (kind) {
    case Kind::var: return {var, 1, 0};
    case Kind::offset: return {var, 1, -(lo + 2)};
    case Kind::affine: return {var, -1, lo + 2};
    case Kind::mixed: return i % 2 == 0 ? ViewSpec{var, -1, lo + 2} : ViewSpec{var, 1, -(lo + 2)};
    }
    return {};
}

struct Layout {
    std::vector<Coefs> coefs;
    std::vector<Mask> allowed;
};

// The kind's coefficient vectors for the starts, presences added; every
// start variable free, every presence variable held to its two values.
inline Layout layout(Kind kind, int n, int lo, int range, unsigned seed) {
    Layout out;
    out.coefs = coefficients(kind, n, seed);
    for (Coefs& v : out.coefs)
        for (int i = 0; i < n; ++i) v[u(n + i)] = presence_view(kind, n, i, lo);
    const Case c = [&] {
        Case x;
        x.n = 2 * n;
        x.lo = lo;
        x.range = range;
        x.v = out.coefs.front();
        return x;
    }();
    for (int i = 0; i < n; ++i) out.allowed.push_back((Mask{1} << range) - 1);
    for (int i = 0; i < n; ++i) {
        Mask m = 0;
        for (int t = 0; t < range; ++t)
            if (const int w = c.value(n + i, t); w == 0 || w == 1) m |= Mask{1} << t;
        out.allowed.push_back(m);
    }
    return out;
}

// Every configuration (bool_sweep.hpp).
inline Outcome sweep(const Spec& spec, Kind kind, int n, int lo, int range, unsigned seed = 1) {
    const Layout l = layout(kind, n, lo, range, seed);
    return bool_sweep(spec, kind, 2 * n, lo, range, l.coefs, l.allowed);
}

// `samples` random configurations, in both modes, each within the allowed
// values.
inline Outcome sampled(const Spec& spec, Kind kind, int n, int lo, int range, long long samples, unsigned seed,
                       bool quiet = false) {
    const Layout l = layout(kind, n, lo, range, seed);
    return sampled_within(spec, kind, 2 * n, lo, range, l.coefs, l.allowed, samples, seed, quiet);
}

// The views a poster passes: starts, then presences, of the kind's type.
template <class Post>
void post_by_kind(const std::vector<IntVar>& xs, const Case& c, int n, Post&& post) {
    switch (c.kind) {
    case Kind::var: post(views<IntVar>(xs, c, 0, n), views<IntVar>(xs, c, n, n)); break;
    case Kind::offset: post(views<propane::OffsetView>(xs, c, 0, n), views<propane::OffsetView>(xs, c, n, n)); break;
    case Kind::affine:
    case Kind::mixed: post(views<propane::AffineView>(xs, c, 0, n), views<propane::AffineView>(xs, c, n, n)); break;
    }
}

} // namespace checker::optional

#endif
