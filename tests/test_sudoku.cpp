// The Sudoku model against published puzzles and an independent reference.
// The expected solutions are typed in from their sources and then checked
// here by computation (every row, column and box a permutation of 1..9,
// every given kept), so a typo cannot pass as a reference; a plain
// backtracking solver that shares no code with propane or the model
// provides the solution sets the search must reproduce at every strength.

#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <initializer_list>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "support.hpp"
#include "sudoku_model.hpp"

#include "instances.hpp"

namespace {

struct Known {
    const char* source;
    const char* puzzle;
    const char* solution;
};

// Proper puzzles, each with one solution.
constexpr std::array<Known, 5> unique_puzzles{{
    {"Wikipedia, 'Sudoku' (the article's example puzzle)",
     "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
     "534678912672195348198342567859761423426853791713924856961537284287419635345286179"},
    {"Project Euler, problem 96, Grid 01",
     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
     "483921657967345821251876493548132976729564138136798245372689514814253769695417382"},
    {"Arto Inkala, 'AI Escargot' (2006)",
     "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
     "162857493534129678789643521475312986913586742628794135356478219241935867897261354"},
    {"Arto Inkala, 'the world's hardest Sudoku' (2012)",
     "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
     "812753649943682175675491283154237896369845721287169534521974368438526917796318452"},
    {"Gordon Royle, minimum Sudoku (17 givens), the first of the list",
     "000000010400000000020000000000050407008000300001090000300400200050100000000806000",
     "693784512487512936125963874932651487568247391741398625319475268856129743274836159"},
}};

// Each of these drops givens from a proper puzzle above: the Wikipedia
// puzzle without r1c1, r1c2 and r3c2 (10 solutions), and Royle's without
// r3c2 (329 solutions; no 16-given Sudoku has a unique solution).
constexpr std::array<const char*, 2> several_puzzles{
    "....7....6..195.....8....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
    "000000010400000000000000000000050407008000300001090000300400200050100000000806000",
};

// Givens that do not clash, so these are puzzles, with no solution. The
// first is Inkala's 2012 puzzle with a 1 added at r2c2 (its solution has a 4
// there): every strength needs search to refute it. In the second, r1c9 must
// be 9 (the row's only missing digit) but a 9 already sits in its box.
constexpr std::array<const char*, 2> unsolvable_puzzles{
    "8.........136......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
    "12345678.........9...............................................................",
};

constexpr std::array<propane::Consistency, 3> strengths{propane::value, propane::bounds, propane::domain};

std::string name(propane::Consistency c) {
    switch (c) {
    case propane::Consistency::value: return "value";
    case propane::Consistency::bounds: return "bounds";
    case propane::Consistency::domain: return "domain";
    }
    return "invalid Consistency " + std::to_string(static_cast<int>(c));
}

// ---- the reference, sharing nothing with the model --------------------------

// A puzzle as 81 characters, '.' for a blank.
std::string normalized(std::string_view puzzle) {
    std::string g(puzzle);
    for (char& c : g)
        if (c == '0') c = '.';
    return g;
}

// Why `grid` is not a solution of `puzzle`, or "" when it is one.
std::string solution_problem(std::string_view puzzle, std::string_view grid) {
    if (grid.size() != 81) return "has " + std::to_string(grid.size()) + " cells";
    for (int i = 0; i < 81; ++i) {
        const char g = grid[static_cast<std::size_t>(i)], p = puzzle[static_cast<std::size_t>(i)];
        if (g < '1' || g > '9') return "cell " + std::to_string(i) + " holds '" + std::string(1, g) + "'";
        if (p != '.' && p != '0' && p != g)
            return "cell " + std::to_string(i) + " is " + std::string(1, g) + ", the given is " + std::string(1, p);
    }
    const char* kinds[] = {"row", "column", "box"};
    for (int kind = 0; kind < 3; ++kind) {
        for (int k = 0; k < 9; ++k) {
            std::set<char> digits;
            for (int j = 0; j < 9; ++j) {
                const int r = kind == 0 ? k : kind == 1 ? j : 3 * (k / 3) + j / 3;
                const int c = kind == 0 ? j : kind == 1 ? k : 3 * (k % 3) + j % 3;
                digits.insert(grid[static_cast<std::size_t>(9 * r + c)]);
            }
            if (digits.size() != 9) return std::string(kinds[kind]) + " " + std::to_string(k + 1) + " repeats a digit";
        }
    }
    return "";
}

bool allowed(const std::string& g, int cell, char d) {
    const int r = cell / 9, c = cell % 9, br = r / 3 * 3, bc = c / 3 * 3;
    for (int k = 0; k < 9; ++k)
        if (g[static_cast<std::size_t>(9 * r + k)] == d || g[static_cast<std::size_t>(9 * k + c)] == d ||
            g[static_cast<std::size_t>(9 * (br + k / 3) + bc + k % 3)] == d)
            return false;
    return true;
}

// Plain backtracking: no propagation, just the digits each empty cell still
// allows. It fills the cell with the fewest first: filling cells in reading
// order takes minutes on the 16- and 17-given puzzles.
void brute_force(std::string& g, std::vector<std::string>& out) {
    int best = -1, fewest = 10;
    for (int cell = 0; cell < 81; ++cell) {
        if (g[static_cast<std::size_t>(cell)] != '.') continue;
        int n = 0;
        for (char d = '1'; d <= '9'; ++d) n += allowed(g, cell, d) ? 1 : 0;
        if (n < fewest) {
            best = cell;
            fewest = n;
        }
    }
    if (best < 0) {
        out.push_back(g);
        return;
    }
    const auto b = static_cast<std::size_t>(best);
    for (char d = '1'; d <= '9'; ++d) {
        if (!allowed(g, best, d)) continue;
        g[b] = d;
        brute_force(g, out);
        g[b] = '.';
    }
}

std::vector<std::string> reference_solutions(std::string_view puzzle) {
    std::string g = normalized(puzzle);
    std::vector<std::string> out;
    brute_force(g, out);
    return out;
}

// ---- the model ------------------------------------------------------------

sudoku::Grid givens(std::string_view puzzle) {
    const sudoku::Parsed p = sudoku::parse(puzzle);
    REQUIRE_MESSAGE(p.ok(), p.error);
    return p.givens;
}

struct Run {
    std::vector<std::string> solutions; // in the order found
    propane::SearchStats stats;
};

Run run(std::string_view puzzle, propane::Consistency strength, std::uint64_t limit = 0) {
    Run r;
    r.stats = sudoku::solve(givens(puzzle), strength, limit,
                            [&](const sudoku::Grid& g) { r.solutions.push_back(sudoku::digits(g)); });
    return r;
}

// Over a complete search every branch ends in a failure or a solution, and
// the binary tree has one more leaf than it has inner nodes.
void check_tree_shape(const propane::SearchStats& st) {
    CHECK(st.complete());
    if (st.branches > 0) CHECK(st.branches == 2 * (st.failures + st.solutions - 1));
}

} // namespace

TEST_CASE("sudoku: the units are the rows, columns and boxes, each cell in three") {
    std::array<int, 81> count{};
    for (std::size_t u = 0; u < sudoku::units.size(); ++u) {
        CAPTURE(sudoku::unit_name(u));
        std::set<int> cells(sudoku::units[u].begin(), sudoku::units[u].end());
        CHECK(cells.size() == 9);
        std::set<int> rows, cols, boxes;
        for (int c : cells) {
            REQUIRE((c >= 0 && c < 81));
            ++count[static_cast<std::size_t>(c)];
            rows.insert(c / 9);
            cols.insert(c % 9);
            boxes.insert(c / 27 * 3 + c % 9 / 3);
        }
        const std::size_t one = u < 9 ? rows.size() : u < 18 ? cols.size() : boxes.size();
        CHECK(one == 1);
    }
    for (int c : count) CHECK(c == 3);
}

TEST_CASE("sudoku: the reference solutions are Sudoku grids that keep their givens") {
    for (const Known& k : unique_puzzles) {
        CAPTURE(k.source);
        CHECK(solution_problem(k.puzzle, k.solution) == "");
    }
}

TEST_CASE("sudoku: each proper puzzle has its known solution and no other, at every strength") {
    for (const Known& k : unique_puzzles) {
        CAPTURE(k.source);
        CHECK(reference_solutions(k.puzzle) == std::vector<std::string>{k.solution});
        for (propane::Consistency strength : strengths) {
            CAPTURE(name(strength));
            const Run r = run(k.puzzle, strength);
            check_tree_shape(r.stats);
            REQUIRE(r.solutions.size() == 1);
            CHECK(r.stats.solutions == 1);
            const std::string& got = r.solutions[0];
            for (int cell = 0; cell < 81; ++cell) {
                const auto i = static_cast<std::size_t>(cell);
                if (got[i] != k.solution[i])
                    FAIL_CHECK(sudoku::cell_name(cell) << " is " << std::string(1, got[i]) << ", expected "
                                                       << std::string(1, k.solution[i]));
            }
        }
    }
}

TEST_CASE("sudoku: a puzzle with several solutions gives the brute-force set at every strength") {
    for (const char* puzzle : several_puzzles) {
        CAPTURE(puzzle);
        const std::vector<std::string> ref = reference_solutions(puzzle);
        const std::set<std::string> ref_set(ref.begin(), ref.end());
        REQUIRE(ref.size() >= 2);
        REQUIRE(ref_set.size() == ref.size());
        for (const std::string& s : ref) CHECK(solution_problem(puzzle, s) == "");
        for (propane::Consistency strength : strengths) {
            CAPTURE(name(strength));
            const Run r = run(puzzle, strength);
            check_tree_shape(r.stats);
            CHECK(r.stats.solutions == ref.size());
            for (const std::string& s : r.solutions) {
                CAPTURE(s);
                CHECK(solution_problem(puzzle, s) == "");
            }
            const std::set<std::string> got(r.solutions.begin(), r.solutions.end());
            CHECK(got.size() == r.solutions.size()); // no solution found twice
            CHECK(got == ref_set);
        }
    }
}

TEST_CASE("sudoku: a puzzle with no solution has none at every strength") {
    for (const char* puzzle : unsolvable_puzzles) {
        CAPTURE(puzzle);
        CHECK(reference_solutions(puzzle).empty());
        for (propane::Consistency strength : strengths) {
            CAPTURE(name(strength));
            const Run r = run(puzzle, strength);
            check_tree_shape(r.stats);
            CHECK(r.solutions.empty());
            CHECK(r.stats.solutions == 0);
            CHECK(r.stats.failures > 0);
        }
    }
    // The first one is not refuted by propagation alone at any strength.
    for (propane::Consistency strength : strengths) {
        CAPTURE(name(strength));
        CHECK(run(unsolvable_puzzles[0], strength).stats.branches > 0);
    }
}

TEST_CASE("sudoku: a limit of two solutions tells unique from not unique") {
    for (propane::Consistency strength : strengths) {
        CAPTURE(name(strength));
        const Run unique = run(unique_puzzles[0].puzzle, strength, 2);
        CHECK(unique.stats.solutions == 1);
        CHECK(unique.stats.complete());
        const Run several = run(several_puzzles[0], strength, 2);
        CHECK(several.stats.solutions == 2);
        CHECK(several.solutions.size() == 2);
        CHECK_FALSE(several.stats.complete());
        // The first two of the full search, in the same order.
        const Run all = run(several_puzzles[0], strength);
        REQUIRE(all.solutions.size() >= 2);
        CHECK(several.solutions == std::vector<std::string>(all.solutions.begin(), all.solutions.begin() + 2));
    }
}

TEST_CASE("sudoku: the search statistics do not vary from run to run") {
    for (propane::Consistency strength : strengths) {
        CAPTURE(name(strength));
        const propane::SearchStats a = run(unique_puzzles[3].puzzle, strength).stats;
        const propane::SearchStats b = run(unique_puzzles[3].puzzle, strength).stats;
        CHECK(a.failures == b.failures);
        CHECK(a.branches == b.branches);
        CHECK(a.propagations == b.propagations);
    }
}

TEST_CASE("sudoku: parsing a puzzle line") {
    using sudoku::parse;
    const std::string blank(81, '.');
    // An empty grid with some cells set.
    auto with = [&](std::initializer_list<std::pair<int, char>> cells) {
        std::string s = blank;
        for (auto [cell, c] : cells) s[static_cast<std::size_t>(cell)] = c;
        return s;
    };

    SUBCASE("givens and blanks") {
        const sudoku::Parsed p = parse(unique_puzzles[0].puzzle);
        REQUIRE(p.ok());
        CHECK(p.givens[0] == 5);
        CHECK(p.givens[1] == 3);
        CHECK(p.givens[2] == 0);
        CHECK(p.givens[80] == 9);
        std::string zeros = unique_puzzles[0].puzzle;
        for (char& c : zeros)
            if (c == '.') c = '0';
        CHECK(sudoku::digits(p.givens) == zeros);
    }
    SUBCASE("'0' and '.' are both blanks") {
        std::string dots = unique_puzzles[4].puzzle;
        for (char& c : dots)
            if (c == '0') c = '.';
        const sudoku::Parsed zeros = parse(unique_puzzles[4].puzzle), periods = parse(dots);
        REQUIRE(zeros.ok());
        REQUIRE(periods.ok());
        CHECK(zeros.givens == periods.givens);
        CHECK(sudoku::digits(zeros.givens) == unique_puzzles[4].puzzle);
    }
    SUBCASE("an empty grid and a full solution are puzzles") {
        CHECK(parse(blank).ok());
        CHECK(parse(unique_puzzles[0].solution).ok());
    }
    SUBCASE("consistent givens without a solution are a puzzle, not a bad line") {
        for (const char* puzzle : unsolvable_puzzles) CHECK(parse(puzzle).ok());
    }
    SUBCASE("wrong length") {
        CHECK(parse("").error == "expected 81 characters, got 0");
        CHECK(parse(blank.substr(1)).error == "expected 81 characters, got 80");
        CHECK(parse(blank + ".").error == "expected 81 characters, got 82");
        // The caller strips line terminators; a stray \r is one too many.
        CHECK(parse(blank + "\r").error == "expected 81 characters, got 82");
    }
    SUBCASE("bad characters") {
        CHECK(parse(with({{4, 'x'}})).error == "character 5 is 'x', expected 1-9, '.' or '0'");
        CHECK(parse(with({{0, ' '}})).error == "character 1 is ' ', expected 1-9, '.' or '0'");
        CHECK(parse(with({{80, '\t'}})).error == "character 81 is byte 0x09, expected 1-9, '.' or '0'");
        CHECK(parse(with({{10, '\xc3'}})).error == "character 11 is byte 0xc3, expected 1-9, '.' or '0'");
        // The first bad character is the one reported.
        CHECK(parse(with({{3, '-'}, {2, '*'}})).error == "character 3 is '*', expected 1-9, '.' or '0'");
    }
    SUBCASE("givens that clash") {
        CHECK(parse(with({{0, '1'}, {8, '1'}})).error == "givens clash: 1 appears twice in row 1 (r1c1 and r1c9)");
        CHECK(parse(with({{4, '5'}, {76, '5'}})).error ==
              "givens clash: 5 appears twice in column 5 (r1c5 and r9c5)");
        // Different row and column, same box.
        CHECK(parse(with({{60, '7'}, {80, '7'}})).error == "givens clash: 7 appears twice in box 9 (r7c7 and r9c9)");
        // The Wikipedia puzzle with its r1c2 3 changed to a 5, the digit of r1c1.
        std::string clash = unique_puzzles[0].puzzle;
        clash[1] = '5';
        CHECK(parse(clash).error == "givens clash: 5 appears twice in row 1 (r1c1 and r1c2)");
        // A bad character is found before any clash.
        CHECK(parse(with({{0, '1'}, {1, '1'}, {2, 'a'}})).error == "character 3 is 'a', expected 1-9, '.' or '0'");
    }
}
