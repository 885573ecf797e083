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
// Optional tasks: unary(starts, durations, present) and disjunctive(...,
// present), present a range of views of one type, one per start, each over
// 0..1 (model_error otherwise, naming the index). A task whose presence is
// 0 takes no part: its start may take any value of its domain. The tasks
// present (presence 1) are propagated as above, by themselves. A task
// whose presence is open is made absent when the same rules, run to their
// fixpoint on the present tasks' bounds and its own (numbers, holes
// ignored), fail; its start is never pruned while its presence is open.
// With every presence fixed, a run costs what the same resource without
// them does (scheduling/presence.hpp).
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
#include "scheduling/presence.hpp"
#include "scheduling/unary_rules.hpp"

namespace propane {

namespace detail::scheduling {

template <class S, class X, class B>
class Unary : public PropagatorBase<S, Unary<S, X, B>> {
public:
    Unary(const std::vector<X>& starts, std::vector<int> durations, const std::vector<B>& present)
        : starts_(kept(starts)), p_(std::move(durations)), presence_(present, starts) {}

    // Only once the cheaper propagators have settled: a job shop's
    // precedences move the starts one by one, and running after each move
    // did the same work many times over (la01 proven in half the time, the
    // same tree).
    PropStatus propagate(S& s) override {
        if (s.queued() > 0) return PropStatus::defer;
        return settle_present(s, starts_, presence_, present_, open_, trial_,
                              [this](auto& at) { return this->settle(at); });
    }

private:
    template <class Starts>
    bool settle(Starts& at) {
        return settle_(at, [&](std::size_t k) { return std::int64_t{p_[static_cast<std::size_t>(at.task(k))]}; });
    }

    std::vector<kept_t<X>> starts_;
    std::vector<int> p_;
    Presence<B> presence_;
    // Scratch, rebuilt by every run.
    std::vector<int> present_, open_;
    NumberStarts<> trial_;
    UnarySettle<> settle_;
};

} // namespace detail::scheduling

// The constraint, as unary() and disjunctive() return it; `present` empty
// when every task is.
template <class X, class B = IntVar>
    requires std::convertible_to<X, AffineView> && std::convertible_to<B, AffineView>
struct UnaryConstraint {
    std::vector<X> starts;
    std::vector<int> durations;
    bool strict = true; // false: disjunctive()
    std::vector<B> present;

    template <class S>
    void post(S& s) const {
        const char* who = strict ? "unary" : "disjunctive";
        if (durations.size() != starts.size())
            throw model_error(std::string(who) + ": " + std::to_string(starts.size()) + " starts but " +
                              std::to_string(durations.size()) + " durations");
        if (!present.empty()) detail::scheduling::check_presence(s, present, starts.size(), who);
        std::vector<X> xs;
        std::vector<int> d;
        std::vector<B> bs;
        for (std::size_t i = 0; i < starts.size(); ++i) {
            s.check(starts[i].var(), who);
            if (strict || durations[i] > 0) {
                xs.push_back(starts[i]);
                d.push_back(durations[i]);
                if (!present.empty()) bs.push_back(present[i]);
            }
        }
        if (xs.size() < 2) return;
        const int id = s.add_propagator(std::make_unique<detail::scheduling::Unary<S, X, B>>(xs, std::move(d), bs));
        for (const X& x : xs) s.subscribe(x.var(), id, Event::bounds);
        for (const B& b : bs) s.subscribe(b.var(), id, Event::fixed);
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
    return {std::move(starts), std::move(d), strict, {}};
}

template <class X, class B>
UnaryConstraint<X, B> make_unary(std::vector<X> starts, const Numbers& durations, bool strict, const char* who,
                                 std::vector<B> present) {
    check_presence_count(present.size(), starts.size(), who);
    UnaryConstraint<X> plain = make_unary(std::move(starts), durations, strict, who);
    return {std::move(plain.starts), std::move(plain.durations), strict, std::move(present)};
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

// Optional tasks: present[i] (a view over 0..1) says whether task i is
// on the resource; see the header comment.
template <detail::ViewRange R, detail::ViewRange P>
    requires std::convertible_to<std::ranges::range_value_t<R>, AffineView> &&
             std::convertible_to<std::ranges::range_value_t<P>, AffineView>
UnaryConstraint<std::ranges::range_value_t<R>, std::ranges::range_value_t<P>>
unary(const R& starts, const detail::Numbers& durations, const P& present) {
    return detail::scheduling::make_unary(detail::views_of(starts), durations, true, "unary",
                                          detail::views_of(present));
}
template <detail::ViewRange R, detail::ViewRange P>
    requires std::convertible_to<std::ranges::range_value_t<R>, AffineView> &&
             std::convertible_to<std::ranges::range_value_t<P>, AffineView>
UnaryConstraint<std::ranges::range_value_t<R>, std::ranges::range_value_t<P>>
disjunctive(const R& starts, const detail::Numbers& durations, const P& present) {
    return detail::scheduling::make_unary(detail::views_of(starts), durations, false, "disjunctive",
                                          detail::views_of(present));
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
