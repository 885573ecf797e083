// jobshop: minimises the makespan of a job-shop instance read from a file,
// by branch and bound over the model of jobshop_model.hpp. See the README
// or --help.

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "jobshop_model.hpp"
#include "options.hpp"

namespace {

constexpr const char* usage_line = "usage: jobshop FILE [--model decomposition|unary] [--lns] [--time-limit SECONDS] "
                                   "[--threads K] [--json] [--output FILE] [--quiet] [--help]";

constexpr const char* help_text = R"(
Finds a schedule of least makespan for the job-shop instance in FILE ('-'
for standard input): each job is a sequence of operations, each on its own
machine for a given time; a machine does one operation at a time. Branch
and bound: each schedule found ends earlier than the one before, and the
last is optimal when the search ran to its end (ft06: 55, proven in a few
milliseconds; la01, 10 x 5: 666, in a twentieth of a second; ft10, 10 x
10: 930, in under a minute; with --time-limit the best schedule found
is reported). The search orders the operations of a machine pair by pair:
the pair with the least slack on the machine with the least slack first,
the operation that can start earlier first.

FILE holds the standard text format, as in the OR-Library's jobshop1.txt:
a line 'JOBS MACHINES', then one line per job with MACHINES pairs 'MACHINE
DURATION', machines numbered from 0, each machine once per job, durations
0 or more. Blank lines and lines starting with '#' are skipped (the
OR-Library's description lines must be removed or start with '#').

  FILE                    the instance ('-': standard input)
  --model M               how a machine is modelled: 'decomposition', an
                          order Boolean per pair of operations on it; or
                          'unary' (the default), the same with a unary
                          resource per machine (edge finding, not-first/
                          not-last, detectable precedences). The search
                          decides the orders either way.
  --lns                   large-neighbourhood search: keep a fifth of the
                          best schedule's machine orders, search the rest
                          within 300 failures, again and again; finds good
                          schedules sooner, proves nothing (needs
                          --time-limit); with --threads K, K neighbourhoods
                          a round, the best kept, the same schedules
                          for the same K every run
  --time-limit SECONDS    stop after this much search time and report the
                          best schedule found, not proven optimal
  --threads K             branch and bound on K threads sharing the best
                          makespan (0: one per hardware thread; default 1);
                          the optimum is the same, the schedules found on
                          the way and the statistics vary from run to run
  --json                  print one JSON object instead, with makespan,
                          optimal, starts (per job, the start of each
                          operation in the job's order), jobs, machines,
                          threads, failures, branches and wall_ms
  --output FILE           write to FILE (created or emptied) instead of
                          standard output
  --quiet                 print only the final schedule and statistics, not
                          each improvement (not with --json, which prints
                          none)
  --help                  print this help

Jobs are numbered from 0, in the file's order. The schedule is printed per
job (each operation's start time, in the job's order) and per machine (its
operations in time order, as job@start).

A file that is not an instance is reported as 'FILE:LINE: <problem>' on
standard error (a line without its pairs, a machine out of range or used
twice in a job, a negative duration, words that are not numbers, lines
after the last job, too few jobs).

Exit status: 0 on success, 2 on bad arguments, a file that cannot be read
or is not an instance, when the output cannot be written, or when the
search runs out of memory.
)";

struct Options {
    std::string file;
    bool have_file = false;
    bool json = false;
    bool quiet = false;
    unsigned threads = 1;
    std::chrono::nanoseconds time_limit = std::chrono::nanoseconds::max();
    std::optional<std::string> output;
    jobshop::Formulation formulation = jobshop::Formulation::unary;
    bool lns = false;
};

constexpr examples::Console console("jobshop");

constexpr examples::Usage usage(console, usage_line, help_text);

[[noreturn]] void usage_error(const std::string& problem) { usage.error(problem); }

Options parse_args(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        usage.help_if_asked(a);
        if (const auto model = examples::option_value(argc, argv, i, "--model", "decomposition or unary", usage_error)) {
            if (*model == "unary") o.formulation = jobshop::Formulation::unary;
            else if (*model == "decomposition") o.formulation = jobshop::Formulation::decomposition;
            else usage_error("--model takes decomposition or unary, not '" + std::string(*model) + "'");
        } else if (const auto file = examples::option_value(argc, argv, i, "--output", "a file name", usage_error)) {
            o.output = std::string(*file);
        } else if (a == "--lns") {
            o.lns = true;
        } else if (a == "--json") {
            o.json = true;
        } else if (a == "--quiet") {
            o.quiet = true;
        } else if (examples::time_limit_option(argc, argv, i, o.time_limit, usage_error) ||
                   examples::threads_option(argc, argv, i, o.threads, usage_error)) {
            // read into o
        } else if (a.size() > 1 && a[0] == '-') {
            usage_error("unknown option '" + std::string(a) + "'");
        } else if (o.have_file) {
            usage_error("more than one file given ('" + o.file + "' and '" + std::string(a) + "')");
        } else {
            o.file = std::string(a);
            o.have_file = true;
        }
    }
    if (!o.have_file) usage_error("missing FILE, the instance to solve");
    examples::refuse_quiet_json(o.quiet, o.json, usage_error);
    if (o.lns && o.time_limit == std::chrono::nanoseconds::max()) usage_error("--lns needs --time-limit: it never ends by itself");
    return o;
}

// The whole of the file, or exit status 2 with one line saying why not.
std::string read_input(const std::string& file, const std::string& name) {
    const bool from_stdin = file == "-";
    std::FILE* in = from_stdin ? stdin : std::fopen(file.c_str(), "r");
    if (in == nullptr) {
        console.error("cannot read " + name + ": " + std::strerror(errno));
        std::exit(2);
    }
    std::string text;
    char buf[1 << 14];
    errno = 0;
    for (std::size_t got; (got = std::fread(buf, 1, sizeof buf, in)) > 0;) text.append(buf, got);
    if (std::ferror(in)) {
        console.error("cannot read " + name + ": " + std::strerror(errno != 0 ? errno : EIO));
        std::exit(2);
    }
    if (!from_stdin) std::fclose(in);
    return text;
}

std::string join(const std::vector<int>& xs, const char* separator) {
    std::string out;
    for (std::size_t i = 0; i < xs.size(); ++i) out += (i == 0 ? "" : separator) + std::to_string(xs[i]);
    return out;
}

// Each machine's operations in time order, as "job@start".
std::string machines_text(const jobshop::Instance& in, const jobshop::Schedule& sched) {
    std::string out;
    for (int m = 0; m < in.machines; ++m) {
        std::vector<std::pair<int, int>> ops; // (start, job)
        for (int j = 0; j < in.jobs; ++j)
            for (int k = 0; k < in.machines; ++k)
                if (in.ops[static_cast<std::size_t>(j)][static_cast<std::size_t>(k)].machine == m)
                    ops.push_back({sched.starts[static_cast<std::size_t>(j)][static_cast<std::size_t>(k)], j});
        std::sort(ops.begin(), ops.end());
        out += "  machine " + std::to_string(m) + ":";
        for (const auto& [start, job] : ops) {
            out += ' ';
            out += std::to_string(job);
            out += '@';
            out += std::to_string(start);
        }
        out += "\n";
    }
    return out;
}

int run(const Options& o) {
    const std::string name = o.file == "-" ? "standard input" : o.file;
    const jobshop::Parsed p = jobshop::parse(read_input(o.file, name));
    if (!p.ok()) {
        console.error(name + ":" + std::to_string(p.line) + ": " + p.error);
        return 2;
    }
    if (o.output) {
        const std::string problem = console.redirect(o.output->c_str());
        if (!problem.empty()) {
            console.error(problem);
            return 2;
        }
    }
    const jobshop::Instance& in = p.instance;
    const unsigned threads = propane::detail::resolve_threads(o.threads);
    std::optional<jobshop::Schedule> best;
    const propane::OptimizeStats st =
        jobshop::solve(in, propane::Limits{.time = o.time_limit}, threads, o.formulation, o.lns, [&](const jobshop::Schedule& s) {
            best = s;
            if (!o.json && !o.quiet) console.out("makespan " + std::to_string(s.makespan) + "\n");
        });
    const auto u = [](std::uint64_t x) { return static_cast<unsigned long long>(x); };
    const bool optimal = st.complete() && best.has_value();
    if (o.json) {
        std::string starts = "null";
        if (best) {
            starts = "[";
            for (std::size_t j = 0; j < best->starts.size(); ++j)
                starts += (j == 0 ? "[" : ",[") + join(best->starts[j], ",") + "]";
            starts += "]";
        }
        console.outf("{\"makespan\":%s,\"optimal\":%s,\"starts\":%s,\"jobs\":%d,\"machines\":%d,\"threads\":%u,"
                     "\"failures\":%llu,\"branches\":%llu,\"wall_ms\":%.3f}\n",
                     best ? std::to_string(best->makespan).c_str() : "null", optimal ? "true" : "false",
                     starts.c_str(), in.jobs, in.machines, threads, u(st.failures), u(st.branches), st.wall_ms());
    } else {
        if (best) {
            std::string text = "Schedule (per job, the start of each operation)\n";
            for (std::size_t j = 0; j < best->starts.size(); ++j)
                text += "  job " + std::to_string(j) + ": " + join(best->starts[j], " ") + "\n";
            text += "Machines (job@start, in time order)\n" + machines_text(in, *best);
            text += "Makespan: " + std::to_string(best->makespan) +
                    (optimal ? " (optimal)\n" : " (best found, not proven optimal)\n");
            console.out(text);
        } else {
            console.out("No schedule found\n");
        }
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
    examples::report_out_of_memory("jobshop");
    const Options o = parse_args(argc, argv);
    const int status = examples::run_guarded("jobshop", [&] { return run(o); });
    if (status == 0) console.close();
    return status;
}
