// The magic square example's model (examples/magic_square_model.hpp):
// every square it reports is magic, and the counts are the known ones
// (8 of order 3, 7,040 of order 4: OEIS A006052 times the 8 symmetries).

#include <doctest/doctest.h>

#include "magic_square_model.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <set>
#include <vector>

#include "instances.hpp"

namespace {

bool is_magic(int n, const std::vector<int>& sq) {
    const auto un = static_cast<std::size_t>(n);
    if (sq.size() != un * un) return false;
    std::vector<int> sorted = sq;
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t i = 0; i < sorted.size(); ++i)
        if (sorted[i] != static_cast<int>(i) + 1) return false;
    const std::int64_t want = std::int64_t{n} * (std::int64_t{n} * n + 1) / 2;
    std::int64_t d1 = 0, d2 = 0;
    for (std::size_t i = 0; i < un; ++i) {
        std::int64_t row = 0, col = 0;
        for (std::size_t j = 0; j < un; ++j) {
            row += sq[i * un + j];
            col += sq[j * un + i];
        }
        if (row != want || col != want) return false;
        d1 += sq[i * un + i];
        d2 += sq[i * un + (un - 1 - i)];
    }
    return d1 == want && d2 == want;
}

std::uint64_t count(int n, propane::Consistency c) {
    std::set<std::vector<int>> distinct;
    std::uint64_t bad = 0;
    const propane::SearchStats st = magic_square::solve(n, c, propane::Limits{}, [&](const std::vector<int>& sq) {
        if (!is_magic(n, sq)) ++bad;
        distinct.insert(sq);
    });
    CHECK(st.complete());
    CHECK(bad == 0);
    CHECK(distinct.size() == st.solutions);
    return st.solutions;
}

} // namespace

TEST_CASE("magic squares: orders 1 to 3 at every strength") {
    for (const propane::Consistency c :
         std::initializer_list<propane::Consistency>{propane::value, propane::bounds, propane::domain}) {
        CAPTURE(propane::to_string(c));
        CHECK(count(1, c) == 1);
        CHECK(count(2, c) == 0);
        CHECK(count(3, c) == 8);
    }
}

TEST_CASE("magic squares: 7,040 of order 4") {
    CHECK(count(4, propane::domain) == 7040);
}

TEST_CASE("magic squares: the first square of orders 5 and 6 is magic") {
    for (int n = 5; n <= 6; ++n) {
        CAPTURE(n);
        std::vector<int> first;
        const propane::SearchStats st =
            magic_square::solve(n, propane::domain, propane::Limits{.solutions = 1}, [&](const std::vector<int>& sq) {
                first = sq;
            });
        CHECK(st.solutions == 1);
        CHECK(is_magic(n, first));
    }
}
