// The global constraints given expressions as arguments (all_different,
// count, global_cardinality, lex_lesseq, lex_less, increasing,
// strictly_increasing): braced lists of expressions, mixed with views,
// and vectors of Expr, over sums, products, abs and constants, posted on
// small random models. Every variable of the store is labelled, the
// auxiliary ones included: the solutions must be as many as brute force
// finds over the model's variables, and project onto exactly those (an
// auxiliary variable left free, or tied wrongly, shows). Then that the
// braced lists of views alone still take their old overloads (same return
// types, no variable added, the same propagators), that an expression
// which comes to a view gets no auxiliary variable, and the model errors.

#include <doctest/doctest.h>

#include <propane/constraints/all_different.hpp>
#include <propane/constraints/count.hpp>
#include <propane/constraints/global_cardinality.hpp>
#include <propane/constraints/increasing.hpp>
#include <propane/constraints/lex.hpp>
#include <propane/engine/store.hpp>
#include <propane/model/define.hpp>
#include <propane/model/expr.hpp>
#include <propane/search/solve.hpp>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <random>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "brute_force.hpp"
#include "instances.hpp"

namespace {

using Store = propane::Store<propane::BitDomain<1>>;
using propane::AffineView;
using propane::Expr;
using propane::IntVar;
using propane::OffsetView;
using propane::Rel;
using Values = std::vector<int>;
using Vars = std::vector<IntVar>;
using Post = std::function<void(Store&, const Vars&)>;
using Meaning = std::function<bool(const Values&)>;

// A spelling, on four variables x, y, z, w (v[0] .. v[3]), and what it
// means on ints.
struct Case {
    const char* name;
    Post post;
    Meaning meaning;
};

struct Found {
    long count = 0;          // solutions over every variable of the store
    std::set<Values> shown;  // their projections on the model's variables
};

Found search(const std::vector<std::array<int, 2>>& ranges, const Post& post) {
    Store s;
    Vars xs;
    for (const auto& r : ranges) xs.push_back(s.int_var(r[0], r[1]));
    post(s, xs);
    Vars all;
    for (int i = 0; i < s.num_vars(); ++i) all.push_back(s.var(i));
    Found f;
    propane::solve(s, all, [&](const auto& sol) {
        Values v;
        for (std::size_t i = 0; i < xs.size(); ++i) v.push_back(sol[i]);
        f.shown.insert(v);
        ++f.count;
    });
    return f;
}

// Each case on `trials` models of four variables over random ranges
// within -3 .. 3 (so that products and sums stay within BitDomain<1>).
void check_cases(const std::vector<Case>& cases, unsigned seed, int trials = 25) {
    std::mt19937 rng(seed);
    int with_solutions = 0, without = 0;
    for (const Case& c : cases) {
        for (int t = 0; t < trials; ++t) {
            const std::vector<std::array<int, 2>> ranges = brute::random_ranges(rng, 4, 0, -3, 3);
            const Found got = search(ranges, c.post);
            const std::set<Values> want = brute::solutions(ranges, c.meaning);
            INFO(c.name, " trial ", t);
            CHECK(got.shown == want);
            CHECK(got.count == static_cast<long>(want.size()));
            ++(want.empty() ? without : with_solutions);
        }
    }
    // The models must test something both ways.
    CHECK(with_solutions > 0);
    CHECK(without > 0);
}

bool distinct(const std::vector<int>& v) {
    for (std::size_t i = 0; i < v.size(); ++i)
        for (std::size_t j = i + 1; j < v.size(); ++j)
            if (v[i] == v[j]) return false;
    return true;
}

int occurrences(const std::vector<int>& v, int value) {
    int n = 0;
    for (const int e : v) n += e == value;
    return n;
}

bool holds(int a, Rel r, int b) {
    switch (r) {
    case Rel::eq: return a == b;
    case Rel::ne: return a != b;
    case Rel::lt: return a < b;
    case Rel::le: return a <= b;
    case Rel::gt: return a > b;
    case Rel::ge: return a >= b;
    }
    return false;
}

// xs <=lex ys, or <lex when strict.
bool lex(const std::vector<int>& xs, const std::vector<int>& ys, bool strict) {
    for (std::size_t i = 0; i < xs.size(); ++i)
        if (xs[i] != ys[i]) return xs[i] < ys[i];
    return !strict;
}

bool ordered(const std::vector<int>& v, bool strict) {
    for (std::size_t i = 0; i + 1 < v.size(); ++i)
        if (strict ? v[i] >= v[i + 1] : v[i] > v[i + 1]) return false;
    return true;
}

constexpr std::array all_rels{Rel::eq, Rel::ne, Rel::lt, Rel::le, Rel::gt, Rel::ge};

} // namespace

TEST_CASE("all_different over expressions: braced, mixed with views, vectors; every strength") {
    using propane::abs;
    std::vector<Case> cases;
    for (const propane::Consistency k :
         std::initializer_list<propane::Consistency>{propane::value, propane::bounds, propane::domain}) {
        cases.push_back({"{x + y, y + z, x + z}",
                         [k](Store& s, const Vars& v) {
                             s.post(propane::all_different({v[0] + v[1], v[1] + v[2], v[0] + v[2]}, k));
                         },
                         [](const Values& x) { return distinct({x[0] + x[1], x[1] + x[2], x[0] + x[2]}); }});
        cases.push_back({"{x + 1, y * z, w, 2 * abs(x)}",
                         [k](Store& s, const Vars& v) {
                             s.post(propane::all_different({v[0] + 1, v[1] * v[2], v[3], 2 * abs(v[0])}, k));
                         },
                         [](const Values& x) { return distinct({x[0] + 1, x[1] * x[2], x[3], 2 * std::abs(x[0])}); }});
        cases.push_back({"vector<Expr>{x * y, z, y - z, abs(w - x)}",
                         [k](Store& s, const Vars& v) {
                             const std::vector<Expr> es{v[0] * v[1], v[2], v[1] - v[2], abs(v[3] - v[0])};
                             s.post(propane::all_different(es, k));
                         },
                         [](const Values& x) {
                             return distinct({x[0] * x[1], x[2], x[1] - x[2], std::abs(x[3] - x[0])});
                         }});
        // A constant, and expressions that come to views a*x + b.
        cases.push_back({"{x - x + 2, y + z - z + 1, 3 * w - 1, 2 * abs(z) - 3}",
                         [k](Store& s, const Vars& v) {
                             s.post(propane::all_different(
                                 {v[0] - v[0] + 2, v[1] + v[2] - v[2] + 1, 3 * v[3] - 1, 2 * abs(v[2]) - 3}, k));
                         },
                         [](const Values& x) { return distinct({2, x[1] + 1, 3 * x[3] - 1, 2 * std::abs(x[2]) - 3}); }});
    }
    check_cases(cases, 1);
}

TEST_CASE("count over expressions: xs, c, both; every relation") {
    using propane::abs;
    std::vector<Case> cases;
    for (const Rel r : all_rels) {
        cases.push_back({"{x + y, y * z, abs(w)}, 1, r, x",
                         [r](Store& s, const Vars& v) {
                             s.post(propane::count({v[0] + v[1], v[1] * v[2], abs(v[3])}, 1, r, v[0]));
                         },
                         [r](const Values& x) {
                             return holds(occurrences({x[0] + x[1], x[1] * x[2], std::abs(x[3])}, 1), r, x[0]);
                         }});
        cases.push_back({"{x, y + z, w - 1}, 0, r, 1 (a number)",
                         [r](Store& s, const Vars& v) {
                             s.post(propane::count({v[0], v[1] + v[2], v[3] - 1}, 0, r, 1));
                         },
                         [r](const Values& x) { return holds(occurrences({x[0], x[1] + x[2], x[3] - 1}, 0), r, 1); }});
        cases.push_back({"vector<IntVar>{x, y, z}, 1, r, abs(w) - 1 (c an expression)",
                         [r](Store& s, const Vars& v) {
                             s.post(propane::count(Vars{v[0], v[1], v[2]}, 1, r, abs(v[3]) - 1));
                         },
                         [r](const Values& x) {
                             return holds(occurrences({x[0], x[1], x[2]}, 1), r, std::abs(x[3]) - 1);
                         }});
        cases.push_back({"vector<Expr>{x - y, z * z, w}, -1, r, x + w + 1",
                         [r](Store& s, const Vars& v) {
                             const std::vector<Expr> es{v[0] - v[1], v[2] * v[2], v[3]};
                             s.post(propane::count(es, -1, r, v[0] + v[3] + 1));
                         },
                         [r](const Values& x) {
                             return holds(occurrences({x[0] - x[1], x[2] * x[2], x[3]}, -1), r, x[0] + x[3] + 1);
                         }});
    }
    check_cases(cases, 2, 10);
}

TEST_CASE("global_cardinality over expressions: xs and counts") {
    using propane::abs;
    const std::vector<Case> cases{
        {"{x + y, z, y * w}, {0, 1}, {abs(x) - 1, w}",
         [](Store& s, const Vars& v) {
             s.post(propane::global_cardinality({v[0] + v[1], v[2], v[1] * v[3]}, {0, 1}, {abs(v[0]) - 1, v[3]}));
         },
         [](const Values& x) {
             const std::vector<int> xs{x[0] + x[1], x[2], x[1] * x[3]};
             return occurrences(xs, 0) == std::abs(x[0]) - 1 && occurrences(xs, 1) == x[3];
         }},
        {"vector<Expr>{x - z, y + w, z}, {-1, 2}, {w + 1, x}",
         [](Store& s, const Vars& v) {
             const std::vector<Expr> xs{v[0] - v[2], v[1] + v[3], v[2]};
             s.post(propane::global_cardinality(xs, std::vector<long>{-1, 2}, {v[3] + 1, v[0]}));
         },
         [](const Values& x) {
             const std::vector<int> xs{x[0] - x[2], x[1] + x[3], x[2]};
             return occurrences(xs, -1) == x[3] + 1 && occurrences(xs, 2) == x[0];
         }},
        {"{x, y, z}, {0}, {abs(w - x)} (views, one count an expression)",
         [](Store& s, const Vars& v) {
             s.post(propane::global_cardinality({v[0], v[1], v[2]}, {0}, {abs(v[3] - v[0])}));
         },
         [](const Values& x) { return occurrences({x[0], x[1], x[2]}, 0) == std::abs(x[3] - x[0]); }},
    };
    check_cases(cases, 3);
}

TEST_CASE("lex_lesseq and lex_less over expressions; a range beside a braced list") {
    using propane::abs;
    std::vector<Case> cases;
    for (const bool strict : {false, true}) {
        const auto lex_post = [strict](Store& s, const auto& xs, const auto& ys) {
            if (strict)
                s.post(propane::lex_less(xs, ys));
            else
                s.post(propane::lex_lesseq(xs, ys));
        };
        cases.push_back({"{x + y, z}, {y * z, x}",
                         [strict](Store& s, const Vars& v) {
                             if (strict)
                                 s.post(propane::lex_less({v[0] + v[1], v[2]}, {v[1] * v[2], v[0]}));
                             else
                                 s.post(propane::lex_lesseq({v[0] + v[1], v[2]}, {v[1] * v[2], v[0]}));
                         },
                         [strict](const Values& x) { return lex({x[0] + x[1], x[2]}, {x[1] * x[2], x[0]}, strict); }});
        cases.push_back({"vector<Expr>{abs(x) - 1, y, z - w} against {z, w + 1, x}",
                         [lex_post](Store& s, const Vars& v) {
                             const std::vector<Expr> xs{abs(v[0]) - 1, v[1], v[2] - v[3]};
                             const std::vector<AffineView> ys{v[2], v[3] + 1, v[0]};
                             lex_post(s, xs, ys);
                         },
                         [strict](const Values& x) {
                             return lex({std::abs(x[0]) - 1, x[1], x[2] - x[3]}, {x[2], x[3] + 1, x[0]}, strict);
                         }});
        cases.push_back({"vector<IntVar>{x, y} against braced {z * w, x - 1}",
                         [strict](Store& s, const Vars& v) {
                             const Vars xs{v[0], v[1]};
                             if (strict)
                                 s.post(propane::lex_less(xs, {v[2] * v[3], v[0] - 1}));
                             else
                                 s.post(propane::lex_lesseq(xs, {v[2] * v[3], v[0] - 1}));
                         },
                         [strict](const Values& x) { return lex({x[0], x[1]}, {x[2] * x[3], x[0] - 1}, strict); }});
    }
    check_cases(cases, 4);
}

TEST_CASE("increasing and strictly_increasing over expressions") {
    using propane::abs;
    std::vector<Case> cases;
    for (const bool strict : {false, true}) {
        cases.push_back({"{x + y, z, y * z, 2 * w}",
                         [strict](Store& s, const Vars& v) {
                             if (strict)
                                 s.post(propane::strictly_increasing({v[0] + v[1], v[2], v[1] * v[2], 2 * v[3]}));
                             else
                                 s.post(propane::increasing({v[0] + v[1], v[2], v[1] * v[2], 2 * v[3]}));
                         },
                         [strict](const Values& x) { return ordered({x[0] + x[1], x[2], x[1] * x[2], 2 * x[3]}, strict); }});
        cases.push_back({"vector<Expr>{x - y, abs(z) + 1, w}",
                         [strict](Store& s, const Vars& v) {
                             const std::vector<Expr> es{v[0] - v[1], abs(v[2]) + 1, v[3]};
                             if (strict)
                                 s.post(propane::strictly_increasing(es));
                             else
                                 s.post(propane::increasing(es));
                         },
                         [strict](const Values& x) {
                             return ordered({x[0] - x[1], std::abs(x[2]) + 1, x[3]}, strict);
                         }});
    }
    check_cases(cases, 5);
}

TEST_CASE("braced lists of views keep their overloads and return types") {
    Store s;
    const IntVar x = s.int_var(0, 3), y = s.int_var(0, 3);
    const Expr e = x + y;
    static_assert(std::is_same_v<decltype(propane::all_different({x, y})),
                                 propane::AllDifferent<IntVar, propane::ConsistencyTag<propane::Consistency::bounds>>>);
    static_assert(
        std::is_same_v<decltype(propane::all_different({x, y + 1})),
                       propane::AllDifferent<AffineView, propane::ConsistencyTag<propane::Consistency::bounds>>>);
    static_assert(std::is_same_v<decltype(propane::all_different({x, e})),
                                 propane::AllDifferentOfExprs<propane::ConsistencyTag<propane::Consistency::bounds>>>);
    static_assert(std::is_same_v<decltype(propane::all_different(std::vector<Expr>{e})),
                                 propane::AllDifferentOfExprs<propane::ConsistencyTag<propane::Consistency::bounds>>>);
    static_assert(std::is_same_v<decltype(propane::count({x, y + 1}, 1, Rel::eq, 2)), propane::Count<AffineView, int>>);
    static_assert(
        std::is_same_v<decltype(propane::count({x, y + 1}, 1, Rel::eq, y)), propane::Count<AffineView, IntVar>>);
    static_assert(std::is_same_v<decltype(propane::count({x, e}, 1, Rel::eq, y)), propane::CountOfExprs<IntVar>>);
    static_assert(
        std::is_same_v<decltype(propane::count({x, y}, 1, Rel::eq, e)), propane::CountOfExprs<propane::detail::Listed>>);
    static_assert(std::is_same_v<decltype(propane::global_cardinality({x, y + 1}, {1}, {y})),
                                 propane::GlobalCardinality<AffineView, AffineView>>);
    static_assert(std::is_same_v<decltype(propane::global_cardinality({x, e}, {1}, {y})),
                                 propane::GlobalCardinalityOfExprs>);
    static_assert(std::is_same_v<decltype(propane::lex_less({x}, {y})), propane::LexConstraint<AffineView>>);
    static_assert(std::is_same_v<decltype(propane::lex_lesseq({x}, {e})), propane::LexOfExprs>);
    static_assert(std::is_same_v<decltype(propane::increasing({x, y})), propane::IncreasingConstraint<IntVar>>);
    static_assert(
        std::is_same_v<decltype(propane::increasing({x, y + 1})), propane::IncreasingConstraint<AffineView>>);
    static_assert(std::is_same_v<decltype(propane::strictly_increasing({x, e})), propane::IncreasingOfExprs>);
    CHECK(propane::all_different({x, y}).views.size() == 2);
}

namespace {

struct Size {
    int vars;
    int propagators;
    bool operator==(const Size&) const = default;
};

// What posting adds to a store of the variables x, y, z, w over 0..3.
Size added(const Post& post) {
    Store s;
    const Vars v = s.int_vars(4, 0, 3);
    const Size before{s.num_vars(), s.num_propagators()};
    post(s, v);
    return {s.num_vars() - before.vars, s.num_propagators() - before.propagators};
}

} // namespace

TEST_CASE("views alone add no variable: the braced forms post what the vector of AffineView posts") {
    using V = std::vector<AffineView>;
    const auto same = [](const char* name, const Post& braced, const Post& vector, Size want) {
        INFO(name);
        CHECK(added(braced) == want);
        CHECK(added(vector) == want);
    };
    same("all_different", [](Store& s, const Vars& v) { s.post(propane::all_different({v[0], v[1] + 1, 2 * v[2]})); },
         [](Store& s, const Vars& v) { s.post(propane::all_different(V{v[0], v[1] + 1, 2 * v[2]})); }, {0, 1});
    same("count", [](Store& s, const Vars& v) { s.post(propane::count({v[0], v[1] + 1}, 1, Rel::le, v[3])); },
         [](Store& s, const Vars& v) { s.post(propane::count(V{v[0], v[1] + 1}, 1, Rel::le, v[3])); }, {0, 1});
    same("global_cardinality",
         [](Store& s, const Vars& v) { s.post(propane::global_cardinality({v[0], v[1] + 1}, {1, 2}, {v[2], v[3]})); },
         [](Store& s, const Vars& v) {
             s.post(propane::global_cardinality(V{v[0], v[1] + 1}, {1, 2}, V{v[2], v[3]}));
         },
         {0, 3});
    same("lex_less", [](Store& s, const Vars& v) { s.post(propane::lex_less({v[0], v[1] + 1}, {v[2], v[3]})); },
         [](Store& s, const Vars& v) { s.post(propane::lex_less(V{v[0], v[1] + 1}, V{v[2], v[3]})); }, {0, 1});
    same("increasing", [](Store& s, const Vars& v) { s.post(propane::increasing({v[0], v[1] + 1, v[2]})); },
         [](Store& s, const Vars& v) { s.post(propane::increasing(V{v[0], v[1] + 1, v[2]})); }, {0, 2});
    // Through the expression form, views and expressions that come to a
    // view stay views too.
    same("lex_lesseq, a range beside a braced list",
         [](Store& s, const Vars& v) { s.post(propane::lex_lesseq(Vars{v[0], v[1]}, {v[2], v[3] - 1})); },
         [](Store& s, const Vars& v) { s.post(propane::lex_lesseq(V{v[0], v[1]}, V{v[2], v[3] - 1})); }, {0, 1});
    same("all_different, expressions that are views",
         [](Store& s, const Vars& v) {
             s.post(propane::all_different({v[0] + v[1] - v[1], Expr(v[2]) * 3 + 1, v[3]}));
         },
         [](Store& s, const Vars& v) { s.post(propane::all_different(V{v[0], 3 * v[2] + 1, v[3]})); }, {0, 1});
}

TEST_CASE("expressions get one auxiliary variable each, none for a view") {
    using propane::abs;
    // x + y: one variable and its linear equality.
    CHECK(added([](Store& s, const Vars& v) { s.post(propane::all_different({v[0] + v[1], v[2]})); }) == Size{1, 2});
    // 2 * abs(x): abs's variable, read through the view 2 * a.
    CHECK(added([](Store& s, const Vars& v) { s.post(propane::all_different({2 * abs(v[0]), v[2]})); }) ==
          Size{1, 2});
    // abs(x) + 1: abs's variable again, through the view a + 1.
    CHECK(added([](Store& s, const Vars& v) { s.post(propane::increasing({abs(v[0]) + 1, v[2]})); }) == Size{1, 2});
    // x * y and x + y + z: two variables, times and a linear equality.
    CHECK(added([](Store& s, const Vars& v) {
              s.post(propane::count({v[0] * v[1], v[0] + v[1] + v[2]}, 0, Rel::eq, v[3]));
          }) == Size{2, 3});
    // c as an expression too.
    CHECK(added([](Store& s, const Vars& v) { s.post(propane::count({v[0], v[1]}, 0, Rel::eq, v[2] + v[3])); }) ==
          Size{1, 2});
}

TEST_CASE("expression arguments: model errors name the constraint") {
    Store s, other;
    const IntVar x = s.int_var(0, 3), y = s.int_var(0, 3);
    const IntVar foreign = other.int_var(0, 3);
    CHECK_THROWS_WITH_AS(s.post(propane::all_different({x + y, foreign + y})),
                         doctest::Contains("all_different: variable handle"), propane::model_error);
    CHECK_THROWS_WITH_AS(s.post(propane::count({x + y, y}, 1, Rel::eq, foreign + x)), doctest::Contains("count:"),
                         propane::model_error);
    CHECK_THROWS_WITH_AS(propane::lex_less({x + y, y}, {x}), doctest::Contains("lex_less: xs has 2 views, ys 1"),
                         propane::model_error);
    CHECK_THROWS_WITH_AS(propane::global_cardinality({x + y, y}, {1, 2}, {x}),
                         doctest::Contains("global_cardinality: 2 values but 1 counts"), propane::model_error);
    CHECK_THROWS_WITH_AS(propane::count({x + y, y}, std::int64_t{1} << 40, Rel::eq, 1),
                         doctest::Contains("count: the value v is 1099511627776"), propane::model_error);
    CHECK_THROWS_WITH_AS(propane::all_different({x + y, y}, static_cast<propane::Consistency>(7)),
                         doctest::Contains("is not a propane::Consistency"), propane::model_error);
    // One term whose values leave int: no view, and no variable either.
    CHECK_THROWS_WITH_AS(s.post(propane::increasing({Expr(x) * 1000000000, y})),
                         doctest::Contains("beyond int"), propane::model_error);
}
