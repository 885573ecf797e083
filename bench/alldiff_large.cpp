// alldiff_large: the first solution of one AllDifferent over n variables
// with values 0..n-1, branching on the first unfixed variable and its
// smallest value, for propane at each strength over BitDomain<dynamic> and,
// when the build found it, for Gecode with the same model and search. The
// search never fails, so what is timed is n propagation runs over
// constraints of n, n - 1, ..., 1 open variables: the cost of one run as
// the constraint grows, which a search over small constraints never shows.
// See --help.

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <propane/propane.hpp>

#include "options.hpp"

#ifdef PROPANE_HAVE_GECODE
#include <memory>

#include <gecode/int.hh>
#include <gecode/search.hh>
#endif

namespace {

constexpr const char* usage_line =
    "usage: alldiff_large [--n N]... [--rounds R] [--cap SECONDS] [--strength S]... [--no-gecode] [--help]";

constexpr const char* help_text = R"(
Finds the first solution of AllDifferent(x[0..n-1]), x[i] in 0..n-1, with
  - propane at each strength (value, bounds, domain), over
    BitDomain<propane::dynamic>, branching on the first unfixed variable and
    its smallest value;
  - Gecode, when the build found it: an IntVarArray over 0..n-1,
    distinct(IPL_VAL / IPL_BND / IPL_DOM), INT_VAR_NONE / INT_VAL_MIN,
    depth-first search on one thread.

Each round runs every row once, in table order; a row's time is the median
over the rounds it ran in, and the ratio is the median of the per-round
ratios Gecode / propane. Times include building the model. Each engine's
solution is checked to be the identity 0..n-1 (what min-value branching
finds first) before any time is printed.

A row whose first round took longer than the cap does not run again; a row
is not run at all when the same engine and strength took longer than the
cap at a smaller n, and the table says so.

  --n N         a size from 2 to 100000; repeat for several (default 1000,
                2000 and 4000)
  --rounds R    rounds, 1 to 100 (default 3)
  --cap S       seconds, 1 to 100000 (default 60)
  --strength S  value, bounds or domain; repeat for several (default all)
  --no-gecode   propane's rows only
  --help        print this help

Exit status: 0 if every solution is right, 1 if one is not, 2 on bad
arguments.
)";

[[noreturn]] void usage_error(const std::string& problem) {
    examples::bench_usage_error("alldiff_large", usage_line, problem);
}

struct Options {
    std::vector<int> sizes;
    int rounds = 3;
    double cap = 60;
    std::vector<propane::Consistency> strengths;
    bool gecode = true;
};

using examples::parse_between;

Options parse(int argc, char** argv) {
    examples::bench_help(argc, argv, usage_line, help_text);
    Options o;
    for (int i = 1; i < argc; ++i) {
        int n = 0, cap = 0;
        propane::Consistency st{};
        if (std::string_view(argv[i]) == "--no-gecode") {
            o.gecode = false;
        } else if (examples::parsed_option(argc, argv, i, "--n", "a size from 2 to 100000", parse_between<2, 100000>, n,
                                    usage_error)) {
            o.sizes.push_back(n);
        } else if (examples::parsed_option(argc, argv, i, "--cap", "seconds, 1 to 100000",
                                           parse_between<1, 100000>, cap, usage_error)) {
            o.cap = cap;
        } else if (examples::parsed_option(argc, argv, i, "--strength", "value, bounds or domain",
                                           propane::consistency_from_string, st, usage_error)) {
            o.strengths.push_back(st);
        } else if (!examples::parsed_option(argc, argv, i, "--rounds", "a whole number from 1 to 100",
                                            parse_between<1, 100>, o.rounds, usage_error)) {
            usage_error("unknown argument '" + std::string(argv[i]) + "'");
        }
    }
    if (o.sizes.empty()) o.sizes = {1000, 2000, 4000};
    if (o.strengths.empty()) o.strengths = {propane::value, propane::bounds, propane::domain};
    return o;
}

using Solution = std::vector<int>;

bool identity(const Solution& x, int n) {
    if (x.size() != static_cast<std::size_t>(n)) return false;
    for (int i = 0; i < n; ++i)
        if (x[static_cast<std::size_t>(i)] != i) return false;
    return true;
}

Solution propane_first(int n, propane::Consistency strength) {
    propane::Store<propane::BitDomain<propane::dynamic>> s;
    const auto x = s.int_vars(n, 0, n - 1);
    s.post(propane::all_different(x, strength));
    Solution found;
    propane::solve(s, x, {.var = propane::first_unbound, .val = propane::min_value}, [&](const auto& solution) {
        for (std::size_t i = 0; i < solution.size(); ++i) found.push_back(solution[i]);
        return propane::stop;
    });
    return found;
}

#ifdef PROPANE_HAVE_GECODE

class GecodeDistinct final : public Gecode::Space {
public:
    GecodeDistinct(int n, Gecode::IntPropLevel level) : x_(*this, n, 0, n - 1) {
        Gecode::distinct(*this, x_, level);
        Gecode::branch(*this, x_, Gecode::INT_VAR_NONE(), Gecode::INT_VAL_MIN());
    }
    GecodeDistinct(GecodeDistinct& other) : Gecode::Space(other) { x_.update(*this, other.x_); }
    Gecode::Space* copy() override { return new GecodeDistinct(*this); }
    Solution values() const {
        Solution v;
        for (int i = 0; i < x_.size(); ++i) v.push_back(x_[i].val());
        return v;
    }

private:
    Gecode::IntVarArray x_;
};

Gecode::IntPropLevel gecode_level(propane::Consistency strength) {
    switch (strength) {
    case propane::Consistency::value: return Gecode::IPL_VAL;
    case propane::Consistency::bounds: return Gecode::IPL_BND;
    case propane::Consistency::domain: return Gecode::IPL_DOM;
    }
    return Gecode::IPL_DEF;
}

Solution gecode_first(int n, propane::Consistency strength) {
    auto root = std::make_unique<GecodeDistinct>(n, gecode_level(strength));
    Gecode::Search::Options options;
    options.threads = 1;
    Gecode::DFS<GecodeDistinct> search(root.get(), options);
    const std::unique_ptr<GecodeDistinct> solution{search.next()};
    return solution ? solution->values() : Solution{};
}

#endif

struct Row {
    int n = 0;
    std::string engine;
    propane::Consistency strength{};
    bool gecode = false;
    std::vector<double> times; // one per round it ran in
    std::string skipped;       // why it did not run, if it did not
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.size() % 2 == 1 ? v[m] : (v[m - 1] + v[m]) / 2;
}

std::string format(const char* spec, double x) {
    std::array<char, 64> buf{};
    std::snprintf(buf.data(), buf.size(), spec, x);
    return buf.data();
}

std::string time_text(double s) {
    const double ms = s * 1e3;
    if (ms >= 1000) return format("%.2f s", s);
    if (ms >= 100) return format("%.0f ms", ms);
    if (ms >= 10) return format("%.1f ms", ms);
    return format("%.2f ms", ms);
}

} // namespace

int main(int argc, char** argv) {
    const Options o = parse(argc, argv);
    std::vector<Row> rows;
    for (const int n : o.sizes)
        for (const propane::Consistency st : o.strengths) {
            rows.push_back({n, "propane", st, false, {}, {}});
#ifdef PROPANE_HAVE_GECODE
            if (o.gecode) rows.push_back({n, "Gecode " GECODE_VERSION, st, true, {}, {}});
#endif
        }
    int wrong = 0;
    for (int round = 0; round < o.rounds; ++round)
        for (Row& row : rows) {
            if (!row.skipped.empty()) continue;
            if (round > 0 && row.times.empty()) continue;
            if (round == 0) {
                // Skipped when a smaller n of the same engine and strength
                // already took longer than the cap: the cost grows with n.
                for (const Row& smaller : rows)
                    if (smaller.n < row.n && smaller.gecode == row.gecode && smaller.strength == row.strength &&
                        ((!smaller.times.empty() && smaller.times[0] > o.cap) || !smaller.skipped.empty()))
                        row.skipped = "skipped: n = " + std::to_string(smaller.n) + " took longer than the " +
                                      format("%.0f", o.cap) + " s cap";
                if (!row.skipped.empty()) continue;
            } else if (row.times[0] > o.cap) {
                continue;
            }
            Solution x;
            const auto start = std::chrono::steady_clock::now();
#ifdef PROPANE_HAVE_GECODE
            x = row.gecode ? gecode_first(row.n, row.strength) : propane_first(row.n, row.strength);
#else
            x = propane_first(row.n, row.strength);
#endif
            const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            if (!identity(x, row.n)) {
                std::fprintf(stderr, "alldiff_large: %s at %s strength, n = %d: the first solution is not 0..n-1\n",
                             row.engine.c_str(), std::string(propane::to_string(row.strength)).c_str(), row.n);
                ++wrong;
                row.skipped = "wrong solution";
                continue;
            }
            row.times.push_back(t);
            std::fprintf(stderr, "round %d: n = %d, %s, %s: %s\n", round + 1, row.n, row.engine.c_str(),
                         std::string(propane::to_string(row.strength)).c_str(), time_text(t).c_str());
        }

    std::printf("| n | engine | AllDifferent | rounds | time (median) | Gecode / propane |\n");
    std::printf("|--:|---|---|--:|--:|--:|\n");
    for (std::size_t k = 0; k < rows.size(); ++k) {
        const Row& row = rows[k];
        std::string time = row.skipped.empty() ? time_text(median(row.times)) : row.skipped;
        if (row.skipped.empty() && row.times.size() == 1 && o.rounds > 1)
            time += format(" (one round: over the %.0f s cap)", o.cap);
        std::string ratio;
        if (row.gecode && k > 0 && row.skipped.empty() && rows[k - 1].skipped.empty()) {
            std::vector<double> ratios;
            const Row& p = rows[k - 1];
            for (std::size_t r = 0; r < std::min(row.times.size(), p.times.size()); ++r)
                ratios.push_back(row.times[r] / p.times[r]);
            ratio = format("%.2f", median(ratios));
        }
        std::printf("| %d | %s | %s | %zu | %s | %s |\n", row.n, row.engine.c_str(),
                    std::string(propane::to_string(row.strength)).c_str(), row.times.size(), time.c_str(),
                    ratio.c_str());
    }
    return wrong == 0 ? 0 : 1;
}
