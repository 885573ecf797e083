// The Golomb example's model (examples/golomb_model.hpp) against the known
// optimal lengths, OEIS A003022, and against the definition of a ruler.

#include <doctest/doctest.h>

#include "golomb_model.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <set>
#include <vector>

#include "instances.hpp"

namespace {

// A003022: the length of an optimal Golomb ruler with n marks, n = 1..9.
constexpr std::array<int, 9> optimal_length{0, 1, 3, 6, 11, 17, 25, 34, 44};

// Whether `marks` is a Golomb ruler: starts at 0, strictly increasing,
// all pairwise differences distinct.
bool is_golomb(const std::vector<int>& marks) {
    if (marks.empty() || marks[0] != 0) return false;
    std::set<int> seen;
    for (std::size_t i = 0; i < marks.size(); ++i)
        for (std::size_t j = i + 1; j < marks.size(); ++j) {
            if (marks[j] <= marks[i]) return false;
            if (!seen.insert(marks[j] - marks[i]).second) return false;
        }
    return true;
}

void check_optimum(int n, propane::Consistency consistency) {
    CAPTURE(n);
    CAPTURE(propane::to_string(consistency));
    std::vector<std::vector<int>> found;
    const auto st = golomb::solve(n, consistency, propane::Limits{}, [&](const std::vector<int>& m) { found.push_back(m); });
    REQUIRE(st.objective.has_value());
    CHECK(st.complete());
    CHECK(*st.objective == optimal_length[static_cast<std::size_t>(n - 1)]);
    REQUIRE(!found.empty());
    CHECK(found.back().back() == *st.objective);
    CHECK(st.solutions == found.size());
    for (std::size_t k = 0; k < found.size(); ++k) {
        CAPTURE(k);
        CHECK(found[k].size() == static_cast<std::size_t>(n));
        CHECK(is_golomb(found[k]));
        if (k > 0) CHECK(found[k].back() < found[k - 1].back()); // each ruler strictly shorter
    }
    // The mirror-breaking constraint d[0][1] < d[n-2][n-1] holds.
    if (n >= 3) {
        const std::vector<int>& m = found.back();
        CHECK(m[1] - m[0] < m[static_cast<std::size_t>(n - 1)] - m[static_cast<std::size_t>(n - 2)]);
    }
}

} // namespace

TEST_CASE("golomb: optimal lengths for 1..9 marks are A003022, at bounds strength") {
    for (int n = 1; n <= 9; ++n) check_optimum(n, propane::bounds);
}

TEST_CASE("golomb: the same optima at value and domain strength") {
    for (int n = 1; n <= 7; ++n) {
        check_optimum(n, propane::value);
        check_optimum(n, propane::domain);
    }
}

TEST_CASE("golomb: a branch limit reports the best ruler so far, not proven optimal") {
    const auto st = golomb::solve(9, propane::bounds, propane::Limits{.branches = 200}, [](const std::vector<int>& m) {
        CHECK(is_golomb(m));
    });
    CHECK_FALSE(st.complete());
    CHECK(st.outcome == propane::Outcome::branch_limit);
    if (st.objective) CHECK(*st.objective >= optimal_length[8]);
}
