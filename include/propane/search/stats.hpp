#ifndef PROPANE_SEARCH_STATS_HPP
#define PROPANE_SEARCH_STATS_HPP

// Search statistics, counted as OR-Tools counts them so its guide's figures
// can be checked: `branches` grows by one for each left (x = v) and each
// right (x != v) branch taken, `failures` by one for each branch (or root)
// whose propagation fails. Backtracking out of a solution is not a failure,
// so over a complete search without restarts
// branches == 2 * (failures + solutions - 1).

#include <cstdint>
#include <optional>
#include <string_view>

#include "clock.hpp"

namespace propane {

// How a search ended, or that it has not yet.
enum class Outcome : std::uint8_t {
    running,        // not started, or paused at a solution
    complete,       // the whole tree was explored
    solution_limit, // Limits::solutions were found
    branch_limit,   // Limits::branches were taken
    failure_limit,  // Limits::failures happened
    time_limit,     // Limits::time ran out
    stopped,        // the visitor returned stop, or stop() was called
};

constexpr std::string_view to_string(Outcome o) noexcept {
    switch (o) {
    case Outcome::running: return "running";
    case Outcome::complete: return "complete";
    case Outcome::solution_limit: return "solution_limit";
    case Outcome::branch_limit: return "branch_limit";
    case Outcome::failure_limit: return "failure_limit";
    case Outcome::time_limit: return "time_limit";
    case Outcome::stopped: return "stopped";
    }
    return "?";
}

struct SearchStats {
    std::uint64_t solutions = 0;
    std::uint64_t failures = 0;
    std::uint64_t branches = 0;
    std::uint64_t propagations = 0; // propagator runs
    std::uint64_t restarts = 0;
    std::uint64_t max_depth = 0; // most nested decisions on one path
    // A search on several threads or ranks: how many subproblems the top of
    // the tree was cut into, and the time that took (part of wall_time).
    // Both 0 for a search on one thread.
    std::uint64_t subproblems = 0;
    std::chrono::nanoseconds split_time{0};
    std::chrono::nanoseconds wall_time{0};
    Outcome outcome = Outcome::running;

    // The whole tree was explored: the solutions found are all there are.
    bool complete() const noexcept { return outcome == Outcome::complete; }
    double wall_ms() const noexcept { return std::chrono::duration<double, std::milli>(wall_time).count(); }
    double split_ms() const noexcept { return std::chrono::duration<double, std::milli>(split_time).count(); }
};

// What minimize() and maximize() return (optimize.hpp).
struct OptimizeStats : SearchStats {
    std::optional<std::int64_t> objective; // the best value found
};

} // namespace propane

#endif
