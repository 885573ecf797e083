#ifndef PROPANE_SEARCH_GATE_HPP
#define PROPANE_SEARCH_GATE_HPP

#include <optional>

#include "limits.hpp"
#include "stats.hpp"

namespace propane::detail {

// Lets code outside a search stop it, or share its limits with other
// searches: the parallel search's workers (parallel.hpp). A search given
// one polls it at its checks, which it then makes about every millisecond
// of search as for a time limit, so nothing is added per node.
class SearchGate {
public:
    // Outcome::running to go on, else why to stop. May lower `limits`.
    virtual Outcome poll(const SearchStats& stats, Limits& limits) = 0;
    // Branch and bound: the best objective value the other searches have
    // found, if any. Asked at the start and at each check; a better one
    // becomes this search's bound.
    virtual std::optional<int> bound() { return std::nullopt; }

protected:
    ~SearchGate() = default;
};

} // namespace propane::detail

#endif
