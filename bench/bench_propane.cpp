// Google Benchmark microbenchmarks. Absolute times drift on a shared
// machine; compare the rows of one run (the bitboard counter is the speed
// limit for the N-queens tree) rather than numbers across runs.

#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "bitboard.hpp"
#include "nqueens_model.hpp"

namespace {

using Store1 = propane::Store<propane::BitDomain<1>>;

// Value AllDifferent over n variables 0..n-1: fix x[0] = 0, x[1] = 1, ...
// propagating after each, which removes every fixed value from the other
// views: n*(n-1)/2 removals per iteration, then one backtrack.
void BM_AllDifferentValue_FixAll(benchmark::State& state) {
    const int n = static_cast<int>(state.range(0));
    Store1 s;
    auto x = s.int_vars(n, 0, n - 1);
    s.post(propane::all_different(x, propane::value));
    s.propagate();
    for (auto _ : state) {
        s.push_level();
        for (int i = 0; i < n; ++i) {
            x[static_cast<std::size_t>(i)].assign(s, i);
            benchmark::DoNotOptimize(s.propagate());
        }
        s.pop_level();
    }
    state.counters["removals"] =
        benchmark::Counter(static_cast<double>(state.iterations()) * n * (n - 1) / 2, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_AllDifferentValue_FixAll)->Arg(8)->Arg(16)->Arg(32)->Arg(64);

void count_queens(benchmark::State& state, propane::Consistency strength) {
    const int n = static_cast<int>(state.range(0));
    std::uint64_t nodes = 0;
    for (auto _ : state) {
        const propane::SearchStats st = nqueens::count<propane::BitDomain<1>>(n, strength);
        benchmark::DoNotOptimize(st.solutions);
        nodes += st.branches;
    }
    state.counters["branches"] = benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsRate);
}
void BM_NQueensCount_Value(benchmark::State& state) { count_queens(state, propane::value); }
void BM_NQueensCount_Bounds(benchmark::State& state) { count_queens(state, propane::bounds); }
BENCHMARK(BM_NQueensCount_Value)->Arg(8)->Arg(10)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_NQueensCount_Bounds)->Arg(8)->Arg(10)->Unit(benchmark::kMillisecond);

// The speed limit: bitboard.hpp's plain backtracking counter, no engine.
void BM_NQueensCount_Bitboard(benchmark::State& state) {
    const int n = static_cast<int>(state.range(0));
    for (auto _ : state) benchmark::DoNotOptimize(bitboard::count(n));
}
BENCHMARK(BM_NQueensCount_Bitboard)->Arg(8)->Arg(10)->Unit(benchmark::kMillisecond);

} // namespace
