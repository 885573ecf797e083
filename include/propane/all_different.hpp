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
//
// Both are templates over the view type, so x, x + c and a*x + b share one
// implementation with the view arithmetic inlined.

#include <algorithm>
#include <cstdint>
#include <memory>
#include <ranges>
#include <vector>

#include "error.hpp"
#include "propagator.hpp"
#include "view.hpp"

namespace propane {

enum class Consistency : std::uint8_t { value, bounds };

inline constexpr Consistency value = Consistency::value;
inline constexpr Consistency bounds = Consistency::bounds;

namespace detail {

// Removes the value of each newly fixed view from every other view. Shared
// by both strengths: it is the whole of `value` and the first stage of
// `bounds`. Returns false on failure.
template <class View, class Store>
bool propagate_fixed(std::vector<View>& views, std::vector<int>& pending, Store& s) {
    // Removals can fix more views, whose tags the store appends to `pending`
    // while we loop; the loop ends when nothing new became fixed.
    while (!pending.empty()) {
        const auto i = static_cast<std::size_t>(pending.back());
        pending.pop_back();
        const int v = views[i].value(s);
        for (std::size_t j = 0; j < views.size(); ++j)
            if (j != i && views[j].remove(s, v) == Change::failed) return false;
    }
    return true;
}

template <class Store, class View>
class AllDifferentValue : public PropagatorBase<Store, AllDifferentValue<Store, View>> {
public:
    explicit AllDifferentValue(std::vector<View> views) : views_(std::move(views)) {}

    PropStatus propagate(Store& s) override {
        return propagate_fixed(views_, this->pending(), s) ? PropStatus::fix : PropStatus::failed;
    }

private:
    std::vector<View> views_;
};

template <class Store, class View>
class AllDifferentBounds : public PropagatorBase<Store, AllDifferentBounds<Store, View>> {
public:
    explicit AllDifferentBounds(std::vector<View> views)
        : views_(std::move(views)), iv_(views_.size()), minsorted_(views_.size()), maxsorted_(views_.size()),
          bounds_(2 * views_.size() + 2), t_(bounds_.size()), d_(bounds_.size()), h_(bounds_.size()) {
        for (std::size_t i = 0; i < views_.size(); ++i) minsorted_[i] = maxsorted_[i] = static_cast<int>(i);
    }

    PropStatus propagate(Store& s) override {
        for (;;) {
            if (!propagate_fixed(views_, this->pending(), s)) return PropStatus::failed;
            bool exact = true;
            if (!hall_pass(s, exact)) return PropStatus::failed;
            // The Hall pass reaches bounds consistency in one go; only a new
            // bound landing on a hole, or a view becoming fixed, needs another.
            if (exact && this->pending().empty()) return PropStatus::fix;
        }
    }

private:
    struct Interval {
        std::int64_t min, max; // max is exclusive
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
    bool hall_pass(Store& s, bool& exact) {
        const std::size_t n = views_.size();
        if (n == 0) return true;
        for (std::size_t i = 0; i < n; ++i) iv_[i] = {views_[i].min(s), std::int64_t{views_[i].max(s)} + 1, 0, 0};
        // The orders from the previous run are nearly right; insertion sort
        // repairs them in close to linear time.
        insertion_sort(minsorted_, [this](int a, int b) { return iv(a).min < iv(b).min; });
        insertion_sort(maxsorted_, [this](int a, int b) { return iv(a).max < iv(b).max; });
        const int nb = rank_bounds();
        if (!sweep_up(nb)) return false;
        if (!sweep_down(nb)) return false;
        for (std::size_t i = 0; i < n; ++i) {
            const View& v = views_[i];
            const Interval& r = iv_[i];
            if (r.min > v.min(s)) {
                if (v.remove_below(s, static_cast<int>(r.min)) == Change::failed) return false;
                exact &= v.min(s) == r.min;
            }
            if (r.max - 1 < v.max(s)) {
                if (v.remove_above(s, static_cast<int>(r.max - 1)) == Change::failed) return false;
                exact &= v.max(s) == r.max - 1;
            }
        }
        return true;
    }

    Interval& iv(int i) { return iv_[static_cast<std::size_t>(i)]; }

    template <class Less>
    static void insertion_sort(std::vector<int>& a, Less less) {
        for (std::size_t i = 1; i < a.size(); ++i) {
            const int x = a[i];
            std::size_t j = i;
            for (; j > 0 && less(x, a[j - 1]); --j) a[j] = a[j - 1];
            a[j] = x;
        }
    }

    // Merges all mins and (exclusive) maxes into the sorted, duplicate-free
    // bounds_[1..nb], with sentinels at 0 and nb + 1, and gives each interval
    // the rank of its ends. Returns nb.
    int rank_bounds() {
        const std::size_t n = views_.size();
        std::int64_t min = iv(minsorted_[0]).min, max = iv(maxsorted_[0]).max;
        std::int64_t last = min - 2;
        int nb = 0;
        bounds_[0] = last;
        std::size_t i = 0, j = 0;
        for (;;) {
            if (i < n && min <= max) {
                if (min != last) bounds_[static_cast<std::size_t>(++nb)] = last = min;
                iv(minsorted_[i]).minrank = nb;
                if (++i < n) min = iv(minsorted_[i]).min;
            } else {
                if (max != last) bounds_[static_cast<std::size_t>(++nb)] = last = max;
                iv(maxsorted_[j]).maxrank = nb;
                if (++j == n) break;
                max = iv(maxsorted_[j]).max;
            }
        }
        bounds_[static_cast<std::size_t>(nb) + 1] = bounds_[static_cast<std::size_t>(nb)] + 2;
        return nb;
    }

    // Raises lower bounds past Hall intervals. t_ links each bound to the
    // next one with free capacity (d_), h_ links the members of Hall
    // intervals found so far; both use path compression.
    bool sweep_up(int nb) {
        for (int i = 1; i <= nb + 1; ++i) {
            const auto k = static_cast<std::size_t>(i);
            t_[k] = h_[k] = i - 1;
            d_[k] = bounds_[k] - bounds_[k - 1];
        }
        for (int idx : maxsorted_) {
            Interval& r = iv(idx);
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
    bool sweep_down(int nb) {
        for (int i = 0; i <= nb; ++i) {
            const auto k = static_cast<std::size_t>(i);
            t_[k] = h_[k] = i + 1;
            d_[k] = bounds_[k + 1] - bounds_[k];
        }
        for (auto it = minsorted_.rbegin(); it != minsorted_.rend(); ++it) {
            Interval& r = iv(*it);
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
    // Scratch space, sized once: no allocation during search.
    std::vector<Interval> iv_;
    std::vector<int> minsorted_, maxsorted_;
    std::vector<std::int64_t> bounds_;
    std::vector<int> t_;
    std::vector<std::int64_t> d_;
    std::vector<int> h_;
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
        if (strength == Consistency::value)
            p = std::make_unique<detail::AllDifferentValue<Store, View>>(views);
        else
            p = std::make_unique<detail::AllDifferentBounds<Store, View>>(views);
        // Views already fixed count as newly fixed for the first run.
        for (std::size_t i = 0; i < views.size(); ++i)
            if (views[i].fixed(s)) p->pending().push_back(static_cast<int>(i));
        const int id = s.add_propagator(std::move(p));
        for (std::size_t i = 0; i < views.size(); ++i) {
            s.subscribe(views[i].var(), id, Event::fixed, static_cast<int>(i));
            if (strength == Consistency::bounds) s.subscribe(views[i].var(), id, Event::bounds);
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
