#ifndef PROPANE_ENGINE_CHANGE_HPP
#define PROPANE_ENGINE_CHANGE_HPP

// What a domain update reports (Change), the forms a domain takes
// (Representation), and the small helpers every form shares.

#include <cstddef>
#include <cstdint>
#include <limits>

namespace propane {

// What an update did, ordered by strength: each level implies the ones
// before it (a fixed domain also changed its bounds), which lets the store
// map a change onto event classes with one comparison.
//
// [[nodiscard]] on the type makes every update that returns it nodiscard: a
// failed update dropped on the floor was how a clashing Sudoku given went
// unnoticed. (The store also remembers the failure; see Store.)
enum class [[nodiscard]] Change : std::uint8_t { none, domain, bounds, fixed, failed };

inline constexpr std::size_t dynamic = std::numeric_limits<std::size_t>::max();

// How a variable's domain is kept (Store::int_var's third argument):
//   bitset    one bit per value of its initial range (a fixed-width
//             store's only form);
//   interval  its bounds and the runs of values removed between them,
//             in memory that grows with what was removed, not with the
//             width (BitDomain<dynamic> only; intervals.hpp);
//   automatic a bitset up to BitDomain<dynamic>::bitset_limit values, an
//             interval above.
// Both forms answer every query and take every update alike, and prune
// alike: only time and memory differ.
enum class Representation : std::uint8_t { automatic, bitset, interval };

namespace detail {

struct NoHook {
    void operator()(std::size_t) const noexcept {}
};

// v - base for any 64-bit v, wrapping instead of overflowing: read as
// unsigned, an offset below the base is huge, so one unsigned comparison
// with the width tests both ends.
constexpr std::uint64_t offset_of(std::int64_t v, int base) noexcept {
    return static_cast<std::uint64_t>(v) - static_cast<std::uint64_t>(std::int64_t{base});
}

// v clamped to +-2^40, where subtracting an int base cannot overflow. Every
// domain lies within [-2^31, 2^32), so the clamp changes no answer about
// it: callers may pass any 64-bit value.
constexpr std::int64_t clamp_far(std::int64_t v) noexcept {
    constexpr std::int64_t far = std::int64_t{1} << 40;
    return v < -far ? -far : (v > far ? far : v);
}

} // namespace detail

} // namespace propane

#endif
