#ifndef PROPANE_SEARCH_LIMITS_HPP
#define PROPANE_SEARCH_LIMITS_HPP

// When a search gives up before its tree is exhausted.

#include <cstdint>
#include <limits>

#include "clock.hpp"

namespace propane {

inline constexpr std::uint64_t unlimited = std::numeric_limits<std::uint64_t>::max();

// The search stops when it has found `solutions` solutions, or before it
// would take branch number branches + 1, or at failure number `failures`, or
// once it has run for `time` (search time only: the time a caller spends
// between next() calls or inside a visitor does not count). The clock is
// read every few branches, as rarely as keeps the reading about a
// millisecond apart, so a limit costs nothing measurable and a time limit
// is overrun by about that much (plus one node's propagation).
//
// So the statistics never pass a count limit on one thread: at most
// `solutions` solutions, `branches` branches and `failures` failures. A
// limit of 0 on solutions or failures stops the search before it does
// anything, even the root's propagation (which can fail, and a failure
// there counts); branches = 0 lets it propagate the root, which may fail
// (the tree is then exhausted, with one failure) or be a solution, and
// stops it before its first branch. Either way the search is over at once.
// On threads (parallel.hpp) the limits hold for the sum over the threads,
// which may pass them a little.
struct Limits {
    std::uint64_t solutions = unlimited;
    std::uint64_t branches = unlimited;
    std::uint64_t failures = unlimited;
    std::chrono::nanoseconds time = std::chrono::nanoseconds::max();
};

namespace detail {

// a + b for a time, saturating at the largest representable instead of
// overflowing (a period of nanoseconds::max() means "never").
inline std::chrono::nanoseconds add_saturated(std::chrono::nanoseconds a, std::chrono::nanoseconds b) noexcept {
    using ns = std::chrono::nanoseconds;
    if (b.count() > 0 && a.count() > ns::max().count() - b.count()) return ns::max();
    if (b.count() < 0 && a.count() < ns::min().count() - b.count()) return ns::min();
    return a + b;
}

} // namespace detail

} // namespace propane

#endif
