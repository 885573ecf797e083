#ifndef PROPANE_ENGINE_CELLS_HPP
#define PROPANE_ENGINE_CELLS_HPP

// Reversible integers: the store's cells, where propagators keep state
// that backtracking must restore (a count of open terms, a running sum).
// A cell's old value is trailed the first time it is written in a level,
// as a domain's words are, so a propagator that writes one cell a thousand
// times in a level pays for one save.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "trail.hpp"

namespace propane::detail {

// Cells is CellsOf<>, a template on nothing, as are the engine's other
// classes that no store type parameterises (watches.hpp, intervals.hpp,
// queue.hpp, searches.hpp, model.hpp). g++ analyses the body of every
// non-template inline function, and instantiates the standard templates it
// calls, in every file that includes it, used or not; a template's members
// are compiled only where they are used, so a file whose store comes from
// the prebuilt library (compiled.hpp) compiles none of them.
template <class = void>
class CellsOf {
public:
    int add(std::int64_t initial) {
        values_.push_back(initial);
        stamps_.push_back(0);
        return static_cast<int>(values_.size() - 1);
    }
    std::int64_t get(int c) const noexcept { return values_[static_cast<std::size_t>(c)]; }
    void set(int c, std::int64_t v) {
        const auto i = static_cast<std::size_t>(c);
        if (const std::uint64_t now = trail_.stamp(); stamps_[i] != now) {
            stamps_[i] = now;
            trail_.record({i, values_[i]});
        }
        values_[i] = v;
    }

    void push_level() { trail_.push_level(); }
    void pop_level() {
        trail_.pop_level([this](const Save& e) { values_[e.cell] = e.old; });
    }
    void reserve_levels(std::size_t n) { trail_.reserve_levels(n); }

private:
    struct Save {
        std::size_t cell;
        std::int64_t old;
    };
    std::vector<std::int64_t> values_;
    std::vector<std::uint64_t> stamps_; // of each cell's last save
    Trail<Save> trail_;
};
using Cells = CellsOf<>;

} // namespace propane::detail

#endif
