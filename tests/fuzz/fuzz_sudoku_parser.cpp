// libFuzzer target: the Sudoku line parser of examples/sudoku_model.hpp on
// arbitrary bytes.
//
// The input is parsed whole, as one line, and then line by line as the
// sudoku program reads a file (split at '\n', a trailing '\r' dropped,
// blank and '#' lines skipped). For every line parse() must not crash, and
// must accept exactly the lines that a reference written here accepts: 81
// characters from "123456789.0" with no digit twice in a row, column or box.
// An accepted line must give back its digits (0 for a blank), and
// sudoku::digits() of them must parse to the same givens. The first two
// accepted lines of an input are also solved, two solutions and 10,000
// branches at most, at a strength drawn from the line: each solution must
// keep the givens and obey the rules of Sudoku, checked here cell by cell,
// not with propane.

#include "sudoku_model.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace {

[[noreturn]] void fail(std::string_view line, const std::string& what) {
    std::fprintf(stderr, "fuzz_sudoku_parser: %s\nline (%zu bytes): ", what.c_str(), line.size());
    for (const char c : line) {
        const auto b = static_cast<unsigned char>(c);
        if (b >= 0x20 && b < 0x7f) std::fputc(c, stderr);
        else std::fprintf(stderr, "\\x%02x", b);
    }
    std::fputc('\n', stderr);
    std::fflush(stderr);
    std::abort();
}

int digit(char c) { return c >= '1' && c <= '9' ? c - '0' : 0; }

// No digit twice in a row, a column or a box; blanks (0) are ignored.
bool no_clash(const sudoku::Grid& g) {
    for (int unit = 0; unit < 27; ++unit) {
        std::array<bool, 10> seen{};
        for (int j = 0; j < 9; ++j) {
            const int k = unit % 9;
            const int r = unit < 9 ? k : unit < 18 ? j : 3 * (k / 3) + j / 3;
            const int c = unit < 9 ? j : unit < 18 ? k : 3 * (k % 3) + j % 3;
            const int d = g[static_cast<std::size_t>(9 * r + c)];
            if (d == 0) continue;
            if (seen[static_cast<std::size_t>(d)]) return false;
            seen[static_cast<std::size_t>(d)] = true;
        }
    }
    return true;
}

bool is_puzzle(std::string_view line) {
    if (line.size() != sudoku::cells) return false;
    sudoku::Grid g{};
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (c != '.' && c != '0' && digit(c) == 0) return false;
        g[i] = digit(c);
    }
    return no_clash(g);
}

void check_solution(std::string_view line, const sudoku::Grid& givens, const sudoku::Grid& g) {
    for (std::size_t i = 0; i < g.size(); ++i) {
        if (g[i] < 1 || g[i] > 9) fail(line, "a solution has " + std::to_string(g[i]) + " in cell " + std::to_string(i));
        if (givens[i] != 0 && g[i] != givens[i])
            fail(line, "a solution changes the given in cell " + std::to_string(i));
    }
    if (!no_clash(g)) fail(line, "a solution repeats a digit in a row, column or box: " + sudoku::digits(g));
}

// Checks one line; solves it too while `solves` is above 0.
void check_line(std::string_view line, int& solves) {
    const sudoku::Parsed p = sudoku::parse(line);
    const bool want = is_puzzle(line);
    if (p.ok() != want)
        fail(line, want ? "parse() rejected a puzzle: " + p.error : std::string("parse() accepted a line that is no puzzle"));
    if (!p.ok()) return;

    std::string canonical(line);
    for (std::size_t i = 0; i < canonical.size(); ++i) {
        if (canonical[i] == '.') canonical[i] = '0';
        if (p.givens[i] != digit(line[i])) fail(line, "parse() read cell " + std::to_string(i) + " wrong");
    }
    const std::string again = sudoku::digits(p.givens);
    if (again != canonical) fail(line, "digits() wrote " + again);
    const sudoku::Parsed q = sudoku::parse(again);
    if (!q.ok() || q.givens != p.givens) fail(line, "digits() of the givens does not parse back to them");

    if (solves <= 0) return;
    --solves;
    unsigned sum = 0;
    for (const char c : line) sum += static_cast<unsigned char>(c);
    constexpr propane::Consistency strengths[] = {propane::value, propane::bounds, propane::domain};
    std::vector<sudoku::Grid> found;
    // The branch limit keeps a hard puzzle (one with no solution, say,
    // proved so at value strength) from stalling the fuzzer for seconds.
    const propane::Limits limits{.solutions = 2, .branches = 10'000};
    const propane::SearchStats st = sudoku::solve(p.givens, strengths[sum % 3], limits, [&](const sudoku::Grid& g) {
        check_solution(line, p.givens, g);
        found.push_back(g);
    });
    if (found.size() > 2 || st.solutions != found.size()) fail(line, "the solution limit of 2 was not kept");
    if (found.size() == 2 && found[0] == found[1]) fail(line, "one solution was reported twice");
    if (std::string_view(canonical).find('0') == std::string_view::npos && found.size() != 1)
        fail(line, "a full grid of consistent givens must be its own and only solution");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    int solves = 2;
    check_line(text, solves);
    for (std::size_t start = 0; start < text.size();) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(start, end - start);
        start = end + 1;
        if (line.ends_with('\r')) line.remove_suffix(1);
        if (line.find_first_not_of(" \t") == std::string_view::npos || line.starts_with('#')) continue;
        check_line(line, solves);
    }
    return 0;
}
