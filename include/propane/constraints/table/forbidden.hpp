#ifndef PROPANE_CONSTRAINTS_TABLE_FORBIDDEN_HPP
#define PROPANE_CONSTRAINTS_TABLE_FORBIDDEN_HPP

// The forbidden tuples of table(..., TableMode::forbidden), domain
// consistent for views on distinct variables, by counting supports: the
// other views can take P = the product of their sizes combinations, and
// the live forbidden tuples (those whose values are all still in their
// domains, distinct tuples) with value a at position i rule out that many
// of them. So (i, a) keeps a support exactly when fewer than P live tuples
// hold it. The count is taken only when the tuples with a at i number P or
// more at all, which with large domains is never: the propagator then
// costs the update of the live tuples (compact-table's, live_tuples.hpp).
//
// A value removed here leaves tuples in the live set that no longer are,
// so the run updates them before it counts again: it repeats, update then
// filter, until nothing is removed. No live tuple left means no assignment
// is forbidden: the constraint is entailed.
//
// Views on one variable are read as independent positions: P then counts
// combinations the variable cannot take, so a value may keep a support it
// lacks (domain consistency is lost), but one is removed only when every
// combination of positions is forbidden, every real assignment among them.
// With the variables fixed P is 1 and the one assignment's tuple, if
// forbidden, removes its values: the answer is exact.

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

#include "../../engine/propagator.hpp"
#include "../../engine/view.hpp"
#include "live_tuples.hpp"

namespace propane::detail::tables {

template <class S, class V>
class ForbiddenTable : public PropagatorBase<S, ForbiddenTable<S, V>> {
public:
    ForbiddenTable(S& s, std::shared_ptr<const Supports> t, const std::vector<V>& xs)
        : tuples_(s, std::move(t), xs) {}

    PropStatus propagate(S& s) override {
        for (;;) {
            std::size_t last = 0;
            tuples_.update(s, last);
            if (tuples_.live().empty(s)) return PropStatus::subsumed;
            bool removed = false;
            for (std::size_t i = 0; i < tuples_.arity() && !removed; ++i) {
                const Change c = filter(s, i);
                if (c == Change::failed) return PropStatus::failed;
                removed = c != Change::none;
            }
            // A removal, or a view on a shared variable that lost values
            // through another: the live tuples are behind the domains.
            if (!removed && !tuples_.stale(s)) return PropStatus::fix;
        }
    }

private:
    // Removes from view i the column values every combination of the
    // others forbids.
    Change filter(S& s, std::size_t i) {
        const Supports& t = tuples_.supports();
        const std::size_t most = t.most(i);
        // The product saturates past `most`: no value of i is then at risk.
        std::size_t p = 1;
        for (std::size_t j = 0; j < tuples_.arity() && p <= most; ++j)
            if (j != i) p *= tuples_.view(j).size(s);
        if (p > most) return Change::none;
        Change out = Change::none;
        const auto& x = tuples_.view(i);
        tuples_.for_each_seen(s, i, [&](std::size_t j) {
            if (out == Change::failed || t.count(i, j) < p || tuples_.live().count_and(s, t.mask(i, j)) < p) return;
            out = std::max(out, x.remove(s, t.column(i)[j]));
        });
        return out;
    }

    LiveTuples<S, V> tuples_;
};

} // namespace propane::detail::tables

#endif
