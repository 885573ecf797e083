// The forms in which the constraint functions take their lists and numbers
// (constraints/arguments.hpp): braced lists, std::array, std::span, ranges
// of any integral type, mixed views in one braced list.
//
// Claim checked, per function: every form posts the constraint the
// std::vector form posts, that is, the solutions propane::solve finds over
// small domains are the same set for each form, and that set is the one a
// brute-force enumeration of the assignments gives. Each number that does
// not fit the type the propagator computes in is a model_error naming the
// function, the argument and the value.

#include <doctest/doctest.h>

// One width's prebuilt instances: what a model for that width includes
// (compiled/width_1.hpp), checked to compile and link here.
#include <propane/compiled/width_1.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <list>
#include <set>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "instances.hpp"

namespace {

using propane::AffineView;
using propane::IntVar;
using propane::OffsetView;

int function_visits = 0;
void count_visit(const propane::Solution<propane::Store<propane::BitDomain<1>>, IntVar>&) { ++function_visits; }
propane::Action stop_at_first(const propane::Solution<propane::Store<propane::BitDomain<1>>, IntVar>&) {
    return propane::stop;
}
using propane::Rel;
using S = propane::Store<propane::BitDomain<1>>;
using Solutions = std::set<std::vector<int>>;
using Vars = std::vector<IntVar>;

constexpr std::array<Rel, 6> all_rels{Rel::eq, Rel::ne, Rel::lt, Rel::le, Rel::gt, Rel::ge};

struct Range {
    int lo, hi;
};

// One way of posting the constraint under test, over the store's
// variables in creation order.
struct Form {
    const char* name;
    std::function<void(S&, const Vars&)> post;
};

// Every solution propane::solve finds, as the values of all the variables.
Solutions solved(const std::vector<Range>& domains, const Form& form) {
    S s;
    Vars x;
    for (const Range& d : domains) x.push_back(s.int_var(d.lo, d.hi));
    form.post(s, x);
    Solutions out;
    propane::solve(s, x, propane::Strategy{}, [&](const auto& solution) {
        std::vector<int> values;
        for (std::size_t i = 0; i < x.size(); ++i) values.push_back(solution[i]);
        out.insert(values);
    });
    return out;
}

// Every assignment of the domains for which holds() is true.
Solutions brute_force(const std::vector<Range>& domains, const std::function<bool(const std::vector<int>&)>& holds) {
    Solutions out;
    std::vector<int> v;
    for (const Range& d : domains) v.push_back(d.lo);
    for (;;) {
        if (holds(v)) out.insert(v);
        std::size_t i = 0;
        while (i < v.size() && v[i] == domains[i].hi) v[i] = domains[i].lo, ++i;
        if (i == v.size()) return out;
        ++v[i];
    }
}

// Each form finds exactly the brute-force solutions (so the same set as
// the vector form, listed first), and the set is not empty nor everything,
// so the check can tell a dropped constraint from a posted one.
void same_solutions(const std::vector<Range>& domains, const std::function<bool(const std::vector<int>&)>& holds,
                    const std::vector<Form>& forms, bool may_be_trivial = false) {
    const Solutions want = brute_force(domains, holds);
    if (!may_be_trivial) {
        CHECK_FALSE(want.empty());
        CHECK(want != brute_force(domains, [](const std::vector<int>&) { return true; }));
    }
    for (const Form& form : forms) {
        const std::string name = form.name;
        CAPTURE(name);
        CHECK(solved(domains, form) == want);
    }
}

bool compare(Rel r, std::int64_t a, std::int64_t b) { return propane::detail::holds(r, a, b); }

constexpr std::uint64_t beyond_int64 = std::uint64_t{1} << 63;
constexpr long beyond_int = 1L << 33;

} // namespace

TEST_CASE("linear: braced lists, arrays, spans and vectors of any integer type post the vector<int> form") {
    const std::vector<Range> d{{-1, 2}, {-1, 2}, {0, 2}};
    for (const Rel r : all_rels) {
        const std::string rel = std::string(propane::to_string(r));
        CAPTURE(rel);
        const auto holds = [r](const std::vector<int>& v) { return compare(r, v[0] + 2 * v[1] - v[2], 1); };
        same_solutions(
            d, holds,
            {{"vector<int>, vector<IntVar>",
              [r](S& s, const Vars& x) {
                  s.post(propane::linear(std::vector<int>{1, 2, -1}, std::vector<IntVar>{x[0], x[1], x[2]}, r, 1));
              }},
             {"braced",
              [r](S& s, const Vars& x) {
                  s.post(propane::linear({1, 2, -1}, {x[0], x[1], x[2]}, r, 1));
              }},
             {"array<long>, array<IntVar>",
              [r](S& s, const Vars& x) {
                  const std::array<long, 3> a{1, 2, -1};
                  const std::array<IntVar, 3> v{x[0], x[1], x[2]};
                  s.post(propane::linear(a, v, r, 1L));
              }},
             {"span<const short>, span<const IntVar>",
              [r](S& s, const Vars& x) {
                  const std::array<short, 3> a{1, 2, -1};
                  s.post(propane::linear(std::span<const short>(a), std::span<const IntVar>(x), r, short{1}));
              }},
             {"vector<int64_t>, braced mixed views",
              [r](S& s, const Vars& x) {
                  s.post(propane::linear(std::vector<std::int64_t>{1, 1, -1}, {x[0], 2 * x[1], x[2] + 0}, r,
                                         std::uint64_t{1}));
              }},
             {"braced {x, y + 1} as AffineView", [r](S& s, const Vars& x) {
                  s.post(propane::linear({1, 2, -1}, {x[0], x[1] + 1, x[2]}, r, 3));
              }}});
        const auto sum = [r](const std::vector<int>& v) { return compare(r, v[0] + v[1] + v[2], 2); };
        same_solutions(d, sum,
                       {{"sum, vector", [r](S& s, const Vars& x) { s.post(propane::linear(x, r, 2)); }},
                        {"sum, braced",
                         [r](S& s, const Vars& x) {
                             s.post(propane::linear({x[0], x[1], x[2]}, r, 2u));
                         }},
                        {"sum, span", [r](S& s, const Vars& x) { s.post(propane::linear(std::span(x), r, 2LL)); }}});
    }
    // The coefficients of unsigned types, which take no negative value.
    same_solutions(d, [](const std::vector<int>& v) { return v[0] + 2 * v[1] + 3 * v[2] == 4; },
                   {{"vector<unsigned>",
                     [](S& s, const Vars& x) {
                         s.post(propane::linear(std::vector<unsigned>{1, 2, 3}, x, Rel::eq, 4));
                     }},
                    {"braced unsigned char", [](S& s, const Vars& x) {
                         const unsigned char one = 1, two = 2, three = 3;
                         s.post(propane::linear({one, two, three}, x, Rel::eq, 4));
                     }}});
}

TEST_CASE("linear: a braced list keeps its one view type and reads a mixed one as AffineView") {
    S s;
    const IntVar x = s.int_var(0, 3), y = s.int_var(0, 3);
    static_assert(std::is_same_v<decltype(propane::linear({1, 2}, {x, y}, Rel::eq, 3)), propane::Linear<IntVar>>);
    static_assert(std::is_same_v<decltype(propane::linear({x + 1, y + 2}, Rel::eq, 3)), propane::Linear<OffsetView>>);
    static_assert(
        std::is_same_v<decltype(propane::linear({1, 2}, {x, y + 1}, Rel::eq, 3)), propane::Linear<AffineView>>);
    static_assert(std::is_same_v<decltype(propane::linear({x, 2 * y}, Rel::eq, 3)), propane::Linear<AffineView>>);
    static_assert(std::is_same_v<decltype(propane::all_different({x, y})),
                                 propane::AllDifferent<IntVar, propane::ConsistencyTag<propane::Consistency::bounds>>>);
    static_assert(
        std::is_same_v<decltype(propane::all_different({x, y + 1})),
                       propane::AllDifferent<AffineView, propane::ConsistencyTag<propane::Consistency::bounds>>>);
    static_assert(std::is_same_v<decltype(propane::clause({x}, {y})), propane::Clause<AffineView, AffineView>>);
    static_assert(std::is_same_v<decltype(propane::clause(Vars{x}, Vars{y})), propane::Clause<IntVar, IntVar>>);
    CHECK(propane::linear({1, 2}, {x, y}, Rel::eq, 3).coeffs == std::vector<std::int64_t>{1, 2});
}

TEST_CASE("linear: a coefficient or constant beyond 64 bits is a model_error naming it") {
    S s;
    const Vars x = s.int_vars(2, 0, 3);
    CHECK_THROWS_WITH_AS(propane::linear(std::vector<std::uint64_t>{1, beyond_int64}, x, Rel::eq, 0),
                         doctest::Contains("linear: coeffs[1] is 9223372036854775808"), propane::model_error);
    CHECK_THROWS_WITH_AS(propane::linear({std::uint64_t{2}, beyond_int64 + 1}, x, Rel::le, 0),
                         doctest::Contains("linear: coeffs[1] is 9223372036854775809"), propane::model_error);
    CHECK_THROWS_WITH_AS(propane::linear(x, Rel::eq, std::numeric_limits<std::uint64_t>::max()),
                         doctest::Contains("linear: the constant is 18446744073709551615"), propane::model_error);
    CHECK_THROWS_WITH_AS(
        propane::linear({1, 1}, x, Rel::eq, std::numeric_limits<std::uint64_t>::max(), propane::iff(x[0])),
        doctest::Contains("linear: the constant is 18446744073709551615"), propane::model_error);
    // Within 64 bits but beyond what linear computes in: its own refusal.
    CHECK_THROWS_WITH_AS(s.post(propane::linear(std::vector<long>{1L << 62, 1}, x, Rel::eq, 0)),
                         doctest::Contains("linear: coefficient 4611686018427387904"), propane::model_error);
}

TEST_CASE("linear, reified: every form posts the vector form") {
    const std::vector<Range> d{{-1, 2}, {0, 2}, {0, 1}};
    for (const Rel r : all_rels) {
        const std::string rel = std::string(propane::to_string(r));
        CAPTURE(rel);
        const auto iff = [r](const std::vector<int>& v) { return (v[2] == 1) == compare(r, v[0] - 2 * v[1], -1); };
        same_solutions(
            d, iff,
            {{"vector",
              [r](S& s, const Vars& x) {
                  s.post(propane::linear(std::vector<int>{1, -2}, Vars{x[0], x[1]}, r, -1, propane::iff(x[2])));
              }},
             {"braced",
              [r](S& s, const Vars& x) {
                  s.post(propane::linear({1, -2}, {x[0], x[1]}, r, -1, propane::iff(x[2])));
              }},
             {"array<long long>, braced mixed", [r](S& s, const Vars& x) {
                  s.post(
                      propane::linear(std::array<long long, 2>{1, -1}, {x[0], 2 * x[1]}, r, -1L, propane::iff(x[2])));
              }}});
        const auto implies = [r](const std::vector<int>& v) { return v[2] == 0 || compare(r, v[0] + v[1], 2); };
        same_solutions(d, implies,
                       {{"sum, vector",
                         [r](S& s, const Vars& x) {
                             s.post(propane::linear(Vars{x[0], x[1]}, r, 2, propane::implies(x[2])));
                         }},
                        {"sum, braced",
                         [r](S& s, const Vars& x) {
                             s.post(propane::linear({x[0], x[1]}, r, 2u, propane::implies(x[2])));
                         }},
                        {"sum, braced mixed", [r](S& s, const Vars& x) {
                             s.post(propane::linear({x[0], x[1] + 1}, r, 3, propane::implies(x[2])));
                         }}});
    }
}

TEST_CASE("rel: a constant of any integral type, bool as 0 and 1; one beyond 64 bits relates as the largest") {
    const std::vector<Range> d{{-2, 2}, {0, 1}};
    for (const Rel r : all_rels) {
        const std::string rel = std::string(propane::to_string(r));
        CAPTURE(rel);
        same_solutions(d, [r](const std::vector<int>& v) { return compare(r, v[0], 1); },
                       {{"int", [r](S& s, const Vars& x) { s.post(propane::rel(x[0], r, 1)); }},
                        {"unsigned short",
                         [r](S& s, const Vars& x) { s.post(propane::rel(x[0], r, static_cast<unsigned short>(1))); }},
                        {"uint64", [r](S& s, const Vars& x) { s.post(propane::rel(x[0], r, std::uint64_t{1})); }},
                        {"bool true", [r](S& s, const Vars& x) { s.post(propane::rel(x[0], r, true)); }}});
        const bool below = r == Rel::ne || r == Rel::lt || r == Rel::le;
        same_solutions(
            d, [below](const std::vector<int>&) { return below; },
            {{"uint64 max",
              [r](S& s, const Vars& x) { s.post(propane::rel(x[0], r, std::numeric_limits<std::uint64_t>::max())); }}},
            true);
        same_solutions(
            d, [below](const std::vector<int>& v) { return (v[1] == 1) == below; },
            {{"uint64 max, reified",
              [r](S& s, const Vars& x) {
                  s.post(propane::rel(x[0], r, std::numeric_limits<std::uint64_t>::max(), propane::iff(x[1])));
              }}},
            true);
    }
}

TEST_CASE("all_different: braced, with or without a strength, array, span and mixed views post the vector form") {
    const std::vector<Range> d{{0, 2}, {0, 2}, {-1, 1}};
    for (const propane::Consistency strength :
         std::initializer_list<propane::Consistency>{propane::value, propane::bounds, propane::domain}) {
        const std::string strength_name = std::string(propane::to_string(strength));
        CAPTURE(strength_name);
        same_solutions(
            d, [](const std::vector<int>& v) { return v[0] != v[1] && v[0] != v[2] && v[1] != v[2]; },
            {{"vector", [strength](S& s, const Vars& x) { s.post(propane::all_different(x, strength)); }},
             {"braced",
              [strength](S& s, const Vars& x) {
                  s.post(propane::all_different({x[0], x[1], x[2]}, strength));
              }},
             {"array",
              [strength](S& s, const Vars& x) {
                  s.post(propane::all_different(std::array<IntVar, 3>{x[0], x[1], x[2]}, strength));
              }},
             {"span", [strength](S& s, const Vars& x) { s.post(propane::all_different(std::span(x), strength)); }}});
        same_solutions(
            d, [](const std::vector<int>& v) { return v[0] != v[1] + 1 && v[0] != 2 * v[2] && v[1] + 1 != 2 * v[2]; },
            {{"vector<AffineView>",
              [strength](S& s, const Vars& x) {
                  s.post(propane::all_different(std::vector<AffineView>{x[0], x[1] + 1, 2 * x[2]}, strength));
              }},
             {"braced mixed", [strength](S& s, const Vars& x) {
                  s.post(propane::all_different({x[0], x[1] + 1, 2 * x[2]}, strength));
              }}});
    }
    same_solutions(d, [](const std::vector<int>& v) { return v[0] != v[1] && v[0] != v[2] && v[1] != v[2]; },
                   {{"braced, default strength", [](S& s, const Vars& x) {
                         s.post(propane::all_different({x[0], x[1], x[2]}));
                     }}});
    // A range that is not contiguous keeps its view type too.
    const auto shifted = [](const std::vector<int>& v) {
        return v[0] != v[1] + 1 && v[0] != v[2] + 2 && v[1] + 1 != v[2] + 2;
    };
    same_solutions(d, shifted, {{"list<OffsetView>", [](S& s, const Vars& x) {
                                    const std::list<OffsetView> views{x[0], x[1] + 1, x[2] + 2};
                                    s.post(propane::all_different(views, propane::domain));
                                }}});
}

TEST_CASE("count: views and numbers in every form post the vector form") {
    const std::vector<Range> d{{0, 2}, {0, 2}, {0, 2}, {0, 3}};
    for (const Rel r : all_rels) {
        const std::string rel = std::string(propane::to_string(r));
        CAPTURE(rel);
        const auto counted = [](const std::vector<int>& v) { return int(v[0] == 1) + int(v[1] == 1) + int(v[2] == 1); };
        same_solutions(d, [&](const std::vector<int>& v) { return compare(r, counted(v), v[3]); },
                       {{"vector, view c",
                         [r](S& s, const Vars& x) {
                             s.post(propane::count(Vars{x[0], x[1], x[2]}, 1, r, x[3]));
                         }},
                        {"braced, long v",
                         [r](S& s, const Vars& x) {
                             s.post(propane::count({x[0], x[1], x[2]}, 1L, r, x[3]));
                         }},
                        {"array, offset c", [r](S& s, const Vars& x) {
                             s.post(propane::count(std::array<IntVar, 3>{x[0], x[1], x[2]}, short{1}, r, x[3] + 0));
                         }}});
        same_solutions(d, [&](const std::vector<int>& v) { return compare(r, counted(v), 2); },
                       {{"vector, number c",
                         [r](S& s, const Vars& x) {
                             s.post(propane::count(Vars{x[0], x[1], x[2]}, 1, r, 2));
                         }},
                        {"span, unsigned c",
                         [r](S& s, const Vars& x) { s.post(propane::count(std::span(x).first(3), 1u, r, 2u)); }},
                        {"braced mixed, int64 c", [r](S& s, const Vars& x) {
                             s.post(propane::count({x[0], x[1] + 0, 1 * x[2]}, std::int64_t{1}, r, std::int64_t{2}));
                         }}});
    }
    S s;
    const Vars x = s.int_vars(2, 0, 2);
    CHECK_THROWS_WITH_AS(propane::count(x, beyond_int, Rel::eq, 1),
                         doctest::Contains("count: the value v is 8589934592"), propane::model_error);
    CHECK_THROWS_WITH_AS(propane::count({x[0], x[1]}, 1, Rel::eq, -beyond_int),
                         doctest::Contains("count: the count c is -8589934592"), propane::model_error);
}

TEST_CASE("element: the array and the views in every form post the vector form") {
    const std::vector<Range> d{{-1, 3}, {0, 3}};
    const std::vector<int> array{3, 1, 2};
    const auto constant = [&](const std::vector<int>& v) {
        return v[0] >= 0 && v[0] < 3 && v[1] == array[std::size_t(v[0])];
    };
    same_solutions(d, constant,
                   {{"vector<int>",
                     [](S& s, const Vars& x) {
                         s.post(propane::element(std::vector<int>{3, 1, 2}, x[0], x[1]));
                     }},
                    {"braced",
                     [](S& s, const Vars& x) {
                         s.post(propane::element({3, 1, 2}, x[0], x[1]));
                     }},
                    {"vector<long>",
                     [](S& s, const Vars& x) {
                         s.post(propane::element(std::vector<long>{3, 1, 2}, x[0], x[1]));
                     }},
                    {"array<unsigned char>",
                     [](S& s, const Vars& x) {
                         s.post(propane::element(std::array<unsigned char, 3>{3, 1, 2}, x[0], x[1]));
                     }},
                    {"span<const short>", [](S& s, const Vars& x) {
                         const std::array<short, 3> a{3, 1, 2};
                         s.post(propane::element(std::span<const short>(a), x[0], x[1]));
                     }}});
    const std::vector<Range> dv{{0, 2}, {1, 3}, {0, 1}, {0, 3}};
    const auto variable = [](const std::vector<int>& v) { return v[0] == (v[2] == 0 ? v[1] : v[3] + 1); };
    same_solutions(dv, variable,
                   {{"vector<AffineView>",
                     [](S& s, const Vars& x) {
                         s.post(propane::element(std::vector<AffineView>{x[1], x[3] + 1}, x[2], x[0]));
                     }},
                    {"braced mixed",
                     [](S& s, const Vars& x) {
                         s.post(propane::element({x[1], x[3] + 1}, x[2], x[0]));
                     }},
                    {"array<OffsetView>", [](S& s, const Vars& x) {
                         s.post(propane::element(std::array<OffsetView, 2>{x[1], x[3] + 1}, x[2], x[0]));
                     }}});
    same_solutions(dv, [](const std::vector<int>& v) { return v[0] == (v[2] == 0 ? v[1] : v[3]); },
                   {{"vector<IntVar>",
                     [](S& s, const Vars& x) {
                         s.post(propane::element(Vars{x[1], x[3]}, x[2], x[0]));
                     }},
                    {"braced", [](S& s, const Vars& x) {
                         s.post(propane::element({x[1], x[3]}, x[2], x[0]));
                     }}});
    S s;
    const Vars x = s.int_vars(2, 0, 2);
    CHECK_THROWS_WITH_AS(propane::element(std::vector<long>{1, beyond_int}, x[0], x[1]),
                         doctest::Contains("element: array[1] is 8589934592"), propane::model_error);
    CHECK_THROWS_WITH_AS(propane::element({std::uint64_t{0}, beyond_int64}, x[0], x[1]),
                         doctest::Contains("element: array[1] is 9223372036854775808"), propane::model_error);
}

TEST_CASE("table: views and tuples in every form post the vector form, in both modes") {
    const std::vector<Range> d{{0, 2}, {-1, 1}};
    for (const propane::TableMode mode : {propane::TableMode::allowed, propane::TableMode::forbidden}) {
        const bool allowed = mode == propane::TableMode::allowed;
        CAPTURE(allowed);
        const auto in = [allowed](const std::vector<int>& v) {
            const bool listed = (v[0] == 0 && v[1] == 1) || (v[0] == 2 && v[1] == -1) || (v[0] == 1 && v[1] == 1);
            return listed == allowed;
        };
        same_solutions(d, in,
                       {{"vector<vector<int>>",
                         [mode](S& s, const Vars& x) {
                             s.post(propane::table(x, std::vector<std::vector<int>>{{0, 1}, {2, -1}, {1, 1}}, mode));
                         }},
                        {"braced",
                         [mode](S& s, const Vars& x) {
                             s.post(propane::table({x[0], x[1]}, {{0, 1}, {2, -1}, {1, 1}}, mode));
                         }},
                        {"array<array<long>>, span",
                         [mode](S& s, const Vars& x) {
                             const std::array<std::array<long, 2>, 3> tuples{{{0, 1}, {2, -1}, {1, 1}}};
                             s.post(propane::table(std::span(x), tuples, mode));
                         }},
                        {"vector<vector<short>>, braced mixed", [mode](S& s, const Vars& x) {
                             const std::vector<std::vector<short>> tuples{{0, 2}, {2, 0}, {1, 2}};
                             s.post(propane::table({x[0], x[1] + 1}, tuples, mode));
                         }}});
    }
    S s;
    const Vars x = s.int_vars(2, 0, 2);
    CHECK_THROWS_WITH_AS(propane::table(x, {{0, 1}, {beyond_int, 0}}),
                         doctest::Contains("table: tuples[1][0] is 8589934592"), propane::model_error);
    CHECK_THROWS_WITH_AS(propane::table({x[0], x[1]}, std::vector<std::vector<std::uint64_t>>{{1, beyond_int64}}),
                         doctest::Contains("table: tuples[0][1] is 9223372036854775808"), propane::model_error);
}

TEST_CASE("clause: pos and neg as braced lists, arrays, spans or vectors post the vector form, plain and reified") {
    const std::vector<Range> d{{0, 1}, {0, 1}, {0, 1}, {0, 1}};
    const auto holds = [](const std::vector<int>& v) { return v[0] == 1 || v[1] == 1 || v[2] == 0; };
    same_solutions(d, holds,
                   {{"vectors",
                     [](S& s, const Vars& x) {
                         s.post(propane::clause(Vars{x[0], x[1]}, Vars{x[2]}));
                     }},
                    {"braced",
                     [](S& s, const Vars& x) {
                         s.post(propane::clause({x[0], x[1]}, {x[2]}));
                     }},
                    {"vector and braced",
                     [](S& s, const Vars& x) {
                         s.post(propane::clause(Vars{x[0], x[1]}, {x[2]}));
                     }},
                    {"array and span",
                     [](S& s, const Vars& x) {
                         s.post(propane::clause(std::array<IntVar, 2>{x[0], x[1]}, std::span(x).subspan(2, 1)));
                     }},
                    {"braced mixed", [](S& s, const Vars& x) {
                         s.post(propane::clause({x[0], 1 - (1 - x[1])}, {x[2] + 0}));
                     }}});
    const auto iff = [&](const std::vector<int>& v) { return (v[3] == 1) == holds(v); };
    same_solutions(d, iff,
                   {{"vectors, iff",
                     [](S& s, const Vars& x) {
                         s.post(propane::clause(Vars{x[0], x[1]}, Vars{x[2]}, propane::iff(x[3])));
                     }},
                    {"braced, iff",
                     [](S& s, const Vars& x) {
                         s.post(propane::clause({x[0], x[1]}, {x[2]}, propane::iff(x[3])));
                     }},
                    {"empty braced neg, iff", [](S& s, const Vars& x) {
                         s.post(propane::clause({x[0], x[1], 1 - x[2]}, {}, propane::iff(x[3])));
                     }}});
    same_solutions(d, [&](const std::vector<int>& v) { return v[3] == 0 || holds(v); },
                   {{"braced, implies", [](S& s, const Vars& x) {
                         s.post(propane::clause({x[0], x[1]}, {x[2]}, propane::implies(x[3])));
                     }}});
}

TEST_CASE("min and max: braced, array, span and mixed views post the vector form") {
    const std::vector<Range> d{{0, 2}, {-1, 1}, {-1, 3}};
    const auto low = [](const std::vector<int>& v) { return v[2] == std::min(v[0], v[1]); };
    same_solutions(d, low,
                   {{"vector",
                     [](S& s, const Vars& x) {
                         s.post(propane::min(Vars{x[0], x[1]}, x[2]));
                     }},
                    {"braced",
                     [](S& s, const Vars& x) {
                         s.post(propane::min({x[0], x[1]}, x[2]));
                     }},
                    {"array",
                     [](S& s, const Vars& x) {
                         s.post(propane::min(std::array<IntVar, 2>{x[0], x[1]}, x[2]));
                     }},
                    {"span", [](S& s, const Vars& x) { s.post(propane::min(std::span(x).first(2), x[2])); }}});
    const auto high = [](const std::vector<int>& v) { return v[2] == std::max(v[0], v[1] + 1); };
    same_solutions(d, high,
                   {{"vector<AffineView>",
                     [](S& s, const Vars& x) {
                         s.post(propane::max(std::vector<AffineView>{x[0], x[1] + 1}, x[2]));
                     }},
                    {"braced mixed",
                     [](S& s, const Vars& x) {
                         s.post(propane::max({x[0], x[1] + 1}, x[2]));
                     }},
                    {"braced offsets", [](S& s, const Vars& x) {
                         s.post(propane::max({x[0] + 0, x[1] + 1}, x[2]));
                     }}});
}

TEST_CASE("solve: a plain function as the visitor, over a vector, another range and every variable") {
    S s;
    const std::vector<IntVar> x = s.int_vars(3, 0, 2);
    s.post(propane::all_different(x, propane::domain));
    const std::list<IntVar> listed(x.begin(), x.end());
    function_visits = 0;
    CHECK(propane::solve(s, x, propane::Strategy{}, propane::Limits{}, count_visit).solutions == 6);
    CHECK(propane::solve(s, listed, propane::Strategy{}, count_visit).solutions == 6);
    CHECK(propane::solve(s, propane::Strategy{}, propane::Limits{}, count_visit).solutions == 6);
    CHECK(function_visits == 18);
    // A function that stops the search at the first solution.
    CHECK(propane::solve(s, x, propane::Strategy{}, stop_at_first).solutions == 1);
}
