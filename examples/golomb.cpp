// golomb: finds an optimal Golomb ruler with N marks by branch and bound,
// with the model of golomb_model.hpp. See the README or --help.

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "golomb_model.hpp"
#include "options.hpp"

namespace {

constexpr const char* usage_line =
    "usage: golomb N [--consistency value|bounds|domain] [--time-limit SECONDS] [--threads K] [--json] [--quiet] "
    "[--help]";

constexpr const char* help_text = R"(
Finds a shortest Golomb ruler with N marks: integers 0 = m[0] < m[1] < ...
< m[N-1] whose pairwise differences are all distinct. Branch and bound:
each ruler found is shorter than the one before, and the last is optimal
when the search ran to its end. Known optimal lengths for N = 1.. are
0, 1, 3, 6, 11, 17, 25, 34, 44, 55, 72, ... (OEIS A003022).

  N                       number of marks, 1..64 (beyond 13 or so the proof
                          of optimality takes very long)
  --consistency value|bounds|domain
                          strength of the AllDifferent over the differences
                          (default bounds)
  --time-limit SECONDS    stop after this much search time and report the
                          best ruler found, not proven optimal
  --threads K             branch and bound on K threads sharing the best
                          length (0: one per hardware thread; default 1);
                          the optimum is the same, the rulers found on the
                          way and the statistics vary from run to run
  --json                  print one JSON object instead, with marks, length,
                          optimal, threads, failures, branches and wall_ms
  --quiet                 print only the final ruler and statistics, not
                          each improvement (not with --json, which prints
                          none)
  --help                  print this help

Exit status: 0 on success, 2 on bad arguments, when the output cannot be
written, or when the search runs out of memory.
)";

struct Options {
    int n = 0;
    bool json = false;
    bool quiet = false;
    unsigned threads = 1;
    std::chrono::nanoseconds time_limit = std::chrono::nanoseconds::max();
    propane::Consistency consistency = propane::bounds;
};

constexpr examples::Console console("golomb");

constexpr examples::Usage usage(console, usage_line, help_text);

[[noreturn]] void usage_error(const std::string& problem) { usage.error(problem); }

Options parse_args(int argc, char** argv) {
    Options o;
    bool have_n = false;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        usage.help_if_asked(a);
        if (a == "--json") {
            o.json = true;
        } else if (a == "--quiet") {
            o.quiet = true;
        } else if (examples::consistency_option(argc, argv, i, o.consistency, usage_error) ||
                   examples::time_limit_option(argc, argv, i, o.time_limit, usage_error) ||
                   examples::threads_option(argc, argv, i, o.threads, usage_error)) {
            // read into o
        } else if (a.size() > 1 && a[0] == '-') {
            usage_error("unknown option '" + std::string(a) + "'");
        } else {
            examples::number_argument<1, golomb::max_marks>(a, "a number of marks", "number of marks", o.n, have_n,
                                                            usage_error);
        }
    }
    if (!have_n) usage_error("missing N, the number of marks");
    examples::refuse_quiet_json(o.quiet, o.json, usage_error);
    return o;
}

std::string marks_text(const std::vector<int>& marks, const char* separator) {
    std::string out;
    for (std::size_t i = 0; i < marks.size(); ++i) out += (i == 0 ? "" : separator) + std::to_string(marks[i]);
    return out;
}

int run(const Options& o) {
    std::vector<int> best;
    const unsigned threads = propane::detail::resolve_threads(o.threads);
    const auto st = golomb::solve(o.n, o.consistency, propane::Limits{.time = o.time_limit}, threads,
                                  [&](const std::vector<int>& marks) {
                                      best = marks;
                                      if (!o.json && !o.quiet)
                                          console.out("length " + std::to_string(marks.back()) + ": " +
                                                      marks_text(marks, " ") + "\n");
                                  });
    const auto u = [](std::uint64_t x) { return static_cast<unsigned long long>(x); };
    const bool optimal = st.complete() && st.objective.has_value();
    if (o.json) {
        console.outf("{\"marks\":[%s],\"length\":%s,\"optimal\":%s,\"threads\":%u,\"failures\":%llu,"
                     "\"branches\":%llu,\"wall_ms\":%.3f}\n",
                     marks_text(best, ",").c_str(),
                     st.objective ? std::to_string(*st.objective).c_str() : "null", optimal ? "true" : "false",
                     threads, u(st.failures), u(st.branches), st.wall_ms());
    } else {
        if (st.objective)
            console.out("Ruler: " + marks_text(best, " ") + "\nLength: " + std::to_string(*st.objective) +
                        (optimal ? " (optimal)\n" : " (best found, not proven optimal)\n"));
        else
            console.out("No ruler found\n");
        console.outf("Statistics\n  failures: %llu\n  branches: %llu\n  wall time: %.3f ms\n", u(st.failures),
                     u(st.branches), st.wall_ms());
        if (threads > 1) console.outf("  threads: %u\n", threads);
        if (!st.complete()) console.out("  stopped by: " + std::string(propane::to_string(st.outcome)) + "\n");
    }
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    examples::report_file_size_limit();
    examples::report_out_of_memory("golomb");
    const Options o = parse_args(argc, argv);
    const int status = examples::run_guarded("golomb", [&] { return run(o); });
    console.close();
    return status;
}
