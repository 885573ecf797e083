#ifndef PROPANE_ALL_DIFFERENT_HPP
#define PROPANE_ALL_DIFFERENT_HPP

// AllDifferent over any views, at a chosen strength:
//
//   value   when a view becomes fixed, its value is removed from the others
//           (OR-Tools' ValueAllDifferent, Gecode's IPL_VAL). Incremental: a
//           run handles only the views that became fixed since the last run,
//           which the store reports through tagged subscriptions.
//   bounds  value stage first, then Hall intervals on the bounds, after
//           López-Ortiz, Quimper, Tromp and van Beek, "A fast and simple
//           algorithm for bounds consistency of the alldifferent constraint",
//           IJCAI 2003 (OR-Tools' default BoundsAllDifferent, Gecode IPL_BND).
//   domain  value stage first, then Régin's algorithm (AAAI 1994): a
//           maximum matching of views to values, and the strongly connected
//           components of the residual graph; every edge outside the
//           matching and outside every component (and every even
//           alternating path from a free value) is removed. This leaves only
//           values that belong to some solution (Gecode IPL_DOM, MiniCP's
//           AllDifferentDC).
//
// Both are templates over the view type, so x, x + c and a*x + b share one
// implementation with the view arithmetic inlined.

#include <algorithm>
#include <bit>
#include <cstdint>
#include <memory>
#include <optional>
#include <ranges>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "error.hpp"
#include "propagator.hpp"
#include "view.hpp"

namespace propane {

enum class Consistency : std::uint8_t { value, bounds, domain };

inline constexpr Consistency value = Consistency::value;
inline constexpr Consistency bounds = Consistency::bounds;
inline constexpr Consistency domain = Consistency::domain;

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
    for (Consistency c : {Consistency::value, Consistency::bounds, Consistency::domain})
        if (to_string(c) == name) return c;
    return std::nullopt;
}

namespace detail {

// The value stage, shared by all three strengths (the whole of `value`, the
// first stage of the others): removes the value of each newly fixed view
// from the others. It visits only the views still open: a fixed view whose
// value has gone from every open view leaves the set, since no view can take
// that value any more and it can lose no value but its own, which would mean
// some open view took it first and failed. In a deep dive most views are
// closed, and this halves the work. The set is a sparse set over positions
// whose size is a reversible cell: leaving costs a swap, and backtracking,
// by restoring the size, restores the set.
class OpenViews {
public:
    template <class Store>
    OpenViews(Store& s, std::size_t n) : order_(n), pos_(n), size_cell_(s.new_cell(static_cast<std::int64_t>(n))) {
        for (std::size_t i = 0; i < n; ++i) order_[i] = pos_[i] = static_cast<int>(i);
    }

    // The positions of the open views. Once propagate() has returned true
    // and until the next domain change, these are the views not fixed.
    template <class Store>
    std::span<const int> views(const Store& s) const noexcept {
        return {order_.data(), static_cast<std::size_t>(s.cell(size_cell_))};
    }
    // The others, all fixed.
    template <class Store>
    std::span<const int> closed(const Store& s) const noexcept {
        const auto open = static_cast<std::size_t>(s.cell(size_cell_));
        return {order_.data() + open, order_.size() - open};
    }

    // Returns false on failure.
    template <class View, class Store>
    bool propagate(std::vector<View>& views, std::vector<int>& pending, Store& s) {
        // Removals can fix more views, whose tags the store appends to
        // `pending` while we loop; the loop ends when nothing new is fixed.
        const View* const vs = views.data();
        while (!pending.empty()) {
            const auto i = static_cast<std::size_t>(pending.back());
            pending.pop_back();
            const int v = vs[i].value(s);
            auto open = static_cast<std::size_t>(s.cell(size_cell_));
            // View i leaves the set first, so the walk below passes it by.
            if (const auto at = static_cast<std::size_t>(pos_[i]); at < open) {
                const int last = order_[--open];
                order_[at] = last;
                pos_[static_cast<std::size_t>(last)] = static_cast<int>(at);
                order_[open] = static_cast<int>(i);
                pos_[i] = static_cast<int>(open);
                s.set_cell(size_cell_, static_cast<std::int64_t>(open));
            }
            if (!remove_from_open(vs, open, v, s)) return false;
        }
        return true;
    }

private:
    // Removes v from the first `open` views of order_. In two passes, 64
    // views at a time: which views hold v, without a branch, then the
    // removals. Whether a view holds v is as good as random, and a branch
    // on it mispredicted often (two passes: a fifth fewer mispredictions in
    // N-queens, 15 % faster).
    template <class View, class Store>
    bool remove_from_open(const View* vs, std::size_t open, int v, Store& s) {
        // Raw pointers (vs too): the compiler cannot tell that a removal's
        // stores leave the vectors' own pointers alone, and would reload
        // them for every view.
        const int* const order = order_.data();
        for (std::size_t first = 0; first < open; first += 64) {
            const std::size_t count = std::min<std::size_t>(64, open - first);
            std::uint64_t holders = 0;
            for (std::size_t k = 0; k < count; ++k)
                holders |= std::uint64_t{vs[static_cast<std::size_t>(order[first + k])].contains(s, v)} << k;
            for (; holders != 0; holders &= holders - 1) {
                const auto k = first + static_cast<std::size_t>(std::countr_zero(holders));
                if (vs[static_cast<std::size_t>(order[k])].remove(s, v) == Change::failed) return false;
            }
        }
        return true;
    }

    std::vector<int> order_; // open views first
    std::vector<int> pos_;   // position of each view in order_
    int size_cell_;
};

// True when two views are over the same variable. Then an update through
// one view also moves the other, after the pass that computed it: the
// bounds and domain stages must repeat until nothing changes instead of
// trusting their one-pass guarantees.
template <class View>
bool shares_variables(const std::vector<View>& views) {
    std::vector<int> vars;
    vars.reserve(views.size());
    for (const View& v : views) vars.push_back(v.var().index());
    std::sort(vars.begin(), vars.end());
    return std::adjacent_find(vars.begin(), vars.end()) != vars.end();
}

// Whether the open views, of the given widths (number of values each may
// still take), could hold a Hall set: w views that together have only w
// values, which needs w views each at most w wide. When no w has that many
// views that narrow, there is no Hall set, so the bounds stage can neither
// prune nor fail, and is skipped. (Domain sizes are too wide a measure for
// the domain stage: tried on N-queens, it skipped too few runs to pay.)
class HallFilter {
public:
    explicit HallFilter(std::size_t n) : count_(n + 2) {}

    // Branch-free, as the tests come out as good as random: a width over
    // `open` counts in a slot no one reads.
    template <class Widths>
    bool may_hold(std::size_t open, Widths&& width_of) {
        std::fill(count_.begin(), count_.begin() + static_cast<std::ptrdiff_t>(open) + 2, 0);
        for (std::size_t k = 0; k < open; ++k) ++count_[std::min<std::uint64_t>(width_of(k), open + 1)];
        std::size_t narrow = 0;
        bool found = false;
        for (std::size_t w = 1; w <= open; ++w) found |= (narrow += count_[w]) >= w;
        return found;
    }

private:
    std::vector<std::size_t> count_; // open views of each width, wider than all in the last
};

template <class Store, class View>
class AllDifferentValue : public PropagatorBase<Store, AllDifferentValue<Store, View>> {
public:
    AllDifferentValue(Store& s, std::vector<View> views) : views_(std::move(views)), open_(s, views_.size()) {}

    PropStatus propagate(Store& s) override {
        return open_.propagate(views_, this->pending(), s) ? PropStatus::fix : PropStatus::failed;
    }

private:
    std::vector<View> views_;
    OpenViews open_;
};

template <class Store, class View>
class AllDifferentBounds : public PropagatorBase<Store, AllDifferentBounds<Store, View>> {
public:
    AllDifferentBounds(Store& s, std::vector<View> views)
        : views_(std::move(views)), open_(s, views_.size()), iv_(views_.size()), minsorted_(views_.size()),
          maxsorted_(views_.size()), open_by_min_(views_.size()), open_by_max_(views_.size()),
          fixed_values_(views_.size()), filter_(views_.size()), bounds_(2 * views_.size() + 2),
          t_(bounds_.size()), d_(bounds_.size()), h_(bounds_.size()), shared_(shares_variables(views_)) {
        for (std::size_t i = 0; i < views_.size(); ++i) minsorted_[i] = maxsorted_[i] = static_cast<int>(i);
        std::int64_t lo = 0, hi = 0;
        for (std::size_t i = 0; i < views_.size(); ++i) {
            lo = i == 0 ? views_[i].lo() : std::min<std::int64_t>(lo, views_[i].lo());
            hi = i == 0 ? views_[i].hi() : std::max<std::int64_t>(hi, views_[i].hi());
        }
        span_lo_ = lo;
        if (hi - lo < 64) {
            span_ = detail::low_mask(static_cast<int>(hi - lo) + 1);
            // At most 64 open views get this far, each a Hall interval's
            // end for each distinct min.
            const std::size_t m = std::min<std::size_t>(views_.size(), 64);
            by_hi_.resize(m);
            hall_.resize(m * m);
        }
    }

    PropStatus propagate(Store& s) override {
        for (;;) {
            if (!open_.propagate(views_, this->pending(), s)) return PropStatus::failed;
            // The Hall pass waits while other propagators are queued, so
            // that it runs once on what all their value stages leave
            // rather than once after each (N = 12: 39 % fewer passes).
            if (s.queued() > 0) return PropStatus::defer;
            bool exact = true, changed = false;
            if (span_ != 0) {
                // One round of Hall intervals, so again whenever it pruned.
                if (!hall_by_words(s, changed)) return PropStatus::failed;
                exact = !changed;
            } else if (!hall_pass(s, exact, changed)) {
                return PropStatus::failed;
            }
            // The sweeps reach bounds consistency in one go; only a new
            // bound landing on a hole, a view becoming fixed, or a change
            // seen through a second view of one variable needs another.
            if ((shared_ ? !changed : exact) && this->pending().empty()) return PropStatus::fix;
        }
    }

private:
    // When every value lies in span_lo_ .. span_lo_ + 63, values are bit
    // positions and the sets of free values are words. After the value
    // stage no open view holds a fixed value, so on the word `slots` of the
    // values not fixed every open view's bounds are slots, and:
    //
    //   For a lower end a, take the open views with min >= a in order of
    //   max, and the slots >= a in increasing order. If the k-th view's
    //   max is below the k-th slot, k views need fewer than k values:
    //   failure. If it equals it, [a, max] is a Hall interval: its slots
    //   are all taken by the views inside it. Both are exact tests, so
    //   trying each distinct min as a finds every Hall interval.
    //
    // Each Hall interval [a, b] moves the bounds of the views that straddle
    // it: a min inside it to the first slot above b, a max inside it to the
    // last slot below a. That is one round; the caller repeats it until it
    // prunes nothing, which is bounds consistency. Each step of a walk is a
    // few word operations without a branch, and a round costs O(m^2) of
    // them for m open views; in N-queens nearly every round prunes nothing,
    // and this is several times cheaper than sorting for the sweeps. The
    // walks wait for HallFilter, on widths counted in slots: it rules out
    // most rounds for a popcount per view (N = 11: 9 % fewer mispredicted
    // branches, 3 % fewer instructions).
    bool hall_by_words(Store& s, bool& changed) {
        const std::span<const int> opened = open_.views(s);
        const std::size_t m = opened.size();
        if (m == 0) return true;
        // More open views than the 64 values of the span: some must share.
        if (m > 64) return false;
        std::uint64_t fixed = 0;
        for (const int i : open_.closed(s))
            fixed |= std::uint64_t{1} << ((views_[static_cast<std::size_t>(i)].min(s) - span_lo_) & 63);
        const std::uint64_t slots = span_ & ~fixed;
        std::uint64_t mins = 0;
        for (std::size_t k = 0; k < m; ++k) {
            const View& x = views_[static_cast<std::size_t>(opened[k])];
            const auto lo = static_cast<unsigned>(x.min(s) - span_lo_), hi = static_cast<unsigned>(x.max(s) - span_lo_);
            by_hi_[k] = {hi, lo, static_cast<unsigned>(k)};
            mins |= std::uint64_t{1} << lo;
        }
        // A view's width is the number of slots between its bounds.
        if (!filter_.may_hold(m, [&](std::size_t k) {
                const Ends& e = by_hi_[k];
                return static_cast<std::uint64_t>(
                    detail::popcount(slots & detail::low_mask(static_cast<int>(e.hi) + 1) & ~detail::low_mask(static_cast<int>(e.lo))));
            }))
            return true;
        insertion_sort(by_hi_.data(), m, [](const Ends& a, const Ends& b) { return a.hi < b.hi; });
        std::size_t halls = 0;
        bool fail = false;
        for (std::uint64_t rest = mins; rest != 0; rest &= rest - 1) {
            const auto a = static_cast<unsigned>(std::countr_zero(rest));
            std::uint64_t free = slots & ~detail::low_mask(static_cast<int>(a));
            for (std::size_t k = 0; k < m; ++k) {
                const Ends& e = by_hi_[k];
                const auto in = static_cast<unsigned>(e.lo >= a);
                const auto slot = static_cast<unsigned>(std::countr_zero(free)); // 64 when none is left
                fail |= (in & static_cast<unsigned>(slot > e.hi)) != 0;
                if ((in & static_cast<unsigned>(slot == e.hi)) != 0) [[unlikely]]
                    hall_[halls++] = {a, e.hi};
                free &= free - in;
            }
        }
        if (fail) return false;
        for (std::size_t h = 0; h < halls; ++h) {
            const auto [a, b] = hall_[h];
            const auto above = static_cast<unsigned>(std::countr_zero(slots & ~detail::low_mask(static_cast<int>(b) + 1)));
            const auto below = static_cast<unsigned>(63 - std::countl_zero(slots & detail::low_mask(static_cast<int>(a))));
            for (std::size_t k = 0; k < m; ++k) {
                Ends& e = by_hi_[k];
                // The new bounds go on the entries; the views are written
                // after all Hall intervals have been applied.
                if (e.lo >= a && e.lo <= b && e.hi > b) e.new_lo = std::max(e.new_lo, above);
                if (e.hi >= a && e.hi <= b && e.lo < a) e.new_hi = std::min(e.new_hi, below);
            }
        }
        if (halls == 0) return true;
        for (std::size_t k = 0; k < m; ++k) {
            Ends& e = by_hi_[k];
            const View& x = views_[static_cast<std::size_t>(opened[e.at])];
            if (e.new_lo > e.lo) {
                if (x.remove_below(s, static_cast<int>(span_lo_ + e.new_lo)) == Change::failed) return false;
                changed = true;
            }
            if (e.new_hi < e.hi) {
                if (x.remove_above(s, static_cast<int>(span_lo_ + e.new_hi)) == Change::failed) return false;
                changed = true;
            }
        }
        return true;
    }

    // An open view's bounds as bit positions, and where its Hall
    // intervals move them.
    struct Ends {
        Ends() = default;
        Ends(unsigned h, unsigned l, unsigned k) : hi(h), lo(l), at(k), new_lo(l), new_hi(h) {}
        unsigned hi = 0, lo = 0;
        unsigned at = 0; // position in the open views
        unsigned new_lo = 0, new_hi = 0;
    };
    struct Hall {
        unsigned a, b;
    };

    struct Interval {
        std::int64_t min, max; // max is exclusive
        std::int64_t min0, max0; // min and max before the sweeps
        int minrank, maxrank;
    };

    static int path_max(const std::vector<int>& a, int i) {
        while (a[static_cast<std::size_t>(i)] > i) i = a[static_cast<std::size_t>(i)];
        return i;
    }
    static int path_min(const std::vector<int>& a, int i) {
        while (a[static_cast<std::size_t>(i)] < i) i = a[static_cast<std::size_t>(i)];
        return i;
    }
    // Points every entry on the path from `from` to `to` directly at `target`.
    static void path_set(std::vector<int>& a, int from, int to, int target) {
        while (from != to) {
            const int next = a[static_cast<std::size_t>(from)];
            a[static_cast<std::size_t>(from)] = target;
            from = next;
        }
    }

    // One lower-bound and one upper-bound sweep. Sets exact = false when a
    // view's new bound differs from the one asked for (a hole was skipped).
    //
    // The sweeps see only the open views, on a value axis with the fixed
    // views' values taken out. The value stage has already removed each of
    // those values from every open view, so a fixed view is a Hall interval
    // of its own that prunes nothing more; taking the values out leaves the
    // open views the same choices, and so the same bounds, at a fraction of
    // the cost deep in the tree, where most views are fixed.
    //
    // On that axis an interval's width is the number of values it offers,
    // so HallFilter applies to the open views' intervals. (In N-queens,
    // where hall_by_words uses it on the same widths, it skips more than
    // half the runs.)
    bool hall_pass(Store& s, bool& exact, bool& changed) {
        std::size_t open = 0, nfixed = 0;
        if (!axis_of_all_views(s, open, nfixed)) return true;
        for (std::size_t k = 0; k < open; ++k) {
            Interval& r = iv(open_by_min_[k]);
            r.min0 = r.min;
            r.max0 = r.max;
        }
        const int nb = rank_bounds(open);
        if (!sweep_up(nb, open)) return false;
        if (!sweep_down(nb, open)) return false;
        for (std::size_t k = 0; k < open; ++k) {
            const View& v = views_[static_cast<std::size_t>(open_by_min_[k])];
            const Interval& r = iv(open_by_min_[k]);
            if (r.min > r.min0) {
                const std::int64_t lo = restore_fixed(r.min, nfixed);
                if (lo > v.min(s)) {
                    if (v.remove_below(s, static_cast<int>(lo)) == Change::failed) return false;
                    exact &= v.min(s) == lo;
                    changed = true;
                }
            }
            if (r.max < r.max0) {
                const std::int64_t hi = restore_fixed(r.max - 1, nfixed);
                if (hi < v.max(s)) {
                    if (v.remove_above(s, static_cast<int>(hi)) == Change::failed) return false;
                    exact &= v.max(s) == hi;
                    changed = true;
                }
            }
        }
        return true;
    }

    // Both axis builders leave the open views' intervals on the axis
    // without the fixed values in iv_, the open views in open_by_min_ and
    // open_by_max_ sorted by those bounds, and the fixed values, ascending,
    // in fixed_values_; they return false, having done less, when the
    // filter rules out a Hall set. The filter comes first, before any
    // sorting: an open view's width on the axis is its interval's length
    // less the fixed values inside it.

    // Any values: every view is read, and kept sorted by its bounds between
    // runs, which also sorts the fixed values.
    bool axis_of_all_views(const Store& s, std::size_t& open, std::size_t& nfixed) {
        const std::size_t n = views_.size();
        for (std::size_t i = 0; i < n; ++i) {
            const std::int64_t lo = views_[i].min(s), hi = std::int64_t{views_[i].max(s)} + 1;
            iv_[i] = {lo, hi, lo, hi, 0, 0};
            // Both written, one kept: no branch on which.
            const bool fixed = hi - lo == 1;
            fixed_values_[nfixed] = lo;
            open_by_max_[open] = static_cast<int>(i); // scratch until the sort below
            nfixed += fixed;
            open += !fixed;
        }
        if (open == 0) return false;
        if (!filter_.may_hold(open, [&](std::size_t k) {
                const Interval& r = iv(open_by_max_[k]);
                std::int64_t width = r.max - r.min;
                for (std::size_t f = 0; f < nfixed; ++f)
                    width -= static_cast<int>(r.min <= fixed_values_[f]) & static_cast<int>(fixed_values_[f] < r.max);
                return static_cast<std::uint64_t>(width);
            }))
            return false;
        // The orders from the previous run are nearly right; insertion sort
        // repairs them in close to linear time.
        insertion_sort(minsorted_.data(), n, [this](int a, int b) { return iv(a).min < iv(b).min; });
        insertion_sort(maxsorted_.data(), n, [this](int a, int b) { return iv(a).max < iv(b).max; });
        // An open view's bounds are not fixed values, so the fixed values
        // below a bound are the fixed views before it in either order.
        open = 0;
        nfixed = 0;
        // Branch-free as above; a fixed view's shifted bounds are never read.
        for (const int i : minsorted_) {
            Interval& r = iv(i);
            const bool fixed = r.max - r.min == 1;
            fixed_values_[nfixed] = r.min;
            r.min -= static_cast<std::int64_t>(nfixed);
            open_by_min_[open] = i;
            nfixed += fixed;
            open += !fixed;
        }
        std::size_t seen = 0;
        open = 0;
        for (const int i : maxsorted_) {
            Interval& r = iv(i);
            const bool fixed = r.max - r.min0 == 1;
            r.max -= static_cast<std::int64_t>(seen);
            open_by_max_[open] = i;
            seen += fixed;
            open += !fixed;
        }
        return true;
    }

    // The value at position x of the axis without the fixed values.
    std::int64_t restore_fixed(std::int64_t x, std::size_t nfixed) const {
        for (std::size_t k = 0; k < nfixed && fixed_values_[k] <= x; ++k) ++x;
        return x;
    }

    Interval& iv(int i) { return iv_[static_cast<std::size_t>(i)]; }

    template <class T, class Less>
    static void insertion_sort(T* a, std::size_t n, Less less) {
        for (std::size_t i = 1; i < n; ++i) {
            const T x = a[i];
            std::size_t j = i;
            for (; j > 0 && less(x, a[j - 1]); --j) a[j] = a[j - 1];
            a[j] = x;
        }
    }

    // Merges the open views' mins and (exclusive) maxes into the sorted,
    // duplicate-free bounds_[1..nb], with sentinels at 0 and nb + 1, and
    // gives each interval the rank of its ends. Returns nb.
    int rank_bounds(std::size_t n) {
        const std::vector<int>& minsorted = open_by_min_;
        const std::vector<int>& maxsorted = open_by_max_;
        std::int64_t min = iv(minsorted[0]).min, max = iv(maxsorted[0]).max;
        std::int64_t last = min - 2;
        int nb = 0;
        bounds_[0] = last;
        std::size_t i = 0, j = 0;
        for (;;) {
            if (i < n && min <= max) {
                if (min != last) bounds_[static_cast<std::size_t>(++nb)] = last = min;
                iv(minsorted[i]).minrank = nb;
                if (++i < n) min = iv(minsorted[i]).min;
            } else {
                if (max != last) bounds_[static_cast<std::size_t>(++nb)] = last = max;
                iv(maxsorted[j]).maxrank = nb;
                if (++j == n) break;
                max = iv(maxsorted[j]).max;
            }
        }
        bounds_[static_cast<std::size_t>(nb) + 1] = bounds_[static_cast<std::size_t>(nb)] + 2;
        return nb;
    }

    // Raises lower bounds past Hall intervals. t_ links each bound to the
    // next one with free capacity (d_), h_ links the members of Hall
    // intervals found so far; both use path compression.
    bool sweep_up(int nb, std::size_t n) {
        for (int i = 1; i <= nb + 1; ++i) {
            const auto k = static_cast<std::size_t>(i);
            t_[k] = h_[k] = i - 1;
            d_[k] = bounds_[k] - bounds_[k - 1];
        }
        for (std::size_t k = 0; k < n; ++k) {
            Interval& r = iv(open_by_max_[k]);
            const int x = r.minrank, y = r.maxrank;
            int z = path_max(t_, x + 1);
            const int j = t_[u(z)];
            if (--d_[u(z)] == 0) {
                t_[u(z)] = z + 1;
                z = path_max(t_, t_[u(z)]);
                t_[u(z)] = j;
            }
            path_set(t_, x + 1, z, z);
            if (d_[u(z)] < bounds_[u(z)] - bounds_[u(y)]) return false;
            if (h_[u(x)] > x) {
                const int w = path_max(h_, h_[u(x)]);
                r.min = bounds_[u(w)];
                path_set(h_, x, w, w);
            }
            if (d_[u(z)] == bounds_[u(z)] - bounds_[u(y)]) {
                path_set(h_, h_[u(y)], j - 1, y);
                h_[u(y)] = j - 1;
            }
        }
        return true;
    }

    // The mirror image of sweep_up: lowers upper bounds.
    bool sweep_down(int nb, std::size_t n) {
        for (int i = 0; i <= nb; ++i) {
            const auto k = static_cast<std::size_t>(i);
            t_[k] = h_[k] = i + 1;
            d_[k] = bounds_[k + 1] - bounds_[k];
        }
        for (std::size_t k = n; k-- > 0;) {
            Interval& r = iv(open_by_min_[k]);
            const int x = r.maxrank, y = r.minrank;
            int z = path_min(t_, x - 1);
            const int j = t_[u(z)];
            if (--d_[u(z)] == 0) {
                t_[u(z)] = z - 1;
                z = path_min(t_, t_[u(z)]);
                t_[u(z)] = j;
            }
            path_set(t_, x - 1, z, z);
            if (d_[u(z)] < bounds_[u(y)] - bounds_[u(z)]) return false;
            if (h_[u(x)] < x) {
                const int w = path_min(h_, h_[u(x)]);
                r.max = bounds_[u(w)];
                path_set(h_, x, w, w);
            }
            if (d_[u(z)] == bounds_[u(y)] - bounds_[u(z)]) {
                path_set(h_, h_[u(y)], j + 1, y);
                h_[u(y)] = j + 1;
            }
        }
        return true;
    }

    static std::size_t u(int i) { return static_cast<std::size_t>(i); }

    std::vector<View> views_;
    OpenViews open_;
    // Scratch space, sized once: no allocation during search.
    std::vector<Interval> iv_;
    std::vector<int> minsorted_, maxsorted_;     // every view, kept between runs
    std::vector<int> open_by_min_, open_by_max_; // the open views, in the same orders
    std::vector<std::int64_t> fixed_values_;     // ascending
    HallFilter filter_;
    std::vector<std::int64_t> bounds_;
    std::vector<int> t_;
    std::vector<std::int64_t> d_;
    std::vector<int> h_;
    bool shared_;
    std::int64_t span_lo_ = 0; // the smallest value any view can take
    // When every value lies within span_lo_ .. span_lo_ + 63: those values
    // as bits, and hall_by_words' scratch. 0 and empty otherwise.
    std::uint64_t span_ = 0;
    std::vector<Ends> by_hi_;
    std::vector<Hall> hall_;
};

template <class Store, class View>
class AllDifferentDomain : public PropagatorBase<Store, AllDifferentDomain<Store, View>> {
public:
    // Values are indexed densely over the union of the views' possible
    // ranges; a wider union would cost memory for values that cannot occur.
    static constexpr std::int64_t max_values = std::int64_t{1} << 22;

    AllDifferentDomain(Store& s, std::vector<View> views)
        : views_(std::move(views)), open_(s, views_.size()), n_(views_.size()), shared_(shares_variables(views_)) {
        std::int64_t lo = 0, hi = -1;
        for (std::size_t i = 0; i < n_; ++i) {
            lo = i == 0 ? views_[i].lo() : std::min<std::int64_t>(lo, views_[i].lo());
            hi = i == 0 ? views_[i].hi() : std::max<std::int64_t>(hi, views_[i].hi());
        }
        if (hi - lo + 1 > max_values)
            throw model_error("domain-consistent all_different over values " + std::to_string(lo) + ".." +
                              std::to_string(hi) + ": that range is wider than " + std::to_string(max_values) +
                              " values");
        lo_ = static_cast<int>(n_ == 0 ? 0 : lo);
        m_ = static_cast<std::size_t>(hi - lo + 1);
        match_.assign(n_, -1);
        owner_.assign(m_, -1);
        from_.assign(m_, 0);
        seen_.assign(m_, 0);
        const std::size_t nodes = m_ + 1;
        open_list_.assign(n_, 0);
        index_.assign(nodes, 0);
        low_.assign(nodes, 0);
        cursor_.assign(nodes, 0);
        comp_.assign(nodes, 0);
        on_stack_.assign(nodes, 0);
        bfs_.reserve(n_);
        unmatched_.resize(n_);
        stack_.assign(nodes, 0);
        calls_.assign(nodes, 0);
        opened_.assign(nodes, 0);
        degree_.assign(m_, 0);
        start_.assign(m_, 0);
        fill_.assign(m_, 0);
        held_.assign(m_, 0);
        holders_.assign(m_, 0);
        local_.assign(n_, 0);
        reach_.assign(std::min(n_, word_views), 0);
        rest_.assign(std::min(n_, word_views), 0);
        dom_.assign(std::min(n_, word_views), 0);
        mine_.assign(std::min(n_, word_views), 0);
    }

    PropStatus propagate(Store& s) override {
        for (;;) {
            if (!open_.propagate(views_, this->pending(), s)) return PropStatus::failed;
            // Régin's stage waits while other propagators are queued, as
            // the bounds stage does.
            if (s.queued() > 0) return PropStatus::defer;
            if (!repair_matching(s)) return PropStatus::failed;
            bool removed = false;
            if (!prune_unsupported(s, removed)) return PropStatus::failed;
            if (!removed || !shared_) break;
        }
        // What remains is domain consistent, hence also value consistent:
        // the tags of views fixed by the pruning need no further work.
        this->pending().clear();
        return PropStatus::fix;
    }

private:
    // Calls f(value index) for each value of view x while f returns true.
    template <class F>
    bool each_value(const Store& s, const View& x, F&& f) const {
        const int last = x.max(s);
        for (int v = x.min(s);; v = x.next(s, v)) {
            if (!f(static_cast<std::size_t>(v - lo_))) return false;
            if (v == last) return true;
        }
    }

    // The matching is kept between runs and not trailed: backtracking only
    // gives values back to domains, so a matching valid deeper in the tree
    // is still valid above it. Each run drops the edges whose value left its
    // domain and re-matches those views by augmenting paths.
    bool repair_matching(const Store& s) {
        std::size_t unmatched = 0;
        for (std::size_t i = 0; i < n_; ++i) {
            const int j = match_[i];
            if (j < 0 || !views_[i].contains(s, lo_ + j)) {
                if (j >= 0) {
                    owner_[static_cast<std::size_t>(j)] = -1;
                    match_[i] = -1;
                }
                unmatched_[unmatched++] = static_cast<int>(i);
            }
        }
        for (std::size_t k = 0; k < unmatched; ++k)
            if (!augment(s, unmatched_[k])) return false;
        return true;
    }

    // Breadth-first search for an alternating path from view `start` to a
    // free value; flips it so `start` is matched. False if there is none,
    // which means fewer values than views: failure.
    bool augment(const Store& s, int start) {
        ++stamp_;
        bfs_.clear();
        bfs_.push_back(start);
        for (std::size_t head = 0; head < bfs_.size(); ++head) {
            const int x = bfs_[head];
            int free_value = -1;
            each_value(s, views_[static_cast<std::size_t>(x)], [&](std::size_t j) {
                if (seen_[j] == stamp_) return true;
                seen_[j] = stamp_;
                from_[j] = x;
                if (owner_[j] < 0) {
                    free_value = static_cast<int>(j);
                    return false;
                }
                bfs_.push_back(owner_[j]);
                return true;
            });
            if (free_value < 0) continue;
            for (int j = free_value;;) {
                const int y = from_[static_cast<std::size_t>(j)];
                const int previous = match_[static_cast<std::size_t>(y)];
                match_[static_cast<std::size_t>(y)] = j;
                owner_[static_cast<std::size_t>(j)] = y;
                if (y == start) return true;
                j = previous;
            }
        }
        return false;
    }

    // Régin's residual graph has a node per view and per value: a view
    // points to its matched value, a value to every other view whose domain
    // holds it. A view has no other way out than its matched value, so the
    // walk here skips view nodes: value j points straight to the matched
    // value of each view that holds j. A view then shares the component of
    // its matched value, and its edge to j survives exactly when j is in
    // that component too. A sink, node m, completes the graph: every matched
    // value points to it and it points to every free value some view holds,
    // which puts each even alternating path from a free value on a cycle,
    // so one SCC test covers both kinds of edges Régin keeps.
    //
    // Fixed views are left out. The value stage has already removed a fixed
    // view's value from every other view, so the view and its value are
    // components of their own whose only edge is the matched one, which
    // stays: walking them would only cost time, and deep in the tree most
    // views are fixed.
    //
    // The edges are gathered once per run into one array (to_[start_[j] ..
    // start_[j] + degree_[j]) for value j): asking each view whether it
    // holds each value would cost n*m membership tests per run, this costs
    // one walk over the domains. Only values some open view holds are
    // touched, and the next run clears only those, so a run costs nothing
    // for the many values of the range no open view holds any more.
    void gather_edges(const Store& s) {
        held_count_ = 0;
        for_each_open_edge(s, [&](std::size_t j, int) {
            if (degree_[j]++ == 0) held_[held_count_++] = static_cast<int>(j);
        });
        std::size_t at = 0;
        for (std::size_t k = 0; k < held_count_; ++k) {
            const auto j = static_cast<std::size_t>(held_[k]);
            start_[j] = fill_[j] = at;
            at += degree_[j];
        }
        // Domains only shrink below the level the propagator was posted at,
        // so after the first runs this never grows.
        if (to_.size() < at) to_.resize(at);
        for_each_open_edge(s, [&](std::size_t j, int target) { to_[fill_[j]++] = target; });
    }

    // f(value, matched value of the view) for each unmatched edge of an
    // open view.
    template <class F>
    void for_each_open_edge(const Store& s, F&& f) const {
        for (std::size_t k = 0; k < open_count_; ++k) {
            const auto y = static_cast<std::size_t>(open_list_[k]);
            const int mine = match_[y];
            views_[y].for_each(s, [&](int v) {
                const auto j = static_cast<std::size_t>(v - lo_);
                if (static_cast<int>(j) != mine) f(j, mine);
            });
        }
    }

    // The next successor of node u not yet visited by Tarjan's walk, or -1.
    int successor(std::size_t u) {
        const std::size_t k = cursor_[u]++;
        if (u < m_) {
            if (k < degree_[u]) return to_[start_[u] + k];
            return k == degree_[u] && owner_[u] >= 0 ? static_cast<int>(m_) : -1;
        }
        for (std::size_t h = k; h < held_count_; h = cursor_[u]++) {
            const auto j = static_cast<std::size_t>(held_[h]);
            if (owner_[j] < 0) return static_cast<int>(j);
        }
        return -1;
    }

    // Tarjan's algorithm with an explicit call stack (no recursion, so no
    // limit on the number of views). Both stacks hold each node at most
    // once, so they are plain arrays sized once.
    void components(const Store& s) {
        gather_edges(s);
        for (std::size_t k = 0; k < opened_count_; ++k) {
            const auto u = static_cast<std::size_t>(opened_[k]);
            index_[u] = 0;
            cursor_[u] = 0;
        }
        opened_count_ = 0;
        int counter = 0, ncomp = 0;
        std::size_t stack_top = 0, calls_top = 0;
        auto open = [&](std::size_t u) {
            opened_[opened_count_++] = static_cast<int>(u);
            index_[u] = low_[u] = ++counter;
            stack_[stack_top++] = static_cast<int>(u);
            on_stack_[u] = 1;
            calls_[calls_top++] = static_cast<int>(u);
        };
        // Every value an open view holds is its matched value or reached
        // from it, or free and reached from the sink: roots enough.
        for (std::size_t k = 0; k <= open_count_; ++k) {
            const std::size_t r =
                k < open_count_ ? static_cast<std::size_t>(match_[static_cast<std::size_t>(open_list_[k])]) : m_;
            if (index_[r] != 0) continue;
            open(r);
            while (calls_top > 0) {
                const auto u = static_cast<std::size_t>(calls_[calls_top - 1]);
                const int w = successor(u);
                if (w >= 0) {
                    const auto wu = static_cast<std::size_t>(w);
                    if (index_[wu] == 0)
                        open(wu);
                    else if (on_stack_[wu])
                        low_[u] = std::min(low_[u], index_[wu]);
                    continue;
                }
                if (--calls_top > 0) {
                    const auto parent = static_cast<std::size_t>(calls_[calls_top - 1]);
                    low_[parent] = std::min(low_[parent], low_[u]);
                }
                if (low_[u] == index_[u]) {
                    for (;;) {
                        const auto t = static_cast<std::size_t>(stack_[--stack_top]);
                        on_stack_[t] = 0;
                        comp_[t] = ncomp;
                        if (t == u) break;
                    }
                    ++ncomp;
                }
            }
        }
        for (std::size_t k = 0; k < held_count_; ++k) degree_[static_cast<std::size_t>(held_[k])] = 0;
    }

    // Up to 64 open views, reachability in Régin's graph fits in one word
    // per view and a bitwise transitive closure finds it with a few hundred
    // word operations and hardly a branch: well below what Tarjan's walk
    // costs on graphs that small. Views are numbered 0..k-1 in open_list_
    // order here. View a reaches view b when b can take a's matched value
    // (so a could move on); then an unmatched edge (a, j) lies on an
    // alternating cycle when a reaches j's owner, and on an even
    // alternating path from a free value when j's owner is reached from a
    // view that holds a free value (or holds one itself). j free: the edge
    // can always replace a's matched one.
    static constexpr std::size_t word_views = 64;

    void reach_by_words(const Store& s) {
        const std::size_t k = open_count_;
        held_count_ = 0;
        for (std::size_t a = 0; a < k; ++a) {
            const auto y = static_cast<std::size_t>(open_list_[a]);
            local_[y] = static_cast<int>(a);
            views_[y].for_each(s, [&](int v) {
                const auto j = static_cast<std::size_t>(v - lo_);
                if (holders_[j] == 0) held_[held_count_++] = static_cast<int>(j);
                holders_[j] |= std::uint64_t{1} << a;
            });
        }
        for (std::size_t a = 0; a < k; ++a) {
            const auto mine = static_cast<std::size_t>(match_[static_cast<std::size_t>(open_list_[a])]);
            reach_[a] = holders_[mine] & ~(std::uint64_t{1} << a);
        }
        std::uint64_t free_holders = 0;
        for (std::size_t h = 0; h < held_count_; ++h) {
            const auto j = static_cast<std::size_t>(held_[h]);
            if (owner_[j] < 0) free_holders |= holders_[j];
            holders_[j] = 0;
        }
        close_reach(free_holders);
    }

    // When the values fit in one word too, each open view's domain is one
    // word (bit j for value index j), and so is the set of values it may
    // keep: its matched value, the free values, and the matched values of
    // the views it reaches or that a free value's holders reach. Then
    // nothing is done value by value except the removals themselves.
    bool prune_by_masks(Store& s, bool& removed) {
        const std::size_t k = open_count_;
        std::uint64_t held = 0, matched = 0;
        for (std::size_t a = 0; a < k; ++a) {
            const auto y = static_cast<std::size_t>(open_list_[a]);
            dom_[a] = views_[y].bits(s, lo_);
            mine_[a] = std::uint64_t{1} << match_[y];
            held |= dom_[a];
            matched |= mine_[a];
        }
        const std::uint64_t free_values = held & ~matched;
        // The views that free values reach, found in rounds: first their
        // holders, then the holders of those views' matched values, and so
        // on. A view keeps the matched values of all these, and of the
        // views it reaches itself.
        std::uint64_t reached = 0, from_free = 0;
        for (;;) {
            std::uint64_t next = 0;
            for (std::size_t a = 0; a < k; ++a)
                next |= static_cast<std::uint64_t>((dom_[a] & (free_values | from_free)) != 0) << a;
            if (next == reached) break;
            reached = next;
            for (std::size_t a = 0; a < k; ++a) from_free |= mine_[a] & (std::uint64_t{0} - ((reached >> a) & 1U));
        }
        // What free values reach, a reached view reaches no further, and a
        // path to an unreached view never passes through a reached one: so
        // only the unreached views need the closure, and in N-queens, with
        // values to spare, those are few (N = 11: 331.8M to 303.0M
        // instructions in all).
        //
        // reach_[a] holds the matched values of the views a reaches, not
        // the views: a view is named by its matched value, so the closure
        // works as well on those, and the values a view keeps are then a
        // few ORs instead of a gather over the views it reaches (N = 11:
        // 380M to 331M instructions in all). Branch-free, k * k word tests:
        // scattering each domain's few values instead takes fewer
        // instructions but mispredicts (N = 10, domain: 7 % fewer
        // instructions, a fifth more mispredictions, slower).
        std::size_t r = 0;
        for (std::size_t a = 0; a < k; ++a) {
            rest_[r] = static_cast<int>(a);
            r += ((reached >> a) & 1U) ^ 1U;
            reach_[a] = 0;
        }
        for (std::size_t i = 0; i < r; ++i) {
            const auto a = static_cast<std::size_t>(rest_[i]);
            std::uint64_t takers = 0;
            for (std::size_t j = 0; j < r; ++j) {
                const auto b = static_cast<std::size_t>(rest_[j]);
                takers |= mine_[b] & (std::uint64_t{0} - ((dom_[b] & mine_[a]) != 0));
            }
            reach_[a] = takers;
        }
        for (std::size_t i = 0; i < r; ++i) {
            const auto z = static_cast<std::size_t>(rest_[i]);
            for (std::size_t j = 0; j < r; ++j) {
                const auto a = static_cast<std::size_t>(rest_[j]);
                reach_[a] |= reach_[z] & (std::uint64_t{0} - ((reach_[a] & mine_[z]) != 0));
            }
        }
        for (std::size_t a = 0; a < k; ++a) {
            const std::uint64_t keep = mine_[a] | free_values | reach_[a] | from_free;
            const View& x = views_[static_cast<std::size_t>(open_list_[a])];
            for (std::uint64_t doomed = dom_[a] & ~keep; doomed != 0; doomed &= doomed - 1) {
                if (x.remove(s, lo_ + std::countr_zero(doomed)) == Change::failed) return false;
                removed = true;
            }
        }
        return true;
    }

    // Warshall's closure of reach_ over the open views, then what the
    // holders of free values reach, themselves included.
    void close_reach(std::uint64_t free_holders) {
        const std::size_t k = open_count_;
        // Branch-free: whether a reaches z is as good as random to a
        // branch predictor.
        for (std::size_t z = 0; z < k; ++z)
            for (std::size_t a = 0; a < k; ++a) reach_[a] |= reach_[z] & (std::uint64_t{0} - ((reach_[a] >> z) & 1U));
        free_reach_ = free_holders;
        for (std::uint64_t rest = free_holders; rest != 0; rest &= rest - 1)
            free_reach_ |= reach_[static_cast<std::size_t>(std::countr_zero(rest))];
    }

    // Finds the open views, works out which edges Régin keeps (in words or
    // by SCCs, by size), and removes the others.
    bool prune_unsupported(Store& s, bool& removed) {
        // Right after the value stage, its open views are the unfixed ones.
        const std::span<const int> open = open_.views(s);
        std::copy(open.begin(), open.end(), open_list_.begin());
        open_count_ = open.size();
        if (open_count_ <= word_views && m_ <= word_views) return prune_by_masks(s, removed);
        if (open_count_ <= word_views) {
            reach_by_words(s);
            return prune(s, removed, [this](std::size_t a, std::size_t j) {
                const int owner = owner_[j];
                if (owner < 0) return true;
                const auto b = static_cast<std::size_t>(local_[static_cast<std::size_t>(owner)]);
                return (((reach_[a] | free_reach_) >> b) & 1U) != 0;
            });
        }
        components(s);
        return prune(s, removed, [this](std::size_t a, std::size_t j) {
            const auto mine = static_cast<std::size_t>(match_[static_cast<std::size_t>(open_list_[a])]);
            return comp_[j] == comp_[mine];
        });
    }

    // Removes every unmatched edge (a, j) of the a-th open view that
    // keep(a, j) refuses; `removed` says whether there were any. The
    // matched edge stays, so a view only empties through another view of
    // its variable: then false (failure).
    template <class Keep>
    bool prune(Store& s, bool& removed, Keep keep) {
        for (std::size_t a = 0; a < open_count_; ++a) {
            const auto y = static_cast<std::size_t>(open_list_[a]);
            const View& x = views_[y];
            const int mine = match_[y];
            bool ok = true;
            x.for_each(s, [&](int v) {
                const auto j = static_cast<std::size_t>(v - lo_);
                if (ok && static_cast<int>(j) != mine && !keep(a, j)) {
                    ok = x.remove(s, v) != Change::failed;
                    removed = true;
                }
            });
            if (!ok) return false;
        }
        return true;
    }

    std::vector<View> views_;
    OpenViews open_;
    std::size_t n_;
    bool shared_;
    int lo_ = 0;         // the value with index 0
    std::size_t m_ = 0;  // number of value indices
    std::vector<int> match_;  // view -> value index, or -1
    std::vector<int> owner_;  // value index -> view, or -1
    // Scratch space, sized once: no allocation during search.
    std::vector<int> from_;
    std::vector<std::uint64_t> seen_;
    std::uint64_t stamp_ = 0;
    std::vector<int> bfs_;
    std::vector<int> unmatched_; // views repair_matching must match again
    std::vector<int> index_, low_, comp_;
    std::vector<std::size_t> cursor_;
    std::vector<std::uint8_t> on_stack_;
    std::vector<int> stack_, calls_;
    std::vector<std::size_t> degree_, start_, fill_;
    std::vector<int> to_;
    std::vector<int> held_; // values some open view holds, in the order first met
    std::size_t held_count_ = 0;
    std::vector<int> opened_; // nodes the last walk visited
    std::size_t opened_count_ = 0;
    // reach_by_words: the open views holding each value, each open view's
    // number in open_list_, and what each reaches.
    std::vector<std::uint64_t> holders_;
    std::vector<int> local_;
    std::vector<std::uint64_t> reach_;
    std::uint64_t free_reach_ = 0;
    // prune_by_masks: each open view's domain and matched value, as bits.
    std::vector<std::uint64_t> dom_, mine_;
    std::vector<int> rest_; // the open views that free values do not reach
    std::vector<int> open_list_; // views not fixed at this run
    std::size_t open_count_ = 0;
};

} // namespace detail

// The constraint as the user writes it: all_different(views, strength).
// Posting creates the propagator for that strength and view type.
template <class View>
struct AllDifferent {
    std::vector<View> views;
    Consistency strength = Consistency::bounds;

    template <class Store>
    int post(Store& s) const {
        for (const View& v : views) s.check(v.var());
        std::unique_ptr<Propagator<Store>> p;
        switch (strength) {
        case Consistency::value: p = std::make_unique<detail::AllDifferentValue<Store, View>>(s, views); break;
        case Consistency::bounds: p = std::make_unique<detail::AllDifferentBounds<Store, View>>(s, views); break;
        case Consistency::domain: p = std::make_unique<detail::AllDifferentDomain<Store, View>>(s, views); break;
        }
        // Views already fixed count as newly fixed for the first run.
        for (std::size_t i = 0; i < views.size(); ++i)
            if (views[i].fixed(s)) p->pending().push_back(static_cast<int>(i));
        const int id = s.add_propagator(std::move(p));
        for (std::size_t i = 0; i < views.size(); ++i) {
            s.subscribe(views[i].var(), id, Event::fixed, static_cast<int>(i));
            if (strength == Consistency::bounds) s.subscribe(views[i].var(), id, Event::bounds);
            if (strength == Consistency::domain) s.subscribe(views[i].var(), id, Event::domain);
        }
        return id;
    }
};

template <std::ranges::input_range R>
AllDifferent<std::ranges::range_value_t<R>> all_different(const R& views, Consistency strength = bounds) {
    return {std::vector<std::ranges::range_value_t<R>>(std::ranges::begin(views), std::ranges::end(views)),
            strength};
}

} // namespace propane

#endif
