#ifndef PROPANE_ENGINE_SPARSE_BITSET_HPP
#define PROPANE_ENGINE_SPARSE_BITSET_HPP

// A reversible sparse bitset (Demeulenaere, Hartert, Lecoutre, Perez,
// Perron, Régin, Schaus, "Compact-Table", CP 2016): a set of bits that
// only shrinks between backtracks, whose operations visit only the words
// that still hold a bit. Compact-table keeps its live tuples in one.
//
// The words are store cells (cells.hpp), so each is trailed the first time
// it changes in a level and put back when the level is popped; so is the
// count of non-zero words. The order in which the non-zero words are
// visited (`index_`) is not trailed: a word that becomes zero is swapped
// to just past the non-zero ones, which only permutes the first `limit`
// positions, so after a pop restores a larger limit those positions hold
// the same words as when it was saved, in another order.
//
// As in the paper, a change goes through a mask the set holds: clear_mask,
// add_to_mask and reverse_mask build it over the non-zero words, and
// intersect_with_mask applies it. The word arrays the operations take (a
// table's supports) are as long as the set.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "words.hpp"

namespace propane::detail {

class SparseBitset {
public:
    SparseBitset() = default;

    // `bits` bits, all set, in cells of s.
    template <class S>
    SparseBitset(S& s, std::size_t bits) : mask_((bits + word_bits - 1) / word_bits, 0) {
        const std::size_t n = mask_.size();
        index_.reserve(n);
        for (std::size_t k = 0; k < n; ++k) {
            const word w = k + 1 < n || bits % word_bits == 0 ? ~word{0} : low_mask(static_cast<int>(bits % word_bits));
            const int c = s.new_cell(std::bit_cast<std::int64_t>(w));
            if (k == 0) first_ = c;
            index_.push_back(static_cast<int>(k));
        }
        limit_ = s.new_cell(static_cast<std::int64_t>(n));
    }

    std::size_t words() const noexcept { return mask_.size(); }

    template <class S> bool empty(const S& s) const noexcept { return s.cell(limit_) == 0; }
    template <class S> word at(const S& s, std::size_t k) const noexcept {
        return std::bit_cast<word>(s.cell(first_ + static_cast<int>(k)));
    }

    // The number of set bits.
    template <class S> std::size_t count(const S& s) const noexcept {
        std::size_t n = 0;
        for (std::size_t i = 0, end = live(s); i < end; ++i) n += popcount(at(s, pos(i)));
        return n;
    }

    template <class S> void clear_mask(const S& s) noexcept {
        for (std::size_t i = 0, end = live(s); i < end; ++i) mask_[pos(i)] = 0;
    }
    template <class S> void add_to_mask(const S& s, const word* m) noexcept {
        for (std::size_t i = 0, end = live(s); i < end; ++i) mask_[pos(i)] |= m[pos(i)];
    }
    template <class S> void reverse_mask(const S& s) noexcept {
        for (std::size_t i = 0, end = live(s); i < end; ++i) mask_[pos(i)] = ~mask_[pos(i)];
    }

    // Keeps the bits the mask holds; true when a bit went.
    template <class S> bool intersect_with_mask(S& s) {
        std::size_t end = live(s);
        const std::size_t before = end;
        bool changed = false;
        // Backwards, so a word swapped out for one from the end has been
        // visited already.
        for (std::size_t i = end; i-- > 0;) {
            const std::size_t k = pos(i);
            const word old = at(s, k), w = old & mask_[k];
            if (w == old) continue;
            changed = true;
            s.set_cell(first_ + static_cast<int>(k), std::bit_cast<std::int64_t>(w));
            if (w == 0) std::swap(index_[i], index_[--end]);
        }
        if (end != before) s.set_cell(limit_, static_cast<std::int64_t>(end));
        return changed;
    }

    // A word k where the set and m share a bit, or -1 if they share none.
    template <class S> int intersect_index(const S& s, const word* m) const noexcept {
        for (std::size_t i = 0, end = live(s); i < end; ++i)
            if ((at(s, pos(i)) & m[pos(i)]) != 0) return index_[i];
        return -1;
    }

    // The number of bits the set and m share.
    template <class S> std::size_t count_and(const S& s, const word* m) const noexcept {
        std::size_t n = 0;
        for (std::size_t i = 0, end = live(s); i < end; ++i) n += popcount(at(s, pos(i)) & m[pos(i)]);
        return n;
    }

private:
    template <class S> std::size_t live(const S& s) const noexcept { return static_cast<std::size_t>(s.cell(limit_)); }
    std::size_t pos(std::size_t i) const noexcept { return static_cast<std::size_t>(index_[i]); }

    int first_ = 0;           // the cell of word 0; word k is cell first_ + k
    int limit_ = 0;           // the cell holding the number of non-zero words
    std::vector<int> index_;  // words, the non-zero ones first
    std::vector<word> mask_;  // scratch of the mask operations
};

} // namespace propane::detail

#endif
