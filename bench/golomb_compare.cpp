// golomb_compare: proves the shortest Golomb ruler with N marks by branch
// and bound, with propane (the model of examples/golomb_model.hpp) and, when
// the build found it, with Gecode on the same model and search, in one
// process. It checks that both find the known optimal length, then prints a
// Markdown table of times, nodes and the ratio Gecode / propane. See --help.

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "golomb_model.hpp"
#include "options.hpp"

#ifdef PROPANE_HAVE_GECODE
#include <memory>

#include <gecode/int.hh>
#include <gecode/minimodel.hh>
#include <gecode/search.hh>
#endif

#include "compare_report.hpp"

namespace {

using compare_report::command_line;
using compare_report::engine_name;
using compare_report::median;

constexpr const char* usage_line = "usage: golomb_compare [N]... [--rounds R] [--copy-distance D] [--no-gecode] [--help]";

constexpr const char* help_text = R"(
Finds a shortest Golomb ruler with N marks and proves it optimal, with
  - propane, through examples/golomb_model.hpp: marks m[0] = 0 < m[1] < ...
    < m[N-1] over 0..N*N, a difference d[i][j] over 1..N*N for each i < j
    tied to the marks by linear (m[j] - m[i] - d[i][j] = 0), AllDifferent
    over the differences at bounds strength, d[0][1] < d[N-2][N-1]; branch
    on the first unfixed mark, smallest value first; branch and bound on
    m[N-1];
  - Gecode, when the build found it, with the same model: rel for m[0] = 0
    and each m[i] < m[i+1], linear IRT_EQ over the three terms, distinct
    IPL_BND, rel IRT_LE on the two differences, INT_VAR_NONE / INT_VAL_MIN on
    the marks, and BAB on one thread minimizing m[N-1].

Each round runs propane then Gecode for every N, so that the two share the
machine's state; a time is the median over the rounds, and the ratio is the
median of the per-round ratios Gecode / propane. Times include building the
model.

Both engines must prove the same length, and it must be OEIS A003022's for
N <= 14; anything else is reported and the exit status is 1. Their trees
are compared too: Gecode counts nodes, the root included, and propane
counts branches, so the same tree has branches = nodes - 1. After a
solution, Gecode's BAB adds the new bound to the copy it recomputes the next
node from; when that copy fails, it counts one failure and no node for all
the alternatives left below it, where propane takes and fails each of them.
So Gecode's tally may miss a few branches and failures of the same tree;
the line after the table gives the differences.

  N             number of marks, 2 to 14; repeat for several (default 10
                and 11; N = 12 takes minutes)
  --rounds R    rounds, 1 to 100 (default 3)
  --copy-distance D
                Gecode's copy distance (Search::Options::c_d), 1 to 1000
                (default 8, Gecode's own): BAB copies the space every D
                nodes and recomputes the ones between. For this model a
                copy at every node (1) is the faster setting.
  --no-gecode   propane's rows only
  --help        print this help

Exit status: 0 if every length is right, 1 if one is not, 2 on bad
arguments.
)";

[[noreturn]] void usage_error(const std::string& problem) {
    examples::bench_usage_error("golomb_compare", usage_line, problem);
}

constexpr int max_n = 14;

// OEIS A003022, the optimal lengths, indexed by the number of marks.
constexpr std::array<std::int64_t, max_n + 1> a003022 = {0, 0, 1, 3, 6, 11, 17, 25, 34, 44, 55, 72, 85, 106, 127};

struct Options {
    std::vector<int> sizes;
    int rounds = 3;
    int copy_distance = 8;
    bool gecode = true;
};

Options parse(int argc, char** argv) {
    examples::bench_help(argc, argv, usage_line, help_text);
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a == "--no-gecode") {
            o.gecode = false;
        } else if (examples::parsed_option(argc, argv, i, "--rounds", "a whole number from 1 to 100",
                                           examples::parse_between<1, 100>, o.rounds, usage_error)) {
        } else if (examples::parsed_option(argc, argv, i, "--copy-distance", "a whole number from 1 to 1000",
                                           examples::parse_between<1, 1000>, o.copy_distance, usage_error)) {
        } else if (!a.starts_with("-")) {
            const std::optional<int> n = examples::parse_between<2, max_n>(a);
            if (!n) usage_error("bad N '" + std::string(a) + "' (expected a number of marks from 2 to 14)");
            o.sizes.push_back(*n);
        } else {
            usage_error("unknown argument '" + std::string(a) + "'");
        }
    }
    if (o.sizes.empty()) o.sizes = {10, 11};
    return o;
}

// What one engine reports for one proof.
struct Result {
    std::optional<std::int64_t> length;
    bool optimal = false;
    std::uint64_t nodes = 0; // as the engine counts them: propane's branches, Gecode's nodes
    std::uint64_t failures = 0;
    bool operator==(const Result&) const = default;
};

Result propane_prove(int n) {
    const auto st = golomb::solve(n, propane::bounds, propane::Limits{}, [](const std::vector<int>&) {});
    return {st.objective, st.complete(), st.branches, st.failures};
}

#ifdef PROPANE_HAVE_GECODE

class GecodeGolomb final : public Gecode::IntMinimizeSpace {
public:
    explicit GecodeGolomb(int n) : m_(*this, n, 0, n * n) {
        const int top = n * n;
        Gecode::rel(*this, m_[0], Gecode::IRT_EQ, 0);
        for (int i = 0; i + 1 < n; ++i) Gecode::rel(*this, m_[i], Gecode::IRT_LE, m_[i + 1]);
        // Built as the differences come, row by row, as golomb_model.hpp
        // orders them: the order of the distinct's views is part of the model.
        Gecode::IntVarArgs d;
        const Gecode::IntArgs unit_diff({1, -1, -1});
        for (int i = 0; i < n; ++i)
            for (int j = i + 1; j < n; ++j) {
                const Gecode::IntVar dij(*this, 1, top);
                Gecode::linear(*this, unit_diff, Gecode::IntVarArgs({m_[j], m_[i], dij}), Gecode::IRT_EQ, 0);
                d << dij;
            }
        if (n >= 2) Gecode::distinct(*this, d, Gecode::IPL_BND);
        if (n >= 3) Gecode::rel(*this, d[0], Gecode::IRT_LE, d[d.size() - 1]);
        Gecode::branch(*this, m_, Gecode::INT_VAR_NONE(), Gecode::INT_VAL_MIN());
    }
    GecodeGolomb(GecodeGolomb& other) : Gecode::IntMinimizeSpace(other) { m_.update(*this, other.m_); }
    Gecode::Space* copy() override { return new GecodeGolomb(*this); }
    Gecode::IntVar cost() const override { return m_[m_.size() - 1]; }

private:
    Gecode::IntVarArray m_;
};

Result gecode_prove(int n, int copy_distance) {
    auto root = std::make_unique<GecodeGolomb>(n);
    // One thread, as propane searches: a parallel search splits and counts
    // its tree differently.
    Gecode::Search::Options options;
    options.threads = 1;
    options.c_d = static_cast<unsigned>(copy_distance);
    Gecode::BAB<GecodeGolomb> search(root.get(), options);
    Result r;
    while (const std::unique_ptr<GecodeGolomb> better{search.next()}) r.length = better->cost().val();
    const Gecode::Search::Statistics st = search.statistics();
    r.optimal = !search.stopped();
    r.nodes = st.node;
    r.failures = st.fail;
    return r;
}

#endif

// Both clocks: the wall clock is what a user waits, and the processor time
// of this process (one thread for both engines) is what stays steady when
// the machine is shared. No barrier against the optimizer is needed around
// a proof, as nqueens_compare needs one around its bitboard: each builds a
// store or a space on the heap and searches it, which no compiler hoists
// or moves across the clocks.
struct Times {
    double wall = 0;
    double cpu = 0;
};

template <class F>
Result timed(int n, F&& prove, Times& t) {
    const std::clock_t cpu_start = std::clock();
    const auto start = std::chrono::steady_clock::now();
    Result r = prove(n);
    t.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    t.cpu = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
    return r;
}

struct Row {
    int n = 0;
    bool gecode = false;
    Result result;
    std::vector<Times> times; // one per round
};


// Gecode counts the root as a node; propane counts the branches below it.
std::uint64_t branches(const Row& row) {
    return row.gecode && row.result.nodes > 0 ? row.result.nodes - 1 : row.result.nodes;
}

std::string seconds_text(double s) { return compare_report::seconds_text(s, 3); }


} // namespace

int main(int argc, char** argv) {
    const Options o = parse(argc, argv);
    bool gecode = false;
#ifdef PROPANE_HAVE_GECODE
    gecode = o.gecode;
#endif
    std::vector<Row> rows;
    for (const int n : o.sizes) {
        rows.push_back({n, false, {}, {}});
        if (gecode) rows.push_back({n, true, {}, {}});
    }

    std::vector<std::string> problems;
    for (int round = 0; round < o.rounds; ++round)
        for (Row& row : rows) {
            Times t;
#ifdef PROPANE_HAVE_GECODE
            const Result r = row.gecode ? timed(row.n, [&](int n) { return gecode_prove(n, o.copy_distance); }, t)
                                        : timed(row.n, propane_prove, t);
#else
            const Result r = timed(row.n, propane_prove, t);
#endif
            // A deterministic search that answers differently in another
            // round is as wrong as a wrong length.
            if (round > 0 && r != row.result)
                problems.push_back("N = " + std::to_string(row.n) + ": " + engine_name(row.gecode) +
                                   " answered differently in round " + std::to_string(round + 1));
            row.result = r;
            row.times.push_back(t);
            std::fprintf(stderr, "round %d: N = %d, %s: %.3f s (processor %.3f s)\n", round + 1, row.n,
                         engine_name(row.gecode).c_str(), t.wall, t.cpu);
        }

    for (std::size_t k = 0; k < rows.size(); ++k) {
        const Row& row = rows[k];
        const std::string who = "N = " + std::to_string(row.n) + ": " + engine_name(row.gecode);
        const std::int64_t known = a003022[static_cast<std::size_t>(row.n)];
        if (!row.result.optimal) problems.push_back(who + " did not complete its search");
        if (!row.result.length)
            problems.push_back(who + " found no ruler");
        else if (*row.result.length != known)
            problems.push_back(who + " proves length " + std::to_string(*row.result.length) + ", OEIS A003022 says " +
                               std::to_string(known));
        if (row.gecode && row.result.length != rows[k - 1].result.length)
            problems.push_back(who + " and propane prove different lengths");
    }

    std::printf("`%s`\n\n", command_line(argc, argv).c_str());
    std::printf("%d round%s; a time is the median over the rounds of one whole proof, model building included, on "
                "the wall clock and in processor time; a ratio is the median of the per-round ratios Gecode / "
                "propane. Gecode's branches are its nodes minus the root; its failures, its fails; its copy "
                "distance, %d.\n\n",
                o.rounds, o.rounds == 1 ? "" : "s", o.copy_distance);
    std::printf("| N | engine | length | optimal | branches | failures | time | processor | Gecode / propane, time "
                "| processor |\n");
    std::printf("|--:|---|--:|---|--:|--:|--:|--:|--:|--:|\n");
    std::vector<std::string> trees;
    for (std::size_t k = 0; k < rows.size(); ++k) {
        const Row& row = rows[k];
        const Result& r = row.result;
        std::vector<double> wall, cpu;
        for (const Times& t : row.times) {
            wall.push_back(t.wall);
            cpu.push_back(t.cpu);
        }
        std::string ratios = " | ";
        if (row.gecode) {
            const std::vector<Times>& ours = rows[k - 1].times;
            std::vector<double> by_wall, by_cpu;
            for (std::size_t i = 0; i < row.times.size(); ++i) {
                by_wall.push_back(row.times[i].wall / ours[i].wall);
                by_cpu.push_back(row.times[i].cpu / ours[i].cpu);
            }
            std::array<char, 64> buf{};
            std::snprintf(buf.data(), buf.size(), "%.2f | %.2f", median(by_wall), median(by_cpu));
            ratios = buf.data();
            const Result& p = rows[k - 1].result;
            const auto diff = [](std::uint64_t theirs, std::uint64_t ours_) {
                return std::to_string(static_cast<long long>(theirs) - static_cast<long long>(ours_));
            };
            trees.push_back("N = " + std::to_string(row.n) + ": Gecode " + diff(branches(row), p.nodes) +
                            " branches, " + diff(r.failures, p.failures) + " failures");
        }
        std::printf("| %d | %s | %s | %s | %llu | %llu | %s | %s | %s |\n", row.n, engine_name(row.gecode).c_str(),
                    r.length ? std::to_string(*r.length).c_str() : "-", r.optimal ? "yes" : "no",
                    static_cast<unsigned long long>(branches(row)), static_cast<unsigned long long>(r.failures),
                    seconds_text(median(wall)).c_str(), seconds_text(median(cpu)).c_str(), ratios.c_str());
    }
    if (!trees.empty()) {
        // Not an error: Gecode fails several pending alternatives at once
        // when the bound fails the copy they share (--help).
        std::printf("\nThe trees, Gecode's counts less propane's (a few below 0: see --help):");
        for (const std::string& t : trees) std::printf(" %s.", t.c_str());
        std::printf("\n");
    }
#ifndef PROPANE_HAVE_GECODE
    std::printf("\nGecode was not found when this program was built, so it has no rows.\n");
#endif
    if (problems.empty()) return 0;
    std::fflush(stdout);
    for (const std::string& p : problems) std::fprintf(stderr, "golomb_compare: %s\n", p.c_str());
    return 1;
}
