#ifndef PROPANE_CONSTRAINTS_TABLE_COMPACT_HPP
#define PROPANE_CONSTRAINTS_TABLE_COMPACT_HPP

// Compact-table (Demeulenaere, Hartert, Lecoutre, Perez, Perron, Régin,
// Schaus, CP 2016): the allowed tuples of table(), domain consistent for
// views on distinct variables.
//
// A run first removes from the live tuples those that lost a value
// (LiveTuples::update: by the removed values' supports when fewer were
// removed than kept, else by the kept ones'), then keeps in each view the
// values with a live support. A value's residue, the word where its last
// support was found, is tried first; only when that word no longer has one
// are the live words searched. Residues are hints, not trailed.
//
// The view that alone changed since the last run is not filtered: its
// values' supports lost nothing. A fixed view is not filtered either: every
// live tuple holds its value. A value removed here has no live support, so
// the live tuples stay as they are, and a run over distinct variables ends
// at a fixpoint. Views on one variable are read as independent positions,
// so a tuple that gives them values the variable cannot take at once may
// support both (domain consistency is lost then); the run repeats until
// every view's domain is as last seen, and with the variables fixed only
// tuples that agree with every view are left, so the answer is exact.

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

#include "../../engine/propagator.hpp"
#include "../../engine/view.hpp"
#include "live_tuples.hpp"

namespace propane::detail::tables {

template <class S, class V>
class CompactTable : public PropagatorBase<S, CompactTable<S, V>> {
public:
    CompactTable(S& s, std::shared_ptr<const Supports> t, const std::vector<V>& xs, bool shared)
        : tuples_(s, std::move(t), xs), residues_(flat_size(tuples_.supports()), 0), shared_(shared) {}

    PropStatus propagate(S& s) override {
        const std::size_t n = tuples_.arity();
        for (;;) {
            std::size_t last = 0;
            const int changed = tuples_.update(s, last);
            if (tuples_.live().empty(s)) return PropStatus::failed;
            for (std::size_t i = 0; i < n; ++i) {
                if ((!shared_ && changed == 1 && i == last) || tuples_.view(i).fixed(s)) continue;
                if (!filter(s, i)) return PropStatus::failed;
            }
            if (!shared_ || !tuples_.stale(s)) break;
        }
        for (std::size_t i = 0; i < n; ++i)
            if (!tuples_.view(i).fixed(s)) return PropStatus::fix;
        return PropStatus::subsumed;
    }

private:
    static std::size_t flat_size(const Supports& t) {
        return t.arity() == 0 ? 0 : t.flat(t.arity() - 1, t.column(t.arity() - 1).size());
    }

    // Removes from view i the values without a live support; false when it
    // empties.
    bool filter(S& s, std::size_t i) {
        const Supports& t = tuples_.supports();
        const SparseBitset& live = tuples_.live();
        const auto& x = tuples_.view(i);
        bool ok = true;
        gone_.clear();
        tuples_.for_each_seen(s, i, [&](std::size_t j) {
            if (!ok) return;
            const word* m = t.mask(i, j);
            int& r = residues_[t.flat(i, j)];
            if ((live.at(s, static_cast<std::size_t>(r)) & m[r]) != 0) return;
            if (const int k = live.intersect_index(s, m); k >= 0) {
                r = k;
                return;
            }
            gone_.push_back(j);
            ok = x.remove(s, t.column(i)[j]) != Change::failed;
        });
        if (ok) tuples_.removed(s, i, gone_);
        return ok;
    }

    LiveTuples<S, V> tuples_;
    std::vector<int> residues_; // per column value: a word that held a support
    bool shared_;               // some views share a variable
    std::vector<std::size_t> gone_;
};

} // namespace propane::detail::tables

#endif
