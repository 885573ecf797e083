// sudoku: solves Sudoku puzzles read one per line, with the model and
// search of sudoku_model.hpp. See the README or --help for the options.

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>

#include "options.hpp"
#include "sudoku_model.hpp"

namespace {

constexpr const char* usage_line =
    "usage: sudoku [FILE] [--count] [--consistency value|bounds|domain] [--json] [--help]";

constexpr const char* help_text = R"(
Reads Sudoku puzzles from FILE (or standard input when FILE is absent or
'-'), one per line: 81 characters in row-major order, '1'-'9' for a given
and '.' or '0' for a blank. Blank lines and lines starting with '#' are
skipped; a line may end in \r\n. Each puzzle prints as 'Puzzle <line
number>', its solution as a 9x9 grid (or 'No solution'), and the search
statistics.

By default the search looks for a second solution after the first, to say
whether the solution is unique ('Solutions found: 1 (unique)'); it stops
there, so 2 means "more than one".

  FILE                    the puzzle file (default: standard input)
  --count                 count all the solutions of each puzzle
  --consistency value|bounds|domain
                          AllDifferent strength (default domain)
  --json                  print one JSON object per puzzle instead, with
                          line, solutions, solution (the 81 digits of the
                          first solution, or null), failures, branches and
                          wall_ms
  --help                  print this help

A line that is not a puzzle (wrong length, a bad character, two equal
givens in a row, column or box) is reported on standard error as
'line N: <problem>', and the other puzzles are still solved.

Exit status: 0 on success, 1 if some line was not a puzzle, 2 on bad
arguments or an unreadable file.
)";

struct Options {
    const char* file = nullptr; // standard input when null
    bool count = false;
    bool json = false;
    propane::Consistency consistency = propane::domain;
};

[[noreturn]] void usage_error(const std::string& problem) {
    std::fprintf(stderr, "sudoku: %s\n%s (try --help)\n", problem.c_str(), usage_line);
    std::exit(2);
}

Options parse_args(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a == "--help" || a == "-h") {
            std::printf("%s\n%s", usage_line, help_text);
            std::exit(0);
        } else if (a == "--count") {
            o.count = true;
        } else if (a == "--json") {
            o.json = true;
        } else if (examples::consistency_option(argc, argv, i, o.consistency, usage_error)) {
            // read into o.consistency
        } else if (a.size() > 1 && a[0] == '-') {
            usage_error("unknown option '" + std::string(a) + "'");
        } else if (o.file != nullptr) {
            usage_error("more than one file given ('" + std::string(o.file) + "' and '" + std::string(a) + "')");
        } else {
            o.file = argv[i];
        }
    }
    return o;
}

// An I/O error is not a bad puzzle: the input itself is unusable, as with a
// bad argument.
[[noreturn]] void input_error(const char* name, int err) {
    std::fprintf(stderr, "sudoku: cannot read %s: %s\n%s (try --help)\n", name, std::strerror(err), usage_line);
    std::exit(2);
}

void print_grid(const sudoku::Grid& g, std::string& buf) {
    for (int r = 0; r < 9; ++r) {
        if (r == 3 || r == 6) buf += "------+-------+------\n";
        for (int c = 0; c < 9; ++c) {
            if (c == 3 || c == 6) buf += "| ";
            buf += static_cast<char>('0' + g[static_cast<std::size_t>(9 * r + c)]);
            buf += c == 8 ? '\n' : ' ';
        }
    }
}

// Solves one puzzle and prints its result.
void solve_line(std::uint64_t line, const sudoku::Grid& givens, const Options& o, std::string& buf) {
    // Without --count, a second solution is enough to know the first is not
    // the only one.
    const std::uint64_t limit = o.count ? 0 : 2;
    std::optional<sudoku::Grid> first;
    const propane::SearchStats st = sudoku::solve(givens, o.consistency, limit, [&](const sudoku::Grid& g) {
        if (!first) first = g;
    });
    const auto u = [](std::uint64_t x) { return static_cast<unsigned long long>(x); };
    buf.clear();
    if (o.json) {
        char tail[160];
        std::snprintf(tail, sizeof tail, ",\"failures\":%llu,\"branches\":%llu,\"wall_ms\":%.3f}\n", u(st.failures),
                      u(st.branches), st.wall_ms());
        buf += "{\"line\":" + std::to_string(line) + ",\"solutions\":" + std::to_string(st.solutions) +
               ",\"solution\":" + (first ? "\"" + sudoku::digits(*first) + "\"" : std::string("null")) + tail;
    } else {
        buf += "Puzzle " + std::to_string(line) + "\n";
        if (first)
            print_grid(*first, buf);
        else
            buf += "No solution\n";
        const char* verdict = "";
        if (!o.count && st.solutions == 1) verdict = " (unique)";
        if (!o.count && st.solutions > 1) verdict = " (not unique; the search stopped at the second)";
        char stats[256];
        std::snprintf(stats, sizeof stats,
                      "Statistics\n  failures: %llu\n  branches: %llu\n  wall time: %.3f ms\n"
                      "  Solutions found: %llu%s\n\n",
                      u(st.failures), u(st.branches), st.wall_ms(), u(st.solutions), verdict);
        buf += stats;
    }
    std::fwrite(buf.data(), 1, buf.size(), stdout);
}

} // namespace

int main(int argc, char** argv) {
    const Options o = parse_args(argc, argv);
    const bool from_stdin = o.file == nullptr || std::string_view(o.file) == "-";
    const char* name = from_stdin ? "standard input" : o.file;
    std::FILE* in = from_stdin ? stdin : std::fopen(o.file, "r");
    if (in == nullptr) input_error(name, errno);

    bool bad = false;
    std::string buf;
    char* text = nullptr;
    std::size_t capacity = 0;
    std::uint64_t line = 0;
    for (;;) {
        errno = 0;
        const ssize_t got = getline(&text, &capacity, in);
        if (got < 0) break;
        ++line;
        std::string_view s(text, static_cast<std::size_t>(got));
        if (s.ends_with('\n')) s.remove_suffix(1);
        if (s.ends_with('\r')) s.remove_suffix(1);
        if (s.find_first_not_of(" \t") == std::string_view::npos || s.starts_with('#')) continue;
        const sudoku::Parsed p = sudoku::parse(s);
        if (!p.ok()) {
            // Flushed first, so that on a terminal the message follows the
            // puzzles before it.
            std::fflush(stdout);
            std::fprintf(stderr, "line %llu: %s\n", static_cast<unsigned long long>(line), p.error.c_str());
            bad = true;
            continue;
        }
        solve_line(line, p.givens, o, buf);
    }
    std::free(text);
    if (std::ferror(in)) input_error(name, errno != 0 ? errno : EIO);
    if (!from_stdin) std::fclose(in);
    if (std::fflush(stdout) != 0) {
        std::fprintf(stderr, "sudoku: cannot write the output: %s\n", std::strerror(errno));
        return 2;
    }
    return bad ? 1 : 0;
}
