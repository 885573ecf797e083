#ifndef PROPANE_CONSTRAINTS_BIN_PACKING_HPP
#define PROPANE_CONSTRAINTS_BIN_PACKING_HPP

// bin_packing(loads, bins, sizes): item i of size sizes[i] goes into bin
// bins[i], one of 0 .. m-1 for m loads, and loads[b] is the total size of
// the items in bin b. loads and bins are ranges of views of one type each
// (AffineView holds any mix) or braced lists; sizes are numbers >= 0 of
// any integral type, within int, one per item.
//
// Posted as bins[i] within 0 .. m-1, the sum of the loads equal to the sum
// of the sizes (linear), and a propagator with Shaw's basic rules (2004),
// per bin b: with R the sizes of the items fixed to b and P those that may
// still go there,
//   loads[b] within R .. R + P;
//   an item goes elsewhere when R + its size exceeds max(loads[b]);
//   an item must go to b when R + P - its size is below min(loads[b]).
// Strength: the fixpoint of those rules and of the linear sum (bounds).
// A run is O(items + bins + the bins' values left). Views that share a
// variable are sound.

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <ranges>
#include <string>
#include <utility>
#include <vector>

#include "../engine/error.hpp"
#include "../engine/propagator.hpp"
#include "../engine/view.hpp"
#include "arguments.hpp"
#include "linear.hpp"

namespace propane {

namespace detail {

template <class S, class L, class B>
class BinPacking : public PropagatorBase<S, BinPacking<S, L, B>> {
public:
    BinPacking(const std::vector<L>& loads, const std::vector<B>& bins, std::vector<int> sizes)
        : loads_(kept(loads)), bins_(kept(bins)), sizes_(std::move(sizes)) {}

    PropStatus propagate(S& s) override {
        const std::size_t m = loads_.size();
        for (;;) {
            required_.assign(m, 0);
            possible_.assign(m, 0);
            for (std::size_t i = 0; i < bins_.size(); ++i) {
                const auto& b = bins_[i];
                if (b.fixed(s)) {
                    required_[u(b.value(s))] += sizes_[i];
                } else {
                    b.for_each(s, [&](int v) { possible_[u(v)] += sizes_[i]; });
                }
            }
            bool moved = false;
            for (std::size_t k = 0; k < m; ++k) {
                const Change c = keep_between(loads_[k], s, clamp(required_[k]), clamp(required_[k] + possible_[k]));
                if (c == Change::failed) return PropStatus::failed;
                moved = moved || c != Change::none;
            }
            for (std::size_t i = 0; i < bins_.size(); ++i) {
                const auto& b = bins_[i];
                if (b.fixed(s)) continue;
                const std::int64_t size = sizes_[i];
                int only = -1;
                bool failed = false;
                b.for_each(s, [&](int v) {
                    if (failed) return;
                    const std::size_t k = u(v);
                    if (required_[k] + size > loads_[k].max(s)) {
                        failed = b.remove(s, v) == Change::failed;
                        moved = true;
                    } else if (required_[k] + possible_[k] - size < loads_[k].min(s)) {
                        only = v;
                    }
                });
                if (failed) return PropStatus::failed;
                if (only >= 0 && b.contains(s, only)) {
                    if (b.assign(s, only) == Change::failed) return PropStatus::failed;
                    moved = true;
                }
            }
            // Each change moves R or P of some bin: count again.
            if (!moved) return PropStatus::fix;
        }
    }

private:
    static std::size_t u(int i) noexcept { return static_cast<std::size_t>(i); }
    static int clamp(std::int64_t v) noexcept {
        return static_cast<int>(std::min<std::int64_t>(std::max<std::int64_t>(v, int_min), int_max));
    }

    std::vector<kept_t<L>> loads_;
    std::vector<kept_t<B>> bins_;
    std::vector<int> sizes_;
    std::vector<std::int64_t> required_, possible_;
};

} // namespace detail

// The constraint, as bin_packing() returns it.
template <class L, class B>
    requires std::convertible_to<L, AffineView> && std::convertible_to<B, AffineView>
struct BinPackingConstraint {
    std::vector<L> loads;
    std::vector<B> bins;
    std::vector<int> sizes;

    template <class S>
    void post(S& s) const {
        if (sizes.size() != bins.size())
            throw model_error("bin_packing: " + std::to_string(bins.size()) + " bins but " +
                              std::to_string(sizes.size()) + " sizes");
        for (const L& l : loads) s.check(l.var(), "bin_packing");
        for (const B& b : bins) s.check(b.var(), "bin_packing");
        const int m = static_cast<int>(loads.size());
        for (const B& b : bins)
            if (detail::keep_between(b, s, 0, m - 1) == Change::failed) return;
        std::int64_t total = 0;
        for (const int z : sizes) total += z;
        if (total > detail::int_max) throw model_error("bin_packing: the sizes add up to more than int holds");
        linear(loads, Rel::eq, total).post(s);
        const int id = s.add_propagator(std::make_unique<detail::BinPacking<S, L, B>>(loads, bins, sizes));
        for (const L& l : loads) s.subscribe(l.var(), id, Event::bounds);
        for (const B& b : bins) s.subscribe(b.var(), id, Event::domain);
    }
};

namespace detail {

template <class L, class B>
BinPackingConstraint<L, B> make_bin_packing(std::vector<L> loads, std::vector<B> bins, const Numbers& sizes) {
    std::vector<int> z = sizes.as_ints("bin_packing", "sizes");
    if (z.size() != bins.size())
        throw model_error("bin_packing: " + std::to_string(bins.size()) + " bins but " + std::to_string(z.size()) +
                          " sizes");
    for (std::size_t i = 0; i < z.size(); ++i)
        if (z[i] < 0)
            throw model_error("bin_packing: sizes[" + std::to_string(i) + "] is " + std::to_string(z[i]) +
                              ", must be >= 0");
    return {std::move(loads), std::move(bins), std::move(z)};
}

} // namespace detail

// loads and bins as ranges of one view type each, or braced lists; sizes
// as a braced list or a range of any integral type.
template <detail::ViewRange RL, detail::ViewRange RB>
    requires std::convertible_to<std::ranges::range_value_t<RL>, AffineView> &&
             std::convertible_to<std::ranges::range_value_t<RB>, AffineView>
BinPackingConstraint<std::ranges::range_value_t<RL>, std::ranges::range_value_t<RB>>
bin_packing(const RL& loads, const RB& bins, const detail::Numbers& sizes) {
    return detail::make_bin_packing(detail::views_of(loads), detail::views_of(bins), sizes);
}
inline BinPackingConstraint<AffineView, AffineView> bin_packing(std::initializer_list<AffineView> loads,
                                                                std::initializer_list<AffineView> bins,
                                                                const detail::Numbers& sizes) {
    return detail::make_bin_packing(detail::views_of(loads), detail::views_of(bins), sizes);
}

} // namespace propane

#endif
