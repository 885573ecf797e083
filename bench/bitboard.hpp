#ifndef PROPANE_BENCH_BITBOARD_HPP
#define PROPANE_BENCH_BITBOARD_HPP

// The speed limit for counting N-queens solutions: plain backtracking over
// bitboards, no engine. Queens go in row by row; a row's free squares are
// one word, the columns taken and both diagonals masked out, so a node
// costs a handful of instructions. It shares nothing with propane, and the
// benchmarks measure propane against it.

#include <bit>
#include <cstdint>

namespace bitboard {

// The shape of the tree count() searches, for reporting a cost per node.
struct Tree {
    std::uint64_t solutions = 0;
    std::uint64_t placements = 0; // queens put on a free square: its nodes
    std::uint64_t dead_ends = 0;  // rows reached with no free square left
};

namespace detail {

// `up` and `down` are the squares of this row attacked along the two
// diagonals; shifting them by one column per row moves each attack along its
// diagonal, and `all` cuts off what slides past the edge of the board.
// Tallying the tree is a template switch so that the timed count pays
// nothing for it (about 15% when tallied at run time).
template <bool Tally>
std::uint64_t solutions_from(std::uint32_t all, std::uint32_t cols, std::uint32_t up, std::uint32_t down,
                             Tree& tree) {
    if (cols == all) return 1;
    std::uint32_t free = all & ~(cols | up | down);
    if constexpr (Tally) {
        if (free == 0) ++tree.dead_ends;
        tree.placements += static_cast<std::uint64_t>(std::popcount(free));
    }
    std::uint64_t total = 0;
    for (; free != 0; free &= free - 1) {
        const std::uint32_t queen = free & (~free + 1);
        total += solutions_from<Tally>(all, cols | queen, (up | queen) << 1, (down | queen) >> 1, tree);
    }
    return total;
}

} // namespace detail

inline constexpr int max_n = 32;

// The number of solutions of the n x n board, 1 <= n <= max_n.
inline std::uint64_t count(int n) {
    Tree unused;
    return detail::solutions_from<false>(~std::uint32_t{0} >> (max_n - n), 0, 0, 0, unused);
}

// The same search, tallying its tree.
inline Tree tree(int n) {
    Tree result;
    result.solutions = detail::solutions_from<true>(~std::uint32_t{0} >> (max_n - n), 0, 0, 0, result);
    return result;
}

} // namespace bitboard

#endif
