#ifndef PROPANE_TESTS_BRUTE_FORCE_HPP
#define PROPANE_TESTS_BRUTE_FORCE_HPP

// The reference of the modelling layer's tests (expressions, formulas,
// element forms, globals over expressions): every assignment of a few
// variables over small ranges that a meaning, written as plain C++ on
// ints, accepts. Nothing of propane's is used, so that the reference
// cannot share a mistake with what it checks.

#include <array>
#include <cstddef>
#include <functional>
#include <set>
#include <vector>

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

} // namespace brute

#endif
