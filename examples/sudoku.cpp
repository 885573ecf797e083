// sudoku: solves Sudoku puzzles read one per line, with the model and
// search of sudoku_model.hpp. See the README or --help for the options.

#include <cerrno>
#include <chrono>
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

constexpr const char* usage_line = "usage: sudoku [FILE] [--count] [--limit K] [--time-limit SECONDS] "
                                   "[--consistency value|bounds|domain] [--json] [--help]";

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
  --limit K               stop each puzzle's search after K solutions
  --time-limit SECONDS    stop each puzzle's search after this much search
                          time (0.5 is fine)
  --consistency value|bounds|domain
                          AllDifferent strength (default domain)
  --json                  print one JSON object per puzzle instead, with
                          line, solutions, solution (the 81 digits of the
                          first solution, or null), failures, branches,
                          wall_ms, complete (whether the search ran to its
                          end) and outcome (complete, solution_limit or
                          time_limit)
  --help                  print this help

The statistics end with 'stopped by: <reason>' when a limit stopped the
search before its end (solution_limit, time_limit).

A line that is not a puzzle (wrong length, a bad character, two equal
givens in a row, column or box) is reported on standard error as
'line N: <problem>', and the other puzzles are still solved.

Exit status: 0 on success, 1 if some line was not a puzzle, 2 on bad
arguments, an unreadable file, when the output cannot be written (a full
disk, a closed standard output: the first failed write ends the program),
or when a line or a search takes more memory than there is.
)";

struct Options : examples::SearchOptions {
    const char* file = nullptr; // standard input when null
};

constexpr examples::Console console("sudoku");

constexpr examples::Usage usage(console, usage_line, help_text);

[[noreturn]] void usage_error(const std::string& problem) { usage.error(problem); }

Options parse_args(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        usage.help_if_asked(a);
        if (examples::search_option(argc, argv, i, o, usage_error)) {
            // read into o
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
    usage_error(std::string("cannot read ") + name + ": " + std::strerror(err));
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
    const propane::Limits limits{.solutions = o.limit.value_or(o.count ? propane::unlimited : 2),
                                 .time = o.time_limit};
    std::optional<sudoku::Grid> first;
    const propane::SearchStats st = sudoku::solve(givens, o.consistency, limits, [&](const sudoku::Grid& g) {
        if (!first) first = g;
    });
    const std::string_view outcome = propane::to_string(st.outcome);
    const auto u = [](std::uint64_t x) { return static_cast<unsigned long long>(x); };
    buf.clear();
    if (o.json) {
        char tail[200];
        std::snprintf(tail, sizeof tail,
                      ",\"failures\":%llu,\"branches\":%llu,\"wall_ms\":%.3f,\"complete\":%s,\"outcome\":\"%.*s\"}\n",
                      u(st.failures), u(st.branches), st.wall_ms(), st.complete() ? "true" : "false",
                      static_cast<int>(outcome.size()), outcome.data());
        // Piece by piece: g++ 12 at -O3 flags "literal" + std::string&& here
        // with -Wrestrict, a false positive (GCC bug 105329).
        buf += "{\"line\":";
        buf += std::to_string(line);
        buf += ",\"solutions\":";
        buf += std::to_string(st.solutions);
        buf += ",\"solution\":";
        if (first) {
            buf += '"';
            buf += sudoku::digits(*first);
            buf += '"';
        } else {
            buf += "null";
        }
        buf += tail;
    } else {
        buf += "Puzzle " + std::to_string(line) + "\n";
        if (first)
            print_grid(*first, buf);
        else
            buf += st.complete() ? "No solution\n" : "No solution found\n";
        // Uniqueness is known only from a search that ran to its end, or
        // found two.
        const char* verdict = "";
        if (!o.count && st.solutions == 1 && st.complete()) verdict = " (unique)";
        if (!o.count && st.solutions > 1)
            verdict = o.limit ? " (not unique)" : " (not unique; the search stopped at the second)";
        char stats[256];
        std::snprintf(stats, sizeof stats,
                      "Statistics\n  failures: %llu\n  branches: %llu\n  wall time: %.3f ms\n"
                      "  Solutions found: %llu%s\n",
                      u(st.failures), u(st.branches), st.wall_ms(), u(st.solutions), verdict);
        buf += stats;
        if (!st.complete()) buf += "  stopped by: " + std::string(outcome) + "\n";
        buf += '\n';
    }
    console.out(buf);
}

int run(const Options& o) {
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
        // getline's own buffer comes from malloc, not operator new: a line
        // longer than memory allows ends it as end of file would, unless
        // told apart here.
        if (got < 0 && errno == ENOMEM) examples::detail::out_of_memory();
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
            console.flush();
            console.err("line " + std::to_string(line) + ": " + examples::escaped(p.error) + "\n");
            bad = true;
            continue;
        }
        solve_line(line, p.givens, o, buf);
    }
    std::free(text);
    if (std::ferror(in)) input_error(name, errno != 0 ? errno : EIO);
    if (!from_stdin) std::fclose(in);
    return bad ? 1 : 0;
}

} // namespace

int main(int argc, char** argv) {
    examples::report_file_size_limit();
    examples::report_out_of_memory("sudoku");
    const Options o = parse_args(argc, argv);
    const int status = examples::run_guarded("sudoku", [&] { return run(o); });
    console.close();
    return status;
}
