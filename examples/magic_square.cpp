// magic_square: finds or counts the magic squares of order N, with the
// model of magic_square_model.hpp. See the README or --help.

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "magic_square_model.hpp"
#include "options.hpp"

namespace {

constexpr const char* usage_line = "usage: magic_square N [--count] [--limit K] [--time-limit SECONDS] "
                                   "[--consistency value|bounds|domain] [--threads K] [--json] [--help]";

constexpr const char* help_text = R"(
Fills an N x N grid with 1..N^2, each once, so that every row, column and
both diagonals sum to N(N^2 + 1)/2, and prints the first such square and
the search statistics; --count counts them all instead (rotations and
reflections count apart: 8 for N = 3, 7,040 for N = 4).

  N                       the order, 1..30
  --count                 count all the squares instead of printing one
  --limit K               stop after K squares (with --count: count up to K)
  --time-limit SECONDS    stop after this much search time
  --consistency value|bounds|domain
                          AllDifferent strength (default domain)
  --threads K             search on K threads (0: one per hardware thread;
                          default 1): the same squares in the same order,
                          and for a search run to its end the same failures
                          and branches as on one thread
  --json                  print one JSON object instead, with order,
                          solutions, square (the first, row by row, or
                          null), complete, threads, failures, branches and
                          wall_ms
  --help                  print this help

Exit status: 0 on success, 2 on bad arguments, when the output cannot be
written, or when the search runs out of memory.
)";

struct Options : examples::SearchOptions {
    int n = 0;
    unsigned threads = 1;
};

constexpr examples::Console console("magic_square");

constexpr examples::Usage usage(console, usage_line, help_text);

[[noreturn]] void usage_error(const std::string& problem) { usage.error(problem); }

Options parse_args(int argc, char** argv) {
    Options o;
    bool have_n = false;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        usage.help_if_asked(a);
        if (examples::search_option(argc, argv, i, o, usage_error) ||
            examples::threads_option(argc, argv, i, o.threads, usage_error)) {
            // read into o
        } else if (a.size() > 1 && a[0] == '-') {
            usage_error("unknown option '" + std::string(a) + "'");
        } else {
            examples::number_argument<1, magic_square::max_order>(a, "an order", "order", o.n, have_n, usage_error);
        }
    }
    if (!have_n) usage_error("missing N, the order of the square");
    return o;
}

int run(const Options& o) {
    const propane::Limits limits{.solutions = o.limit.value_or(o.count ? propane::unlimited : 1),
                                 .time = o.time_limit};
    std::optional<std::vector<int>> first;
    const unsigned threads = propane::detail::resolve_threads(o.threads);
    const propane::SearchStats st =
        magic_square::solve(o.n, o.consistency, limits, threads, [&](const std::vector<int>& sq) {
            if (!first) first = sq;
        });
    const auto u = [](std::uint64_t x) { return static_cast<unsigned long long>(x); };
    const auto n = static_cast<std::size_t>(o.n);
    if (o.json) {
        // Appended throughout: g++ 12 at -O3 takes assigning "[" over
        // "null" for an overlapping memcpy (-Wrestrict, a false positive).
        std::string square;
        if (!first) square += "null";
        if (first) {
            square += '[';
            for (std::size_t r = 0; r < n; ++r) {
                square += r == 0 ? "[" : ",[";
                for (std::size_t c = 0; c < n; ++c) {
                    if (c > 0) square += ',';
                    square += std::to_string((*first)[r * n + c]);
                }
                square += "]";
            }
            square += "]";
        }
        console.outf("{\"order\":%d,\"solutions\":%llu,\"square\":%s,\"complete\":%s,\"threads\":%u,"
                     "\"failures\":%llu,\"branches\":%llu,\"wall_ms\":%.3f}\n",
                     o.n, u(st.solutions), square.c_str(), st.complete() ? "true" : "false", threads,
                     u(st.failures), u(st.branches), st.wall_ms());
    } else {
        if (!o.count) {
            if (first) {
                const int width = static_cast<int>(std::to_string(o.n * o.n).size());
                for (std::size_t r = 0; r < n; ++r)
                    for (std::size_t c = 0; c < n; ++c)
                        console.outf("%*d%c", width, (*first)[r * n + c], c + 1 == n ? '\n' : ' ');
            } else {
                console.out(st.complete() ? "No magic square\n" : "No magic square found\n");
            }
        }
        console.outf("Statistics\n  failures: %llu\n  branches: %llu\n  wall time: %.3f ms\n  Solutions found: %llu\n",
                     u(st.failures), u(st.branches), st.wall_ms(), u(st.solutions));
        if (threads > 1) console.outf("  threads: %u\n", threads);
        // Without --count the search is meant to stop at the first square.
        const bool asked_for_one = !o.count && !o.limit && st.outcome == propane::Outcome::solution_limit;
        if (!st.complete() && !asked_for_one)
            console.out("  stopped by: " + std::string(propane::to_string(st.outcome)) + "\n");
    }
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    examples::report_file_size_limit();
    examples::report_out_of_memory("magic_square");
    const Options o = parse_args(argc, argv);
    const int status = examples::run_guarded("magic_square", [&] { return run(o); });
    console.close();
    return status;
}
