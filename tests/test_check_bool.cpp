// clause(pos, neg), with iff(b) and implies(b), through the checker
// (checker.hpp), over Boolean views of every kind.
//
// Claims checked exactly: domain consistency for each form, on literals of
// distinct variables. Views: IntVar b, OffsetView b + 0, AffineView 1 - b
// (the negation), and mixed (pos as AffineViews alternating b and 1 - b,
// neg as IntVars). Every combination of the three non-empty subsets of
// {0, 1} per variable, for every split of up to five literals into pos and
// neg, and b fixed to 0, to 1 or open for the reified forms; each posted
// fresh and cut in a reused store.

#include <doctest/doctest.h>

#include "bool_sweep.hpp"

#include <propane/constraints/bool/clause.hpp>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "instances_store.hpp"

namespace {

using checker::Case;
using checker::Kind;
using checker::Spec;
using checker::Store;
using propane::IntVar;
using Affine = propane::AffineView;
using Offset = propane::OffsetView;

// Literal positions 0 .. lits - 1 (the first np of them positive); with a
// reified form, b at position lits.
enum class Form { plain, iff, implies };

std::string form_name(Form f) {
    switch (f) {
    case Form::plain: return "";
    case Form::iff: return ", iff(b)";
    case Form::implies: return ", implies(b)";
    }
    return "?";
}

template <class P, class N>
void post_clause(Store& s, const std::vector<IntVar>& xs, const Case& c, Form f, int np, int lits) {
    using checker::view;
    using checker::views;
    const std::vector<P> pos = views<P>(xs, c, 0, np);
    const std::vector<N> neg = views<N>(xs, c, np, lits - np);
    switch (f) {
    case Form::plain: s.post(propane::clause(pos, neg)); break;
    case Form::iff: s.post(propane::clause(pos, neg, propane::iff(view<Affine>(xs, c, lits)))); break;
    case Form::implies: s.post(propane::clause(pos, neg, propane::implies(view<Affine>(xs, c, lits)))); break;
    }
}

Spec clause_spec(Form f, int np, int lits) {
    Spec spec;
    spec.name = "clause(" + std::to_string(np) + " pos, " + std::to_string(lits - np) + " neg" + form_name(f) + ")";
    spec.claim = checker::Claim::domain;
    spec.holds = [f, np, lits](const int* v) {
        bool any = false;
        for (int i = 0; i < lits; ++i) any |= i < np ? v[i] == 1 : v[i] == 0;
        switch (f) {
        case Form::plain: return any;
        case Form::iff: return (v[lits] == 1) == any;
        case Form::implies: return v[lits] == 0 || any;
        }
        return false;
    };
    spec.post = [f, np, lits](Store& s, const std::vector<IntVar>& xs, const Case& c) {
        switch (c.kind) {
        case Kind::var: post_clause<IntVar, IntVar>(s, xs, c, f, np, lits); break;
        case Kind::offset: post_clause<Offset, Offset>(s, xs, c, f, np, lits); break;
        case Kind::affine: post_clause<Affine, Affine>(s, xs, c, f, np, lits); break;
        case Kind::mixed: post_clause<Affine, IntVar>(s, xs, c, f, np, lits); break;
        }
    };
    return spec;
}

// Boolean coefficients per kind; mixed alternates b and 1 - b over pos and
// b (an IntVar) over neg, and b as 1 - b.
checker::Coefs clause_coefs(Kind k, int np, int lits) {
    checker::Coefs p{};
    for (int i = 0; i < checker::max_views; ++i) {
        p[static_cast<std::size_t>(i)].var = i;
        const bool negate = k == Kind::affine || (k == Kind::mixed && (i >= lits || (i < np && i % 2 == 1)));
        p[static_cast<std::size_t>(i)].a = negate ? -1 : 1;
        p[static_cast<std::size_t>(i)].b = negate ? 1 : 0;
    }
    return p;
}

checker::Outcome clause_sweep(Form f, int lits, Kind k) {
    checker::Outcome all;
    const int n = lits + (f == Form::plain ? 0 : 1);
    for (int np = 0; np <= lits; ++np)
        all += checker::bool_sweep(clause_spec(f, np, lits), k, n, 0, 2, {clause_coefs(k, np, lits)},
                                   std::vector<checker::Mask>(static_cast<std::size_t>(n), 3));
    return all;
}

} // namespace

TEST_CASE("clause(pos, neg): domain consistent, every split of up to 5 literals, every domain over {0, 1}") {
    for (const Kind k : checker::kinds)
        for (int lits = 0; lits <= 5; ++lits)
            checker::report("clause of " + std::to_string(lits) + " x " + checker::name_of(k), clause_sweep(Form::plain, lits, k));
}

TEST_CASE("clause(pos, neg, iff(b)) and implies(b): domain consistent, b fixed to 0, to 1 and open") {
    for (const Form f : {Form::iff, Form::implies})
        for (const Kind k : checker::kinds)
            for (int lits = 0; lits <= 4; ++lits)
                checker::report("clause of " + std::to_string(lits) + form_name(f) + " x " + checker::name_of(k),
                                clause_sweep(f, lits, k));
}

TEST_CASE("clause: an empty clause fails, a unit one is set, a repeated or complementary literal is simplified") {
    {
        Store s;
        s.post(propane::clause(std::vector<IntVar>{}, std::vector<IntVar>{}));
        CHECK_FALSE(s.propagate());
    }
    {
        Store s;
        const IntVar b = s.bool_var();
        s.post(propane::clause(std::vector<Affine>{1 - b}, std::vector<IntVar>{}));
        CHECK(s.num_propagators() == 0);
        CHECK(s.domain(b).max() == 0);
    }
    {
        Store s;
        const auto b = s.bool_vars(2);
        s.post(propane::clause(std::vector<IntVar>{b[0], b[0]}, std::vector<Affine>{1 - b[1]}));
        REQUIRE(s.propagate());
        REQUIRE(s.remove(b[1], 1) != propane::Change::failed);
        REQUIRE(s.propagate());
        CHECK(s.domain(b[0]).min() == 1);
    }
    {
        Store s;
        const IntVar b = s.bool_var();
        s.post(propane::clause(std::vector<IntVar>{b}, std::vector<IntVar>{b}));
        CHECK(s.num_propagators() == 0);
    }
}

TEST_CASE("clause: a literal that is not Boolean is a model_error naming clause") {
    Store s;
    const IntVar x = s.int_var(0, 2), b = s.bool_var();
    CHECK_THROWS_WITH_AS(s.post(propane::clause(std::vector<IntVar>{x}, std::vector<IntVar>{})), doctest::Contains("clause"),
                         propane::model_error);
    CHECK_THROWS_AS(s.post(propane::clause(std::vector<Offset>{b + 1}, std::vector<IntVar>{})), propane::model_error);
    CHECK_THROWS_AS(s.post(propane::clause(std::vector<IntVar>{b}, std::vector<IntVar>{}, propane::iff(2 * b))),
                    propane::model_error);
}

TEST_CASE("clause: no work while neither watched literal falls, and only the watched literals are read") {
    Store s;
    const auto b = s.bool_vars(6);
    s.post(propane::clause(b, std::vector<IntVar>{}));
    REQUIRE(s.propagate());
    const auto runs = s.propagations();
    // Literals 2 .. 4 are not watched: falsifying them prunes nothing.
    for (int i = 2; i < 5; ++i) REQUIRE(s.remove(b[static_cast<std::size_t>(i)], 1) != propane::Change::failed);
    REQUIRE(s.propagate());
    CHECK(s.propagations() - runs <= 1);
    REQUIRE(s.remove(b[0], 1) != propane::Change::failed);
    REQUIRE(s.propagate());
    CHECK(s.domain(b[1]).max() == 1);
    CHECK(s.domain(b[5]).max() == 1);
    REQUIRE(s.remove(b[1], 1) != propane::Change::failed);
    REQUIRE(s.propagate());
    CHECK(s.domain(b[5]).min() == 1);
}

TEST_CASE("clause(pos, neg, implies(b)): nothing from b == 0 or from a true literal") {
    Store s;
    const auto l = s.bool_vars(2);
    const IntVar b = s.bool_var();
    s.post(propane::clause(l, std::vector<IntVar>{}, propane::implies(b)));
    REQUIRE(s.propagate());
    s.push_level();
    REQUIRE(s.remove(l[0], 0) != propane::Change::failed);
    REQUIRE(s.propagate());
    CHECK(s.domain(b).size() == 2);
    s.pop_level();
    s.push_level();
    REQUIRE(s.remove(b, 1) != propane::Change::failed);
    REQUIRE(s.remove(l[0], 1) != propane::Change::failed);
    REQUIRE(s.propagate());
    CHECK(s.domain(l[1]).size() == 2);
    s.pop_level();
    REQUIRE(s.remove(l[0], 1) != propane::Change::failed);
    REQUIRE(s.remove(l[1], 1) != propane::Change::failed);
    REQUIRE(s.propagate());
    CHECK(s.domain(b).max() == 0);
}

TEST_CASE("clause: random walks of fixings and backtracking keep every clause at its unit-propagation fixpoint") {
    std::mt19937 rng(7);
    long long checked = 0;
    for (int model = 0; model < 200; ++model) {
        Store s;
        const auto b = s.bool_vars(6);
        struct Lits {
            std::vector<IntVar> pos;
            std::vector<Affine> neg; // 1 - b, so the literal holds when b is 1
        };
        std::vector<Lits> clauses(4);
        for (Lits& c : clauses) {
            std::vector<int> vars{0, 1, 2, 3, 4, 5};
            std::shuffle(vars.begin(), vars.end(), rng);
            const int len = 2 + static_cast<int>(rng() % 4);
            for (int i = 0; i < len; ++i) {
                const IntVar x = b[static_cast<std::size_t>(vars[static_cast<std::size_t>(i)])];
                if (rng() % 2 == 0)
                    c.pos.push_back(x);
                else
                    c.neg.push_back(1 - x);
            }
            s.post(propane::clause(c.pos, c.neg));
        }
        // Unit propagation's fixpoint: each clause true or with two open literals.
        auto at_fixpoint = [&] {
            for (const Lits& c : clauses) {
                int open = 0, truth = 0;
                for (const IntVar x : c.pos) {
                    truth += s.domain(x).min() == 1;
                    open += s.domain(x).size() == 2;
                }
                for (const Affine& v : c.neg) {
                    truth += s.domain(v.var()).min() == 1;
                    open += s.domain(v.var()).size() == 2;
                }
                if (truth == 0 && open < 2) return false;
            }
            return true;
        };
        if (!s.propagate()) continue;
        int depth = 0;
        for (int step = 0; step < 60; ++step) {
            if (depth > 0 && rng() % 3 == 0) {
                s.pop_level();
                --depth;
                CHECK(at_fixpoint());
                continue;
            }
            const IntVar x = b[rng() % 6];
            if (s.domain(x).fixed()) continue;
            s.push_level();
            ++depth;
            const bool ok = s.assign(x, static_cast<int>(rng() % 2)) != propane::Change::failed && s.propagate();
            ++checked;
            if (ok) {
                CHECK(at_fixpoint());
            } else {
                s.pop_level();
                --depth;
            }
        }
    }
    MESSAGE(checked << " propagations checked in random walks");
}
