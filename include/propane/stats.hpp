#ifndef PROPANE_STATS_HPP
#define PROPANE_STATS_HPP

// Search statistics, counted as OR-Tools counts them so its guide's figures
// can be checked: `branches` grows by one for each left (x = v) and each
// right (x != v) branch taken, `failures` by one for each branch (or root)
// whose propagation fails. Backtracking out of a solution is not a failure,
// so over a complete search branches == 2 * (failures + solutions - 1).

#include <chrono>
#include <cstdint>

namespace propane {

struct SearchStats {
    std::uint64_t solutions = 0;
    std::uint64_t failures = 0;
    std::uint64_t branches = 0;
    std::uint64_t propagations = 0; // propagator runs
    std::uint64_t max_depth = 0;    // most nested decisions on one path
    std::chrono::nanoseconds wall_time{0};
    bool complete = false; // the whole tree was explored

    double wall_ms() const noexcept { return std::chrono::duration<double, std::milli>(wall_time).count(); }
};

} // namespace propane

#endif
