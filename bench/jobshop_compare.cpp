// jobshop_compare: minimises the makespan of job-shop instances by branch
// and bound, with propane (the model of examples/jobshop_model.hpp) and,
// when the build found it, with Gecode on the same model and search, in
// one process, each engine within the same time limit. It reports per
// instance and engine the makespan, whether it was proven, the time to the
// final makespan and in all, and the ratio Gecode / propane: on the whole
// search where both proved, else on the time to reach the best makespan
// both reached. See --help.
//
// The models: --model unary (the default) adds to the order Booleans a
// unary resource per machine, propane's unary() and Gecode's unary() with
// fixed durations (both: overload checking, detectable precedences,
// not-first/not-last, edge finding). --model decomposition is the order
// Booleans alone.
//
// The trees: with the decomposition both engines reach the same fixpoint at
// every node (bounds reasoning on the same binary relations, whose fixpoint
// does not depend on the order the propagators run in) and branch alike,
// so their trees differ only in how branch and bound prunes after a
// solution. propane tightens the makespan's domain at each node it
// resumes, and takes and fails each open right branch in turn; Gecode's
// BAB posts the bound on the copy it recomputes the next node from, and
// when that copy fails it counts one failure and no node for every
// alternative below it. So Gecode's branch and bound counts fewer branches
// and failures. To show that the rest of the tree is the same, each engine
// then searches, depth first and without branch and bound, the model with
// the makespan below the optimum both proved: a tree without solutions,
// the proof of optimality alone; with the decomposition both must count
// the same branches and failures there. With the unary resources the two
// need not stop at the same bounds: edge finding and not-first/not-last
// as implemented are not monotone rules whose fixpoint is unique, and each
// engine applies them in its own order and rounds. There the counts are
// reported, not required to match (ft10, refuting 929 with the least-slack
// search: propane 10,325 failures, Gecode 10,467).

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "jobshop_model.hpp"
#include "options.hpp"

#ifdef PROPANE_HAVE_GECODE
#include <memory>

#include <gecode/int.hh>
#include <gecode/minimodel.hh>
#include <gecode/search.hh>

#include "jobshop_gecode_branching.hpp"
#endif

#include "compare_report.hpp"

namespace {

using compare_report::command_line;
using compare_report::engine_name;
using compare_report::median;

constexpr const char* usage_line =
    "usage: jobshop_compare [ft06 | JxM:SEED | FILE]... [--model decomposition|unary] "
    "[--search least-slack|in-order] [--time-limit SECONDS] [--max-duration D] [--rounds R] [--copy-distance D] "
    "[--no-gecode] [--help]";

constexpr const char* help_text = R"(
Minimises the makespan of job-shop instances by branch and bound, with
  - propane, through examples/jobshop_model.hpp: starts over 0..horizon,
    precedences s + d <= s' inside each job, for each pair of operations
    a, b on one machine a Boolean o with o = 1 => s_a + d_a <= s_b and
    o = 0 => s_b + d_b <= s_a (rel with implies(o), implies(1 - o)), the
    makespan above each job's end, and with --model unary a unary(starts,
    durations) per machine;
  - Gecode, when the build found it, with the same model: linear IRT_LQ
    over two terms for the precedences and the makespan, the pair relations
    as linear with Reify(o, RM_IMP) and, for the second, its negation with
    Reify(o, RM_PMI), with --model unary Gecode's unary(starts, durations)
    per machine (IntVarArgs, IntArgs), and BAB on one thread.

Both engines search alike (--search):
  least-slack  the example's search (examples/jobshop_branching.hpp): the
               open order Boolean whose pair has the least slack on the
               machine with the least slack, the operation that can start
               earlier first; in Gecode a brancher of the same choices
               (bench/jobshop_gecode_branching.hpp); then the starts, first
               open, least value, then the makespan (the default)
  in-order     the order Booleans as they come (machine by machine, pairs
               in job order), 0 first (jobshop::strategy; Gecode's
               BOOL_VAR_NONE / BOOL_VAL_MIN), then the starts (INT_VAR_NONE
               / INT_VAL_MIN), then the makespan

The instances: ft06, Fisher and Thompson's 6 x 6 (optimum 55); JxM:SEED, J
jobs on M machines, each job a random order of the machines, durations
1..D, from SEED (examples/jobshop_model.hpp's random_instance); or a FILE
in the standard format (as the jobshop example reads), named by its base
name, whose published optimum is checked when the name is ft06, ft10 or
la01 to la05. Default: ft06 6x5:3 6x5:33 7x5:6.

Each round runs propane then Gecode on every instance, so that the two share
the machine's state; a figure is the median over the rounds. Times include
building the model. The ratio Gecode / propane is the median of the
per-round ratios: of the whole search where both proved their makespan,
else of the time each took to reach the best makespan both reached (the
larger of the two bests; "to M" in the table). An engine that does not
prove within the time limit is reported with its best makespan as not
proven. A problem, reported on standard error with exit status 1: the two
prove different makespans, one proves a makespan larger than a schedule
the other found, a proven makespan differs from the published optimum or
a schedule beats it, an engine proves a different makespan or searches a
different tree in another round, or, with the decomposition, the proofs
alone (depth first with the makespan below the optimum) differ.

  ft06 | JxM:SEED | FILE
                an instance; J and M from 1 to 20, SEED a whole number
  --model M     decomposition or unary (default unary)
  --search S    least-slack or in-order (default least-slack)
  --time-limit SECONDS
                per engine, instance and round (default: none)
  --max-duration D
                durations of the random instances 1..D, D from 1 to 1000
                (default 99, as in Taillard's instances)
  --rounds R    rounds, 1 to 100 (default 5)
  --copy-distance D
                Gecode's copy distance (Search::Options::c_d), 1 to 1000
                (default 8, Gecode's own)
  --no-gecode   propane's rows only
  --help        print this help

Exit status: 0 if no problem, 1 if any, 2 on bad arguments.
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

// Published optima (Fisher and Thompson 1963; Lawrence 1984, proven since),
// checked against the instances of these names.
std::optional<std::int64_t> published_optimum(std::string_view name) {
    constexpr std::pair<std::string_view, std::int64_t> known[] = {
        {"ft06", 55}, {"ft10", 930}, {"la01", 666}, {"la02", 655}, {"la03", 597}, {"la04", 590}, {"la05", 593}};
    for (const auto& [n, v] : known)
        if (n == name) return v;
    return std::nullopt;
}

enum class Search : std::uint8_t { least_slack, in_order };

struct Named {
    std::string name;
    jobshop::Instance instance;
    std::optional<std::int64_t> known;
};

struct Options {
    std::vector<Named> instances;
    std::vector<std::string_view> specs;
    jobshop::Formulation model = jobshop::Formulation::unary;
    Search search = Search::least_slack;
    std::chrono::nanoseconds time_limit = std::chrono::nanoseconds::max();
    int max_duration = 99;
    int rounds = 5;
    int copy_distance = 8;
    bool gecode = true;
};

std::optional<jobshop::Formulation> parse_model(std::string_view v) {
    if (v == "decomposition") return jobshop::Formulation::decomposition;
    if (v == "unary") return jobshop::Formulation::unary;
    return std::nullopt;
}

std::optional<Search> parse_search(std::string_view v) {
    if (v == "least-slack") return Search::least_slack;
    if (v == "in-order") return Search::in_order;
    return std::nullopt;
}

// JxM:SEED, or nothing when `a` is not of that form.
std::optional<Named> random_spec(std::string_view a, int max_duration) {
    const std::size_t x = a.find('x'), colon = a.find(':');
    if (x == std::string_view::npos || colon == std::string_view::npos || colon < x) return std::nullopt;
    const auto jobs = examples::parse_between<1, 20>(a.substr(0, x));
    const auto machines = examples::parse_between<1, 20>(a.substr(x + 1, colon - x - 1));
    const auto seed = examples::parse_count(a.substr(colon + 1));
    if (!jobs || !machines || !seed) return std::nullopt;
    return Named{std::string(a), jobshop::random_instance(*jobs, *machines, max_duration, *seed), std::nullopt};
}

Named file_instance(std::string_view path) {
    std::ifstream in{std::string(path), std::ios::binary};
    if (!in) usage_error("cannot read instance file " + examples::quoted(path));
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    const jobshop::Parsed p = jobshop::parse(text);
    if (!p.ok()) usage_error(std::string(path) + ":" + std::to_string(p.line) + ": " + p.error);
    std::string name(path.substr(path.find_last_of('/') == std::string_view::npos ? 0 : path.find_last_of('/') + 1));
    name = name.substr(0, name.find('.'));
    std::optional<std::int64_t> known = published_optimum(name);
    return {std::move(name), p.instance, known};
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
                                           examples::parse_between<1, 1000>, o.max_duration, usage_error) ||
                   examples::parsed_option(argc, argv, i, "--model", "decomposition or unary", parse_model, o.model,
                                           usage_error) ||
                   examples::parsed_option(argc, argv, i, "--search", "least-slack or in-order", parse_search,
                                           o.search, usage_error) ||
                   examples::time_limit_option(argc, argv, i, o.time_limit, usage_error)) {
        } else if (!a.starts_with("-")) {
            o.specs.push_back(a);
        } else {
            usage_error("unknown argument " + examples::quoted(a));
        }
    }
    // After the options, as a random instance depends on --max-duration.
    if (o.specs.empty()) o.specs = {"ft06", "6x5:3", "6x5:33", "7x5:6"};
    for (const std::string_view a : o.specs) {
        if (a == "ft06")
            o.instances.push_back({"ft06", jobshop::parse(ft06_text).instance, published_optimum("ft06")});
        else if (std::optional<Named> r = random_spec(a, o.max_duration))
            o.instances.push_back(std::move(*r));
        else
            o.instances.push_back(file_instance(a));
    }
    return o;
}

// Both clocks, as golomb_compare: the wall clock is what a user waits, the
// processor time of this one-threaded process what stays steady when the
// machine is shared.
struct Times {
    double wall = 0;
    double cpu = 0;
};

class Clock {
public:
    Times now() const {
        return {std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_).count(),
                static_cast<double>(std::clock() - cpu_) / CLOCKS_PER_SEC};
    }

private:
    std::chrono::steady_clock::time_point wall_ = std::chrono::steady_clock::now();
    std::clock_t cpu_ = std::clock();
};

struct Improvement {
    Times at;
    std::int64_t makespan = 0;
};

// What one engine reports for one search.
struct Result {
    std::optional<std::int64_t> makespan;
    bool proven = false;
    std::uint64_t nodes = 0; // as the engine counts them: propane's branches, Gecode's nodes
    std::uint64_t failures = 0;
    std::vector<Improvement> trajectory;
    Times total;

    // The first time the makespan was m or less.
    std::optional<Times> reached(std::int64_t m) const {
        for (const Improvement& i : trajectory)
            if (i.makespan <= m) return i.at;
        return std::nullopt;
    }
    // What a deterministic search must repeat in every round.
    bool same_search(const Result& r) const {
        return makespan == r.makespan && proven == r.proven && nodes == r.nodes && failures == r.failures;
    }
};

propane::Limits limits_of(const Options& o) { return propane::Limits{.time = o.time_limit}; }

// propane's model with the chosen search; run(model, search) runs it.
template <class Run>
auto with_propane_model(const jobshop::Instance& in, const Options& o, Run&& run) {
    return jobshop::with_domain_for(in.horizon(), [&](auto tag) {
        jobshop::Model<typename decltype(tag)::type> m(in, o.model);
        return o.search == Search::least_slack ? run(m, m.search_strategy()) : run(m, jobshop::strategy);
    });
}

Result propane_minimize(const jobshop::Instance& in, const Options& o) {
    const Clock clock;
    Result r;
    const propane::OptimizeStats st = with_propane_model(in, o, [&](auto& m, const auto& search) {
        return propane::minimize(m.store, m.branching, search, limits_of(o), m.makespan, [&](const auto& sol) {
            r.trajectory.push_back({clock.now(), sol.value(m.makespan)});
        });
    });
    r.total = clock.now();
    r.makespan = st.objective;
    r.proven = st.complete();
    r.nodes = st.branches;
    r.failures = st.failures;
    return r;
}

#ifdef PROPANE_HAVE_GECODE

// A depth-first search of the model with makespan < bound, within the time
// limit: (branches, failures), or nothing if it was cut short.
using Proof = std::optional<std::pair<std::uint64_t, std::uint64_t>>;

Proof propane_refute(const jobshop::Instance& in, const Options& o, int bound) {
    return with_propane_model(in, o, [&](auto& m, const auto& search) -> Proof {
        m.store.post(propane::rel(m.makespan, propane::Rel::lt, bound));
        const propane::SearchStats st = propane::solve(m.store, m.branching, search, limits_of(o), [](const auto&) {});
        if (!st.complete()) return std::nullopt;
        return std::pair{st.branches, st.failures + st.solutions};
    });
}

class GecodeJobShop final : public Gecode::IntMinimizeSpace {
public:
    // `layout` must outlive every space the search makes.
    GecodeJobShop(const jobshop::Instance& in, const jobshop_gecode::Layout& layout, const Options& o)
        : start_(*this, in.jobs * in.machines, 0, in.horizon()), makespan_(*this, 0, in.horizon()) {
        const int m = in.machines;
        const Gecode::IntArgs unit({1, -1});
        // x + c <= y as x - y <= -c, Gecode's binary linear.
        const auto before = [&](const Gecode::IntVar& x, int c, const Gecode::IntVar& y) {
            Gecode::linear(*this, unit, Gecode::IntVarArgs({x, y}), Gecode::IRT_LQ, -c);
        };
        for (int j = 0; j < in.jobs; ++j) {
            const auto& ops = in.ops[static_cast<std::size_t>(j)];
            for (int k = 0; k + 1 < m; ++k)
                before(start_[j * m + k], ops[static_cast<std::size_t>(k)].duration, start_[j * m + k + 1]);
            before(start_[j * m + m - 1], ops.back().duration, makespan_);
        }
        if (o.model == jobshop::Formulation::unary)
            for (const jobshop_gecode::Layout::Machine& machine : layout.machines) {
                Gecode::IntVarArgs starts;
                Gecode::IntArgs durations;
                for (const jobshop_gecode::Layout::Task& t : machine.tasks) {
                    starts << start_[t.start];
                    durations << t.duration;
                }
                Gecode::unary(*this, starts, durations);
            }
        // The pairs in the order of jobshop::Model: machine by machine, in
        // job order.
        Gecode::BoolVarArgs order;
        for (std::size_t i = 0; i < layout.a.size(); ++i) {
            const jobshop_gecode::Layout::Task a = layout.a[i], b = layout.b[i];
            const Gecode::BoolVar x(*this, 0, 1);
            // x = 1 => s_a + d_a <= s_b.
            Gecode::linear(*this, unit, Gecode::IntVarArgs({start_[a.start], start_[b.start]}), Gecode::IRT_LQ,
                           -a.duration, Gecode::Reify(x, Gecode::RM_IMP));
            // x = 0 => s_b + d_b <= s_a, as x <= (s_b + d_b > s_a).
            Gecode::linear(*this, unit, Gecode::IntVarArgs({start_[b.start], start_[a.start]}), Gecode::IRT_GR,
                           -b.duration, Gecode::Reify(x, Gecode::RM_PMI));
            order << x;
        }
        order_ = Gecode::BoolVarArray(*this, order);
        if (o.search == Search::least_slack)
            jobshop_gecode::LeastSlackPair::post(*this, order, start_, layout);
        else
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

// One thread, as propane searches: a parallel search splits and counts its
// tree differently. The stop object must outlive the search.
Gecode::Search::Options gecode_options(const Options& o, std::unique_ptr<Gecode::Search::TimeStop>& stop) {
    Gecode::Search::Options options;
    options.threads = 1;
    options.c_d = static_cast<unsigned>(o.copy_distance);
    if (o.time_limit != std::chrono::nanoseconds::max()) {
        const auto ms = std::chrono::ceil<std::chrono::milliseconds>(o.time_limit).count();
        stop = std::make_unique<Gecode::Search::TimeStop>(static_cast<unsigned long>(ms));
        options.stop = stop.get();
    }
    return options;
}

Result gecode_minimize(const jobshop::Instance& in, const Options& o) {
    const Clock clock;
    const jobshop_gecode::Layout layout(in);
    auto root = std::make_unique<GecodeJobShop>(in, layout, o);
    std::unique_ptr<Gecode::Search::TimeStop> stop;
    Gecode::BAB<GecodeJobShop> search(root.get(), gecode_options(o, stop));
    Result r;
    while (const std::unique_ptr<GecodeJobShop> better{search.next()}) {
        r.makespan = better->cost().val();
        r.trajectory.push_back({clock.now(), *r.makespan});
    }
    r.total = clock.now();
    const Gecode::Search::Statistics st = search.statistics();
    r.proven = !search.stopped();
    r.nodes = st.node;
    r.failures = st.fail;
    return r;
}

Proof gecode_refute(const jobshop::Instance& in, const Options& o, int bound) {
    const jobshop_gecode::Layout layout(in);
    auto root = std::make_unique<GecodeJobShop>(in, layout, o);
    Gecode::rel(*root, root->cost(), Gecode::IRT_LE, bound);
    std::unique_ptr<Gecode::Search::TimeStop> stop;
    Gecode::DFS<GecodeJobShop> search(root.get(), gecode_options(o, stop));
    std::uint64_t solutions = 0;
    while (const std::unique_ptr<GecodeJobShop> s{search.next()}) ++solutions;
    if (search.stopped()) return std::nullopt;
    const Gecode::Search::Statistics st = search.statistics();
    return std::pair<std::uint64_t, std::uint64_t>{st.node > 0 ? st.node - 1 : 0, st.fail + solutions};
}

#endif

struct Row {
    std::size_t instance = 0;
    bool gecode = false;
    std::vector<Result> rounds;
};

// Gecode counts the root as a node; propane counts the branches below it.
std::uint64_t branches(const Row& row, const Result& r) {
    return row.gecode && r.nodes > 0 ? r.nodes - 1 : r.nodes;
}

std::string seconds_text(double s) { return compare_report::seconds_text(s, 4); }

// The makespans over the rounds: "m", or "lo-hi" when they differ.
std::string makespans_text(const Row& row) {
    std::optional<std::int64_t> lo, hi;
    for (const Result& r : row.rounds)
        if (r.makespan) {
            lo = std::min(lo.value_or(*r.makespan), *r.makespan);
            hi = std::max(hi.value_or(*r.makespan), *r.makespan);
        }
    if (!lo) return "-";
    return *lo == *hi ? std::to_string(*lo) : std::to_string(*lo) + "-" + std::to_string(*hi);
}

std::string proven_text(const Row& row) {
    std::size_t proven = 0;
    for (const Result& r : row.rounds) proven += r.proven ? 1 : 0;
    if (proven == row.rounds.size()) return "yes";
    return proven == 0 ? "no" : std::to_string(proven) + " of " + std::to_string(row.rounds.size());
}

// The ratios Gecode / propane of one round, wall and processor, and what
// they measure: the whole searches, or the time to reach makespan m.
struct Ratio {
    double wall = 0, cpu = 0;
    std::optional<std::int64_t> to; // nothing: the whole searches
};

std::optional<Ratio> round_ratio(const Result& ours, const Result& theirs) {
    const auto over = [](const Times& g, const Times& p, std::optional<std::int64_t> to) -> std::optional<Ratio> {
        if (p.wall <= 0 || p.cpu <= 0) return std::nullopt;
        return Ratio{g.wall / p.wall, g.cpu / p.cpu, to};
    };
    if (ours.proven && theirs.proven) return over(theirs.total, ours.total, std::nullopt);
    if (!ours.makespan || !theirs.makespan) return std::nullopt;
    const std::int64_t m = std::max(*ours.makespan, *theirs.makespan);
    return over(*theirs.reached(m), *ours.reached(m), m);
}

std::string ratio_text(const Row& ours, const Row& theirs) {
    std::vector<double> wall, cpu;
    std::vector<std::optional<std::int64_t>> to;
    for (std::size_t i = 0; i < ours.rounds.size(); ++i)
        if (const std::optional<Ratio> r = round_ratio(ours.rounds[i], theirs.rounds[i])) {
            wall.push_back(r->wall);
            cpu.push_back(r->cpu);
            to.push_back(r->to);
        }
    if (wall.empty()) return "- | -";
    std::string what;
    if (std::all_of(to.begin(), to.end(), [&](const auto& t) { return t == to.front(); })) {
        if (to.front()) what = " (to " + std::to_string(*to.front()) + ")";
    } else {
        what = " (mixed)";
    }
    std::array<char, 64> buf{};
    std::snprintf(buf.data(), buf.size(), "%.2f%s | %.2f", median(wall), what.c_str(), median(cpu));
    return buf.data();
}

// Checks one instance's rows (propane's, then Gecode's if any) against each
// other and the published optimum.
void check(const Named& n, const std::vector<const Row*>& rows, std::vector<std::string>& problems) {
    for (const Row* row : rows) {
        const std::string who = n.name + ": " + engine_name(row->gecode);
        for (std::size_t i = 1; i < row->rounds.size(); ++i)
            if (row->rounds[i].proven && row->rounds[0].proven && !row->rounds[i].same_search(row->rounds[0]))
                problems.push_back(who + " searched differently in round " + std::to_string(i + 1));
        for (const Result& r : row->rounds) {
            if (!n.known || !r.makespan) continue;
            if (r.proven && *r.makespan != *n.known)
                problems.push_back(who + " proves makespan " + std::to_string(*r.makespan) +
                                   ", the published optimum is " + std::to_string(*n.known));
            if (*r.makespan < *n.known)
                problems.push_back(who + " finds makespan " + std::to_string(*r.makespan) +
                                   ", below the published optimum " + std::to_string(*n.known));
        }
    }
    if (rows.size() < 2) return;
    for (std::size_t i = 0; i < rows[0]->rounds.size(); ++i) {
        const Result& p = rows[0]->rounds[i];
        const Result& g = rows[1]->rounds[i];
        const bool differ = p.proven && g.proven && p.makespan != g.makespan;
        const auto beaten = [](const Result& prover, const Result& other) {
            return prover.proven && prover.makespan && other.makespan && *other.makespan < *prover.makespan;
        };
        if (differ || beaten(p, g) || beaten(g, p))
            problems.push_back(n.name + ", round " + std::to_string(i + 1) + ": propane " +
                               (p.makespan ? std::to_string(*p.makespan) : "-") + (p.proven ? " proven" : "") +
                               ", Gecode " + (g.makespan ? std::to_string(*g.makespan) : "-") +
                               (g.proven ? " proven" : ""));
    }
}

#ifdef PROPANE_HAVE_GECODE
std::string proof_text(const Proof& p) {
    if (!p) return "not finished within the time limit";
    return std::to_string(p->first) + ", " + std::to_string(p->second);
}
#endif

} // namespace

int main(int argc, char** argv) {
    const Options o = parse(argc, argv);
    bool gecode = false;
#ifdef PROPANE_HAVE_GECODE
    gecode = o.gecode;
#endif
    const std::vector<Named>& named = o.instances;
    std::vector<Row> rows;
    for (std::size_t i = 0; i < named.size(); ++i) {
        rows.push_back({i, false, {}});
        if (gecode) rows.push_back({i, true, {}});
    }

    for (int round = 0; round < o.rounds; ++round)
        for (Row& row : rows) {
            const jobshop::Instance& in = named[row.instance].instance;
#ifdef PROPANE_HAVE_GECODE
            Result r = row.gecode ? gecode_minimize(in, o) : propane_minimize(in, o);
#else
            Result r = propane_minimize(in, o);
#endif
            std::fprintf(stderr, "round %d: %s, %s: %s%s, %.3f s (processor %.3f s); improvements:", round + 1,
                         named[row.instance].name.c_str(), engine_name(row.gecode).c_str(),
                         r.makespan ? std::to_string(*r.makespan).c_str() : "-", r.proven ? " proven" : "",
                         r.total.wall, r.total.cpu);
            for (const Improvement& i : r.trajectory)
                std::fprintf(stderr, " %lld@%.3f", static_cast<long long>(i.makespan), i.at.wall);
            std::fprintf(stderr, "\n");
            row.rounds.push_back(std::move(r));
        }

    std::vector<std::string> problems;
    for (std::size_t i = 0; i < named.size(); ++i) {
        std::vector<const Row*> mine;
        for (const Row& row : rows)
            if (row.instance == i) mine.push_back(&row);
        check(named[i], mine, problems);
    }

    std::printf("`%s`\n\n", command_line(argc, argv).c_str());
    std::printf("Model: %s; search: %s; time limit: %s per engine, instance and round. %d round%s; a figure is the "
                "median over the rounds (a makespan, the range); times include building the model; \"to best\" is "
                "the time of the last improvement. The ratio Gecode / propane is the median of the per-round "
                "ratios, of the whole searches where both proved, else of the times to reach the makespan shown. "
                "Gecode's branches are its nodes less the root; its copy distance, %d. Random instances: durations "
                "1..%d.\n\n",
                o.model == jobshop::Formulation::unary ? "unary" : "decomposition",
                o.search == Search::least_slack ? "least-slack" : "in-order",
                o.time_limit == std::chrono::nanoseconds::max()
                    ? "none"
                    : seconds_text(std::chrono::duration<double>(o.time_limit).count()).c_str(),
                o.rounds, o.rounds == 1 ? "" : "s", o.copy_distance, o.max_duration);
    std::printf("| instance | engine | makespan | proven | branches | failures | to best | total | processor | "
                "Gecode / propane, time | processor |\n");
    std::printf("|---|---|--:|---|--:|--:|--:|--:|--:|--:|--:|\n");
    for (std::size_t k = 0; k < rows.size(); ++k) {
        const Row& row = rows[k];
        std::vector<double> best, wall, cpu, nodes, failures;
        for (const Result& r : row.rounds) {
            best.push_back(r.trajectory.empty() ? 0 : r.trajectory.back().at.wall);
            wall.push_back(r.total.wall);
            cpu.push_back(r.total.cpu);
            nodes.push_back(static_cast<double>(branches(row, r)));
            failures.push_back(static_cast<double>(r.failures));
        }
        const std::string ratios = row.gecode ? ratio_text(rows[k - 1], row) : " | ";
        std::printf("| %s | %s | %s | %s | %.0f | %.0f | %s | %s | %s | %s |\n", named[row.instance].name.c_str(),
                    engine_name(row.gecode).c_str(), makespans_text(row).c_str(), proven_text(row).c_str(),
                    median(nodes), median(failures), seconds_text(median(best)).c_str(),
                    seconds_text(median(wall)).c_str(), seconds_text(median(cpu)).c_str(), ratios.c_str());
    }
    if (gecode) {
        // The same improvements in the same order show the same search up
        // to the last schedule, whatever the branch and bound counts.
        std::printf("\nThe improving makespans, propane's against Gecode's (last round):");
        for (std::size_t k = 0; k + 1 < rows.size(); k += 2) {
            const auto makespans = [](const Result& r) {
                std::vector<std::int64_t> out;
                for (const Improvement& i : r.trajectory) out.push_back(i.makespan);
                return out;
            };
            const std::vector<std::int64_t> p = makespans(rows[k].rounds.back());
            const std::vector<std::int64_t> g = makespans(rows[k + 1].rounds.back());
            const std::string text = p == g ? "the same " + std::to_string(p.size())
                                            : std::to_string(p.size()) + " and " + std::to_string(g.size()) +
                                                  ", not the same";
            std::printf(" %s: %s.", named[rows[k].instance].name.c_str(), text.c_str());
        }
        std::printf("\n");
    }
#ifdef PROPANE_HAVE_GECODE
    if (gecode) {
        std::printf("\nThe proofs alone, depth first with the makespan below the optimum both proved (branches, "
                    "failures):");
        for (std::size_t k = 0; k + 1 < rows.size(); k += 2) {
            const Result& p = rows[k].rounds.back();
            const Result& g = rows[k + 1].rounds.back();
            if (!p.proven || !g.proven || !p.makespan || p.makespan != g.makespan) continue;
            const Named& n = named[rows[k].instance];
            const int bound = static_cast<int>(*p.makespan);
            const Proof ours = propane_refute(n.instance, o, bound), theirs = gecode_refute(n.instance, o, bound);
            const bool same = ours && ours == theirs;
            std::printf(" %s: propane %s; Gecode %s%s.", n.name.c_str(), proof_text(ours).c_str(),
                        proof_text(theirs).c_str(), same ? " (the same)" : "");
            if (!same && ours && theirs && o.model == jobshop::Formulation::decomposition)
                problems.push_back(n.name + ": propane and Gecode search different trees below the optimum");
        }
        std::printf("\n");
    }
#else
    std::printf("\nGecode was not found when this program was built, so it has no rows.\n");
#endif
    if (problems.empty()) return 0;
    std::fflush(stdout);
    for (const std::string& p : problems) std::fprintf(stderr, "jobshop_compare: %s\n", p.c_str());
    return 1;
}
