// Google Benchmark microbenchmarks of propane's propagators beyond
// AllDifferent (whose rows are in bench_propane.cpp): relations, linear
// sums, arithmetic, clauses, reification, element, count, div, mod and
// tables. Each row posts one constraint on a store at its root fixpoint;
// an iteration is a level with a cut that makes it prune, the propagation
// and the pop.
//
// Reading the numbers. The Time column is per iteration; the counters are
// rates (k = thousand, M = million, per second):
//   propagations  propagator runs; removals: the values they removed
//   fixings       Booleans fixed by propagation in one level (BM_ClauseMany)
// Neighbouring rows differ in one thing (view, relation, size), so their
// ratio is the price of that thing. The rows of the constraints on
// Booleans, reification, element, count, div, mod and table each have a
// twin that states the same constraint another way (the plain relation or
// sum for a reified one with b fixed to 1, a sum for a clause, a table for
// an element, the reified decomposition for count), posted, cut and pruned
// alike; div and mod stand next to times (BM_Times), whose cut is their
// mirror image. Absolute times drift on a shared machine: compare rows of
// one run, not runs.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <type_traits>
#include <vector>

#include <propane/constraints/abs.hpp>
#include <propane/constraints/bool/clause.hpp>
#include <propane/constraints/bool/linear_reif.hpp>
#include <propane/constraints/bool/rel_reif.hpp>
#include <propane/constraints/count.hpp>
#include <propane/constraints/div_mod.hpp>
#include <propane/constraints/element.hpp>
#include <propane/constraints/linear.hpp>
#include <propane/constraints/min_max.hpp>
#include <propane/constraints/rel.hpp>
#include <propane/constraints/table.hpp>
#include <propane/constraints/times.hpp>

#include "bench_support.hpp"

namespace {

using namespace propane_bench;

// ---- relations, linear sums, arithmetic ------------------------------------

// One propagator posted on a store at its root fixpoint; an iteration is a
// level holding one update through a view (`cut`), the propagation it wakes
// and the pop that undoes both. The Time column is that whole level: the
// trail rows above price the level alone. The cut is chosen so that the
// propagator prunes every time; the removals counter says how much, beyond
// the cut (counted once, untimed, over every variable of the store).
template <class D, class Cut>
void cut_and_propagate(benchmark::State& state, propane::Store<D>& s, Cut&& cut) {
    if (!s.propagate()) std::abort();
    s.push_level();
    expect_ok(cut(s));
    const std::uint64_t before = total_size(s);
    if (!s.propagate()) std::abort();
    const std::uint64_t removed = before - total_size(s);
    s.pop_level();
    // A row whose propagator prunes nothing would time only the wake-up.
    if (removed == 0) std::abort();
    const std::uint64_t runs_before = s.propagations();
    for (auto _ : state) {
        s.push_level();
        benchmark::DoNotOptimize(cut(s));
        benchmark::DoNotOptimize(s.propagate());
        s.pop_level();
    }
    rate(state, "propagations", static_cast<double>(s.propagations() - runs_before), benchmark::Counter::kIsRate);
    rate(state, "removals", static_cast<double>(removed), benchmark::Counter::kIsIterationInvariantRate);
}

// x r y over 0..n-1. eq: x loses its upper half and y follows (domain
// consistent, so the values go one by one where the views differ); ne: x is
// fixed and its value leaves y; lt: x's lower bound moves to n/2 and y's
// past it.
template <propane::Rel R>
void BM_Rel(benchmark::State& state) {
    const int n = arg(state);
    propane::Store<Dynamic> s;
    const IntVar x = s.int_var(0, n - 1), y = s.int_var(0, n - 1);
    s.post(propane::rel(x, R, y));
    cut_and_propagate(state, s, [&](auto& st) {
        if constexpr (R == propane::Rel::eq) return x.remove_above(st, n / 2);
        else if constexpr (R == propane::Rel::ne) return x.assign(st, n / 2);
        else return x.remove_below(st, n / 2);
    });
}
BENCHMARK_TEMPLATE(BM_Rel, propane::Rel::eq)->Apply(quick)->Arg(64)->Arg(1024);
BENCHMARK_TEMPLATE(BM_Rel, propane::Rel::ne)->Apply(quick)->Arg(64)->Arg(1024);
BENCHMARK_TEMPLATE(BM_Rel, propane::Rel::lt)->Apply(quick)->Arg(64)->Arg(1024);

// sum x[i] r c over k terms in 0..9, unit coefficients, and one cut on x[0]
// that moves a bound of every other term:
//   eq, c = 9k - 5: the root leaves each term in 4..9; x[0] <= 5 leaves the
//       others at least 8;
//   le, c = 9: x[0] >= 5 leaves the others at most 4;
//   ne, c = k + 2: all terms but x[0] and x[k-1] fixed to 1 at the root;
//       x[0] = 1 fixes the sum of the rest, which removes 3 from x[k-1].
template <propane::Rel R>
void BM_Linear(benchmark::State& state) {
    const int k = arg(state);
    propane::Store<Dynamic> s;
    const std::vector<IntVar> x = s.int_vars(k, 0, 9);
    const std::int64_t c = R == propane::Rel::eq ? 9 * k - 5 : R == propane::Rel::le ? 9 : k + 2;
    s.post(propane::linear(x, R, c));
    if constexpr (R == propane::Rel::ne)
        for (int i = 1; i + 1 < k; ++i) expect_ok(x[static_cast<std::size_t>(i)].assign(s, 1));
    cut_and_propagate(state, s, [&](auto& st) {
        if constexpr (R == propane::Rel::eq) return x[0].remove_above(st, 5);
        else if constexpr (R == propane::Rel::le) return x[0].remove_below(st, 5);
        else return x[0].assign(st, 1);
    });
}
BENCHMARK_TEMPLATE(BM_Linear, propane::Rel::eq)->Apply(quick)->Arg(3)->Arg(20);
BENCHMARK_TEMPLATE(BM_Linear, propane::Rel::le)->Apply(quick)->Arg(3)->Arg(20);
BENCHMARK_TEMPLATE(BM_Linear, propane::Rel::ne)->Apply(quick)->Arg(3)->Arg(20);

// y = |x|, x over -n..n, y over 0..n: y <= n/2 removes both ends of x,
// one value at a time (abs is domain consistent).
void BM_Abs(benchmark::State& state) {
    const int n = arg(state);
    propane::Store<Dynamic> s;
    const IntVar x = s.int_var(-n, n), y = s.int_var(0, n);
    s.post(propane::abs(x, y));
    cut_and_propagate(state, s, [&](auto& st) { return y.remove_above(st, n / 2); });
}
BENCHMARK(BM_Abs)->Apply(quick)->Arg(50)->Arg(500);

// y = min (max) of 8 views over 0..99: one view's upper (lower) bound moves
// to 20 (80), and y's follows.
template <propane::Extreme Which>
void BM_Extremum(benchmark::State& state) {
    const int k = arg(state);
    propane::Store<Dynamic> s;
    const std::vector<IntVar> x = s.int_vars(k, 0, 99);
    const IntVar y = s.int_var(0, 99);
    constexpr bool least = Which == propane::Extreme::least;
    if constexpr (least) s.post(propane::min(x, y));
    else s.post(propane::max(x, y));
    const IntVar cut_view = x[static_cast<std::size_t>(k / 2)];
    cut_and_propagate(state, s, [&](auto& st) {
        return least ? cut_view.remove_above(st, 20) : cut_view.remove_below(st, 80);
    });
}
BENCHMARK_TEMPLATE(BM_Extremum, propane::Extreme::least)->Apply(quick)->Arg(8);
BENCHMARK_TEMPLATE(BM_Extremum, propane::Extreme::greatest)->Apply(quick)->Arg(8);

// z = x * y, x and y over -10..10, z over -30..30: the root prunes nothing
// (x = 10, y = 0 is a support), and x >= 5 cuts y to -6..6.
void BM_Times(benchmark::State& state) {
    propane::Store<Dynamic> s;
    const IntVar x = s.int_var(-10, 10), y = s.int_var(-10, 10), z = s.int_var(-30, 30);
    s.post(propane::times(x, y, z));
    cut_and_propagate(state, s, [&](auto& st) { return x.remove_below(st, 5); });
}
BENCHMARK(BM_Times)->Apply(quick);

// ---- Booleans, reification, lookup, counting, division -----------------------

// x r y over 0..n-1 with b fixed to 1 before the root propagation: the
// same cuts and pruning as the BM_Rel rows, so the ratio between a row here
// and its BM_Rel twin is the price of the reified propagator once b is
// decided. Open: b free and x <= y over 0..n-1; x >= n/2 with y <= n/4
// (one cut after the other) disentails it, and only b changes.
template <propane::Rel R>
void BM_RelReif(benchmark::State& state) {
    const int n = arg(state);
    propane::Store<Dynamic> s;
    const IntVar x = s.int_var(0, n - 1), y = s.int_var(0, n - 1), b = s.bool_var();
    s.post(propane::rel(x, R, y, propane::iff(b)));
    expect_ok(b.assign(s, 1));
    cut_and_propagate(state, s, [&](auto& st) {
        if constexpr (R == propane::Rel::eq) return x.remove_above(st, n / 2);
        else if constexpr (R == propane::Rel::ne) return x.assign(st, n / 2);
        else return x.remove_below(st, n / 2);
    });
}
BENCHMARK_TEMPLATE(BM_RelReif, propane::Rel::eq)->Apply(quick)->Arg(64)->Arg(1024);
BENCHMARK_TEMPLATE(BM_RelReif, propane::Rel::ne)->Apply(quick)->Arg(64)->Arg(1024);
BENCHMARK_TEMPLATE(BM_RelReif, propane::Rel::lt)->Apply(quick)->Arg(64)->Arg(1024);

template <propane::ReifyMode Mode>
void BM_RelReifOpen(benchmark::State& state) {
    const int n = arg(state);
    propane::Store<Dynamic> s;
    const IntVar x = s.int_var(0, n - 1), y = s.int_var(0, n - 1), b = s.bool_var();
    const auto re = Mode == propane::ReifyMode::iff ? propane::iff(b) : propane::implies(b);
    s.post(propane::rel(x, propane::Rel::le, y, re));
    cut_and_propagate(state, s, [&](auto& st) {
        expect_ok(y.remove_above(st, n / 4));
        return x.remove_below(st, n / 2);
    });
}
BENCHMARK_TEMPLATE(BM_RelReifOpen, propane::ReifyMode::iff)->Apply(quick)->Arg(64);
BENCHMARK_TEMPLATE(BM_RelReifOpen, propane::ReifyMode::implies)->Apply(quick)->Arg(64);

// BM_Linear's sums, cuts and pruning, reified by iff(b) with b fixed to 1
// after posting (b fixed when posted would post linear() itself): the
// ratio to the BM_Linear twin is the price of the reified propagator once
// b is decided. Open: b free, sum x <= 4 over k terms in 0..9; x[0] >= 5
// disentails it and only b changes.
template <propane::Rel R>
void BM_LinearReif(benchmark::State& state) {
    const int k = arg(state);
    propane::Store<Dynamic> s;
    const std::vector<IntVar> x = s.int_vars(k, 0, 9);
    const IntVar b = s.bool_var();
    const std::int64_t c = R == propane::Rel::eq ? 9 * k - 5 : R == propane::Rel::le ? 9 : k + 2;
    s.post(propane::linear(x, R, c, propane::iff(b)));
    expect_ok(b.assign(s, 1));
    if constexpr (R == propane::Rel::ne)
        for (int i = 1; i + 1 < k; ++i) expect_ok(x[static_cast<std::size_t>(i)].assign(s, 1));
    cut_and_propagate(state, s, [&](auto& st) {
        if constexpr (R == propane::Rel::eq) return x[0].remove_above(st, 5);
        else if constexpr (R == propane::Rel::le) return x[0].remove_below(st, 5);
        else return x[0].assign(st, 1);
    });
}
BENCHMARK_TEMPLATE(BM_LinearReif, propane::Rel::eq)->Apply(quick)->Arg(3)->Arg(20);
BENCHMARK_TEMPLATE(BM_LinearReif, propane::Rel::le)->Apply(quick)->Arg(3)->Arg(20);
BENCHMARK_TEMPLATE(BM_LinearReif, propane::Rel::ne)->Apply(quick)->Arg(3)->Arg(20);

template <propane::ReifyMode Mode>
void BM_LinearReifOpen(benchmark::State& state) {
    const int k = arg(state);
    propane::Store<Dynamic> s;
    const std::vector<IntVar> x = s.int_vars(k, 0, 9);
    const IntVar b = s.bool_var();
    const auto re = Mode == propane::ReifyMode::iff ? propane::iff(b) : propane::implies(b);
    s.post(propane::linear(x, propane::Rel::le, 4, re));
    cut_and_propagate(state, s, [&](auto& st) { return x[0].remove_below(st, 5); });
}
BENCHMARK_TEMPLATE(BM_LinearReifOpen, propane::ReifyMode::iff)->Apply(quick)->Arg(3)->Arg(20);
BENCHMARK_TEMPLATE(BM_LinearReifOpen, propane::ReifyMode::implies)->Apply(quick)->Arg(3)->Arg(20);

// One clause over k Booleans, and its twin as a sum of the same literals
// (half of them negated, 1 - b) >= 1: a level fixes every literal but the
// last to false and propagation sets the last. The clause reads only its
// two watches until one falls; the sum is woken by every fixing.
template <bool AsSum>
void BM_ClauseLong(benchmark::State& state) {
    const int k = arg(state);
    propane::Store<Words1> s;
    const std::vector<IntVar> b = s.bool_vars(k);
    std::vector<AffineView> lits;
    std::vector<IntVar> pos, neg;
    for (int i = 0; i < k; ++i) {
        const IntVar v = b[static_cast<std::size_t>(i)];
        lits.push_back(i % 2 == 0 ? AffineView(v) : 1 - v);
        (i % 2 == 0 ? pos : neg).push_back(v);
    }
    if constexpr (AsSum) s.post(propane::linear(lits, propane::Rel::ge, 1));
    else s.post(propane::clause(pos, neg));
    cut_and_propagate(state, s, [&](auto& st) {
        propane::Change c = propane::Change::none;
        for (int i = 0; i + 1 < k; ++i) c = b[static_cast<std::size_t>(i)].assign(st, i % 2 == 0 ? 0 : 1);
        return c;
    });
}
BENCHMARK_TEMPLATE(BM_ClauseLong, false)->Apply(quick)->Arg(8)->Arg(256);
BENCHMARK_TEMPLATE(BM_ClauseLong, true)->Apply(quick)->Arg(8)->Arg(256);

// Many short clauses, as FlatZinc produces them: m clauses of 3 literals
// over n Booleans (random variables and signs, each clause made true by a
// planted assignment, so nothing fails), or the same literals as sums >= 1.
// An iteration is a level that fixes 4 Booleans to their planted values,
// propagates (unit propagation fixes more) and pops; successive levels fix
// successive Booleans, cycling. fixings: Booleans fixed by propagation per
// level, on average over the cycle (counted untimed).
template <bool AsSums>
void BM_ClauseMany(benchmark::State& state) {
    const int n = arg(state, 0), m = arg(state, 1);
    std::mt19937 rng(20261127);
    const auto below = [&rng](int k) { return static_cast<int>(rng() % static_cast<unsigned>(k)); };
    propane::Store<Words1> s;
    const std::vector<IntVar> b = s.bool_vars(n);
    std::vector<int> planted(static_cast<std::size_t>(n));
    for (int& p : planted) p = below(2);
    for (int j = 0; j < m; ++j) {
        int v[3];
        do {
            for (int& w : v) w = below(n);
        } while (v[0] == v[1] || v[0] == v[2] || v[1] == v[2]);
        int sign[3];
        do {
            for (int& g : sign) g = below(2);
        } while ([&] {
            for (int i = 0; i < 3; ++i)
                if (sign[i] == planted[static_cast<std::size_t>(v[i])]) return false;
            return true;
        }());
        std::vector<IntVar> pos, neg;
        std::vector<AffineView> lits;
        for (int i = 0; i < 3; ++i) {
            const IntVar x = b[static_cast<std::size_t>(v[i])];
            (sign[i] == 1 ? pos : neg).push_back(x);
            lits.push_back(sign[i] == 1 ? AffineView(x) : 1 - x);
        }
        if constexpr (AsSums) s.post(propane::linear(lits, propane::Rel::ge, 1));
        else s.post(propane::clause(pos, neg));
    }
    if (!s.propagate()) std::abort();
    std::vector<int> order(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = i;
    std::shuffle(order.begin(), order.end(), rng);
    const std::size_t levels = order.size() / 4;
    auto level = [&](std::size_t at) {
        s.push_level();
        for (std::size_t i = 4 * at; i < 4 * at + 4; ++i) {
            const auto v = static_cast<std::size_t>(order[i]);
            benchmark::DoNotOptimize(b[v].assign(s, planted[v]));
        }
        if (!s.propagate()) std::abort();
    };
    std::uint64_t fixed = 0;
    for (std::size_t at = 0; at < levels; ++at) {
        const std::uint64_t before = total_size(s);
        level(at);
        fixed += before - total_size(s);
        s.pop_level();
    }
    const std::uint64_t runs_before = s.propagations();
    std::size_t at = 0;
    for (auto _ : state) {
        level(at);
        s.pop_level();
        if (++at == levels) at = 0;
    }
    rate(state, "propagations", static_cast<double>(s.propagations() - runs_before), benchmark::Counter::kIsRate);
    state.counters["fixings"] = static_cast<double>(fixed) / static_cast<double>(levels);
}
BENCHMARK_TEMPLATE(BM_ClauseMany, false)->Apply(quick)->Args({300, 30000});
BENCHMARK_TEMPLATE(BM_ClauseMany, true)->Apply(quick)->Args({300, 30000});

// y == array[i], array n random values in 0..n/2-1, i over 0..n-1, y over
// 0..n/2-1; y <= n/8 leaves i the indices of the small entries. The twin
// is the same relation as a table of the pairs (k, array[k]); both are
// domain consistent, so they prune alike.
template <bool AsTable>
void BM_ElementConst(benchmark::State& state) {
    const int n = arg(state);
    std::mt19937 rng(20261127);
    std::vector<int> array(static_cast<std::size_t>(n));
    for (int& a : array) a = static_cast<int>(rng() % static_cast<unsigned>(n / 2));
    propane::Store<Dynamic> s;
    const IntVar i = s.int_var(0, n - 1), y = s.int_var(0, n / 2 - 1);
    if constexpr (AsTable) {
        std::vector<std::vector<int>> pairs;
        for (int k = 0; k < n; ++k) pairs.push_back({k, array[static_cast<std::size_t>(k)]});
        s.post(propane::table(std::vector<IntVar>{i, y}, pairs));
    } else {
        s.post(propane::element(array, i, y));
    }
    cut_and_propagate(state, s, [&](auto& st) { return y.remove_above(st, n / 8); });
}
BENCHMARK_TEMPLATE(BM_ElementConst, false)->Apply(quick)->Arg(64)->Arg(1024);
BENCHMARK_TEMPLATE(BM_ElementConst, true)->Apply(quick)->Arg(64)->Arg(1024);

// y == xs[i], k views: xs[j] over j..j+63, i over 0..k-1, y over 0..k+62.
// Open index: y <= k/2 leaves i 0..k/2 (and y's bounds follow). Fixed index
// (i = k/2 at the root): the cut xs[k/2] <= k/2 + 31 is followed by y, as
// rel(x, eq, y) follows x in the BM_Rel rows; the Rel twin here is that
// relation alone over the same domains and cut.
enum class ElementCase { open_index, fixed_index, rel };
template <ElementCase Case>
void BM_ElementVar(benchmark::State& state) {
    const int k = arg(state);
    propane::Store<Dynamic> s;
    std::vector<IntVar> xs;
    for (int j = 0; j < k; ++j) xs.push_back(s.int_var(j, j + 63));
    const IntVar i = s.int_var(0, k - 1), y = s.int_var(0, k + 62);
    const IntVar mid = xs[static_cast<std::size_t>(k / 2)];
    if constexpr (Case == ElementCase::rel) {
        s.post(propane::rel(mid, propane::Rel::eq, y));
    } else {
        s.post(propane::element(xs, i, y));
        if constexpr (Case == ElementCase::fixed_index) expect_ok(i.assign(s, k / 2));
    }
    cut_and_propagate(state, s, [&](auto& st) {
        if constexpr (Case == ElementCase::open_index) return y.remove_above(st, k / 2);
        else return mid.remove_above(st, k / 2 + 31);
    });
}
BENCHMARK_TEMPLATE(BM_ElementVar, ElementCase::open_index)->Apply(quick)->Arg(8)->Arg(64);
BENCHMARK_TEMPLATE(BM_ElementVar, ElementCase::fixed_index)->Apply(quick)->Arg(8)->Arg(64);
BENCHMARK_TEMPLATE(BM_ElementVar, ElementCase::rel)->Apply(quick)->Arg(8)->Arg(64);

// #{j : x[j] == 0} == c, k views over 0..9, c over 0..2: fixing x[0] and
// x[1] to 0 reaches max(c), so 0 leaves every other view and c is 2. The
// twin is the usual decomposition: b[j] == (x[j] == 0) by reified rel, and
// sum b == c.
template <bool Decomposed>
void BM_Count(benchmark::State& state) {
    const int k = arg(state);
    propane::Store<Dynamic> s;
    const std::vector<IntVar> x = s.int_vars(k, 0, 9);
    const IntVar c = s.int_var(0, 2);
    if constexpr (Decomposed) {
        const std::vector<IntVar> b = s.bool_vars(k);
        for (std::size_t j = 0; j < x.size(); ++j) s.post(propane::rel(x[j], propane::Rel::eq, 0, propane::iff(b[j])));
        std::vector<int> coeffs(x.size(), 1);
        coeffs.push_back(-1);
        std::vector<IntVar> terms = b;
        terms.push_back(c);
        s.post(propane::linear(coeffs, terms, propane::Rel::eq, 0));
    } else {
        s.post(propane::count(x, 0, propane::Rel::eq, c));
    }
    cut_and_propagate(state, s, [&](auto& st) {
        expect_ok(x[0].assign(st, 0));
        return x[1].assign(st, 0);
    });
}
BENCHMARK_TEMPLATE(BM_Count, false)->Apply(quick)->Arg(8)->Arg(64);
BENCHMARK_TEMPLATE(BM_Count, true)->Apply(quick)->Arg(8)->Arg(64);

// z = x / y and z = x % y beside BM_Times: x over -30..30, y over -10..10,
// z over -30..30. div: y >= 5 cuts z to -6..6. mod: the root leaves z in
// -9..9 (|z| < |y|), and x >= 3 cuts it to 0..9 (z takes x's sign).
void BM_Div(benchmark::State& state) {
    propane::Store<Dynamic> s;
    const IntVar x = s.int_var(-30, 30), y = s.int_var(-10, 10), z = s.int_var(-30, 30);
    s.post(propane::div(x, y, z));
    cut_and_propagate(state, s, [&](auto& st) { return y.remove_below(st, 5); });
}
BENCHMARK(BM_Div)->Apply(quick);

void BM_Mod(benchmark::State& state) {
    propane::Store<Dynamic> s;
    const IntVar x = s.int_var(-30, 30), y = s.int_var(-10, 10), z = s.int_var(-30, 30);
    s.post(propane::mod(x, y, z));
    cut_and_propagate(state, s, [&](auto& st) { return x.remove_below(st, 3); });
}
BENCHMARK(BM_Mod)->Apply(quick);

// A table over 3 views in 0..9 of t random tuples (at t = 1000, 16 words
// of supports per value). A level fixes x[0] and x[1] as the first tuple
// has them: allowed, x[2] keeps the values of the tuples with that prefix;
// forbidden, x[2] loses them.
template <propane::TableMode Mode>
void BM_Table(benchmark::State& state) {
    const int t = arg(state);
    std::mt19937 rng(20261127);
    std::vector<std::vector<int>> tuples;
    for (int j = 0; j < t; ++j)
        tuples.push_back({static_cast<int>(rng() % 10), static_cast<int>(rng() % 10), static_cast<int>(rng() % 10)});
    propane::Store<Dynamic> s;
    const std::vector<IntVar> x = s.int_vars(3, 0, 9);
    s.post(propane::table(x, tuples, Mode));
    const std::vector<int> first = tuples.front();
    cut_and_propagate(state, s, [&](auto& st) {
        expect_ok(x[0].assign(st, first[0]));
        return x[1].assign(st, first[1]);
    });
}
BENCHMARK_TEMPLATE(BM_Table, propane::TableMode::allowed)->Apply(quick)->Arg(30)->Arg(1000);
BENCHMARK_TEMPLATE(BM_Table, propane::TableMode::forbidden)->Apply(quick)->Arg(30)->Arg(1000);

} // namespace
