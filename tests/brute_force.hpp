#ifndef PROPANE_TESTS_BRUTE_FORCE_HPP
#define PROPANE_TESTS_BRUTE_FORCE_HPP

// The modelling layer's tests (expressions, formulas, element forms,
// globals over expressions) compare a search with brute force over a few
// variables of small ranges: the ranges drawn at random, every assignment
// that a meaning, written as plain C++ on ints, accepts (nothing of
// propane's is used there, so that the reference cannot share a mistake
// with what it checks), and the assignments propane's search finds.

#include <algorithm>
#include <limits>
#include <array>
#include <cstddef>
#include <functional>
#include <random>
#include <set>
#include <vector>

#include <propane/search/solve.hpp>

namespace brute {

using Values = std::vector<int>;
using Meaning = std::function<bool(const Values&)>;

// Variable i ranges over ranges[i][0] .. ranges[i][1].
inline std::set<Values> solutions(const std::vector<std::array<int, 2>>& ranges, const Meaning& meaning) {
    std::set<Values> out;
    Values v(ranges.size());
    const std::function<void(std::size_t)> walk = [&](std::size_t i) {
        if (i == ranges.size()) {
            if (meaning(v)) out.insert(v);
            return;
        }
        for (v[i] = ranges[i][0]; v[i] <= ranges[i][1]; ++v[i]) walk(i + 1);
    };
    walk(0);
    return out;
}

// n ranges, the last `bools` of them {0, 1}, each other between two values
// drawn within lo .. hi.
inline std::vector<std::array<int, 2>> random_ranges(std::mt19937& rng, int n, int bools, int lo, int hi) {
    std::uniform_int_distribution<int> value(lo, hi);
    std::vector<std::array<int, 2>> ranges;
    for (int i = 0; i < n; ++i) {
        if (i >= n - bools) {
            ranges.push_back({0, 1});
            continue;
        }
        const int a = value(rng), b = value(rng);
        ranges.push_back({std::min(a, b), std::max(a, b)});
    }
    return ranges;
}

// The solutions propane's search finds over xs, each cut to its first
// `kept` values (the model's own variables, when xs ends with auxiliaries).
template <class Store, class Vars>
std::set<Values> searched(Store& s, const Vars& xs, std::size_t kept = std::numeric_limits<std::size_t>::max()) {
    std::set<Values> out;
    propane::solve(s, xs, [&](const auto& sol) {
        Values v;
        for (std::size_t i = 0; i < std::min(sol.size(), kept); ++i) v.push_back(sol[i]);
        out.insert(v);
    });
    return out;
}

} // namespace brute

#endif
