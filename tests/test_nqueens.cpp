// The N-queens model against published figures: the search statistics of
// the OR-Tools guide's model (first unbound, min value) and the solution
// counts of OEIS A000170, at every domain width the example can pick.

#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "nqueens_model.hpp"

// Short names, so CTest can run the slow count cases one domain width at a
// time (in parallel): test_nqueens -tc="*A000170*<dynamic>*".
TYPE_TO_STRING_AS("w1", propane::BitDomain<1>);
TYPE_TO_STRING_AS("w2", propane::BitDomain<2>);
TYPE_TO_STRING_AS("w4", propane::BitDomain<4>);
TYPE_TO_STRING_AS("dynamic", propane::BitDomain<propane::dynamic>);

namespace {

// OEIS A000170, N = 1..14.
constexpr std::array<std::uint64_t, 14> a000170{1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596};

struct Figures {
    int n;
    std::uint64_t solutions, failures, branches;
};

// The guide's search (first unbound, min value). The bounds row for N = 8
// is the guide's own print-out (failures 304, branches 790); the rest
// extend it with the same model and search.
constexpr std::array<Figures, 9> bounds_figures{{{4, 2, 4, 10},
                                                 {5, 10, 4, 26},
                                                 {6, 4, 32, 70},
                                                 {7, 40, 70, 218},
                                                 {8, 92, 304, 790},
                                                 {9, 352, 1194, 3090},
                                                 {10, 724, 5355, 12156},
                                                 {11, 2680, 24566, 54490},
                                                 {12, 14200, 116806, 262010}}};
constexpr std::array<Figures, 9> value_figures{{{4, 2, 4, 10},
                                                {5, 10, 4, 26},
                                                {6, 4, 36, 78},
                                                {7, 40, 72, 222},
                                                {8, 92, 324, 830},
                                                {9, 352, 1290, 3282},
                                                {10, 724, 5942, 13330},
                                                {11, 2680, 27268, 59894},
                                                {12, 14200, 131902, 292202}}};

template <class Domain>
void check_figures(propane::Consistency strength, const std::array<Figures, 9>& table) {
    for (const Figures& f : table) {
        CAPTURE(f.n);
        const propane::SearchStats st = nqueens::count<Domain>(f.n, strength);
        CHECK(st.solutions == f.solutions);
        CHECK(st.failures == f.failures);
        CHECK(st.branches == f.branches);
        CHECK(st.complete());
        // Each decision fixes one more queen, so no path is deeper than N.
        CHECK(st.max_depth <= static_cast<std::uint64_t>(f.n));
        CHECK(st.propagations > 0);
    }
}

template <class Domain>
void check_counts(propane::Consistency strength, int max_n) {
    for (int n = 1; n <= max_n; ++n) {
        CAPTURE(n);
        const propane::SearchStats st = nqueens::count<Domain>(n, strength);
        CHECK(st.solutions == a000170[static_cast<std::size_t>(n - 1)]);
        CHECK(st.complete());
        if (st.solutions + st.failures > 0 && st.branches > 0)
            CHECK(st.branches == 2 * (st.failures + st.solutions - 1));
    }
}

} // namespace

TEST_CASE_TEMPLATE("N-queens statistics match the OR-Tools guide's search", Domain, propane::BitDomain<1>,
                   propane::BitDomain<2>, propane::BitDomain<4>, propane::BitDomain<propane::dynamic>) {
    SUBCASE("bounds") { check_figures<Domain>(propane::bounds, bounds_figures); }
    SUBCASE("value") { check_figures<Domain>(propane::value, value_figures); }
}

TEST_CASE_TEMPLATE("N-queens solution counts match OEIS A000170 for N = 1..14", Domain, propane::BitDomain<1>,
                   propane::BitDomain<2>, propane::BitDomain<4>, propane::BitDomain<propane::dynamic>) {
    SUBCASE("bounds") { check_counts<Domain>(propane::bounds, 14); }
    SUBCASE("value") { check_counts<Domain>(propane::value, 14); }
    // Régin's propagator costs more per node; N = 13 at one width keeps the
    // test time in line with the others.
    if constexpr (std::is_same_v<Domain, propane::BitDomain<1>>) {
        SUBCASE("domain") { check_counts<Domain>(propane::domain, 13); }
    }
}

TEST_CASE_TEMPLATE("8-queens at domain strength explores Gecode's IPL_DOM tree", Domain, propane::BitDomain<1>,
                   propane::BitDomain<2>, propane::BitDomain<4>, propane::BitDomain<propane::dynamic>) {
    const propane::SearchStats st = nqueens::count<Domain>(8, propane::domain);
    CHECK(st.solutions == 92);
    CHECK(st.failures == 289);
    CHECK(st.branches == 760);
    CHECK(st.complete());
}

TEST_CASE("the first 8-queens solution is the guide's: q = 0 4 7 5 2 6 1 3") {
    nqueens::Model<propane::BitDomain<1>> m(8, propane::bounds);
    std::vector<int> first;
    propane::solve(m.store, m.q, nqueens::guide_strategy, [&](const auto& sol) {
        for (std::size_t c = 0; c < sol.size(); ++c) first.push_back(sol[c]);
        return propane::stop;
    });
    CHECK(first == std::vector<int>{0, 4, 7, 5, 2, 6, 1, 3});
}

TEST_CASE("every solution found is a valid placement") {
    for (int n = 1; n <= 9; ++n) {
        CAPTURE(n);
        for (propane::Consistency strength : {propane::value, propane::bounds}) {
            nqueens::Model<propane::BitDomain<1>> m(n, strength);
            propane::solve(m.store, m.q, nqueens::guide_strategy, [&](const auto& sol) {
                for (int i = 0; i < n; ++i)
                    for (int j = i + 1; j < n; ++j) {
                        const int a = sol[static_cast<std::size_t>(i)], b = sol[static_cast<std::size_t>(j)];
                        REQUIRE(a != b);
                        REQUIRE(a - b != j - i);
                        REQUIRE(b - a != j - i);
                    }
            });
        }
    }
}

TEST_CASE("the example picks the narrowest domain type for the board") {
    auto words = [](int n) {
        return nqueens::with_domain_for(n, [](auto tag) -> std::size_t {
            using D = typename decltype(tag)::type;
            return D::is_dynamic ? 0 : D(0, 0).words();
        });
    };
    CHECK(words(1) == 1);
    CHECK(words(64) == 1);
    CHECK(words(65) == 2);
    CHECK(words(128) == 2);
    CHECK(words(129) == 4);
    CHECK(words(256) == 4);
    CHECK(words(257) == 0);
}
