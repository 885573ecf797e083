// The job-shop example's model (examples/jobshop_model.hpp): the optimum of
// random small instances against brute force over every order of the
// operations on each machine, every schedule found checked against the
// instance, and the parser against the instances it is given as text.

#include <doctest/doctest.h>

#include "jobshop_model.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace {

using jobshop::Instance;
using jobshop::Schedule;

int duration(const Instance& in, int j, int k) {
    return in.ops[static_cast<std::size_t>(j)][static_cast<std::size_t>(k)].duration;
}
int machine(const Instance& in, int j, int k) {
    return in.ops[static_cast<std::size_t>(j)][static_cast<std::size_t>(k)].machine;
}

// Whether `s` is a schedule of `in` ending at s.makespan.
bool valid(const Instance& in, const Schedule& s) {
    int end = 0;
    const auto start = [&](int j, int k) {
        return s.starts[static_cast<std::size_t>(j)][static_cast<std::size_t>(k)];
    };
    for (int j = 0; j < in.jobs; ++j)
        for (int k = 0; k < in.machines; ++k) {
            if (start(j, k) < 0) return false;
            if (k > 0 && start(j, k - 1) + duration(in, j, k - 1) > start(j, k)) return false;
            end = std::max(end, start(j, k) + duration(in, j, k));
            for (int i = 0; i < in.jobs; ++i)
                for (int l = 0; l < in.machines; ++l)
                    if ((i != j || l != k) && machine(in, i, l) == machine(in, j, k) &&
                        start(i, l) < start(j, k) + duration(in, j, k) &&
                        start(j, k) < start(i, l) + duration(in, i, l) && duration(in, i, l) > 0 &&
                        duration(in, j, k) > 0)
                        return false;
        }
    return end == s.makespan;
}

// The least makespan by brute force: for every choice of a job order on
// each machine, the earliest schedule that keeps those orders and the
// jobs' own (if they do not contradict each other), found by relaxing
// start times to a fixpoint; some choice of orders is the optimum's.
int brute_force(const Instance& in) {
    std::vector<std::vector<int>> order(static_cast<std::size_t>(in.machines));
    for (auto& o : order)
        for (int j = 0; j < in.jobs; ++j) o.push_back(j);
    // The operation of job j on machine m.
    std::vector<std::vector<int>> op_of(static_cast<std::size_t>(in.jobs),
                                        std::vector<int>(static_cast<std::size_t>(in.machines)));
    for (int j = 0; j < in.jobs; ++j)
        for (int k = 0; k < in.machines; ++k)
            op_of[static_cast<std::size_t>(j)][static_cast<std::size_t>(machine(in, j, k))] = k;
    int best = std::numeric_limits<int>::max();
    const int n = in.jobs * in.machines;
    for (;;) {
        std::vector<int> start(static_cast<std::size_t>(n), 0);
        const auto at = [&](int j, int k) -> int& { return start[static_cast<std::size_t>(j * in.machines + k)]; };
        bool changed = true;
        int rounds = 0;
        // A consistent set of orders is acyclic and settles within n
        // rounds; one that is still moving after n + 1 has a cycle.
        while (changed && rounds <= n + 1) {
            changed = false;
            ++rounds;
            for (int j = 0; j < in.jobs; ++j)
                for (int k = 1; k < in.machines; ++k)
                    if (at(j, k) < at(j, k - 1) + duration(in, j, k - 1)) {
                        at(j, k) = at(j, k - 1) + duration(in, j, k - 1);
                        changed = true;
                    }
            for (int m = 0; m < in.machines; ++m) {
                const std::vector<int>& o = order[static_cast<std::size_t>(m)];
                for (std::size_t x = 1; x < o.size(); ++x) {
                    const int a = o[x - 1], b = o[x];
                    const int ka = op_of[static_cast<std::size_t>(a)][static_cast<std::size_t>(m)];
                    const int kb = op_of[static_cast<std::size_t>(b)][static_cast<std::size_t>(m)];
                    if (at(b, kb) < at(a, ka) + duration(in, a, ka)) {
                        at(b, kb) = at(a, ka) + duration(in, a, ka);
                        changed = true;
                    }
                }
            }
        }
        if (!changed) {
            int end = 0;
            for (int j = 0; j < in.jobs; ++j) end = std::max(end, at(j, in.machines - 1) + duration(in, j, in.machines - 1));
            best = std::min(best, end);
        }
        int m = 0;
        while (m < in.machines && !std::next_permutation(order[static_cast<std::size_t>(m)].begin(),
                                                         order[static_cast<std::size_t>(m)].end()))
            ++m;
        if (m == in.machines) break;
    }
    return best;
}

std::string text_of(const Instance& in) {
    std::string t = "# made by the test\n" + std::to_string(in.jobs) + " " + std::to_string(in.machines) + "\n\n";
    for (int j = 0; j < in.jobs; ++j) {
        for (int k = 0; k < in.machines; ++k)
            t += std::to_string(machine(in, j, k)) + "\t" + std::to_string(duration(in, j, k)) + "  ";
        t += "\r\n";
    }
    return t;
}

void check_optimum(const Instance& in, unsigned threads, jobshop::Formulation f) {
    std::vector<Schedule> found;
    const propane::OptimizeStats st =
        jobshop::solve(in, propane::Limits{}, threads, f, false, [&](const Schedule& s) { found.push_back(s); });
    REQUIRE(st.objective.has_value());
    CHECK(st.complete());
    const int want = brute_force(in);
    CHECK(*st.objective == want);
    REQUIRE(!found.empty());
    CHECK(found.back().makespan == *st.objective);
    for (std::size_t i = 0; i < found.size(); ++i) {
        CAPTURE(i);
        CHECK(valid(in, found[i]));
        if (i > 0) CHECK(found[i].makespan < found[i - 1].makespan);
    }
}

} // namespace

TEST_CASE("jobshop: random 3x3, 4x3 and 3x4 instances reach the brute-force optimum, on one and two threads, with "
          "both models") {
    struct Size {
        int jobs, machines, count;
    };
    for (const Size size : {Size{3, 3, 40}, Size{4, 3, 12}, Size{3, 4, 8}, Size{2, 5, 8}})
        for (int seed = 0; seed < size.count; ++seed) {
            Instance in = jobshop::random_instance(size.jobs, size.machines, 9, static_cast<std::uint64_t>(seed));
            // Some durations 0, which let two operations on a machine start
            // together.
            if (seed % 4 == 3) in.ops[0][1].duration = 0;
            const std::string text = text_of(in);
            CAPTURE(text);
            const unsigned threads = seed % 3 == 2 ? 2 : 1;
            CAPTURE(threads);
            check_optimum(in, threads, jobshop::Formulation::decomposition);
            check_optimum(in, threads, jobshop::Formulation::unary);
        }
}

TEST_CASE("jobshop: the parser reads back what the instance is, comments, blank lines and CRLF included") {
    for (int seed = 0; seed < 20; ++seed) {
        const Instance in = jobshop::random_instance(1 + seed % 5, 1 + seed % 4, 20, static_cast<std::uint64_t>(seed));
        const std::string text = text_of(in);
        CAPTURE(text);
        const jobshop::Parsed p = jobshop::parse(text);
        REQUIRE(p.ok());
        CHECK(p.instance.jobs == in.jobs);
        CHECK(p.instance.machines == in.machines);
        CHECK(p.instance.ops == in.ops);
    }
}

TEST_CASE("jobshop: the parser names the line of each problem") {
    struct Case {
        const char* text;
        std::size_t line;
        const char* error;
    };
    const Case cases[] = {
        {"2 2\n0 1 1 2\n0 1\n", 3, "job 1 has 2 numbers, expected 4 (2 pairs of machine and duration)"},
        {"\n#\n1 2\n0 1 1 -1\n", 4, "job 0: negative duration -1"},
        {"1 2\n0 1 -1 1\n", 2, "job 0: machine -1 is out of range 0 to 1"},
        {"1 2\n1 1 1 1\n", 2, "job 0: machine 1 appears twice"},
        {"1 1\n0 5\n0 5\n", 3, "more lines than the 1 jobs the first line announced"},
        {"1 1\n0 five\n", 2, "'five' is not a whole number"},
        {"2 1\n0 5\n", 2, "the file ends after 1 of the 2 jobs"},
        {"1\n", 1, "expected the numbers of jobs and machines, found 1 number"},
        {"1 1001\n", 1, "the number of machines must be 1 to 1000, not 1001"},
        {"200 100\n", 1, "200 x 100 operations, more than 10000"},
        {"1 1\n0 99999999999999999999999\n", 2, "'99999999999999999999999' is too large"},
        {"1 1\n0 1000000001\n", 2, "job 0: duration 1000000001 is more than 1000000000"},
        {"2 1\n0 600000000\n0 600000000\n", 3, "the durations add up to more than 1000000000"},
    };
    for (const Case& c : cases) {
        const std::string text = c.text;
        CAPTURE(text);
        const jobshop::Parsed p = jobshop::parse(text);
        CHECK(!p.ok());
        CHECK(p.line == c.line);
        CHECK(p.error == c.error);
    }
}

TEST_CASE("jobshop: ft06 is proven at 55") {
    const char* ft06 = "6 6\n2 1 0 3 1 6 3 7 5 3 4 6\n1 8 2 5 4 10 5 10 0 10 3 4\n2 5 3 4 5 8 0 9 1 1 4 7\n"
                       "1 5 0 5 2 5 3 3 4 8 5 9\n2 9 1 3 4 5 5 4 0 3 3 1\n1 3 3 3 5 9 0 10 4 4 2 1\n";
    const jobshop::Parsed p = jobshop::parse(ft06);
    REQUIRE(p.ok());
    Schedule last;
    const propane::OptimizeStats st = jobshop::solve(p.instance, propane::Limits{}, [&](const Schedule& s) { last = s; });
    CHECK(st.complete());
    CHECK(st.objective == 55);
    CHECK(valid(p.instance, last));
}

// Durations scaled by 10,000 put every start past 2^16 values, in the
// interval form, where the unscaled starts are bitsets; the makespan steps
// by the durations' common divisor (jobshop_model.hpp). Both forms must
// prune alike, so the scaled instance walks the same tree to the scaled
// optimum.
TEST_CASE("jobshop: durations scaled by 10,000 give the scaled optimum through the same tree, with both models") {
    constexpr int scale = 10'000;
    for (int seed = 0; seed < 12; ++seed) {
        const Instance in = jobshop::random_instance(seed % 2 ? 4 : 3, 3, 9, static_cast<std::uint64_t>(100 + seed));
        Instance wide = in;
        for (auto& row : wide.ops)
            for (jobshop::Operation& op : row) op.duration *= scale;
        CAPTURE(text_of(in));
        for (const jobshop::Formulation f : {jobshop::Formulation::decomposition, jobshop::Formulation::unary}) {
            const auto solve = [&](const Instance& i) {
                return jobshop::solve(i, propane::Limits{}, 1, f, false, [](const Schedule&) {});
            };
            const propane::OptimizeStats narrow = solve(in), scaled = solve(wide);
            REQUIRE(narrow.objective.has_value());
            REQUIRE(scaled.objective.has_value());
            CHECK(scaled.complete());
            CHECK(*scaled.objective == *narrow.objective * scale);
            CHECK(scaled.failures == narrow.failures);
            CHECK(scaled.branches == narrow.branches);
        }
    }
}
