#ifndef PROPANE_CONSTRAINTS_TABLE_HPP
#define PROPANE_CONSTRAINTS_TABLE_HPP

// table(xs, tuples): (xs[0], ..., xs[n-1]) is one of the tuples, and
// table(xs, tuples, TableMode::forbidden): it is none of them. xs is a
// range of views of one type (AffineView holds any mix) or a braced list;
// each tuple has one value per view, any integral type within int; tuples
// may repeat (arguments.hpp).
//
// Strength: domain consistent on every view, for views on distinct
// variables, in both modes:
//   allowed    compact-table (table/compact.hpp): a reversible sparse
//              bitset of the tuples still valid and, per view value, the
//              bitset of the tuples holding it;
//   forbidden  support counting over the same bitsets
//              (table/forbidden.hpp): a value keeps a support while the
//              valid forbidden tuples holding it are fewer than the
//              combinations of the other views' values.
// Views that share a variable are read as independent positions: no
// solution is lost and, with the variables fixed, propagation fails
// exactly when the assignment is not allowed (or is forbidden), but a
// value may keep a support that needs the variable to take two values at
// once, so domain consistency is not promised there.
//
// When posted, the tuples with a value outside its view's domain are
// dropped (they can never hold) and the repeats merged; in the allowed
// mode each view keeps only the values some tuple left gives it, and no
// tuple left fails the store; in the forbidden mode no tuple left makes
// the constraint hold already, and nothing is posted.
//
// Memory: a bitset of the tuples (one bit each) per distinct value per
// position, shared by the copies of a store; the tuples themselves are not
// kept once posted.

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <ranges>
#include <string>
#include <utility>
#include <vector>

#include "../engine/error.hpp"
#include "../engine/propagator.hpp"
#include "../engine/runs.hpp"
#include "../engine/view.hpp"
#include "arguments.hpp"
#include "table/compact.hpp"
#include "table/forbidden.hpp"
#include "table/live_tuples.hpp"

namespace propane {

namespace detail::tables {

// Keeps of view x the values of col (sorted, not empty): one removal per gap
// of the column, so the cost follows the table, not x's domain, which in
// the interval form may hold billions of values (runs.hpp's keep_only
// stops at its run limit, and the propagator needs every value it leaves
// in the column). False on failure.
template <class S, class X>
bool keep_column(S& s, const X& x, const std::vector<int>& col) {
    if (x.remove_below(s, col.front()) == Change::failed || x.remove_above(s, col.back()) == Change::failed)
        return false;
    for (std::size_t k = 1; k < col.size(); ++k)
        if (remove_range(x, s, std::int64_t{col[k - 1]} + 1, std::int64_t{col[k]} - 1) == Change::failed) return false;
    return true;
}

} // namespace detail::tables

enum class TableMode : std::uint8_t { allowed, forbidden };

namespace detail::tables {

inline void check(std::size_t views, const std::vector<std::vector<int>>& tuples, TableMode mode) {
    if (mode != TableMode::allowed && mode != TableMode::forbidden)
        throw model_error("table: unknown TableMode " + std::to_string(static_cast<unsigned>(mode)));
    if (views == 0) throw model_error("table: no views; a tuple needs at least one position");
    for (std::size_t k = 0; k < tuples.size(); ++k)
        if (tuples[k].size() != views)
            throw model_error("table: tuple " + std::to_string(k) + " has " + std::to_string(tuples[k].size()) +
                              " values for " + std::to_string(views) + " views");
}

} // namespace detail::tables

// The constraint, as table() returns it.
template <class X>
    requires std::convertible_to<X, AffineView>
struct TableConstraint {
    std::vector<X> xs;
    std::vector<std::vector<int>> tuples;
    TableMode mode = TableMode::allowed;

    template <class S>
    void post(S& s) const {
        detail::tables::check(xs.size(), tuples, mode);
        std::vector<int> vars;
        vars.reserve(xs.size());
        for (const X& x : xs) {
            s.check(x.var(), "table");
            vars.push_back(x.var().index());
        }
        std::vector<std::vector<int>> valid;
        for (const auto& t : tuples) {
            bool in = true;
            for (std::size_t i = 0; i < xs.size() && in; ++i) in = xs[i].contains(s, t[i]);
            if (in) valid.push_back(t);
        }
        std::sort(valid.begin(), valid.end());
        valid.erase(std::unique(valid.begin(), valid.end()), valid.end());
        if (valid.empty()) {
            if (mode == TableMode::allowed) {
                [[maybe_unused]] const Change failed = s.fail();
            }
            return;
        }
        auto supports = std::make_shared<const detail::tables::Supports>(valid, xs.size());
        std::sort(vars.begin(), vars.end());
        const bool shared = std::adjacent_find(vars.begin(), vars.end()) != vars.end();
        int id = 0;
        if (mode == TableMode::allowed) {
            // Once, here: the propagator then finds every value of a view in
            // its column (LiveTuples reads a view's size as its column's).
            for (std::size_t i = 0; i < xs.size(); ++i)
                if (!detail::tables::keep_column(s, xs[i], supports->column(i))) return;
            id = s.add_propagator(
                std::make_unique<detail::tables::CompactTable<S, X>>(s, std::move(supports), xs, shared));
        } else {
            id = s.add_propagator(std::make_unique<detail::tables::ForbiddenTable<S, X>>(s, std::move(supports), xs));
        }
        vars.erase(std::unique(vars.begin(), vars.end()), vars.end());
        for (const X& x : xs)
            if (const auto it = std::find(vars.begin(), vars.end(), x.var().index()); it != vars.end()) {
                s.subscribe(x.var(), id, Event::domain);
                vars.erase(it);
            }
    }
};

namespace detail::tables {

template <class X>
TableConstraint<X> make(std::vector<X> xs, const Tuples& tuples, TableMode mode) {
    std::vector<std::vector<int>> ts = tuples.as_ints("table");
    check(xs.size(), ts, mode);
    return {std::move(xs), std::move(ts), mode};
}

} // namespace detail::tables

// xs as a range of one view type or a braced list, the tuples as a braced
// list of braced lists or a range of ranges of any integral type, each
// value within int (arguments.hpp).
template <detail::ViewRange R>
    requires std::convertible_to<std::ranges::range_value_t<R>, AffineView>
TableConstraint<std::ranges::range_value_t<R>> table(const R& xs, const detail::Tuples& tuples,
                                                     TableMode mode = TableMode::allowed) {
    return detail::tables::make(detail::views_of(xs), tuples, mode);
}
template <detail::ViewHandle X>
    requires std::convertible_to<X, AffineView>
TableConstraint<X> table(std::initializer_list<X> xs, const detail::Tuples& tuples,
                         TableMode mode = TableMode::allowed) {
    return detail::tables::make(detail::views_of(xs), tuples, mode);
}
inline TableConstraint<AffineView> table(std::initializer_list<AffineView> xs, const detail::Tuples& tuples,
                                         TableMode mode = TableMode::allowed) {
    return detail::tables::make(detail::views_of(xs), tuples, mode);
}

} // namespace propane

#endif
