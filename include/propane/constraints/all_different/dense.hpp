#ifndef PROPANE_CONSTRAINTS_ALL_DIFFERENT_DENSE_HPP
#define PROPANE_CONSTRAINTS_ALL_DIFFERENT_DENSE_HPP

// Régin's pruning for AllDifferent on a dense graph, by machine words: the
// domain stage's algorithm for many open views whose domains fill much of
// their value range (domain.hpp chooses it).
//
// Each open view is a row of bits over the values; its matched value names
// it. View a points to view b when a's domain holds b's matched value (a
// could take it if b moved on). An unmatched edge (a, b's value) lies on an
// alternating cycle exactly when b reaches a, that is when a and b share a
// strongly connected component, and on an even alternating path from a
// free value exactly when b reaches a view that holds a free value. Edges to
// free values always stay.
//
// Tarjan's walk needs each edge to a visited node for its low links, so it
// costs a step per edge: k^2 for k open views over about k values, every
// run. Kosaraju's algorithm needs only the unvisited successors, and those
// are an AND-NOT of a domain word and a word of unvisited values: its first
// pass walks the rows, its second the columns (the views holding each
// matched value), which 64 x 64 bit transposes make from the rows. A run
// then costs O(k * W) word operations for W words of values, and the
// components are pruned as they complete, with no per-edge work but the
// removals themselves.

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace propane::detail {

// Bit j of a[i] goes to bit i of a[j]: quadrants swapped, then the
// quadrants of those, down to single bits (Hacker's Delight, 7-3).
inline void transpose64(std::uint64_t* a) noexcept {
    std::uint64_t m = 0x00000000FFFFFFFFU;
    for (int j = 32; j != 0; j >>= 1, m ^= m << j)
        for (int k = 0; k < 64; k = ((k | j) + 1) & ~j) {
            const std::uint64_t t = ((a[k] >> j) ^ a[k | j]) & m;
            a[k] ^= t << j;
            a[k | j] ^= t;
        }
}

class DenseResidual {
public:
    // Starts a run over k views whose values lie in words 0..words-1 (value
    // index 64 * w + bit). Buffers only grow, so after the first runs a run
    // allocates nothing.
    void reset(std::size_t k, std::size_t words) {
        k_ = k;
        w_ = words;
        kw_ = (k + 63) / 64;
        grow(rows_, k * words);
        grow(cols_, k * kw_);
        grow(owner_, words * 64);
        grow(match_, k);
        for (std::vector<std::uint64_t>* v : {&matched_, &keep_, &unvisited_, &comp_mask_}) grow(*v, words);
        grow(reach_free_, kw_);
        grow(unseen_, kw_);
        grow(order_, k);
        grow(members_, k);
        grow(stack_, k);
        grow(cursor_, k);
    }

    // View a's values; the caller fills all `words` words.
    std::uint64_t* row(std::size_t a) noexcept { return rows_.data() + a * w_; }
    void set_match(std::size_t a, std::size_t j) noexcept { match_[a] = j; }

    // Calls doomed(a, w, bits) with the values of word w that view a must
    // lose, for each such view and word; stops and returns false as soon as
    // doomed does.
    template <class Doomed>
    bool prune(Doomed&& doomed) {
        std::fill_n(matched_.begin(), w_, 0);
        for (std::size_t a = 0; a < k_; ++a) {
            const std::size_t j = match_[a];
            matched_[j >> 6] |= bit(j);
            owner_[j] = static_cast<int>(a);
        }
        // Free values: held by some view, matched to none.
        for (std::size_t w = 0; w < w_; ++w) keep_[w] = 0;
        for (std::size_t a = 0; a < k_; ++a) {
            const std::uint64_t* r = row(a);
            for (std::size_t w = 0; w < w_; ++w) keep_[w] |= r[w];
        }
        for (std::size_t w = 0; w < w_; ++w) keep_[w] &= ~matched_[w];
        if (first_pass() && reaches_root()) return true;
        columns();
        if (reach_free()) return true;
        return second_pass(doomed);
    }

private:
    static std::uint64_t bit(std::size_t i) noexcept { return std::uint64_t{1} << (i & 63); }
    template <class T>
    static void grow(std::vector<T>& v, std::size_t n) {
        if (v.size() < n) v.resize(n);
    }

    // cols_[b * kw_ ...]: the views holding b's matched value, from 64 x 64
    // blocks of the rows (views by 64, value words), transposed.
    void columns() {
        std::uint64_t block[64];
        for (std::size_t first = 0; first < k_; first += 64) {
            const std::size_t count = std::min<std::size_t>(64, k_ - first);
            const std::size_t at = first / 64;
            for (std::size_t w = 0; w < w_; ++w) {
                const std::uint64_t want = matched_[w];
                if (want == 0) continue;
                std::uint64_t any = 0;
                for (std::size_t i = 0; i < count; ++i) any |= block[i] = row(first + i)[w] & want;
                for (std::size_t i = count; i < 64; ++i) block[i] = 0;
                if (any != 0) transpose64(block);
                for (std::uint64_t rest = want; rest != 0; rest &= rest - 1) {
                    const auto jb = static_cast<std::size_t>(std::countr_zero(rest));
                    const auto b = static_cast<std::size_t>(owner_[64 * w + jb]);
                    cols_[b * kw_ + at] = any != 0 ? block[jb] : 0;
                }
            }
        }
    }

    // The views that reach a view holding a free value (themselves
    // included) keep every matched value of those views: keep_ gains them.
    // True when that is every view, for then nothing can go.
    bool reach_free() {
        std::fill_n(reach_free_.begin(), kw_, 0);
        std::size_t top = 0;
        for (std::size_t a = 0; a < k_; ++a) {
            const std::uint64_t* r = row(a);
            bool holds = false;
            for (std::size_t w = 0; w < w_ && !holds; ++w) holds = (r[w] & keep_[w]) != 0;
            if (holds) {
                reach_free_[a >> 6] |= bit(a);
                stack_[top++] = a;
            }
        }
        std::size_t reached = top;
        while (top > 0) {
            const std::size_t b = stack_[--top];
            keep_[match_[b] >> 6] |= bit(match_[b]);
            const std::uint64_t* c = cols_.data() + b * kw_;
            for (std::size_t w = 0; w < kw_; ++w)
                for (std::uint64_t fresh = c[w] & ~reach_free_[w]; fresh != 0; fresh &= fresh - 1) {
                    const std::size_t a = 64 * w + static_cast<std::size_t>(std::countr_zero(fresh));
                    reach_free_[w] |= bit(a);
                    stack_[top++] = a;
                    ++reached;
                }
        }
        return reached == k_;
    }

    // Whether every view reaches view 0, when view 0 reaches every view
    // (first_pass() said so): then the views form one component, every
    // edge stays, and the columns are not needed. Found in rounds over the
    // rows, each adding the views that hold a matched value of a view
    // already in: one round when the domains are alike, as in a dive that
    // fixes views in order. A graph that needs many rounds gives up after
    // about as many word operations as the columns would cost.
    bool reaches_root() {
        std::fill_n(unvisited_.begin(), w_, 0);
        std::fill_n(unseen_.begin(), kw_, 0);
        unvisited_[match_[0] >> 6] |= bit(match_[0]);
        unseen_[0] = 1;
        std::size_t in = 1, work = 0;
        const std::size_t budget = 8 * k_ * w_;
        for (bool grew = true; grew && work <= budget;) {
            grew = false;
            for (std::size_t a = 1; a < k_; ++a) {
                if ((unseen_[a >> 6] & bit(a)) != 0) continue;
                const std::uint64_t* r = row(a);
                std::size_t w = 0;
                while (w < w_ && (r[w] & unvisited_[w]) == 0) ++w;
                work += w + 1;
                if (w == w_) continue;
                unseen_[a >> 6] |= bit(a);
                unvisited_[match_[a] >> 6] |= bit(match_[a]);
                grew = true;
                ++in;
            }
        }
        return in == k_;
    }

    // Depth-first along the rows; order_ gets the views as they finish.
    // True when the first tree, from view 0, holds every view.
    bool first_pass() {
        std::copy_n(matched_.begin(), w_, unvisited_.begin());
        std::size_t finished = 0;
        for (std::size_t root = 0; root < k_; ++root) {
            if ((unvisited_[match_[root] >> 6] & bit(match_[root])) == 0) continue;
            unvisited_[match_[root] >> 6] &= ~bit(match_[root]);
            std::size_t top = 0;
            stack_[top] = root;
            cursor_[top++] = 0;
            while (top > 0) {
                const std::size_t a = stack_[top - 1];
                const std::uint64_t* r = row(a);
                std::size_t w = cursor_[top - 1];
                std::uint64_t next = 0;
                for (; w < w_ && (next = r[w] & unvisited_[w]) == 0; ++w) {}
                cursor_[top - 1] = w;
                if (w == w_) {
                    order_[finished++] = a;
                    --top;
                    continue;
                }
                const std::size_t j = 64 * w + static_cast<std::size_t>(std::countr_zero(next));
                unvisited_[w] &= ~bit(j);
                stack_[top] = static_cast<std::size_t>(owner_[j]);
                cursor_[top++] = 0;
            }
            if (root == 0 && finished == k_) return true;
        }
        return false;
    }

    // Depth-first along the columns, latest finished first: each tree is a
    // component. Its views keep keep_ and the matched values of the
    // component; the rest of their rows goes.
    template <class Doomed>
    bool second_pass(Doomed& doomed) {
        std::fill_n(unseen_.begin(), kw_, ~std::uint64_t{0});
        if (k_ % 64 != 0) unseen_[kw_ - 1] = (std::uint64_t{1} << (k_ % 64)) - 1;
        std::fill_n(comp_mask_.begin(), w_, 0);
        for (std::size_t i = k_; i-- > 0;) {
            const std::size_t root = order_[i];
            if ((unseen_[root >> 6] & bit(root)) == 0) continue;
            unseen_[root >> 6] &= ~bit(root);
            std::size_t size = 0, top = 0;
            members_[size++] = root;
            stack_[top] = root;
            cursor_[top++] = 0;
            while (top > 0) {
                const std::uint64_t* c = cols_.data() + stack_[top - 1] * kw_;
                std::size_t w = cursor_[top - 1];
                std::uint64_t next = 0;
                for (; w < kw_ && (next = c[w] & unseen_[w]) == 0; ++w) {}
                cursor_[top - 1] = w;
                if (w == kw_) {
                    --top;
                    continue;
                }
                const std::size_t a = 64 * w + static_cast<std::size_t>(std::countr_zero(next));
                unseen_[w] &= ~bit(a);
                members_[size++] = a;
                stack_[top] = a;
                cursor_[top++] = 0;
            }
            for (std::size_t m = 0; m < size; ++m) comp_mask_[match_[members_[m]] >> 6] |= bit(match_[members_[m]]);
            for (std::size_t m = 0; m < size; ++m) {
                const std::size_t a = members_[m];
                const std::uint64_t* r = row(a);
                for (std::size_t w = 0; w < w_; ++w)
                    if (const std::uint64_t gone = r[w] & ~(keep_[w] | comp_mask_[w]); gone != 0)
                        if (!doomed(a, w, gone)) return false;
            }
            for (std::size_t m = 0; m < size; ++m) comp_mask_[match_[members_[m]] >> 6] = 0;
        }
        return true;
    }

    std::size_t k_ = 0, w_ = 0, kw_ = 0;
    std::vector<std::uint64_t> rows_;       // k_ rows of w_ words
    std::vector<std::uint64_t> cols_;       // k_ columns of kw_ words, by view
    std::vector<int> owner_;                // value index -> view, for matched values
    std::vector<std::size_t> match_;        // view -> value index
    std::vector<std::uint64_t> matched_;    // the matched values
    std::vector<std::uint64_t> keep_;       // values every view keeps
    std::vector<std::uint64_t> unvisited_;  // first pass: matched values of views not yet visited
    std::vector<std::uint64_t> comp_mask_;  // matched values of the component being pruned
    std::vector<std::uint64_t> reach_free_; // views that reach a free value
    std::vector<std::uint64_t> unseen_;     // second pass: views not yet in a component
    std::vector<std::size_t> order_, members_, stack_, cursor_;
};

} // namespace propane::detail

#endif
