#ifndef PROPANE_CONSTRAINTS_TABLE_LIVE_TUPLES_HPP
#define PROPANE_CONSTRAINTS_TABLE_LIVE_TUPLES_HPP

// What both table propagators share: the tuples as support masks, and the
// set of tuples still valid, kept in step with the domains (compact-table's
// updateTable, Demeulenaere et al., CP 2016).

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "../../engine/sparse_bitset.hpp"
#include "../../engine/view.hpp"
#include "../../engine/words.hpp"

namespace propane::detail::tables {

// The tuples of one post, read-only and shared by every copy of the
// propagator. Position i's distinct values are numbered in increasing
// order (its column); mask(i, j) has bit t set when tuple t has column
// value j at position i.
class Supports {
public:
    // Distinct tuples, each of `arity` values.
    Supports(const std::vector<std::vector<int>>& tuples, std::size_t arity)
        : tuples_(tuples.size()), words_((tuples.size() + word_bits - 1) / word_bits), values_(arity) {
        for (std::size_t i = 0; i < arity; ++i) {
            std::vector<int>& col = values_[i];
            col.reserve(tuples.size());
            for (const auto& t : tuples) col.push_back(t[i]);
            std::sort(col.begin(), col.end());
            col.erase(std::unique(col.begin(), col.end()), col.end());
            first_.push_back(first_.empty() ? 0 : first_.back() + values_[i - 1].size());
        }
        const std::size_t flat = first_.empty() ? 0 : first_.back() + values_.back().size();
        masks_.assign(flat * words_, 0);
        counts_.assign(flat, 0);
        most_.assign(arity, 0);
        for (std::size_t k = 0; k < tuples.size(); ++k)
            for (std::size_t i = 0; i < arity; ++i) {
                const std::size_t f = first_[i] + static_cast<std::size_t>(rank(i, tuples[k][i]));
                masks_[f * words_ + k / word_bits] |= word{1} << (k % word_bits);
                most_[i] = std::max(most_[i], ++counts_[f]);
            }
    }

    std::size_t arity() const noexcept { return values_.size(); }
    std::size_t tuples() const noexcept { return tuples_; }
    const std::vector<int>& column(std::size_t i) const noexcept { return values_[i]; }
    // The index of (i, j) among all positions' column values.
    std::size_t flat(std::size_t i, std::size_t j) const noexcept { return first_[i] + j; }
    const word* mask(std::size_t i, std::size_t j) const noexcept { return masks_.data() + flat(i, j) * words_; }
    // The number of tuples with column value j at i, and the largest such.
    std::size_t count(std::size_t i, std::size_t j) const noexcept { return counts_[flat(i, j)]; }
    std::size_t most(std::size_t i) const noexcept { return most_[i]; }

private:
    int rank(std::size_t i, int v) const noexcept {
        return static_cast<int>(std::lower_bound(values_[i].begin(), values_[i].end(), v) - values_[i].begin());
    }

    std::size_t tuples_;
    std::size_t words_;
    std::vector<std::vector<int>> values_;
    std::vector<std::size_t> first_;
    std::vector<word> masks_;
    std::vector<std::size_t> counts_;
    std::vector<std::size_t> most_;
};

// The views, the live tuples (those whose every value is still in its
// view's domain) and, per position, the domain as last seen: the column
// values it held (bits over the column, in cells) and its size (a cell).
// A position whose view has a size other than the one last seen has lost
// values since; comparing the bits with the view finds which.
//
// The view may hold values outside its column (a forbidden table allows
// them), which is why the size seen is the view's, not the bits' count.
template <class S, class V>
class LiveTuples {
public:
    LiveTuples(S& s, std::shared_ptr<const Supports> t, const std::vector<V>& xs)
        : t_(std::move(t)), xs_(kept(xs)), live_(s, t_->tuples()) {
        for (std::size_t i = 0; i < xs_.size(); ++i) {
            const std::size_t n = t_->column(i).size();
            int first = 0;
            for (std::size_t k = 0; k * word_bits < n; ++k) {
                const auto bits = static_cast<int>(std::min<std::size_t>(n - k * word_bits, word_bits));
                const int c = s.new_cell(std::bit_cast<std::int64_t>(low_mask(bits)));
                if (k == 0) first = c;
            }
            seen_at_.push_back(first);
            // Never a size: the first run compares every position's values
            // seen (its whole column) with its view.
            size_at_.push_back(s.new_cell(-1));
        }
    }

    const Supports& supports() const noexcept { return *t_; }
    const SparseBitset& live() const noexcept { return live_; }
    std::size_t arity() const noexcept { return xs_.size(); }
    const kept_t<V>& view(std::size_t i) const noexcept { return xs_[i]; }

    bool changed(const S& s, std::size_t i) const noexcept {
        return s.cell(size_at_[i]) != static_cast<std::int64_t>(xs_[i].size(s));
    }
    bool stale(const S& s) const noexcept {
        for (std::size_t i = 0; i < xs_.size(); ++i)
            if (changed(s, i)) return true;
        return false;
    }

    // Removes the tuples that hold a value gone from its view since it was
    // last seen, stopping when none is left. The store does not say which
    // values went, so a changed position's values seen are each tested
    // against its view: a bit test apiece, where each value then put in the
    // mask costs a pass over the live words. Returns the number of
    // positions whose view changed, and the last of them in `last`.
    int update(S& s, std::size_t& last) {
        int n = 0;
        for (std::size_t i = 0; i < xs_.size() && !live_.empty(s); ++i) {
            if (!changed(s, i)) continue;
            ++n;
            last = i;
            const std::vector<int>& col = t_->column(i);
            gone_.clear();
            kept_.clear();
            for_each_seen(s, i, [&](std::size_t j) { (xs_[i].contains(s, col[j]) ? kept_ : gone_).push_back(j); });
            forget(s, i, gone_);
            s.set_cell(size_at_[i], xs_[i].size(s));
            if (gone_.empty()) continue;
            // From the removed values when they are fewer, as the paper
            // does: the mask is then the complement of their supports.
            live_.clear_mask(s);
            const bool by_gone = gone_.size() < kept_.size();
            for (const std::size_t j : by_gone ? gone_ : kept_) live_.add_to_mask(s, t_->mask(i, j));
            if (by_gone) live_.reverse_mask(s);
            live_.intersect_with_mask(s);
        }
        return n;
    }

    // f(j) for each column value j of position i seen last.
    template <class F>
    void for_each_seen(const S& s, std::size_t i, F&& f) const {
        const std::size_t words = (t_->column(i).size() + word_bits - 1) / word_bits;
        for (std::size_t k = 0; k < words; ++k)
            for (word w = std::bit_cast<word>(s.cell(seen_at_[i] + static_cast<int>(k))); w != 0; w &= w - 1)
                f(k * word_bits + static_cast<std::size_t>(std::countr_zero(w)));
    }

    // Position i's propagator removed the column values js, which no live
    // tuple holds: they leave the values seen without a change to the live
    // tuples. The size seen follows when nothing else went meanwhile (a view
    // on the same variable); otherwise it stays, so the next update finds
    // the other losses.
    void removed(S& s, std::size_t i, const std::vector<std::size_t>& js) {
        if (js.empty()) return;
        forget(s, i, js);
        const std::int64_t was = s.cell(size_at_[i]);
        if (was - static_cast<std::int64_t>(js.size()) == static_cast<std::int64_t>(xs_[i].size(s)))
            s.set_cell(size_at_[i], xs_[i].size(s));
    }

private:
    void forget(S& s, std::size_t i, const std::vector<std::size_t>& js) {
        // js is increasing: one write per word.
        for (std::size_t a = 0; a < js.size();) {
            const std::size_t k = js[a] / word_bits;
            word w = std::bit_cast<word>(s.cell(seen_at_[i] + static_cast<int>(k)));
            for (; a < js.size() && js[a] / word_bits == k; ++a) w &= ~(word{1} << (js[a] % word_bits));
            s.set_cell(seen_at_[i] + static_cast<int>(k), std::bit_cast<std::int64_t>(w));
        }
    }

    std::shared_ptr<const Supports> t_;
    std::vector<kept_t<V>> xs_;
    SparseBitset live_;
    std::vector<int> seen_at_; // per position: the cell of its first word of values seen
    std::vector<int> size_at_; // per position: the cell of its size seen
    std::vector<std::size_t> gone_, kept_; // scratch of update()
};

} // namespace propane::detail::tables

#endif
