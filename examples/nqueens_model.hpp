#ifndef PROPANE_EXAMPLES_NQUEENS_MODEL_HPP
#define PROPANE_EXAMPLES_NQUEENS_MODEL_HPP

// The N-queens model of the OR-Tools constraint-programming guide, shared by
// the nqueens example, the tests and the benchmarks so all three run the
// same model: q[c] is the row of the queen in column c, and AllDifferent
// holds on q, on q[c] + c and on q[c] - c (rows, and both diagonals).
//
// Also here, so the tests check what the example runs: the symmetries of
// the board (is a solution the canonical one of its orbit?), the mirror-
// broken model with its solution weights, and an independent check that a
// placement is a solution.

#include <cassert>
#include <cstdint>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include <propane/propane.hpp>

namespace nqueens {

// With Symmetry::mirror_broken the model keeps only solutions with
// q[0] <= (N - 1) / 2: reflecting the board top to bottom maps every
// solution to one with q[0] on the other side (or on the middle row), so the
// search space halves and weight() restores the full count.
enum class Symmetry : std::uint8_t { none, mirror_broken };

template <class Domain>
struct Model {
    propane::Store<Domain> store;
    std::vector<propane::IntVar> q;

    Model(int n, propane::Consistency strength, Symmetry symmetry = Symmetry::none)
        : q(store.int_vars(n, 0, n - 1)) {
        std::vector<propane::OffsetView> up, down;
        up.reserve(q.size());
        down.reserve(q.size());
        for (int c = 0; c < n; ++c) {
            up.push_back(q[static_cast<std::size_t>(c)] + c);
            down.push_back(q[static_cast<std::size_t>(c)] - c);
        }
        if (symmetry == Symmetry::mirror_broken) {
            // Row 0 stays whatever n is, so this cannot empty the domain.
            [[maybe_unused]] const propane::Change c = q[0].remove_above(store, (n - 1) / 2);
            assert(c != propane::Change::failed);
        }
        store.post(propane::all_different(q, strength));
        store.post(propane::all_different(up, strength));
        store.post(propane::all_different(down, strength));
    }
};

// How many solutions of the full model a solution q of the mirror-broken
// model stands for: itself and its mirror image, except when q[0] is the
// middle row of an odd board, whose mirror image also has q[0] there and is
// found on its own.
inline int weight(std::span<const int> q) {
    const auto n = static_cast<int>(q.size());
    return n % 2 == 1 && q[0] == (n - 1) / 2 ? 1 : 2;
}

// The mirror image that weight() counts: the board reflected top to bottom.
inline void mirror(std::span<const int> q, std::vector<int>& out) {
    const auto n = static_cast<int>(q.size());
    out.resize(q.size());
    for (std::size_t c = 0; c < q.size(); ++c) out[c] = n - 1 - q[c];
}

// True if q places one queen per row and no two on a diagonal: a check that
// shares nothing with the propagators, for the example and the tests.
// `seen` is scratch space, reused across calls so that checking every
// solution of a count allocates nothing.
inline bool is_solution(std::span<const int> q, std::vector<unsigned char>& seen) {
    const auto n = static_cast<int>(q.size());
    const auto size = static_cast<std::size_t>(n);
    // Rows, then the diagonals r + c and r - c + n - 1 (2n - 1 each).
    seen.assign(5 * size, 0);
    unsigned char* row = seen.data();
    unsigned char* up = row + size;
    unsigned char* down = up + 2 * size;
    for (int c = 0; c < n; ++c) {
        const int r = q[static_cast<std::size_t>(c)];
        if (r < 0 || r >= n) return false;
        unsigned char& a = row[r];
        unsigned char& b = up[r + c];
        unsigned char& d = down[r - c + n - 1];
        if (a | b | d) return false;
        a = b = d = 1;
    }
    return true;
}

// True if q is the lexicographically smallest of the (up to) 8 boards that
// the rotations and reflections of the square make of it, so each class of
// equivalent solutions is counted once (OEIS A002562). The 8 boards are p,
// p with the columns reversed, with the rows reversed, and with both, for p
// = q and for its inverse (the board transposed). `inverse` is scratch
// space, reused across calls.
inline bool is_canonical(std::span<const int> q, std::vector<int>& inverse) {
    const std::size_t n = q.size();
    const int top = static_cast<int>(n) - 1;
    inverse.resize(n);
    for (std::size_t c = 0; c < n; ++c) inverse[static_cast<std::size_t>(q[c])] = static_cast<int>(c);
    for (const std::span<const int> p : {q, std::span<const int>(inverse)}) {
        for (const bool flip_cols : {false, true}) {
            for (const bool flip_rows : {false, true}) {
                // Compare the image with q from the first column on; the
                // identity is equal throughout and says nothing.
                for (std::size_t c = 0; c < n; ++c) {
                    const int r = p[flip_cols ? n - 1 - c : c];
                    const int image = flip_rows ? top - r : r;
                    if (image != q[c]) {
                        if (image < q[c]) return false;
                        break;
                    }
                }
            }
        }
    }
    return true;
}

// The guide's search: first unbound column, lowest row first.
inline constexpr propane::Strategy guide_strategy{.var = propane::first_unbound, .val = propane::min_value};

// nqueens --first's search, chosen by measurement (README): the column with
// the fewest rows left, on a random row, starting again after a Luby
// budget of failures so that no unlucky first choice can hold it for long;
// with the value AllDifferent, the cheapest per node.
inline constexpr propane::Strategy first_strategy{
    .var = propane::smallest_domain, .val = propane::random_value, .restarts = {.policy = propane::RestartPolicy::luby}};
inline constexpr propane::Consistency first_consistency = propane::value;

// Calls f(std::type_identity<Domain>{}) with the narrowest domain type that
// holds n values: one word up to 64, two up to 128, four up to 256, then the
// run-time sized form.
template <class F>
decltype(auto) with_domain_for(int n, F&& f) {
    if (n <= 64) return std::forward<F>(f)(std::type_identity<propane::BitDomain<1>>{});
    if (n <= 128) return std::forward<F>(f)(std::type_identity<propane::BitDomain<2>>{});
    if (n <= 256) return std::forward<F>(f)(std::type_identity<propane::BitDomain<4>>{});
    return std::forward<F>(f)(std::type_identity<propane::BitDomain<propane::dynamic>>{});
}

// Counts all solutions with the guide's strategy.
template <class Domain>
propane::SearchStats count(int n, propane::Consistency strength) {
    Model<Domain> m(n, strength);
    return propane::solve(m.store, m.q, guide_strategy, [](const auto&) { return propane::next; });
}

} // namespace nqueens

#endif
