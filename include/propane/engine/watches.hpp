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
// variable is fixed, at a cost of its live entries plus the stale ones.
// A propagator should move a watch only off a variable that is fixed, as a
// clause does (off a false literal): then a slot leaves a list only after
// a walk of it, which the fixing caused, and leaves at most one stale
// entry behind before the next walk. Nothing is trailed: backtracking
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

#include <cstddef>
#include <cstdint>
#include <vector>

#include "propagator.hpp"

namespace propane::detail {

struct WatchEntry {
    std::uint32_t slot;
    std::uint32_t gen;
};

class WatchSlots {
public:
    int add(int prop) {
        slots_.push_back({prop, -1, 0, 0});
        return static_cast<int>(slots_.size() - 1);
    }
    std::size_t size() const noexcept { return slots_.size(); }
    void drop_from(std::size_t first) { slots_.resize(first); }

    // Points `slot` at (var, value); the caller appends the entry returned
    // to var's list.
    WatchEntry move(int slot, int var, int value) noexcept {
        Slot& s = slots_[static_cast<std::size_t>(slot)];
        s.var = var;
        s.value = value;
        return {static_cast<std::uint32_t>(slot), ++s.gen};
    }

    // var's list, walked when var is fixed to `value`: drops stale entries
    // and wakes the propagator of each live one that names another value.
    template <class Wake>
    void fire(std::vector<WatchEntry>& list, int var, int value, Wake&& wake) const {
        std::size_t kept = 0;
        for (const WatchEntry e : list) {
            const Slot& s = slots_[e.slot];
            if (s.var != var || s.gen != e.gen) continue;
            list[kept++] = e;
            if (s.value != value) wake(s.prop);
        }
        list.resize(kept);
    }

private:
    struct Slot {
        int prop;
        int var; // -1 until first pointed
        int value;
        std::uint32_t gen;
    };
    std::vector<Slot> slots_;
};

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
