#ifndef PROPANE_CONSTRAINTS_ALL_DIFFERENT_EARLY_HALL_HPP
#define PROPANE_CONSTRAINTS_ALL_DIFFERENT_EARLY_HALL_HPP

// When AllDifferent's Hall pass (bounds strength) runs while other
// propagators are still queued.
//
// Waiting until the queue is empty lets the pass run once on what all the
// others leave, rather than once after each of them: in N-queens, where
// three AllDifferents wake each other, an early pass almost never finds
// anything (10 queens: 2 % of them fail or prune). But where the other
// propagators chase each other's bounds, a pass right after views became
// fixed can fail the node, or cut the bounds the chase would have crept
// up to, before the chase: in the Golomb ruler, linear propagators raise
// the marks a step at a time, and when four to six differences were fixed
// at once, two early passes in three find something (N = 10: 13 % fewer
// linear runs, 12 % fewer updates, 22 % more Hall passes).
//
// So each propagator learns which pays, from the early passes it makes,
// apart for each number of views fixed since its last run (1 to 6, 7 and
// more): while at least one early pass in four fails or moves a bound,
// passes go early; below that they wait, except one chance in 32, so that
// a change in the search is still seen. The counts halve every 64 early
// passes, to follow the search as it moves.
//
// Only the order of work changes: whenever the pass runs, propagation
// reaches the same fixpoint, so solutions, trees and statistics other
// than run counts are the same. The counts are not trailed: they are a
// heuristic's memory, like weighted degree's. They start afresh with each
// search on the store (Store::search_starts), so that two searches from
// one state do the same work, run counts included.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

namespace propane::detail {

class EarlyHall {
public:
    explicit EarlyHall(std::uint64_t search = 0) noexcept : search_(search) {}

    static constexpr std::size_t groups = 8; // by views fixed: 0, 1 .. 6, 7 and more

    // Whether to run the pass now, `fixed` views having been fixed since
    // the last run, in the store's search number `search`. Without newly
    // fixed views, bounds alone moved, and the pass waits.
    bool wanted(std::size_t fixed, std::uint64_t search) noexcept {
        if (search != search_) [[unlikely]]
            *this = EarlyHall(search);
        if (fixed == 0) return false;
        return early_[group(fixed)] || ++chances_ % 32 == 0;
    }

    // An early pass after `fixed` newly fixed views failed or moved a
    // bound (found), or did neither.
    void record(std::size_t fixed, bool found) noexcept {
        const std::size_t g = group(fixed);
        ++tries_[g];
        hits_[g] = static_cast<std::uint16_t>(hits_[g] + (found ? 1 : 0));
        if (tries_[g] == 64) {
            tries_[g] /= 2;
            hits_[g] = static_cast<std::uint16_t>(hits_[g] / 2);
        }
        early_[g] = 4 * hits_[g] >= tries_[g];
    }

private:
    static std::size_t group(std::size_t fixed) noexcept { return std::min(fixed, groups - 1); }

    std::array<std::uint16_t, groups> tries_{};
    std::array<std::uint16_t, groups> hits_{};
    // Until the first early pass says otherwise, a group tries early.
    std::array<bool, groups> early_{false, true, true, true, true, true, true, true};
    std::uint32_t chances_ = 0; // asked with views fixed
    std::uint64_t search_;
};

} // namespace propane::detail

#endif
