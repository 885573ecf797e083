// Logic over relations (propane/model/logic.hpp): random formulas of
// relations and Booleans under &&, ||, !, >>, == and !=, posted as they
// must hold, tied to a Boolean (b == f) and implied by one (b >> f); their
// solutions, projected on the model's variables, against brute force over
// the same meaning written as plain C++. Every variable of the store is
// labelled, the auxiliary Booleans included, so that an auxiliary left
// free at a solution cannot hide a wrong lowering.

#include <doctest/doctest.h>

#include <propane/engine/store.hpp>
#include <propane/model/expr.hpp>
#include <propane/model/logic.hpp>
#include <propane/search/solve.hpp>

#include <array>
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
using propane::BoolExpr;
using propane::IntVar;
using Values = std::vector<int>;
using Meaning = std::function<bool(const Values&)>;

// A formula as the library gets it and as plain C++ means it.
struct Formula {
    std::function<BoolExpr(const std::vector<IntVar>&)> make;
    Meaning meaning;
    std::string text;
};

// The model's variables: `ints` over small ranges, then `bools` over {0, 1}.
struct Model {
    std::vector<std::array<int, 2>> ranges;
    int ints;
};

std::set<Values> solutions(const Model& m, const std::function<void(Store&, const std::vector<IntVar>&)>& post) {
    Store s;
    std::vector<IntVar> xs;
    for (const auto& r : m.ranges) xs.push_back(s.int_var(r[0], r[1]));
    post(s, xs);
    std::vector<IntVar> all;
    for (int i = 0; i < s.num_vars(); ++i) all.push_back(s.var(i));
    return brute::searched(s, all, xs.size());
}

std::set<Values> brute_force(const Model& m, const Meaning& meaning) { return brute::solutions(m.ranges, meaning); }

class Generator {
public:
    Generator(unsigned seed, int ints, int bools) : rng_(seed), ints_(ints), bools_(bools) {}

    Formula formula(int depth) {
        if (depth == 0 || pick(4) == 0) return leaf();
        switch (pick(6)) {
        case 0: return binary(depth, "&&", [](bool a, bool b) { return a && b; },
                              [](const BoolExpr& a, const BoolExpr& b) { return a && b; });
        case 1: return binary(depth, "||", [](bool a, bool b) { return a || b; },
                              [](const BoolExpr& a, const BoolExpr& b) { return a || b; });
        case 2: return binary(depth, ">>", [](bool a, bool b) { return !a || b; },
                              [](const BoolExpr& a, const BoolExpr& b) { return a >> b; });
        case 3: return binary(depth, "==", [](bool a, bool b) { return a == b; },
                              [](const BoolExpr& a, const BoolExpr& b) { return a == b; });
        case 4: return binary(depth, "!=", [](bool a, bool b) { return a != b; },
                              [](const BoolExpr& a, const BoolExpr& b) { return a != b; });
        default: {
            Formula f = formula(depth - 1);
            return {[g = f.make](const std::vector<IntVar>& xs) { return !g(xs); },
                    [m = f.meaning](const Values& v) { return !m(v); }, "!(" + f.text + ")"};
        }
        }
    }

    int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }

private:
    template <class Truth, class Op>
    Formula binary(int depth, const char* name, Truth truth, Op op) {
        Formula a = formula(depth - 1), b = formula(depth - 1);
        return {[ga = a.make, gb = b.make, op](const std::vector<IntVar>& xs) { return op(ga(xs), gb(xs)); },
                [ma = a.meaning, mb = b.meaning, truth](const Values& v) { return truth(ma(v), mb(v)); },
                "(" + a.text + " " + name + " " + b.text + ")"};
    }

    int var() { return pick(ints_); }
    int boolean() { return ints_ + pick(bools_); }

    // A relation between the model's integers (one or two of them, a
    // constant, a coefficient, an absolute value now and then), or a
    // Boolean b or 1 - b, or a reified relation b == (relation).
    Formula leaf() {
        const int kind = pick(7);
        if (kind == 0) {
            const int b = boolean();
            if (pick(2) == 0)
                return {[b](const std::vector<IntVar>& xs) { return BoolExpr::boolean(xs[static_cast<std::size_t>(b)]); },
                        [b](const Values& v) { return v[static_cast<std::size_t>(b)] == 1; }, "b" + std::to_string(b)};
            return {[b](const std::vector<IntVar>& xs) { return BoolExpr::boolean(1 - xs[static_cast<std::size_t>(b)]); },
                    [b](const Values& v) { return v[static_cast<std::size_t>(b)] == 0; }, "1 - b" + std::to_string(b)};
        }
        const int i = var(), j = var(), c = pick(5) - 2, a = std::array{-1, 1, 2}[static_cast<std::size_t>(pick(3))], r = pick(6);
        const auto holds = [r](int l, int k) {
            switch (r) {
            case 0: return l == k;
            case 1: return l != k;
            case 2: return l < k;
            case 3: return l <= k;
            case 4: return l > k;
            default: return l >= k;
            }
        };
        const auto relate = [r](const propane::Expr& l, int k) -> propane::ExprRel {
            switch (r) {
            case 0: return l == k;
            case 1: return l != k;
            case 2: return l < k;
            case 3: return l <= k;
            case 4: return l > k;
            default: return l >= k;
            }
        };
        const auto at = [](const auto& v, int k) { return v[static_cast<std::size_t>(k)]; };
        Formula f;
        const std::string names[] = {"==", "!=", "<", "<=", ">", ">="};
        if (kind == 1) {
            f = {[=](const std::vector<IntVar>& xs) { return BoolExpr(relate(propane::Expr(at(xs, i)), c)); },
                 [=](const Values& v) { return holds(at(v, i), c); },
                 "x" + std::to_string(i) + names[r] + std::to_string(c)};
        } else if (kind == 2) {
            f = {[=](const std::vector<IntVar>& xs) {
                     return BoolExpr(relate(propane::abs(at(xs, i) - at(xs, j)), c + 1));
                 },
                 [=](const Values& v) { return holds(std::abs(at(v, i) - at(v, j)), c + 1); },
                 "|x" + std::to_string(i) + "-x" + std::to_string(j) + "|" + names[r] + std::to_string(c + 1)};
        } else {
            f = {[=](const std::vector<IntVar>& xs) {
                     return BoolExpr(relate(at(xs, i) + a * at(xs, j), c));
                 },
                 [=](const Values& v) { return holds(at(v, i) + a * at(v, j), c); },
                 "x" + std::to_string(i) + "+" + std::to_string(a) + "*x" + std::to_string(j) + names[r] +
                     std::to_string(c)};
        }
        if (kind == 6) {
            // b == (relation), reified.hpp's own spelling, inside a formula.
            const int b = boolean();
            const auto rel = f;
            f = {[=](const std::vector<IntVar>& xs) {
                     return BoolExpr(propane::ReifiedExprRel<IntVar>(rel.make(xs).node().rel.value(),
                                                                      propane::iff(at(xs, b))));
                 },
                 [=](const Values& v) { return (at(v, b) == 1) == rel.meaning(v); },
                 "b" + std::to_string(b) + "==(" + rel.text + ")"};
        }
        return f;
    }

    std::mt19937 rng_;
    int ints_;
    int bools_;
};

void check(const Model& m, const Formula& f, const std::string& how,
           const std::function<void(Store&, const std::vector<IntVar>&)>& post, const Meaning& meaning) {
    const std::set<Values> got = solutions(m, post), want = brute_force(m, meaning);
    INFO(how, ": ", f.text);
    CHECK(got == want);
}

} // namespace

TEST_CASE("random formulas: posted, tied to a Boolean and implied by one, as brute force says") {
    const int rounds = std::getenv("PROPANE_LOGIC_ROUNDS") ? std::atoi(std::getenv("PROPANE_LOGIC_ROUNDS")) : 300;
    for (int seed = 1; seed <= rounds; ++seed) {
        Generator g(static_cast<unsigned>(seed), 3, 2);
        Model m{{}, 3};
        for (int i = 0; i < 3; ++i) {
            const int lo = g.pick(4) - 2;
            m.ranges.push_back({lo, lo + 1 + g.pick(3)});
        }
        m.ranges.push_back({0, 1});
        m.ranges.push_back({0, 1});
        const Formula f = g.formula(1 + seed % 3);
        check(m, f, "posted", [&](Store& s, const std::vector<IntVar>& xs) { s.post(f.make(xs)); }, f.meaning);
        const std::size_t b = 3 + static_cast<std::size_t>(seed % 2);
        check(m, f, "b == f", [&](Store& s, const std::vector<IntVar>& xs) { s.post(xs[b] == f.make(xs)); },
              [&](const Values& v) { return (v[b] == 1) == f.meaning(v); });
        check(m, f, "b >> f", [&](Store& s, const std::vector<IntVar>& xs) { s.post(xs[b] >> f.make(xs)); },
              [&](const Values& v) { return v[b] == 0 || f.meaning(v); });
        check(m, f, "1 - b == f", [&](Store& s, const std::vector<IntVar>& xs) { s.post(1 - xs[b] == f.make(xs)); },
              [&](const Values& v) { return (v[b] == 0) == f.meaning(v); });
    }
}

TEST_CASE("the spellings of the issue, each against brute force") {
    const Model m{{{-2, 4}, {-1, 3}, {0, 3}, {0, 1}}, 3};
    struct Spelling {
        const char* text;
        std::function<void(Store&, const std::vector<IntVar>&)> post;
        Meaning meaning;
    };
    const std::vector<Spelling> spellings = {
        {"(x > 2) >> (y < 3)", [](Store& s, const std::vector<IntVar>& v) { s.post((v[0] > 2) >> (v[1] < 3)); },
         [](const Values& v) { return v[0] <= 2 || v[1] < 3; }},
        {"(x < y) || (y == z)", [](Store& s, const std::vector<IntVar>& v) { s.post((v[0] < v[1]) || (v[1] == v[2])); },
         [](const Values& v) { return v[0] < v[1] || v[1] == v[2]; }},
        {"!(x == z)", [](Store& s, const std::vector<IntVar>& v) { s.post(!(v[0] == v[2])); },
         [](const Values& v) { return v[0] != v[2]; }},
        {"b == ((x < y) && (z != 1))",
         [](Store& s, const std::vector<IntVar>& v) { s.post(v[3] == ((v[0] < v[1]) && (v[2] != 1))); },
         [](const Values& v) { return (v[3] == 1) == (v[0] < v[1] && v[2] != 1); }},
        {"(x + y <= 4) >> ((x == 1) || (y >= 3))",
         [](Store& s, const std::vector<IntVar>& v) { s.post((v[0] + v[1] <= 4) >> ((v[0] == 1) || (v[1] >= 3))); },
         [](const Values& v) { return v[0] + v[1] > 4 || v[0] == 1 || v[1] >= 3; }},
        {"b || (x * y == z)", [](Store& s, const std::vector<IntVar>& v) { s.post(v[3] || (v[0] * v[1] == v[2])); },
         [](const Values& v) { return v[3] == 1 || v[0] * v[1] == v[2]; }},
        {"(x < y) != (b == (y < z))",
         [](Store& s, const std::vector<IntVar>& v) { s.post((v[0] < v[1]) != (v[3] == (v[1] < v[2]))); },
         [](const Values& v) { return (v[0] < v[1]) != ((v[3] == 1) == (v[1] < v[2])); }},
        {"b != (x < y)", [](Store& s, const std::vector<IntVar>& v) { s.post(v[3] != (v[0] < v[1])); },
         [](const Values& v) { return (v[3] == 1) != (v[0] < v[1]); }},
    };
    for (const Spelling& sp : spellings) {
        INFO(sp.text);
        CHECK(solutions(m, sp.post) == brute_force(m, sp.meaning));
    }
}

TEST_CASE("a relation posted directly costs no Boolean; an implication between two relations costs one") {
    Store s;
    const IntVar x = s.int_var(0, 5), y = s.int_var(0, 5), z = s.int_var(0, 5);
    s.post(!(x == z));
    s.post((x < y) && (y < 5));
    CHECK(s.num_vars() == 3);
    s.post((x > 2) >> (y < 3));
    CHECK(s.num_vars() == 4);
    CHECK(s.propagate());
    CHECK(y.max(s) == 4);
}

TEST_CASE("a Boolean in a formula must be a view over {0, 1}") {
    Store s;
    const IntVar x = s.int_var(0, 5), y = s.int_var(0, 2);
    CHECK_THROWS_WITH_AS(s.post(y || (x < 3)), doctest::Contains("not within {0, 1}"), propane::model_error);
}

TEST_CASE("a formula with another store's handle is refused before anything is posted") {
    Store s, t;
    const IntVar x = s.int_var(0, 5), y = s.int_var(0, 5), u = t.int_var(0, 5);
    CHECK_THROWS_WITH_AS(s.post((y == 1) && (x < u)), doctest::Contains("another store"), propane::model_error);
    CHECK_THROWS_WITH_AS(s.post((x < u) || (y == 1)), doctest::Contains("another store"), propane::model_error);
    CHECK(s.num_vars() == 2);
    CHECK(s.propagate());
    CHECK(y.min(s) == 0);
    CHECK(y.max(s) == 5);
}
