#ifndef PROPANE_EXAMPLES_MAGIC_SQUARE_MODEL_HPP
#define PROPANE_EXAMPLES_MAGIC_SQUARE_MODEL_HPP

// The magic square model, shared by the magic_square example and its tests:
// an n x n grid holding 1..n^2 once each (one AllDifferent) whose rows,
// columns and two diagonals each sum to n(n^2 + 1)/2 (one linear equality
// apiece, bounds consistent). No symmetry is broken, so the counts include
// the 8 rotations and reflections of each square: 8 for n = 3, 7,040 for
// n = 4 (OEIS A006052 counts them up to symmetry: 1, 880). Branching takes
// the cell with the fewest values left, smallest value first.

#include <cstdint>
#include <utility>
#include <vector>

#include <propane/parallel.hpp>

namespace magic_square {

using Store = propane::Store<propane::BitDomain<propane::dynamic>>;

// Beyond this the cells' values no longer fit comfortably in a search.
inline constexpr int max_order = 30;

struct Model {
    Store store;
    std::vector<propane::IntVar> cells; // row-major
};

constexpr std::int64_t magic_sum(int n) { return std::int64_t{n} * (std::int64_t{n} * n + 1) / 2; }

inline Model make_model(int n, propane::Consistency consistency) {
    Model m;
    m.cells = m.store.int_vars(n * n, 1, n * n);
    m.store.post(propane::all_different(m.cells, consistency));
    const auto at = [&](int r, int c) { return m.cells[static_cast<std::size_t>(r * n + c)]; };
    const auto sum_is_magic = [&](const std::vector<propane::IntVar>& line) {
        m.store.post(propane::linear(line, propane::Rel::eq, magic_sum(n)));
    };
    std::vector<propane::IntVar> diagonal, anti_diagonal;
    for (int i = 0; i < n; ++i) {
        std::vector<propane::IntVar> row, column;
        for (int j = 0; j < n; ++j) {
            row.push_back(at(i, j));
            column.push_back(at(j, i));
        }
        sum_is_magic(row);
        sum_is_magic(column);
        diagonal.push_back(at(i, i));
        anti_diagonal.push_back(at(i, n - 1 - i));
    }
    sum_is_magic(diagonal);
    sum_is_magic(anti_diagonal);
    return m;
}

// Calls visit(cells) for each square (row-major values), in the order of
// the search on one thread whatever `threads` is, and returns the
// statistics; visit may return propane::Action to stop. On threads the
// search is split (parallel.hpp): for a complete search the squares, the
// failures and the branches are one thread's exactly.
template <class Visit>
propane::SearchStats solve(int n, propane::Consistency consistency, const propane::Limits& limits, unsigned threads,
                           Visit&& visit) {
    Model m = make_model(n, consistency);
    std::vector<int> square(static_cast<std::size_t>(n) * static_cast<std::size_t>(n));
    return propane::solve(m.store, m.cells, propane::Strategy{propane::smallest_domain, propane::min_value}, limits,
                          propane::Parallel{.threads = threads}, [&](const auto& sol) {
                              for (std::size_t i = 0; i < square.size(); ++i) square[i] = sol[i];
                              return visit(square);
                          });
}
template <class Visit>
propane::SearchStats solve(int n, propane::Consistency consistency, const propane::Limits& limits, Visit&& visit) {
    return solve(n, consistency, limits, 1, std::forward<Visit>(visit));
}

} // namespace magic_square

#endif
