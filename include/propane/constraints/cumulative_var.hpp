#ifndef PROPANE_CONSTRAINTS_CUMULATIVE_VAR_HPP
#define PROPANE_CONSTRAINTS_CUMULATIVE_VAR_HPP

// cumulative(starts, durations, heights, capacity) with durations, heights
// and the capacity variable: starts, durations and heights are ranges of
// views (each range of one view type; AffineView holds any mix), one
// duration and one height per start, and the capacity is a view. At every
// time t the tasks running then (s_i <= t < s_i + d_i) use at most the
// capacity in total; a task of duration 0 or height 0 uses nothing.
// Durations and heights are >= 0 by the constraint's meaning, as in
// MiniZinc's cumulative: the propagator removes their negative values.
// The capacity may be negative only while no task runs: a task of
// positive duration and height needs a capacity of at least its height,
// and with none the constraint holds whatever the capacity.
//
// Strength: the fixpoint of these rules on bounds, with dmin_i, hmin_i the
// least duration and height of task i and cmax the greatest capacity:
//   d_i >= 0 and h_i >= 0;
//   a task with dmin_i > 0 and hmin_i > 0 takes part: its compulsory part
//   is [lst_i, est_i + dmin_i) at height hmin_i, and the rest is
//   time-tabling over those numbers against cmax (scheduling/timetable.hpp):
//   a task higher than cmax fails, the profile above cmax fails, and each
//   taking part's start keeps its least and greatest values only if it
//   fits there beside the others' compulsory parts;
//   the capacity's least value rises to the profile's peak and to every
//   hmin_i of a task taking part;
//   a task with dmin_i > 0 whose compulsory part [lst_i, est_i + dmin_i)
//   is not empty (its least height may be 0) has its height lowered to
//   cmax less the others' compulsory parts at their highest within it, or
//   to 0 when that is less (a height of 0 uses nothing);
//   when no two tasks taking part fit beside each other (the two least
//   hmin_i sum above cmax), they form a unary resource: the unary rules
//   (scheduling/unary_rules.hpp: overload, detectable precedences,
//   not-first/not-last, edge finding) on the tasks [s_i, s_i + dmin_i),
//   as unary.hpp runs them. This is the job shop written with cumulative
//   (MiniZinc's evilshop), which Gecode's FlatZinc front end detects the
//   same way.
// Durations are read only at their least values and never pruned
// shorter; heights lose values only by the rule on compulsory parts above.
// With every view fixed the compulsory parts are the tasks themselves, so
// propagation fails exactly when the constraint is violated.
//
// Views that share a variable are read as independent tasks (a run goes on
// until no bound moves, so it still ends at a fixpoint).

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <ranges>
#include <string>
#include <utility>
#include <vector>

#include "../engine/domain.hpp"
#include "../engine/error.hpp"
#include "../engine/propagator.hpp"
#include "../engine/view.hpp"
#include "arguments.hpp"
#include "scheduling/presence.hpp"
#include "scheduling/timetable.hpp"
#include "scheduling/unary_rules.hpp"

namespace propane {

namespace detail::scheduling {

template <class S, class X, class D, class H, class C>
class CumulativeVar : public PropagatorBase<S, CumulativeVar<S, X, D, H, C>> {
public:
    CumulativeVar(const std::vector<X>& starts, const std::vector<D>& durations, const std::vector<H>& heights,
                  const C& capacity)
        : starts_(kept(starts)), d_(kept(durations)), h_(kept(heights)), capacity_(kept(capacity)) {}

    // Passes until nothing moves: a start pruned grows a compulsory part,
    // and views sharing a variable may move each other.
    PropStatus propagate(S& s) override {
        for (;;) {
            bool moved = false;
            if (!read(s, moved)) return PropStatus::failed;
            if (!tasks_.empty()) {
                const std::int64_t cmax = capacity_.max(s);
                if (!timetable_.pass(tasks_, cmax, est_, lst_)) return PropStatus::failed;
                for (std::size_t k = 0; k < tasks_.size(); ++k) {
                    const auto& x = starts_[static_cast<std::size_t>(which_[k])];
                    if (!raise(s, x, est_[k], tasks_[k].est, moved) || !lower(s, x, lst_[k], tasks_[k].lst, moved))
                        return PropStatus::failed;
                }
                if (!raise(s, capacity_, std::max(need_, timetable_.peak()), capacity_.min(s), moved))
                    return PropStatus::failed;
                // The dearer rules once time-tabling has settled.
                if (!moved && disjoint(cmax)) {
                    StoreStarts<S, kept_t<X>> at(s, starts_, which_);
                    if (!unary_(at, [&](std::size_t k) { return tasks_[k].p; })) return PropStatus::failed;
                    moved = at.moved();
                }
            }
            if (!moved && !lower_heights(s, moved)) return PropStatus::failed;
            if (!moved) return PropStatus::fix;
        }
    }

private:
    // A task of positive least duration whose compulsory part is not empty
    // runs through it whatever its start, beside the others' compulsory
    // parts there: its height falls to what they leave of cmax. So a task
    // that may use nothing (a least height of 0, as a task on another
    // machine) is kept off a stretch the others fill. Read on the profile
    // of the pass just made, with the bounds it was built from.
    // A height of 0 uses nothing, and so stays whatever the capacity.
    bool lower_heights(S& s, bool& moved) {
        const std::int64_t cmax = capacity_.max(s);
        std::size_t k = 0; // the next task taking part, in tasks_
        for (std::size_t i = 0; i < starts_.size(); ++i) {
            const bool taking = k < which_.size() && which_[k] == static_cast<int>(i);
            const std::int64_t p = d_[i].min(s);
            const std::int64_t from = starts_[i].max(s), to = starts_[i].min(s) + p;
            const std::int64_t own = taking ? tasks_[k].h : 0;
            if (taking) ++k;
            if (p <= 0 || from >= to) continue;
            const std::int64_t others = tasks_.empty() ? 0 : timetable_.peak(from, to) - own;
            if (!lower(s, h_[i], std::max<std::int64_t>(0, cmax - others), h_[i].max(s), moved)) return false;
        }
        return true;
    }

    // Whether no two tasks taking part fit beside each other within cmax.
    bool disjoint(std::int64_t cmax) const {
        if (tasks_.size() < 2) return false;
        std::int64_t least = cmax + 1, second = cmax + 1;
        for (const CumulativeTask& t : tasks_) {
            if (t.h < least) second = least, least = t.h;
            else if (t.h < second) second = t.h;
        }
        return least + second > cmax;
    }

    // The tasks taking part, at their least duration and height; false when
    // one is higher than the greatest capacity.
    bool read(S& s, bool& moved) {
        tasks_.clear();
        which_.clear();
        need_ = 0;
        const std::int64_t cmax = capacity_.max(s);
        for (std::size_t i = 0; i < starts_.size(); ++i) {
            if (!raise(s, d_[i], 0, d_[i].min(s), moved) || !raise(s, h_[i], 0, h_[i].min(s), moved)) return false;
            const std::int64_t p = d_[i].min(s), h = h_[i].min(s);
            if (p == 0 || h == 0) continue;
            if (h > cmax) return false;
            need_ = std::max(need_, h);
            tasks_.push_back({starts_[i].min(s), starts_[i].max(s), p, h});
            which_.push_back(static_cast<int>(i));
        }
        est_.resize(tasks_.size());
        lst_.resize(tasks_.size());
        for (std::size_t k = 0; k < tasks_.size(); ++k) est_[k] = tasks_[k].est, lst_[k] = tasks_[k].lst;
        return true;
    }

    // v's least value to `to` where that is above `from`, the least value
    // it was read at.
    template <class V>
    static bool raise(S& s, const V& v, std::int64_t to, std::int64_t from, bool& moved) {
        if (to <= from) return true;
        moved = true;
        return to <= v.max(s) && v.remove_below(s, static_cast<int>(to)) != Change::failed;
    }
    template <class V>
    static bool lower(S& s, const V& v, std::int64_t to, std::int64_t from, bool& moved) {
        if (to >= from) return true;
        moved = true;
        return to >= v.min(s) && v.remove_above(s, static_cast<int>(to)) != Change::failed;
    }

    std::vector<kept_t<X>> starts_;
    std::vector<kept_t<D>> d_;
    std::vector<kept_t<H>> h_;
    kept_t<C> capacity_;
    // Scratch, rebuilt by every pass.
    std::vector<CumulativeTask> tasks_;
    std::vector<int> which_;
    std::vector<std::int64_t> est_, lst_;
    std::int64_t need_ = 0;
    Timetable<> timetable_;
    UnarySettle<> unary_;
};

inline void check_cumulative_var(std::size_t starts, std::size_t durations, std::size_t heights) {
    const auto count = [&](std::size_t n, const char* what) {
        if (n != starts)
            throw model_error("cumulative: " + std::to_string(starts) + " starts but " + std::to_string(n) + " " +
                              what);
    };
    count(durations, "durations");
    count(heights, "heights");
}

} // namespace detail::scheduling

// The constraint, as cumulative() over variable durations, heights and
// capacity returns it.
template <class X, class D, class H, class C>
    requires std::convertible_to<X, AffineView> && std::convertible_to<D, AffineView> &&
             std::convertible_to<H, AffineView> && std::convertible_to<C, AffineView>
struct CumulativeVarConstraint {
    std::vector<X> starts;
    std::vector<D> durations;
    std::vector<H> heights;
    C capacity;

    template <class S>
    void post(S& s) const {
        detail::scheduling::check_cumulative_var(starts.size(), durations.size(), heights.size());
        s.check(capacity.var(), "cumulative");
        for (std::size_t i = 0; i < starts.size(); ++i) {
            s.check(starts[i].var(), "cumulative");
            s.check(durations[i].var(), "cumulative");
            s.check(heights[i].var(), "cumulative");
        }
        if (starts.empty()) return;
        const int id = s.add_propagator(
            std::make_unique<detail::scheduling::CumulativeVar<S, X, D, H, C>>(starts, durations, heights, capacity));
        for (std::size_t i = 0; i < starts.size(); ++i) {
            s.subscribe(starts[i].var(), id, Event::bounds);
            s.subscribe(durations[i].var(), id, Event::bounds);
            s.subscribe(heights[i].var(), id, Event::bounds);
        }
        s.subscribe(capacity.var(), id, Event::bounds);
    }
};

// starts, durations and heights as ranges of views, the capacity a view.
template <detail::ViewRange R, detail::ViewRange RD, detail::ViewRange RH, detail::ViewHandle C>
    requires std::convertible_to<std::ranges::range_value_t<R>, AffineView> &&
             std::convertible_to<std::ranges::range_value_t<RD>, AffineView> &&
             std::convertible_to<std::ranges::range_value_t<RH>, AffineView> && std::convertible_to<C, AffineView>
CumulativeVarConstraint<std::ranges::range_value_t<R>, std::ranges::range_value_t<RD>,
                        std::ranges::range_value_t<RH>, C>
cumulative(const R& starts, const RD& durations, const RH& heights, const C& capacity) {
    CumulativeVarConstraint<std::ranges::range_value_t<R>, std::ranges::range_value_t<RD>,
                            std::ranges::range_value_t<RH>, C>
        c{detail::views_of(starts), detail::views_of(durations), detail::views_of(heights), capacity};
    detail::scheduling::check_cumulative_var(c.starts.size(), c.durations.size(), c.heights.size());
    return c;
}

} // namespace propane

#endif
