#ifndef PROPANE_CONSTRAINTS_CUMULATIVE_HPP
#define PROPANE_CONSTRAINTS_CUMULATIVE_HPP

// cumulative(starts, durations, heights, capacity): at every time t the
// tasks running then (s_i <= t < s_i + d_i) use at most `capacity` in
// total. starts is a range of views of one type (AffineView holds any mix)
// or a braced list; durations and heights are numbers of any integral
// type, >= 0, within int, one of each per start; capacity a number >= 0. A
// task of duration 0 or height 0 uses nothing and is left out; one higher
// than the capacity cannot run, and fails the store when posted.
//
// Strength: the fixpoint of time-tabling (scheduling/timetable.hpp) on
// each start's bounds: a start keeps its least and greatest values only if
// the task fits there beside the compulsory parts of the others. With every
// start fixed, propagation fails exactly when the capacity is exceeded
// somewhere.
//
// Optional tasks: cumulative(starts, durations, heights, capacity,
// present), present a range of views of one type, one per start, each
// over 0..1 (model_error otherwise, naming the index). A task whose
// presence is 0 takes no part: its start may take any value of its domain.
// The tasks present (presence 1) are propagated as above, by themselves.
// A task whose presence is open is made absent when time-tabling, run to
// its fixpoint on the present tasks' bounds and its own (numbers, holes
// ignored), fails (as it does for a task higher than the capacity); its
// start is never pruned while its presence is open. With every presence
// fixed, a run costs what the same resource without them does
// (scheduling/presence.hpp).
//
// Views that share a variable are read as independent tasks.
//
// Durations, heights and the capacity as views: cumulative_var.hpp, which
// this header includes.

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
#include "../engine/view.hpp"
#include "arguments.hpp"
#include "cumulative_var.hpp"
#include "scheduling/presence.hpp"
#include "scheduling/timetable.hpp"

namespace propane {

namespace detail::scheduling {

template <class S, class X, class B>
class Cumulative : public PropagatorBase<S, Cumulative<S, X, B>> {
public:
    Cumulative(const std::vector<X>& starts, std::vector<int> durations, std::vector<int> heights, int capacity,
               const std::vector<B>& present)
        : starts_(kept(starts)), p_(std::move(durations)), h_(std::move(heights)), capacity_(capacity),
          presence_(present, starts) {}

    PropStatus propagate(S& s) override {
        return settle_present(s, starts_, presence_, present_, open_, trial_,
                              [this](auto& at) { return this->settle(at); });
    }

private:
    // Time-tabling passes until no bound moves. A task higher than the
    // capacity cannot run (a plain one fails the post; an optional one
    // comes here).
    template <class Starts>
    bool settle(Starts& at) {
        const std::size_t n = at.size();
        tasks_.resize(n);
        est_.resize(n);
        lst_.resize(n);
        for (;;) {
            for (std::size_t k = 0; k < n; ++k) {
                const auto i = static_cast<std::size_t>(at.task(k));
                if (h_[i] > capacity_) return false;
                tasks_[k] = {at.lo(k), at.hi(k), p_[i], h_[i]};
                est_[k] = tasks_[k].est;
                lst_[k] = tasks_[k].lst;
            }
            if (!timetable_.pass(tasks_, capacity_, est_, lst_)) return false;
            bool moved = false;
            for (std::size_t k = 0; k < n; ++k) {
                if (est_[k] > lst_[k]) return false;
                if (est_[k] > tasks_[k].est) {
                    if (!at.raise(k, est_[k])) return false;
                    moved = true;
                }
                if (lst_[k] < tasks_[k].lst) {
                    if (!at.lower(k, lst_[k])) return false;
                    moved = true;
                }
            }
            if (!moved) return true;
        }
    }

    std::vector<kept_t<X>> starts_;
    std::vector<int> p_, h_;
    int capacity_;
    Presence<B> presence_;
    // Scratch, rebuilt by every run.
    std::vector<int> present_, open_;
    NumberStarts<> trial_;
    std::vector<CumulativeTask> tasks_;
    std::vector<std::int64_t> est_, lst_;
    Timetable<> timetable_;
};

inline void check_cumulative(std::size_t starts, const std::vector<int>& d, const std::vector<int>& h, int capacity) {
    const auto count = [&](const std::vector<int>& v, const char* what) {
        if (v.size() != starts)
            throw model_error("cumulative: " + std::to_string(starts) + " starts but " + std::to_string(v.size()) + " " +
                              what);
        for (std::size_t i = 0; i < v.size(); ++i)
            if (v[i] < 0)
                throw model_error(std::string("cumulative: ") + what + "[" + std::to_string(i) + "] is " +
                                  std::to_string(v[i]) + ", must be >= 0");
    };
    count(d, "durations");
    count(h, "heights");
    if (capacity < 0) throw model_error("cumulative: the capacity is " + std::to_string(capacity) + ", must be >= 0");
}

} // namespace detail::scheduling

// The constraint, as cumulative() returns it; `present` empty when every
// task is.
template <class X, class B = IntVar>
    requires std::convertible_to<X, AffineView> && std::convertible_to<B, AffineView>
struct CumulativeConstraint {
    std::vector<X> starts;
    std::vector<int> durations;
    std::vector<int> heights;
    int capacity = 0;
    std::vector<B> present;

    template <class S>
    void post(S& s) const {
        detail::scheduling::check_cumulative(starts.size(), durations, heights, capacity);
        const bool optional = !present.empty();
        if (optional) detail::scheduling::check_presence(s, present, starts.size(), "cumulative");
        std::vector<X> xs;
        std::vector<int> d, h;
        std::vector<B> bs;
        for (std::size_t i = 0; i < starts.size(); ++i) {
            s.check(starts[i].var(), "cumulative");
            if (durations[i] == 0 || heights[i] == 0) continue;
            if (heights[i] > capacity && !optional) {
                [[maybe_unused]] const Change failed = s.fail();
                return;
            }
            xs.push_back(starts[i]);
            d.push_back(durations[i]);
            h.push_back(heights[i]);
            if (optional) bs.push_back(present[i]);
        }
        if (xs.empty()) return;
        const int id = s.add_propagator(std::make_unique<detail::scheduling::Cumulative<S, X, B>>(
            xs, std::move(d), std::move(h), capacity, bs));
        for (const X& x : xs) s.subscribe(x.var(), id, Event::bounds);
        for (const B& b : bs) s.subscribe(b.var(), id, Event::fixed);
    }
};

namespace detail::scheduling {

template <class X>
CumulativeConstraint<X> make_cumulative(std::vector<X> starts, const Numbers& durations, const Numbers& heights,
                                        const Number& capacity) {
    CumulativeConstraint<X> c{std::move(starts), durations.as_ints("cumulative", "durations"),
                              heights.as_ints("cumulative", "heights"),
                              capacity.get_int("cumulative", "the capacity"), {}};
    check_cumulative(c.starts.size(), c.durations, c.heights, c.capacity);
    return c;
}

template <class X, class B>
CumulativeConstraint<X, B> make_cumulative(std::vector<X> starts, const Numbers& durations, const Numbers& heights,
                                           const Number& capacity, std::vector<B> present) {
    check_presence_count(present.size(), starts.size(), "cumulative");
    CumulativeConstraint<X> plain = make_cumulative(std::move(starts), durations, heights, capacity);
    return {std::move(plain.starts), std::move(plain.durations), std::move(plain.heights), plain.capacity,
            std::move(present)};
}

} // namespace detail::scheduling

// starts as a range of one view type or a braced list; durations and
// heights as braced lists or ranges of any integral type (arguments.hpp).
template <detail::ViewRange R>
    requires std::convertible_to<std::ranges::range_value_t<R>, AffineView>
CumulativeConstraint<std::ranges::range_value_t<R>> cumulative(const R& starts, const detail::Numbers& durations,
                                                               const detail::Numbers& heights,
                                                               detail::Number capacity) {
    return detail::scheduling::make_cumulative(detail::views_of(starts), durations, heights, capacity);
}
// Optional tasks: present[i] (a view over 0..1) says whether task i is
// on the resource; see the header comment.
template <detail::ViewRange R, detail::ViewRange P>
    requires std::convertible_to<std::ranges::range_value_t<R>, AffineView> &&
             std::convertible_to<std::ranges::range_value_t<P>, AffineView>
CumulativeConstraint<std::ranges::range_value_t<R>, std::ranges::range_value_t<P>>
cumulative(const R& starts, const detail::Numbers& durations, const detail::Numbers& heights,
           detail::Number capacity, const P& present) {
    return detail::scheduling::make_cumulative(detail::views_of(starts), durations, heights, capacity,
                                               detail::views_of(present));
}
template <detail::ViewHandle X>
    requires std::convertible_to<X, AffineView>
CumulativeConstraint<X> cumulative(std::initializer_list<X> starts, const detail::Numbers& durations,
                                   const detail::Numbers& heights, detail::Number capacity) {
    return detail::scheduling::make_cumulative(detail::views_of(starts), durations, heights, capacity);
}
inline CumulativeConstraint<AffineView> cumulative(std::initializer_list<AffineView> starts,
                                                   const detail::Numbers& durations, const detail::Numbers& heights,
                                                   detail::Number capacity) {
    return detail::scheduling::make_cumulative(detail::views_of(starts), durations, heights, capacity);
}

} // namespace propane

#endif
