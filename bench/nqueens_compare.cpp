// nqueens_compare: counts every solution of the N-queens board in one
// process with a bitboard counter (the speed limit), with propane at each
// AllDifferent strength, and with Gecode on the same model and search when
// the build found it. It checks that every count is right and that propane
// and Gecode search the same tree, then prints a Markdown table of times
// and ratios. See --help.

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bitboard.hpp"
#include "nqueens_model.hpp"
#include "options.hpp"

#ifdef PROPANE_HAVE_GECODE
#include <memory>

#include <gecode/int.hh>
#include <gecode/search.hh>
#endif

#include "compare_report.hpp"

namespace {

using compare_report::median;

constexpr const char* usage_line = "usage: nqueens_compare [--n N] [--rounds R] [--gecode-rounds G] [--help]";

constexpr const char* help_text = R"(
Counts all solutions of the N-queens board with
  - bitboard: plain backtracking over bit masks, row by row, no engine: the
    speed limit;
  - propane at each AllDifferent strength (value, bounds, domain), with the
    model and search of the nqueens example: q[c] is the row of the queen
    in column c, AllDifferent on q, q[c] + c and q[c] - c; branch on the
    first unfixed column, lowest row first (q = v, then q != v);
  - Gecode, when the build found it, with the same model at the same
    strength (IPL_VAL, IPL_BND, IPL_DOM) and the same branching
    (INT_VAR_NONE, INT_VAL_MIN), by depth-first search on one thread.

Each round runs every row once, in table order, so that the rows of a round
share the machine's state; a row's time is the median over the rounds, and
a ratio is the median of the ratios within each round. Times include
building the model. Gecode takes about a minute for N = 14 on this kind of
machine, three times what propane takes, so by default it runs in the first
round only (--gecode-rounds): the whole run then stays under three minutes,
and its ratios pair Gecode with propane's run of the same round.

Every count is checked: solutions against OEIS A000170 (N <= 15) or else
against the bitboard, and propane's branches and failures against Gecode's,
which counts nodes (the root included) where propane counts branches.

  --n N         board size, 1 to 32 (default 14)
  --rounds R    rounds, 1 to 1000 (default 3)
  --gecode-rounds G
                rounds that run Gecode too, 1 to R (default 1)
  --help        print this help

Exit status: 0 if every count agrees, 1 if one does not (the differences go
to standard error after the table), 2 on bad arguments.
)";

[[noreturn]] void usage_error(const std::string& problem) {
    examples::bench_usage_error("nqueens_compare", usage_line, problem);
}

struct Options {
    int n = 14;
    int rounds = 3;
    int gecode_rounds = 1;
};

using examples::parse_between;

Options parse(int argc, char** argv) {
    examples::bench_help(argc, argv, usage_line, help_text);
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        const bool known = examples::parsed_option(argc, argv, i, "--n", "a board size from 1 to 32",
                                                   parse_between<1, bitboard::max_n>, o.n, usage_error) ||
                           examples::parsed_option(argc, argv, i, "--rounds", "a whole number from 1 to 1000",
                                                   parse_between<1, 1000>, o.rounds, usage_error) ||
                           examples::parsed_option(argc, argv, i, "--gecode-rounds",
                                                   "a whole number from 1 to 1000", parse_between<1, 1000>,
                                                   o.gecode_rounds, usage_error);
        if (!known) usage_error("unknown argument '" + std::string(a) + "'");
    }
    if (o.gecode_rounds > o.rounds)
        usage_error("--gecode-rounds " + std::to_string(o.gecode_rounds) + " is more than --rounds " +
                    std::to_string(o.rounds));
    return o;
}

// OEIS A000170, indexed by N.
constexpr std::array<std::uint64_t, 16> a000170 = {
    1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184,
};

// A count in propane's terms, which are OR-Tools': each left and each right
// branch is one branch, each branch (or root) whose propagation fails one
// failure.
struct Counts {
    std::uint64_t solutions = 0;
    std::uint64_t branches = 0;
    std::uint64_t failures = 0;
    bool operator==(const Counts&) const = default;
};

// Keeps the compiler from moving a count out of its timed region: the
// bitboard count is a pure function of n, which a compiler may compute once
// for all rounds or after the clock stops. Reading n through this before
// the count and the result through it after pins the work in between.
template <class T>
void opaque(T& x) {
#if defined(__GNUC__) || defined(__clang__)
    __asm__ __volatile__("" : "+m"(x) : : "memory");
#else
    volatile T copy = x;
    x = copy;
#endif
}

// f(n), timed into `time` by the steady clock.
template <class F>
auto timed(int n, F&& f, double& time) {
    decltype(f(n)) result{};
    const auto start = std::chrono::steady_clock::now();
    opaque(n);
    result = f(n);
    opaque(result);
    time = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

constexpr std::array<propane::Consistency, 3> strengths = {propane::value, propane::bounds, propane::domain};

#ifdef PROPANE_HAVE_GECODE

class GecodeQueens final : public Gecode::Space {
public:
    GecodeQueens(int n, Gecode::IntPropLevel level) : q_(*this, n, 0, n - 1) {
        Gecode::distinct(*this, q_, level);
        Gecode::distinct(*this, Gecode::IntArgs::create(n, 0, 1), q_, level);
        Gecode::distinct(*this, Gecode::IntArgs::create(n, 0, -1), q_, level);
        Gecode::branch(*this, q_, Gecode::INT_VAR_NONE(), Gecode::INT_VAL_MIN());
    }
    GecodeQueens(GecodeQueens& other) : Gecode::Space(other) { q_.update(*this, other.q_); }
    Gecode::Space* copy() override { return new GecodeQueens(*this); }

private:
    Gecode::IntVarArray q_;
};

Gecode::IntPropLevel gecode_level(propane::Consistency strength) {
    switch (strength) {
    case propane::Consistency::value: return Gecode::IPL_VAL;
    case propane::Consistency::bounds: return Gecode::IPL_BND;
    case propane::Consistency::domain: return Gecode::IPL_DOM;
    }
    return Gecode::IPL_DEF;
}

// Gecode's statistics as it reports them.
struct GecodeStats {
    std::uint64_t solutions = 0;
    std::uint64_t nodes = 0;
    std::uint64_t fails = 0;
};

GecodeStats gecode_count(int n, propane::Consistency strength) {
    GecodeStats result;
    auto root = std::make_unique<GecodeQueens>(n, gecode_level(strength));
    // One thread, as propane searches: a parallel search would also split
    // and count its tree differently.
    Gecode::Search::Options options;
    options.threads = 1;
    Gecode::DFS<GecodeQueens> search(root.get(), options);
    while (const std::unique_ptr<GecodeQueens> solution{search.next()}) ++result.solutions;
    const Gecode::Search::Statistics st = search.statistics();
    result.nodes = st.node;
    result.fails = st.fail;
    return result;
}

// Both engines branch in two (q = v, then q != v) and choose again, so with
// the same propagation they search the same binary tree. Gecode counts its
// nodes, the root included; propane counts branches, the edges below the
// root, so branches = nodes - 1. A failed node is a failure in both. A root
// that fails is the exception: Gecode's engine finds it before its node
// count starts (fail 1, node 0), as propane counts it (failure 1, branch 0).
Counts in_propane_terms(const GecodeStats& g) {
    return {g.solutions, g.nodes == 0 ? 0 : g.nodes - 1, g.fails};
}

#endif

// One line of the table: an engine at one strength, measured every round.
struct Row {
    std::string engine;
    std::string strength;
    bool gecode = false; // compared with the propane row before it
    std::vector<double> times;
    Counts counts;
    std::string native; // the engine's own statistics, when they differ from propane's terms
};


// Over the rounds both rows ran in.
double median_ratio(const Row& top, const Row& bottom) {
    std::vector<double> ratios;
    for (std::size_t r = 0; r < std::min(top.times.size(), bottom.times.size()); ++r)
        ratios.push_back(top.times[r] / bottom.times[r]);
    return median(ratios);
}

std::string format(const char* spec, double x) {
    std::array<char, 64> buf{};
    std::snprintf(buf.data(), buf.size(), spec, x);
    return buf.data();
}

std::string grouped(std::uint64_t x) {
    std::string digits = std::to_string(x), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

std::string time_text(double s) {
    const double ms = s * 1e3;
    if (ms >= 1000) return format("%.2f s", s);
    if (ms >= 100) return format("%.0f ms", ms);
    if (ms >= 10) return format("%.1f ms", ms);
    if (ms >= 1) return format("%.2f ms", ms);
    return format("%.3f ms", ms);
}

std::string ratio_text(double r) {
    if (r >= 100) return format("%.0f", r);
    if (r >= 10) return format("%.1f", r);
    return format("%.2f", r);
}

// The command line as typed, quoting any word the shell would split.
std::string command_line(int argc, char** argv) {
    std::string out;
    for (int i = 0; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (i > 0) out += ' ';
        const bool quote = a.empty() || a.find_first_of(" \t'\"$\\*?;&|<>()`") != std::string_view::npos;
        if (quote) out += '\'';
        out += a;
        if (quote) out += '\'';
    }
    return out;
}

void print_table(const Options& o, int argc, char** argv, const std::vector<Row>& rows) {
    const Row& bitboard_row = rows.front();
    std::printf("`%s`\n\n", command_line(argc, argv).c_str());
    std::printf("N = %d, %d round%s: each time is the median over the rounds of one whole count, model building "
                "included, timed with std::chrono::steady_clock; a round runs every row once, in table order; a "
                "ratio is the median of the per-round ratios.",
                o.n, o.rounds, o.rounds == 1 ? "" : "s");
#ifdef PROPANE_HAVE_GECODE
    std::printf(" Gecode ran in the first %d round%s. Gecode's branches are its nodes minus the root; its failures, "
                "its fails.",
                o.gecode_rounds, o.gecode_rounds == 1 ? "" : "s");
#endif
    std::printf(" The bitboard's tree is not binary: its branches are the queens it places, its failures the rows "
                "where no square is free.\n\n");
#ifdef PROPANE_HAVE_GECODE
    constexpr bool gecode = true;
#else
    constexpr bool gecode = false;
#endif
    std::printf("| engine | AllDifferent | solutions | branches | failures | time | ns/branch | time / bitboard |%s\n",
                gecode ? " time / propane |" : "");
    std::printf("|---|---|--:|--:|--:|--:|--:|--:|%s\n", gecode ? "--:|" : "");
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const Row& row = rows[i];
        const double t = median(row.times);
        const std::string per_branch =
            row.counts.branches == 0 ? "-" : format("%.1f", t * 1e9 / static_cast<double>(row.counts.branches));
        const std::string vs_bitboard = i == 0 ? "1" : ratio_text(median_ratio(row, bitboard_row));
        std::printf("| %s | %s | %s | %s | %s | %s | %s | %s |", row.engine.c_str(),
                    row.strength.empty() ? "-" : row.strength.c_str(), grouped(row.counts.solutions).c_str(),
                    grouped(row.counts.branches).c_str(), grouped(row.counts.failures).c_str(), time_text(t).c_str(),
                    per_branch.c_str(), vs_bitboard.c_str());
        // A Gecode row follows the propane row of its strength.
        if (gecode) std::printf(" %s |", !row.gecode ? "" : ratio_text(median_ratio(row, rows[i - 1])).c_str());
        std::printf("\n");
    }
#ifndef PROPANE_HAVE_GECODE
    std::printf("\nGecode was not found when this program was built, so it has no rows.\n");
#endif
}

// Every disagreement among the counts, one line each; none means all agree.
std::vector<std::string> check(const Options& o, const std::vector<Row>& rows) {
    std::vector<std::string> problems;
    const auto say = [&](const std::string& what) { problems.push_back("N = " + std::to_string(o.n) + ": " + what); };
    const bool known = static_cast<std::size_t>(o.n) < a000170.size();
    const std::uint64_t expected = known ? a000170[static_cast<std::size_t>(o.n)] : rows.front().counts.solutions;
    const std::string source = known ? "A000170" : "the bitboard";
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const Row& row = rows[i];
        const std::string name = row.engine + (row.strength.empty() ? "" : " " + row.strength);
        if (row.counts.solutions != expected)
            say(name + " finds " + std::to_string(row.counts.solutions) + " solutions, " + source + " says " +
                std::to_string(expected));
        if (i == 0) continue;
        // A complete binary search tree has one more leaf than it has
        // inner nodes, each with two branches below it.
        const Counts& c = row.counts;
        if (c.solutions + c.failures >= 1 && c.branches != 2 * (c.failures + c.solutions - 1))
            say(name + " has " + std::to_string(c.branches) + " branches, not 2 * (failures + solutions - 1) = " +
                std::to_string(2 * (c.failures + c.solutions - 1)));
        if (row.gecode) {
            const Counts& p = rows[i - 1].counts;
            const auto differ = [&](const char* what, std::uint64_t ours, std::uint64_t theirs) {
                if (ours != theirs)
                    say(row.strength + " AllDifferent: propane has " + std::to_string(ours) + " " + what +
                        ", Gecode " + std::to_string(theirs) + " (its own statistics: " + row.native + ")");
            };
            differ("branches", p.branches, c.branches);
            differ("failures", p.failures, c.failures);
        }
    }
    return problems;
}

} // namespace

int main(int argc, char** argv) {
    const Options o = parse(argc, argv);

    std::vector<Row> rows;
    rows.push_back({"bitboard", "", false, {}, {}, ""});
    for (const propane::Consistency strength : strengths) {
        rows.push_back({"propane", std::string(propane::to_string(strength)), false, {}, {}, ""});
#ifdef PROPANE_HAVE_GECODE
        rows.push_back({"Gecode " GECODE_VERSION, std::string(propane::to_string(strength)), true, {}, {}, ""});
#endif
    }

    // The bitboard's tree, tallied once outside the timing: the timed count
    // returns only the number of solutions.
    const bitboard::Tree tree = bitboard::tree(o.n);
    rows.front().counts = {tree.solutions, tree.placements, tree.dead_ends};

    // Counts are deterministic; one that changes between rounds is a bug
    // like any other disagreement.
    std::vector<std::string> problems;
    const auto record = [&](Row& row, const Counts& counts, double time, int round) {
        if (round > 0 && counts != row.counts)
            problems.push_back("N = " + std::to_string(o.n) + ": " + row.engine + " " + row.strength +
                               " counted differently in round " + std::to_string(round + 1));
        row.counts = counts;
        row.times.push_back(time);
    };

    for (int round = 0; round < o.rounds; ++round) {
        double time = 0;
        const std::uint64_t solutions = timed(o.n, bitboard::count, time);
        record(rows.front(), {solutions, tree.placements, tree.dead_ends}, time, round);
        std::size_t i = 1;
        for (const propane::Consistency strength : strengths) {
            const propane::SearchStats p =
                timed(o.n, [&](int n) { return nqueens::count<propane::BitDomain<1>>(n, strength); }, time);
            record(rows[i++], {p.solutions, p.branches, p.failures}, time, round);
#ifdef PROPANE_HAVE_GECODE
            Row& gecode_row = rows[i++];
            if (round < o.gecode_rounds) {
                const GecodeStats g = timed(o.n, [&](int n) { return gecode_count(n, strength); }, time);
                gecode_row.native = "node " + std::to_string(g.nodes) + ", fail " + std::to_string(g.fails);
                record(gecode_row, in_propane_terms(g), time, round);
            }
#endif
        }
    }

    print_table(o, argc, argv, rows);
    const std::vector<std::string> more = check(o, rows);
    problems.insert(problems.end(), more.begin(), more.end());
    if (problems.empty()) {
        std::printf("\nAll counts agree.\n");
        return 0;
    }
    std::fflush(stdout);
    for (const std::string& p : problems) std::fprintf(stderr, "nqueens_compare: %s\n", p.c_str());
    return 1;
}
