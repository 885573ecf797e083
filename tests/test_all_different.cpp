// AllDifferent checked against brute force.
//
// The reference shares nothing with the propagator: it works on bitmasks of
// variable values and on each view's coefficients a, b (view = a*x + b), not
// through the header's views, and decides supports by exhaustive search (the
// interval relaxation by a greedy matching, shown exact below), never by
// Hall intervals. For both strengths the
// consistent domains are unique (the greatest common fixpoint of monotone
// pruning rules, which a chaotic iteration reaches in any order), so the
// propagator's result is compared with the reference exactly: pruning too
// little fails the test as surely as losing a solution does.
//
// Each configuration is run in two ways, because the propagator learns of
// fixed views by two routes:
//   posted  domains cut at level 0, then the constraint posted on them (views
//           fixed at post come through post()'s initial pending list);
//   cut     the constraint posted once on full domains, each configuration
//           cut inside a level (views fixed by the cut come through events),
//           and the same store reused after backtracking, failures included.

#include <doctest/doctest.h>

#include "support.hpp"

#include <propane/all_different.hpp>
#include <propane/domain.hpp>
#include <propane/error.hpp>
#include <propane/store.hpp>
#include <propane/view.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

using test_support::str;

using Dom = propane::BitDomain<1>;
using Store = propane::Store<Dom>;
using propane::IntVar;

// A variable's domain as bits: bit x set <=> value x present. Variables
// range over 0..range-1 with range <= 6.
using Mask = std::uint32_t;
constexpr int max_views = 6;
using Doms = std::array<Mask, max_views>;

// One configuration: n views, view i = a[i] * x_i + b[i], x_i in dom[i].
struct Case {
    int n = 0;
    int range = 0;
    std::array<int, max_views> a{};
    std::array<int, max_views> b{};
    Doms dom{};

    int view_value(int i, int x) const { return a[i] * x + b[i]; }
};

std::string set_string(Mask m) {
    std::string s = "{";
    for (int x = 0; (m >> x) != 0; ++x)
        if ((m >> x) & 1U) {
            if (s.size() > 1) s += ',';
            s += std::to_string(x);
        }
    return s + "}";
}

std::string describe(const Case& c, const char* kind, propane::Consistency st, const char* mode) {
    std::ostringstream o;
    o << kind << ' ' << (st == propane::value ? "value" : "bounds") << ' ' << mode << ':';
    for (int i = 0; i < c.n; ++i)
        o << "  " << c.a[i] << "*x" << i << (c.b[i] < 0 ? "" : "+") << c.b[i] << ", x" << i << " in "
          << set_string(c.dom[i]);
    return o.str();
}

// ---- reference --------------------------------------------------------------

// Is there an assignment within d whose view values are pairwise distinct?
// Depth-first with early exit; the guard on max_views only tells the
// compiler the recursion is bounded.
bool satisfiable(const Case& c, const Doms& d) {
    std::array<int, max_views> v{};
    auto rec = [&](auto& self, int i) -> bool {
        if (i >= c.n || i >= max_views) return true;
        for (int x = 0; x < c.range; ++x) {
            if (!((d[i] >> x) & 1U)) continue;
            const int vx = c.view_value(i, x);
            bool clash = false;
            for (int k = 0; k < i; ++k) clash |= v[k] == vx;
            if (clash) continue;
            v[i] = vx;
            if (self(self, i + 1)) return true;
        }
        return false;
    };
    return rec(rec, 0);
}

struct Brute {
    bool feasible = false;
    Doms support{}; // values each variable takes in at least one solution
};

// A value is supported iff fixing its variable to it leaves a solution.
Brute brute_force(const Case& c) {
    Brute r;
    for (int i = 0; i < c.n; ++i)
        for (int x = 0; x < c.range; ++x) {
            if (!((c.dom[i] >> x) & 1U)) continue;
            Doms d = c.dom;
            d[i] = Mask{1} << x;
            if (satisfiable(c, d)) r.support[i] |= Mask{1} << x;
        }
    r.feasible = c.n == 0 || r.support[0] != 0;
    return r;
}

// The fixpoint of "a fixed view's value leaves every other view". False if
// a domain empties.
bool value_closure(const Case& c, Doms& d) {
    for (bool changed = true; changed;) {
        changed = false;
        for (int i = 0; i < c.n; ++i) {
            if (std::popcount(d[i]) != 1) continue;
            const int w = c.view_value(i, std::countr_zero(d[i]));
            for (int j = 0; j < c.n; ++j) {
                if (j == i) continue;
                for (int x = 0; x < c.range; ++x)
                    if (((d[j] >> x) & 1U) && c.view_value(j, x) == w) {
                        d[j] &= ~(Mask{1} << x);
                        changed = true;
                    }
                if (d[j] == 0) return false;
            }
        }
    }
    return true;
}

// Each view's smallest and largest value, and the variable values behind
// them (a negative scale swaps which end of the variable gives which).
struct ViewBounds {
    std::array<int, max_views> lo{}, hi{}, lo_x{}, hi_x{};
    ViewBounds(const Case& c, const Doms& d) {
        for (int i = 0; i < c.n; ++i) {
            lo_x[i] = hi_x[i] = -1;
            for (int x = 0; x < c.range; ++x) {
                if (!((d[i] >> x) & 1U)) continue;
                const int v = c.view_value(i, x);
                if (lo_x[i] < 0 || v < lo[i]) lo[i] = v, lo_x[i] = x;
                if (hi_x[i] < 0 || v > hi[i]) hi[i] = v, hi_x[i] = x;
            }
        }
    }
};

// Bounds(Z) support: view i takes w and every other view j takes some
// integer in [lo_j, hi_j] (holes ignored), all pairwise distinct. Decided
// by the earliest-deadline greedy: intervals by increasing hi, each taking
// the smallest free integer >= its lo. It is exact: if some matching gives
// the current interval I a point q other than the greedy's p < q, the
// interval J holding p in it (hi_J >= hi_I >= q, lo_J <= p < q) can swap
// to q, so a matching that agrees with the greedy exists at every step.
// Backtracking would be exponential on the wide intervals of 3*x.
bool relaxed_support(const Case& c, const ViewBounds& vb, int i, int w) {
    std::array<int, max_views> order{};
    int m = 0;
    for (int j = 0; j < c.n; ++j) {
        if (j == i) continue;
        int k = m++;
        for (; k > 0 && vb.hi[order[k - 1]] > vb.hi[j]; --k) order[k] = order[k - 1];
        order[k] = j;
    }
    std::array<int, max_views> used{};
    int u = 0;
    used[u++] = w;
    for (int k = 0; k < m; ++k) {
        const int j = order[k];
        int t = vb.lo[j];
        while (std::find(used.begin(), used.begin() + u, t) != used.begin() + u) ++t;
        if (t > vb.hi[j]) return false;
        used[u++] = t;
    }
    return true;
}

// The greatest domains within d that are value-consistent and whose view
// bounds all have a relaxed support. False if a domain empties.
bool bounds_closure(const Case& c, Doms& d) {
    for (;;) {
        if (!value_closure(c, d)) return false;
        bool changed = false;
        for (int i = 0; i < c.n; ++i) {
            const ViewBounds vb(c, d);
            const bool keep_lo = relaxed_support(c, vb, i, vb.lo[i]);
            const bool keep_hi = relaxed_support(c, vb, i, vb.hi[i]);
            if (!keep_lo) d[i] &= ~(Mask{1} << vb.lo_x[i]);
            if (!keep_hi) d[i] &= ~(Mask{1} << vb.hi_x[i]);
            changed |= !keep_lo || !keep_hi;
            if (d[i] == 0) return false;
        }
        if (!changed) return true;
    }
}

struct Expected {
    bool ok;
    Doms doms;
};

Expected expected(const Case& c, propane::Consistency st) {
    Expected e{true, c.dom};
    e.ok = st == propane::value ? value_closure(c, e.doms) : bounds_closure(c, e.doms);
    return e;
}

// ---- view kinds ---------------------------------------------------------------

struct Params {
    std::array<int, max_views> a{};
    std::array<int, max_views> b{};
};

struct IntVarKind {
    static constexpr const char* name = "IntVar";
    using View = IntVar;
    static View make(IntVar x, int, int) { return x; }
};
struct OffsetKind {
    static constexpr const char* name = "OffsetView";
    using View = propane::OffsetView;
    static View make(IntVar x, int, int b) { return x + b; }
};
struct AffineKind {
    static constexpr const char* name = "AffineView";
    using View = propane::AffineView;
    static View make(IntVar x, int a, int b) { return a * x + b; }
};

// Coefficient vectors for a kind: two hand-picked shapes, then seeded random
// ones so that the views of one constraint mix scales and offsets and meet
// on some values only.
template <class Kind>
std::vector<Params> params_for(int n) {
    constexpr bool scaled = std::is_same_v<Kind, AffineKind>;
    Params p;
    p.a.fill(1);
    if (std::is_same_v<Kind, IntVarKind>) return {p};
    std::vector<Params> ps;
    for (int i = 0; i < max_views; ++i) p.b[i] = i; // x_i + i, the N-queens diagonal
    if (scaled)
        for (int i = 0; i < max_views; ++i) p.a[i] = -1, p.b[i] = 0; // -x_i: every bound mirrored
    ps.push_back(p);
    if (scaled) p.a = {2, 3, -2, -1, 3, -1}; // 2x and 3y meet at 0 and 6 only
    p.b = {3, -1, 0, -2, 1, 2};
    ps.push_back(p);
    std::mt19937 rng(static_cast<unsigned>(1000 + n));
    constexpr std::array<int, 4> scales{-2, -1, 2, 3};
    while (ps.size() < 7) {
        for (int i = 0; i < max_views; ++i) {
            p.a[i] = scaled ? scales[std::uniform_int_distribution<std::size_t>(0, 3)(rng)] : 1;
            p.b[i] = std::uniform_int_distribution<int>(-4, 4)(rng);
        }
        ps.push_back(p);
    }
    return ps;
}

// ---- running the propagator ----------------------------------------------------

Mask mask_of(const Store& s, IntVar x, int range) {
    Mask m = 0;
    for (int v = 0; v < range; ++v)
        if (s.domain(x).contains(v)) m |= Mask{1} << v;
    return m;
}

// Into a reused buffer: allocation dominates the run time under ASan.
void snapshot(const Store& s, std::vector<Dom>& d) {
    d.clear();
    for (int i = 0; i < s.num_vars(); ++i) d.push_back(s.domain(i));
}

bool same_domains(const Store& s, const std::vector<Dom>& d) {
    if (static_cast<std::size_t>(s.num_vars()) != d.size()) return false;
    for (int i = 0; i < s.num_vars(); ++i)
        if (!(s.domain(i) == d[static_cast<std::size_t>(i)])) return false;
    return true;
}

// Collects failures without one doctest assertion per property per
// configuration (there are hundreds of thousands), and stops reporting
// after a dozen so that one bug does not flood the output.
struct Checker {
    int reported = 0;
    long long failures = 0;
    std::vector<Dom> before, after; // scratch

    template <class Describe>
    void expect(bool ok, const char* what, Describe&& describe) {
        if (ok) return;
        ++failures;
        if (++reported <= 12) FAIL_CHECK((std::string(what) + " -- " + describe()));
    }
};

// Runs the propagator on `s`, whose configuration's domains are in place at
// a level pushed by the caller, checks everything, and pops that level,
// which must bring back `before`.
template <class View>
void check_propagation(Store& s, const std::vector<IntVar>& xs, const std::vector<View>& views, int id,
                       const Case& c, const Brute& brute, const Expected& want, propane::Consistency st,
                       const std::vector<Dom>& before, Checker& chk, const char* kind, const char* mode) {
    auto why = [&] { return describe(c, kind, st, mode); };
    const bool ok = s.propagate();

    chk.expect(ok || !brute.feasible, "propagate() failed on a satisfiable configuration", why);
    chk.expect(ok == want.ok, "failure detection differs from the reference closure", why);
    if (ok) {
        Doms got{};
        for (int i = 0; i < c.n; ++i) got[i] = mask_of(s, xs[static_cast<std::size_t>(i)], c.range);

        bool keeps_solutions = true, exact = true;
        for (int i = 0; i < c.n; ++i) {
            keeps_solutions &= (brute.support[i] & ~got[i]) == 0;
            exact &= got[i] == want.doms[i];
        }
        chk.expect(keeps_solutions, "a solution was pruned", why);
        chk.expect(exact, "propagated domains differ from the reference closure", [&] {
            std::string s2 = why() + "  got";
            for (int i = 0; i < c.n; ++i) s2 += " " + set_string(got[i]);
            s2 += "  want";
            for (int i = 0; i < c.n; ++i) s2 += " " + set_string(want.doms[i]);
            return s2;
        });

        // The value-stage fixpoint, read through the header's views as a
        // user reads them: no fixed view's value is still possible for
        // another view.
        bool value_fix = true;
        for (std::size_t i = 0; i < views.size(); ++i) {
            if (!views[i].fixed(s)) continue;
            for (std::size_t j = 0; j < views.size(); ++j)
                if (j != i) value_fix &= !views[j].contains(s, views[i].value(s));
        }
        chk.expect(value_fix, "a fixed view's value is still in another view", why);

        const ViewBounds vb(c, got);
        bool same_bounds = true;
        for (int i = 0; i < c.n; ++i) {
            const View& vi = views[static_cast<std::size_t>(i)];
            same_bounds &= vi.min(s) == vb.lo[i] && vi.max(s) == vb.hi[i];
        }
        chk.expect(same_bounds, "the views' min/max differ from the reference mapping", why);

        if (st == propane::bounds) {
            bool supported = true;
            for (int i = 0; i < c.n; ++i)
                supported &= relaxed_support(c, vb, i, vb.lo[i]) && relaxed_support(c, vb, i, vb.hi[i]);
            chk.expect(supported, "a view bound has no support in the interval relaxation", why);
        }

        // Idempotence: nothing is left queued, and running the propagator
        // again at its own fixpoint changes nothing.
        snapshot(s, chk.after);
        const auto runs = s.propagations();
        chk.expect(s.propagate() && s.propagations() == runs && same_domains(s, chk.after),
                   "a second propagate() did something", why);
        s.schedule(id);
        chk.expect(s.propagate() && same_domains(s, chk.after),
                   "re-running the propagator at its fixpoint changed something", why);
    }
    s.pop_level();
    chk.expect(same_domains(s, before), "pop_level() did not restore the domains", why);
}

// `blank` holds just the variables, on full domains: copying it is a fresh
// store with fresh variables, at a third of the allocations of building one,
// which is most of this test's time under ASan. `views` is scratch.
template <class Kind>
void run_posted(const Store& blank, const std::vector<IntVar>& xs, std::vector<typename Kind::View>& views,
                const Case& c, const Brute& brute, const Expected& want, propane::Consistency st, Checker& chk) {
    Store s = blank;
    for (int i = 0; i < c.n; ++i) {
        Dom keep(0, c.range - 1);
        for (int v = 0; v < c.range; ++v)
            if (!((c.dom[i] >> v) & 1U)) keep.remove(v);
        s.intersect(i, keep);
    }
    views.clear();
    for (int i = 0; i < c.n; ++i) views.push_back(Kind::make(xs[static_cast<std::size_t>(i)], c.a[i], c.b[i]));
    const int id = s.post(propane::all_different(views, st));
    snapshot(s, chk.before);
    s.push_level();
    check_propagation(s, xs, views, id, c, brute, want, st, chk.before, chk, Kind::name, "posted");
}

template <class Kind>
struct Persistent {
    Store s;
    std::vector<IntVar> xs;
    std::vector<typename Kind::View> views;
    int id = -1;
    std::vector<Dom> root;

    Persistent(int n, int range, const Params& p, propane::Consistency st) {
        xs = s.int_vars(n, 0, range - 1);
        for (int i = 0; i < n; ++i) views.push_back(Kind::make(xs[static_cast<std::size_t>(i)], p.a[i], p.b[i]));
        id = s.post(propane::all_different(views, st));
        REQUIRE(s.propagate());
        snapshot(s, root);
    }

    void run(const Case& c, const Brute& brute, const Expected& want, propane::Consistency st, Checker& chk) {
        s.push_level();
        bool cut_ok = true;
        for (int i = 0; i < c.n; ++i)
            for (int v = 0; v < c.range; ++v)
                if (!((c.dom[i] >> v) & 1U)) cut_ok &= s.remove(i, v) != propane::Change::failed;
        // Every view has range >= n values spread over at least range
        // integers, so the root run pruned nothing and no cut can fail.
        chk.expect(cut_ok, "the root run pruned full domains", [&] { return describe(c, Kind::name, st, "cut"); });
        check_propagation(s, xs, views, id, c, brute, want, st, root, chk, Kind::name, "cut");
    }
};

// Checks configurations of one size, at both strengths, in both modes.
template <class Kind>
class Runner {
public:
    Runner(int n, int range, Checker& chk) : n_(n), range_(range), ps_(params_for<Kind>(n)), chk_(chk) {
        xs_ = blank_.int_vars(n, 0, range - 1);
        for (const Params& p : ps_) {
            value_.emplace_back(n, range, p, propane::value);
            bounds_.emplace_back(n, range, p, propane::bounds);
        }
    }

    // `p` picks the coefficient vector.
    void check(const Doms& dom, std::size_t p) {
        p %= ps_.size();
        Case c;
        c.n = n_;
        c.range = range_;
        c.a = ps_[p].a;
        c.b = ps_[p].b;
        c.dom = dom;
        const Brute brute = brute_force(c);
        const Expected want_value = expected(c, propane::value);
        const Expected want_bounds = expected(c, propane::bounds);
        run_posted<Kind>(blank_, xs_, views_, c, brute, want_value, propane::value, chk_);
        run_posted<Kind>(blank_, xs_, views_, c, brute, want_bounds, propane::bounds, chk_);
        value_[p].run(c, brute, want_value, propane::value, chk_);
        bounds_[p].run(c, brute, want_bounds, propane::bounds, chk_);
        ++configurations;
        infeasible += brute.feasible ? 0 : 1;
    }

    long long configurations = 0;
    long long infeasible = 0;

private:
    int n_, range_;
    std::vector<Params> ps_;
    Checker& chk_;
    Store blank_;
    std::vector<IntVar> xs_;
    std::vector<typename Kind::View> views_;
    std::vector<Persistent<Kind>> value_, bounds_;
};

// Every combination of domains from a list of shapes:
//   n = 2: all non-empty subsets of 0..4 (31 shapes);
//   n = 3: all non-empty subsets of 0..3 (15);
//   n = 4: the intervals of 0..3 and the two triples with an interior hole,
//          {0,1,3} and {0,2,3} (12), where a bound pushed onto the hole
//          jumps it and leaves two values.
// About 25,000 configurations per kind: each costs two fresh stores, and
// this size keeps the sanitizer build near ten seconds for the whole file.
std::vector<Mask> shapes_for(int n) {
    std::vector<Mask> shapes;
    if (n <= 3) {
        const Mask all = (Mask{1} << (n == 2 ? 5 : 4)) - 1;
        for (Mask m = 1; m <= all; ++m) shapes.push_back(m);
        return shapes;
    }
    for (int lo = 0; lo < 4; ++lo)
        for (int hi = lo; hi < 4; ++hi) shapes.push_back(((Mask{1} << (hi + 1)) - 1) & ~((Mask{1} << lo) - 1));
    shapes.push_back(0b1011);
    shapes.push_back(0b1101);
    return shapes;
}

template <class Kind>
void exhaustive() {
    Checker chk;
    long long configurations = 0, infeasible = 0;
    for (int n = 2; n <= 4; ++n) {
        const int range = n == 2 ? 5 : 4;
        const std::vector<Mask> shapes = shapes_for(n);
        const auto count = static_cast<long long>(shapes.size());
        Runner<Kind> run(n, range, chk);
        long long total = 1;
        for (int i = 0; i < n; ++i) total *= count;
        for (long long idx = 0; idx < total; ++idx) {
            Doms dom{};
            long long rest = idx;
            for (int i = 0; i < n; ++i, rest /= count) dom[i] = shapes[static_cast<std::size_t>(rest % count)];
            // 7 coefficient vectors, coprime with 31, 15 and 12: over the
            // enumeration each meets every domain of every view.
            run.check(dom, static_cast<std::size_t>(idx));
        }
        configurations += run.configurations;
        infeasible += run.infeasible;
    }
    MESSAGE(std::string(Kind::name) << ", n = 2..4 exhaustive: " << configurations << " configurations ("
                                    << infeasible << " infeasible) at value and at bounds, each posted and cut; "
                                    << chk.failures << " failed checks");
    CHECK(chk.failures == 0);
}

// n = 5 and 6 over 0..n-1, sampled. Five views are the fewest with which a
// bound raised onto a hole can create a new Hall interval (two views make
// the first Hall interval, the moved view and a partner the second, and a
// fifth view loses values to it), so only here does the bounds propagator
// need its second Hall pass.
template <class Kind>
void sampled() {
    Checker chk;
    std::mt19937 rng(20240601);
    long long configurations = 0, infeasible = 0;
    for (int n = 5; n <= 6; ++n) {
        const int range = n;
        Runner<Kind> run(n, range, chk);
        std::uniform_int_distribution<Mask> subset(1, (Mask{1} << range) - 1);
        std::uniform_int_distribution<int> pick(0, range - 1);
        for (int k = 0; k < 3000; ++k) {
            Doms dom{};
            for (int i = 0; i < n; ++i) {
                // Half the domains are intervals with at most one hole, the
                // shapes that make Hall intervals; half are arbitrary sets.
                if (rng() % 2 == 0) {
                    dom[i] = subset(rng);
                } else {
                    int lo = pick(rng), hi = pick(rng);
                    if (lo > hi) std::swap(lo, hi);
                    dom[i] = ((Mask{1} << (hi + 1)) - 1) & ~((Mask{1} << lo) - 1);
                    const int hole = pick(rng);
                    if (hole > lo && hole < hi && rng() % 2 == 0) dom[i] &= ~(Mask{1} << hole);
                }
            }
            run.check(dom, static_cast<std::size_t>(k));
        }
        configurations += run.configurations;
        infeasible += run.infeasible;
    }
    MESSAGE(std::string(Kind::name) << ", n = 5..6 sampled: " << configurations << " configurations ("
                                    << infeasible << " infeasible) at value and at bounds, each posted and cut; "
                                    << chk.failures << " failed checks");
    CHECK(chk.failures == 0);
}

// ---- targeted cases --------------------------------------------------------------

std::vector<Dom> domains(const Store& s) {
    std::vector<Dom> d;
    snapshot(s, d);
    return d;
}

std::vector<int> values(const Store& s, IntVar x) {
    std::vector<int> v;
    s.domain(x).for_each([&](int a) { v.push_back(a); });
    return v;
}

constexpr std::array<propane::Consistency, 2> strengths{propane::value, propane::bounds};

const char* name_of(propane::Consistency st) { return st == propane::value ? "value" : "bounds"; }

} // namespace

TEST_CASE("all_different over IntVar agrees with brute force, exhaustively over small domains") {
    exhaustive<IntVarKind>();
}
TEST_CASE("all_different over x + c agrees with brute force, exhaustively over small domains") {
    exhaustive<OffsetKind>();
}
TEST_CASE("all_different over a*x + b agrees with brute force, exhaustively over small domains") {
    exhaustive<AffineKind>();
}
TEST_CASE("all_different over IntVar agrees with brute force on sampled 5- and 6-view configurations") {
    sampled<IntVarKind>();
}
TEST_CASE("all_different over x + c agrees with brute force on sampled 5- and 6-view configurations") {
    sampled<OffsetKind>();
}
TEST_CASE("all_different over a*x + b agrees with brute force on sampled 5- and 6-view configurations") {
    sampled<AffineKind>();
}

// The SUBCASEs hold the loops over strengths, not the other way round:
// doctest expects each subcase once per run.
TEST_CASE("all_different: a variable listed twice") {
    SUBCASE("fixed, it fails at once") {
        for (const auto st : strengths) {
            CAPTURE(name_of(st));
            Store s;
            const IntVar x = s.int_var(2, 2);
            s.post(propane::all_different(std::vector{x, x}, st));
            CHECK_FALSE(s.propagate());
        }
    }

    SUBCASE("unfixed, it fails as soon as it is fixed, and the failure is undone") {
        for (const auto st : strengths) {
            CAPTURE(name_of(st));
            Store s;
            const IntVar x = s.int_var(1, 3);
            s.post(propane::all_different(std::vector{x, x}, st));
            REQUIRE(s.propagate());
            const auto root = domains(s);
            for (int v = 1; v <= 3; ++v) {
                s.push_level();
                s.assign(x.index(), v);
                CHECK_FALSE(s.propagate());
                s.pop_level();
                CHECK(domains(s) == root);
            }
        }
    }

    SUBCASE("x and x + 1 never collide, so nothing is pruned and every value survives") {
        for (const auto st : strengths) {
            CAPTURE(name_of(st));
            Store s;
            const IntVar x = s.int_var(0, 3);
            s.post(propane::all_different(std::vector{x + 0, x + 1}, st));
            REQUIRE(s.propagate());
            CHECK(values(s, x) == std::vector{0, 1, 2, 3});
            for (int v = 0; v <= 3; ++v) {
                s.push_level();
                s.assign(x.index(), v);
                CHECK(s.propagate());
                s.pop_level();
            }
        }
    }

    SUBCASE("x and -x collide only at 0") {
        for (const auto st : strengths) {
            CAPTURE(name_of(st));
            Store s;
            const IntVar x = s.int_var(-2, 2);
            s.post(propane::all_different(std::vector{1 * x, -x}, st));
            REQUIRE(s.propagate());
            for (int v = -2; v <= 2; ++v) {
                CAPTURE(v);
                s.push_level();
                s.assign(x.index(), v);
                CHECK(s.propagate() == (v != 0));
                s.pop_level();
            }
        }
    }
}

TEST_CASE("all_different: no views, one view") {
    for (const auto st : strengths) {
        CAPTURE(name_of(st));
        Store s;
        const IntVar x = s.int_var(0, 3);
        const IntVar y = s.int_var(3, 3);
        s.post(propane::all_different(std::vector<IntVar>{}, st));
        s.post(propane::all_different(std::vector{x}, st));
        s.post(propane::all_different(std::vector{y + 5}, st)); // fixed, and alone: nothing to remove it from
        CHECK(s.num_propagators() == 3);
        const auto before = domains(s);
        CHECK(s.propagate());
        CHECK(domains(s) == before);
        s.push_level();
        s.assign(x.index(), 2);
        CHECK(s.propagate());
        CHECK(values(s, y) == std::vector{3});
        s.pop_level();
        CHECK(domains(s) == before);
    }
}

TEST_CASE("all_different: views already fixed when posted") {
    SUBCASE("two equal fixed views fail the first propagation") {
        for (const auto st : strengths) {
            CAPTURE(name_of(st));
            Store s;
            const IntVar x = s.int_var(0, 5), y = s.int_var(0, 5);
            s.assign(x.index(), 4);
            s.assign(y.index(), 2);
            // 2*2 == 4: the collision exists only in view space.
            s.post(propane::all_different(std::vector{1 * x, 2 * y}, st));
            CHECK_FALSE(s.propagate());
        }
    }

    SUBCASE("distinct fixed views: their values leave the others, chains included") {
        for (const auto st : strengths) {
            CAPTURE(name_of(st));
            Store s;
            const IntVar x = s.int_var(1, 1), y = s.int_var(0, 3), z = s.int_var(1, 2);
            s.post(propane::all_different(std::vector{x, y, z}, st));
            REQUIRE(s.propagate());
            // x = 1 fixes z to 2 (its only other value), which then leaves y.
            CHECK(values(s, z) == std::vector{2});
            CHECK(values(s, y) == std::vector{0, 3});
        }
    }

    SUBCASE("all fixed and distinct: nothing changes") {
        for (const auto st : strengths) {
            CAPTURE(name_of(st));
            Store s;
            const IntVar x = s.int_var(1, 1), y = s.int_var(2, 2);
            s.post(propane::all_different(std::vector{x + 1, y - 1}, st)); // 2 and 1
            const auto before = domains(s);
            CHECK(s.propagate());
            CHECK(domains(s) == before);
        }
    }
}

TEST_CASE("all_different: Hall intervals are found at bounds strength only") {
    SUBCASE("x, y in {1,2} leave z in {1,2,3} only 3") {
        for (const auto st : strengths) {
            CAPTURE(name_of(st));
            Store s;
            const IntVar x = s.int_var(1, 2), y = s.int_var(1, 2), z = s.int_var(1, 3);
            s.post(propane::all_different(std::vector{x, y, z}, st));
            REQUIRE(s.propagate());
            CHECK(values(s, z) == (st == propane::bounds ? std::vector{3} : std::vector{1, 2, 3}));
            CHECK(values(s, x) == std::vector{1, 2});
        }
    }
    SUBCASE("the same in view space with a negative scale: -x, -y in {-2,-1} push -z down to -3") {
        Store s;
        const IntVar x = s.int_var(1, 2), y = s.int_var(1, 2), z = s.int_var(1, 3);
        s.post(propane::all_different(std::vector{-x, -y, -z}, propane::bounds));
        REQUIRE(s.propagate());
        CHECK(values(s, z) == std::vector{3});
    }
    SUBCASE("a Hall interval at the top lowers the maximum") {
        Store s;
        const IntVar x = s.int_var(4, 5), y = s.int_var(4, 5), z = s.int_var(0, 5);
        s.post(propane::all_different(std::vector{x, y, z}, propane::bounds));
        REQUIRE(s.propagate());
        CHECK(values(s, z) == std::vector{0, 1, 2, 3});
    }
    SUBCASE("a bound raised onto a hole moves past it and can make a new Hall interval") {
        // Pass 1: {x, y} fill 0..1, so z's minimum goes to 2, a hole, and z
        // becomes {3, 4}. Only then do z and u fill 3..4, which leaves w
        // just 2: a propagator that stops after one Hall pass misses it.
        Store s;
        const IntVar x = s.int_var(0, 1), y = s.int_var(0, 1);
        const IntVar z = s.int_var(0, 4), u = s.int_var(3, 4), w = s.int_var(2, 4);
        s.remove(z.index(), 2);
        s.post(propane::all_different(std::vector{x, y, z, u, w}, propane::bounds));
        REQUIRE(s.propagate());
        CHECK(values(s, z) == std::vector{3, 4});
        CHECK(values(s, w) == std::vector{2});
    }
    SUBCASE("too many views in too few values fail at bounds, not at value") {
        for (const auto st : strengths) {
            CAPTURE(name_of(st));
            Store s;
            const auto xs = s.int_vars(3, 0, 1);
            s.post(propane::all_different(xs, st));
            CHECK(s.propagate() == (st == propane::value));
        }
    }
}

TEST_CASE("all_different: a view of another store's variable is a model_error") {
    Store mine;
    const IntVar own = mine.int_var(0, 3);
    Store other;
    other.int_vars(2, 0, 3);
    const IntVar beyond = other.int_var(0, 3); // index 2: this store has only 1 variable
    const IntVar reshaped = Store{}.int_var(0, 9); // index 0, but not mine: other bounds

    for (const auto st : strengths) {
        CAPTURE(name_of(st));
        CHECK_THROWS_AS(mine.post(propane::all_different(std::vector{own, beyond}, st)), propane::model_error);
        CHECK_THROWS_AS(mine.post(propane::all_different(std::vector{beyond + 1}, st)), propane::model_error);
        CHECK_THROWS_AS(mine.post(propane::all_different(std::vector{2 * beyond - 1}, st)), propane::model_error);
        CHECK_THROWS_AS(mine.post(propane::all_different(std::vector{reshaped}, st)), propane::model_error);
        CHECK_THROWS_AS(mine.post(propane::all_different(std::vector{IntVar{}}, st)), propane::model_error);
    }
    // A refused post leaves nothing behind that could run later.
    CHECK(mine.num_propagators() == 0);
    CHECK(mine.propagate());
    CHECK(values(mine, own) == std::vector{0, 1, 2, 3});
}

// A change made in a level and undone before propagate() ran must leave no
// trace. The store queues the propagator with the tag of the view the
// change fixed, and pop_level() does not drop it: the next propagate()
// treats the view as fixed although it no longer is, and removes its
// current minimum from the other views. Fails at both strengths: y loses
// 0, and with it the solution x = 1, y = 0.
TEST_CASE("all_different: a change undone before propagation leaves no trace") {
    for (const auto st : strengths) {
        CAPTURE(name_of(st));
        Store s;
        const IntVar x = s.int_var(0, 3), y = s.int_var(0, 3);
        s.post(propane::all_different(std::vector{x, y}, st));
        REQUIRE(s.propagate());
        const auto root = domains(s);
        s.push_level();
        s.assign(x.index(), 2);
        s.pop_level();
        CHECK(s.propagate());
        CHECK(values(s, y) == std::vector{0, 1, 2, 3});
        CHECK(domains(s) == root);
    }
}
