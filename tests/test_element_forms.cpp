// The call forms of element beyond views and an array (element.hpp,
// element2d.hpp, model/expr.hpp's at, model/define.hpp's element over
// expressions): each spelling posted on small random models, its solutions
// (propane::solve over the model's variables) compared with an enumeration
// of the same meaning written as plain C++ on ints; what each posts
// (propagators, auxiliary variables); and the model errors.
//
// An index outside the array has no entry: at(xs, i) then has no value,
// so a model using it has no solution there, whatever surrounds it (a
// reified relation included), as element(xs, i, y) has none.

#include <doctest/doctest.h>

#include <propane/constraints/element.hpp>
#include <propane/constraints/element2d.hpp>
#include <propane/engine/store.hpp>
#include <propane/model/define.hpp>
#include <propane/model/expr.hpp>
#include <propane/model/reified.hpp>
#include <propane/model/relation.hpp>
#include <propane/search/solve.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "brute_force.hpp"
#include "instances_search.hpp"

namespace {

using Store = propane::Store<propane::BitDomain<1>>;
using propane::Expr;
using propane::IntVar;
using Values = std::vector<int>;
using Post = std::function<void(Store&, const std::vector<IntVar>&)>;
using Meaning = std::function<bool(const Values&)>;

// A model: n variables, the last `bools` over {0, 1}, the others over
// random ranges within -2 .. 4 (an index then goes past either end of the
// arrays below, which have 3 or 4 entries).
struct Case {
    const char* name;
    int n;
    int bools;
    Post post;
    Meaning meaning;
    bool satisfiable = true; // some trial must have a solution
};

std::size_t u(int i) { return static_cast<std::size_t>(i); }

void check_case(const Case& c, unsigned seed, int trials = 16) {
    std::mt19937 rng(seed);
    std::size_t found = 0;
    for (int t = 0; t < trials; ++t) {
        const std::vector<std::array<int, 2>> ranges = brute::random_ranges(rng, c.n, c.bools, -2, 4);
        Store s;
        std::vector<IntVar> xs;
        for (const auto& r : ranges) xs.push_back(s.int_var(r[0], r[1]));
        c.post(s, xs);
        const std::set<Values> got = brute::searched(s, xs), want = brute::solutions(ranges, c.meaning);
        INFO(c.name, " trial ", t);
        CHECK(got == want);
        found += want.size();
    }
    // The random ranges must leave some solutions, or the case tests
    // nothing but failure (unless that is the point).
    INFO(c.name);
    CHECK((found > 0) == c.satisfiable);
}

const std::vector<int> table{3, -1, 2, 0};
const std::vector<std::vector<int>> matrix{{1, 0, 2}, {-1, 3, 1}, {2, 2, 0}};

bool in(int k, std::size_t n) { return k >= 0 && static_cast<std::size_t>(k) < n; }

// x[0..2] as xs, then the others.
std::vector<IntVar> first3(const std::vector<IntVar>& v) { return {v[0], v[1], v[2]}; }

std::vector<Case> at_cases() {
    using propane::at;
    return {
        {"at(xs, i) + y <= 5", 5, 0, [](Store& s, const auto& v) { s.post(at(first3(v), v[3]) + v[4] <= 5); },
         [](const Values& x) { return in(x[3], 3) && x[u(x[3])] + x[4] <= 5; }},
        {"at(table, i) + y <= 5", 2, 0, [](Store& s, const auto& v) { s.post(at(table, v[0]) + v[1] <= 5); },
         [](const Values& x) { return in(x[0], 4) && table[u(x[0])] + x[1] <= 5; }},
        {"at({3, -1, 2, 0}, i) != y (braced numbers)", 2, 0,
         [](Store& s, const auto& v) { s.post(at({3, -1, 2, 0}, v[0]) != v[1]); },
         [](const Values& x) { return in(x[0], 4) && table[u(x[0])] != x[1]; }},
        {"at(std::vector<long>, i) == 2 * y", 2, 0,
         [](Store& s, const auto& v) { s.post(at(std::vector<long>{3, -1, 2, 0}, v[0]) == 2 * v[1]); },
         [](const Values& x) { return in(x[0], 4) && table[u(x[0])] == 2 * x[1]; }},
        {"int_var(at(xs, i)) != 1", 4, 0,
         [](Store& s, const auto& v) {
             const IntVar a = s.int_var(at(first3(v), v[3]));
             s.post(a != 1);
         },
         [](const Values& x) { return in(x[3], 3) && x[u(x[3])] != 1; }},
        {"int_var(at(table, i)) >= 1", 1, 0,
         [](Store& s, const auto& v) {
             const IntVar a = s.int_var(at(table, v[0]));
             s.post(a >= 1);
         },
         [](const Values& x) { return in(x[0], 4) && table[u(x[0])] >= 1; }},
        {"b == (at(xs, i) == 3)", 5, 1, [](Store& s, const auto& v) { s.post(v[4] == (at(first3(v), v[3]) == 3)); },
         [](const Values& x) { return in(x[3], 3) && x[4] == (x[u(x[3])] == 3 ? 1 : 0); }},
        {"b >> (at(table, i) != 2)", 2, 1, [](Store& s, const auto& v) { s.post(v[1] >> (at(table, v[0]) != 2)); },
         [](const Values& x) { return in(x[0], 4) && (x[1] == 0 || table[u(x[0])] != 2); }},
        {"at(xs, i - 1) == y (an expression index)", 5, 0,
         [](Store& s, const auto& v) { s.post(at(first3(v), v[3] - 1) == v[4]); },
         [](const Values& x) { return in(x[3] - 1, 3) && x[u(x[3] - 1)] == x[4]; }},
        {"at({x0, x1 + 1, 2 * x2}, x3 + x4) <= 2 (mixed views, a sum index)", 5, 0,
         [](Store& s, const auto& v) { s.post(at({v[0], v[1] + 1, 2 * v[2]}, v[3] + v[4]) <= 2); },
         [](const Values& x) {
             const int k = x[3] + x[4];
             const int e[] = {x[0], x[1] + 1, 2 * x[2]};
             return in(k, 3) && e[u(k)] <= 2;
         }},
        {"at({x0 + x1, abs(x2), 1}, i) >= 2 (expression entries)", 4, 0,
         [](Store& s, const auto& v) {
             const std::vector<Expr> e{v[0] + v[1], propane::abs(v[2]), Expr::constant(1)};
             s.post(at(e, v[3]) >= 2);
         },
         [](const Values& x) {
             const int e[] = {x[0] + x[1], std::abs(x[2]), 1};
             return in(x[3], 3) && e[u(x[3])] >= 2;
         }},
        {"at(xs, at(table, i)) == y (nested)", 5, 0,
         [](Store& s, const auto& v) { s.post(at(first3(v), at(table, v[3])) == v[4]); },
         [](const Values& x) { return in(x[3], 4) && in(table[u(x[3])], 3) && x[u(table[u(x[3])])] == x[4]; }},
        {"at(xs, i) * at(table, j) == 2 (two nodes)", 5, 0,
         [](Store& s, const auto& v) { s.post(at(first3(v), v[3]) * at(table, v[4]) == 2); },
         [](const Values& x) { return in(x[3], 3) && in(x[4], 4) && x[u(x[3])] * table[u(x[4])] == 2; }},
        {"at({i, x1, x2}, i) == 1 (the index among the entries)", 3, 0,
         [](Store& s, const auto& v) { s.post(at({v[0], v[1], v[2]}, v[0]) == 1); },
         [](const Values& x) { return in(x[0], 3) && x[u(x[0])] == 1; }},
    };
}

std::vector<Case> constant_cases() {
    using propane::element;
    return {
        {"element(table, i, 2)", 1, 0, [](Store& s, const auto& v) { s.post(element(table, v[0], 2)); },
         [](const Values& x) { return in(x[0], 4) && table[u(x[0])] == 2; }},
        {"element({3, -1, 2, 0}, i + 1, -1L)", 1, 0,
         [](Store& s, const auto& v) { s.post(element({3, -1, 2, 0}, v[0] + 1, -1L)); },
         [](const Values& x) { return in(x[0] + 1, 4) && table[u(x[0] + 1)] == -1; }},
        {"element(table, i, 7) (no entry)", 1, 0, [](Store& s, const auto& v) { s.post(element(table, v[0], 7)); },
         [](const Values&) { return false; }, false},
        {"element(xs, i, 2)", 4, 0, [](Store& s, const auto& v) { s.post(element(first3(v), v[3], 2)); },
         [](const Values& x) { return in(x[3], 3) && x[u(x[3])] == 2; }},
        {"element({x0, x1 + 1, 2 * x2}, i, 2u)", 4, 0,
         [](Store& s, const auto& v) { s.post(element({v[0], v[1] + 1, 2 * v[2]}, v[3], 2u)); },
         [](const Values& x) {
             const int e[] = {x[0], x[1] + 1, 2 * x[2]};
             return in(x[3], 3) && e[u(x[3])] == 2;
         }},
        {"element({i, x1, x2}, i, 1) (shared)", 3, 0,
         [](Store& s, const auto& v) { s.post(element({v[0], v[1], v[2]}, v[0], 1)); },
         [](const Values& x) { return in(x[0], 3) && x[u(x[0])] == 1; }},
        {"element(table, std::size_t{2}, y)", 1, 0,
         [](Store& s, const auto& v) { s.post(element(table, std::size_t{2}, v[0])); },
         [](const Values& x) { return x[0] == table[2]; }},
        {"element(table, 4, y) (past the end)", 1, 0, [](Store& s, const auto& v) { s.post(element(table, 4, v[0])); },
         [](const Values&) { return false; }, false},
        {"element(xs, 1, y)", 4, 0, [](Store& s, const auto& v) { s.post(element(first3(v), 1, v[3])); },
         [](const Values& x) { return x[1] == x[3]; }},
        {"element(xs, 2, 3)", 3, 0, [](Store& s, const auto& v) { s.post(element(first3(v), 2, 3)); },
         [](const Values& x) { return x[2] == 3; }},
        {"element(xs, -1, y) (before the start)", 4, 0,
         [](Store& s, const auto& v) { s.post(element(first3(v), -1, v[3])); }, [](const Values&) { return false; }, false},
        {"element(table, 0, 3) (true)", 1, 0,
         [](Store& s, const auto& v) {
             s.post(element(table, 0, 3));
             s.post(v[0] >= 0);
         },
         [](const Values& x) { return x[0] >= 0; }},
        {"element(table, 1, 3) (false)", 1, 0, [](Store& s, const auto&) { s.post(element(table, 1, 3)); },
         [](const Values&) { return false; }, false},
    };
}

std::vector<Case> matrix_cases() {
    using propane::element;
    const auto cell = [](int i, int j) { return in(i, 3) && in(j, 3); };
    return {
        {"element(matrix, i, j, r)", 3, 0, [](Store& s, const auto& v) { s.post(element(matrix, v[0], v[1], v[2])); },
         [cell](const Values& x) { return cell(x[0], x[1]) && matrix[u(x[0])][u(x[1])] == x[2]; }},
        {"element({{...}}, i + 1, 2 * j, r - 1) (braced, views)", 3, 0,
         [](Store& s, const auto& v) {
             s.post(element({{1, 0, 2}, {-1, 3, 1}, {2, 2, 0}}, v[0] + 1, 2 * v[1], v[2] - 1));
         },
         [cell](const Values& x) {
             return cell(x[0] + 1, 2 * x[1]) && matrix[u(x[0] + 1)][u(2 * x[1])] == x[2] - 1;
         }},
        {"element(matrix, i, j, 2)", 2, 0, [](Store& s, const auto& v) { s.post(element(matrix, v[0], v[1], 2)); },
         [cell](const Values& x) { return cell(x[0], x[1]) && matrix[u(x[0])][u(x[1])] == 2; }},
        {"element(vector<vector<short>>, i, j, r) (2 x 3)", 3, 0,
         [](Store& s, const auto& v) {
             s.post(element(std::vector<std::vector<short>>{{4, -2, 0}, {1, 1, 3}}, v[0], v[1], v[2]));
         },
         [](const Values& x) {
             const int m[2][3] = {{4, -2, 0}, {1, 1, 3}};
             return in(x[0], 2) && in(x[1], 3) && m[x[0]][x[1]] == x[2];
         }},
        {"element(matrix, i, i, r) (the diagonal)", 2, 0,
         [](Store& s, const auto& v) { s.post(element(matrix, v[0], v[0], v[1])); },
         [cell](const Values& x) { return cell(x[0], x[0]) && matrix[u(x[0])][u(x[0])] == x[1]; }},
        {"element(matrix, i, j, i) (r shares i)", 2, 0,
         [](Store& s, const auto& v) { s.post(element(matrix, v[0], v[1], v[0])); },
         [cell](const Values& x) { return cell(x[0], x[1]) && matrix[u(x[0])][u(x[1])] == x[0]; }},
        {"element(matrix, i, j, r) with at(xs, r) == 1", 6, 0,
         [](Store& s, const auto& v) {
             s.post(element(matrix, v[3], v[4], v[5]));
             s.post(propane::at(first3(v), v[5]) == 1);
         },
         [cell](const Values& x) {
             return cell(x[3], x[4]) && matrix[u(x[3])][u(x[4])] == x[5] && in(x[5], 3) && x[u(x[5])] == 1;
         }},
    };
}

std::vector<Case> expr_cases() {
    using propane::element;
    return {
        {"element({x0 + x1, x2}, i - 1, y + 1)", 5, 0,
         [](Store& s, const auto& v) { s.post(element({v[0] + v[1], v[2]}, v[3] - 1, v[4] + 1)); },
         [](const Values& x) {
             const int e[] = {x[0] + x[1], x[2]};
             return in(x[3] - 1, 2) && e[u(x[3] - 1)] == x[4] + 1;
         }},
        {"element({x0 + x1, x2}, i, 1)", 4, 0,
         [](Store& s, const auto& v) { s.post(element({v[0] + v[1], v[2]}, v[3], 1)); },
         [](const Values& x) {
             const int e[] = {x[0] + x[1], x[2]};
             return in(x[3], 2) && e[u(x[3])] == 1;
         }},
        {"element(table, i + j, y) (an expression index)", 3, 0,
         [](Store& s, const auto& v) { s.post(element(table, v[0] + v[1], v[2])); },
         [](const Values& x) { return in(x[0] + x[1], 4) && table[u(x[0] + x[1])] == x[2]; }},
        {"element({3, -1, 2, 0}, i + j, 2) (braced numbers)", 2, 0,
         [](Store& s, const auto& v) { s.post(element({3, -1, 2, 0}, v[0] + v[1], 2)); },
         [](const Values& x) { return in(x[0] + x[1], 4) && table[u(x[0] + x[1])] == 2; }},
        {"element(xs, i, y + z) (an expression result)", 6, 0,
         [](Store& s, const auto& v) { s.post(element(first3(v), v[3], v[4] + v[5])); },
         [](const Values& x) { return in(x[3], 3) && x[u(x[3])] == x[4] + x[5]; }},
        {"element(vector<Expr>, i, y)", 4, 0,
         [](Store& s, const auto& v) {
             const std::vector<Expr> e{v[0] - v[1], propane::max(v[1], v[2]), Expr::constant(2)};
             s.post(element(e, v[2], v[3]));
         },
         [](const Values& x) {
             const int e[] = {x[0] - x[1], std::max(x[1], x[2]), 2};
             return in(x[2], 3) && e[u(x[2])] == x[3];
         }},
        {"element(vector<Expr> of numbers, i, y)", 2, 0,
         [](Store& s, const auto& v) {
             std::vector<Expr> e;
             for (const int w : table) e.push_back(Expr::constant(w));
             s.post(element(e, v[0], v[1]));
         },
         [](const Values& x) { return in(x[0], 4) && table[u(x[0])] == x[1]; }},
    };
}

// The propagators and variables a post adds.
template <class F>
std::array<int, 2> added(Store& s, F&& post) {
    const int p0 = s.num_propagators(), v0 = s.num_vars();
    post();
    return {s.num_propagators() - p0, s.num_vars() - v0};
}

} // namespace

TEST_CASE("at(xs, i) in expressions, against enumeration") {
    unsigned seed = 1;
    for (const Case& c : at_cases()) check_case(c, seed++);
}

TEST_CASE("element with a number for the result or the index, against enumeration") {
    unsigned seed = 101;
    for (const Case& c : constant_cases()) check_case(c, seed++);
}

TEST_CASE("element(matrix, i, j, r), against enumeration") {
    unsigned seed = 201;
    for (const Case& c : matrix_cases()) check_case(c, seed++);
}

TEST_CASE("element over expressions, against enumeration") {
    unsigned seed = 301;
    for (const Case& c : expr_cases()) check_case(c, seed++);
}

TEST_CASE("what each form posts") {
    Store s;
    const IntVar i = s.int_var(-1, 5);
    using propane::at;
    using propane::element;
    using A = std::array<int, 2>;
    // A number for y over numbers: a domain operation, nothing posted.
    CHECK(added(s, [&] { s.post(element(table, i, 2)); }) == A{0, 0});
    CHECK(i.min(s) == 2);
    CHECK(i.max(s) == 2);
    Store t;
    const IntVar k = t.int_var(-1, 5), z = t.int_var(-3, 9), w = t.int_var(0, 9);
    const std::vector<IntVar> ws = t.int_vars(3, 0, 4);
    CHECK(added(t, [&] { t.post(element(ws, k, 2)); }) == A{1, 0});
    CHECK(k.min(t) == 0);
    CHECK(k.max(t) == 2);
    // A fixed index: the relation itself.
    CHECK(added(t, [&] { t.post(element(ws, 1, z)); }) == A{1, 0});
    CHECK(added(t, [&] { t.post(element(table, 0, w)); }) == A{0, 0});
    CHECK(w.min(t) == 3);
    CHECK(w.max(t) == 3);
    // at(): one variable over the hull of the entries k can pick, and one
    // element propagator; the relation around it as usual.
    IntVar a;
    CHECK(added(t, [&] { a = t.int_var(at(table, k)); }) == A{1, 1});
    CHECK(a.min(t) == -1);
    CHECK(a.max(t) == 3);
    CHECK(added(t, [&] { t.post(at(ws, k) + z <= 5); }) == A{2, 1});
    // An expression index gets a variable of its own, tied by a linear
    // equality.
    CHECK(added(t, [&] { t.post(element(table, k + z, w)); }) == A{2, 1});
    CHECK(added(t, [&] { t.post(element({ws[0] + ws[1], ws[2]}, k, w)); }) == A{2, 1});
    // The matrix: one propagator.
    const IntVar r = t.int_var(-5, 5);
    CHECK(added(t, [&] { t.post(element(matrix, k, z, r)); }) == A{1, 0});
    CHECK(r.min(t) == -1);
}

TEST_CASE("at(xs, i): its hull, its text and its errors") {
    Store s;
    const IntVar i = s.int_var(1, 2), x0 = s.int_var(-5, -4), x1 = s.int_var(0, 3), x2 = s.int_var(6, 7);
    const IntVar a = s.int_var(propane::at({x0, x1, x2}, i));
    // Only the entries i can pick count: x1 and x2.
    CHECK(a.min(s) == 0);
    CHECK(a.max(s) == 7);
    CHECK(propane::at({x0, x1 + 1}, i - 1).text() == "at({v1, v2 + 1}, v0 - 1)");
    CHECK(propane::at(table, i).text() == "at({3, -1, 2, 0}, v0)");
    CHECK_THROWS_WITH_AS(propane::at(std::vector<IntVar>{}, i), "propane: at(xs, i): xs is empty, so no index can be chosen",
                         propane::model_error);
    CHECK_THROWS_WITH_AS(propane::at(std::vector<long>{1, 1L << 40}, i),
                         "propane: at: xs[1] is 1099511627776, beyond -2147483648..2147483647", propane::model_error);
    CHECK_THROWS_WITH_AS(propane::element(std::vector<Expr>{}, i, x0),
                         "propane: element(xs, i): xs is empty, so no index can be chosen", propane::model_error);
    CHECK_THROWS_AS(propane::element({x0 + x1}, i, 1LL << 40), propane::model_error);
    // An index that can pick no entry: the variable is {0}, and the model
    // has no solution.
    Store t;
    const IntVar j = t.int_var(5, 6), y = t.int_var(0, 3);
    const IntVar b = t.int_var(propane::at(std::vector<IntVar>{y, y}, j));
    CHECK(b.min(t) == 0);
    CHECK(b.max(t) == 0);
    CHECK_FALSE(t.propagate());
}
