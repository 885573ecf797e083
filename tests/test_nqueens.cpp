// The N-queens model against published figures: the search statistics of
// the OR-Tools guide's model (first unbound, min value) and the solution
// counts of OEIS A000170, at every domain width the example can pick. Then
// the example's extras against a brute-force enumeration that shares nothing
// with the engine: the solution check, the symmetry classes (OEIS A002562),
// the mirror-broken model and the --first strategy.

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "nqueens_model.hpp"

#include "instances.hpp"

// Short names, so CTest can run the slow count cases one domain width at a
// time (in parallel): test_nqueens -tc="*A000170*<dynamic>*".
TYPE_TO_STRING_AS("w1", propane::BitDomain<1>);
TYPE_TO_STRING_AS("w2", propane::BitDomain<2>);
TYPE_TO_STRING_AS("w4", propane::BitDomain<4>);
TYPE_TO_STRING_AS("dynamic", propane::BitDomain<propane::dynamic>);

namespace {

// OEIS A000170, N = 1..14.
constexpr std::array<std::uint64_t, 14> a000170{1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596};

// OEIS A002562 (solutions up to rotation and reflection), N = 1..12.
constexpr std::array<std::uint64_t, 12> a002562{1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787};

struct Figures {
    int n;
    std::uint64_t solutions, failures, branches;
};

// The guide's search (first unbound, min value). The bounds row for N = 8
// is the guide's own print-out (failures 304, branches 790); the rest
// extend it with the same model and search.
constexpr std::array<Figures, 9> bounds_figures{{{4, 2, 4, 10},
                                                 {5, 10, 4, 26},
                                                 {6, 4, 32, 70},
                                                 {7, 40, 70, 218},
                                                 {8, 92, 304, 790},
                                                 {9, 352, 1194, 3090},
                                                 {10, 724, 5355, 12156},
                                                 {11, 2680, 24566, 54490},
                                                 {12, 14200, 116806, 262010}}};
constexpr std::array<Figures, 9> value_figures{{{4, 2, 4, 10},
                                                {5, 10, 4, 26},
                                                {6, 4, 36, 78},
                                                {7, 40, 72, 222},
                                                {8, 92, 324, 830},
                                                {9, 352, 1290, 3282},
                                                {10, 724, 5942, 13330},
                                                {11, 2680, 27268, 59894},
                                                {12, 14200, 131902, 292202}}};

template <class Domain>
void check_figures(propane::Consistency strength, const std::array<Figures, 9>& table) {
    for (const Figures& f : table) {
        CAPTURE(f.n);
        const propane::SearchStats st = nqueens::count<Domain>(f.n, strength);
        CHECK(st.solutions == f.solutions);
        CHECK(st.failures == f.failures);
        CHECK(st.branches == f.branches);
        CHECK(st.complete());
        // Each decision fixes one more queen, so no path is deeper than N.
        CHECK(st.max_depth <= static_cast<std::uint64_t>(f.n));
        CHECK(st.propagations > 0);
    }
}

template <class Domain>
void check_counts(propane::Consistency strength, int max_n) {
    for (int n = 1; n <= max_n; ++n) {
        CAPTURE(n);
        const propane::SearchStats st = nqueens::count<Domain>(n, strength);
        CHECK(st.solutions == a000170[static_cast<std::size_t>(n - 1)]);
        CHECK(st.complete());
        if (st.solutions + st.failures > 0 && st.branches > 0)
            CHECK(st.branches == 2 * (st.failures + st.solutions - 1));
    }
}

} // namespace

TEST_CASE_TEMPLATE("N-queens statistics match the OR-Tools guide's search", Domain, propane::BitDomain<1>,
                   propane::BitDomain<2>, propane::BitDomain<4>, propane::BitDomain<propane::dynamic>) {
    SUBCASE("bounds") { check_figures<Domain>(propane::bounds, bounds_figures); }
    SUBCASE("value") { check_figures<Domain>(propane::value, value_figures); }
}

TEST_CASE_TEMPLATE("N-queens solution counts match OEIS A000170 for N = 1..14", Domain, propane::BitDomain<1>,
                   propane::BitDomain<2>, propane::BitDomain<4>, propane::BitDomain<propane::dynamic>) {
    SUBCASE("bounds") { check_counts<Domain>(propane::bounds, 14); }
    SUBCASE("value") { check_counts<Domain>(propane::value, 14); }
    // Régin's propagator costs more per node; N = 13 at one width keeps the
    // test time in line with the others.
    if constexpr (std::is_same_v<Domain, propane::BitDomain<1>>) {
        SUBCASE("domain") { check_counts<Domain>(propane::domain, 13); }
    }
}

TEST_CASE_TEMPLATE("8-queens at domain strength explores Gecode's IPL_DOM tree", Domain, propane::BitDomain<1>,
                   propane::BitDomain<2>, propane::BitDomain<4>, propane::BitDomain<propane::dynamic>) {
    const propane::SearchStats st = nqueens::count<Domain>(8, propane::domain);
    CHECK(st.solutions == 92);
    CHECK(st.failures == 289);
    CHECK(st.branches == 760);
    CHECK(st.complete());
}

TEST_CASE("the first 8-queens solution is the guide's: q = 0 4 7 5 2 6 1 3") {
    nqueens::Model<propane::BitDomain<1>> m(8, propane::bounds);
    std::vector<int> first;
    propane::solve(m.store, m.q, nqueens::guide_strategy, [&](const auto& sol) {
        for (std::size_t c = 0; c < sol.size(); ++c) first.push_back(sol[c]);
        return propane::stop;
    });
    CHECK(first == std::vector<int>{0, 4, 7, 5, 2, 6, 1, 3});
}

TEST_CASE("every solution found is a valid placement") {
    for (int n = 1; n <= 9; ++n) {
        CAPTURE(n);
        for (propane::Consistency strength :
             std::initializer_list<propane::Consistency>{propane::value, propane::bounds}) {
            nqueens::Model<propane::BitDomain<1>> m(n, strength);
            propane::solve(m.store, m.q, nqueens::guide_strategy, [&](const auto& sol) {
                for (int i = 0; i < n; ++i)
                    for (int j = i + 1; j < n; ++j) {
                        const int a = sol[static_cast<std::size_t>(i)], b = sol[static_cast<std::size_t>(j)];
                        REQUIRE(a != b);
                        REQUIRE(a - b != j - i);
                        REQUIRE(b - a != j - i);
                    }
            });
        }
    }
}

TEST_CASE("the example picks the narrowest domain type for the board") {
    auto words = [](int n) {
        return nqueens::with_domain_for(n, [](auto tag) -> std::size_t {
            using D = typename decltype(tag)::type;
            return D::is_dynamic ? 0 : D(0, 0).words();
        });
    };
    CHECK(words(1) == 1);
    CHECK(words(64) == 1);
    CHECK(words(65) == 2);
    CHECK(words(128) == 2);
    CHECK(words(129) == 4);
    CHECK(words(256) == 4);
    CHECK(words(257) == 0);
}

// ---- the example's extras ------------------------------------------------------

namespace {

using Board = std::vector<int>; // q[c] = row of the queen in column c

// Every solution, by plain backtracking over columns: no propagation, no
// engine.
std::vector<Board> brute_force(int n) {
    std::vector<Board> all;
    Board q(static_cast<std::size_t>(n));
    std::vector<bool> row(static_cast<std::size_t>(n)), up(2 * static_cast<std::size_t>(n)),
        down(2 * static_cast<std::size_t>(n));
    auto place = [&](auto& self, int c) -> void {
        if (c == n) {
            all.push_back(q);
            return;
        }
        for (int r = 0; r < n; ++r) {
            const auto a = static_cast<std::size_t>(r), b = static_cast<std::size_t>(r + c),
                       d = static_cast<std::size_t>(r - c + n);
            if (row[a] || up[b] || down[d]) continue;
            row[a] = up[b] = down[d] = true;
            q[static_cast<std::size_t>(c)] = r;
            self(self, c + 1);
            row[a] = up[b] = down[d] = false;
        }
    };
    place(place, 0);
    return all;
}

// The board as a picture, grid[row][col], turned and flipped as pictures
// are: a second derivation of the symmetries, apart from is_canonical's
// arithmetic on q.
using Grid = std::vector<std::string>;

Grid picture(const Board& q) {
    const std::size_t n = q.size();
    Grid g(n, std::string(n, '.'));
    for (std::size_t c = 0; c < n; ++c) g[static_cast<std::size_t>(q[c])][c] = 'Q';
    return g;
}

Grid turned(const Grid& g) { // a quarter turn clockwise
    const std::size_t n = g.size();
    Grid t(n, std::string(n, '.'));
    for (std::size_t r = 0; r < n; ++r)
        for (std::size_t c = 0; c < n; ++c) t[c][n - 1 - r] = g[r][c];
    return t;
}

Grid flipped(const Grid& g) { // left to right
    Grid f = g;
    for (std::string& row : f) std::reverse(row.begin(), row.end());
    return f;
}

Board queens(const Grid& g) {
    Board q(g.size());
    for (std::size_t r = 0; r < g.size(); ++r) q[g[r].find('Q')] = static_cast<int>(r);
    return q;
}

// The distinct boards the 8 symmetries of the square make of q.
std::set<Board> orbit(const Board& q) {
    std::set<Board> out;
    Grid g = picture(q);
    for (int k = 0; k < 4; ++k) {
        out.insert(queens(g));
        out.insert(queens(flipped(g)));
        g = turned(g);
    }
    return out;
}

template <class Domain>
std::vector<Board> engine_solutions(int n, propane::Consistency strength, nqueens::Symmetry symmetry) {
    nqueens::Model<Domain> m(n, strength, symmetry);
    std::vector<Board> all;
    propane::solve(m.store, m.q, nqueens::guide_strategy, [&](const auto& sol) {
        Board q(sol.size());
        for (std::size_t c = 0; c < sol.size(); ++c) q[c] = sol[c];
        all.push_back(q);
    });
    return all;
}

} // namespace

TEST_CASE("is_solution accepts exactly the placements brute force finds") {
    std::vector<unsigned char> seen;
    // Every assignment of rows to columns, N^N of them, so placements with
    // two queens in a row are tried too.
    for (int n = 1; n <= 6; ++n) {
        CAPTURE(n);
        const std::vector<Board> expected = brute_force(n);
        CHECK(expected.size() == a000170[static_cast<std::size_t>(n - 1)]);
        std::vector<Board> accepted;
        Board q(static_cast<std::size_t>(n), 0);
        for (;;) {
            if (nqueens::is_solution(q, seen)) accepted.push_back(q);
            std::size_t c = 0;
            while (c < q.size() && ++q[c] == n) q[c++] = 0;
            if (c == q.size()) break;
        }
        std::sort(accepted.begin(), accepted.end());
        CHECK(accepted == expected);
    }
    CHECK_FALSE(nqueens::is_solution(Board{0, 4}, seen));
    CHECK_FALSE(nqueens::is_solution(Board{-1, 1}, seen));
}

TEST_CASE("is_canonical picks exactly one board, the smallest, of each symmetry class (OEIS A002562)") {
    std::vector<int> scratch;
    for (int n = 1; n <= 12; ++n) {
        CAPTURE(n);
        const std::vector<Board> all = brute_force(n);
        std::map<Board, Board> smallest_of; // board -> smallest board of its orbit
        for (const Board& q : all) smallest_of[q] = *orbit(q).begin();
        std::set<Board> classes;
        std::uint64_t canonical = 0, orbit_sizes = 0;
        for (const Board& q : all) {
            classes.insert(smallest_of[q]);
            const bool is = nqueens::is_canonical(q, scratch);
            CHECK(is == (q == smallest_of[q]));
            if (!is) continue;
            ++canonical;
            orbit_sizes += orbit(q).size();
            // Why --unique may search the mirror-broken model: its
            // reflection top to bottom has row N - 1 - q[0] in column 0,
            // which would be smaller.
            CHECK(q[0] <= (n - 1) / 2);
        }
        CHECK(classes.size() == a002562[static_cast<std::size_t>(n - 1)]);
        CHECK(canonical == classes.size());
        // The classes partition the solutions.
        CHECK(orbit_sizes == all.size());
    }
}

TEST_CASE("the engine's canonical solutions match OEIS A002562, with and without the mirror broken") {
    std::vector<int> scratch;
    for (int n = 1; n <= 12; ++n) {
        CAPTURE(n);
        for (nqueens::Symmetry symmetry : {nqueens::Symmetry::none, nqueens::Symmetry::mirror_broken}) {
            CAPTURE(static_cast<int>(symmetry));
            const std::vector<Board> all = engine_solutions<propane::BitDomain<1>>(n, propane::value, symmetry);
            const auto canonical = std::count_if(all.begin(), all.end(),
                                                 [&](const Board& q) { return nqueens::is_canonical(q, scratch); });
            CHECK(static_cast<std::uint64_t>(canonical) == a002562[static_cast<std::size_t>(n - 1)]);
        }
    }
}

TEST_CASE_TEMPLATE("the mirror-broken model with its mirror images gives every solution once", Domain,
                   propane::BitDomain<1>, propane::BitDomain<2>, propane::BitDomain<4>,
                   propane::BitDomain<propane::dynamic>) {
    for (int n = 1; n <= 10; ++n) {
        CAPTURE(n);
        for (propane::Consistency strength :
             std::initializer_list<propane::Consistency>{propane::value, propane::bounds}) {
            std::vector<Board> full = engine_solutions<Domain>(n, strength, nqueens::Symmetry::none);
            std::vector<Board> rebuilt;
            std::uint64_t weighted = 0;
            Board image;
            for (const Board& q : engine_solutions<Domain>(n, strength, nqueens::Symmetry::mirror_broken)) {
                CHECK(q[0] <= (n - 1) / 2);
                weighted += static_cast<std::uint64_t>(nqueens::weight(q));
                rebuilt.push_back(q);
                if (nqueens::weight(q) == 2) {
                    nqueens::mirror(q, image);
                    rebuilt.push_back(image);
                }
            }
            std::sort(full.begin(), full.end());
            std::sort(rebuilt.begin(), rebuilt.end());
            CHECK(rebuilt == full);
            CHECK(weighted == full.size());
        }
    }
}

// Slow (N = 13 and 14): CTest runs it as test_nqueens_counts_symmetry.
TEST_CASE("the mirror-broken model's weighted counts match OEIS A000170 for N = 1..14") {
    for (int n = 1; n <= 14; ++n) {
        CAPTURE(n);
        nqueens::Model<propane::BitDomain<1>> m(n, propane::value, nqueens::Symmetry::mirror_broken);
        std::uint64_t weighted = 0;
        Board q(static_cast<std::size_t>(n));
        const propane::SearchStats st = propane::solve(m.store, m.q, nqueens::guide_strategy, [&](const auto& sol) {
            for (std::size_t c = 0; c < q.size(); ++c) q[c] = sol[c];
            weighted += static_cast<std::uint64_t>(nqueens::weight(q));
        });
        CHECK(st.complete());
        CHECK(weighted == a000170[static_cast<std::size_t>(n - 1)]);
    }
}

TEST_CASE("the --first strategy finds a valid placement on every board from 1 to 300") {
    std::vector<unsigned char> seen;
    for (int n = 1; n <= 300; ++n) {
        CAPTURE(n);
        nqueens::with_domain_for(n, [&](auto tag) {
            nqueens::Model<typename decltype(tag)::type> m(n, nqueens::first_consistency);
            Board q;
            const propane::SearchStats st =
                propane::solve(m.store, m.q, nqueens::first_strategy, [&](const auto& sol) {
                    for (std::size_t c = 0; c < sol.size(); ++c) q.push_back(sol[c]);
                    return propane::stop;
                });
            if (n == 2 || n == 3) {
                // No solution, and the restarts must not hide that.
                CHECK(q.empty());
                CHECK(st.complete());
            } else {
                REQUIRE(q.size() == static_cast<std::size_t>(n));
                CHECK(nqueens::is_solution(q, seen));
            }
        });
    }
}
