#ifndef PROPANE_CONSTRAINTS_ALL_DIFFERENT_VALUE_HPP
#define PROPANE_CONSTRAINTS_ALL_DIFFERENT_VALUE_HPP

// AllDifferent's value stage: the whole of the value strength and the first
// stage of the other two (../all_different.hpp describes the strengths).

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <type_traits>
#include <vector>

#include "../../engine/propagator.hpp"
#include "../../engine/view.hpp"

namespace propane::detail {


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

    template <class Store>
    bool is_open(const Store& s, int i) const noexcept {
        return pos_[static_cast<std::size_t>(i)] < s.cell(size_cell_);
    }

    // Returns false on failure. Forced inline: with the bounds strength's
    // choice of early or late Hall passes (early_hall.hpp) around it, GCC
    // left it out of line, a call in every run (N-queens 10 at bounds
    // strength: 2 % more instructions).
    template <class View, class Store>
#if defined(__GNUC__)
    [[gnu::always_inline]]
#endif
    bool propagate(std::vector<View>& views, std::vector<int>& pending, Store& s) {
        // Removals can fix more views, whose tags the store appends to
        // `pending` while we loop; the loop ends when nothing new is fixed.
        const View* const vs = views.data();
        if constexpr (!std::is_same_v<View, AffineView>)
            if (pending.size() > 1 && s.cell(size_cell_) > 16 && !remove_batch(vs, pending, s)) return false;
        while (!pending.empty()) {
            const auto i = static_cast<std::size_t>(pending.back());
            pending.pop_back();
            const int v = vs[i].value(s);
            auto open = static_cast<std::size_t>(s.cell(size_cell_));
            // View i leaves the set first, so the walk below passes it by.
            if (close(i, open)) s.set_cell(size_cell_, static_cast<std::int64_t>(open));
            if (!walk_open(vs, open, [&](const View& x) { return x.contains(s, v); },
                           [&](const View& x) { return x.remove(s, v) != Change::failed; }))
                return false;
        }
        return true;
    }

private:
    // When several views were fixed at once and many are open (Golomb: a
    // mark fixes the differences to all the marks before it), their values
    // leave the open views in one walk that asks each view for all of them
    // in one word, rather than in one walk per value (Golomb 10: 4.3 M
    // membership tests down to about 1.1 M such words, 2.8 % fewer
    // instructions in all), and leave each view in one update (remove_bits:
    // 949 K removals down to 454 K updates). Only when the values fit 64 positions, else
    // pending is left to the walks one value at a time. The views fixed
    // all leave the open set first, so two of them with one value are a
    // failure found here (one by one, the second view's removal finds it).
    // A view whose word costs a walk over its values (AffineView) never
    // comes here, and small sets (N-queens) do not either: there the walks
    // per value cost less. Out of line, to leave the walk per value as it
    // was where this never runs.
    template <class View, class Store>
#if defined(__GNUC__)
    [[gnu::noinline]]
#endif
    bool remove_batch(const View* vs, std::vector<int>& pending, Store& s) {
        auto open = static_cast<std::size_t>(s.cell(size_cell_));
        std::int64_t least = std::numeric_limits<std::int64_t>::max(), most = std::numeric_limits<std::int64_t>::min();
        for (const int i : pending)
            if (static_cast<std::size_t>(pos_[static_cast<std::size_t>(i)]) < open) {
                const std::int64_t v = vs[static_cast<std::size_t>(i)].value(s);
                least = std::min(least, v);
                most = std::max(most, v);
            }
        // A view closed already has had its value removed: nothing to do
        // for it, here or in the walks.
        if (least > most || most - least >= 64) return true;
        std::uint64_t values = 0; // bit k for least + k
        bool distinct = true;
        for (const int tag : pending) {
            const auto i = static_cast<std::size_t>(tag);
            if (!close(i, open)) continue;
            const std::uint64_t bit = std::uint64_t{1} << (vs[i].value(s) - least);
            distinct &= (values & bit) == 0;
            values |= bit;
        }
        pending.clear();
        s.set_cell(size_cell_, static_cast<std::int64_t>(open));
        return distinct && walk_open(
                               vs, open, [&](const View& x) { return (x.bits(s, least) & values) != 0; },
                               [&](const View& x) { return remove_bits(x, s, least, values) != Change::failed; });
    }

    // View i leaves the open set when it is in it (true): it swaps places
    // with the last open view, and `open` shrinks by one. The caller stores
    // the new size.
    bool close(std::size_t i, std::size_t& open) noexcept {
        const auto at = static_cast<std::size_t>(pos_[i]);
        if (at >= open) return false;
        const int last = order_[--open];
        order_[at] = last;
        pos_[static_cast<std::size_t>(last)] = static_cast<int>(at);
        order_[open] = static_cast<int>(i);
        pos_[i] = static_cast<int>(open);
        return true;
    }

    // Calls take(x) for each of the first `open` views of order_ that
    // holds(x), false as soon as take does. In two passes, 64 views at a
    // time: which views hold, without a branch, then the takes. Whether a
    // view holds a value is as good as random, and a branch on it
    // mispredicted often (two passes: a fifth fewer mispredictions in
    // N-queens, 15 % faster).
    template <class View, class Holds, class Take>
    bool walk_open(const View* vs, std::size_t open, Holds&& holds, Take&& take) {
        // Raw pointers (vs too): the compiler cannot tell that a removal's
        // stores leave the vectors' own pointers alone, and would reload
        // them for every view.
        const int* const order = order_.data();
        for (std::size_t first = 0; first < open; first += 64) {
            const std::size_t count = std::min<std::size_t>(64, open - first);
            std::uint64_t holders = 0;
            for (std::size_t k = 0; k < count; ++k)
                holders |= std::uint64_t{holds(vs[static_cast<std::size_t>(order[first + k])])} << k;
            for (; holders != 0; holders &= holders - 1) {
                const auto k = first + static_cast<std::size_t>(std::countr_zero(holders));
                if (!take(vs[static_cast<std::size_t>(order[k])])) return false;
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
    return repeats_variable(vars);
}


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


} // namespace propane::detail

#endif
