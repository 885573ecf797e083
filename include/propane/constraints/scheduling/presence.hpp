#ifndef PROPANE_CONSTRAINTS_SCHEDULING_PRESENCE_HPP
#define PROPANE_CONSTRAINTS_SCHEDULING_PRESENCE_HPP

// Optional tasks of a resource (unary.hpp, cumulative.hpp): each task has
// a presence view over 0..1, and one whose presence is 0 takes no part, its
// start left free. What both resources do with them is the same:
//   the present tasks (presence 1) go through the rules as a resource
//   without optional tasks;
//   an open task (presence 0..1) is tried alone beside them, on numbers: the
//   rules run to their fixpoint over the present tasks' bounds and its own,
//   holes ignored; if that fails, it is made absent. Its start is never
//   pruned, as it may yet be absent and free.
// Presence drives no pruning of the present tasks beyond that, so an open
// task costs one trial per run; with every presence fixed, a run costs what
// the same resource without optional tasks does.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "../../engine/error.hpp"
#include "../../engine/propagator.hpp"
#include "../../engine/view.hpp"

namespace propane::detail::scheduling {

// The start bounds of a set of tasks (by their index in the resource), as
// a resource's rules read and tighten them: StoreStarts on a store's views,
// NumberStarts on numbers of its own (an open task's trial). raise and
// lower return false when they leave no start.
template <class S, class X>
class StoreStarts {
public:
    StoreStarts(S& s, const std::vector<X>& starts, const std::vector<int>& tasks)
        : s_(s), starts_(starts), tasks_(tasks) {}
    std::size_t size() const noexcept { return tasks_.size(); }
    int task(std::size_t k) const noexcept { return tasks_[k]; }
    std::int64_t lo(std::size_t k) const { return at(k).min(s_); }
    std::int64_t hi(std::size_t k) const { return at(k).max(s_); }
    bool raise(std::size_t k, std::int64_t v) {
        moved_ = true;
        return v <= hi(k) && at(k).remove_below(s_, static_cast<int>(v)) != Change::failed;
    }
    bool lower(std::size_t k, std::int64_t v) {
        moved_ = true;
        return v >= lo(k) && at(k).remove_above(s_, static_cast<int>(v)) != Change::failed;
    }
    // Whether a bound was moved.
    bool moved() const noexcept { return moved_; }

private:
    const X& at(std::size_t k) const { return starts_[static_cast<std::size_t>(tasks_[k])]; }
    S& s_;
    const std::vector<X>& starts_;
    const std::vector<int>& tasks_;
    bool moved_ = false;
};

// A template on nothing: see Timetable (timetable.hpp).
template <class = void>
class NumberStarts {
public:
    void clear() { tasks_.clear(), lo_.clear(), hi_.clear(); }
    void add(int task, std::int64_t lo, std::int64_t hi) {
        tasks_.push_back(task), lo_.push_back(lo), hi_.push_back(hi);
    }
    std::size_t size() const noexcept { return tasks_.size(); }
    int task(std::size_t k) const noexcept { return tasks_[k]; }
    std::int64_t lo(std::size_t k) const noexcept { return lo_[k]; }
    std::int64_t hi(std::size_t k) const noexcept { return hi_[k]; }
    bool raise(std::size_t k, std::int64_t v) noexcept { return v <= hi_[k] && (lo_[k] = v, true); }
    bool lower(std::size_t k, std::int64_t v) noexcept { return v >= lo_[k] && (hi_[k] = v, true); }

private:
    std::vector<int> tasks_;
    std::vector<std::int64_t> lo_, hi_;
};

// The presence views, or none (every task present).
template <class B>
class Presence {
public:
    Presence() = default;
    // shared: whether a presence's variable is also another presence's or
    // a start's (starts, of any view type).
    template <class X>
    Presence(const std::vector<B>& views, const std::vector<X>& starts) : views_(kept(views)) {
        for (std::size_t i = 0; i < views.size() && !shared_; ++i) {
            const auto same = [&](const auto& w) { return w.var().index() == views[i].var().index(); };
            shared_ = std::count_if(views.begin(), views.end(), same) > 1 ||
                      std::any_of(starts.begin(), starts.end(), same);
        }
    }

    bool optional() const noexcept { return !views_.empty(); }
    bool shared() const noexcept { return shared_; }

    // Sorts tasks 0 .. n - 1 into the present and the open ones; absent
    // ones are in neither.
    template <class S>
    void sort(const S& s, std::size_t n, std::vector<int>& present, std::vector<int>& open) const {
        open.clear();
        // Without optional tasks every task is present, as the last run left
        // them.
        if (!optional() && present.size() == n) return;
        present.clear();
        for (std::size_t i = 0; i < n; ++i) {
            if (!optional() || views_[i].min(s) == 1)
                present.push_back(static_cast<int>(i));
            else if (views_[i].max(s) == 1)
                open.push_back(static_cast<int>(i));
        }
    }

    template <class S>
    bool make_absent(S& s, int i) const {
        return views_[static_cast<std::size_t>(i)].remove_above(s, 0) != Change::failed;
    }

private:
    std::vector<kept_t<B>> views_;
    bool shared_ = false;
};

// One run of a resource with optional tasks, `settle` being its rules to
// their fixpoint over a StoreStarts or a NumberStarts (false on failure).
// With no optional task, one settling of every task.
template <class S, class X, class B, class Settle>
PropStatus settle_present(S& s, const std::vector<X>& starts, const Presence<B>& presence, std::vector<int>& present,
                          std::vector<int>& open, NumberStarts<>& trial, Settle&& settle) {
    presence.sort(s, starts.size(), present, open);
    StoreStarts<S, X> at(s, starts, present);
    if (!settle(at)) return PropStatus::failed;
    bool changed = at.moved();
    for (const int o : open) {
        trial.clear();
        const auto add = [&](int i) {
            const auto& x = starts[static_cast<std::size_t>(i)];
            trial.add(i, x.min(s), x.max(s));
        };
        for (const int i : present) add(i);
        add(o);
        if (settle(trial)) continue;
        if (!presence.make_absent(s, o)) return PropStatus::failed;
        changed = true;
    }
    // Where a presence's variable is also another task's presence or
    // start, what this run changed may have moved what it read before (a
    // start pruned fixing an open task's presence, say), and a propagator
    // is not queued by its own changes: then it runs again.
    return changed && presence.shared() ? PropStatus::nofix : PropStatus::fix;
}

inline void check_presence_count(std::size_t present, std::size_t starts, const char* who) {
    if (present != starts)
        throw model_error(std::string(who) + ": " + std::to_string(starts) + " starts but " + std::to_string(present) +
                          " presence views");
}

// The post-time checks of a presence vector: one view per start, each of
// the store, each over 0..1.
template <class S, class B>
void check_presence(const S& s, const std::vector<B>& present, std::size_t starts, const char* who) {
    check_presence_count(present.size(), starts, who);
    for (std::size_t i = 0; i < present.size(); ++i) {
        s.check(present[i].var(), who);
        const int lo = present[i].min(s), hi = present[i].max(s);
        if (lo < 0 || hi > 1)
            throw model_error(std::string(who) + ": present[" + std::to_string(i) + "] is over " + std::to_string(lo) +
                              ".." + std::to_string(hi) + ", a presence must be within 0..1");
    }
}

} // namespace propane::detail::scheduling

#endif
