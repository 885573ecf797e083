// Google Benchmark microbenchmarks of propane's engine, from the parts up:
// domain operations, the trail, AllDifferent propagation, then whole
// N-queens searches next to a bitboard counter that marks the speed limit.
// The other propagators have their rows in bench_constraints.cpp.
//
// Reading the numbers. An iteration runs a batch of work, so the Time column
// is per batch; the counters are per item, as rates (k = thousand, M =
// million, per second):
//   ops           domain operations, one call on one domain each
//   levels        push_level/pop_level pairs; restored: trail entries undone
//   propagations  propagator runs; removals: the values they removed
//   branches      search branches; time/branch is the same figure inverted
// Neighbouring rows differ in one thing (width, view, strength, size), so
// their ratio is the price of that thing. Absolute times drift on a shared
// machine: compare rows of one run, not runs.
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

#include <propane/constraints/all_different.hpp>

#include "bench_support.hpp"
#include "bitboard.hpp"
#include "nqueens_model.hpp"

namespace {

using namespace propane_bench;
using propane::bounds;
using propane::domain;
using propane::value;

// ---- domain operations -------------------------------------------------------


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
