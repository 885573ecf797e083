#ifndef PROPANE_EXAMPLES_GOLOMB_MODEL_HPP
#define PROPANE_EXAMPLES_GOLOMB_MODEL_HPP

// The Golomb ruler model, shared by the golomb example and its tests: n
// marks m[0] = 0 < m[1] < ... < m[n-1] whose n(n-1)/2 pairwise differences
// are all distinct, with the length m[n-1] minimised. The classic CP
// formulation (CSPLib problem 6):
//   d[i][j] = m[j] - m[i] for i < j, each a variable, tied by linear;
//   all_different over the d, at the chosen strength;
//   d[0][1] < d[n-2][n-1], which keeps one ruler of each mirror pair (the
//   mirror image reverses the order of the gaps);
//   branch on m, first unfixed mark, smallest value first.
// Marks range over 0..n*n: every known optimal ruler is shorter than n^2
// (Dimitromanolakis 2002 bounds the optimum by n^2 for n < 65000), so the
// bound cuts no optimum off.

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include <propane/parallel.hpp>

namespace golomb {

using Store = propane::Store<propane::BitDomain<propane::dynamic>>;

// The longest ruler the example accepts: d has n(n-1)/2 variables over
// n*n + 1 values each, and beyond a few dozen marks no search would end.
inline constexpr int max_marks = 64;

struct Model {
    Store store;
    std::vector<propane::IntVar> marks;
    std::vector<propane::IntVar> diffs; // d[i][j] for i < j, row by row
};

inline Model make_model(int n, propane::Consistency consistency) {
    Model m;
    const int top = n * n;
    m.marks = m.store.int_vars(n, 0, top);
    m.store.post(propane::rel(m.marks[0], propane::Rel::eq, 0));
    for (int i = 0; i + 1 < n; ++i) m.store.post(propane::rel(m.marks[i], propane::Rel::lt, m.marks[i + 1]));
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j) {
            const propane::IntVar d = m.store.int_var(1, top);
            m.store.post(propane::linear(std::vector<int>{1, -1, -1},
                                         std::vector<propane::IntVar>{m.marks[j], m.marks[i], d}, propane::Rel::eq, 0));
            m.diffs.push_back(d);
        }
    if (n >= 2) m.store.post(propane::all_different(m.diffs, consistency));
    // d[0][1] is diffs[0]; d[n-2][n-1] is the last difference.
    if (n >= 3) m.store.post(propane::rel(m.diffs.front(), propane::Rel::lt, m.diffs.back()));
    return m;
}

// Minimises the length on `threads` threads; improve(marks) sees each
// shorter ruler found (one call at a time). Returns the search's
// statistics, with the best length in `objective`.
template <class Improve>
auto solve(int n, propane::Consistency consistency, const propane::Limits& limits, unsigned threads,
           Improve&& improve) {
    Model m = make_model(n, consistency);
    std::vector<int> ruler(static_cast<std::size_t>(n));
    return propane::minimize(m.store, m.marks, propane::Strategy{propane::first_unbound, propane::min_value}, limits,
                             propane::Parallel{.threads = threads}, m.marks.back(), [&](const auto& sol) {
                                 for (std::size_t i = 0; i < ruler.size(); ++i) ruler[i] = sol[i];
                                 improve(ruler);
                             });
}
template <class Improve>
auto solve(int n, propane::Consistency consistency, const propane::Limits& limits, Improve&& improve) {
    return solve(n, consistency, limits, 1, std::forward<Improve>(improve));
}

} // namespace golomb

#endif
