#ifndef PROPANE_TESTS_CHECKER_REFERENCE_HPP
#define PROPANE_TESTS_CHECKER_REFERENCE_HPP

// The checker's half that knows nothing of propagation (checker.hpp says
// what the whole does): configurations of small domains and views, what a
// constraint's test supplies (a predicate, a claim, a poster), and the
// reference each claim is compared with, computed from its definition.

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

// Dynamic domains, so that one store holds both forms: each case says
// which of its variables are made in the interval form (Case::forms), and
// the rest are bitsets.
using Dom = propane::BitDomain<propane::dynamic>;
using Store = propane::Store<Dom>;
using propane::IntVar;

// A variable's domain as bits: bit t set <=> the value lo + t is present.
using Mask = std::uint32_t;
constexpr int max_views = 7;
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
    unsigned forms = 0; // bit k set: variable k is in the interval form

    bool interval(int k) const { return ((forms >> k) & 1U) != 0; }

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

// f(views first .. first + count - 1), as the type c's kind passes them:
// IntVar, OffsetView, or AffineView (affine and mixed).
template <class F>
void with_views(const std::vector<IntVar>& xs, const Case& c, int first, int count, F&& f) {
    switch (c.kind) {
    case Kind::var: f(views<IntVar>(xs, c, first, count)); break;
    case Kind::offset: f(views<propane::OffsetView>(xs, c, first, count)); break;
    case Kind::affine:
    case Kind::mixed: f(views<propane::AffineView>(xs, c, first, count)); break;
    }
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
    // Random coefficients are drawn for the first five views only, and the
    // later ones are fixed, so that the views added later left the draws,
    // and so every configuration, of the five-view tests unchanged.
    constexpr int drawn = 5;
    static_assert(max_views == drawn + 2);
    std::vector<Coefs> out;
    switch (kind) {
    case Kind::var: out.push_back(p); break;
    case Kind::offset:
        for (int i = 0; i < max_views; ++i) p[u(i)].b = i;
        out.push_back(p);
        for (int i = 0; i < max_views; ++i) p[u(i)].b = std::array{2, -1, 0, -3, 1, 3, -2}[u(i)];
        out.push_back(p);
        while (out.size() < 7) {
            for (int i = 0; i < drawn; ++i) p[u(i)].b = offset();
            p[u(drawn)].b = 2, p[u(drawn + 1)].b = -2;
            out.push_back(p);
        }
        break;
    case Kind::affine:
        for (const int a : affine_scales) {
            for (int i = 0; i < max_views; ++i) p[u(i)].a = a, p[u(i)].b = a * std::array{0, 1, -1, 0, 1, -1, 0}[u(i)];
            out.push_back(p);
        }
        for (int i = 0; i < max_views; ++i)
            p[u(i)].a = std::array{2, -1, 3, -2, -1, 2, -2}[u(i)], p[u(i)].b = std::array{1, 0, -2, 3, 2, -1, 1}[u(i)];
        out.push_back(p);
        while (out.size() < 7) {
            for (int i = 0; i < drawn; ++i) p[u(i)].a = scale(), p[u(i)].b = offset();
            p[u(drawn)].a = -1, p[u(drawn)].b = 1;
            p[u(drawn + 1)].a = 2, p[u(drawn + 1)].b = 0;
            out.push_back(p);
        }
        break;
    case Kind::mixed:
        while (out.size() < 7) {
            for (int i = 0; i < drawn; ++i) {
                const Kind k = mixed_at(i);
                p[u(i)].a = k == Kind::affine ? scale() : 1;
                p[u(i)].b = k == Kind::var ? 0 : offset();
            }
            // mixed_at(5) is offset, mixed_at(6) var.
            p[u(drawn)].a = 1, p[u(drawn)].b = -1;
            p[u(drawn + 1)].a = 1, p[u(drawn + 1)].b = 0;
            out.push_back(p);
        }
        break;
    }
    return out;
}

// ---- for the closures that tests write ----------------------------------------------

// Keeps the values of view i (on its variable's bits in d) for which
// keep(view value) holds.
template <class Keep>
void restrict_view(const Case& c, Doms& d, int i, Keep&& keep) {
    Mask& m = d[u(c.v[u(i)].var)];
    for (int t = 0; t < c.range; ++t)
        if (((m >> t) & 1U) && !keep(c.value(i, t))) m &= ~(Mask{1} << t);
}

// The values of view i in d, in increasing order.
inline std::vector<int> view_values(const Case& c, const Doms& d, int i) {
    std::vector<int> out;
    for (int t = 0; t < c.range; ++t)
        if ((d[u(c.v[u(i)].var)] >> t) & 1U) out.push_back(c.value(i, t));
    std::sort(out.begin(), out.end());
    return out;
}

// Bounds reasoning's step in a closure: view i's least value goes while
// fits() is false for it, and its greatest likewise. False when that
// empties the view; `moved` set when it removed something.
template <class Fits>
bool trim_bounds(const Case& c, Doms& d, int i, Fits&& fits, bool& moved) {
    const std::vector<int> w = view_values(c, d, i);
    std::size_t a = 0, b = w.size();
    while (a < b && !fits(w[a])) ++a;
    while (b > a && !fits(w[b - 1])) --b;
    if (a == b) return false;
    if (a == 0 && b == w.size()) return true;
    moved = true;
    restrict_view(c, d, i, [&](int x) { return x >= w[a] && x <= w[b - 1]; });
    return true;
}

// {1, 2, 3}, for test names.
inline std::string list(const std::vector<int>& v) {
    std::string s = "{";
    for (std::size_t k = 0; k < v.size(); ++k) s += (k ? ", " : "") + std::to_string(v[k]);
    return s + "}";
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

} // namespace checker

#endif
