#ifndef PROPANE_CONSTRAINTS_ALL_DIFFERENT_BOUNDS_HPP
#define PROPANE_CONSTRAINTS_ALL_DIFFERENT_BOUNDS_HPP

// AllDifferent at bounds strength: the value stage, then Hall intervals on
// the views' bounds (../all_different.hpp describes the strengths).

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "early_hall.hpp"
#include "greedy_hall.hpp"
#include "value.hpp"
#include "../../engine/propagator.hpp"
#include "../../engine/view.hpp"

namespace propane::detail {

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
class AllDifferentBounds : public PropagatorBase<Store, AllDifferentBounds<Store, View>> {
public:
    AllDifferentBounds(Store& s, std::vector<View> views)
        : views_(kept(views)), open_(s, views_.size()), iv_(views_.size()), by_min_(views_.size()),
          by_max_(views_.size()), mark_(views_.size(), 0), fixed_values_(views_.size()), filter_(views_.size()),
          greedy1_(views_.size()), greedy2_(views_.size()),
          bounds_(2 * views_.size() + 2), t_(bounds_.size()), d_(bounds_.size()), h_(bounds_.size()),
          shared_(shares_variables(views)) {
        std::int64_t lo = 0, hi = 0;
        for (std::size_t i = 0; i < views_.size(); ++i) {
            lo = i == 0 ? views[i].lo() : std::min<std::int64_t>(lo, views[i].lo());
            hi = i == 0 ? views[i].hi() : std::max<std::int64_t>(hi, views[i].hi());
        }
        span_lo_ = lo;
        span_values_ = hi - lo + 1;
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
            const std::size_t fixed = this->pending().size(); // a tag per view fixed
            if (!open_.propagate(views_, this->pending(), s)) return PropStatus::failed;
            // While other propagators are queued, the Hall pass runs now
            // or waits for them, as early_ has learnt pays (early_hall.hpp).
            const bool early = s.queued() > 0;
            if (early && !early_.wanted(fixed, s.search_starts())) return PropStatus::defer;
            bool exact = true, changed = false;
            bool ok;
            if (span_ != 0) {
                // One round of Hall intervals, so again whenever it pruned.
                ok = hall_by_words(s, changed);
                exact = !changed;
            } else {
                ok = hall_pass(s, exact, changed);
            }
            if (early) early_.record(fixed, !ok || changed);
            if (!ok) return PropStatus::failed;
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
            const auto& x = views_[static_cast<std::size_t>(opened[k])];
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
            const auto& x = views_[static_cast<std::size_t>(opened[e.at])];
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
        std::int64_t min, max;   // max is exclusive
        std::int64_t min0, max0; // min and max before the sweeps
        int minrank, maxrank;
    };

    // Raw pointers in the sweeps: through a vector, each store to one
    // array makes the compiler load the others' addresses again.
    static int path_max(const int* a, int i) {
        while (a[i] > i) i = a[i];
        return i;
    }
    static int path_min(const int* a, int i) {
        while (a[i] < i) i = a[i];
        return i;
    }
    // Points every entry on the path from `from` to `to` directly at `target`.
    static void path_set(int* a, int from, int to, int target) {
        while (from != to) {
            const int next = a[from];
            a[from] = target;
            from = next;
        }
    }

    // One lower-bound and one upper-bound sweep over the open views, in
    // O(m log m) for m open views whatever the values. Sets exact = false
    // when a view's new bound differs from the one asked for (a hole was
    // skipped).
    //
    // The sweeps see only the open views, on a value axis with the fixed
    // views' values taken out. The value stage has already removed each of
    // those values from every open view, so a fixed view is a Hall interval
    // of its own that prunes nothing more; taking the values out leaves the
    // open views the same choices, and so the same bounds, at a fraction of
    // the cost deep in the tree, where most views are fixed. Only the fixed
    // values inside the open views' hull move anything on that axis, and in
    // a dive that fixes views in order of value there are none.
    bool hall_pass(Store& s, bool& exact, bool& changed) {
        const std::span<const int> opened = open_.views(s);
        const std::size_t m = opened.size();
        if (m == 0) return true;
        // When all the values the views can ever take fit two words, the
        // sweeps run on them as they are: no hull to find, no early exits
        // to test, which cost more than they saved (Golomb 10: 1 % fewer
        // instructions in all, 3 % less time at N = 11).
        if (span_values_ <= 128) {
            std::size_t nfixed = 0;
            for (const int i : open_.closed(s)) fixed_values_[nfixed++] = views_[u(i)].min(s);
            return greedy_pass(greedy2_, s, opened, span_lo_, span_lo_ + span_values_, nfixed, exact, changed);
        }
        std::int64_t lo = views_[u(opened[0])].min(s), hi = std::int64_t{views_[u(opened[0])].max(s)} + 1;
        const std::int64_t lo0 = lo, hi0 = hi;
        bool same = true;
        for (const int i : opened) {
            const auto& x = views_[u(i)];
            const std::int64_t a = x.min(s), b = std::int64_t{x.max(s)} + 1;
            iv_[u(i)] = {a, b, 0, 0, 0, 0};
            lo = std::min(lo, a);
            hi = std::max(hi, b);
            same &= (a == lo0) & (b == hi0);
        }
        std::size_t nfixed = 0;
        for (const int i : open_.closed(s)) {
            const std::int64_t v = views_[u(i)].min(s);
            fixed_values_[nfixed] = v;
            nfixed += static_cast<std::size_t>((lo <= v) & (v < hi));
        }
        // The open views draw on the hull's values less the fixed ones.
        if (static_cast<std::int64_t>(m) > hi - lo - static_cast<std::int64_t>(nfixed)) return false;
        // Then, when every open view spans the whole hull, no view
        // straddles a Hall interval and nothing can move: the commonest
        // case in a dive, decided without sorting.
        if (same) return true;
        // A hull of up to 128 values fits a word or two: the same sweeps on
        // sets of values, with no sorting, ranking or axis to build (Golomb
        // 9: 10 K instructions a pass down to about 4 K).
        if (hi - lo <= 64) return greedy_pass(greedy1_, s, opened, lo, hi, nfixed, exact, changed);
        if (hi - lo <= 128) return greedy_pass(greedy2_, s, opened, lo, hi, nfixed, exact, changed);
        std::sort(fixed_values_.begin(), fixed_values_.begin() + static_cast<std::ptrdiff_t>(nfixed));
        sort_open(s, opened);
        // The axis without the fixed values: each bound less the fixed
        // values below it.
        std::size_t below = 0;
        for (std::size_t k = 0; k < m; ++k) {
            Interval& r = iv(by_min_[k]);
            while (below < nfixed && fixed_values_[below] < r.min) ++below;
            r.min0 = r.min -= static_cast<std::int64_t>(below);
        }
        below = 0;
        for (std::size_t k = 0; k < m; ++k) {
            Interval& r = iv(by_max_[k]);
            while (below < nfixed && fixed_values_[below] < r.max) ++below;
            r.max0 = r.max -= static_cast<std::int64_t>(below);
        }
        // On that axis an interval's width is the number of values it
        // offers, which is what HallFilter needs.
        if (!filter_.may_hold(m, [&](std::size_t k) {
                const Interval& r = iv(by_min_[k]);
                return static_cast<std::uint64_t>(r.max - r.min);
            }))
            return true;
        const int nb = rank_bounds(m);
        if (!sweep_up(nb, m)) return false;
        if (!sweep_down(nb, m)) return false;
        for (std::size_t k = 0; k < m; ++k) {
            const auto& v = views_[u(by_min_[k])];
            const Interval& r = iv(by_min_[k]);
            if (r.min > r.min0) {
                const std::int64_t a = restore_fixed(r.min, nfixed);
                if (a > v.min(s)) {
                    if (v.remove_below(s, static_cast<int>(a)) == Change::failed) return false;
                    exact &= v.min(s) == a;
                    changed = true;
                }
            }
            if (r.max < r.max0) {
                const std::int64_t b = restore_fixed(r.max - 1, nfixed);
                if (b < v.max(s)) {
                    if (v.remove_above(s, static_cast<int>(b)) == Change::failed) return false;
                    exact &= v.max(s) == b;
                    changed = true;
                }
            }
        }
        return true;
    }

    // hall_pass over values lo .. hi - 1, at most 64 * W of them, that hold
    // every open view and the fixed values fixed_values_[0 .. nfixed), by
    // GreedyHall.
    template <std::size_t W>
    bool greedy_pass(GreedyHall<W>& greedy, Store& s, std::span<const int> opened, std::int64_t lo, std::int64_t hi,
                     std::size_t nfixed, bool& exact, bool& changed) {
        typename GreedyHall<W>::Set fixed;
        for (std::size_t k = 0; k < nfixed; ++k) fixed.add(static_cast<unsigned>(fixed_values_[k] - lo));
        greedy.fill(opened.size(), [&](std::size_t k) {
            const auto& x = views_[u(opened[k])];
            return std::pair{static_cast<unsigned>(x.min(s) - lo), static_cast<unsigned>(x.max(s) - lo)};
        });
        bool moved = false;
        if (!greedy.run(fixed, GreedyHall<W>::Set::below(static_cast<unsigned>(hi - lo)), moved)) return false;
        if (!moved) return true;
        // Each view that moves, in one update for both its ends.
        for (std::size_t k = 0; k < opened.size(); ++k) {
            const bool up = greedy.new_lo(k) > greedy.lo(k), down = greedy.new_hi(k) < greedy.hi(k);
            if (!up && !down) continue;
            const auto& v = views_[u(opened[k])];
            const auto a = static_cast<int>(lo + greedy.new_lo(k)), b = static_cast<int>(lo + greedy.new_hi(k));
            if (keep_between(v, s, a, b) == Change::failed) return false;
            exact &= (static_cast<unsigned>(v.min(s) == a) & static_cast<unsigned>(v.max(s) == b)) != 0;
            changed = true;
        }
        return true;
    }

    // Leaves the open views in by_min_ and by_max_, sorted by the bounds in
    // iv_. Both keep their order from the last sort: the views that closed
    // since drop out, those that opened again (after backtracking) are
    // appended, and an insertion sort repairs the rest, in close to linear
    // time when few bounds moved past others (as Gecode does).
    void sort_open(const Store& s, std::span<const int> opened) {
        ++stamp_;
        std::size_t kept = 0;
        for (std::size_t k = 0; k < sorted_; ++k) {
            const int i = by_min_[k];
            by_min_[kept] = i;
            mark_[u(i)] = stamp_;
            kept += open_.is_open(s, i);
        }
        std::size_t kept_max = 0;
        for (std::size_t k = 0; k < sorted_; ++k) {
            const int i = by_max_[k];
            by_max_[kept_max] = i;
            kept_max += open_.is_open(s, i);
        }
        for (const int i : opened)
            if (mark_[u(i)] != stamp_) {
                by_min_[kept] = by_max_[kept] = i;
                ++kept;
            }
        sorted_ = kept;
        sort_nearly_sorted(by_min_.data(), kept, [this](int a, int b) { return iv(a).min < iv(b).min; });
        sort_nearly_sorted(by_max_.data(), kept, [this](int a, int b) { return iv(a).max < iv(b).max; });
    }

    // Insertion sort while it moves few entries, std::sort once it has
    // moved more than a few per entry: O(n) on a nearly sorted array, never
    // worse than O(n log n).
    template <class Less>
    static void sort_nearly_sorted(int* a, std::size_t n, Less less) {
        const std::size_t budget = 4 * n + 64;
        std::size_t moves = 0;
        for (std::size_t i = 1; i < n; ++i) {
            const int x = a[i];
            std::size_t j = i;
            for (; j > 0 && less(x, a[j - 1]); --j) a[j] = a[j - 1];
            a[j] = x;
            moves += i - j;
            if (moves > budget) {
                std::sort(a, a + n, less);
                return;
            }
        }
    }

    // The value at position x of the axis without the fixed values: x plus
    // the number of fixed values at or below the answer. fixed_values_[k] - k
    // grows with k (the values are distinct), so that number is a binary
    // search away.
    std::int64_t restore_fixed(std::int64_t x, std::size_t nfixed) const {
        std::size_t lo = 0, hi = nfixed;
        while (lo < hi) {
            const std::size_t mid = lo + (hi - lo) / 2;
            if (fixed_values_[mid] - static_cast<std::int64_t>(mid) <= x)
                lo = mid + 1;
            else
                hi = mid;
        }
        return x + static_cast<std::int64_t>(lo);
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
        const std::vector<int>& minsorted = by_min_;
        const std::vector<int>& maxsorted = by_max_;
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

    // Raises lower bounds past Hall intervals. t links each bound to the
    // next one with free capacity (d), h links the members of Hall
    // intervals found so far; both use path compression.
    bool sweep_up(int nb, std::size_t n) {
        int* const t = t_.data();
        int* const h = h_.data();
        std::int64_t* const d = d_.data();
        const std::int64_t* const bounds = bounds_.data();
        for (int i = 1; i <= nb + 1; ++i) {
            t[i] = h[i] = i - 1;
            d[i] = bounds[i] - bounds[i - 1];
        }
        for (std::size_t k = 0; k < n; ++k) {
            Interval& r = iv(by_max_[k]);
            const int x = r.minrank, y = r.maxrank;
            int z = path_max(t, x + 1);
            const int j = t[z];
            if (--d[z] == 0) {
                t[z] = z + 1;
                z = path_max(t, t[z]);
                t[z] = j;
            }
            path_set(t, x + 1, z, z);
            if (d[z] < bounds[z] - bounds[y]) return false;
            if (h[x] > x) {
                const int w = path_max(h, h[x]);
                r.min = bounds[w];
                path_set(h, x, w, w);
            }
            if (d[z] == bounds[z] - bounds[y]) {
                path_set(h, h[y], j - 1, y);
                h[y] = j - 1;
            }
        }
        return true;
    }

    // The mirror image of sweep_up: lowers upper bounds.
    bool sweep_down(int nb, std::size_t n) {
        int* const t = t_.data();
        int* const h = h_.data();
        std::int64_t* const d = d_.data();
        const std::int64_t* const bounds = bounds_.data();
        for (int i = 0; i <= nb; ++i) {
            t[i] = h[i] = i + 1;
            d[i] = bounds[i + 1] - bounds[i];
        }
        for (std::size_t k = n; k-- > 0;) {
            Interval& r = iv(by_min_[k]);
            const int x = r.maxrank, y = r.minrank;
            int z = path_min(t, x - 1);
            const int j = t[z];
            if (--d[z] == 0) {
                t[z] = z - 1;
                z = path_min(t, t[z]);
                t[z] = j;
            }
            path_set(t, x - 1, z, z);
            if (d[z] < bounds[y] - bounds[z]) return false;
            if (h[x] < x) {
                const int w = path_min(h, h[x]);
                r.max = bounds[w];
                path_set(h, x, w, w);
            }
            if (d[z] == bounds[y] - bounds[z]) {
                path_set(h, h[y], j + 1, y);
                h[y] = j + 1;
            }
        }
        return true;
    }

    static std::size_t u(int i) { return static_cast<std::size_t>(i); }

    std::vector<kept_t<View>> views_; // as a propagator keeps them: an IntVar by its index
    OpenViews open_;
    // Scratch space, sized once: no allocation during search.
    std::vector<Interval> iv_;
    // The open views of the last sort, the first sorted_ of each, by min
    // and by max; mark_ is sort_open's scratch.
    std::vector<int> by_min_, by_max_;
    std::size_t sorted_ = 0;
    std::vector<std::uint64_t> mark_;
    std::uint64_t stamp_ = 0;
    std::vector<std::int64_t> fixed_values_; // in the open views' hull; ascending for the sweeps
    HallFilter filter_;
    GreedyHall<1> greedy1_;
    GreedyHall<2> greedy2_;
    std::vector<std::int64_t> bounds_;
    std::vector<int> t_;
    std::vector<std::int64_t> d_;
    std::vector<int> h_;
    bool shared_;
    EarlyHall early_;
    std::int64_t span_lo_ = 0; // the smallest value any view can take
    std::int64_t span_values_ = 0; // span_lo_ .. the greatest, counted
    // When every value lies within span_lo_ .. span_lo_ + 63: those values
    // as bits, and hall_by_words' scratch. 0 and empty otherwise.
    std::uint64_t span_ = 0;
    std::vector<Ends> by_hi_;
    std::vector<Hall> hall_;
};

} // namespace propane::detail

#endif
