// nqueens: the N-queens example of the OR-Tools constraint-programming guide
// (same model, same search, same board print-out and statistics), built on
// propane, plus the search controls of propane::Search. See the README or
// --help for the options.
//
// Compiled with PROPANE_NQUEENS_MPI defined (and MPI), the same source is
// nqueens_mpi: the same command line, searched by every rank of
// MPI_COMM_WORLD (propane/mpi.hpp), its output printed by rank 0.

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unistd.h>
#include <utility>
#include <vector>

#include "nqueens_model.hpp"
#include "options.hpp"

#ifdef PROPANE_NQUEENS_MPI
#include <propane/mpi.hpp>
#else
#include <propane/parallel.hpp>
#endif

namespace {

#ifdef PROPANE_NQUEENS_MPI
constexpr bool over_mpi = true;
constexpr const char* program = "nqueens_mpi";
constexpr const char* usage_line = "usage: mpirun [-np P] nqueens_mpi [N] [--count] [--symmetry] [--var V] [--val V] "
                                   "[--consistency C] [--threads K] [--json] [--output FILE] [--help]";
#else
constexpr bool over_mpi = false;
constexpr const char* program = "nqueens";
constexpr const char* usage_line = "usage: nqueens [N] [--count] [--first | --limit K] [--unique] [--symmetry] "
                                   "[--var V] [--val V] [search options] [--threads K] [--json] [--output FILE] "
                                   "[--quiet] [--help]";
#endif

constexpr const char* help_text = R"(
Places N queens on an N x N board so that none attacks another, and prints
every solution (or counts them) followed by search statistics, as the
OR-Tools N-queens guide does. q[c] is the row of the queen in column c.

  N                       board size (default 8)
  --count                 count solutions without printing the boards; on a
                          terminal a long count shows its progress on
                          standard error
  --first                 stop at the first solution, found with a strategy
                          that suits large boards (below)
  --limit K               stop after K solutions
  --unique                keep only one solution of each class that the
                          rotations and reflections of the board make
                          (1, 0, 0, 1, 2, 1, 6, 12, 46, 92, ... for N = 1..)
  --symmetry              search only boards with q[0] in the top half and
                          add each one's mirror image: the same solutions
                          in another order, in about half the time
  --var first|smallest|largest|smallest-min|dom-wdeg
                          which column to branch on: the first unplaced
                          (default), the one with the fewest rows left, the
                          most, the lowest row left, or the fewest rows per
                          weighted failure
  --val min|max|middle|split|random
                          which row to try: the lowest (default), highest,
                          middle one, the lower half first, or a random one
  --seed S                seed for --val random (default 0); refused
                          without it, as nothing else draws on it
  --restarts luby|geometric|linear|none
                          start the search again after a budget of failures
                          that grows in the Luby sequence, geometrically
                          or by K each time;
                          only with --val random or --var dom-wdeg (a
                          deterministic search would take the same path
                          again)
  --restart-scale K       failures in the first budget (default 100)
  --consistency value|bounds|domain
                          AllDifferent strength: value, bounds (the default,
                          as OR-Tools) or domain (prunes the most)
  --time-limit SECONDS    stop after this much search time (0.5 is fine;
                          printing boards does not count)
  --threads K             search on K threads (0: one per hardware thread;
                          default 1): the same solutions, in the same order,
                          with the same failures and branches; a search whose
                          choices depend on its history (--val random, --var
                          dom-wdeg, restarts, as --first's own) runs on one,
                          and says so on standard error
  --json                  print one JSON object with the statistics instead
  --output FILE           write to FILE (created or emptied) instead of
                          standard output
  --quiet                 no progress line (only with --count, which alone
                          shows one)
  --help                  print this help

--first searches, unless told otherwise, with --var smallest --val random
--restarts luby --consistency value: it places the column with the fewest
rows left on a random one of them, and starts again with new random
choices after 100, 100, 200, 100, 100, 200, 400, ... failures (unless
--var and --val make the search deterministic: a restart would only take
the same path again). Without restarts some boards (N = 99, 117, 124,
145, 161, 173 and 227 with --val middle, 230 with --val random) go down a
subtree without solutions and take more than 10 s; with them, every N from
4 to 300 takes about 10 ms at most. The value AllDifferent is the cheapest
per node, and the fewest-rows rule leaves stronger pruning little to do.

Every solution is checked against the rules, independently of the solver,
before it is printed or counted. The statistics end with the number of
restarts when there were any, and with 'stopped by: <reason>' when the
search did not run to its end (solution_limit, time_limit).

An option that the others leave nothing to do is refused as a bad
argument: --seed without --val random, --restarts or --restart-scale
with a deterministic search, --quiet without --count.

Exit status: 0 on success, 1 if the solver produced a wrong solution, 2 on
bad arguments, when the output cannot be written (a full disk, a closed
standard output: the first failed write ends the program), or when the
search runs out of memory.

nqueens_mpi, the MPI build, takes the same options but searches every
solution (no --first, --limit, --unique, --time-limit, --restarts) with a
deterministic strategy (no --val random, --var dom-wdeg) and shows no
progress line (no --quiet): each of its P
ranks runs --threads workers, and rank 0 prints what nqueens would. The
ranks check that they agree: one that cannot start (a bad argument), or
ranks given different boards, strategies or strengths, end the run with
one line from rank 0 and exit status 2. mpirun forwards rank 0's standard
output through a pipe, and a failed write of its own (a full disk) does not
reach the program: --output FILE, written by rank 0, is checked.
)";

struct Options {
    int n = 8;
    bool count = false;
    bool first = false;
    bool unique = false;
    bool symmetry = false;
    bool json = false;
    bool quiet = false;
    std::optional<std::uint64_t> limit;
    std::optional<propane::VarChoice> var;
    std::optional<propane::ValChoice> val;
    std::optional<propane::Consistency> consistency;
    std::optional<propane::RestartPolicy> restarts;
    std::optional<std::uint64_t> restart_scale;
    std::optional<std::uint64_t> seed;
    std::chrono::nanoseconds time_limit = std::chrono::nanoseconds::max();
    unsigned threads = 1;
    std::optional<std::string> output;
};

constexpr examples::Console console(program);

constexpr examples::Usage usage(console, usage_line, help_text);

// Over MPI a rank must not exit on a bad argument while the others wait
// for it: the problem is thrown, and the ranks compare what they found.
struct Refusal {
    std::string problem;
};
struct HelpAsked {};

[[noreturn]] void usage_error(const std::string& problem) {
    if (over_mpi) throw Refusal{problem};
    usage.error(problem);
}

// A rough estimate of the bytes a board of size n needs. Each variable's
// domain is stored once and stamped per word, with the per-variable
// bookkeeping of three AllDifferents; and the trail dominates: a path to a
// solution is n decisions deep, and each decision saves a word of most
// columns still open, up to three. Measured: 12 n^2 bytes in all (0.29 GB
// at n = 5,000, 1.17 GB at n = 10,000).
double bytes_needed(std::int64_t n) {
    const double words = static_cast<double>((n + 63) / 64), size = static_cast<double>(n);
    return size * (words * 8.0 * 2.0 + 512.0) + 12.0 * size * size;
}

double physical_memory() {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && page > 0 ? static_cast<double>(pages) * static_cast<double>(page) : 0.0;
}

int parse_size(std::string_view arg) {
    std::int64_t n = 0;
    const char* end = arg.data() + arg.size();
    const auto [ptr, ec] = std::from_chars(arg.data(), end, n);
    if (arg.empty() || arg[0] == '-' || arg[0] == '+' || ptr != end) {
        if (!arg.empty() && arg[0] == '-' && ec == std::errc{} && ptr == end)
            usage_error("board size must be positive, got '" + std::string(arg) + "'");
        usage_error(examples::quoted(arg) + " is not a board size (a positive integer)");
    }
    if (ec == std::errc::result_out_of_range || n > std::numeric_limits<int>::max())
        usage_error("board size '" + std::string(arg) + "' is too large");
    if (n <= 0) usage_error("board size must be positive, got '" + std::string(arg) + "'");
    const double need = bytes_needed(n), have = physical_memory();
    if (have > 0 && need > have)
        usage_error("board size " + std::to_string(n) + " needs about " + std::to_string(static_cast<long long>(need / (1 << 30))) +
                    " GiB, more than this machine's " + std::to_string(static_cast<long long>(have / (1 << 30))) + " GiB");
    return static_cast<int>(n);
}

Options parse(int argc, char** argv) {
    Options o;
    bool have_n = false;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        // Each value option reads into its own field; parsed_option has done
        // the work when it returns true.
        const auto option = [&](std::string_view flag, std::string_view expected, auto parse, auto& out) {
            return examples::parsed_option(argc, argv, i, flag, expected, parse, out, usage_error);
        };
        if (over_mpi && examples::Usage::asks_help(a)) throw HelpAsked{};
        usage.help_if_asked(a);
        if (const auto file = examples::option_value(argc, argv, i, "--output", "a file name", usage_error)) {
            o.output = std::string(*file);
        } else if (a == "--count") {
            o.count = true;
        } else if (a == "--first") {
            o.first = true;
        } else if (a == "--unique") {
            o.unique = true;
        } else if (a == "--symmetry") {
            o.symmetry = true;
        } else if (a == "--json") {
            o.json = true;
        } else if (a == "--quiet") {
            o.quiet = true;
        } else if (examples::limit_option(argc, argv, i, o.limit, usage_error) ||
                   examples::time_limit_option(argc, argv, i, o.time_limit, usage_error) ||
                   option("--var", "first, smallest, largest, smallest-min or dom-wdeg",
                          propane::var_choice_from_string, o.var) ||
                   option("--val", "min, max, middle, split or random", propane::val_choice_from_string, o.val) ||
                   option("--seed", "a whole number from 0 to 2^64 - 1", examples::parse_count, o.seed) ||
                   option("--restarts", "luby, geometric, linear or none", propane::restart_policy_from_string,
                          o.restarts) ||
                   option("--restart-scale", "a whole number of failures >= 1", examples::parse_positive,
                          o.restart_scale) ||
                   option("--consistency", "value, bounds or domain", propane::consistency_from_string,
                          o.consistency) ||
                   examples::threads_option(argc, argv, i, o.threads, usage_error)) {
            // read into o
        } else if (a.size() > 1 && a[0] == '-' && !(a[1] >= '0' && a[1] <= '9')) {
            usage_error("unknown option '" + std::string(a) + "'");
        } else if (have_n) {
            usage_error("more than one board size given ('" + std::string(a) + "')");
        } else {
            o.n = parse_size(a);
            have_n = true;
        }
    }
    if (o.first && o.limit) usage_error("--first and --limit exclude each other (--first is a limit of 1)");
    if (over_mpi) {
        const auto refuse = [](const char* option) {
            usage_error(std::string(option) + " is not available over MPI, which searches every solution");
        };
        if (o.first) refuse("--first");
        if (o.limit) refuse("--limit");
        if (o.unique) refuse("--unique");
        if (o.restarts) refuse("--restarts");
        if (o.time_limit != std::chrono::nanoseconds::max()) refuse("--time-limit");
        examples::refuse_idle(o.quiet, true, "--quiet", "over MPI, which shows no progress line", usage_error);
        if (o.val == propane::random_value || o.var == propane::dom_wdeg)
            usage_error("over MPI the search must be deterministic: not --val random or --var dom-wdeg");
    }
    return o;
}

// What the options ask for, with the defaults filled in.
struct Plan {
    propane::Strategy strategy;
    propane::Consistency consistency;
    std::uint64_t limit;
};

Plan plan(const Options& o) {
    Plan p{nqueens::guide_strategy, propane::bounds, o.first ? 1 : o.limit.value_or(propane::unlimited)};
    if (o.first) {
        p.strategy = nqueens::first_strategy;
        p.consistency = nqueens::first_consistency;
    }
    p.strategy.var = o.var.value_or(p.strategy.var);
    p.strategy.val = o.val.value_or(p.strategy.val);
    // A restart only helps a search that chooses differently the next time;
    // a deterministic one would just go down the same path again.
    const bool varies = p.strategy.val == propane::random_value || p.strategy.var == propane::dom_wdeg;
    if (!varies) p.strategy.restarts.policy = propane::RestartPolicy::none;
    p.strategy.restarts.policy = o.restarts.value_or(p.strategy.restarts.policy);
    p.strategy.restarts.scale = o.restart_scale.value_or(p.strategy.restarts.scale);
    p.strategy.seed = o.seed.value_or(0);
    p.consistency = o.consistency.value_or(p.consistency);
    const bool restarting = p.strategy.restarts.policy != propane::RestartPolicy::none;
    examples::refuse_idle(o.seed.has_value(), p.strategy.val != propane::random_value, "--seed",
                          "without --val random (nothing else draws on it)", usage_error);
    examples::refuse_idle(restarting && o.restarts.has_value(), !varies, "--restarts",
                          "without --val random or --var dom-wdeg (a deterministic search would take the same path "
                          "again)",
                          usage_error);
    if (o.restart_scale && !restarting)
        usage_error("--restart-scale needs restarts (--restarts luby or geometric)");
    examples::refuse_idle(o.quiet, !o.count, "--quiet", "without --count (which alone shows a progress line)",
                          usage_error);
    return p;
}

// Boards go through one buffer per solution: printing, not search, would
// otherwise dominate for small N.
void print_board(std::uint64_t index, std::span<const int> q, std::string& buf) {
    const auto n = static_cast<int>(q.size());
    buf.clear();
    buf += "Solution " + std::to_string(index) + "\n";
    for (int row = 0; row < n; ++row) {
        for (int col = 0; col < n; ++col) {
            buf += q[static_cast<std::size_t>(col)] == row ? 'Q' : '_';
            buf += col + 1 < n ? ' ' : '\n';
        }
    }
    buf += '\n';
    console.out(buf);
}

// ", about 1h02m left", "3m05s", "42s": an estimate needs no more
// precision. Nothing while too little of the tree is explored to tell (a
// deep dive explores almost none of it until its first failures).
std::string time_left(double seconds, double done) {
    const double left = done > 0 ? seconds * (1 - done) / done : 0;
    if (!(done > 0 && left < 1e9)) return "";
    const auto s = static_cast<long long>(left + 0.5);
    char text[48];
    if (s >= 3600) std::snprintf(text, sizeof text, ", about %lldh%02lldm left", s / 3600, s / 60 % 60);
    else if (s >= 60) std::snprintf(text, sizeof text, ", about %lldm%02llds left", s / 60, s % 60);
    else std::snprintf(text, sizeof text, ", about %llds left", s);
    return text;
}

// The progress line on standard error: share of the tree explored,
// solutions so far, speed, and the time left if the rest goes as fast.
// nqueens_mpi shows none: its ranks' output goes through mpirun.
[[maybe_unused]] void show_progress(double done, std::uint64_t found, const propane::SearchStats& st) {
    const double seconds = std::chrono::duration<double>(st.wall_time).count();
    const double rate = seconds > 0 ? static_cast<double>(st.branches) / seconds : 0;
    // \r returns to the start of the line; ESC[K clears what a longer line
    // before left behind.
    char line[160];
    std::snprintf(line, sizeof line, "\r%5.1f%% done, %llu solutions, %.3g branches/s%s\x1b[K", 100 * done,
                  static_cast<unsigned long long>(found), rate, time_left(seconds, done).c_str());
    console.err(line);
}

std::string json_string(std::string_view s) { return examples::quoted(s, '"'); }

// Prints the statistics (or the JSON object) of a search that ended with
// `outcome`, on `threads` threads per rank and `ranks` ranks (0: no MPI).
void report(const Options& o, const Plan& p, const propane::SearchStats& st, std::uint64_t found,
            propane::Outcome outcome, unsigned threads, int ranks) {
    using namespace propane;
    const auto u = [](std::uint64_t x) { return static_cast<unsigned long long>(x); };
    if (o.json) {
        const std::string mpi = ranks > 0 ? ",\"ranks\":" + std::to_string(ranks) : "";
        console.outf("{\"n\":%d,\"consistency\":%s,\"var\":%s,\"val\":%s,\"seed\":%llu,\"restart_policy\":%s,"
                     "\"unique\":%s,\"symmetry\":%s,\"threads\":%u%s,\"solutions\":%llu,\"failures\":%llu,"
                     "\"branches\":%llu,\"propagations\":%llu,\"restarts\":%llu,\"max_depth\":%llu,"
                     "\"subproblems\":%llu,\"split_ms\":%.3f,\"wall_ms\":%.3f,"
                     "\"complete\":%s,\"outcome\":%s}\n",
                     o.n, json_string(to_string(p.consistency)).c_str(),
                     json_string(to_string(p.strategy.var)).c_str(), json_string(to_string(p.strategy.val)).c_str(),
                     u(p.strategy.seed), json_string(to_string(p.strategy.restarts.policy)).c_str(),
                     o.unique ? "true" : "false", o.symmetry ? "true" : "false", threads, mpi.c_str(), u(found),
                     u(st.failures), u(st.branches), u(st.propagations), u(st.restarts), u(st.max_depth),
                     u(st.subproblems), st.split_ms(), st.wall_ms(), outcome == Outcome::complete ? "true" : "false",
                     json_string(to_string(outcome)).c_str());
    } else {
        console.outf("Statistics\n  failures: %llu\n  branches: %llu\n  wall time: %lld ms\n  Solutions found: %llu\n",
                     u(st.failures), u(st.branches), static_cast<long long>(st.wall_ms()), u(found));
        if (st.restarts > 0) console.outf("  restarts: %llu\n", u(st.restarts));
        if (ranks > 0) console.outf("  ranks: %d\n", ranks);
        if (threads > 1) console.outf("  threads: %u%s\n", threads, ranks > 0 ? " per rank" : "");
        if (st.subproblems > 0)
            console.outf("  subproblems: %llu (split in %.1f ms)\n", u(st.subproblems), st.split_ms());
        if (outcome != Outcome::complete) console.outf("  stopped by: %s\n", to_string(outcome).data());
    }
}

#ifdef PROPANE_NQUEENS_MPI
// This rank's share of the search. Every rank calls it and gets the
// totals; rank 0 alone gets the boards.
template <class Domain>
propane::mpi::Result search_mpi(const Options& o, const Plan& p, unsigned threads) {
    using namespace propane;
    nqueens::Model<Domain> m(o.n, p.consistency,
                             o.symmetry ? nqueens::Symmetry::mirror_broken : nqueens::Symmetry::none);
    const bool boards = !o.count && !o.json;
    // Each solution is checked where it is found, on the worker's thread.
    return mpi::solve(MPI_COMM_WORLD, m.store, m.q, p.strategy,
                      mpi::Options{.threads = threads, .collect = boards || o.symmetry},
                      [n = o.n](const auto& sol) {
                          thread_local std::vector<int> q;
                          thread_local std::vector<unsigned char> seen;
                          q.resize(static_cast<std::size_t>(n));
                          for (std::size_t c = 0; c < q.size(); ++c) q[c] = sol[c];
                          return nqueens::is_solution(q, seen);
                      });
}

// Rank 0 prints what run() would, from the whole search.
void print_mpi(const Options& o, const Plan& p, const propane::mpi::Result& r, unsigned threads, int ranks) {
    const bool boards = !o.count && !o.json;
    std::uint64_t found = r.stats.solutions;
    if (boards || o.symmetry) {
        found = 0;
        std::string buf;
        std::vector<int> image;
        const auto n = static_cast<std::size_t>(o.n);
        for (std::size_t at = 0; at + n <= r.solutions.size(); at += n) {
            const std::span<const int> q(r.solutions.data() + at, n);
            if (boards) print_board(found, q, buf);
            ++found;
            if (o.symmetry && nqueens::weight(q) == 2) {
                nqueens::mirror(q, image);
                if (boards) print_board(found, image, buf);
                ++found;
            }
        }
    }
    report(o, p, r.stats, found, r.stats.outcome, threads, ranks);
}

// Where a rank stands when the ranks compare notes, from the mildest to
// the gravest: the gravest of any rank decides what they all do.
enum Standing : int {
    ready,
    help_asked,
    echoing, // failed because another rank did, which says why
    failed,
    refused, // a bad argument: the usage line follows the messages
};

struct Verdict {
    Standing standing;
    std::vector<std::string> lines; // rank 0: what to write on standard error
};

// "rank 3", "ranks 1 and 2", "ranks 1, 2, 3 and 61 more".
std::string ranks_named(const std::vector<int>& who) {
    if (who.size() == 1) return "rank " + std::to_string(who[0]);
    std::string text = "ranks ";
    const std::size_t shown = std::min<std::size_t>(who.size() - 1, 3);
    for (std::size_t k = 0; k < shown; ++k) text += (k == 0 ? "" : ", ") + std::to_string(who[k]);
    if (shown + 1 == who.size()) return text + " and " + std::to_string(who.back());
    return text + " and " + std::to_string(who.size() - shown) + " more";
}

// Collective: rank 0 gathers every rank's standing and message, and all
// learn the gravest standing. Rank 0's verdict holds each different message
// once, in rank order, naming the ranks that gave it unless rank 0 is one
// of them (the common case of every rank finding the same bad argument
// gives one line). Blocking calls are fine here: no worker is running.
Verdict agree(int rank, int ranks, Standing mine, const std::string& message) {
    const int head[2] = {mine, static_cast<int>(message.size())};
    std::vector<int> heads(rank == 0 ? 2 * static_cast<std::size_t>(ranks) : 0);
    MPI_Gather(head, 2, MPI_INT, heads.data(), 2, MPI_INT, 0, MPI_COMM_WORLD);
    std::vector<int> sizes, offsets;
    std::vector<char> text;
    if (rank == 0) {
        int total = 0;
        for (int k = 0; k < ranks; ++k) {
            sizes.push_back(heads[2 * static_cast<std::size_t>(k) + 1]);
            offsets.push_back(total);
            total += sizes.back();
        }
        text.resize(static_cast<std::size_t>(total));
    }
    MPI_Gatherv(message.data(), head[1], MPI_CHAR, text.data(), sizes.data(), offsets.data(), MPI_CHAR, 0,
                MPI_COMM_WORLD);
    Verdict v{mine, {}};
    if (rank == 0) {
        std::vector<std::pair<std::string, std::vector<int>>> said;
        for (int k = 0; k < ranks; ++k) {
            const auto at = static_cast<std::size_t>(k);
            v.standing = std::max(v.standing, static_cast<Standing>(heads[2 * at]));
            if (sizes[at] == 0) continue;
            std::string m(text.data() + offsets[at], static_cast<std::size_t>(sizes[at]));
            const auto same = std::find_if(said.begin(), said.end(), [&](const auto& e) { return e.first == m; });
            if (same != said.end()) same->second.push_back(k);
            else said.emplace_back(std::move(m), std::vector<int>{k});
        }
        for (const auto& [m, who] : said) v.lines.push_back(who[0] == 0 ? m : ranks_named(who) + ": " + m);
    }
    int standing = v.standing;
    MPI_Bcast(&standing, 1, MPI_INT, 0, MPI_COMM_WORLD);
    v.standing = static_cast<Standing>(standing);
    return v;
}

void finish_mpi() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) MPI_Finalize();
}

// For the ranks about to exit with an error status, after rank 0 has
// written why. mpirun ends the whole job when any rank exits with a status
// other than 0, and rank 0's message was lost when another rank got there
// first: the barrier keeps them all until rank 0 has written.
void leave_after_rank_0() {
    MPI_Barrier(MPI_COMM_WORLD);
    finish_mpi();
}
#else
// What makes a strategy's choices depend on the search's history ("--val
// random and restarts"), or nothing if they do not.
std::string history_dependent(const propane::Strategy& s) {
    std::vector<std::string> parts;
    if (s.val == propane::random_value) parts.emplace_back("--val random");
    if (s.var == propane::dom_wdeg) parts.emplace_back("--var dom-wdeg");
    if (s.restarts.policy != propane::RestartPolicy::none) parts.emplace_back("restarts");
    std::string text;
    for (std::size_t k = 0; k < parts.size(); ++k)
        text += (k == 0 ? "" : k + 1 == parts.size() ? " and " : ", ") + parts[k];
    return text;
}

// The threads the search runs on. A strategy whose choices depend on the
// search's history would run on threads too, finding every solution once,
// but with other boards first and other statistics (split.hpp); --threads
// promises those of --threads 1, so it keeps one, and says so.
unsigned search_threads(const Options& o, const propane::Strategy& s) {
    const unsigned asked = propane::detail::resolve_threads(o.threads);
    const std::string why = history_dependent(s);
    if (asked == 1 || why.empty()) return asked;
    console.error("searching on one thread, not " + std::to_string(asked) + ": with " + why +
                  (o.first ? " (--first's search)" : "") +
                  " its choices depend on what it saw before, and threads would change the boards and statistics");
    return 1;
}

template <class Domain>
int run(const Options& o, const Plan& p) {
    using namespace propane;
    nqueens::Model<Domain> m(o.n, p.consistency,
                             o.symmetry ? nqueens::Symmetry::mirror_broken : nqueens::Symmetry::none);
    const unsigned threads = search_threads(o, p.strategy);
    const Limits limits{.time = o.time_limit};
    const bool boards = !o.count && !o.json;
    // What checking a solution writes: one per thread that checks.
    struct Scratch {
        std::vector<int> q, image, inverse;
        std::vector<unsigned char> seen;
    };
    std::atomic<bool> wrong{false};
    // Checks one solution of the search and hands each board it stands for
    // to emit: the solution, unless --unique finds it is not the canonical
    // one of its class, then its mirror image under --symmetry. False when
    // the solution is not a valid placement or emit says stop.
    const auto take = [&](const auto& sol, Scratch& sc, auto&& emit) {
        sc.q.resize(static_cast<std::size_t>(o.n));
        for (std::size_t c = 0; c < sc.q.size(); ++c) sc.q[c] = sol[c];
        if (!nqueens::is_solution(sc.q, sc.seen)) {
            if (!wrong.exchange(true)) {
                std::string rows;
                for (const int r : sc.q) rows += ' ' + std::to_string(r);
                console.error("internal error: the search gave an invalid placement, rows" + rows);
            }
            return false;
        }
        if (o.unique) return !nqueens::is_canonical(sc.q, sc.inverse) || emit(sc.q);
        if (!emit(sc.q)) return false;
        if (!o.symmetry || nqueens::weight(sc.q) != 2) return true;
        nqueens::mirror(sc.q, sc.image);
        return emit(sc.image);
    };

    std::uint64_t found = 0; // boards printed or counted
    bool limit_reached = false;
    std::string buf;
    Scratch scratch;
    // Prints or counts one board; false once the limit is reached.
    const auto emit = [&](std::span<const int> board) {
        if (boards) print_board(found, board, buf);
        ++found;
        limit_reached = found >= p.limit;
        return !limit_reached;
    };

    const bool progress = o.count && !o.quiet && isatty(STDERR_FILENO) == 1;
    // One search for any number of threads (one is the sequential search),
    // so that each domain width compiles one visitor. Ordered, the boards
    // come out as on one thread, from this one, which also draws the
    // progress line for all the workers. Counting every solution, the
    // order does not matter: each worker checks and counts its own on its
    // own thread, and none waits for this one to take them in order.
    const bool counting = !boards && p.limit == unlimited;
    // A count per worker, each on a line of its own, written only by its
    // worker: a shared one took a contended atomic increment per board.
    struct alignas(64) Count {
        std::atomic<std::uint64_t> n{0};
    };
    std::vector<Count> counted(threads);
    const auto count = [&](std::span<const int>) {
        std::atomic<std::uint64_t>& n = counted[propane::this_worker()].n;
        n.store(n.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
        return true;
    };
    const auto total = [&counted] {
        std::uint64_t sum = 0;
        for (const Count& c : counted) sum += c.n.load(std::memory_order_relaxed);
        return sum;
    };
    Parallel parallel{.threads = threads, .ordered = !counting};
    if (progress) {
        parallel.progress = [&](const ParallelProgress& pr) {
            show_progress(pr.done, counting ? total() : found, pr.stats);
        };
        parallel.progress_period = std::chrono::milliseconds(500);
    }
    const SearchStats st = solve(m.store, m.q, p.strategy, limits, parallel, [&](const auto& sol) {
        if (!counting) return take(sol, scratch, emit) ? propane::next : propane::stop;
        thread_local Scratch own;
        return take(sol, own, count) ? propane::next : propane::stop;
    });
    if (counting) found = total();
    if (progress) console.err("\r\x1b[K");
    if (wrong) return 1;
    report(o, p, st, found, limit_reached ? Outcome::solution_limit : st.outcome, threads, 0);
    return 0;
}
#endif

} // namespace

#ifdef PROPANE_NQUEENS_MPI
// Every rank parses its command line, and no rank leaves or waits on
// another before they have compared what they found: a rank that exited on
// a bad argument of its own would leave the others waiting for ever. The
// ranks end MPI before rank 0 writes its results, so that a failed write,
// which exits at once, leaves none of them waiting for it either.
int main(int argc, char** argv) {
    examples::report_file_size_limit();
    examples::report_out_of_memory(program);
    int provided = 0, rank = 0, ranks = 1;
    if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
        console.error("MPI_Init_thread failed");
        return 2;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    std::atexit(finish_mpi);

    Options o;
    Plan p{};
    Standing start = ready;
    std::string why;
    try {
        o = parse(argc, argv);
        p = plan(o);
        if (rank == 0 && o.output) {
            why = console.redirect(o.output->c_str());
            if (!why.empty()) start = failed;
        }
    } catch (const HelpAsked&) {
        start = help_asked;
    } catch (const Refusal& r) {
        start = refused;
        why = r.problem;
    }
    const Verdict v = agree(rank, ranks, start, why);
    if (v.standing == help_asked) {
        finish_mpi();
        if (rank == 0) usage.help_if_asked("--help");
        return 0;
    }
    if (v.standing != ready) {
        if (rank == 0) {
            for (const std::string& line : v.lines) console.error(line);
            if (v.standing == refused) usage.hint();
        }
        leave_after_rank_0();
        return 2;
    }

    const unsigned threads = propane::detail::resolve_threads(o.threads);
    std::optional<propane::mpi::Result> r;
    Standing end = ready;
    why.clear();
    try {
        r = nqueens::with_domain_for(
            o.n, [&](auto tag) { return search_mpi<typename decltype(tag)::type>(o, p, threads); });
    } catch (const propane::mpi::remote_error&) {
        end = echoing;
    } catch (const propane::model_error& e) {
        end = failed;
        why = std::string("the ranks' command lines disagree: ") + e.what();
    } catch (const std::exception& e) {
        end = failed;
        why = e.what();
    }
    const Verdict done = agree(rank, ranks, end, why);
    if (done.standing != ready) {
        if (rank == 0)
            for (const std::string& line : done.lines) console.error(line);
        leave_after_rank_0();
        return 2;
    }
    if (r->rejected > 0) {
        if (rank == 0)
            console.error("internal error: " + std::to_string(r->rejected) + " solutions are not valid placements");
        leave_after_rank_0();
        return 1;
    }
    // Rank 0 alone goes on, to write; the others end with status 0, which
    // stops nothing.
    finish_mpi();
    if (rank != 0) return 0;
    print_mpi(o, p, *r, threads, ranks);
    console.close();
    return 0;
}
#else
int main(int argc, char** argv) {
    examples::report_file_size_limit();
    examples::report_out_of_memory(program);
    const Options o = parse(argc, argv);
    const Plan p = plan(o);
    if (o.output) {
        const std::string problem = console.redirect(o.output->c_str());
        if (!problem.empty()) {
            console.error(problem);
            return 2;
        }
    }
    const int status = examples::run_guarded(program, [&] {
        return nqueens::with_domain_for(o.n, [&](auto tag) { return run<typename decltype(tag)::type>(o, p); });
    });
    console.close();
    return status;
}
#endif
