#ifndef PROPANE_TESTS_CHECKER_HPP
#define PROPANE_TESTS_CHECKER_HPP

// The propagator checker, for any constraint over a few views: every small
// domain configuration (or a sample of them), propagated in a fresh store
// and in a reused one, compared with a reference computed by brute force.
//
// The reference shares nothing with the propagators. It works on bitmasks
// of variable values and on each view's coefficients (view = a*x + b), not
// through the header's views, and a constraint is known to it only as a
// predicate over view values (plus, for bounds(R), a test of real support):
//   domain     the values that occur in some solution (one enumeration of
//              every assignment gives the supports of all values at once);
//   bounds(Z)  the greatest box within the domains whose every view min and
//              max has a support with the other views taking any integer
//              between their min and max (holes ignored), found by removing
//              an unsupported bound value until none is left: support only
//              shrinks with the box, so this chaotic iteration reaches the
//              greatest fixpoint in any order;
//   bounds(R)  the same with the other views taking real values, decided by
//              a support function the constraint's test supplies;
//   custom     a closure the test supplies (linear's ne rule).
// A constraint claiming one of these is compared with it exactly: pruning
// too little fails as surely as losing a solution. A constraint claiming
// "at least bounds(R)" must keep every solution and leave bounds that all
// have a real support in the box it leaves, which puts its box inside the
// greatest one; it may prune more.
//
// Whatever the claim, every run is also checked for: no solution lost;
// failure only without solutions; with every view fixed, failure exactly
// when the constraint is violated, and no success that leaves a violating
// assignment; a fixpoint (a second propagate() runs nothing, and re-running
// each of the constraint's propagators changes nothing); pop_level()
// restoring the domains exactly.
//
// Modes, as in test_all_different: "posted" cuts a configuration at level
// 0 of a fresh store and then posts the constraint; "cut" posts it once on
// full domains and cuts each configuration inside a level of the same
// store, which is reused after every pop, failures included. Random walks
// push, cut, propagate, pop and copy one store in random order, each
// propagation compared with the reference for the domains it started from.
//
// When views share a variable the bounds references no longer describe the
// propagators, which treat views as independent; a separate sweep checks
// only what still holds there (soundness, the fixed-assignment rule,
// fixpoints), and domain consistency over the variables for constraints
// that promise it even then.
//
// The checker is compiled once per test file: constraints reach it through
// std::function (a predicate, a poster), so it is not instantiated per
// constraint or per view type; only the posters are.

#include <doctest/doctest.h>

#include <propane/constraints/rel.hpp>
#include <propane/engine/domain.hpp>
#include <propane/engine/store.hpp>
#include <propane/engine/view.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace checker {

using Dom = propane::BitDomain<1>;
using Store = propane::Store<Dom>;
using propane::IntVar;

// A variable's domain as bits: bit t set <=> the value lo + t is present.
using Mask = std::uint32_t;
constexpr int max_views = 5;
constexpr int max_range = 8;
using Doms = std::array<Mask, max_views>; // by variable

inline std::size_t u(int i) { return static_cast<std::size_t>(i); }

// Which C++ view types a poster uses. `mixed` gives scalar positions the
// types var, affine, offset in turn (position % 3), and vector constraints
// a std::vector<AffineView> built from views of all three kinds.
enum class Kind : std::uint8_t { var, offset, affine, mixed };
constexpr std::array<Kind, 4> kinds{Kind::var, Kind::offset, Kind::affine, Kind::mixed};

inline std::string name_of(Kind k) {
    switch (k) {
    case Kind::var: return "IntVar";
    case Kind::offset: return "OffsetView";
    case Kind::affine: return "AffineView";
    case Kind::mixed: return "mixed";
    }
    return "?";
}

// What a mixed configuration puts at a scalar position.
inline Kind mixed_at(int position) {
    constexpr std::array<Kind, 3> cycle{Kind::var, Kind::affine, Kind::offset};
    return cycle[u(position % 3)];
}

constexpr std::array<int, 4> affine_scales{-2, -1, 2, 3};

struct ViewSpec { // a * x_var + b
    int var = 0, a = 1, b = 0;
};
using Coefs = std::array<ViewSpec, max_views>;

// One configuration: n views of nvars variables, each variable over a
// subset of lo .. lo + range - 1.
struct Case {
    Kind kind = Kind::var;
    int n = 0;
    int nvars = 0;
    int lo = 0;
    int range = 0;
    Coefs v{};
    Doms dom{};

    int value(int i, int t) const { return v[u(i)].a * (lo + t) + v[u(i)].b; }
    Mask mask(int i) const { return dom[u(v[u(i)].var)]; }
    bool distinct() const {
        for (int i = 0; i < n; ++i)
            if (v[u(i)].var != i) return false;
        return nvars == n;
    }
};

// The least and greatest value of each view, and the variable values
// (bits) behind them: a negative scale swaps which end gives which.
struct Box {
    std::array<int, max_views> lo{}, hi{}, lo_t{}, hi_t{};
};

inline Box box_of(const Case& c, const Doms& d) {
    Box b;
    for (int i = 0; i < c.n; ++i) {
        bool first = true;
        const Mask m = d[u(c.v[u(i)].var)];
        for (int t = 0; t < c.range; ++t) {
            if (!((m >> t) & 1U)) continue;
            const int w = c.value(i, t);
            if (first || w < b.lo[u(i)]) b.lo[u(i)] = w, b.lo_t[u(i)] = t;
            if (first || w > b.hi[u(i)]) b.hi[u(i)] = w, b.hi_t[u(i)] = t;
            first = false;
        }
    }
    return b;
}

// ---- what a test supplies ----------------------------------------------------

enum class Claim : std::uint8_t { domain, bounds_z, bounds_r, at_least_bounds_r, custom, sound };

inline std::string name_of(Claim c) {
    switch (c) {
    case Claim::domain: return "domain";
    case Claim::bounds_z: return "bounds(Z)";
    case Claim::bounds_r: return "bounds(R)";
    case Claim::at_least_bounds_r: return "at least bounds(R)";
    case Claim::custom: return "custom";
    case Claim::sound: return "sound";
    }
    return "?";
}

using Holds = std::function<bool(const int* values)>;
// Whether view i taking w has a support with every other view j taking a
// real value in [box.lo[j], box.hi[j]].
using RealSupport = std::function<bool(int i, int w, const Box& box)>;
// Prunes d (by variable) to the claimed result; false when it fails.
using Closure = std::function<bool(const Case& c, Doms& d)>;
using Post = std::function<void(Store& s, const std::vector<IntVar>& xs, const Case& c)>;

struct Spec {
    std::string name;
    Claim claim = Claim::domain;
    bool exact_when_shared = false; // a domain claim that holds over shared variables too
    Holds holds;
    RealSupport real_support;
    Closure closure;
    Post post;

    Claim claim_for(const Case& c) const {
        if (c.distinct()) return claim;
        return exact_when_shared && claim == Claim::domain ? Claim::domain : Claim::sound;
    }
};

// a r b, written again rather than taken from rel.hpp: the references
// share nothing with what they check.
inline bool compare(propane::Rel r, std::int64_t a, std::int64_t b) {
    switch (r) {
    case propane::Rel::eq: return a == b;
    case propane::Rel::ne: return a != b;
    case propane::Rel::lt: return a < b;
    case propane::Rel::le: return a <= b;
    case propane::Rel::gt: return a > b;
    case propane::Rel::ge: return a >= b;
    }
    return false;
}

// ---- building the views a poster passes ------------------------------------------

// View i of c as type V; c's coefficients must fit V (the generators below
// make them fit the kind).
template <class V>
V view(const std::vector<IntVar>& xs, const Case& c, int i) {
    const ViewSpec& s = c.v[u(i)];
    const IntVar x = xs[u(s.var)];
    if constexpr (std::is_same_v<V, IntVar>) {
        if (s.a != 1 || s.b != 0) FAIL("an IntVar position with coefficients " << s.a << ", " << s.b);
        return x;
    } else if constexpr (std::is_same_v<V, propane::OffsetView>) {
        if (s.a != 1) FAIL("an OffsetView position with scale " << s.a);
        return x + s.b;
    } else {
        return s.a * x + s.b;
    }
}

// Views first .. first + count - 1. For AffineView each element is built
// as the simplest kind that holds it and converted, as a user's
// std::vector<AffineView>{x, y + 1, 2 * z} is.
template <class V>
std::vector<V> views(const std::vector<IntVar>& xs, const Case& c, int first, int count) {
    std::vector<V> out;
    for (int i = first; i < first + count; ++i) {
        const ViewSpec& s = c.v[u(i)];
        if constexpr (std::is_same_v<V, propane::AffineView>) {
            const IntVar x = xs[u(s.var)];
            if (s.a == 1 && s.b == 0)
                out.push_back(x);
            else if (s.a == 1)
                out.push_back(x + s.b);
            else
                out.push_back(s.a * x + s.b);
        } else {
            out.push_back(view<V>(xs, c, i));
        }
    }
    return out;
}

// Coefficient vectors for n views of one kind (view i on variable i):
// seven per kind, one for IntVar.
//   offset: the diagonal x_i + i, a hand-picked mix, random offsets;
//   affine: each scale of affine_scales for every view (so the views share
//           a lattice and meet often), a hand-picked mix of scales, random
//           mixes;
//   mixed:  position kinds var, affine, offset in turn, random coefficients.
inline std::vector<Coefs> coefficients(Kind kind, int n, unsigned seed) {
    std::mt19937 rng(seed + 31U * static_cast<unsigned>(n));
    auto offset = [&] { return std::uniform_int_distribution<int>(-3, 3)(rng); };
    auto scale = [&] { return affine_scales[std::uniform_int_distribution<std::size_t>(0, 3)(rng)]; };
    Coefs p{};
    for (int i = 0; i < max_views; ++i) p[u(i)].var = i;
    std::vector<Coefs> out;
    switch (kind) {
    case Kind::var: out.push_back(p); break;
    case Kind::offset:
        for (int i = 0; i < max_views; ++i) p[u(i)].b = i;
        out.push_back(p);
        for (int i = 0; i < max_views; ++i) p[u(i)].b = std::array{2, -1, 0, -3, 1}[u(i)];
        out.push_back(p);
        while (out.size() < 7) {
            for (int i = 0; i < max_views; ++i) p[u(i)].b = offset();
            out.push_back(p);
        }
        break;
    case Kind::affine:
        for (const int a : affine_scales) {
            for (int i = 0; i < max_views; ++i) p[u(i)].a = a, p[u(i)].b = a * std::array{0, 1, -1, 0, 1}[u(i)];
            out.push_back(p);
        }
        for (int i = 0; i < max_views; ++i)
            p[u(i)].a = std::array{2, -1, 3, -2, -1}[u(i)], p[u(i)].b = std::array{1, 0, -2, 3, 2}[u(i)];
        out.push_back(p);
        while (out.size() < 7) {
            for (int i = 0; i < max_views; ++i) p[u(i)].a = scale(), p[u(i)].b = offset();
            out.push_back(p);
        }
        break;
    case Kind::mixed:
        while (out.size() < 7) {
            for (int i = 0; i < max_views; ++i) {
                const Kind k = mixed_at(i);
                p[u(i)].a = k == Kind::affine ? scale() : 1;
                p[u(i)].b = k == Kind::var ? 0 : offset();
            }
            out.push_back(p);
        }
        break;
    }
    return out;
}

// ---- the reference -------------------------------------------------------------

struct Brute {
    bool feasible = false;
    Doms support{}; // by variable: the values taken in at least one solution
};

// Every assignment of the variables, an odometer over their domains.
inline Brute brute_force(const Spec& spec, const Case& c) {
    Brute r;
    std::array<int, max_views> t{};
    for (int k = 0; k < c.nvars; ++k) {
        if (c.dom[u(k)] == 0) return r;
        t[u(k)] = std::countr_zero(c.dom[u(k)]);
    }
    std::array<int, max_views> vals{};
    for (;;) {
        for (int i = 0; i < c.n; ++i) vals[u(i)] = c.value(i, t[u(c.v[u(i)].var)]);
        if (spec.holds(vals.data())) {
            r.feasible = true;
            for (int k = 0; k < c.nvars; ++k) r.support[u(k)] |= Mask{1} << t[u(k)];
        }
        int k = c.nvars - 1;
        for (; k >= 0; --k) {
            const Mask above = c.dom[u(k)] & ~((Mask{2} << t[u(k)]) - 1);
            if (above != 0) {
                t[u(k)] = std::countr_zero(above);
                break;
            }
            t[u(k)] = std::countr_zero(c.dom[u(k)]);
        }
        if (k < 0) return r;
    }
}

// Whether view i taking w has a support with the other views taking any
// integers within the box (an odometer over the integers, holes ignored).
inline bool integer_support(const Spec& spec, const Case& c, const Box& b, int i, int w) {
    std::array<int, max_views> vals{};
    for (int j = 0; j < c.n; ++j) vals[u(j)] = j == i ? w : b.lo[u(j)];
    for (;;) {
        if (spec.holds(vals.data())) return true;
        int j = c.n - 1;
        for (; j >= 0; --j) {
            if (j == i) continue;
            if (vals[u(j)] < b.hi[u(j)]) {
                ++vals[u(j)];
                break;
            }
            vals[u(j)] = b.lo[u(j)];
        }
        if (j < 0) return false;
    }
}

// The greatest box within d whose view bounds are all supported; views on
// distinct variables only. False when a domain empties.
template <class Supported>
bool bounds_closure(const Case& c, Doms& d, Supported&& supported) {
    for (;;) {
        bool changed = false;
        for (int i = 0; i < c.n; ++i) {
            const Box b = box_of(c, d);
            const bool keep_lo = supported(b, i, b.lo[u(i)]);
            const bool keep_hi = supported(b, i, b.hi[u(i)]);
            if (!keep_lo) d[u(i)] &= ~(Mask{1} << b.lo_t[u(i)]);
            if (!keep_hi) d[u(i)] &= ~(Mask{1} << b.hi_t[u(i)]);
            changed |= !keep_lo || !keep_hi;
            if (d[u(i)] == 0) return false;
        }
        if (!changed) return true;
    }
}

struct Expected {
    bool ok = true;
    Doms doms{};
};

inline Expected expected(const Spec& spec, const Case& c, const Brute& brute) {
    Expected e{true, c.dom};
    switch (spec.claim_for(c)) {
    case Claim::domain: return {brute.feasible, brute.support};
    case Claim::bounds_z:
        e.ok = bounds_closure(c, e.doms, [&](const Box& b, int i, int w) { return integer_support(spec, c, b, i, w); });
        break;
    case Claim::bounds_r:
    case Claim::at_least_bounds_r:
        e.ok = bounds_closure(c, e.doms, [&](const Box& b, int i, int w) { return spec.real_support(i, w, b); });
        break;
    case Claim::custom: e.ok = spec.closure(c, e.doms); break;
    case Claim::sound: break;
    }
    return e;
}

// Every solution lies in the closure, the closure in the domains, and the
// closure fails only without solutions: checked per configuration, it
// guards the reference against a slip the propagator happens to share.
inline bool reference_sound(const Case& c, const Brute& brute, const Expected& e) {
    if (!e.ok) return !brute.feasible;
    for (int k = 0; k < c.nvars; ++k)
        if ((brute.support[u(k)] & ~e.doms[u(k)]) != 0 || (e.doms[u(k)] & ~c.dom[u(k)]) != 0) return false;
    return true;
}

// ---- reporting ---------------------------------------------------------------------

inline std::string set_string(Mask m, int lo) {
    std::string s = "{";
    for (int t = 0; (m >> t) != 0; ++t)
        if ((m >> t) & 1U) {
            if (s.size() > 1) s += ',';
            s += std::to_string(lo + t);
        }
    return s + "}";
}

inline std::string describe(const Spec& spec, const Case& c, const char* mode) {
    std::ostringstream o;
    o << spec.name << " [" << name_of(c.kind) << ", " << mode << "]: views";
    for (int i = 0; i < c.n; ++i) {
        const ViewSpec& s = c.v[u(i)];
        o << (i ? ", " : " ") << s.a << "*x" << s.var << (s.b < 0 ? "" : "+") << s.b;
    }
    o << ";";
    for (int k = 0; k < c.nvars; ++k) o << " x" << k << " in " << set_string(c.dom[u(k)], c.lo);
    return o.str();
}

// Collects failures without one doctest assertion per property per
// configuration, and stops reporting after a dozen so that one bug does
// not flood the output. A quiet checker only counts: the self-tests run
// broken propagators through it and expect it to find them.
struct Checker {
    int reported = 0;
    long long failures = 0;
    int limit = 12;
    bool quiet = false;
    std::string first; // the first failure, for the self-tests' messages

    template <class Describe>
    void expect(bool ok, const char* what, Describe&& describe) {
        if (ok) return;
        ++failures;
        if (first.empty()) first = std::string(what) + " -- " + describe();
        if (!quiet && ++reported <= limit) FAIL_CHECK((std::string(what) + " -- " + describe()));
    }
};

struct Tally {
    long long configurations = 0; // checked, by either mode
    long long posted = 0;         // fresh stores
    long long cut = 0;            // cuts in a reused store
    long long emptied = 0;        // cuts skipped: the root propagation had removed all of a domain
    long long infeasible = 0;     // no solution
    long long failed = 0;         // propagate() failed
    long long pruned = 0;         // propagate() succeeded and removed something
    long long beyond = 0;         // at least bounds(R): removed more than bounds(R) does
    long long walks = 0;          // random walks, whose propagations are the configurations

    Tally& operator+=(const Tally& o) {
        configurations += o.configurations, posted += o.posted, cut += o.cut, emptied += o.emptied;
        infeasible += o.infeasible, failed += o.failed, pruned += o.pruned, beyond += o.beyond, walks += o.walks;
        return *this;
    }

    std::string str() const {
        std::ostringstream o;
        if (walks)
            o << walks << " walks, " << configurations << " propagations (";
        else
            o << configurations << " configurations (" << posted << " posted, " << cut << " cut in reused stores";
        if (emptied) o << ", " << emptied << " cuts left out as the root had emptied them";
        o << (walks ? "" : "; ") << infeasible << " without solution): propagation failed on " << failed
          << ", pruned " << pruned;
        if (beyond) o << " (" << beyond << " beyond bounds(R))";
        return o.str();
    }
};

// ---- running a propagation -------------------------------------------------------

inline Mask mask_of(const Store& s, IntVar x, int lo, int range) {
    Mask m = 0;
    for (int t = 0; t < range; ++t)
        if (s.domain(x).contains(lo + t)) m |= Mask{1} << t;
    return m;
}

inline void snapshot(const Store& s, std::vector<Dom>& d) {
    d.clear();
    for (int i = 0; i < s.num_vars(); ++i) d.push_back(s.domain(i));
}

inline bool same_domains(const Store& s, const std::vector<Dom>& d) {
    if (u(s.num_vars()) != d.size()) return false;
    for (int i = 0; i < s.num_vars(); ++i)
        if (!(s.domain(i) == d[u(i)])) return false;
    return true;
}

inline bool all_fixed(const Case& c, const Doms& d) {
    for (int k = 0; k < c.nvars; ++k)
        if (std::popcount(d[u(k)]) != 1) return false;
    return true;
}

inline bool holds_fixed(const Spec& spec, const Case& c, const Doms& d) {
    std::array<int, max_views> vals{};
    for (int i = 0; i < c.n; ++i) vals[u(i)] = c.value(i, std::countr_zero(d[u(c.v[u(i)].var)]));
    return spec.holds(vals.data());
}

// The propagators a post added: [first, last).
struct Props {
    int first = 0, last = 0;
};

inline Props post_counted(const Spec& spec, Store& s, const std::vector<IntVar>& xs, const Case& c) {
    Props p{s.num_propagators(), 0};
    spec.post(s, xs, c);
    p.last = s.num_propagators();
    return p;
}

// Runs propagate() on s, whose domains are c's, and checks everything but
// backtracking. Returns what propagate() returned.
template <class Why>
bool check_run(Store& s, const std::vector<IntVar>& xs, Props props, const Spec& spec, const Case& c,
               const Brute& brute, const Expected& want, Checker& chk, Tally& tally, std::vector<Dom>& scratch,
               Why&& why) {
    const bool ok = s.propagate();
    const Claim claim = spec.claim_for(c);
    const bool exact = claim != Claim::at_least_bounds_r && claim != Claim::sound;

    ++tally.configurations;
    tally.infeasible += brute.feasible ? 0 : 1;
    tally.failed += ok ? 0 : 1;

    chk.expect(ok || !brute.feasible, "propagate() failed on a satisfiable configuration", why);
    if (all_fixed(c, c.dom))
        chk.expect(ok == holds_fixed(spec, c, c.dom), "with every view fixed, propagate() must fail iff violated", why);
    if (exact) chk.expect(ok == want.ok, "propagate() failed or not, unlike the reference", why);
    if (claim == Claim::at_least_bounds_r)
        chk.expect(want.ok || !ok, "propagate() succeeded where the bounds(R) closure is empty", why);
    if (!ok) return false;

    Doms got{};
    for (int k = 0; k < c.nvars; ++k) got[u(k)] = mask_of(s, xs[u(k)], c.lo, c.range);
    bool keeps = true, within = true, same = true, inside = true;
    for (int k = 0; k < c.nvars; ++k) {
        keeps &= (brute.support[u(k)] & ~got[u(k)]) == 0;
        within &= (got[u(k)] & ~c.dom[u(k)]) == 0;
        same &= got[u(k)] == want.doms[u(k)];
        inside &= (got[u(k)] & ~want.doms[u(k)]) == 0;
    }
    tally.pruned += got == c.dom ? 0 : 1;
    auto detail = [&] {
        std::string m = why() + "  got";
        // Appended piece by piece: g++ 12 warns (-Wrestrict, wrongly) on
        // " " + std::string here.
        for (int k = 0; k < c.nvars; ++k) m.append(" ").append(set_string(got[u(k)], c.lo));
        if (claim != Claim::sound) {
            m.append("  want (").append(name_of(claim)).append(")");
            for (int k = 0; k < c.nvars; ++k) m.append(" ").append(set_string(want.doms[u(k)], c.lo));
        }
        return m;
    };
    chk.expect(keeps, "a solution was pruned", detail);
    chk.expect(within, "propagation added a value", detail);
    if (exact) chk.expect(same, "the domains differ from the claimed strength's closure", detail);
    if (claim == Claim::at_least_bounds_r) {
        const Box b = box_of(c, got);
        bool supported = true;
        for (int i = 0; i < c.n; ++i)
            supported &= spec.real_support(i, b.lo[u(i)], b) && spec.real_support(i, b.hi[u(i)], b);
        chk.expect(supported, "a view bound has no real support within the box left (weaker than bounds(R))",
                   detail);
        chk.expect(inside, "the box left is outside the bounds(R) closure", detail);
        tally.beyond += !same && inside ? 1 : 0;
    }
    if (all_fixed(c, got))
        chk.expect(holds_fixed(spec, c, got), "propagate() succeeded on an assignment that violates the constraint",
                   detail);

    // A fixpoint of every propagator, not only by the store's account: a
    // propagator that said "fix" before it was one leaves the store short.
    snapshot(s, scratch);
    const auto runs = s.propagations();
    chk.expect(s.propagate() && s.propagations() == runs && same_domains(s, scratch),
               "a second propagate() did something", why);
    for (int p = props.first; p < props.last; ++p) s.schedule(p);
    chk.expect(s.propagate() && same_domains(s, scratch), "re-running the propagators at the fixpoint changed something",
               why);
    return true;
}

// Cuts x to the variable values in m through the checked store update.
inline propane::Change cut_to(Store& s, IntVar x, int lo, int range, Mask m) {
    Dom keep(lo, lo + range - 1);
    for (int t = 0; t < range; ++t)
        if (!((m >> t) & 1U)) (void)keep.remove(lo + t);
    return s.intersect(x, keep);
}

// ---- sweeps over configurations ----------------------------------------------------

struct Options {
    int n = 2;             // views, view i on variable i
    int lo = -2;           // variables over lo .. lo + range - 1
    int range = 5;
    long long samples = 0; // 0: every combination of non-empty subsets
    int posted_every = 1;  // a fresh store for every k-th configuration; all are cut
    unsigned seed = 1;
};

struct Outcome {
    Tally tally;
    Checker chk;

    Outcome& operator+=(const Outcome& o) {
        tally += o.tally;
        chk.failures += o.chk.failures;
        if (chk.first.empty()) chk.first = o.chk.first;
        return *this;
    }
};

// One store posted once on full domains (its root propagated) and reused
// for every configuration of its coefficient vector.
struct Reused {
    Store s;
    std::vector<IntVar> xs;
    Props props;
    bool root_ok = true;
    std::vector<Dom> root;
    Doms root_masks{};
};

inline void run_case(const Spec& spec, const Case& c, const Store& blank, const std::vector<IntVar>& xs, Reused& r,
                     bool post_fresh, Outcome& out, std::vector<Dom>& before, std::vector<Dom>& scratch) {
    const Brute brute = brute_force(spec, c);
    const Expected want = expected(spec, c, brute);
    out.chk.expect(reference_sound(c, brute, want), "the reference closure is unsound",
                   [&] { return describe(spec, c, "reference"); });

    if (post_fresh) {
        Store s = blank;
        bool cut_ok = true;
        for (int k = 0; k < c.nvars; ++k) cut_ok &= cut_to(s, xs[u(k)], c.lo, c.range, c.dom[u(k)]) != propane::Change::failed;
        REQUIRE(cut_ok);
        const Props props = post_counted(spec, s, xs, c);
        snapshot(s, before);
        s.push_level();
        auto why = [&] { return describe(spec, c, "posted"); };
        check_run(s, xs, props, spec, c, brute, want, out.chk, out.tally, scratch, why);
        s.pop_level();
        out.chk.expect(same_domains(s, before), "pop_level() did not restore the domains", why);
        ++out.tally.posted;
    }

    if (!r.root_ok) return;
    Case cc = c;
    for (int k = 0; k < c.nvars; ++k) cc.dom[u(k)] &= r.root_masks[u(k)];
    if (std::find(cc.dom.begin(), cc.dom.begin() + c.nvars, Mask{0}) != cc.dom.begin() + c.nvars) {
        ++out.tally.emptied;
        return;
    }
    r.s.push_level();
    bool cut_ok = true;
    for (int k = 0; k < c.nvars; ++k) cut_ok &= cut_to(r.s, r.xs[u(k)], c.lo, c.range, cc.dom[u(k)]) != propane::Change::failed;
    auto why = [&] { return describe(spec, cc, "cut"); };
    out.chk.expect(cut_ok, "a cut within the root domains failed", why);
    if (cc.dom == c.dom) {
        check_run(r.s, r.xs, r.props, spec, cc, brute, want, out.chk, out.tally, scratch, why);
    } else {
        const Brute b2 = brute_force(spec, cc);
        check_run(r.s, r.xs, r.props, spec, cc, b2, expected(spec, cc, b2), out.chk, out.tally, scratch, why);
    }
    r.s.pop_level();
    out.chk.expect(same_domains(r.s, r.root), "pop_level() did not restore the domains", why);
    ++out.tally.cut;
}

inline Case base_case(Kind kind, int n, int nvars, int lo, int range, const Coefs& v) {
    Case c;
    c.kind = kind;
    c.n = n;
    c.nvars = nvars;
    c.lo = lo;
    c.range = range;
    c.v = v;
    return c;
}

// A random domain: half arbitrary subsets, half intervals with at most one
// hole, the shapes bounds reasoning cares about.
inline Mask random_domain(std::mt19937& rng, int range) {
    std::uniform_int_distribution<int> pick(0, range - 1);
    if (rng() % 2 == 0) return std::uniform_int_distribution<Mask>(1, (Mask{1} << range) - 1)(rng);
    int lo = pick(rng), hi = pick(rng);
    if (lo > hi) std::swap(lo, hi);
    Mask m = ((Mask{2} << hi) - 1) & ~((Mask{1} << lo) - 1);
    const int hole = pick(rng);
    if (hole > lo && hole < hi && rng() % 2 == 0) m &= ~(Mask{1} << hole);
    return m;
}

// Every configuration of opt.n views on their own variables (or a sample),
// in both modes; configuration k uses coefficient vector k mod 7 (or the one
// IntVar has), coprime with the 2^range - 1 subsets, so every vector meets
// every domain of every view.
inline Outcome sweep(const Spec& spec, Kind kind, const Options& opt, bool quiet = false) {
    REQUIRE(opt.n <= max_views);
    REQUIRE(opt.range <= max_range);
    Outcome out;
    out.chk.quiet = quiet;
    const std::vector<Coefs> coefs = coefficients(kind, opt.n, opt.seed);
    Store blank;
    const std::vector<IntVar> xs = blank.int_vars(opt.n, opt.lo, opt.lo + opt.range - 1);
    std::vector<Reused> reused(coefs.size());
    for (std::size_t p = 0; p < coefs.size(); ++p) {
        Reused& r = reused[p];
        r.s = blank;
        r.xs = xs;
        r.props = post_counted(spec, r.s, r.xs, base_case(kind, opt.n, opt.n, opt.lo, opt.range, coefs[p]));
        r.root_ok = r.s.propagate();
        snapshot(r.s, r.root);
        for (int k = 0; k < opt.n; ++k) r.root_masks[u(k)] = r.root_ok ? mask_of(r.s, xs[u(k)], opt.lo, opt.range) : 0;
    }
    std::vector<Dom> before, scratch;
    const Mask subsets = (Mask{1} << opt.range) - 1;
    long long total = opt.samples;
    if (total == 0) {
        total = 1;
        for (int i = 0; i < opt.n; ++i) total *= subsets;
    }
    std::mt19937 rng(opt.seed);
    for (long long idx = 0; idx < total; ++idx) {
        const std::size_t p = u(static_cast<int>(idx % static_cast<long long>(coefs.size())));
        Case c = base_case(kind, opt.n, opt.n, opt.lo, opt.range, coefs[p]);
        long long rest = idx;
        for (int i = 0; i < opt.n; ++i, rest /= subsets)
            c.dom[u(i)] = opt.samples == 0 ? static_cast<Mask>(rest % subsets) + 1 : random_domain(rng, opt.range);
        run_case(spec, c, blank, xs, reused[p], idx % opt.posted_every == 0, out, before, scratch);
    }
    return out;
}

// Views that share variables: n views over nvars < n variables (each used),
// random coefficients of the kind, random domains, posted fresh and cut in
// a store reused per layout.
inline Outcome shared_sweep(const Spec& spec, Kind kind, int n, int nvars, int lo, int range, long long count,
                            unsigned seed, bool quiet = false) {
    REQUIRE((n <= max_views && nvars < n && nvars >= 1));
    Outcome out;
    out.chk.quiet = quiet;
    std::mt19937 rng(seed);
    Store blank;
    const std::vector<IntVar> xs = blank.int_vars(nvars, lo, lo + range - 1);
    std::vector<Dom> before, scratch;
    constexpr int layouts = 8;
    for (int l = 0; l < layouts; ++l) {
        // Variables first in order, so each is used, then at random; the
        // kind's coefficients at random too, so that two views of one
        // variable are sometimes the same function.
        Coefs v{};
        const std::vector<Coefs> pool = coefficients(kind, n, seed + static_cast<unsigned>(l));
        const Coefs& from = pool[rng() % pool.size()];
        for (int i = 0; i < n; ++i) {
            v[u(i)] = from[u(rng() % static_cast<unsigned>(n))];
            if (kind == Kind::mixed) v[u(i)] = from[u(i)];
            v[u(i)].var = i < nvars ? i : static_cast<int>(rng() % static_cast<unsigned>(nvars));
        }
        // Shuffled, so that the shared variable is at any position.
        std::shuffle(v.begin(), v.begin() + n, rng);
        if (kind == Kind::mixed)
            for (int i = 0; i < n; ++i) {
                const Kind k = mixed_at(i);
                v[u(i)].a = k == Kind::affine ? (v[u(i)].a == 1 ? 2 : v[u(i)].a) : 1;
                v[u(i)].b = k == Kind::var ? 0 : v[u(i)].b;
            }
        Reused r;
        r.s = blank;
        r.xs = xs;
        r.props = post_counted(spec, r.s, r.xs, base_case(kind, n, nvars, lo, range, v));
        r.root_ok = r.s.propagate();
        snapshot(r.s, r.root);
        for (int k = 0; k < nvars; ++k) r.root_masks[u(k)] = r.root_ok ? mask_of(r.s, xs[u(k)], lo, range) : 0;
        for (long long k = 0; k < count / layouts; ++k) {
            Case c = base_case(kind, n, nvars, lo, range, v);
            for (int x = 0; x < nvars; ++x) c.dom[u(x)] = random_domain(rng, range);
            run_case(spec, c, blank, xs, r, true, out, before, scratch);
        }
    }
    return out;
}

// ---- random walks --------------------------------------------------------------------

// One constraint on one store, driven through nested levels at random:
// push, cut (several per level, and levels pushed with cuts unpropagated),
// propagate, pop, copy. Every propagate() is compared with the reference
// for the domains it starts from (each reference is unique, so it does not
// matter which earlier runs got there), every pop with the domains saved
// at its push. The copies are deep: the original is destroyed, so a copy
// that shared anything with it would show under ASan.
class Walk {
public:
    Walk(const Spec& spec, const Case& shape, Checker& chk, Tally& tally)
        : spec_(spec), c_(shape), chk_(chk), tally_(tally) {
        xs_ = s_.int_vars(c_.nvars, c_.lo, c_.lo + c_.range - 1);
        props_ = post_counted(spec_, s_, xs_, c_);
        root_ok_ = propagate_checked();
    }

    int depth() const { return static_cast<int>(saved_.size()); }
    Mask mask(int k) const { return mask_of(s_, xs_[u(k)], c_.lo, c_.range); }

    void run(std::mt19937& rng, int steps) {
        if (!root_ok_) return;
        auto below = [&](int k) { return static_cast<int>(rng() % static_cast<unsigned>(k)); };
        for (int step = 0; step < steps; ++step) {
            if (failed_) {
                pop();
                continue;
            }
            const int r = below(100);
            int op = r < 20 ? 0 : r < 50 ? 1 : r < 75 ? 2 : r < 93 ? 3 : 4; // push cut propagate pop copy
            if (depth() == 0 && (op == 1 || op == 3)) op = 0;
            if (depth() == 8 && op == 0) op = 2;
            int k = -1;
            for (int j = 0, start = below(c_.nvars); op == 1 && j < c_.nvars && k < 0; ++j)
                if (std::popcount(mask((start + j) % c_.nvars)) >= 2) k = (start + j) % c_.nvars;
            if (op == 1 && k < 0) op = 2;
            switch (op) {
            case 0: push(); break;
            case 1: cut(k, below(4), rng); break;
            case 2: propagate_checked(); break;
            case 3: pop(); break;
            default: copy(); break;
            }
        }
        while (depth() > 0) pop();
        snapshot(s_, scratch_);
        chk_.expect(same_domains(s_, root_after_), "the root domains did not come back", [&] { return why(); });
    }

private:
    bool propagate_checked() {
        for (int k = 0; k < c_.nvars; ++k) c_.dom[u(k)] = mask(k);
        const Brute brute = brute_force(spec_, c_);
        const Expected want = expected(spec_, c_, brute);
        log_ += " propagate;";
        const bool ok = check_run(s_, xs_, props_, spec_, c_, brute, want, chk_, tally_, scratch_, [&] { return why(); });
        failed_ = !ok;
        if (depth() == 0) snapshot(s_, root_after_);
        return ok;
    }
    void push() {
        log_ += " push;";
        saved_.emplace_back();
        snapshot(s_, saved_.back());
        s_.push_level();
    }
    void cut(int k, int how, std::mt19937& rng) {
        std::vector<int> vals;
        for (int t = 0; t < c_.range; ++t)
            if ((mask(k) >> t) & 1U) vals.push_back(c_.lo + t);
        const auto count = static_cast<unsigned>(vals.size());
        // >= anything but the minimum narrows without emptying, and so
        // does <= anything but the maximum.
        const unsigned at = how == 2 ? 1 + rng() % (count - 1) : how == 3 ? rng() % (count - 1) : rng() % count;
        const int v = vals[at];
        const IntVar x = xs_[u(k)];
        static constexpr std::array<const char*, 4> ops{" != ", " = ", " >= ", " <= "};
        const propane::Change ch = how == 0   ? x.remove(s_, v)
                                   : how == 1 ? x.assign(s_, v)
                                   : how == 2 ? x.remove_below(s_, v)
                                              : x.remove_above(s_, v);
        log_ += " x" + std::to_string(k) + ops[u(how)] + std::to_string(v) + ";";
        chk_.expect(ch != propane::Change::failed, "a cut emptied a domain", [&] { return why(); });
    }
    void pop() {
        log_ += " pop;";
        s_.pop_level();
        chk_.expect(same_domains(s_, saved_.back()), "pop_level() did not restore the domains", [&] { return why(); });
        saved_.pop_back();
        failed_ = false;
    }
    void copy() {
        log_ += " copy;";
        Store clone(s_);
        s_ = std::move(clone);
    }
    std::string why() const { return describe(spec_, c_, "walk") + "  (the domains before the last propagate), after" + log_; }

    const Spec& spec_;
    Case c_;
    Checker& chk_;
    Store s_;
    std::vector<IntVar> xs_;
    Props props_;
    Tally& tally_;
    bool root_ok_ = true;
    bool failed_ = false;
    std::vector<Dom> root_after_, scratch_;
    std::vector<std::vector<Dom>> saved_;
    std::string log_;
};

// `count` walks of `steps` steps, each on a store posted on full domains
// over lo .. lo + range - 1, cycling through the kind's coefficient vectors.
inline Outcome walks(const Spec& spec, Kind kind, int n, int lo, int range, int count, int steps, unsigned seed,
                     bool quiet = false) {
    Outcome out;
    out.chk.quiet = quiet;
    std::mt19937 rng(seed);
    const std::vector<Coefs> coefs = coefficients(kind, n, seed);
    for (int w = 0; w < count; ++w) {
        Walk walk(spec, base_case(kind, n, n, lo, range, coefs[u(w) % coefs.size()]), out.chk, out.tally);
        walk.run(rng, steps);
        ++out.tally.walks;
    }
    return out;
}

// One line per batch, and a failed check if it found anything.
inline void report(const std::string& what, const Outcome& o) {
    MESSAGE(what << ": " << o.tally.str() << "; " << o.chk.failures << " failed checks");
    CHECK(o.chk.failures == 0);
}

} // namespace checker

#endif
