// AllDifferent at domain and at bounds strength on 8 to 120 views, each
// checked against the definition of its consistency. test_all_different.cpp
// compares every strength with brute force, which cannot go past about six
// views; the references here scale.
//
// Domain strength. The reference is a bipartite matching between views and
// their values. With one variable per view, the solutions of the
// constraint are exactly the matchings that cover every view, so for each
// propagate():
//   - it fails only if no matching covers all views in the domains it
//     started from (the instance has no solution);
//   - completeness: each value left in a view is that view's value in some
//     matching covering all views within the domains it left;
//   - soundness: no value it removed is a view's value in a matching
//     covering all views within the domains it started from;
//   - the domains it left are non-empty subsets of those it started from.
// Together these say it computed the domain-consistent closure, which is
// unique. The reference decides each (view, value) pair with Kuhn's
// augmenting paths, never with strongly connected components. To ask
// whether view y can take v, it takes one matching that covers all views,
// gives v to y, and searches an augmenting path, avoiding y, for the view
// that held v: by Berge's theorem there is a covering matching with y = v
// exactly when that path exists.
//
// Bounds strength promises less, and exactly: the value stage (a fixed
// view's value leaves the others) and bounds consistency on the interval
// relaxation (each view's least and greatest values are its values in
// some assignment of distinct values with every view within its own least
// and greatest). The reference applies both rules, each read off its
// definition, until neither removes anything, deciding each bound with
// Glover's greedy matching of values to intervals, and the propagator must
// leave exactly those domains, or fail exactly when they empty.
//
// Both references share nothing with the propagator: they read the
// variables' domains and map them through their own a*x + b.
//
// The propagator picks its algorithm by what it sees after the value
// stage. At domain strength: at most 64 open views over at most 64
// possible values (words for domains and for reachability), at most 64
// open views over more values (words for reachability), or more than 64
// open views (Tarjan's SCCs). At bounds strength: values within 64
// (greedy walks over words of free values) or not (López-Ortiz's sweeps).
// The tallies count runs on each side, and each test case asserts that its
// sides ran often, pruned often and failed. Checked are random instances
// built to prune (Hall sets planted among the views, on consecutive values
// for bounds strength, so that they are Hall intervals; as many values as
// views or barely more) and to fail (k + 1 views planted on k values), each
// cut inside a level of a store posted on full ranges and also posted on a
// fresh store already cut; and search-like walks of push, cut, propagate,
// copy and pop on one store, whose open views go from over 64 to under it
// and back while the propagator keeps its state across backtracking.
//
// Every message names the instance's strength, store type, view type,
// style, sizes and seed, from which generate() rebuilds it; a walk's step
// names the place in its seeded sequence.

#include <doctest/doctest.h>

#include <propane/constraints/all_different.hpp>
#include <propane/engine/domain.hpp>
#include <propane/engine/store.hpp>
#include <propane/engine/view.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <numeric>
#include <optional>
#include <queue>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "instances.hpp"

namespace {

using propane::AffineView;
using propane::IntVar;
using propane::OffsetView;
using W2Store = propane::Store<propane::BitDomain<2>>;
using W4Store = propane::Store<propane::BitDomain<4>>;
using WideStore = propane::Store<propane::BitDomain<propane::dynamic>>;

using Values = std::vector<std::vector<int>>; // each view's values, ascending

std::string set_string(const std::vector<int>& vs) {
    std::string s = "{";
    for (const int v : vs) {
        if (s.size() > 1) s += ',';
        s += std::to_string(v);
    }
    return s + "}";
}

// Reported one by one up to a dozen, then only counted: one bug in a large
// instance would otherwise print hundreds of values' worth of messages.
struct Problems {
    long long count = 0;
    void add(const std::string& what) {
        if (++count <= 12) FAIL_CHECK(what);
    }
};

// ---- instances ---------------------------------------------------------------

// View y is a*x + b over a variable with the initial range lo..hi.
struct ViewSpec {
    int a = 1, b = 0, lo = 0, hi = 0;
    int of(int x) const { return a * x + b; }
    std::string str() const { return std::to_string(a) + "*x" + (b < 0 ? "" : "+") + std::to_string(b); }
};

struct Instance {
    std::string label; // strength, store, view type, style, sizes, seed
    propane::Consistency strength = propane::domain;
    std::vector<ViewSpec> spec;
    Values want;   // the values each view keeps once its variable is cut
    int span = 0;  // from the least to the greatest value any view could ever take
};

enum class Style { sparse, intervals, planted, overfull };
constexpr std::array<Style, 4> styles{Style::sparse, Style::intervals, Style::planted, Style::overfull};

std::string name_of(Style st) {
    switch (st) {
    case Style::sparse: return "sparse";
    case Style::intervals: return "intervals";
    case Style::planted: return "planted";
    case Style::overfull: return "overfull";
    }
    return "?";
}

template <class View>
std::string view_name() {
    if constexpr (std::is_same_v<View, IntVar>) return "IntVar";
    if constexpr (std::is_same_v<View, OffsetView>) return "OffsetView";
    return "AffineView";
}

template <class S>
std::string store_name() {
    if constexpr (S::domain_type::is_dynamic)
        return "BitDomain<dynamic>";
    else
        return "BitDomain<" + std::to_string(S::domain_type::capacity / 64) + ">";
}

// Sets of value indices 0..m-1, one per view; see generate(). Every view
// outside an overfull group holds a value of a hidden solution, so only
// overfull groups make an instance fail.
class Shapes {
public:
    Shapes(std::mt19937& rng, std::size_t n, int m)
        : rng_(rng), n_(n), m_(m), idx_(n), grouped_(n, false), pool_(static_cast<std::size_t>(m)) {
        std::iota(pool_.begin(), pool_.end(), 0);
        std::shuffle(pool_.begin(), pool_.end(), rng_);
    }

    int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
    bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }
    bool grouped(std::size_t y) const { return grouped_[y]; }

    // Hall sets: groups of k views whose values together are exactly k
    // values no other group uses, each member holding 2..k of them. Some
    // views outside a group also get its values, which the group takes
    // from them. With `overfull`, the first group has k + 1 members. With
    // `consecutive`, a group's values are k consecutive ones, so that its
    // members' bounds make a Hall interval, which bounds strength sees.
    void plant(int groups, bool overfull, bool consecutive) {
        std::vector<std::size_t> views(n_);
        std::iota(views.begin(), views.end(), std::size_t{0});
        std::shuffle(views.begin(), views.end(), rng_);
        std::size_t next_view = 0;
        for (int g = 0; g < groups; ++g) {
            const bool over = overfull && g == 0;
            const int k = uniform(2, std::max(2, std::min(16, static_cast<int>(n_) / 5)));
            const auto uk = static_cast<std::size_t>(k);
            const std::size_t members = uk + (over ? 1 : 0);
            if (next_view + members > n_ || used_ + uk > pool_.size()) break;
            if (consecutive && !take_block(k)) break;
            const std::vector<int> hall(pool_.begin() + static_cast<std::ptrdiff_t>(used_),
                                        pool_.begin() + static_cast<std::ptrdiff_t>(used_ + uk));
            used_ += uk;
            for (std::size_t j = 0; j < members; ++j) {
                std::vector<int> h = hall;
                std::shuffle(h.begin(), h.end(), rng_);
                h.resize(static_cast<std::size_t>(uniform(2, k)));
                idx_[views[next_view + j]] = h;
                grouped_[views[next_view + j]] = true;
            }
            // Every Hall value goes to some member: otherwise the group
            // would hold a smaller Hall set, or fail.
            for (const int v : hall) {
                bool held = false;
                for (std::size_t j = 0; j < members; ++j) {
                    const auto& d = idx_[views[next_view + j]];
                    held |= std::find(d.begin(), d.end(), v) != d.end();
                }
                if (!held) idx_[views[next_view + pick(members)]].push_back(v);
            }
            next_view += members;
            if (next_view < n_)
                for (int t = uniform(1, 4); t > 0; --t)
                    idx_[views[next_view + pick(n_ - next_view)]].push_back(hall[pick(uk)]);
        }
    }

    // Each view outside the groups: its hidden value, and each other value
    // with probability degree/m.
    void random_sets(int degree) {
        for (std::size_t y = 0; y < n_; ++y) {
            if (grouped_[y]) continue;
            idx_[y].push_back(hidden());
            for (int k = 0; k < m_; ++k)
                if (chance(static_cast<double>(degree) / m_)) idx_[y].push_back(k);
        }
    }

    // Each view outside the groups: 2..12 consecutive values around its
    // hidden value, some of the others missing.
    void intervals() {
        for (std::size_t y = 0; y < n_; ++y) {
            if (grouped_[y]) continue;
            const int h = hidden();
            const int w = uniform(2, 12);
            const int start = std::clamp(h - uniform(0, w - 1), 0, std::max(0, m_ - w));
            for (int k = start; k < std::min(m_, start + w); ++k)
                if (k == h || !chance(0.25)) idx_[y].push_back(k);
        }
    }

    std::vector<std::vector<int>> finish() {
        for (auto& d : idx_) {
            std::sort(d.begin(), d.end());
            d.erase(std::unique(d.begin(), d.end()), d.end());
        }
        return std::move(idx_);
    }

private:
    // Moves k consecutive values that no group has taken to the front of
    // the pool's unused part; false if a few tries find none.
    bool take_block(int k) {
        for (int attempt = 0; attempt < 20; ++attempt) {
            const int start = uniform(0, m_ - k);
            const auto unused = [&](int v) {
                return std::find(pool_.begin() + static_cast<std::ptrdiff_t>(used_), pool_.end(), v) != pool_.end();
            };
            bool free = true;
            for (int v = start; v < start + k; ++v) free = free && unused(v);
            if (!free) continue;
            for (int v = start; v < start + k; ++v) {
                const auto at = std::find(pool_.begin() + static_cast<std::ptrdiff_t>(used_), pool_.end(), v);
                std::iter_swap(at, pool_.begin() + static_cast<std::ptrdiff_t>(used_ + static_cast<std::size_t>(v - start)));
            }
            return true;
        }
        return false;
    }
    std::size_t pick(std::size_t count) { return std::uniform_int_distribution<std::size_t>(0, count - 1)(rng_); }
    // A value no group and no other view's hidden value uses: there are
    // enough, as m >= n.
    int hidden() { return pool_[used_++]; }

    std::mt19937& rng_;
    std::size_t n_;
    int m_;
    std::vector<std::vector<int>> idx_;
    std::vector<bool> grouped_;
    std::vector<int> pool_; // the values in random order; the first used_ are taken
    std::size_t used_ = 0;
};

// n views of type View over variables of store type S, drawn from `seed`.
// Domains are drawn in view space, as sets of indices into m values
// c, c + step, ..., c + (m-1)*step, then mapped back to the variables.
// step is 6 for affine views, the lattice on which 2*x + b and -3*x + b can
// all meet (each b is chosen to land on it), and 1 otherwise. An affine view
// outside the planted groups may also get a value off the lattice, which
// it shares only with views of its own scale. By style:
//   sparse     m = n..n+2, each view its hidden value and each other value
//              with probability d/m, d = 2..5: Hall sets arise by themselves;
//   intervals  m = n..n+n/8, each view 2..12 consecutive values around its
//              hidden value, with holes: Hall intervals;
//   planted    m = n+5..n+n/2, 1..4 planted Hall sets (Shapes::plant), and
//              the other views as in sparse with d = 4..24;
//   overfull   the same with one group of k + 1 views on k values: no
//              solution.
// Each variable's initial range holds the view's whole universe (its
// lattice, and for affine views its side values) and up to 4 more values,
// within what S's domains hold; m stays within that.
template <class S, class View>
Instance generate(propane::Consistency strength, std::uint32_t seed, Style style, int n) {
    constexpr bool affine = std::is_same_v<View, AffineView>;
    constexpr std::int64_t capacity = S::domain_type::capacity;
    const int cap = static_cast<int>(std::min<std::int64_t>(capacity, 1000));
    const int max_m = std::min(200, cap / (affine ? 3 : 1));
    REQUIRE_MESSAGE(n <= max_m, ("no room for " + std::to_string(n) + " views of this type in this store"));

    std::mt19937 rng(seed);
    const auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    int m = n;
    switch (style) {
    case Style::sparse: m += uniform(0, 2); break;
    case Style::intervals: m += uniform(0, n / 8); break;
    case Style::planted:
    case Style::overfull: m += uniform(5, std::max(5, n / 2)); break;
    }
    m = std::min(m, max_m);

    const auto un = static_cast<std::size_t>(n);
    Shapes shapes(rng, un, m);
    if (style == Style::planted || style == Style::overfull)
        shapes.plant(uniform(1, 4) + (style == Style::overfull ? 1 : 0), style == Style::overfull,
                     strength == propane::bounds);
    if (style == Style::intervals)
        shapes.intervals();
    else
        shapes.random_sets(style == Style::sparse ? uniform(2, 5) : uniform(4, 24));
    const std::vector<std::vector<int>> idx = shapes.finish();

    Instance in;
    in.strength = strength;
    in.label = std::string(propane::to_string(strength)) + " " + store_name<S>() + " " + view_name<View>() + " " + name_of(style) + " n=" + std::to_string(n) +
               " m=" + std::to_string(m) + " seed=" + std::to_string(seed);
    in.spec.resize(un);
    in.want.resize(un);
    const int step = affine ? 6 : 1;
    const int c = uniform(-500, 500);
    for (std::size_t y = 0; y < un; ++y) {
        ViewSpec& v = in.spec[y];
        std::vector<int>& w = in.want[y];
        for (const int k : idx[y]) w.push_back(c + step * k);
        int lo = 0, hi = 0;
        if constexpr (std::is_same_v<View, IntVar>) {
            lo = c;
            hi = c + m - 1;
        } else if constexpr (std::is_same_v<View, OffsetView>) {
            v.b = uniform(-30, 30);
            lo = c - v.b;
            hi = lo + m - 1;
        } else {
            // 2*x + c - 2r over x = r..r+3m-1 is c, c+2, ..., c+6m-2;
            // -3*x + c + 3r over x = r-2m+1..r is c, c+3, ..., c+6m-3.
            const int r = uniform(-20, 20);
            if (uniform(0, 1) == 0) {
                v.a = 2;
                v.b = c - 2 * r;
                lo = r;
                hi = r + 3 * m - 1;
            } else {
                v.a = -3;
                v.b = c + 3 * r;
                lo = r - 2 * m + 1;
                hi = r;
            }
            if (!shapes.grouped(y) && uniform(0, 9) == 0)
                w.push_back(c + 6 * uniform(0, m - 1) + (v.a == 2 ? 2 * uniform(1, 2) : 3));
        }
        const int extra = std::min(4, cap - (hi - lo + 1));
        const int below = uniform(0, extra);
        v.lo = lo - below;
        v.hi = hi + uniform(0, extra - below);
        std::sort(w.begin(), w.end());
        w.erase(std::unique(w.begin(), w.end()), w.end());
    }
    int least = 0, greatest = 0;
    for (std::size_t y = 0; y < un; ++y) {
        const ViewSpec& v = in.spec[y];
        const int a = std::min(v.of(v.lo), v.of(v.hi)), b = std::max(v.of(v.lo), v.of(v.hi));
        least = y == 0 ? a : std::min(least, a);
        greatest = y == 0 ? b : std::max(greatest, b);
    }
    in.span = greatest - least + 1;
    return in;
}

// ---- the model under test --------------------------------------------------------

template <class View>
View make_view(IntVar x, const ViewSpec& v) {
    if constexpr (std::is_same_v<View, IntVar>)
        return x;
    else if constexpr (std::is_same_v<View, OffsetView>)
        return x + v.b;
    else
        return v.a * x + v.b;
}

template <class S>
std::vector<typename S::domain_type> domains(const S& s) {
    std::vector<typename S::domain_type> d;
    for (int i = 0; i < s.num_vars(); ++i) d.push_back(s.domain(i));
    return d;
}

template <class S, class View>
struct Model {
    S s;
    std::vector<IntVar> xs;
    std::vector<View> views;
    propane::Consistency strength;

    explicit Model(const Instance& in) : strength(in.strength) {
        for (const ViewSpec& v : in.spec) {
            xs.push_back(s.int_var(v.lo, v.hi));
            views.push_back(make_view<View>(xs.back(), v));
        }
    }

    void post() { s.post(propane::all_different(views, strength)); }

    // Removes every variable value whose view value the instance does not
    // want. False if a domain would empty.
    bool cut_to(const Instance& in) {
        bool ok = true;
        for (std::size_t y = 0; y < xs.size(); ++y) {
            const ViewSpec& v = in.spec[y];
            const std::vector<int>& w = in.want[y];
            for (int x = v.lo; x <= v.hi; ++x)
                if (!std::binary_search(w.begin(), w.end(), v.of(x)))
                    ok &= xs[y].remove(s, x) != propane::Change::failed;
        }
        return ok;
    }

    // The views' values, through the instance's a and b, not the views'.
    Values read(const Instance& in) const {
        Values r(xs.size());
        for (std::size_t y = 0; y < xs.size(); ++y) {
            s.domain(xs[y]).for_each([&](int x) { r[y].push_back(in.spec[y].of(x)); });
            std::sort(r[y].begin(), r[y].end());
        }
        return r;
    }
};

// ---- the reference: matchings --------------------------------------------------

// A matching of views to value indices, found by Kuhn's augmenting paths.
class Matching {
public:
    // adj[y]: view y's values, as indices below `values`.
    Matching(std::vector<std::vector<int>> adj, std::size_t values)
        : adj_(std::move(adj)), match_(adj_.size(), -1), owner_(values, -1), seen_(values, 0) {
        for (std::size_t y = 0; y < adj_.size() && complete_; ++y) {
            ++stamp_;
            complete_ = augment(static_cast<int>(y));
        }
        base_match_ = match_;
        base_owner_ = owner_;
    }

    // Whether the matching covers every view.
    bool complete() const { return complete_; }

    // Whether some matching covering every view gives view y value v
    // (v among y's values). Needs complete().
    bool allows(std::size_t y, int v) {
        const int z = owner_[static_cast<std::size_t>(v)];
        if (match_[y] == v || z < 0) return true; // a free v: y moves there, its old value goes free
        owner_[static_cast<std::size_t>(match_[y])] = -1;
        match_[y] = v;
        owner_[static_cast<std::size_t>(v)] = static_cast<int>(y);
        match_[static_cast<std::size_t>(z)] = -1;
        banned_ = static_cast<int>(y);
        ++stamp_;
        const bool found = augment(z);
        banned_ = -1;
        // Every question starts from the same matching.
        match_ = base_match_;
        owner_ = base_owner_;
        return found;
    }

private:
    // Kuhn's depth-first search for an augmenting path from view y. A value
    // held by the banned view is not taken from it. The depth is at most
    // the number of views.
    bool augment(int y) {
        for (const int v : adj_[static_cast<std::size_t>(y)]) {
            const auto j = static_cast<std::size_t>(v);
            if (seen_[j] == stamp_) continue;
            seen_[j] = stamp_;
            const int z = owner_[j];
            if (z == banned_ && z >= 0) continue;
            if (z < 0 || augment(z)) {
                owner_[j] = y;
                match_[static_cast<std::size_t>(y)] = v;
                return true;
            }
        }
        return false;
    }

    std::vector<std::vector<int>> adj_;
    std::vector<int> match_, owner_; // view -> value, value -> view; -1 for none
    std::vector<int> base_match_, base_owner_;
    std::vector<std::uint64_t> seen_;
    std::uint64_t stamp_ = 0;
    int banned_ = -1;
    bool complete_ = true;
};

int index_in(const std::vector<int>& universe, int v) {
    return static_cast<int>(std::lower_bound(universe.begin(), universe.end(), v) - universe.begin());
}

std::vector<std::vector<int>> edges(const Values& doms, const std::vector<int>& universe) {
    std::vector<std::vector<int>> adj(doms.size());
    for (std::size_t y = 0; y < doms.size(); ++y)
        for (const int v : doms[y]) adj[y].push_back(index_in(universe, v));
    return adj;
}

// Checks one propagate() at domain strength, which started from `before`
// and returned `ok`, leaving `after`, against the definition (see the top of
// the file).
void check_domain_consistency(const Instance& in, const Values& before, bool ok, const Values& after,
                              const std::string& where, Problems& p) {
    std::vector<int> universe;
    for (const auto& d : before) universe.insert(universe.end(), d.begin(), d.end());
    std::sort(universe.begin(), universe.end());
    universe.erase(std::unique(universe.begin(), universe.end()), universe.end());
    Matching was(edges(before, universe), universe.size());
    if (!ok) {
        if (was.complete()) p.add(where + ": propagate() failed, yet a matching covers all views (a solution)");
        return;
    }
    auto view = [&](std::size_t y) { return "view " + std::to_string(y) + " (" + in.spec[y].str() + ")"; };
    bool shapes_ok = true;
    for (std::size_t y = 0; y < before.size(); ++y) {
        if (after[y].empty() || !std::includes(before[y].begin(), before[y].end(), after[y].begin(), after[y].end())) {
            p.add(where + ": " + view(y) + " went from " + set_string(before[y]) + " to " + set_string(after[y]) +
                  ", not a non-empty subset");
            shapes_ok = false;
        }
    }
    if (!shapes_ok) return;

    Matching is(edges(after, universe), universe.size());
    if (!is.complete()) {
        p.add(where + ": propagate() succeeded, yet no matching covers all views in the domains it left" +
              (was.complete() ? " (there was one before: solutions were lost)" : " (nor before: a missed failure)"));
    } else {
        for (std::size_t y = 0; y < after.size(); ++y)
            for (const int v : after[y])
                if (!is.allows(y, index_in(universe, v)))
                    p.add(where + ": " + view(y) + " kept " + std::to_string(v) +
                          ", which no matching covering all views gives it (no solution has it); it has " +
                          set_string(after[y]));
    }
    if (!was.complete()) return;
    for (std::size_t y = 0; y < before.size(); ++y)
        for (const int v : before[y])
            if (!std::binary_search(after[y].begin(), after[y].end(), v) && was.allows(y, index_in(universe, v)))
                p.add(where + ": " + view(y) + " lost " + std::to_string(v) +
                      ", which a matching covering all views gives it (a solution was lost); it went from " +
                      set_string(before[y]) + " to " + set_string(after[y]));
}

// ---- the reference for bounds strength: intervals --------------------------------

// Whether the views can take distinct values, each within its interval
// [lo[y], hi[y]], by Glover's rule for convex bipartite graphs: going up
// through the values, each goes to the waiting interval that ends first,
// and the intervals fail as soon as one ends unserved.
bool intervals_match(const std::vector<int>& lo, const std::vector<int>& hi) {
    std::vector<std::size_t> by_lo(lo.size());
    std::iota(by_lo.begin(), by_lo.end(), std::size_t{0});
    std::sort(by_lo.begin(), by_lo.end(), [&](std::size_t a, std::size_t b) { return lo[a] < lo[b]; });
    std::priority_queue<int, std::vector<int>, std::greater<>> waiting; // the ends of the intervals begun
    std::size_t next = 0;
    long long v = 0;
    while (next < by_lo.size() || !waiting.empty()) {
        if (waiting.empty()) v = lo[by_lo[next]];
        while (next < by_lo.size() && lo[by_lo[next]] <= v) waiting.push(hi[by_lo[next++]]);
        if (waiting.top() < v) return false;
        waiting.pop();
        ++v;
    }
    return true;
}

// What bounds strength leaves of `doms`, or nothing where it fails: the
// greatest domains within them closed under two rules, each a plain
// reading of its definition, applied until neither removes anything:
//   value:  a view's only value leaves every other view;
//   bounds: a view's least (greatest) value goes unless the views can take
//           distinct values within their [least, greatest] intervals with
//           this view on it.
// Both rules only remove, and remove more from smaller domains, so the
// greatest closed domains are unique and any order of the rules reaches
// them.
std::optional<Values> bounds_closure(Values doms) {
    const std::size_t n = doms.size();
    std::vector<int> lo(n), hi(n);
    auto supported = [&](std::size_t y, int v) {
        for (std::size_t z = 0; z < n; ++z) {
            lo[z] = z == y ? v : doms[z].front();
            hi[z] = z == y ? v : doms[z].back();
        }
        return intervals_match(lo, hi);
    };
    for (bool changed = true; changed;) {
        changed = false;
        for (std::size_t y = 0; y < n; ++y) {
            if (doms[y].size() != 1) continue;
            for (std::size_t z = 0; z < n; ++z) {
                const auto at = std::lower_bound(doms[z].begin(), doms[z].end(), doms[y][0]);
                if (z == y || at == doms[z].end() || *at != doms[y][0]) continue;
                doms[z].erase(at);
                if (doms[z].empty()) return std::nullopt;
                changed = true;
            }
        }
        for (std::size_t y = 0; y < n; ++y) {
            while (!doms[y].empty() && !supported(y, doms[y].front())) {
                doms[y].erase(doms[y].begin());
                changed = true;
            }
            while (!doms[y].empty() && !supported(y, doms[y].back())) {
                doms[y].pop_back();
                changed = true;
            }
            if (doms[y].empty()) return std::nullopt;
        }
    }
    return doms;
}

// Checks one propagate() at bounds strength against bounds_closure().
void check_bounds_consistency(const Instance& in, const Values& before, bool ok, const Values& after,
                              const std::string& where, Problems& p) {
    const std::optional<Values> want = bounds_closure(before);
    if (!want) {
        if (ok) p.add(where + ": propagate() succeeded where the closure of the value and bounds rules fails");
        return;
    }
    if (!ok) {
        p.add(where + ": propagate() failed where the closure of the value and bounds rules does not");
        return;
    }
    for (std::size_t y = 0; y < before.size(); ++y)
        if (after[y] != (*want)[y])
            p.add(where + ": view " + std::to_string(y) + " (" + in.spec[y].str() + ") went from " +
                  set_string(before[y]) + " to " + set_string(after[y]) + ", where bounds consistency leaves " +
                  set_string((*want)[y]));
}

void check_definition(const Instance& in, const Values& before, bool ok, const Values& after,
                      const std::string& where, Problems& p) {
    if (in.strength == propane::bounds)
        check_bounds_consistency(in, before, ok, after, where, p);
    else
        check_domain_consistency(in, before, ok, after, where, p);
}

// How many views are left unfixed once every fixed view's value has left
// the others, and so on until nothing more is fixed: the views the bounds
// or domain stage works on, after the value stage that runs first. -1 if a
// view empties, which the value stage reports as failure on its own.
int open_after_value_stage(Values doms) {
    std::vector<std::size_t> fixed;
    for (std::size_t y = 0; y < doms.size(); ++y)
        if (doms[y].size() == 1) fixed.push_back(y);
    while (!fixed.empty()) {
        const std::size_t y = fixed.back();
        fixed.pop_back();
        const int v = doms[y][0];
        for (std::size_t z = 0; z < doms.size(); ++z) {
            const auto at = std::lower_bound(doms[z].begin(), doms[z].end(), v);
            if (z == y || at == doms[z].end() || *at != v) continue;
            doms[z].erase(at);
            if (doms[z].empty()) return -1;
            if (doms[z].size() == 1) fixed.push_back(z);
        }
    }
    return static_cast<int>(std::count_if(doms.begin(), doms.end(), [](const auto& d) { return d.size() > 1; }));
}

// How many propagations were checked, and how many of them failed or
// pruned, by what the propagator had after its value stage, which is what
// decides how its next stage works (at bounds strength, only [0] against
// [1] and [2]):
//   [0] at most 64 open views after the value stage, and all the values
//       the views could ever take within 64 consecutive ones;
//   [1] at most 64 open views, over a wider span of values;
//   [2] more than 64 open views.
// Runs that the value stage alone fails are counted apart, as none.
struct Tally {
    static constexpr std::array<const char*, 3> sides{
        "at most 64 open views over at most 64 values", "at most 64 open views over more values",
        "more than 64 open views"};
    std::array<int, 3> runs{}, failed{}, pruned{};
    int value_failed = 0;

    void count(const Instance& in, const Values& before, bool ok, const Values& after) {
        const int open = open_after_value_stage(before);
        if (open < 0) {
            ++value_failed;
            return;
        }
        const std::size_t k = open > 64 ? 2 : in.span > 64 ? 1 : 0;
        ++runs[k];
        if (!ok)
            ++failed[k];
        else if (after != before)
            ++pruned[k];
    }
    std::string str() const {
        std::string s;
        for (std::size_t k = 0; k < sides.size(); ++k)
            s += std::string(sides[k]) + ": " + std::to_string(runs[k]) + " runs, " + std::to_string(failed[k]) +
                 " failed, " + std::to_string(pruned[k]) + " pruned; ";
        return s + std::to_string(value_failed) + " failed in the value stage";
    }
};

// ---- drivers ---------------------------------------------------------------------------

// Every view's full range holds all m >= n values of the universe, which
// all views share: whatever value one view takes, the others still share
// m - 1 >= n - 1 values. Every value has a support, so the root run on
// full ranges must neither fail nor prune.
template <class S, class View>
bool root_run(Model<S, View>& md, const Instance& in, const std::string& where, Problems& p) {
    const Values full = md.read(in);
    const bool ok = md.s.propagate();
    if (ok && md.read(in) == full) return true;
    p.add(where + ": the root run, on full ranges where every value has a support, " + (ok ? "pruned" : "failed"));
    return false;
}

// One instance, two ways: cut inside a level of a store posted on full
// ranges (the propagator learns of the cut by events, and at domain
// strength starts from the matching of its root run), then posted on a
// fresh store already cut. Both closures are unique, so the second must
// agree with the first.
template <class S, class View>
void check_instance(const Instance& in, Problems& p, Tally& t) {
    Model<S, View> cut(in);
    cut.post();
    if (!root_run(cut, in, in.label, p)) return;
    const auto root = domains(cut.s);
    cut.s.push_level();
    if (!cut.cut_to(in)) {
        p.add(in.label + ": the cut emptied a domain, so the root run removed a value that has a support");
        return;
    }
    const Values before = cut.read(in);
    if (before != in.want) p.add(in.label + ": the cut does not give the instance's domains (a test bug)");
    const bool ok = cut.s.propagate();
    const Values after = ok ? cut.read(in) : Values{};
    check_definition(in, before, ok, after, in.label + " (cut inside a level)", p);
    t.count(in, before, ok, after);
    cut.s.pop_level();
    if (domains(cut.s) != root) p.add(in.label + ": pop_level() did not restore the root domains");

    Model<S, View> posted(in);
    REQUIRE(posted.cut_to(in));
    posted.post();
    const bool ok2 = posted.s.propagate();
    const Values after2 = ok2 ? posted.read(in) : Values{};
    if (ok2 != ok || after2 != after)
        p.add(in.label + ": posted on the cut domains, propagation " + (ok2 ? "succeeded" : "failed") +
              ", cut inside a level it " + (ok ? "succeeded" : "failed") + (ok && ok2 ? ", with other domains" : ""));
}

// The instance with every view x + b turned into -x' + b over x' = -x:
// the same values, through an AffineView, so that the domain stage's
// dense path meets a view whose rows it fills value by value.
Instance mirrored(Instance in) {
    for (ViewSpec& v : in.spec) {
        const int lo = v.lo;
        v.a = -v.a;
        v.lo = -v.hi;
        v.hi = -lo;
    }
    in.label += " mirrored (-x + b)";
    return in;
}

template <class S>
void mirrored_batch(propane::Consistency c, const std::vector<int>& sizes, std::uint32_t seed, int rounds,
                    Problems& p, Tally& t) {
    for (int r = 0; r < rounds; ++r)
        for (const int n : sizes)
            for (const Style st : styles)
                check_instance<S, AffineView>(mirrored(generate<S, OffsetView>(c, seed++, st, n)), p, t);
}

// Instances for every style and size, `rounds` times over, seeds counting
// up from `seed`.
template <class S, class View>
void batch(propane::Consistency c, const std::vector<int>& sizes, std::uint32_t seed, int rounds, Problems& p,
           Tally& t) {
    for (int r = 0; r < rounds; ++r)
        for (const int n : sizes)
            for (const Style st : styles) check_instance<S, View>(generate<S, View>(c, seed++, st, n), p, t);
}

// A walk on one store: the instance cut in level 1, then `steps` random
// steps up to `max_depth` levels deep. Going down pushes a level, fixes
// one unfixed variable per 16 or fewer (at least one) to distinct view
// values, and removes up to 60 values from views that keep at least two
// (so that the value stage alone seldom decides the run), then propagates;
// a failed level is popped at once. Going up pops a level. Now and then the store is replaced by a
// deep copy of itself. Every propagation is checked against the
// definition, every pop against the domains saved at its push.
template <class S, class View>
void walk(const Instance& in, std::uint32_t seed, int steps, int max_depth, Problems& p, Tally& t) {
    using Dom = typename S::domain_type;
    Model<S, View> md(in);
    md.post();
    std::mt19937 rng(seed);
    const auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    std::vector<std::vector<Dom>> saved; // the domains at each push
    std::string where;
    auto push = [&] {
        saved.push_back(domains(md.s));
        md.s.push_level();
    };
    auto pop = [&] {
        md.s.pop_level();
        if (domains(md.s) != saved.back()) p.add(where + ": pop_level() did not restore the domains");
        saved.pop_back();
    };
    auto run = [&] {
        const Values before = md.read(in);
        const bool ok = md.s.propagate();
        const Values after = ok ? md.read(in) : Values{};
        check_definition(in, before, ok, after, where, p);
        t.count(in, before, ok, after);
        return ok;
    };
    auto values_of = [&](std::size_t y) {
        std::vector<int> xs;
        md.s.domain(md.xs[y]).for_each([&](int x) { xs.push_back(x); });
        return xs;
    };
    auto any_of = [&](const std::vector<int>& xs) {
        return xs[static_cast<std::size_t>(uniform(0, static_cast<int>(xs.size()) - 1))];
    };
    auto cut = [&] {
        std::vector<std::size_t> open;
        for (std::size_t y = 0; y < md.xs.size(); ++y)
            if (!md.s.domain(md.xs[y]).fixed()) open.push_back(y);
        std::shuffle(open.begin(), open.end(), rng);
        const int most = std::max(1, static_cast<int>(open.size()) / 16);
        const auto fix = std::min(open.size(), static_cast<std::size_t>(uniform(1, most)));
        bool ok = true;
        // Views fixed together take distinct values: two on one value would
        // only test the value stage, which fails on its own.
        std::vector<int> taken;
        for (std::size_t k = 0; k < fix; ++k) {
            std::vector<int> xs;
            for (const int x : values_of(open[k]))
                if (std::find(taken.begin(), taken.end(), in.spec[open[k]].of(x)) == taken.end()) xs.push_back(x);
            if (xs.empty()) continue;
            const int x = any_of(xs);
            taken.push_back(in.spec[open[k]].of(x));
            ok &= md.xs[open[k]].assign(md.s, x) != propane::Change::failed;
        }
        for (int r = uniform(0, 60); r > 0 && fix < open.size(); --r) {
            const auto k = static_cast<std::size_t>(uniform(static_cast<int>(fix), static_cast<int>(open.size()) - 1));
            const std::size_t y = open[k];
            if (const auto xs = values_of(y); xs.size() > 2)
                ok &= md.xs[y].remove(md.s, any_of(xs)) != propane::Change::failed;
        }
        if (!ok) p.add(where + ": a cut of a value in the domain emptied it");
    };

    REQUIRE(root_run(md, in, "walk on " + in.label, p));
    where = "walk on " + in.label + ", walk seed " + std::to_string(seed) + ", start";
    push();
    REQUIRE(md.cut_to(in));
    REQUIRE_MESSAGE(run(), (in.label + ": a walk needs an instance with a solution"));
    for (int step = 0; step < steps; ++step) {
        const int depth = md.s.level();
        where = "walk on " + in.label + ", walk seed " + std::to_string(seed) + ", step " + std::to_string(step) +
                " at depth " + std::to_string(depth);
        const int r = uniform(0, 99);
        if (r < 5) {
            S copy(md.s);
            md.s = std::move(copy);
        } else if (depth > 1 && (depth >= max_depth || r < 35)) {
            pop();
        } else {
            push();
            cut();
            if (!run()) pop();
        }
    }
    where = "walk on " + in.label + ", walk seed " + std::to_string(seed) + ", unwinding";
    while (md.s.level() > 0) pop();
}

// A walk of 100 steps on an instance of each satisfiable style, for each size.
template <class S, class View>
void walks(propane::Consistency c, const std::vector<int>& sizes, std::uint32_t seed, Problems& p, Tally& t) {
    for (const int n : sizes)
        for (const Style st : {Style::sparse, Style::intervals, Style::planted}) {
            walk<S, View>(generate<S, View>(c, seed, st, n), seed + 500, 100, 12, p, t);
            ++seed;
        }
}

// What a test case must have seen on one side of Tally for its checks not
// to pass vacuously: that many runs, of which one in prune_share or more
// pruned, and that many failed.
struct Need {
    std::size_t side;
    int runs, prune_share, failures;
};

void conclude(const Problems& p, const Tally& t, std::initializer_list<Need> needs) {
    MESSAGE(t.str());
    CHECK(p.count == 0);
    for (const Need& n : needs) {
        const std::string side = Tally::sides[n.side];
        CAPTURE(side);
        CHECK(t.runs[n.side] >= n.runs);
        CHECK(t.pruned[n.side] * n.prune_share >= t.runs[n.side]);
        CHECK(t.failed[n.side] >= n.failures);
    }
}

} // namespace

TEST_CASE("domain all_different on 72..120 views meets the definition of domain consistency") {
    Problems p;
    Tally t;
    const std::vector<int> sizes{72, 100, 120};
    batch<W2Store, IntVar>(propane::domain, sizes, 1000, 6, p, t);
    batch<W2Store, OffsetView>(propane::domain, sizes, 2000, 6, p, t);
    batch<WideStore, IntVar>(propane::domain, sizes, 3000, 6, p, t);
    batch<WideStore, OffsetView>(propane::domain, sizes, 4000, 6, p, t);
    batch<WideStore, AffineView>(propane::domain, sizes, 5000, 12, p, t);
    batch<W4Store, AffineView>(propane::domain, {72}, 6000, 6, p, t);
    batch<W4Store, OffsetView>(propane::domain, {80, 120}, 7000, 6, p, t);
    mirrored_batch<WideStore>(propane::domain, {72, 120}, 8000, 6, p, t);
    conclude(p, t, {{2, 400, 2, 80}});
}

TEST_CASE("domain all_different on 8..64 views meets the definition of domain consistency") {
    Problems p;
    Tally t;
    batch<W2Store, IntVar>(propane::domain, {12, 20, 37, 50, 64}, 11000, 6, p, t);
    batch<W2Store, OffsetView>(propane::domain, {16, 24, 41, 64}, 12000, 6, p, t);
    batch<W2Store, AffineView>(propane::domain, {8, 20, 31, 42}, 13000, 6, p, t);
    batch<WideStore, IntVar>(propane::domain, {29, 64}, 14000, 6, p, t);
    batch<WideStore, AffineView>(propane::domain, {8, 22, 45, 64}, 15000, 6, p, t);
    batch<W4Store, AffineView>(propane::domain, {10, 30, 60}, 16000, 6, p, t);
    conclude(p, t, {{0, 150, 3, 25}, {1, 220, 3, 40}});
}

// The larger walks cross 64 open views on the same stores, both ways.
TEST_CASE("domain all_different stays domain consistent along push/cut/propagate/pop walks") {
    Problems p;
    Tally t;
    walks<W2Store, IntVar>(propane::domain, {24, 40, 90, 120}, 21000, p, t);
    walks<W2Store, OffsetView>(propane::domain, {16, 32, 110}, 22000, p, t);
    walks<W2Store, AffineView>(propane::domain, {8, 40}, 23000, p, t);
    walks<WideStore, IntVar>(propane::domain, {64}, 24000, p, t);
    walks<WideStore, AffineView>(propane::domain, {100, 120}, 25000, p, t);
    walks<W4Store, AffineView>(propane::domain, {40, 80}, 26000, p, t);
    conclude(p, t, {{0, 100, 3, 5}, {1, 250, 3, 15}, {2, 250, 3, 15}});
}

TEST_CASE("bounds all_different on 8..64 views within 64 values meets the definition of bounds consistency") {
    Problems p;
    Tally t;
    batch<W2Store, IntVar>(propane::bounds, {8, 12, 20, 37, 50, 64}, 31000, 6, p, t);
    batch<W2Store, OffsetView>(propane::bounds, {8, 16, 24, 41, 56}, 32000, 6, p, t);
    batch<WideStore, IntVar>(propane::bounds, {29, 60}, 33000, 6, p, t);
    conclude(p, t, {{0, 150, 3, 25}});
}

TEST_CASE("bounds all_different over wider spans and on 72..120 views meets the definition of bounds consistency") {
    Problems p;
    Tally t;
    batch<W2Store, OffsetView>(propane::bounds, {45, 60}, 41000, 6, p, t);
    batch<WideStore, IntVar>(propane::bounds, {50, 64}, 42000, 6, p, t);
    batch<W2Store, AffineView>(propane::bounds, {8, 20, 31, 42}, 43000, 3, p, t);
    batch<WideStore, AffineView>(propane::bounds, {8, 22, 45, 64}, 44000, 3, p, t);
    batch<W2Store, IntVar>(propane::bounds, {72, 100}, 45000, 4, p, t);
    batch<WideStore, OffsetView>(propane::bounds, {80, 120}, 46000, 4, p, t);
    batch<W4Store, AffineView>(propane::bounds, {10, 30, 60, 80}, 47000, 4, p, t);
    batch<W4Store, OffsetView>(propane::bounds, {50, 100, 150}, 48000, 4, p, t);
    mirrored_batch<W4Store>(propane::bounds, {40, 100}, 49000, 4, p, t);
    conclude(p, t, {{1, 150, 3, 15}, {2, 50, 3, 10}});
}

TEST_CASE("bounds all_different stays bounds consistent along push/cut/propagate/pop walks") {
    Problems p;
    Tally t;
    walks<W2Store, IntVar>(propane::bounds, {24, 40, 64, 90}, 51000, p, t);
    walks<W2Store, OffsetView>(propane::bounds, {16, 32, 110}, 52000, p, t);
    walks<W2Store, AffineView>(propane::bounds, {8, 40}, 53000, p, t);
    walks<WideStore, IntVar>(propane::bounds, {64}, 54000, p, t);
    walks<W4Store, AffineView>(propane::bounds, {30, 80}, 55000, p, t);
    walks<W4Store, OffsetView>(propane::bounds, {100, 150}, 56000, p, t);
    walks<WideStore, AffineView>(propane::bounds, {70, 120}, 57000, p, t);
    conclude(p, t, {{0, 100, 3, 5}, {1, 100, 3, 5}, {2, 100, 3, 5}});
}
