#ifndef PROPANE_CONSTRAINTS_UNARY_HPP
#define PROPANE_CONSTRAINTS_UNARY_HPP

// unary(starts, durations): tasks on one machine that never overlap: for
// every two tasks i, j, s_i + d_i <= s_j or s_j + d_j <= s_i. A task of
// duration 0 is a point that may not lie strictly inside another task
// (MiniZinc's disjunctive_strict). disjunctive(starts, durations) is the
// same with tasks of duration 0 free to sit anywhere (MiniZinc's
// disjunctive): they are left out. starts is a range of views of one type
// (AffineView holds any mix) or a braced list; durations are numbers of any
// integral type, >= 0, within int (arguments.hpp), one per start.
//
// Strength: the fixpoint of overload checking, detectable precedences,
// not-first/not-last and edge finding (scheduling/unary_rules.hpp), on
// the earliest start and the latest end of each task, O(n log n) per pass
// with Vilím's Θ-Λ-tree. Holes inside a start's domain are not reasoned
// on beyond the bounds they leave. With every start fixed, propagation
// fails exactly when two tasks overlap.
//
// Views that share a variable are read as independent tasks: sound, as
// every rule holds of any schedule of independent tasks.

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
#include "scheduling/unary_rules.hpp"

namespace propane {

namespace detail::scheduling {

template <class S, class X>
class Unary : public PropagatorBase<S, Unary<S, X>> {
public:
    Unary(const std::vector<X>& starts, std::vector<int> durations)
        : starts_(kept(starts)), p_(std::move(durations)) {}

    // Forward (earliest starts, and latest ends by not-last), then the
    // mirror image (time reversed: a task from -lct to -est), each applied
    // as soon as computed; until a round moves no bound. Only once the
    // cheaper propagators have settled: a job shop's precedences move the
    // starts one by one, and running after each move did the same work many
    // times over (la01 proven in half the time, the same tree).
    PropStatus propagate(S& s) override {
        if (s.queued() > 0) return PropStatus::defer;
        const std::size_t n = starts_.size();
        tasks_.resize(n);
        est_.resize(n);
        lct_.resize(n);
        for (;;) {
            bool moved = false;
            for (const bool mirror : {false, true}) {
                for (std::size_t i = 0; i < n; ++i) {
                    const std::int64_t lo = starts_[i].min(s), hi = std::int64_t{starts_[i].max(s)} + p_[i];
                    tasks_[i] = mirror ? Task{-hi, -lo, p_[i]} : Task{lo, hi, p_[i]};
                    est_[i] = tasks_[i].est;
                    lct_[i] = tasks_[i].lct;
                }
                if (!rules_.pass(tasks_, est_, lct_)) return PropStatus::failed;
                for (std::size_t i = 0; i < n; ++i) {
                    // Back from the mirror: its est is minus the real lct.
                    const std::int64_t rise = mirror ? -lct_[i] : est_[i];
                    const std::int64_t fall = (mirror ? -est_[i] : lct_[i]) - p_[i];
                    const auto& x = starts_[i];
                    if (rise > x.min(s)) {
                        if (rise > x.max(s) || x.remove_below(s, static_cast<int>(rise)) == Change::failed)
                            return PropStatus::failed;
                        moved = true;
                    }
                    if (fall < x.max(s)) {
                        if (fall < x.min(s) || x.remove_above(s, static_cast<int>(fall)) == Change::failed)
                            return PropStatus::failed;
                        moved = true;
                    }
                }
            }
            if (!moved) return PropStatus::fix;
        }
    }

private:
    std::vector<kept_t<X>> starts_;
    std::vector<int> p_;
    // Scratch, rebuilt by every run.
    std::vector<Task> tasks_;
    std::vector<std::int64_t> est_, lct_;
    UnaryRules rules_;
};

} // namespace detail::scheduling

// The constraint, as unary() and disjunctive() return it.
template <class X>
    requires std::convertible_to<X, AffineView>
struct UnaryConstraint {
    std::vector<X> starts;
    std::vector<int> durations;
    bool strict = true; // false: disjunctive()

    template <class S>
    void post(S& s) const {
        if (durations.size() != starts.size())
            throw model_error(std::string(strict ? "unary" : "disjunctive") + ": " + std::to_string(starts.size()) +
                              " starts but " + std::to_string(durations.size()) + " durations");
        std::vector<X> xs;
        std::vector<int> d;
        for (std::size_t i = 0; i < starts.size(); ++i) {
            s.check(starts[i].var(), strict ? "unary" : "disjunctive");
            if (strict || durations[i] > 0) {
                xs.push_back(starts[i]);
                d.push_back(durations[i]);
            }
        }
        if (xs.size() < 2) return;
        const int id = s.add_propagator(std::make_unique<detail::scheduling::Unary<S, X>>(xs, std::move(d)));
        for (const X& x : xs) s.subscribe(x.var(), id, Event::bounds);
    }
};

namespace detail::scheduling {

template <class X>
UnaryConstraint<X> make_unary(std::vector<X> starts, const Numbers& durations, bool strict, const char* who) {
    std::vector<int> d = durations.as_ints(who, "durations");
    if (d.size() != starts.size())
        throw model_error(std::string(who) + ": " + std::to_string(starts.size()) + " starts but " +
                          std::to_string(d.size()) + " durations");
    for (std::size_t i = 0; i < d.size(); ++i)
        if (d[i] < 0)
            throw model_error(std::string(who) + ": durations[" + std::to_string(i) + "] is " + std::to_string(d[i]) +
                              ", a duration must be >= 0");
    return {std::move(starts), std::move(d), strict};
}

} // namespace detail::scheduling

// starts as a range of one view type or a braced list; durations as a
// braced list or a range of any integral type (arguments.hpp).
template <detail::ViewRange R>
    requires std::convertible_to<std::ranges::range_value_t<R>, AffineView>
UnaryConstraint<std::ranges::range_value_t<R>> unary(const R& starts, const detail::Numbers& durations) {
    return detail::scheduling::make_unary(detail::views_of(starts), durations, true, "unary");
}
template <detail::ViewHandle X>
    requires std::convertible_to<X, AffineView>
UnaryConstraint<X> unary(std::initializer_list<X> starts, const detail::Numbers& durations) {
    return detail::scheduling::make_unary(detail::views_of(starts), durations, true, "unary");
}
inline UnaryConstraint<AffineView> unary(std::initializer_list<AffineView> starts, const detail::Numbers& durations) {
    return detail::scheduling::make_unary(detail::views_of(starts), durations, true, "unary");
}

template <detail::ViewRange R>
    requires std::convertible_to<std::ranges::range_value_t<R>, AffineView>
UnaryConstraint<std::ranges::range_value_t<R>> disjunctive(const R& starts, const detail::Numbers& durations) {
    return detail::scheduling::make_unary(detail::views_of(starts), durations, false, "disjunctive");
}
template <detail::ViewHandle X>
    requires std::convertible_to<X, AffineView>
UnaryConstraint<X> disjunctive(std::initializer_list<X> starts, const detail::Numbers& durations) {
    return detail::scheduling::make_unary(detail::views_of(starts), durations, false, "disjunctive");
}
inline UnaryConstraint<AffineView> disjunctive(std::initializer_list<AffineView> starts,
                                               const detail::Numbers& durations) {
    return detail::scheduling::make_unary(detail::views_of(starts), durations, false, "disjunctive");
}

} // namespace propane

#endif
