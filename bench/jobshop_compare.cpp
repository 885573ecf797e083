// jobshop_compare: proves the least makespan of job-shop instances by
// branch and bound, with propane (the model and search of
// examples/jobshop_model.hpp) and, when the build found it, with Gecode on
// the same decomposition and search, in one process. It checks that both
// prove the same makespan (55 for ft06), then prints a Markdown table of
// times, trees and the ratio Gecode / propane. See --help.
//
// The trees: both engines reach the same fixpoint at every node (bounds
// reasoning on the same binary relations, whose fixpoint does not depend on
// the order the propagators run in) and branch alike, so their trees
// differ only in how branch and bound prunes after a solution. propane
// tightens the makespan's domain at each node it resumes, and takes and
// fails each open right branch in turn; Gecode's BAB posts the bound on
// the copy it recomputes the next node from, and when that copy fails it
// counts one failure and no node for every alternative below it. So
// Gecode's branch and bound counts fewer branches and failures (ft06: 1,441
// branches against 2,318). To show that the rest of the tree is the same,
// each engine then searches, depth first and without branch and bound,
// the model with the makespan below the optimum it proved: a tree without
// solutions, the proof of optimality alone; both must count the same
// branches and failures there (ft06: 146 and 74), and do.

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

#include "jobshop_model.hpp"
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

constexpr const char* usage_line =
    "usage: jobshop_compare [ft06 | JxM:SEED]... [--max-duration D] [--rounds R] [--copy-distance D] [--no-gecode] "
    "[--help]";

constexpr const char* help_text = R"(
Proves the least makespan of job-shop instances, with
  - propane, through examples/jobshop_model.hpp: starts over 0..horizon,
    precedences s + d <= s' inside each job, for each pair of operations
    a, b on one machine a Boolean o with o = 1 => s_a + d_a <= s_b and
    o = 0 => s_b + d_b <= s_a (rel with implies(o), implies(1 - o)), the
    makespan above each job's end; branch on the Booleans, then the starts,
    then the makespan, first unfixed, least value first; branch and bound
    on the makespan;
  - Gecode, when the build found it, with the same model: linear IRT_LQ
    over two terms for the precedences and the makespan, the pair relations
    as linear with Reify(o, RM_IMP) and, for the second, its negation with
    Reify(o, RM_PMI) (o = 0 enforces the negation of the negation), the
    branchings BOOL_VAR_NONE / BOOL_VAL_MIN, INT_VAR_NONE / INT_VAL_MIN,
    INT_VAL_MIN on the makespan, and BAB on one thread.

The instances are Fisher and Thompson's ft06 (6 x 6, optimum 55) and random
ones: JxM:SEED is J jobs on M machines, each job a random order of the
machines, durations 1..D, from SEED (examples/jobshop_model.hpp's
random_instance). Default: ft06 6x5:3 6x5:33 7x5:6, random ones that
Gecode proves in 0.1 to 10 s (4 x 6 instances all take under 1,500
branches, a millisecond: 4 jobs make 6 pairs per machine).

Each round runs propane then Gecode on every instance, so that the two share
the machine's state; a time is the median over the rounds, and a ratio the
median of the per-round ratios Gecode / propane. Times include building the
model. Both engines must prove the same makespan (ft06's must be 55), and
each must answer alike in every round; anything else is reported and the
exit status is 1.

  JxM:SEED      a random instance, J and M from 1 to 20, SEED a whole number
  ft06          Fisher and Thompson's instance
  --max-duration D
                durations of the random instances 1..D, D from 1 to 1000
                (default 99, as in Taillard's instances)
  --rounds R    rounds, 1 to 100 (default 5)
  --copy-distance D
                Gecode's copy distance (Search::Options::c_d), 1 to 1000
                (default 8, Gecode's own)
  --no-gecode   propane's rows only
  --help        print this help

Exit status: 0 if the makespans agree, 1 if they do not, 2 on bad
arguments.
)";

[[noreturn]] void usage_error(const std::string& problem) {
    examples::bench_usage_error("jobshop_compare", usage_line, problem);
}

constexpr std::string_view ft06_text = R"(6 6
2 1 0 3 1 6 3 7 5 3 4 6
1 8 2 5 4 10 5 10 0 10 3 4
2 5 3 4 5 8 0 9 1 1 4 7
1 5 0 5 2 5 3 3 4 8 5 9
2 9 1 3 4 5 5 4 0 3 3 1
1 3 3 3 5 9 0 10 4 4 2 1
)";
constexpr std::int64_t ft06_optimum = 55;

// A random instance, or ft06 when jobs is 0.
struct Spec {
    int jobs = 0, machines = 0;
    std::uint64_t seed = 0;
};

struct Options {
    std::vector<Spec> specs;
    bool defaults = true;
    int max_duration = 99;
    int rounds = 5;
    int copy_distance = 8;
    bool gecode = true;
};

std::optional<Spec> parse_spec(std::string_view a) {
    if (a == "ft06") return Spec{};
    const std::size_t x = a.find('x'), colon = a.find(':');
    if (x == std::string_view::npos || colon == std::string_view::npos || colon < x) return std::nullopt;
    const auto jobs = examples::parse_between<1, 20>(a.substr(0, x));
    const auto machines = examples::parse_between<1, 20>(a.substr(x + 1, colon - x - 1));
    const auto seed = examples::parse_count(a.substr(colon + 1));
    if (!jobs || !machines || !seed) return std::nullopt;
    return Spec{*jobs, *machines, *seed};
}

Options parse(int argc, char** argv) {
    examples::bench_help(argc, argv, usage_line, help_text);
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a == "--no-gecode") {
            o.gecode = false;
        } else if (examples::parsed_option(argc, argv, i, "--rounds", "a whole number from 1 to 100",
                                           examples::parse_between<1, 100>, o.rounds, usage_error) ||
                   examples::parsed_option(argc, argv, i, "--copy-distance", "a whole number from 1 to 1000",
                                           examples::parse_between<1, 1000>, o.copy_distance, usage_error) ||
                   examples::parsed_option(argc, argv, i, "--max-duration", "a whole number from 1 to 1000",
                                           examples::parse_between<1, 1000>, o.max_duration, usage_error)) {
        } else if (!a.starts_with("-")) {
            const std::optional<Spec> spec = parse_spec(a);
            if (!spec) usage_error("bad instance '" + std::string(a) + "' (expected ft06 or JxM:SEED, such as 6x5:1)");
            o.specs.push_back(*spec);
            o.defaults = false;
        } else {
            usage_error("unknown argument '" + std::string(a) + "'");
        }
    }
    return o;
}

struct Named {
    std::string name;
    jobshop::Instance instance;
    std::optional<std::int64_t> known; // the optimum, when published
};

std::vector<Named> instances(const Options& o) {
    std::vector<Named> out;
    std::vector<Spec> specs = o.specs;
    if (o.defaults) specs = {{}, {6, 5, 3}, {6, 5, 33}, {7, 5, 6}};
    for (const Spec& s : specs)
        if (s.jobs == 0)
            out.push_back({"ft06", jobshop::parse(ft06_text).instance, ft06_optimum});
        else
            out.push_back({std::to_string(s.jobs) + "x" + std::to_string(s.machines) + ":" + std::to_string(s.seed),
                       jobshop::random_instance(s.jobs, s.machines, o.max_duration, s.seed), std::nullopt});
    return out;
}

// What one engine reports for one proof.
struct Result {
    std::optional<std::int64_t> makespan;
    bool optimal = false;
    std::uint64_t nodes = 0; // as the engine counts them: propane's branches, Gecode's nodes
    std::uint64_t failures = 0;
    bool operator==(const Result&) const = default;
};

Result propane_prove(const jobshop::Instance& in) {
    const propane::OptimizeStats st = jobshop::solve(in, propane::Limits{}, [](const jobshop::Schedule&) {});
    return {st.objective, st.complete(), st.branches, st.failures};
}

#ifdef PROPANE_HAVE_GECODE

// Depth-first search of the model with makespan < bound: (branches,
// failures).
std::pair<std::uint64_t, std::uint64_t> propane_refute(const jobshop::Instance& in, int bound) {
    return jobshop::with_domain_for(in.horizon(), [&](auto tag) {
        jobshop::Model<typename decltype(tag)::type> m(in);
        m.store.post(propane::rel(m.makespan, propane::Rel::lt, bound));
        const propane::SearchStats st = propane::solve(m.store, m.branching, jobshop::strategy, [](const auto&) {});
        return std::pair{st.branches, st.failures + st.solutions};
    });
}

class GecodeJobShop final : public Gecode::IntMinimizeSpace {
public:
    explicit GecodeJobShop(const jobshop::Instance& in)
        : start_(*this, in.jobs * in.machines, 0, in.horizon()), makespan_(*this, 0, in.horizon()) {
        const int m = in.machines;
        const auto d = [&](int j, int k) {
            return in.ops[static_cast<std::size_t>(j)][static_cast<std::size_t>(k)].duration;
        };
        const auto s = [&](int j, int k) { return start_[j * m + k]; };
        const Gecode::IntArgs unit({1, -1});
        // x + c <= y as x - y <= -c, Gecode's binary linear.
        const auto before = [&](const Gecode::IntVar& x, int c, const Gecode::IntVar& y) {
            Gecode::linear(*this, unit, Gecode::IntVarArgs({x, y}), Gecode::IRT_LQ, -c);
        };
        for (int j = 0; j < in.jobs; ++j) {
            for (int k = 0; k + 1 < m; ++k) before(s(j, k), d(j, k), s(j, k + 1));
            before(s(j, m - 1), d(j, m - 1), makespan_);
        }
        // The pairs in the order of jobshop::Model: machine by machine, in
        // job order.
        std::vector<std::vector<std::pair<int, int>>> on(static_cast<std::size_t>(m));
        for (int j = 0; j < in.jobs; ++j)
            for (int k = 0; k < m; ++k)
                on[static_cast<std::size_t>(in.ops[static_cast<std::size_t>(j)][static_cast<std::size_t>(k)].machine)]
                    .push_back({j, k});
        Gecode::BoolVarArgs order;
        for (const auto& ops : on)
            for (std::size_t x = 0; x < ops.size(); ++x)
                for (std::size_t y = x + 1; y < ops.size(); ++y) {
                    const auto [ja, ka] = ops[x];
                    const auto [jb, kb] = ops[y];
                    const Gecode::BoolVar o(*this, 0, 1);
                    // o = 1 => s_a + d_a <= s_b.
                    Gecode::linear(*this, unit, Gecode::IntVarArgs({s(ja, ka), s(jb, kb)}), Gecode::IRT_LQ,
                                   -d(ja, ka), Gecode::Reify(o, Gecode::RM_IMP));
                    // o = 0 => s_b + d_b <= s_a, as o <= (s_b + d_b > s_a).
                    Gecode::linear(*this, unit, Gecode::IntVarArgs({s(jb, kb), s(ja, ka)}), Gecode::IRT_GR,
                                   -d(jb, kb), Gecode::Reify(o, Gecode::RM_PMI));
                    order << o;
                }
        order_ = Gecode::BoolVarArray(*this, order);
        Gecode::branch(*this, order_, Gecode::BOOL_VAR_NONE(), Gecode::BOOL_VAL_MIN());
        Gecode::branch(*this, start_, Gecode::INT_VAR_NONE(), Gecode::INT_VAL_MIN());
        Gecode::branch(*this, makespan_, Gecode::INT_VAL_MIN());
    }
    GecodeJobShop(GecodeJobShop& other) : Gecode::IntMinimizeSpace(other) {
        start_.update(*this, other.start_);
        order_.update(*this, other.order_);
        makespan_.update(*this, other.makespan_);
    }
    Gecode::Space* copy() override { return new GecodeJobShop(*this); }
    Gecode::IntVar cost() const override { return makespan_; }

private:
    Gecode::IntVarArray start_;
    Gecode::BoolVarArray order_;
    Gecode::IntVar makespan_;
};

Result gecode_prove(const jobshop::Instance& in, int copy_distance) {
    auto root = std::make_unique<GecodeJobShop>(in);
    // One thread, as propane searches: a parallel search splits and counts
    // its tree differently.
    Gecode::Search::Options options;
    options.threads = 1;
    options.c_d = static_cast<unsigned>(copy_distance);
    Gecode::BAB<GecodeJobShop> search(root.get(), options);
    Result r;
    while (const std::unique_ptr<GecodeJobShop> better{search.next()}) r.makespan = better->cost().val();
    const Gecode::Search::Statistics st = search.statistics();
    r.optimal = !search.stopped();
    r.nodes = st.node;
    r.failures = st.fail;
    return r;
}

std::pair<std::uint64_t, std::uint64_t> gecode_refute(const jobshop::Instance& in, int bound) {
    auto root = std::make_unique<GecodeJobShop>(in);
    Gecode::rel(*root, root->cost(), Gecode::IRT_LE, bound);
    Gecode::Search::Options options;
    options.threads = 1;
    Gecode::DFS<GecodeJobShop> search(root.get(), options);
    std::uint64_t solutions = 0;
    while (const std::unique_ptr<GecodeJobShop> s{search.next()}) ++solutions;
    const Gecode::Search::Statistics st = search.statistics();
    return {st.node > 0 ? st.node - 1 : 0, st.fail + solutions};
}

#endif

// Both clocks, as golomb_compare: the wall clock is what a user waits, the
// processor time of this one-threaded process what stays steady when the
// machine is shared.
struct Times {
    double wall = 0;
    double cpu = 0;
};

template <class F>
Result timed(F&& prove, Times& t) {
    const std::clock_t cpu_start = std::clock();
    const auto start = std::chrono::steady_clock::now();
    Result r = prove();
    t.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    t.cpu = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
    return r;
}

struct Row {
    std::size_t instance = 0;
    bool gecode = false;
    Result result;
    std::vector<Times> times; // one per round
};


// Gecode counts the root as a node; propane counts the branches below it.
std::uint64_t branches(const Row& row) {
    return row.gecode && row.result.nodes > 0 ? row.result.nodes - 1 : row.result.nodes;
}

std::string seconds_text(double s) { return compare_report::seconds_text(s, 4); }


} // namespace

int main(int argc, char** argv) {
    const Options o = parse(argc, argv);
    bool gecode = false;
#ifdef PROPANE_HAVE_GECODE
    gecode = o.gecode;
#endif
    const std::vector<Named> named = instances(o);
    std::vector<Row> rows;
    for (std::size_t i = 0; i < named.size(); ++i) {
        rows.push_back({i, false, {}, {}});
        if (gecode) rows.push_back({i, true, {}, {}});
    }

    std::vector<std::string> problems;
    for (int round = 0; round < o.rounds; ++round)
        for (Row& row : rows) {
            const jobshop::Instance& in = named[row.instance].instance;
            Times t;
#ifdef PROPANE_HAVE_GECODE
            const Result r = row.gecode ? timed([&] { return gecode_prove(in, o.copy_distance); }, t)
                                        : timed([&] { return propane_prove(in); }, t);
#else
            const Result r = timed([&] { return propane_prove(in); }, t);
#endif
            // A deterministic search that answers differently in another
            // round is as wrong as a wrong makespan.
            if (round > 0 && r != row.result)
                problems.push_back(named[row.instance].name + ": " + engine_name(row.gecode) +
                                   " answered differently in round " + std::to_string(round + 1));
            row.result = r;
            row.times.push_back(t);
            std::fprintf(stderr, "round %d: %s, %s: %.4f s (processor %.4f s)\n", round + 1,
                         named[row.instance].name.c_str(), engine_name(row.gecode).c_str(), t.wall, t.cpu);
        }

    for (std::size_t k = 0; k < rows.size(); ++k) {
        const Row& row = rows[k];
        const Named& n = named[row.instance];
        const std::string who = n.name + ": " + engine_name(row.gecode);
        if (!row.result.optimal) problems.push_back(who + " did not complete its search");
        if (!row.result.makespan)
            problems.push_back(who + " found no schedule");
        else if (n.known && *row.result.makespan != *n.known)
            problems.push_back(who + " proves makespan " + std::to_string(*row.result.makespan) +
                               ", the published optimum is " + std::to_string(*n.known));
        if (row.gecode && row.result.makespan != rows[k - 1].result.makespan)
            problems.push_back(who + " and propane prove different makespans");
    }

    std::printf("`%s`\n\n", command_line(argc, argv).c_str());
    std::printf("%d round%s; a time is the median over the rounds of one whole proof, model building included, on "
                "the wall clock and in processor time; a ratio is the median of the per-round ratios Gecode / "
                "propane. Gecode's branches are its nodes minus the root; its failures, its fails; its copy "
                "distance, %d. Random instances: durations 1..%d.\n\n",
                o.rounds, o.rounds == 1 ? "" : "s", o.copy_distance, o.max_duration);
    std::printf("| instance | engine | makespan | optimal | branches | failures | time | processor | Gecode / "
                "propane, time | processor |\n");
    std::printf("|---|---|--:|---|--:|--:|--:|--:|--:|--:|\n");
    std::vector<std::string> trees;
    for (std::size_t k = 0; k < rows.size(); ++k) {
        const Row& row = rows[k];
        const Result& r = row.result;
        const std::string& name = named[row.instance].name;
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
                if (ours[i].cpu > 0) by_cpu.push_back(row.times[i].cpu / ours[i].cpu);
            }
            std::array<char, 64> buf{};
            if (by_cpu.empty())
                std::snprintf(buf.data(), buf.size(), "%.2f | -", median(by_wall));
            else
                std::snprintf(buf.data(), buf.size(), "%.2f | %.2f", median(by_wall), median(by_cpu));
            ratios = buf.data();
            const Result& p = rows[k - 1].result;
            const auto diff = [](std::uint64_t theirs, std::uint64_t ours_) {
                return std::to_string(static_cast<long long>(theirs) - static_cast<long long>(ours_));
            };
            trees.push_back(name + ": Gecode " + diff(branches(row), p.nodes) + " branches, " +
                            diff(r.failures, p.failures) + " failures");
        }
        std::printf("| %s | %s | %s | %s | %llu | %llu | %s | %s | %s |\n", name.c_str(),
                    engine_name(row.gecode).c_str(), r.makespan ? std::to_string(*r.makespan).c_str() : "-",
                    r.optimal ? "yes" : "no", static_cast<unsigned long long>(branches(row)),
                    static_cast<unsigned long long>(r.failures), seconds_text(median(wall)).c_str(),
                    seconds_text(median(cpu)).c_str(), ratios.c_str());
    }
    if (!trees.empty()) {
        std::printf("\nThe trees, Gecode's counts less propane's (below 0 where Gecode's BAB fails several pending "
                    "alternatives at once; see the header of bench/jobshop_compare.cpp):");
        for (const std::string& t : trees) std::printf(" %s.", t.c_str());
        std::printf("\n\nThe proofs alone, depth first with the makespan below the optimum (branches, failures):");
#ifdef PROPANE_HAVE_GECODE
        for (std::size_t k = 0; k + 1 < rows.size(); ++k) {
            if (rows[k].gecode || !rows[k].result.makespan || !rows[k].result.optimal) continue;
            const Named& n = named[rows[k].instance];
            const int bound = static_cast<int>(*rows[k].result.makespan);
            const auto ours = propane_refute(n.instance, bound), theirs = gecode_refute(n.instance, bound);
            const bool same = ours == theirs;
            std::printf(" %s: propane %llu, %llu; Gecode %llu, %llu%s.", n.name.c_str(),
                        static_cast<unsigned long long>(ours.first), static_cast<unsigned long long>(ours.second),
                        static_cast<unsigned long long>(theirs.first), static_cast<unsigned long long>(theirs.second),
                        same ? " (the same)" : "");
            if (!same) problems.push_back(n.name + ": propane and Gecode search different trees below the optimum");
        }
#endif
        std::printf("\n");
    }
#ifndef PROPANE_HAVE_GECODE
    std::printf("\nGecode was not found when this program was built, so it has no rows.\n");
#endif
    if (problems.empty()) return 0;
    std::fflush(stdout);
    for (const std::string& p : problems) std::fprintf(stderr, "jobshop_compare: %s\n", p.c_str());
    return 1;
}
