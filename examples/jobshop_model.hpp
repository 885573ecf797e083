#ifndef PROPANE_EXAMPLES_JOBSHOP_MODEL_HPP
#define PROPANE_EXAMPLES_JOBSHOP_MODEL_HPP

// The job-shop model, shared by the jobshop example, its tests and
// bench/jobshop_compare.cpp: the instance file's parser, the model, and
// its branch and bound.

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <propane/parallel.hpp>

#include "jobshop_branching.hpp"

namespace jobshop {

struct Operation {
    int machine = 0;
    int duration = 0;
    bool operator==(const Operation&) const = default;
};

// ops[j][k] is job j's k-th operation; every job visits every machine
// once, so each job has `machines` operations.
struct Instance {
    int jobs = 0;
    int machines = 0;
    std::vector<std::vector<Operation>> ops;

    // The sum of all durations: no optimal schedule ends later.
    int horizon() const {
        std::int64_t h = 0;
        for (const auto& job : ops)
            for (const Operation& op : job) h += op.duration;
        return static_cast<int>(h);
    }
};

// What the parser accepts, beyond which the model would not fit in memory
// or its arithmetic in int. The horizon costs no memory (a start over more
// than 2^16 values is kept as bounds and holes); at 10^9 a start plus a
// duration stays within int.
inline constexpr int max_jobs = 1000;
inline constexpr int max_machines = 1000;
inline constexpr std::int64_t max_operations = 10'000;
inline constexpr std::int64_t max_horizon = 1'000'000'000;

// A parsed file: the instance, or the line (from 1) and what is wrong there.
struct Parsed {
    Instance instance;
    std::size_t line = 0;
    std::string error;
    bool ok() const noexcept { return error.empty(); }
};

namespace detail {

inline bool is_space(char c) noexcept { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// The whitespace-separated words of a line.
inline std::vector<std::string_view> words(std::string_view line) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && is_space(line[i])) ++i;
        const std::size_t start = i;
        while (i < line.size() && !is_space(line[i])) ++i;
        if (i > start) out.push_back(line.substr(start, i - start));
    }
    return out;
}

// A whole decimal number, possibly negative, or nothing; `too_large` says
// whether it was one that does not fit in 64 bits.
inline std::optional<std::int64_t> number(std::string_view w, bool& too_large) {
    std::int64_t v = 0;
    const char* first = w.data();
    const char* end = w.data() + w.size();
    if (first != end && *first == '+') ++first;
    const auto [ptr, ec] = std::from_chars(first, end, v);
    too_large = ec == std::errc::result_out_of_range && ptr == end;
    if (ec != std::errc{} || ptr != end || first == end) return std::nullopt;
    return v;
}

} // namespace detail

// Parses the standard job-shop text format (as in the OR-Library's
// jobshop1.txt once its description lines are removed): a line "jobs
// machines", then one line per job with `machines` pairs "machine
// duration", machines numbered from 0, each machine once per job,
// durations >= 0. Blank lines and lines whose first non-blank character is
// '#' are skipped anywhere.
inline Parsed parse(std::string_view text) {
    Parsed p;
    Instance& in = p.instance;
    std::size_t line_no = 0;
    bool header = false;
    const auto fail = [&](std::size_t line, std::string message) {
        p.line = line;
        p.error = std::move(message);
        return p;
    };
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t eol = std::min(text.find('\n', pos), text.size());
        const std::string_view line = text.substr(pos, eol - pos);
        pos = eol + 1;
        ++line_no;
        const std::vector<std::string_view> w = detail::words(line);
        if (w.empty() || w[0][0] == '#') continue;
        std::vector<std::int64_t> v;
        for (const std::string_view word : w) {
            bool too_large = false;
            const std::optional<std::int64_t> n = detail::number(word, too_large);
            if (too_large || !n) {
                // Appended, not "'" + std::string(word): see quoted() in options.hpp.
                std::string what = "'";
                what += word;
                what += too_large ? "' is too large" : "' is not a whole number";
                return fail(line_no, what);
            }
            v.push_back(*n);
        }
        if (!header) {
            if (v.size() != 2)
                return fail(line_no, "expected the numbers of jobs and machines, found " + std::to_string(v.size()) +
                                         (v.size() == 1 ? " number" : " numbers"));
            if (v[0] < 1 || v[0] > max_jobs)
                return fail(line_no, "the number of jobs must be 1 to " + std::to_string(max_jobs) + ", not " +
                                         std::to_string(v[0]));
            if (v[1] < 1 || v[1] > max_machines)
                return fail(line_no, "the number of machines must be 1 to " + std::to_string(max_machines) +
                                         ", not " + std::to_string(v[1]));
            if (v[0] * v[1] > max_operations)
                return fail(line_no, std::to_string(v[0]) + " x " + std::to_string(v[1]) + " operations, more than " +
                                         std::to_string(max_operations));
            in.jobs = static_cast<int>(v[0]);
            in.machines = static_cast<int>(v[1]);
            header = true;
            continue;
        }
        const int j = static_cast<int>(in.ops.size());
        const std::string job = "job " + std::to_string(j);
        if (j == in.jobs)
            return fail(line_no, "more lines than the " + std::to_string(in.jobs) + " jobs the first line announced");
        const std::size_t want = 2 * static_cast<std::size_t>(in.machines);
        if (v.size() != want)
            return fail(line_no, job + " has " + std::to_string(v.size()) + " numbers, expected " +
                                     std::to_string(want) + " (" + std::to_string(in.machines) +
                                     " pairs of machine and duration)");
        std::vector<Operation> ops;
        std::vector<char> seen(static_cast<std::size_t>(in.machines), 0);
        for (std::size_t k = 0; k < want; k += 2) {
            const std::int64_t m = v[k], d = v[k + 1];
            if (m < 0 || m >= in.machines)
                return fail(line_no, job + ": machine " + std::to_string(m) + " is out of range 0 to " +
                                         std::to_string(in.machines - 1));
            if (seen[static_cast<std::size_t>(m)])
                return fail(line_no, job + ": machine " + std::to_string(m) + " appears twice");
            seen[static_cast<std::size_t>(m)] = 1;
            if (d < 0) return fail(line_no, job + ": negative duration " + std::to_string(d));
            if (d > max_horizon)
                return fail(line_no, job + ": duration " + std::to_string(d) + " is more than " +
                                         std::to_string(max_horizon));
            ops.push_back({static_cast<int>(m), static_cast<int>(d)});
        }
        in.ops.push_back(std::move(ops));
        std::int64_t total = 0;
        for (const auto& row : in.ops)
            for (const Operation& op : row) total += op.duration;
        if (total > max_horizon)
            return fail(line_no, "the durations add up to more than " + std::to_string(max_horizon));
    }
    const std::size_t end_line = std::max<std::size_t>(line_no, 1);
    if (!header) return fail(end_line, "no line with the numbers of jobs and machines");
    if (static_cast<int>(in.ops.size()) < in.jobs)
        return fail(end_line, "the file ends after " + std::to_string(in.ops.size()) + " of the " +
                                  std::to_string(in.jobs) + " jobs");
    return p;
}

// A random instance: each job visits the machines in a random order, each
// operation for 1..max_duration, drawn from `seed` (the same instance on
// every platform).
inline Instance random_instance(int jobs, int machines, int max_duration, std::uint64_t seed) {
    propane::detail::SplitMix64 rng{seed};
    Instance in;
    in.jobs = jobs;
    in.machines = machines;
    for (int j = 0; j < jobs; ++j) {
        std::vector<Operation> ops;
        for (int m = 0; m < machines; ++m) ops.push_back({m, 0});
        // Fisher-Yates; the modulo's bias is immaterial here.
        for (int k = machines - 1; k > 0; --k)
            std::swap(ops[static_cast<std::size_t>(k)],
                      ops[static_cast<std::size_t>(rng() % static_cast<std::uint64_t>(k + 1))]);
        for (Operation& op : ops) op.duration = 1 + static_cast<int>(rng() % static_cast<std::uint64_t>(max_duration));
        in.ops.push_back(std::move(ops));
    }
    return in;
}

// How the machines are modelled:
//   decomposition  one order Boolean per pair of operations on a machine,
//                  each order half-reified (below);
//   unary          the same, and one unary() per machine (edge finding,
//                  not-first/not-last, detectable precedences on a
//                  Θ-Λ-tree), which prunes the starts long before the
//                  orders are all fixed. The search still decides the
//                  orders: on the starts alone (smallest minimum first,
//                  at its minimum) la01 reached 744 in 20 s, where with the
//                  orders it proves 666 in 4 s (in order) or 0.04 s (least
//                  slack first, jobshop_branching.hpp).
enum class Formulation : std::uint8_t { decomposition, unary };

// The model:
//   s[j][k], the start of job j's k-th operation, over 0..horizon;
//   s[j][k] + d[j][k] <= s[j][k+1] inside each job;
//   for two operations a, b on one machine (a of the lower job), one
//   Boolean o_ab, their order:
//     o_ab == 1  =>  s_a + d_a <= s_b    (a first)
//     o_ab == 0  =>  s_b + d_b <= s_a    (b first)
//   each posted as rel(..., implies(o_ab)) and rel(..., implies(1 - o_ab));
//   makespan >= s[j][last] + d[j][last] for each job, minimised.
//   makespan a multiple of the durations' greatest common divisor, when more than 1.
// Half reification prunes here as much as full reification (iff) would:
// the two relations exclude each other when d_a + d_b > 0, so where one is
// entailed the other is disentailed, and its implies sets o_ab as iff
// would have. It searches the same tree (ft06: 1,123 failures either way)
// at 1.2x (ft06) to 2.2x (la01) the branches per second, as a half
// reified propagator is woken by one bound of each side instead of both
// and never decides entailment. Two Booleans a_ab, b_ab with
// clause({a_ab, b_ab}, {}) and iff cost more again (ft06: 1,149 failures,
// 0.93x the speed of one Boolean with iff). With durations 0 both orders
// may hold and o_ab may stay open until the search fixes it.
template <class Domain>
struct Model {
    propane::Store<Domain> store;
    std::vector<std::vector<propane::IntVar>> start; // [job][operation]
    propane::IntVar makespan;
    // One Boolean per pair of operations on a machine, machine by machine,
    // pairs in job order: 1 when the lower job's operation comes first.
    std::vector<propane::IntVar> order;
    // What the search branches on: the order Booleans, then the starts,
    // then the makespan.
    std::vector<propane::IntVar> branching;
    // Which Boolean is which, for the search (jobshop_branching.hpp).
    std::shared_ptr<const Layout> layout;

    explicit Model(const Instance& in, Formulation f = Formulation::decomposition)
        : makespan(store.int_var(0, in.horizon())) {
        const int h = in.horizon();
        for (int j = 0; j < in.jobs; ++j) start.push_back(store.int_vars(in.machines, 0, h));
        const auto d = [&](int j, int k) {
            return in.ops[static_cast<std::size_t>(j)][static_cast<std::size_t>(k)].duration;
        };
        const auto s = [&](int j, int k) {
            return start[static_cast<std::size_t>(j)][static_cast<std::size_t>(k)];
        };
        for (int j = 0; j < in.jobs; ++j) {
            for (int k = 0; k + 1 < in.machines; ++k)
                store.post(propane::rel(s(j, k) + d(j, k), propane::Rel::le, s(j, k + 1)));
            store.post(propane::rel(s(j, in.machines - 1) + d(j, in.machines - 1), propane::Rel::le, makespan));
        }
        // With every duration a multiple of g, moving each operation as early
        // as its predecessors allow gives a schedule no longer, whose starts
        // and end are multiples of g: the least makespan is one. Saying so
        // lets branch and bound step by g (after 55,000, at most 54,000 and
        // not 54,999), so that an instance with its durations scaled by g
        // walks the unscaled instance's tree.
        int g = 0;
        for (const auto& row : in.ops)
            for (const Operation& op : row) g = std::gcd(g, op.duration);
        // A bounds-consistent sum, not rel's ==: that would carve the
        // makespan into one run per multiple, and walk them at every bound.
        if (g > 1) store.post(propane::linear({1, -g}, {makespan, store.int_var(0, h / g)}, propane::Rel::eq, 0));
        // Operations per machine, in job order.
        std::vector<std::vector<std::pair<int, int>>> on(static_cast<std::size_t>(in.machines));
        for (int j = 0; j < in.jobs; ++j)
            for (int k = 0; k < in.machines; ++k)
                on[static_cast<std::size_t>(in.ops[static_cast<std::size_t>(j)][static_cast<std::size_t>(k)].machine)]
                    .push_back({j, k});
        if (f == Formulation::unary) {
            for (const auto& ops : on) {
                std::vector<propane::IntVar> starts;
                std::vector<int> durations;
                for (const auto& [j, k] : ops) {
                    starts.push_back(s(j, k));
                    durations.push_back(d(j, k));
                }
                store.post(propane::unary(starts, durations));
            }
        }
        auto l = std::make_shared<Layout>();
        for (const auto& ops : on) {
            Layout::Machine machine;
            machine.first = order.size();
            for (const auto& [j, k] : ops) machine.tasks.push_back({s(j, k), d(j, k)});
            for (std::size_t x = 0; x < ops.size(); ++x)
                for (std::size_t y = x + 1; y < ops.size(); ++y) {
                    const auto [ja, ka] = ops[x];
                    const auto [jb, kb] = ops[y];
                    const propane::IntVar b = store.bool_var();
                    store.post(propane::rel(s(ja, ka) + d(ja, ka), propane::Rel::le, s(jb, kb), propane::implies(b)));
                    store.post(
                        propane::rel(s(jb, kb) + d(jb, kb), propane::Rel::le, s(ja, ka), propane::implies(1 - b)));
                    order.push_back(b);
                    l->pairs.push_back({machine.tasks[x], machine.tasks[y]});
                }
            machine.last = order.size();
            if (machine.last > machine.first) l->machines.push_back(std::move(machine));
        }
        for (std::size_t i = 0; i < order.size(); ++i) {
            const std::size_t v = static_cast<std::size_t>(order[i].index());
            if (l->order_of.size() <= v) l->order_of.resize(v + 1, -1);
            l->order_of[v] = static_cast<std::ptrdiff_t>(i);
        }
        layout = std::move(l);
        branching = order;
        for (const auto& row : start) branching.insert(branching.end(), row.begin(), row.end());
        branching.push_back(makespan);
    }

    // The search solve() runs: the least-slack pair first, the operation
    // that can start earlier first (jobshop_branching.hpp).
    Branching search_strategy() const { return branching_for(layout); }
};

// A plain search, kept for comparisons with engines that cannot express
// Model::search_strategy(): the order Booleans first, in the order of
// `order` (machine by machine, pairs in job order), each at 0 ("the later
// job first") first; once every order is fixed, the starts in job order,
// each at its earliest, which cannot fail then (bounds propagation over
// precedences alone is complete, and the earliest starts are a schedule),
// then the makespan at its least value. Measured on ft06, this proves 55
// in 1,123 failures; the same with 1 first takes 1,875, dom_wdeg on the
// Booleans 1,063 but at half the speed, and branching on the starts alone
// (smallest_min, min_value) had not proven it after 33 million failures.
inline constexpr propane::Strategy strategy{propane::first_unbound, propane::min_value};

// A schedule: starts[j][k], and its makespan.
struct Schedule {
    std::vector<std::vector<int>> starts;
    int makespan = 0;
};

// Calls f with std::type_identity<D>, D the narrowest domain type that
// holds 0..horizon, and returns what it returns.
template <class F>
decltype(auto) with_domain_for(int horizon, F&& f) {
    if (horizon < 64) return std::forward<F>(f)(std::type_identity<propane::BitDomain<1>>{});
    if (horizon < 128) return std::forward<F>(f)(std::type_identity<propane::BitDomain<2>>{});
    if (horizon < 256) return std::forward<F>(f)(std::type_identity<propane::BitDomain<4>>{});
    return std::forward<F>(f)(std::type_identity<propane::BitDomain<propane::dynamic>>{});
}

// Large-neighbourhood search over the order Booleans (the decisions; the
// starts follow from them): each neighbourhood keeps a fifth of the best
// schedule's orders and searches the rest within 300 failures. On ft10,
// over 30 s, a fifth kept reached the optimum 930 (in 7 s); two fifths
// kept reached 945, a tenth 944 (bench/data/ft10.txt).
inline propane::Lns lns_for(std::size_t orders) {
    return propane::Lns{.relax = 0.8, .failures = 300, .seed = 1, .fixable = orders};
}

// Minimises the makespan on `threads` threads, by branch and bound or by
// large-neighbourhood search (`lns`, lockstep rounds of one neighbourhood
// per thread; it needs a limit); improve(schedule) sees
// each better schedule found (one call at a time). Returns the search's
// statistics, with the best makespan in `objective`.
template <class Improve>
propane::OptimizeStats solve(const Instance& in, const propane::Limits& limits, unsigned threads, Formulation f,
                             bool lns, Improve&& improve) {
    return with_domain_for(in.horizon(), [&](auto tag) {
        Model<typename decltype(tag)::type> m(in, f);
        Schedule sched;
        sched.starts.assign(static_cast<std::size_t>(in.jobs), std::vector<int>(static_cast<std::size_t>(in.machines)));
        const auto record = [&](const auto& sol) {
            for (int j = 0; j < in.jobs; ++j)
                for (int k = 0; k < in.machines; ++k)
                    sched.starts[static_cast<std::size_t>(j)][static_cast<std::size_t>(k)] =
                        sol.value(m.start[static_cast<std::size_t>(j)][static_cast<std::size_t>(k)]);
            sched.makespan = sol.value(m.makespan);
            improve(static_cast<const Schedule&>(sched));
        };
        const Branching search = m.search_strategy();
        if (lns)
            return propane::minimize(m.store, m.branching, search, limits, lns_for(m.order.size()),
                                     propane::Parallel{.threads = threads}, m.makespan, record);
        return propane::minimize(m.store, m.branching, search, limits, propane::Parallel{.threads = threads}, m.makespan,
                                 record);
    });
}
template <class Improve>
propane::OptimizeStats solve(const Instance& in, const propane::Limits& limits, unsigned threads, Improve&& improve) {
    return solve(in, limits, threads, Formulation::decomposition, false, std::forward<Improve>(improve));
}
template <class Improve>
propane::OptimizeStats solve(const Instance& in, const propane::Limits& limits, Improve&& improve) {
    return solve(in, limits, 1, std::forward<Improve>(improve));
}

} // namespace jobshop

#endif
