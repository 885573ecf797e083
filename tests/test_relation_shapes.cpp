// Relations whose shape their operands' types give (model/relation.hpp):
// a ViewRelation between views and numbers, a SumRelation<N> over a
// LinearSum, each posting only its relation's propagators. Every shape,
// with each relation and random coefficients, is posted three ways: as
// the operators make it, as the LinearRel it converts to (the lowering
// that reads the count of terms at run time) and as an ExprRel. All three
// must give the brute-force solutions, and the first two the same domains
// after the root propagation: the shapes choose among propagators of one
// strength, so a different domain is a wrong choice. The shapes include
// the counts a type does not foresee: terms that merge, cancel, or were
// added to a sum in place.

#include <doctest/doctest.h>

#include <propane/engine/store.hpp>
#include <propane/model/relation.hpp>
#include <propane/search/solve.hpp>

#include <array>
#include <concepts>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "brute_force.hpp"
#include "instances_search.hpp"

namespace {

using Store = propane::Store<propane::BitDomain<1>>;
using propane::IntVar;
using propane::Rel;
using Values = std::vector<int>;

// The coefficients and constant a shape draws: nonzero (a view refuses
// 0 * x), within -3..3.
struct Draw {
    int a, b, c, k;
};

// s.post(lhs r rhs), with r fixed at compile time as the operator fixes it.
template <class L, class R>
void post_as_typed(Store& s, Rel r, const L& lhs, const R& rhs) {
    switch (r) {
    case Rel::eq: s.post(lhs == rhs); return;
    case Rel::ne: s.post(lhs != rhs); return;
    case Rel::lt: s.post(lhs < rhs); return;
    case Rel::le: s.post(lhs <= rhs); return;
    case Rel::gt: s.post(lhs > rhs); return;
    case Rel::ge: s.post(lhs >= rhs); return;
    }
}

// The same relation as the type `As` (LinearRel or ExprRel) it converts to.
template <class As, class L, class R>
void post_as(Store& s, Rel r, const L& lhs, const R& rhs) {
    switch (r) {
    case Rel::eq: s.post(As(lhs == rhs)); return;
    case Rel::ne: s.post(As(lhs != rhs)); return;
    case Rel::lt: s.post(As(lhs < rhs)); return;
    case Rel::le: s.post(As(lhs <= rhs)); return;
    case Rel::gt: s.post(As(lhs > rhs)); return;
    case Rel::ge: s.post(As(lhs >= rhs)); return;
    }
}

std::vector<std::pair<int, int>> domains(const Store& s, const std::vector<IntVar>& xs) {
    std::vector<std::pair<int, int>> out;
    for (const IntVar x : xs) {
        if (s.failed()) return {};
        out.emplace_back(s.domain(x).min(), s.domain(x).max());
        for (int v = s.domain(x).min(); v <= s.domain(x).max(); ++v)
            if (!s.domain(x).contains(v)) out.emplace_back(v, v);
    }
    return out;
}

// Trials of one shape over n variables: sides(v, d) makes the two sides
// from the variables (a generic lambda, so that their types are the
// operators'), value(x, d) the left minus the right at values x.
template <class Sides, class Value>
void check_shape(const char* name, int n, Sides sides, Value value, std::mt19937& rng) {
    const auto coef = [&] {
        const int c = static_cast<int>(rng() % 6) - 3;
        return c >= 0 ? c + 1 : c;
    };
    for (int t = 0; t < 60; ++t) {
        const std::vector<std::array<int, 2>> ranges = brute::random_ranges(rng, n, 0, -3, 4);
        const Draw d{coef(), coef(), coef(), coef()};
        const auto r = static_cast<Rel>(rng() % 6);
        const std::set<Values> want = brute::solutions(
            ranges, [&](const Values& x) { return propane::detail::holds(r, value(x, d), 0); });
        std::array<Store, 3> stores;
        std::array<std::vector<IntVar>, 3> vars;
        for (int i = 0; i < 3; ++i)
            for (const auto& rg : ranges) vars[i].push_back(stores[i].int_var(rg[0], rg[1]));
        {
            const auto [l, rr] = sides(vars[0], d);
            post_as_typed(stores[0], r, l, rr);
        }
        {
            const auto [l, rr] = sides(vars[1], d);
            post_as<propane::LinearRel>(stores[1], r, l, rr);
        }
        {
            const auto [l, rr] = sides(vars[2], d);
            post_as<propane::ExprRel>(stores[2], r, l, rr);
        }
        INFO(std::string(name), " trial ", t, ": a ", d.a, " b ", d.b, " c ", d.c, " k ", d.k, " ", propane::to_string(r));
        for (Store& s : stores) (void)s.propagate();
        CHECK(domains(stores[0], vars[0]) == domains(stores[1], vars[1]));
        for (int i = 0; i < 3; ++i) CHECK(brute::searched(stores[i], vars[i]) == want);
    }
}

} // namespace

TEST_CASE("relation shapes: the operators' types name each shape") {
    Store s;
    const IntVar x = s.int_var(0, 3), y = s.int_var(0, 3), z = s.int_var(0, 3), w = s.int_var(0, 3);
    using propane::LinearExpr;
    using propane::LinearSum;
    static_assert(std::same_as<decltype(x + y), LinearSum<2>>);
    static_assert(std::same_as<decltype(2 * (x - y) + 1), LinearSum<2>>);
    static_assert(std::same_as<decltype(x + y - z), LinearSum<3>>);
    static_assert(std::same_as<decltype(x + y + z + w + x), LinearSum<4>>);
    static_assert(std::same_as<decltype(LinearExpr(x + y) + z), LinearExpr>);
    static_assert(std::same_as<decltype(x < 3), propane::detail::ViewRelation<IntVar, std::int64_t, Rel::lt>>);
    static_assert(std::same_as<decltype(3 < x), propane::detail::ViewRelation<IntVar, std::int64_t, Rel::gt>>);
    static_assert(std::same_as<decltype(x + 1 == 2 * y),
                               propane::detail::ViewRelation<propane::OffsetView, propane::AffineView, Rel::eq>>);
    static_assert(std::same_as<decltype(x + y <= 3), propane::detail::SumRelation<2, Rel::le>>);
    static_assert(std::same_as<decltype(x + y != z), propane::detail::SumRelation<3, Rel::ne>>);
    static_assert(std::same_as<decltype(x + y == z + w), propane::detail::SumRelation<4, Rel::eq>>);
    static_assert(std::same_as<decltype(propane::sum(std::vector<IntVar>{x, y}) == 1), propane::LinearRel>);
    static_assert(std::derived_from<decltype(x < 3), propane::LinearRel>);
    static_assert(std::derived_from<decltype(x + y == z + w), propane::LinearRel>);
}

TEST_CASE("relation shapes: each posts what the run-time lowering and the ExprRel post") {
    std::mt19937 rng(4711);
    using I64 = std::int64_t;
    // A view and a number, either side.
    check_shape("x r k", 1, [](const auto& v, const Draw& d) { return std::pair{v[0], d.k}; },
                [](const Values& x, const Draw& d) { return I64{x[0]} - d.k; }, rng);
    check_shape("k r a*x + c", 1, [](const auto& v, const Draw& d) { return std::pair{d.k, d.a * v[0] + d.c}; },
                [](const Values& x, const Draw& d) { return I64{d.k} - (I64{d.a} * x[0] + d.c); }, rng);
    // Two views of each kind.
    check_shape("x r y", 2, [](const auto& v, const Draw&) { return std::pair{v[0], v[1]}; },
                [](const Values& x, const Draw&) { return I64{x[0]} - x[1]; }, rng);
    check_shape("x + c r y", 2, [](const auto& v, const Draw& d) { return std::pair{v[0] + d.c, v[1]}; },
                [](const Values& x, const Draw& d) { return I64{x[0]} + d.c - x[1]; }, rng);
    check_shape("a*x r b*y + c", 2,
                [](const auto& v, const Draw& d) { return std::pair{d.a * v[0], d.b * v[1] + d.c}; },
                [](const Values& x, const Draw& d) { return I64{d.a} * x[0] - (I64{d.b} * x[1] + d.c); }, rng);
    // Views of one variable.
    check_shape("x r a*x + c", 1, [](const auto& v, const Draw& d) { return std::pair{v[0], d.a * v[0] + d.c}; },
                [](const Values& x, const Draw& d) { return I64{x[0]} - (I64{d.a} * x[0] + d.c); }, rng);
    // Sums of two, three and more operands.
    check_shape("a*x + b*y r k", 2,
                [](const auto& v, const Draw& d) { return std::pair{d.a * v[0] + d.b * v[1], d.k}; },
                [](const Values& x, const Draw& d) { return I64{d.a} * x[0] + I64{d.b} * x[1] - d.k; }, rng);
    check_shape("x - y r k", 2, [](const auto& v, const Draw& d) { return std::pair{v[0] - v[1], d.k}; },
                [](const Values& x, const Draw& d) { return I64{x[0]} - x[1] - d.k; }, rng);
    check_shape("x + y r z", 3, [](const auto& v, const Draw&) { return std::pair{v[0] + v[1], v[2]}; },
                [](const Values& x, const Draw&) { return I64{x[0]} + x[1] - x[2]; }, rng);
    check_shape("x - y - z r k", 3, [](const auto& v, const Draw& d) { return std::pair{v[0] - v[1] - v[2], d.k}; },
                [](const Values& x, const Draw& d) { return I64{x[0]} - x[1] - x[2] - d.k; }, rng);
    check_shape("a*x + y + z r k", 3,
                [](const auto& v, const Draw& d) { return std::pair{d.a * v[0] + v[1] + v[2], d.k}; },
                [](const Values& x, const Draw& d) { return I64{d.a} * x[0] + x[1] + x[2] - d.k; }, rng);
    check_shape("a*x + b*y r c*z + w", 4,
                [](const auto& v, const Draw& d) { return std::pair{d.a * v[0] + d.b * v[1], d.c * v[2] + v[3]}; },
                [](const Values& x, const Draw& d) {
                    return I64{d.a} * x[0] + I64{d.b} * x[1] - I64{d.c} * x[2] - x[3];
                },
                rng);
    // Counts the types do not foresee: merged, cancelled, grown in place.
    check_shape("x + x r k", 1, [](const auto& v, const Draw& d) { return std::pair{v[0] + v[0], d.k}; },
                [](const Values& x, const Draw& d) { return 2 * I64{x[0]} - d.k; }, rng);
    check_shape("x - x r k", 1, [](const auto& v, const Draw& d) { return std::pair{v[0] - v[0], d.k}; },
                [](const Values&, const Draw& d) { return I64{0} - d.k; }, rng);
    check_shape("x + y - y r k", 2, [](const auto& v, const Draw& d) { return std::pair{v[0] + v[1] - v[1], d.k}; },
                [](const Values& x, const Draw& d) { return I64{x[0]} - d.k; }, rng);
    check_shape("x + y + z - z r k", 3,
                [](const auto& v, const Draw& d) { return std::pair{v[0] + v[1] + v[2] - v[2], d.k}; },
                [](const Values& x, const Draw& d) { return I64{x[0]} + x[1] - d.k; }, rng);
    check_shape("a*x + y + z - z r b*y", 3,
                [](const auto& v, const Draw& d) { return std::pair{d.a * v[0] + v[1] + v[2] - v[2], d.b * v[1]}; },
                [](const Values& x, const Draw& d) { return I64{d.a} * x[0] + x[1] - I64{d.b} * x[1]; }, rng);
    check_shape("(x + y) += z r k", 3,
                [](const auto& v, const Draw& d) {
                    auto e = v[0] + v[1];
                    e += v[2];
                    return std::pair{e, d.k};
                },
                [](const Values& x, const Draw& d) { return I64{x[0]} + x[1] + x[2] - d.k; }, rng);
    check_shape("(x - y) += z + w r k", 4,
                [](const auto& v, const Draw& d) {
                    auto e = v[0] - v[1];
                    e += v[2] + d.a * v[3];
                    return std::pair{e, d.k};
                },
                [](const Values& x, const Draw& d) { return I64{x[0]} - x[1] + x[2] + I64{d.a} * x[3] - d.k; },
                rng);
}
