#ifndef PROPANE_CONSTRAINTS_ALL_DIFFERENT_GREEDY_HALL_HPP
#define PROPANE_CONSTRAINTS_ALL_DIFFERENT_GREEDY_HALL_HPP

// AllDifferent's bounds stage when the open views' values fit in a word or
// two: the two sweeps of bounds.hpp, with sets of values as words instead
// of ranks and union-find.

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "../../engine/words.hpp"

namespace propane::detail {

// A set of the positions 0 .. 64 * W - 1.
template <std::size_t W>
class Positions {
public:
    static constexpr unsigned size = 64 * W;

    // 0 .. n - 1, n <= size.
    static Positions below(unsigned n) noexcept {
        Positions p;
        for (unsigned k = 0; k < W; ++k) p.w_[k] = low_mask(static_cast<int>(std::min(std::max(n, 64 * k) - 64 * k, 64u)));
        return p;
    }
    // For two words, each picked by a select rather than an index, so
    // that a set held in a local stays in registers: the up sweep tests a
    // position right after erasing one, which through memory waits on the
    // store.
    bool has(unsigned i) const noexcept {
        if constexpr (W == 2) return (((i < 64 ? w_[0] : w_[1]) >> (i % 64)) & 1) != 0;
        return ((w_[i / 64] >> (i % 64)) & 1) != 0;
    }
    void add(unsigned i) noexcept {
        if constexpr (W == 2) {
            const std::uint64_t bit = std::uint64_t{1} << (i % 64);
            w_[0] |= i < 64 ? bit : 0;
            w_[1] |= i < 64 ? 0 : bit;
        } else {
            w_[i / 64] |= std::uint64_t{1} << (i % 64);
        }
    }
    void erase(unsigned i) noexcept {
        if constexpr (W == 2) {
            const std::uint64_t bit = std::uint64_t{1} << (i % 64);
            w_[0] &= ~(i < 64 ? bit : 0);
            w_[1] &= ~(i < 64 ? 0 : bit);
        } else {
            w_[i / 64] &= ~(std::uint64_t{1} << (i % 64));
        }
    }
    void erase(const Positions& o) noexcept {
        for (unsigned k = 0; k < W; ++k) w_[k] &= ~o.w_[k];
    }
    bool meets(const Positions& o) const noexcept {
        std::uint64_t common = 0;
        for (unsigned k = 0; k < W; ++k) common |= w_[k] & o.w_[k];
        return common != 0;
    }
    // Adds a .. b, a <= b < size.
    void add(unsigned a, unsigned b) noexcept {
        if constexpr (W == 1) {
            w_[0] |= low_mask(static_cast<int>(b) + 1) & ~low_mask(static_cast<int>(a));
        } else if constexpr (W == 2) {
            const std::uint64_t from = ~low_mask(static_cast<int>(a % 64)), to = low_mask(static_cast<int>(b % 64) + 1);
            w_[0] |= a < 64 ? (b < 64 ? from & to : from) : 0;
            w_[1] |= b < 64 ? 0 : (a < 64 ? to : from & to);
        } else {
            for (unsigned k = a / 64; k <= b / 64; ++k) {
                const unsigned from = std::max(a, 64 * k) - 64 * k, to = std::min(b - 64 * k, 63u);
                w_[k] |= low_mask(static_cast<int>(to) + 1) & ~low_mask(static_cast<int>(from));
            }
        }
    }
    // The least member >= i (i <= size), or size; with Absent, the least
    // non-member.
    template <bool Absent = false>
    unsigned next(unsigned i) const noexcept {
        if constexpr (W == 2) {
            // Both words at once, without the loop's branches (the up
            // sweep asks this of every view).
            const std::uint64_t a = Absent ? ~w_[0] : w_[0], b = Absent ? ~w_[1] : w_[1];
            const std::uint64_t from = ~std::uint64_t{0} << (i & 63);
            const std::uint64_t x0 = i < 64 ? a & from : 0, x1 = i < 64 ? b : (i < size ? b & from : 0);
            if (x0 != 0) return static_cast<unsigned>(std::countr_zero(x0));
            if (x1 != 0) return 64 + static_cast<unsigned>(std::countr_zero(x1));
            return size;
        }
        for (unsigned k = i / 64; k < W; ++k) {
            std::uint64_t x = Absent ? ~w_[k] : w_[k];
            if (k == i / 64) x &= ~low_mask(static_cast<int>(i % 64));
            if (x != 0) return 64 * k + static_cast<unsigned>(std::countr_zero(x));
        }
        return size;
    }
    // The greatest member <= i (i < size), or -1; with Absent, the greatest
    // non-member.
    template <bool Absent = false>
    int prev(unsigned i) const noexcept {
        if constexpr (W == 2) {
            const std::uint64_t a = Absent ? ~w_[0] : w_[0], b = Absent ? ~w_[1] : w_[1];
            const std::uint64_t upto = low_mask(static_cast<int>(i & 63) + 1);
            const std::uint64_t x1 = i < 64 ? 0 : b & upto, x0 = i < 64 ? a & upto : a;
            if (x1 != 0) return 127 - std::countl_zero(x1);
            if (x0 != 0) return 63 - std::countl_zero(x0);
            return -1;
        }
        for (int k = static_cast<int>(i / 64); k >= 0; --k) {
            std::uint64_t x = Absent ? ~w_[static_cast<std::size_t>(k)] : w_[static_cast<std::size_t>(k)];
            if (static_cast<unsigned>(k) == i / 64) x &= low_mask(static_cast<int>(i % 64) + 1);
            if (x != 0) return 64 * k + 63 - std::countl_zero(x);
        }
        return -1;
    }

private:
    std::array<std::uint64_t, W> w_{};
};

// Bounds consistency for views whose bounds are positions of at most 64 * W
// values, some of which fixed views hold:
//
//   Up: take the views in order of max, each to the least free value at or
//   above its min (the greedy matching, which fails exactly when no
//   matching exists). When a view's max is no longer free, the run of
//   taken values below it, back to the last free one, is a Hall interval:
//   every view placed in it has its min in it (else the free value below
//   would have taken it) and its max at most this one. A later view, whose
//   max is larger, with its min in a Hall interval has its min raised past
//   the union of them (and of the fixed values).
//
//   Down: the mirror image, in order of min from the largest, to the
//   greatest free value at or below the max, lowers maxes.
//
// Each step is a few word operations where the general sweeps rank the
// bounds and walk union-find paths.
template <std::size_t W>
class GreedyHall {
public:
    using Set = Positions<W>;

    explicit GreedyHall(std::size_t n)
        : lo_(n), hi_(n), new_lo_(n), new_hi_(n), raised_(n), after_max_(n), after_min_(n) {}

    // Views 0 .. n - 1, view k taking a value among the positions
    // bounds(k).first .. bounds(k).second. One loop over locals: the set
    // of maxes stays in registers, and the new bounds are written only
    // by a run that moves one.
    template <class Bounds>
    void fill(std::size_t n, Bounds&& bounds) {
        by_max_.fill(-1);
        Set maxes;
        unsigned* const lo = lo_.data();
        unsigned* const hi = hi_.data();
        std::int16_t* const after = after_max_.data();
        for (std::size_t k = 0; k < n; ++k) {
            const auto [a, b] = bounds(k);
            lo[k] = a;
            hi[k] = b;
            after[k] = by_max_[b];
            by_max_[b] = static_cast<std::int16_t>(k);
            maxes.add(b);
        }
        maxes_ = maxes;
        views_ = n;
    }
    // The sweeps over the views added since clear(), given the fixed views'
    // values and the positions that exist. False when the views cannot all
    // take distinct values; otherwise `moved` is false when no bound moved.
    //
    // The up sweep alone decides failure, and it meets every Hall interval:
    // once the views inside one have taken all its free values, the last of
    // them finds its max taken. So when it records none, raises no min, and
    // no max is a fixed value, nothing can move, and the down sweep is
    // skipped (Golomb 10: three runs in four that do not fail).
    bool run(const Set& fixed, const Set& all, bool& moved) noexcept {
        Set free = all, hall = fixed;
        free.erase(fixed);
        bool found = false;
        std::size_t raised = 0;
        for (unsigned v = maxes_.next(0); v < Set::size; v = maxes_.next(v + 1))
            for (int k = by_max_[v]; k >= 0; k = after_max_[static_cast<std::size_t>(k)]) {
                const auto at = static_cast<std::size_t>(k);
                unsigned lo = lo_[at];
                if (hall.has(lo)) {
                    lo = hall.template next<true>(lo);
                    raised_[raised++] = {at, lo};
                    found = true;
                }
                const unsigned slot = free.next(lo);
                if (slot > v) return false;
                free.erase(slot);
                if (!free.has(v)) {
                    hall.add(static_cast<unsigned>(free.prev(v) + 1), v);
                    found = true;
                }
            }
        moved = found || maxes_.meets(fixed);
        if (!moved) return true;
        std::copy_n(lo_.begin(), views_, new_lo_.begin());
        for (std::size_t r = 0; r < raised; ++r) new_lo_[raised_[r].first] = raised_[r].second;
        std::copy_n(hi_.begin(), views_, new_hi_.begin());
        // The views by min, for the down sweep only: most runs end above.
        by_min_.fill(-1);
        Set mins;
        for (std::size_t k = 0; k < views_; ++k) {
            after_min_[k] = by_min_[lo_[k]];
            by_min_[lo_[k]] = static_cast<std::int16_t>(k);
            mins.add(lo_[k]);
        }
        free = all;
        free.erase(fixed);
        hall = fixed;
        for (int v = mins.prev(Set::size - 1); v >= 0; v = v > 0 ? mins.prev(static_cast<unsigned>(v) - 1) : -1)
            for (int k = by_min_[static_cast<std::size_t>(v)]; k >= 0; k = after_min_[static_cast<std::size_t>(k)]) {
                const auto at = static_cast<std::size_t>(k);
                unsigned hi = hi_[at];
                if (hall.has(hi)) {
                    const int below = hall.template prev<true>(hi);
                    if (below < 0) return false;
                    new_hi_[at] = hi = static_cast<unsigned>(below);
                }
                const int slot = free.prev(hi);
                if (slot < v) return false;
                free.erase(static_cast<unsigned>(slot));
                const auto lo = static_cast<unsigned>(v);
                if (!free.has(lo)) hall.add(lo, free.next(lo) - 1);
            }
        return true;
    }
    // View k's bounds before and after run(); after only when it moved
    // one.
    unsigned lo(std::size_t k) const noexcept { return lo_[k]; }
    unsigned hi(std::size_t k) const noexcept { return hi_[k]; }
    unsigned new_lo(std::size_t k) const noexcept { return new_lo_[k]; }
    unsigned new_hi(std::size_t k) const noexcept { return new_hi_[k]; }

private:
    std::vector<unsigned> lo_, hi_, new_lo_, new_hi_;
    // The up sweep's raised mins (view, new min), applied to new_lo_ once
    // the run is known to move a bound.
    std::vector<std::pair<std::size_t, unsigned>> raised_;
    // The views by max and by min: the first view at each position, and
    // after each view the next at its position, or -1.
    std::array<std::int16_t, Set::size> by_max_{}, by_min_{};
    std::vector<std::int16_t> after_max_, after_min_;
    Set maxes_;
    std::size_t views_ = 0; // added since clear()
};

} // namespace propane::detail

#endif
