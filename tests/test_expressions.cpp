// Expressions and relations (propane/model/): every spelling posted on
// small random models, its solutions (propane::solve over the model's
// variables) compared with brute-force enumeration of the same meaning
// written as plain C++ on ints; which propagators and auxiliary variables
// each lowering adds; and the model errors.

#include <doctest/doctest.h>

#include <propane/engine/store.hpp>
#include <propane/model/define.hpp>
#include <propane/model/expr.hpp>
#include <propane/model/reified.hpp>
#include <propane/model/relation.hpp>
#include <propane/search/solve.hpp>

#include <array>
#include <concepts>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "brute_force.hpp"
#include "instances_search.hpp"

namespace {

using Store = propane::Store<propane::BitDomain<1>>;
using propane::IntVar;
using Values = std::vector<int>;
using Post = std::function<void(Store&, const std::vector<IntVar>&)>;
using Meaning = std::function<bool(const Values&)>;

// A model: n variables, the last `bools` of them over {0, 1} and the others
// over random ranges within -3 .. 4.
struct Case {
    const char* name;
    int n;
    int bools;
    Post post;
    Meaning meaning;
};

void check_case(const Case& c, unsigned seed, int trials = 12) {
    std::mt19937 rng(seed);
    for (int t = 0; t < trials; ++t) {
        const std::vector<std::array<int, 2>> ranges = brute::random_ranges(rng, c.n, c.bools, -3, 4);
        Store s;
        std::vector<IntVar> xs;
        for (const auto& r : ranges) xs.push_back(s.int_var(r[0], r[1]));
        c.post(s, xs);
        const std::set<Values> got = brute::searched(s, xs), want = brute::solutions(ranges, c.meaning);
        INFO(c.name, " trial ", t);
        CHECK(got == want);
    }
}

std::vector<Case> cases() {
    using propane::abs;
    using propane::max;
    using propane::min;
    using propane::sum;
    return {
        {"x + y <= z", 3, 0, [](Store& s, const auto& v) { s.post(v[0] + v[1] <= v[2]); },
         [](const Values& x) { return x[0] + x[1] <= x[2]; }},
        {"2x - 3y + 4 != z - 1", 3, 0, [](Store& s, const auto& v) { s.post(2 * v[0] - 3 * v[1] + 4 != v[2] - 1); },
         [](const Values& x) { return 2 * x[0] - 3 * x[1] + 4 != x[2] - 1; }},
        {"sum(xs) == 2", 4, 0, [](Store& s, const auto& v) { s.post(sum(v) == 2); },
         [](const Values& x) { return x[0] + x[1] + x[2] + x[3] == 2; }},
        {"sum({3, 5, 7}, xs) <= cap", 4, 0,
         [](Store& s, const auto& v) {
             s.post(sum(std::vector<int>{3, 5, 7}, std::vector<IntVar>{v[0], v[1], v[2]}) <= v[3]);
         },
         [](const Values& x) { return 3 * x[0] + 5 * x[1] + 7 * x[2] <= x[3]; }},
        {"sum(long weights) >= c", 3, 0,
         [](Store& s, const auto& v) { s.post(sum(std::vector<long>{-2, 3, 1}, v) >= 1); },
         [](const Values& x) { return -2 * x[0] + 3 * x[1] + x[2] >= 1; }},
        {"sum(array<short>, views) == view", 3, 0,
         [](Store& s, const auto& v) {
             const std::array<short, 2> w{4, -1};
             s.post(sum(w, std::vector<propane::AffineView>{v[0] + 1, 2 * v[1] - 3}) == v[2]);
         },
         [](const Values& x) { return 4 * (x[0] + 1) - (2 * x[1] - 3) == x[2]; }},
        {"sum(unsigned char weights) < c", 2, 0,
         [](Store& s, const auto& v) { s.post(sum(std::vector<unsigned char>{2, 1}, v) < 3); },
         [](const Values& x) { return 2 * x[0] + x[1] < 3; }},
        {"x != y", 2, 0, [](Store& s, const auto& v) { s.post(v[0] != v[1]); },
         [](const Values& x) { return x[0] != x[1]; }},
        {"x == y + 1", 2, 0, [](Store& s, const auto& v) { s.post(v[0] == v[1] + 1); },
         [](const Values& x) { return x[0] == x[1] + 1; }},
        {"x < y", 2, 0, [](Store& s, const auto& v) { s.post(v[0] < v[1]); },
         [](const Values& x) { return x[0] < x[1]; }},
        {"2x == -3y + 1", 2, 0, [](Store& s, const auto& v) { s.post(2 * v[0] == -3 * v[1] + 1); },
         [](const Values& x) { return 2 * x[0] == -3 * x[1] + 1; }},
        {"x + y == 1", 2, 0, [](Store& s, const auto& v) { s.post(v[0] + v[1] == 1); },
         [](const Values& x) { return x[0] + x[1] == 1; }},
        {"-x - y >= -2", 2, 0, [](Store& s, const auto& v) { s.post(-v[0] - v[1] >= -2); },
         [](const Values& x) { return -x[0] - x[1] >= -2; }},
        {"3 <= x + y (constant left)", 2, 0, [](Store& s, const auto& v) { s.post(3 <= v[0] + v[1]); },
         [](const Values& x) { return 3 <= x[0] + x[1]; }},
        {"x > 2 (one view)", 1, 0, [](Store& s, const auto& v) { s.post(v[0] > 2); },
         [](const Values& x) { return x[0] > 2; }},
        {"2 * x - 1 >= 4 (rounded bound)", 1, 0, [](Store& s, const auto& v) { s.post(2 * v[0] - 1 >= 4); },
         [](const Values& x) { return 2 * x[0] - 1 >= 4; }},
        {"-3x < 2", 1, 0, [](Store& s, const auto& v) { s.post(-3 * v[0] < 2); },
         [](const Values& x) { return -3 * x[0] < 2; }},
        {"2x != 3 (never equal)", 1, 0, [](Store& s, const auto& v) { s.post(v[0] + v[0] != 3); },
         [](const Values&) { return true; }},
        {"x + x == 4 (merged)", 1, 0, [](Store& s, const auto& v) { s.post(v[0] + v[0] == 4); },
         [](const Values& x) { return 2 * x[0] == 4; }},
        {"x - x + y >= 1 (cancelled)", 2, 0, [](Store& s, const auto& v) { s.post(v[0] - v[0] + v[1] >= 1); },
         [](const Values& x) { return x[1] >= 1; }},
        {"x - x == 1 (constant, false)", 2, 0, [](Store& s, const auto& v) { s.post(v[0] - v[0] == 1); },
         [](const Values&) { return false; }},
        {"x - x <= 0 (constant, true)", 2, 0, [](Store& s, const auto& v) { s.post(v[0] - v[0] <= 0); },
         [](const Values&) { return true; }},
        {"(x + 1) + (2y - 3) <= 3 - z (views)", 3, 0,
         [](Store& s, const auto& v) { s.post((v[0] + 1) + (2 * v[1] - 3) <= 3 - v[2]); },
         [](const Values& x) { return (x[0] + 1) + (2 * x[1] - 3) <= 3 - x[2]; }},
        {"5 == x + y + z", 3, 0, [](Store& s, const auto& v) { s.post(5 == v[0] + v[1] + v[2]); },
         [](const Values& x) { return 5 == x[0] + x[1] + x[2]; }},
        {"x - y + z - w != 0", 4, 0, [](Store& s, const auto& v) { s.post(v[0] - v[1] + v[2] - v[3] != 0); },
         [](const Values& x) { return x[0] - x[1] + x[2] - x[3] != 0; }},
        {"b == (x + y <= z)", 4, 1, [](Store& s, const auto& v) { s.post(v[3] == (v[0] + v[1] <= v[2])); },
         [](const Values& x) { return x[3] == (x[0] + x[1] <= x[2] ? 1 : 0); }},
        {"b >> (x != y)", 3, 1, [](Store& s, const auto& v) { s.post(v[2] >> (v[0] != v[1])); },
         [](const Values& x) { return x[2] == 0 || x[0] != x[1]; }},
        {"b == (x != y)", 3, 1, [](Store& s, const auto& v) { s.post(v[2] == (v[0] != v[1])); },
         [](const Values& x) { return x[2] == (x[0] != x[1] ? 1 : 0); }},
        {"(x - y == 2) == b", 3, 1, [](Store& s, const auto& v) { s.post((v[0] - v[1] == 2) == v[2]); },
         [](const Values& x) { return x[2] == (x[0] - x[1] == 2 ? 1 : 0); }},
        {"1 - b == (x < 2)", 2, 1, [](Store& s, const auto& v) { s.post(1 - v[1] == (v[0] < 2)); },
         [](const Values& x) { return 1 - x[1] == (x[0] < 2 ? 1 : 0); }},
        {"b == (2x == 3) (never)", 2, 1, [](Store& s, const auto& v) { s.post(v[1] == (2 * v[0] == 3)); },
         [](const Values& x) { return x[1] == 0; }},
        {"b == (x - x == 0) (always)", 2, 1, [](Store& s, const auto& v) { s.post(v[1] == (v[0] - v[0] == 0)); },
         [](const Values& x) { return x[1] == 1; }},
        {"b >> (x - x == 1) (never)", 2, 1, [](Store& s, const auto& v) { s.post(v[1] >> (v[0] - v[0] == 1)); },
         [](const Values& x) { return x[1] == 0; }},
        {"b >> (x - x == 0) (always)", 2, 1, [](Store& s, const auto& v) { s.post(v[1] >> (v[0] - v[0] == 0)); },
         [](const Values&) { return true; }},
        {"b >> (x >= 2) (one view)", 2, 1, [](Store& s, const auto& v) { s.post(v[1] >> (v[0] >= 2)); },
         [](const Values& x) { return x[1] == 0 || x[0] >= 2; }},
        {"b >> (2x + 3y - z >= 1)", 4, 1, [](Store& s, const auto& v) { s.post(v[3] >> (2 * v[0] + 3 * v[1] - v[2] >= 1)); },
         [](const Values& x) { return x[3] == 0 || 2 * x[0] + 3 * x[1] - x[2] >= 1; }},
        {"b == (x + y + z != 1)", 4, 1, [](Store& s, const auto& v) { s.post(v[3] == (v[0] + v[1] + v[2] != 1)); },
         [](const Values& x) { return x[3] == (x[0] + x[1] + x[2] != 1 ? 1 : 0); }},
        {"b == (abs(x) > y) (aux)", 3, 1, [](Store& s, const auto& v) { s.post(v[2] == (abs(v[0]) > v[1])); },
         [](const Values& x) { return x[2] == (std::abs(x[0]) > x[1] ? 1 : 0); }},
        {"abs(x - y) >= 2", 2, 0, [](Store& s, const auto& v) { s.post(abs(v[0] - v[1]) >= 2); },
         [](const Values& x) { return std::abs(x[0] - x[1]) >= 2; }},
        {"int_var(abs(x - y)) == z", 3, 0, [](Store& s, const auto& v) { s.post(s.int_var(abs(v[0] - v[1])) == v[2]); },
         [](const Values& x) { return std::abs(x[0] - x[1]) == x[2]; }},
        {"int_var(max(xs)) == w", 4, 0,
         [](Store& s, const auto& v) {
             s.post(s.int_var(max(std::vector<IntVar>{v[0], v[1], v[2]})) == v[3]);
         },
         [](const Values& x) { return std::max({x[0], x[1], x[2]}) == x[3]; }},
        {"min(xs) + 1 >= w", 4, 0,
         [](Store& s, const auto& v) { s.post(min(std::vector<IntVar>{v[0], v[1], v[2]}) + 1 >= v[3]); },
         [](const Values& x) { return std::min({x[0], x[1], x[2]}) + 1 >= x[3]; }},
        {"min(x, y + 1) <= z", 3, 0, [](Store& s, const auto& v) { s.post(min(v[0], v[1] + 1) <= v[2]); },
         [](const Values& x) { return std::min(x[0], x[1] + 1) <= x[2]; }},
        {"max(x, 2y - z) == 1", 3, 0, [](Store& s, const auto& v) { s.post(max(v[0], 2 * v[1] - v[2]) == 1); },
         [](const Values& x) { return std::max(x[0], 2 * x[1] - x[2]) == 1; }},
        {"int_var(x * y) == z", 3, 0, [](Store& s, const auto& v) { s.post(s.int_var(v[0] * v[1]) == v[2]); },
         [](const Values& x) { return x[0] * x[1] == x[2]; }},
        {"x * x - y == 0", 2, 0, [](Store& s, const auto& v) { s.post(v[0] * v[0] - v[1] == 0); },
         [](const Values& x) { return x[0] * x[0] == x[1]; }},
        {"(x + 1) * (y - z) != 2", 3, 0, [](Store& s, const auto& v) { s.post((v[0] + 1) * (v[1] - v[2]) != 2); },
         [](const Values& x) { return (x[0] + 1) * (x[1] - x[2]) != 2; }},
        {"(x - x + 3) * y == z (constant factor)", 3, 0,
         [](Store& s, const auto& v) { s.post((v[0] - v[0] + 3) * v[1] == v[2]); },
         [](const Values& x) { return 3 * x[1] == x[2]; }},
        {"x / y == z", 3, 0, [](Store& s, const auto& v) { s.post(v[0] / v[1] == v[2]); },
         [](const Values& x) { return x[1] != 0 && x[0] / x[1] == x[2]; }},
        {"x % y == z", 3, 0, [](Store& s, const auto& v) { s.post(v[0] % v[1] == v[2]); },
         [](const Values& x) { return x[1] != 0 && x[0] % x[1] == x[2]; }},
        {"(x + y) / 2 >= z", 3, 0, [](Store& s, const auto& v) { s.post((v[0] + v[1]) / 2 >= v[2]); },
         [](const Values& x) { return (x[0] + x[1]) / 2 >= x[2]; }},
        {"int_var(x + y) == z", 3, 0, [](Store& s, const auto& v) { s.post(s.int_var(v[0] + v[1]) == v[2]); },
         [](const Values& x) { return x[0] + x[1] == x[2]; }},
        {"int_var(2x - y + 1) < z", 3, 0, [](Store& s, const auto& v) { s.post(s.int_var(2 * v[0] - v[1] + 1) < v[2]); },
         [](const Values& x) { return 2 * x[0] - x[1] + 1 < x[2]; }},
    };
}

// Counts what a post adds to a store.
struct Added {
    int props;
    int vars;
};

template <class Post>
Added added(Post&& post) {
    Store s;
    const IntVar x = s.int_var(-3, 4), y = s.int_var(-1, 1), z = s.int_var(0, 4), b = s.bool_var();
    (void)b;
    const int p0 = s.num_propagators(), v0 = s.num_vars();
    post(s, x, y, z, b);
    return {s.num_propagators() - p0, s.num_vars() - v0};
}

} // namespace

TEST_CASE("expressions: every spelling has the solutions of its meaning") {
    unsigned seed = 1;
    for (const Case& c : cases()) check_case(c, seed++);
}

TEST_CASE("expressions: each relation posts the propagator it should") {
    const auto check = [](Added a, int props, int vars) {
        CHECK(a.props == props);
        CHECK(a.vars == vars);
    };
    check(added([](Store& s, IntVar x, IntVar y, IntVar, IntVar) { s.post(x != y); }), 1, 0);
    check(added([](Store& s, IntVar x, IntVar y, IntVar z, IntVar) { s.post(x + y <= z); }), 1, 0);
    check(added([](Store& s, IntVar x, IntVar y, IntVar, IntVar) { s.post(x == y + 1); }), 1, 0);
    check(added([](Store& s, IntVar x, IntVar, IntVar, IntVar) { s.post(x <= 3); }), 0, 0);
    check(added([](Store& s, IntVar x, IntVar y, IntVar z, IntVar) { s.post(2 * x - 3 * y + 4 != z - 1); }), 1, 0);
    check(added([](Store& s, IntVar x, IntVar y, IntVar z, IntVar b) { s.post(b == (x + y <= z)); }), 1, 0);
    check(added([](Store& s, IntVar x, IntVar y, IntVar, IntVar b) { s.post(b >> (x != y)); }), 1, 0);
    check(added([](Store& s, IntVar x, IntVar, IntVar, IntVar) { s.post(x - x == 0); }), 0, 0);
    // x - y gets a variable and a unit sum, |x - y| a variable and abs.
    check(added([](Store& s, IntVar x, IntVar y, IntVar, IntVar) { s.post(propane::abs(x - y) >= 2); }), 2, 2);
    check(added([](Store& s, IntVar x, IntVar y, IntVar, IntVar) { (void)s.int_var(x * y); }), 1, 1);
    check(added([](Store& s, IntVar x, IntVar y, IntVar, IntVar) { (void)s.int_var(x + y); }), 1, 1);

    Store s;
    const IntVar x = s.int_var(-3, 4), y = s.int_var(-1, 1);
    s.post(x <= 3);
    CHECK(s.domain(x).max() == 3);
    // The tightest domains the operands allow.
    const IntVar d = s.int_var(propane::abs(x - y));
    CHECK(s.domain(d).min() == 0);
    CHECK(s.domain(d).max() == 4);
    const IntVar p = s.int_var(x * y);
    CHECK(s.domain(p).min() == -3);
    CHECK(s.domain(p).max() == 3);
    const IntVar q = s.int_var(x * x);
    CHECK(s.domain(q).min() == 0);
    CHECK(s.domain(q).max() == 9);
    const IntVar m = s.int_var(propane::max(std::vector<IntVar>{x, y}));
    CHECK(s.domain(m).min() == -1);
    CHECK(s.domain(m).max() == 3);
}

TEST_CASE("expressions: linear operands make a LinearExpr and a LinearRel, which post as the Expr would") {
    using propane::Expr;
    using propane::ExprRel;
    using propane::LinearExpr;
    using propane::LinearRel;
    Store s;
    const IntVar x = s.int_var(0, 3), y = s.int_var(0, 3);
    const std::vector<IntVar> xs{x, y};
    const Expr e = x;
    static_assert(std::derived_from<decltype(x + y), LinearExpr>);
    static_assert(std::derived_from<decltype(2 * (x - y) + 1), LinearExpr>);
    static_assert(std::derived_from<decltype(-(x + y)), LinearExpr>);
    static_assert(std::is_same_v<decltype(propane::sum(xs)), LinearExpr>);
    static_assert(std::is_same_v<decltype(propane::sum(std::vector<int>{1, 2}, xs)), LinearExpr>);
    static_assert(std::is_same_v<decltype(x * y), Expr>);
    static_assert(std::is_same_v<decltype((x + y) * (x + y)), Expr>);
    static_assert(std::is_same_v<decltype(propane::abs(x) + y), Expr>);
    static_assert(std::is_same_v<decltype(e + y), Expr>);
    static_assert(std::is_same_v<decltype(propane::sum(std::vector<Expr>{x})), Expr>);
    static_assert(std::derived_from<decltype(x + y <= 3), LinearRel>);
    static_assert(std::derived_from<decltype(x < y), LinearRel>);
    static_assert(std::is_same_v<decltype(e + y <= 3), ExprRel>);
    static_assert(std::is_same_v<decltype(x * y <= 3), ExprRel>);

    // Random linear relations, each posted as the LinearRel its operators
    // make and as the ExprRel it converts to, against brute force.
    std::mt19937 rng(9127);
    const auto coef = [&] { // -3..3 without 0: the views refuse 0 * x
        const int c = static_cast<int>(rng() % 6) - 3;
        return c >= 0 ? c + 1 : c;
    };
    for (int t = 0; t < 300; ++t) {
        const std::vector<std::array<int, 2>> ranges = brute::random_ranges(rng, 3, 0, -3, 4);
        const int a = coef(), b = coef(), c = coef(), k = coef();
        const auto r = static_cast<propane::Rel>(rng() % 6);
        const auto build = [&](const std::vector<IntVar>& v) { return a * v[0] + b * v[1] - (c * v[2] + k); };
        const auto relation = [&](const std::vector<IntVar>& v) -> LinearRel {
            switch (r) {
            case propane::Rel::eq: return build(v) == 0;
            case propane::Rel::ne: return build(v) != 0;
            case propane::Rel::lt: return build(v) < 0;
            case propane::Rel::le: return build(v) <= 0;
            case propane::Rel::gt: return build(v) > 0;
            case propane::Rel::ge: return build(v) >= 0;
            }
            return build(v) == 0;
        };
        const std::set<Values> want = brute::solutions(ranges, [&](const Values& v) {
            return propane::detail::holds(r, std::int64_t{a} * v[0] + b * v[1] - c * v[2] - k, 0);
        });
        Store linear, general;
        std::vector<IntVar> lv, gv;
        for (const auto& rg : ranges) {
            lv.push_back(linear.int_var(rg[0], rg[1]));
            gv.push_back(general.int_var(rg[0], rg[1]));
        }
        linear.post(relation(lv));
        general.post(ExprRel(relation(gv)));
        INFO("trial ", t, ": ", a, "*x + ", b, "*y - (", c, "*z + ", k, ") ", propane::to_string(r), " 0");
        CHECK(linear.num_propagators() == general.num_propagators());
        CHECK(brute::searched(linear, lv) == want);
        CHECK(brute::searched(general, gv) == want);
    }
}

TEST_CASE("expressions: a LinearExpr never holds a node") {
    using propane::Expr;
    using propane::LinearExpr;
    Store s;
    const IntVar x = s.int_var(0, 3), y = s.int_var(0, 3);
    CHECK_THROWS_WITH_AS(LinearExpr(propane::abs(x) + y), doctest::Contains("is not linear"), propane::model_error);
    CHECK(LinearExpr(Expr(x) + 2 * y).terms().size() == 2);
    // Through a reference to its Expr a node can still be added: a relation
    // over it refuses it, made by an operator or by hand, and posting
    // leaves the store as it was.
    LinearExpr l = x + y;
    static_cast<Expr&>(l) += propane::abs(x);
    const int props = s.num_propagators(), vars = s.num_vars();
    CHECK_THROWS_WITH_AS((void)(l <= 3), doctest::Contains("is not linear"), propane::model_error);
    CHECK_THROWS_WITH_AS(s.post(propane::LinearRel(l, propane::Rel::le)), doctest::Contains("holds a non-linear term"),
                         propane::model_error);
    CHECK(s.num_propagators() == props);
    CHECK(s.num_vars() == vars);
}

TEST_CASE("expressions: an expression added to itself doubles, nodes included") {
    Store s;
    const IntVar x = s.int_var(0, 3), y = s.int_var(0, 3);
    propane::Expr e = 2 * x + y + propane::abs(x - y) + 1;
    e += e;
    CHECK(e.terms().size() == 4);
    CHECK(e.parts().size() == 2);
    CHECK(e.constant() == 2);
    const propane::Expr n = e.normal();
    REQUIRE(n.terms().size() == 2);
    CHECK(n.terms()[0].a == 4);
    CHECK(n.terms()[1].a == 2);
    // Posted, the doubled relation has the solutions of the plain one.
    const IntVar z = s.int_var(0, 40);
    s.post(e == z);
    std::set<Values> got;
    for (const Values& v : brute::searched(s, std::vector<IntVar>{x, y, z})) got.insert(v);
    std::set<Values> want;
    for (int a = 0; a <= 3; ++a)
        for (int b = 0; b <= 3; ++b) want.insert({a, b, 2 * (2 * a + b + std::abs(a - b) + 1)});
    CHECK(got == want);
}

TEST_CASE("expressions: handles compare with same(), not ==") {
    Store s;
    const IntVar x = s.int_var(0, 3), y = s.int_var(0, 3);
    CHECK(x.same(x));
    CHECK(!x.same(y));
    Store t = s;
    const IntVar z = t.int_var(0, 3);
    CHECK(!z.same(x));
}

TEST_CASE("expressions: overflow and non-Boolean reification are model errors") {
    constexpr std::int64_t big = std::numeric_limits<std::int64_t>::max();
    Store s;
    const IntVar x = s.int_var(-3, 4), y = s.int_var(-3, 4), z = s.int_var(-3, 4);
    CHECK_THROWS_AS(propane::sum(std::vector<std::int64_t>{big, 1}, std::vector<IntVar>{x, y}) * 2,
                    propane::model_error);
    CHECK_THROWS_AS(propane::sum(std::vector<std::int64_t>{big, 1}, std::vector<IntVar>{x, y}) + 1 + big,
                    propane::model_error);
    CHECK_THROWS_AS(s.post(propane::sum(std::vector<std::int64_t>{big, big}, std::vector<IntVar>{x, x}) == 0),
                    propane::model_error);
    CHECK_THROWS_AS(propane::sum(std::vector<std::uint64_t>{std::uint64_t{1} << 63}, std::vector<IntVar>{x}),
                    propane::model_error);
    CHECK_THROWS_AS(propane::sum(std::vector<int>{1, 2}, std::vector<IntVar>{x}), propane::model_error);
    // Within 64 bits, but beyond what linear() accepts.
    CHECK_THROWS_AS(s.post(propane::sum(std::vector<std::int64_t>{big / 2, 1, 1}, std::vector<IntVar>{x, y, z}) <= 0),
                    propane::model_error);
    CHECK_THROWS_AS(s.post(z == (x < y)), propane::model_error);
    CHECK_THROWS_AS(s.post(z >> (x < y)), propane::model_error);
    {
        // A divisor that can only be 0 is no misuse: the model has no
        // solution, as div's own post says (constraints/div_mod.hpp).
        Store t;
        const IntVar a = t.int_var(-3, 4), b = t.int_var(-3, 4), c = t.int_var(-3, 4);
        CHECK_NOTHROW(t.post(a / (b - b) == c));
        CHECK_NOTHROW(t.post(a % (b - b) == c));
        CHECK_FALSE(t.propagate());
    }
    // An auxiliary variable beyond the store's domain width names the
    // expression.
    const IntVar w = s.int_var(-10, 10);
    try {
        (void)s.int_var(w * w);
        FAIL("w * w fits a one-word domain");
    } catch (const propane::model_error& e) {
        const std::string v = "v" + std::to_string(w.index());
        CHECK(std::string(e.what()).find("(" + v + ") * (" + v + ")") != std::string::npos);
    }
}

TEST_CASE("expressions: an auxiliary variable inside a level is a model error, and nothing is left behind") {
    Store s;
    const IntVar x = s.int_var(-3, 4), y = s.int_var(-3, 4), z = s.int_var(-3, 4);
    s.push_level();
    const int vars = s.num_vars();
    CHECK_THROWS_WITH_AS(s.post(propane::abs(x - y) >= 2), doctest::Contains("level 0"), propane::model_error);
    CHECK_THROWS_AS((void)s.int_var(x * y), propane::model_error);
    CHECK(s.num_vars() == vars);
    // A linear one needs no new variable: it posts, and goes with the level.
    s.post(x + y <= z);
    s.pop_level();
    // Back at level 0 the same post works, and the search counts what the
    // constraint allows over x, y and z only: no variable left over from
    // the level multiplies the solutions.
    s.post(propane::abs(x - y) >= 6);
    long n = 0, wrong = 0;
    propane::solve(s, [&](const auto& sol) {
        ++n;
        wrong += std::abs(sol.value(x) - sol.value(y)) < 6;
    });
    long expect = 0;
    for (int a = -3; a <= 4; ++a)
        for (int b = -3; b <= 4; ++b) expect += std::abs(a - b) >= 6 ? 8 : 0;
    CHECK(n == expect);
    CHECK(wrong == 0);
}
