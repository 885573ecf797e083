#ifndef PROPANE_BENCH_SUPPORT_HPP
#define PROPANE_BENCH_SUPPORT_HPP

// What the microbenchmark programs (bench_propane, bench_constraints)
// share: the domain widths of their rows, the counters and the timing of
// short rows.

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>

#include <propane/engine/domain.hpp>
#include <propane/engine/store.hpp>
#include <propane/engine/view.hpp>

namespace propane_bench {

using Words1 = propane::BitDomain<1>;
using Words2 = propane::BitDomain<2>;
using Words4 = propane::BitDomain<4>;
using Dynamic = propane::BitDomain<propane::dynamic>;
using propane::AffineView;
using propane::IntVar;
using propane::OffsetView;

inline int arg(const benchmark::State& state, int i = 0) { return static_cast<int>(state.range(i)); }

inline void rate(benchmark::State& state, const char* name, double count, benchmark::Counter::Flags flags) {
    state.counters[name] = benchmark::Counter(count, flags);
}

// Setup updates that cannot fail; if one did, the row would time something
// else than it says.
inline void expect_ok(propane::Change c) {
    if (c == propane::Change::failed) std::abort();
}

// Operations of nanoseconds settle within a tenth of a second; at the
// default half second, these rows alone would take a minute. MinTime wins
// over --benchmark_min_time, so they keep the tenth whatever it says.
inline void quick(benchmark::internal::Benchmark* b) { b->MinTime(0.1); }

// The values left in every domain of a store.
template <class D>
std::uint64_t total_size(const propane::Store<D>& s) {
    std::uint64_t total = 0;
    for (int i = 0; i < s.num_vars(); ++i) total += s.domain(i).size();
    return total;
}

} // namespace propane_bench

#endif
