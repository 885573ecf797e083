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
// somewhere. Views that share a variable are read as independent tasks.

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
#include "scheduling/timetable.hpp"

namespace propane {

namespace detail::scheduling {

template <class S, class X>
class Cumulative : public PropagatorBase<S, Cumulative<S, X>> {
public:
    Cumulative(const std::vector<X>& starts, std::vector<int> durations, std::vector<int> heights, int capacity)
        : starts_(kept(starts)), p_(std::move(durations)), h_(std::move(heights)), capacity_(capacity) {}

    PropStatus propagate(S& s) override {
        const std::size_t n = starts_.size();
        tasks_.resize(n);
        est_.resize(n);
        lst_.resize(n);
        for (;;) {
            for (std::size_t i = 0; i < n; ++i) {
                tasks_[i] = {starts_[i].min(s), starts_[i].max(s), p_[i], h_[i]};
                est_[i] = tasks_[i].est;
                lst_[i] = tasks_[i].lst;
            }
            if (!timetable_.pass(tasks_, capacity_, est_, lst_)) return PropStatus::failed;
            bool moved = false;
            for (std::size_t i = 0; i < n; ++i) {
                const auto& x = starts_[i];
                if (est_[i] > lst_[i]) return PropStatus::failed;
                if (est_[i] > tasks_[i].est) {
                    if (x.remove_below(s, static_cast<int>(est_[i])) == Change::failed) return PropStatus::failed;
                    moved = true;
                }
                if (lst_[i] < tasks_[i].lst) {
                    if (x.remove_above(s, static_cast<int>(lst_[i])) == Change::failed) return PropStatus::failed;
                    moved = true;
                }
            }
            if (!moved) return PropStatus::fix;
        }
    }

private:
    std::vector<kept_t<X>> starts_;
    std::vector<int> p_, h_;
    int capacity_;
    // Scratch, rebuilt by every run.
    std::vector<CumulativeTask> tasks_;
    std::vector<std::int64_t> est_, lst_;
    Timetable timetable_;
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

// The constraint, as cumulative() returns it.
template <class X>
    requires std::convertible_to<X, AffineView>
struct CumulativeConstraint {
    std::vector<X> starts;
    std::vector<int> durations;
    std::vector<int> heights;
    int capacity = 0;

    template <class S>
    void post(S& s) const {
        detail::scheduling::check_cumulative(starts.size(), durations, heights, capacity);
        std::vector<X> xs;
        std::vector<int> d, h;
        for (std::size_t i = 0; i < starts.size(); ++i) {
            s.check(starts[i].var(), "cumulative");
            if (durations[i] == 0 || heights[i] == 0) continue;
            if (heights[i] > capacity) {
                [[maybe_unused]] const Change failed = s.fail();
                return;
            }
            xs.push_back(starts[i]);
            d.push_back(durations[i]);
            h.push_back(heights[i]);
        }
        if (xs.empty()) return;
        const int id = s.add_propagator(
            std::make_unique<detail::scheduling::Cumulative<S, X>>(xs, std::move(d), std::move(h), capacity));
        for (const X& x : xs) s.subscribe(x.var(), id, Event::bounds);
    }
};

namespace detail::scheduling {

template <class X>
CumulativeConstraint<X> make_cumulative(std::vector<X> starts, const Numbers& durations, const Numbers& heights,
                                        const Number& capacity) {
    CumulativeConstraint<X> c{std::move(starts), durations.as_ints("cumulative", "durations"),
                              heights.as_ints("cumulative", "heights"),
                              capacity.get_int("cumulative", "the capacity")};
    check_cumulative(c.starts.size(), c.durations, c.heights, c.capacity);
    return c;
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
