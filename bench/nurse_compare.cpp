// nurse_compare: finds the first roster of a nurse-rostering model
// (bench/nurse_model.hpp: regular per nurse, count per day and shift and
// per nurse) with propane and, when the build found it, with Gecode on the
// same model and search, in one process. It checks the roster against the
// rules, checks that both engines walk the same tree to the same roster,
// then prints a Markdown table of times, branches and the ratio Gecode /
// propane. See --help.

#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nurse_model.hpp"
#include "options.hpp"

#ifdef PROPANE_HAVE_GECODE
#include <memory>

#include <gecode/int.hh>
#include <gecode/search.hh>
#endif

#include "compare_report.hpp"

namespace {

using compare_report::command_line;
using compare_report::engine_name;
using compare_report::median;

constexpr const char* usage_line = "usage: nurse_compare [--nurses N] [--days D] [--max-work K] [--min-off M] "
                                   "[--rounds R] [--no-gecode] [--help]";

constexpr const char* help_text = R"(
Finds the first roster of N nurses over D days (bench/nurse_model.hpp):
x[n][d] in 0..3 (off, day, evening, night);
  - each nurse's row accepted by one automaton: no day or evening shift
    right after a night, no day shift right after an evening, at most 3
    nights in a row, at most K working days in a row;
  - each day, exactly 2 day (1 at the weekend), 2 evening and 1 night
    shifts (count ==);
  - each nurse at least M days off (count >=);
  - branch on the variables day by day, nurse by nurse (input order),
    smallest shift first; stop at the first solution;
with
  - propane: regular, count;
  - Gecode, when the build found it: extensional over the same automaton
    (a Gecode DFA built from propane's transitions), count with IRT_EQ and
    IRT_GQ, INT_VAR_NONE / INT_VAL_MIN over the same variable order, DFS on
    one thread.
Both are domain consistent, so the two walk the same tree: the same
branches (Gecode's nodes less the root), failures and roster, or the exit
status is 1. The roster is checked against the rules too.

Each round runs propane then Gecode; a time is the median over the rounds,
model building included, and the ratio is the median of the per-round
ratios Gecode / propane.

  --nurses N    nurses, 1 to 100 (default 11)
  --days D      days, 1 to 366 (default 28)
  --max-work K  most working days in a row, 1 to 30 (default 4)
  --min-off M   fewest days off per nurse, 0 to 366 (default 11)
  --rounds R    rounds, 1 to 100 (default 5)
  --no-gecode   propane's row only (for a profiler)
  --help        print this help

The default instance's first roster lies behind some 14,000 failures;
instances next to it take from a few hundred to millions.

Exit status: 0 if every check passes, 1 if one does not, 2 on bad
arguments.
)";

[[noreturn]] void usage_error(const std::string& problem) {
    examples::bench_usage_error("nurse_compare", usage_line, problem);
}

struct Options {
    nurse::Instance instance;
    int rounds = 5;
    bool gecode = true;
};

Options parse(int argc, char** argv) {
    examples::bench_help(argc, argv, usage_line, help_text);
    Options o;
    int nurses = 11, days = 28, max_work = 4, min_off = 11;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a == "--no-gecode") {
            o.gecode = false;
        } else if (examples::parsed_option(argc, argv, i, "--nurses", "a whole number from 1 to 100",
                                           examples::parse_between<1, 100>, nurses, usage_error) ||
                   examples::parsed_option(argc, argv, i, "--days", "a whole number from 1 to 366",
                                           examples::parse_between<1, 366>, days, usage_error) ||
                   examples::parsed_option(argc, argv, i, "--max-work", "a whole number from 1 to 30",
                                           examples::parse_between<1, 30>, max_work, usage_error) ||
                   examples::parsed_option(argc, argv, i, "--min-off", "a whole number from 0 to 366",
                                           examples::parse_between<0, 366>, min_off, usage_error) ||
                   examples::parsed_option(argc, argv, i, "--rounds", "a whole number from 1 to 100",
                                           examples::parse_between<1, 100>, o.rounds, usage_error)) {
        } else {
            usage_error("unknown argument '" + std::string(a) + "'");
        }
    }
    o.instance = nurse::standard(nurses, days, max_work, min_off);
    return o;
}

// What one engine reports: the roster (day by day, empty if none) and the
// tree in propane's terms.
struct Result {
    std::vector<int> roster;
    std::uint64_t branches = 0;
    std::uint64_t failures = 0;
    bool operator==(const Result&) const = default;
};

Result propane_first(const nurse::Instance& in) {
    Result r;
    const propane::SearchStats st = nurse::solve(in, r.roster);
    r.branches = st.branches;
    r.failures = st.failures;
    return r;
}

#ifdef PROPANE_HAVE_GECODE

class GecodeNurse final : public Gecode::Space {
public:
    explicit GecodeNurse(const nurse::Instance& in) : x_(*this, in.nurses * in.days, 0, 3) {
        const int n = in.nurses;
        const propane::Dfa rules = nurse::rules(in);
        std::vector<Gecode::DFA::Transition> t;
        for (const propane::Transition& e : rules.transitions) t.push_back({e.from, e.symbol, e.to});
        t.push_back({-1, 0, 0});
        std::vector<int> finals = rules.finals;
        finals.push_back(-1);
        const Gecode::DFA dfa(rules.start, t.data(), finals.data());
        // x_ is in the branching order, day by day: nurse k's day d is
        // x_[d * n + k].
        for (int k = 0; k < n; ++k) {
            Gecode::IntVarArgs row;
            for (int d = 0; d < in.days; ++d) row << x_[d * n + k];
            Gecode::extensional(*this, row, dfa);
        }
        for (int d = 0; d < in.days; ++d) {
            Gecode::IntVarArgs column;
            for (int k = 0; k < n; ++k) column << x_[d * n + k];
            for (int s = 1; s <= 3; ++s)
                Gecode::count(*this, column, s, Gecode::IRT_EQ, in.demand[static_cast<std::size_t>(d)][static_cast<std::size_t>(s - 1)]);
        }
        for (int k = 0; k < n; ++k) {
            Gecode::IntVarArgs row;
            for (int d = 0; d < in.days; ++d) row << x_[d * n + k];
            Gecode::count(*this, row, 0, Gecode::IRT_GQ, in.min_off);
        }
        Gecode::branch(*this, x_, Gecode::INT_VAR_NONE(), Gecode::INT_VAL_MIN());
    }
    GecodeNurse(GecodeNurse& other) : Gecode::Space(other) { x_.update(*this, other.x_); }
    Gecode::Space* copy() override { return new GecodeNurse(*this); }
    std::vector<int> roster() const {
        std::vector<int> out;
        for (int i = 0; i < x_.size(); ++i) out.push_back(x_[i].val());
        return out;
    }

private:
    Gecode::IntVarArray x_;
};

Result gecode_first(const nurse::Instance& in) {
    auto root = std::make_unique<GecodeNurse>(in);
    Gecode::Search::Options options;
    options.threads = 1;
    Gecode::DFS<GecodeNurse> search(root.get(), options);
    Result r;
    if (const std::unique_ptr<GecodeNurse> first{search.next()}) r.roster = first->roster();
    const Gecode::Search::Statistics st = search.statistics();
    // Gecode counts nodes, the root included; propane the branches below it.
    r.branches = st.node == 0 ? 0 : st.node - 1;
    r.failures = st.fail;
    return r;
}

#endif

// What is wrong with a roster, checked from the rules as stated rather
// than through the automaton; empty if nothing.
std::string roster_problem(const nurse::Instance& in, const std::vector<int>& x) {
    const int n = in.nurses;
    const auto at = [&](int k, int d) { return x[static_cast<std::size_t>(d * n + k)]; };
    for (int k = 0; k < n; ++k) {
        int work = 0, nights = 0, off = 0;
        for (int d = 0; d < in.days; ++d) {
            const int s = at(k, d), last = d > 0 ? at(k, d - 1) : 0;
            if (s < 0 || s > 3) return "a shift out of 0..3";
            if (last == 3 && (s == 1 || s == 2)) return "a day or evening shift after a night";
            if (last == 2 && s == 1) return "a day shift after an evening";
            work = s == 0 ? 0 : work + 1;
            nights = s == 3 ? nights + 1 : 0;
            off += s == 0 ? 1 : 0;
            if (work > in.max_work) return "too many working days in a row";
            if (nights > in.max_nights) return "too many nights in a row";
        }
        if (off < in.min_off) return "too few days off";
    }
    for (int d = 0; d < in.days; ++d)
        for (int s = 1; s <= 3; ++s) {
            int c = 0;
            for (int k = 0; k < n; ++k) c += at(k, d) == s ? 1 : 0;
            if (c != in.demand[static_cast<std::size_t>(d)][static_cast<std::size_t>(s - 1)]) return "a shift understaffed or overstaffed";
        }
    return {};
}

struct Times {
    double wall = 0;
    double cpu = 0;
};

template <class F>
Result timed(F&& run, Times& t) {
    const std::clock_t cpu_start = std::clock();
    const auto start = std::chrono::steady_clock::now();
    Result r = run();
    t.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    t.cpu = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
    return r;
}

struct Row {
    bool gecode = false;
    Result result;
    std::vector<Times> times;
};

} // namespace

int main(int argc, char** argv) {
    const Options o = parse(argc, argv);
    const nurse::Instance& in = o.instance;
    bool gecode = false;
#ifdef PROPANE_HAVE_GECODE
    gecode = o.gecode;
#endif
    std::vector<Row> rows{{false, {}, {}}};
    if (gecode) rows.push_back({true, {}, {}});

    std::vector<std::string> problems;
    for (int round = 0; round < o.rounds; ++round)
        for (Row& row : rows) {
            Times t;
#ifdef PROPANE_HAVE_GECODE
            const Result r = row.gecode ? timed([&] { return gecode_first(in); }, t)
                                        : timed([&] { return propane_first(in); }, t);
#else
            const Result r = timed([&] { return propane_first(in); }, t);
#endif
            if (round > 0 && r != row.result)
                problems.push_back(engine_name(row.gecode) + " answered differently in round " + std::to_string(round + 1));
            row.result = r;
            row.times.push_back(t);
            std::fprintf(stderr, "round %d: %s: %.3f s (processor %.3f s)\n", round + 1, engine_name(row.gecode).c_str(),
                         t.wall, t.cpu);
        }

    for (const Row& row : rows) {
        const std::string who = engine_name(row.gecode);
        if (row.result.roster.empty()) {
            problems.push_back(who + " found no roster");
        } else if (const std::string p = roster_problem(in, row.result.roster); !p.empty()) {
            problems.push_back(who + "'s roster breaks a rule: " + p);
        }
    }
    if (gecode && rows[1].result != rows[0].result)
        problems.push_back("Gecode and propane walked different trees (branches " +
                           std::to_string(rows[1].result.branches) + " and " + std::to_string(rows[0].result.branches) +
                           ", failures " + std::to_string(rows[1].result.failures) + " and " +
                           std::to_string(rows[0].result.failures) + ") or found different rosters");

    std::printf("`%s`\n\n", command_line(argc, argv).c_str());
    std::printf("%d nurses, %d days, at most %d working days in a row, at least %d days off. %d round%s; a time is "
                "the median over the rounds of one search to the first roster, model building included, on the wall "
                "clock and in processor time; a ratio is the median of the per-round ratios Gecode / propane. "
                "Gecode's branches are its nodes minus the root.\n\n",
                in.nurses, in.days, in.max_work, in.min_off, o.rounds, o.rounds == 1 ? "" : "s");
    std::printf("| engine | branches | failures | time | processor | Gecode / propane, time | processor |\n");
    std::printf("|---|--:|--:|--:|--:|--:|--:|\n");
    for (std::size_t k = 0; k < rows.size(); ++k) {
        const Row& row = rows[k];
        std::vector<double> wall, cpu, by_wall, by_cpu;
        for (std::size_t i = 0; i < row.times.size(); ++i) {
            wall.push_back(row.times[i].wall);
            cpu.push_back(row.times[i].cpu);
            if (row.gecode) {
                by_wall.push_back(row.times[i].wall / rows[0].times[i].wall);
                by_cpu.push_back(row.times[i].cpu / rows[0].times[i].cpu);
            }
        }
        std::string ratios = " | ";
        if (row.gecode) {
            std::array<char, 64> buf{};
            std::snprintf(buf.data(), buf.size(), "%.2f | %.2f", median(by_wall), median(by_cpu));
            ratios = buf.data();
        }
        std::printf("| %s | %llu | %llu | %s | %s | %s |\n", engine_name(row.gecode).c_str(),
                    static_cast<unsigned long long>(row.result.branches),
                    static_cast<unsigned long long>(row.result.failures),
                    compare_report::seconds_text(median(wall), 3).c_str(),
                    compare_report::seconds_text(median(cpu), 3).c_str(), ratios.c_str());
    }
#ifndef PROPANE_HAVE_GECODE
    std::printf("\nGecode was not found when this program was built, so it has no row.\n");
#endif
    if (problems.empty()) return 0;
    std::fflush(stdout);
    for (const std::string& p : problems) std::fprintf(stderr, "nurse_compare: %s\n", p.c_str());
    return 1;
}
