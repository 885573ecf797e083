#ifndef PROPANE_EXAMPLES_SUDOKU_MODEL_HPP
#define PROPANE_EXAMPLES_SUDOKU_MODEL_HPP

// The Sudoku model, shared by the sudoku example and its tests so both run
// the same model and search: 81 variables 1..9 in row-major order, one
// AllDifferent per row, column and 3x3 box, and the givens assigned before
// the first propagation.
//
// A puzzle is written as one line of 81 characters, '1'-'9' for a given
// and '.' or '0' for a blank. parse() rejects a line that is not a puzzle:
// wrong length, a character outside that set, or two equal givens in one
// row, column or box. The clash is found by looking at the givens, not by
// propagation: a puzzle whose givens are consistent but which has no
// solution is a well-formed puzzle with zero solutions, not a bad line.

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <propane/propane.hpp>

namespace sudoku {

inline constexpr int cells = 81;

// Row-major, 0 for a blank.
using Grid = std::array<int, cells>;

// The 27 units: rows 0-8, then columns 9-17, then boxes 18-26 (boxes
// numbered left to right, top to bottom), each as its 9 cell indices.
using Units = std::array<std::array<int, 9>, 27>;

constexpr Units make_units() {
    Units u{};
    for (int k = 0; k < 9; ++k) {
        for (int j = 0; j < 9; ++j) {
            const auto kk = static_cast<std::size_t>(k), jj = static_cast<std::size_t>(j);
            u[kk][jj] = 9 * k + j;
            u[9 + kk][jj] = 9 * j + k;
            u[18 + kk][jj] = 9 * (3 * (k / 3) + j / 3) + 3 * (k % 3) + j % 3;
        }
    }
    return u;
}

inline constexpr Units units = make_units();

// Both names are formatted with snprintf: g++ 12 warns falsely (-Wrestrict)
// about "literal" + std::string&& when it inlines it.

// "row 3", "column 5", "box 7": 1-based, as people count.
inline std::string unit_name(std::size_t unit) {
    static constexpr const char* kinds[] = {"row", "column", "box"};
    char buf[16];
    std::snprintf(buf, sizeof buf, "%s %zu", kinds[unit / 9 % 3], unit % 9 + 1);
    return buf;
}

// "r3c5": the usual Sudoku name of a cell, 1-based.
inline std::string cell_name(int cell) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "r%dc%d", cell / 9 + 1, cell % 9 + 1);
    return buf;
}

struct Parsed {
    Grid givens{};
    std::string error; // why the line is not a puzzle; empty when it is one
    bool ok() const noexcept { return error.empty(); }
};

// Reads one puzzle line (without its line terminator).
inline Parsed parse(std::string_view line) {
    Parsed p;
    if (line.size() != cells) {
        p.error = "expected 81 characters, got " + std::to_string(line.size());
        return p;
    }
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (c >= '1' && c <= '9') {
            p.givens[i] = c - '0';
        } else if (c != '.' && c != '0') {
            // A control or non-ASCII byte would garble the terminal.
            const auto byte = static_cast<unsigned char>(c);
            char shown[16];
            if (byte >= 0x20 && byte < 0x7f)
                std::snprintf(shown, sizeof shown, "'%c'", c);
            else
                std::snprintf(shown, sizeof shown, "byte 0x%02x", byte);
            p.error = "character " + std::to_string(i + 1) + " is " + shown + ", expected 1-9, '.' or '0'";
            return p;
        }
    }
    // Units are scanned in order, so the clash reported is always the same
    // one (the first row, then column, then box that has one).
    for (std::size_t u = 0; u < units.size(); ++u) {
        std::array<int, 10> seen_at{}; // digit -> 1 + index in unit of its first given, 0 if none
        for (std::size_t j = 0; j < 9; ++j) {
            const int cell = units[u][j];
            const int d = p.givens[static_cast<std::size_t>(cell)];
            if (d == 0) continue;
            int& first = seen_at[static_cast<std::size_t>(d)];
            if (first != 0) {
                p.error = "givens clash: " + std::to_string(d) + " appears twice in " + unit_name(u) + " (" +
                          cell_name(units[u][static_cast<std::size_t>(first - 1)]) + " and " + cell_name(cell) +
                          ")";
                return p;
            }
            first = static_cast<int>(j) + 1;
        }
    }
    return p;
}

// The 81 digits of a grid, 0 for a blank.
inline std::string digits(const Grid& g) {
    std::string s(cells, '0');
    for (std::size_t i = 0; i < s.size(); ++i) s[i] = static_cast<char>('0' + g[i]);
    return s;
}

// Nine values per unit fit one 64-bit word.
using Store = propane::Store<propane::BitDomain<1>>;

struct Model {
    Store store;
    std::vector<propane::IntVar> cell; // row-major
    // False when a given is not a digit 1..9 (parse() never makes one, a
    // caller of this API might): the puzzle then has no solution, rather
    // than one where that cell is blank.
    bool givens_assigned = true;

    // Each entry of givens is 0 or 1..9, as parse() leaves them; givens that
    // clash make a model that fails at its first propagation.
    Model(const Grid& givens, propane::Consistency strength) : cell(store.int_vars(cells, 1, 9)) {
        // Assigned before posting, so each AllDifferent's first run sees the
        // givens as fixed and removes them from their units at once.
        for (std::size_t i = 0; i < givens.size(); ++i)
            if (givens[i] != 0 && cell[i].assign(store, givens[i]) == propane::Change::failed)
                givens_assigned = false;
        std::vector<propane::IntVar> unit(9);
        for (const auto& u : units) {
            for (std::size_t j = 0; j < 9; ++j) unit[j] = cell[static_cast<std::size_t>(u[j])];
            store.post(propane::all_different(unit, strength));
        }
    }
};

// Smallest domain first, lowest value first. After propagation most cells of
// a Sudoku are fixed or down to two or three candidates, and branching on
// the cell with the fewest leaves the fewest right branches to refute (the
// first-fail principle); a cell with two candidates is settled by one
// binary choice. The order of values matters little when a puzzle has one
// solution and the whole tree is searched anyway. Both choices are
// deterministic (ties go to the lowest cell index), so the branch and
// failure counts of a puzzle never vary from run to run.
inline constexpr propane::Strategy strategy{.var = propane::smallest_domain, .val = propane::min_value};

// Searches for the solutions of `givens`, calling visit(const Grid&) for each
// in the order found, until one of `limits` stops it. The statistics say
// whether the tree was searched completely, or which limit stopped it.
template <class Visit>
propane::SearchStats solve(const Grid& givens, propane::Consistency strength, const propane::Limits& limits,
                           Visit&& visit) {
    Model m(givens, strength);
    if (!m.givens_assigned) {
        // As the search reports a root that fails its first propagation.
        propane::SearchStats st;
        st.failures = 1;
        st.outcome = propane::Outcome::complete;
        return st;
    }
    Grid g{};
    return propane::solve(m.store, m.cell, strategy, limits, [&](const auto& sol) {
        for (std::size_t i = 0; i < g.size(); ++i) g[i] = sol[i];
        visit(static_cast<const Grid&>(g));
    });
}

// The same, stopping after `limit` solutions (0: find all).
template <class Visit>
propane::SearchStats solve(const Grid& givens, propane::Consistency strength, std::uint64_t limit, Visit&& visit) {
    return solve(givens, strength, propane::Limits{.solutions = limit == 0 ? propane::unlimited : limit},
                 std::forward<Visit>(visit));
}

} // namespace sudoku

#endif
