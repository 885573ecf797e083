// Google Benchmark microbenchmarks of propane, from the parts up: domain
// operations, the trail, AllDifferent propagation, the relation, linear and
// arithmetic propagators, clauses, reification, element, count, div, mod
// and tables, then whole N-queens searches next to a bitboard counter that
// marks the speed limit.
//
// Reading the numbers. An iteration runs a batch of work, so the Time column
// is per batch; the counters are per item, as rates (k = thousand, M =
// million, per second):
//   ops           domain operations, one call on one domain each
//   levels        push_level/pop_level pairs; restored: trail entries undone
//   propagations  propagator runs; removals: the values they removed
//   branches      search branches; time/branch is the same figure inverted
//   fixings       Booleans fixed by propagation in one level (BM_ClauseMany)
// Neighbouring rows differ in one thing (width, view, strength, size), so
// their ratio is the price of that thing. The rows of the constraints on
// Booleans, reification, element, count, div, mod and table each have a
// twin that states the same constraint another way (the plain relation or
// sum for a reified one with b fixed to 1, a sum for a clause, a table for
// an element, the reified decomposition for count), posted, cut and pruned
// alike; div and mod stand next to times (BM_Times), whose cut is their
// mirror image. Absolute times drift on a shared machine: compare rows of
// one run, not runs.
//
// Domain rows: Words1/2/4 are BitDomain<1/2/4> filled to capacity (the
// argument is the number of values); Dynamic is BitDomain<dynamic> at three
// sizes. Updates must start from the same domain each time, so the assign
// and intersect rows include copying that domain back: the copy row is
// that cost alone. The remove rows copy once per n - 1 removals.

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

#include "bitboard.hpp"
#include "nqueens_model.hpp"

namespace {

using Words1 = propane::BitDomain<1>;
using Words2 = propane::BitDomain<2>;
using Words4 = propane::BitDomain<4>;
using Dynamic = propane::BitDomain<propane::dynamic>;
using propane::AffineView;
using propane::IntVar;
using propane::OffsetView;
using propane::bounds;
using propane::domain;
using propane::value;

int arg(const benchmark::State& state, int i = 0) { return static_cast<int>(state.range(i)); }

void rate(benchmark::State& state, const char* name, double count, benchmark::Counter::Flags flags) {
    state.counters[name] = benchmark::Counter(count, flags);
}

// ---- domain operations -------------------------------------------------------

// Setup updates that cannot fail; if one did, the row would time something
// else than it says.
void expect_ok(propane::Change c) {
    if (c == propane::Change::failed) std::abort();
}

// Sixteen domains over 0..n-1 as a search leaves them: bounds moved in from
// both ends, a quarter of the values between them gone. They differ from
// each other, so a loop over them is not one branch pattern learnt once.
template <class D>
std::vector<D> sample(int n) {
    std::mt19937 rng(20240605);
    const auto below = [&rng](int k) { return static_cast<int>(rng() % static_cast<unsigned>(k)); };
    std::vector<D> out;
    for (int k = 0; k < 16; ++k) {
        D d(0, n - 1);
        const int lo = below(n / 2), hi = n / 2 + below(n / 2);
        expect_ok(d.remove_below(lo));
        expect_ok(d.remove_above(hi));
        for (int v = lo + 1; v < hi; ++v)
            if (below(4) == 0) expect_ok(d.remove(v));
        out.push_back(d);
    }
    return out;
}

// Runs op(domains[k], k) over all domains in each iteration; op returns how
// many operations it did.
template <class D, class Op>
void each(benchmark::State& state, const std::vector<D>& domains, Op&& op) {
    // With the domains' address escaped, the clobber in DoNotOptimize keeps
    // the compiler from hoisting a query out of the timed loop.
    benchmark::DoNotOptimize(domains.data());
    std::size_t ops = 0;
    for (auto _ : state)
        for (std::size_t k = 0; k < domains.size(); ++k) ops += op(domains[k], k);
    rate(state, "ops", static_cast<double>(ops), benchmark::Counter::kIsRate);
}

template <class D, class Query>
void query(benchmark::State& state, Query&& q) {
    each(state, sample<D>(arg(state)), [&q](const D& d, std::size_t) {
        benchmark::DoNotOptimize(q(d));
        return std::size_t{1};
    });
}

template <class D>
void BM_DomainMin(benchmark::State& state) {
    query<D>(state, [](const D& d) { return d.min(); });
}
template <class D>
void BM_DomainMax(benchmark::State& state) {
    query<D>(state, [](const D& d) { return d.max(); });
}
template <class D>
void BM_DomainSize(benchmark::State& state) {
    query<D>(state, [](const D& d) { return d.size(); });
}
template <class D>
void BM_DomainFixed(benchmark::State& state) {
    query<D>(state, [](const D& d) { return d.fixed(); });
}

// 64 probes a domain, scattered so that neither the branch predictor nor a
// vectoriser sees a pattern.
template <class D>
void BM_DomainContains(benchmark::State& state) {
    const int n = arg(state);
    std::mt19937 rng(7);
    std::vector<int> probes(64);
    for (int& v : probes) v = static_cast<int>(rng() % static_cast<unsigned>(n));
    each(state, sample<D>(n), [&probes](const D& d, std::size_t) {
        for (const int v : probes) benchmark::DoNotOptimize(d.contains(v));
        return probes.size();
    });
}

// Every value of each domain, one op a value.
template <class D>
void BM_DomainNext(benchmark::State& state) {
    each(state, sample<D>(arg(state)), [](const D& d, std::size_t) {
        std::size_t seen = 1;
        const int last = d.max();
        for (int v = d.min(); v != last; ++seen) {
            v = d.next(v);
            benchmark::DoNotOptimize(v);
        }
        return seen;
    });
}
template <class D>
void BM_DomainIterator(benchmark::State& state) {
    each(state, sample<D>(arg(state)), [](const D& d, std::size_t) {
        std::size_t seen = 0;
        for (int v : d) {
            benchmark::DoNotOptimize(v);
            ++seen;
        }
        return seen;
    });
}

// From the full domain down to one value: updates of every kind, domain,
// bounds and finally fixed.
template <class D, class Shrink>
void shrink_full(benchmark::State& state, Shrink&& shrink) {
    const int n = arg(state);
    const std::vector<D> full{D(0, n - 1)};
    D work = full.front();
    each(state, full, [&](const D& start, std::size_t) {
        work = start;
        return shrink(work, n);
    });
}

// Removes all values but one, in a shuffled order.
template <class D>
void BM_DomainRemove(benchmark::State& state) {
    std::vector<int> order(static_cast<std::size_t>(arg(state)));
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
    std::shuffle(order.begin(), order.end(), std::mt19937(11));
    order.pop_back();
    shrink_full<D>(state, [&order](D& d, int) {
        for (const int v : order) benchmark::DoNotOptimize(d.remove(v));
        return order.size();
    });
}

// Raises the lower (lowers the upper) bound one value at a time.
template <class D>
void BM_DomainRemoveBelow(benchmark::State& state) {
    shrink_full<D>(state, [](D& d, int n) {
        for (int v = 1; v < n; ++v) benchmark::DoNotOptimize(d.remove_below(v));
        return static_cast<std::size_t>(n - 1);
    });
}
template <class D>
void BM_DomainRemoveAbove(benchmark::State& state) {
    shrink_full<D>(state, [](D& d, int n) {
        for (int v = n - 2; v >= 0; --v) benchmark::DoNotOptimize(d.remove_above(v));
        return static_cast<std::size_t>(n - 1);
    });
}

// Copies a sampled domain into a work domain, then applies `update` to it.
template <class D, class Update>
void update_copy(benchmark::State& state, Update&& update) {
    const std::vector<D> domains = sample<D>(arg(state));
    D work = domains.front();
    each(state, domains, [&](const D& d, std::size_t k) {
        work = d;
        update(work, domains, k);
        return std::size_t{1};
    });
}

template <class D>
void BM_DomainCopy(benchmark::State& state) {
    update_copy<D>(state, [](D& work, const std::vector<D>&, std::size_t) { benchmark::DoNotOptimize(work); });
}

// Assigns the middle value of each domain.
template <class D>
void BM_DomainAssign(benchmark::State& state) {
    std::vector<int> middle;
    for (const D& d : sample<D>(arg(state))) {
        int v = d.min();
        for (unsigned i = 0; i < d.size() / 2; ++i) v = d.next(v);
        middle.push_back(v);
    }
    update_copy<D>(state, [&middle](D& work, const std::vector<D>&, std::size_t k) {
        benchmark::DoNotOptimize(work.assign(middle[k]));
    });
}

// Intersects each domain with the next one of the sample: bounds and holes
// both change.
template <class D>
void BM_DomainIntersect(benchmark::State& state) {
    update_copy<D>(state, [](D& work, const std::vector<D>& domains, std::size_t k) {
        benchmark::DoNotOptimize(work.intersect(domains[(k + 1) % domains.size()]));
    });
}

// Operations of nanoseconds settle within a tenth of a second; at the
// default half second, these rows alone would take a minute. MinTime wins
// over --benchmark_min_time, so they keep the tenth whatever it says.
void quick(benchmark::internal::Benchmark* b) { b->MinTime(0.1); }

// Fixed widths at capacity, the dynamic width small, medium and large. A
// macro because BENCHMARK_TEMPLATE registers one instantiation at a time.
#define PROPANE_EVERY_WIDTH(fn)                             \
    BENCHMARK_TEMPLATE(fn, Words1)->Apply(quick)->Arg(64);  \
    BENCHMARK_TEMPLATE(fn, Words2)->Apply(quick)->Arg(128); \
    BENCHMARK_TEMPLATE(fn, Words4)->Apply(quick)->Arg(256); \
    BENCHMARK_TEMPLATE(fn, Dynamic)->Apply(quick)->Arg(64)->Arg(1024)->Arg(16384)

PROPANE_EVERY_WIDTH(BM_DomainMin);
PROPANE_EVERY_WIDTH(BM_DomainMax);
PROPANE_EVERY_WIDTH(BM_DomainSize);
PROPANE_EVERY_WIDTH(BM_DomainFixed);
PROPANE_EVERY_WIDTH(BM_DomainContains);
PROPANE_EVERY_WIDTH(BM_DomainNext);
PROPANE_EVERY_WIDTH(BM_DomainIterator);
PROPANE_EVERY_WIDTH(BM_DomainRemove);
PROPANE_EVERY_WIDTH(BM_DomainRemoveBelow);
PROPANE_EVERY_WIDTH(BM_DomainRemoveAbove);
PROPANE_EVERY_WIDTH(BM_DomainCopy);
PROPANE_EVERY_WIDTH(BM_DomainAssign);
PROPANE_EVERY_WIDTH(BM_DomainIntersect);

// ---- trail ---------------------------------------------------------------------

// A store of 1024 variables over 0..values-1; each level removes the middle
// value from `changed` of them, spread over the store, and pops. A fixed
// width saves a whole domain a variable, a dynamic one the word it changes:
// one entry each either way.
template <class D>
void BM_TrailLevel(benchmark::State& state) {
    const int changed = arg(state, 0), values = arg(state, 1);
    constexpr int vars = 1024;
    propane::Store<D> s;
    const std::vector<IntVar> xs = s.int_vars(vars, 0, values - 1);
    const auto stride = static_cast<std::size_t>(vars / changed);
    for (auto _ : state) {
        s.push_level();
        for (std::size_t i = 0; i < static_cast<std::size_t>(changed); ++i)
            benchmark::DoNotOptimize(xs[i * stride].remove(s, values / 2));
        s.pop_level();
    }
    rate(state, "levels", 1, benchmark::Counter::kIsIterationInvariantRate);
    rate(state, "restored", changed, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK_TEMPLATE(BM_TrailLevel, Words1)->Apply(quick)->ArgsProduct({{1, 8, 64}, {64}});
BENCHMARK_TEMPLATE(BM_TrailLevel, Dynamic)->Apply(quick)->ArgsProduct({{1, 8, 64}, {64, 1024}});

// ---- AllDifferent ------------------------------------------------------------

// The same map for every view of a constraint, so that all three view types
// see the same pruning and differ only in the cost of the mapping.
template <class View>
View make_view(IntVar x) {
    if constexpr (std::is_same_v<View, IntVar>)
        return x;
    else if constexpr (std::is_same_v<View, OffsetView>)
        return x + 1;
    else
        return 2 * x + 1;
}

template <class D>
std::uint64_t total_size(const propane::Store<D>& s) {
    std::uint64_t total = 0;
    for (int i = 0; i < s.num_vars(); ++i) total += s.domain(i).size();
    return total;
}

// Half a search path: level by level, x[i] = i and propagate. It stays
// consistent, so every strength removes the same values (each fixed value
// from the open views) and the rows show what each algorithm pays for
// checking that nothing more goes. Returns the values propagation removed,
// which only the untimed first descent counts.
template <class D>
std::uint64_t descend(propane::Store<D>& s, const std::vector<IntVar>& x, bool count) {
    std::uint64_t removed = 0;
    for (std::size_t i = 0; i < x.size() / 2; ++i) {
        s.push_level();
        expect_ok(x[i].assign(s, static_cast<int>(i)));
        const std::uint64_t before = count ? total_size(s) : 0;
        benchmark::DoNotOptimize(s.propagate());
        if (count) removed += before - total_size(s);
    }
    s.pop_to(0);
    return removed;
}

template <class D, class View>
void all_different_path(benchmark::State& state, int n, propane::Consistency strength) {
    propane::Store<D> s;
    const std::vector<IntVar> x = s.int_vars(n, 0, n - 1);
    std::vector<View> views;
    for (const IntVar& xi : x) views.push_back(make_view<View>(xi));
    s.post(propane::all_different(views, strength));
    s.propagate();
    const std::uint64_t removals = descend(s, x, true);
    const std::uint64_t runs_before = s.propagations();
    for (auto _ : state) descend(s, x, false);
    rate(state, "propagations", static_cast<double>(s.propagations() - runs_before), benchmark::Counter::kIsRate);
    rate(state, "removals", static_cast<double>(removals), benchmark::Counter::kIsIterationInvariantRate);
}

// The variables' domain type is the narrowest that holds 0..n-1: a view's
// image may be wider (2x + 1 spans 2n - 1 values), the variable's is not.
template <class View, propane::Consistency Strength>
void BM_AllDifferent(benchmark::State& state) {
    const int n = arg(state);
    nqueens::with_domain_for(n, [&](auto domain_type) {
        all_different_path<typename decltype(domain_type)::type, View>(state, n, Strength);
    });
}

void view_counts(benchmark::internal::Benchmark* b) {
    b->Unit(benchmark::kMicrosecond);
    for (const int n : {8, 16, 32, 64, 256}) b->Arg(n);
}
BENCHMARK_TEMPLATE(BM_AllDifferent, IntVar, value)->Apply(view_counts);
BENCHMARK_TEMPLATE(BM_AllDifferent, OffsetView, value)->Apply(view_counts);
BENCHMARK_TEMPLATE(BM_AllDifferent, AffineView, value)->Apply(view_counts);
BENCHMARK_TEMPLATE(BM_AllDifferent, IntVar, bounds)->Apply(view_counts);
BENCHMARK_TEMPLATE(BM_AllDifferent, OffsetView, bounds)->Apply(view_counts);
BENCHMARK_TEMPLATE(BM_AllDifferent, AffineView, bounds)->Apply(view_counts);
BENCHMARK_TEMPLATE(BM_AllDifferent, IntVar, domain)->Apply(view_counts);
BENCHMARK_TEMPLATE(BM_AllDifferent, OffsetView, domain)->Apply(view_counts);
BENCHMARK_TEMPLATE(BM_AllDifferent, AffineView, domain)->Apply(view_counts);

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

// ---- N-queens: the cost of a search node ---------------------------------------

// All solutions with the guide's strategy. A branch is one node of the
// binary tree: assign or refute, propagate, and later backtrack.
template <propane::Consistency Strength>
void BM_NQueensCount(benchmark::State& state) {
    const int n = arg(state);
    std::uint64_t branches = 0;
    for (auto _ : state) {
        const propane::SearchStats st = nqueens::count<Words1>(n, Strength);
        benchmark::DoNotOptimize(st.solutions);
        branches += st.branches;
    }
    rate(state, "branches", static_cast<double>(branches), benchmark::Counter::kIsRate);
    rate(state, "time/branch", static_cast<double>(branches),
         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK_TEMPLATE(BM_NQueensCount, value)->DenseRange(8, 12, 2)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_NQueensCount, bounds)->DenseRange(8, 12, 2)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_NQueensCount, domain)->DenseRange(8, 12, 2)->Unit(benchmark::kMillisecond);

// The speed limit: bitboard.hpp's plain backtracking counter, no engine.
// Its node is a queen placed, which is a left branch of propane's tree:
// time/placement is that node's price, next to time/branch above.
void BM_NQueensCount_Bitboard(benchmark::State& state) {
    int n = arg(state);
    // The count is a pure function of n: clang hoists it out of the loop
    // unless n, too, may change between iterations.
    for (auto _ : state) {
        benchmark::DoNotOptimize(n);
        benchmark::DoNotOptimize(bitboard::count(n));
    }
    const auto placements = static_cast<double>(bitboard::tree(n).placements);
    rate(state, "placements", placements, benchmark::Counter::kIsIterationInvariantRate);
    rate(state, "time/placement", placements,
         benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_NQueensCount_Bitboard)->DenseRange(8, 12, 2)->Unit(benchmark::kMillisecond);

} // namespace
