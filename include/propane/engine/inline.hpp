#ifndef PROPANE_ENGINE_INLINE_HPP
#define PROPANE_ENGINE_INLINE_HPP

// PROPANE_CLANG_INLINE forces a function or a lambda inline under Clang and
// is nothing under other compilers. Clang 14 at -O3 leaves out of line some
// small functions of the hot path that GCC inlines: LinearUnit's per-term
// lambdas, a domain's removals, the store's update around them and its
// removal of one value. Forced inline (Clang, cachegrind): Golomb 10 takes
// 1,629 M instructions instead of 1,941 M, 0.84 of the time; N-queens 10
// counts in 33.0 M, 58.9 M and 74.0 M instead of 37.4 M, 63.3 M and 78.4 M
// at value, bounds and domain strength (N = 12: 0.93 and 0.96 of the time
// at value and bounds). Not the bounds updates' entry points: inlined into
// each of LinearUnit's cuts, they cost Golomb 1.5 % more. GCC is left
// alone: there the attribute only moved code about (0.7 % slower).
#if defined(__clang__)
#define PROPANE_CLANG_INLINE __attribute__((always_inline))
#else
#define PROPANE_CLANG_INLINE
#endif

// PROPANE_INLINE forces inline under both. LinearUnit's per-term lambdas
// need it from GCC too once a term can have both ends cut in one update:
// GCC at -O2 then left them out of line (golomb 9, callgrind, -O2: 203.8 M
// instructions instead of 170.7 M inlined; -O3 was unchanged).
#if defined(__GNUC__)
#define PROPANE_INLINE __attribute__((always_inline))
#else
#define PROPANE_INLINE
#endif

#endif
