// times(x, y, z) over Booleans, as whole models: posted through times(),
// through the expression x * y (in a sum, and as s.int_var(x * y)), over
// b, 1 - b, b + c and -b + c views, with squares and complements, beside
// products that are not Boolean; every solution count compared with
// enumeration. And the choice it makes at posting: the Boolean form cuts z
// to {0, 1} at once, a post inside a level holds until that level is
// popped, and a product with a factor that may leave {0, 1} stays general.
// The propagator itself goes through the checker in test_check_arithmetic.

#include <doctest/doctest.h>

#include <propane/constraints/times.hpp>
#include <propane/engine/store.hpp>
#include <propane/engine/view.hpp>
#include <propane/model/define.hpp>
#include <propane/model/expr.hpp>
#include <propane/model/relation.hpp>
#include <propane/search/search.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "instances_search.hpp"

namespace {

using Store = propane::Store<propane::BitDomain<1>>;
using propane::AffineView;
using propane::IntVar;

std::size_t u(int i) { return static_cast<std::size_t>(i); }

// A Boolean view of variable `var`, a*t + b, written again for the
// reference: b (IntVar), 1 - b, or a variable over {c, c + 1} seen as
// t - c (OffsetView) or over {-c - 1, -c} seen as -t - c.
struct Lit {
    int var = 0;
    int a = 1;
    int b = 0;
    int of(const std::vector<int>& t) const { return a * t[u(var)] + b; }
};

// One model: variables (their ranges), and constraints as checks on a
// full assignment for the reference.
struct Model {
    std::vector<int> lo, hi;
    std::vector<std::function<bool(const std::vector<int>&)>> holds;
};

std::uint64_t enumerate(const Model& m) {
    std::uint64_t count = 0;
    std::vector<int> t(m.lo.size());
    const std::function<void(std::size_t)> each = [&](std::size_t i) {
        if (i == t.size()) {
            for (const auto& h : m.holds)
                if (!h(t)) return;
            ++count;
            return;
        }
        for (t[i] = m.lo[i]; t[i] <= m.hi[i]; ++t[i]) each(i + 1);
    };
    each(0);
    return count;
}

// Random models over 3 to 5 Boolean variables, each over a pair of values
// {c, c + 1} (c in -1..1) that its literals map into {0, 1}, and one or two
// integers over -2..2.
class Generator {
public:
    explicit Generator(unsigned seed) : rng_(seed) {}

    int below(int n) { return static_cast<int>(rng_() % static_cast<unsigned>(n)); }

    void build(Store& s, Model& m, std::vector<IntVar>& vars) {
        const int nb = 3 + below(3), ni = 1 + below(2);
        for (int k = 0; k < nb; ++k) {
            const int c = below(3) - 1;
            add(s, m, vars, c, c + 1);
            base_.push_back(c);
        }
        for (int k = 0; k < ni; ++k) add(s, m, vars, -2, 2);
        nb_ = nb;
        const int constraints = 2 + below(3);
        for (int k = 0; k < constraints; ++k) post_one(s, m, vars);
    }

private:
    static void add(Store& s, Model& m, std::vector<IntVar>& vars, int lo, int hi) {
        vars.push_back(s.int_var(lo, hi));
        m.lo.push_back(lo);
        m.hi.push_back(hi);
    }

    // A literal of Boolean variable k: t - c or 1 - (t - c) = -t + c + 1.
    Lit lit(int k, bool negated) const {
        const int c = base_[u(k)];
        return negated ? Lit{k, -1, c + 1} : Lit{k, 1, -c};
    }
    Lit any_lit() { return lit(below(nb_), below(2) == 1); }

    // The literal as a view: an OffsetView when the scale is 1 (an IntVar
    // when the offset is 0 too), else an AffineView.
    template <class F>
    static void with_view(const std::vector<IntVar>& vars, const Lit& l, F&& f) {
        const IntVar x = vars[u(l.var)];
        if (l.a == 1 && l.b == 0)
            f(x);
        else if (l.a == 1)
            f(x + l.b);
        else
            f(AffineView(l.a * x + l.b));
    }

    void post_one(Store& s, Model& m, std::vector<IntVar>& vars) {
        switch (below(5)) {
        case 0: { // times(l1, l2, l3) over literals (any of them may share a variable)
            const Lit x = any_lit(), y = any_lit(), z = any_lit();
            with_view(vars, x, [&](auto vx) {
                with_view(vars, y, [&](auto vy) {
                    with_view(vars, z, [&](auto vz) { s.post(propane::times(vx, vy, vz)); });
                });
            });
            m.holds.push_back([=](const std::vector<int>& t) { return x.of(t) * y.of(t) == z.of(t); });
            break;
        }
        case 1: { // times(l1, l2, i) with i an integer over -2..2, cut to {0, 1}
            const Lit x = any_lit(), y = any_lit();
            const int i = nb_ + below(static_cast<int>(vars.size()) - nb_);
            with_view(vars, x, [&](auto vx) {
                with_view(vars, y, [&](auto vy) { s.post(propane::times(vx, vy, vars[u(i)])); });
            });
            m.holds.push_back([=](const std::vector<int>& t) { return x.of(t) * y.of(t) == t[u(i)]; });
            break;
        }
        case 2: { // sum of two or three products of literals, == / <= / >= k
            const int terms = 2 + below(2), k = below(terms + 1), rel = below(3);
            std::vector<Lit> ls;
            std::vector<propane::Expr> products;
            for (int j = 0; j < 2 * terms; ++j) ls.push_back(any_lit());
            for (int j = 0; j < terms; ++j) {
                const Lit a = ls[u(2 * j)], b = ls[u(2 * j + 1)];
                products.push_back((vars[u(a.var)] * a.a + a.b) * (vars[u(b.var)] * b.a + b.b));
            }
            const propane::Expr e = propane::sum(products);
            if (rel == 0) s.post(e == k);
            else if (rel == 1) s.post(e <= k);
            else s.post(e >= k);
            m.holds.push_back([=](const std::vector<int>& t) {
                int sum = 0;
                for (int j = 0; j < terms; ++j) sum += ls[u(2 * j)].of(t) * ls[u(2 * j + 1)].of(t);
                return rel == 0 ? sum == k : rel == 1 ? sum <= k : sum >= k;
            });
            break;
        }
        case 3: { // p = s.int_var(l1 * l2), then p + i related to a literal
            const Lit a = any_lit(), b = any_lit(), c = any_lit();
            const IntVar p = s.int_var((vars[u(a.var)] * a.a + a.b) * (vars[u(b.var)] * b.a + b.b));
            vars.push_back(p);
            m.lo.push_back(p.lo());
            m.hi.push_back(p.hi());
            const int at = static_cast<int>(vars.size()) - 1;
            s.post(p != vars[u(c.var)] * c.a + c.b);
            m.holds.push_back([=](const std::vector<int>& t) {
                return a.of(t) * b.of(t) == t[u(at)] && t[u(at)] != c.of(t);
            });
            break;
        }
        default: { // a product that is not Boolean: a literal times an integer
            const Lit x = any_lit();
            const int i = nb_ + below(static_cast<int>(vars.size()) - nb_);
            const Lit z = any_lit();
            with_view(vars, x, [&](auto vx) {
                with_view(vars, z, [&](auto vz) { s.post(propane::times(vx, vars[u(i)], vz)); });
            });
            m.holds.push_back([=](const std::vector<int>& t) { return x.of(t) * t[u(i)] == z.of(t); });
            break;
        }
        }
    }

    std::mt19937 rng_;
    std::vector<int> base_;
    int nb_ = 0;
};

} // namespace

TEST_CASE("random models with Boolean products count as many solutions as enumeration") {
    int with_solutions = 0;
    for (unsigned seed = 1; seed <= 3000; ++seed) {
        Store s;
        Model m;
        std::vector<IntVar> vars;
        Generator(seed).build(s, m, vars);
        const std::uint64_t want = enumerate(m);
        const propane::SearchStats st = propane::solve(s, vars, [](const auto&) { return propane::next; });
        INFO("seed " << seed);
        CHECK(st.solutions == want);
        with_solutions += want > 0 ? 1 : 0;
    }
    // Too few models with solutions would test little.
    MESSAGE(with_solutions << " of 3000 models have solutions");
    CHECK(with_solutions > 1000);
}

TEST_CASE("times over Booleans cuts z to {0, 1} when posted; a factor beyond {0, 1} keeps it general") {
    {
        Store s;
        const IntVar x = s.int_var(0, 1), y = s.int_var(5, 6), z = s.int_var(-3, 3);
        s.post(propane::times(x, 1 - (y - 5), z)); // Boolean: z cut at posting, before any propagation
        CHECK(z.min(s) == 0);
        CHECK(z.max(s) == 1);
    }
    {
        Store s;
        const IntVar x = s.int_var(0, 1), y = s.int_var(0, 2), z = s.int_var(-3, 3);
        s.post(propane::times(x, y, z)); // y may be 2: the bounds propagator, which waits for propagate()
        CHECK(z.min(s) == -3);
        CHECK(z.max(s) == 3);
        REQUIRE(s.propagate());
        CHECK(z.min(s) == 0);
        CHECK(z.max(s) == 2);
    }
    {
        Store s;
        const IntVar x = s.int_var(0, 1), y = s.int_var(0, 1), w = s.int_var(0, 1);
        s.post(propane::times(x, y, 2 * w - 1)); // z can only be 1 once cut: x and y are 1
        REQUIRE(s.propagate());
        CHECK(x.value(s) == 1);
        CHECK(y.value(s) == 1);
        CHECK(w.value(s) == 1);
    }
    {
        Store s;
        const IntVar x = s.int_var(0, 1), y = s.int_var(0, 1), w = s.int_var(1, 2);
        s.post(propane::times(x, y, 3 * w)); // 3 or 6: nothing in {0, 1}
        CHECK_FALSE(s.propagate());
    }
}

TEST_CASE("times posted inside a level over domains cut to {0, 1} holds until the level is popped") {
    Store s;
    const IntVar x = s.int_var(0, 3), y = s.int_var(0, 3), z = s.int_var(0, 9);
    const std::vector<IntVar> vars{x, y, z};
    s.push_level();
    REQUIRE(s.remove_above(x, 1) != propane::Change::failed);
    REQUIRE(s.remove_above(y, 1) != propane::Change::failed);
    s.post(propane::times(x, y, z));
    REQUIRE(s.propagate());
    CHECK(z.max(s) == 1);
    // x * y == z over {0, 1}^2: four solutions.
    CHECK(propane::solve(s, vars, [](const auto&) { return propane::next; }).solutions == 4);
    s.pop_level();
    CHECK(x.max(s) == 3);
    CHECK(z.max(s) == 9);
    // The constraint went with its level: every assignment is a solution.
    CHECK(propane::solve(s, vars, [](const auto&) { return propane::next; }).solutions == 4 * 4 * 10);
    s.post(propane::times(x, y, z)); // now at the root, over 0..3: the general product
    CHECK(propane::solve(s, vars, [](const auto&) { return propane::next; }).solutions == 16);
}

TEST_CASE("the expression x * y over Booleans makes one propagator and one variable") {
    Store s;
    const std::vector<IntVar> b = s.int_vars(4, 0, 1);
    const int props = s.num_propagators(), nvars = s.num_vars();
    s.post(b[0] * b[1] + b[2] * b[3] == 1);
    // Two products and the sum.
    CHECK(s.num_propagators() - props == 3);
    CHECK(s.num_vars() - nvars == 2);
    std::uint64_t want = 0;
    for (int t = 0; t < 16; ++t) {
        const int v0 = t & 1, v1 = (t >> 1) & 1, v2 = (t >> 2) & 1, v3 = (t >> 3) & 1;
        want += v0 * v1 + v2 * v3 == 1 ? 1 : 0;
    }
    CHECK(propane::solve(s, b, [](const auto&) { return propane::next; }).solutions == want);
}
