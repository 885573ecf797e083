#ifndef PROPANE_ENGINE_WATCHES_HPP
#define PROPANE_ENGINE_WATCHES_HPP

// Watches: wake-ups that a propagator moves from variable to variable
// during search, as a SAT solver moves a clause's two watched literals. A
// subscription is fixed once search starts, so a clause subscribed to all
// of its literals' variables runs on every fixing of any of them: with tens
// of thousands of clauses, as FlatZinc produces, that is most of the time
// spent. A watch wakes its propagator only when its variable is fixed to a
// value other than the one it names (for a literal "x == t" over a
// variable of two values: when the literal becomes false), and the
// propagator, when it runs, may point the watch at another variable.
//
// A propagator owns slots (add_watch at post). Pointing a slot at (var, t)
// appends an entry {slot, generation} to var's list; the entry it had in
// its previous variable's list is left there, stale, and dropped the next
// time that list is walked (a slot's generation or variable no longer
// match). So moving a watch is O(1), and a list is walked only when its
// variable is fixed, at a cost of its live entries plus the stale ones; a
// list that gathers more stale entries than live ones (plus a few) before
// it is walked is compacted when one more is pointed at it, so its length
// stays within twice its live entries. Nothing is trailed: backtracking
// frees values and never makes a watched literal false, which is what
// keeps the watches of a clause valid (see constraints/bool/clause.hpp).
//
// The lists are walked by one propagator of the store's, the dispatcher,
// subscribed (tagged, on fixing) to each variable made watchable: so the
// store's update path, which every model runs, has no test for watches,
// and a model without them pays nothing (N-queens 11 counted: a test for a
// list in each update cost 1 % more instructions). A model with them pays
// one queue entry a fixing of a watchable variable.
//
// Correctness never rests on the generations, only the work: a stale entry
// taken for a live one (after 2^32 moves of one slot) wakes a propagator
// once too often, which it must tolerate anyway, since a watch names a
// value, not a reason.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "propagator.hpp"

namespace propane::detail {

struct WatchEntry {
    std::uint32_t slot;
    std::uint32_t gen;
};

// The slots and the per-variable lists of a store.
// Watches is WatchesOf<>, compiled where used (see Cells, cells.hpp).
template <class = void>
class WatchesOf {
public:
    int add_slot(int prop) {
        slots_.push_back({prop, -1, 0, 0});
        return static_cast<int>(slots_.size() - 1);
    }
    std::size_t slots() const noexcept { return slots_.size(); }
    std::size_t list_size(int var) const noexcept { return lists_[static_cast<std::size_t>(var)].size(); }
    void add_vars(std::size_t vars) {
        if (lists_.size() < vars) {
            lists_.resize(vars);
            live_.resize(vars, 0);
        }
    }

    // Points `slot` at (var, value). A list that has come to hold more
    // stale entries than live ones plus a few is compacted here, so that
    // moves whose old list is not walked in between (a failure pops the
    // fixing first) cannot make it grow without end.
    void point(int slot, int var, int value) {
        Slot& s = slots_[static_cast<std::size_t>(slot)];
        if (s.var >= 0) --live_[static_cast<std::size_t>(s.var)];
        s.var = var;
        s.value = value;
        const auto v = static_cast<std::size_t>(var);
        std::vector<WatchEntry>& list = lists_[v];
        list.push_back({static_cast<std::uint32_t>(slot), ++s.gen});
        if (list.size() > 2 * static_cast<std::size_t>(++live_[v]) + 8) [[unlikely]]
            walk(var, [](int) {}, [](const Slot&) { return false; });
    }

    // var's list, walked when var is fixed to `value`: drops stale entries
    // and wakes the propagator of each live one that names another value.
    template <class Wake>
    void fire(int var, int value, Wake&& wake) {
        walk(var, wake, [value](const Slot& s) { return s.value != value; });
    }

    // Drops the slots numbered `first` and up, and their entries.
    void drop_from(std::size_t first) {
        slots_.resize(first);
        for (std::vector<WatchEntry>& list : lists_)
            std::erase_if(list, [first](const WatchEntry& e) { return e.slot >= first; });
        std::fill(live_.begin(), live_.end(), 0);
        for (const Slot& s : slots_)
            if (s.var >= 0) ++live_[static_cast<std::size_t>(s.var)];
    }

private:
    struct Slot {
        int prop;
        int var; // -1 until first pointed
        int value;
        std::uint32_t gen;
    };

    // Drops var's stale entries and wakes the live ones `wakes` picks.
    template <class Wake, class Wakes>
    void walk(int var, Wake&& wake, Wakes&& wakes) {
        std::vector<WatchEntry>& list = lists_[static_cast<std::size_t>(var)];
        std::size_t kept = 0;
        for (const WatchEntry e : list) {
            const Slot& s = slots_[e.slot];
            if (s.var != var || s.gen != e.gen) continue;
            list[kept++] = e;
            if (wakes(s)) wake(s.prop);
        }
        list.resize(kept);
    }

    std::vector<Slot> slots_;
    std::vector<std::vector<WatchEntry>> lists_; // per variable
    std::vector<std::uint32_t> live_;            // per variable, its list's live entries
};
using Watches = WatchesOf<>;

// Runs for the watchable variables fixed since its last run (its pending
// tags are their indices) and wakes the watches of each.
template <class Store>
class WatchDispatch : public PropagatorBase<Store, WatchDispatch<Store>> {
public:
    PropStatus propagate(Store& s) override {
        std::vector<int>& fixed = this->pending();
        for (const int var : fixed) s.fire_watches(var);
        fixed.clear();
        return PropStatus::fix;
    }
};

} // namespace propane::detail

#endif
