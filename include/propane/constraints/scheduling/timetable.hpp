#ifndef PROPANE_CONSTRAINTS_SCHEDULING_TIMETABLE_HPP
#define PROPANE_CONSTRAINTS_SCHEDULING_TIMETABLE_HPP

// Time-tabling for a cumulative resource, over plain numbers. Task i runs
// p_i > 0 time units from its start, between est_i and lst_i, using h_i > 0
// of a capacity C. Whatever the schedule, a task whose latest start comes
// before its earliest end runs over [lst_i, ect_i): its compulsory part.
// The profile sums the compulsory parts' heights over time; a run
//   fails where the profile exceeds C;
//   raises est_i past every stretch where the profile of the *other*
//   tasks leaves less than h_i free and [est_i, est_i + p_i) would meet it
//   (every start up to the stretch's end would meet it too), and lowers
//   lst_i past such stretches from the other end.
// A task's own compulsory part is left out of what it is checked against,
// as a task never competes with itself. One pass is O(n * m) for m
// stretches of the profile; the propagator repeats passes until no bound
// moves, as each change can make a compulsory part grow.

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace propane::detail::scheduling {

struct CumulativeTask {
    std::int64_t est = 0;
    std::int64_t lst = 0;
    std::int64_t p = 0;
    std::int64_t h = 0;
    bool compulsory() const noexcept { return lst < est + p; }
};

// A template on nothing, as the other classes here: g++ compiles the std
// templates a non-template class uses in every file that includes it,
// and most models have no resource.
template <class = void>
class Timetable {
public:
    // One pass: new_est raised and new_lst lowered (both the size of tasks,
    // starting from the tasks' own bounds). False when the compulsory
    // parts alone exceed the capacity.
    bool pass(const std::vector<CumulativeTask>& tasks, std::int64_t capacity, std::vector<std::int64_t>& new_est,
              std::vector<std::int64_t>& new_lst) {
        if (!build(tasks, capacity)) return false;
        for (std::size_t i = 0; i < tasks.size(); ++i) {
            const CumulativeTask& t = tasks[i];
            new_est[i] = std::max(new_est[i], earliest(t, capacity));
            new_lst[i] = std::min(new_lst[i], latest(t, capacity));
        }
        return true;
    }

    // The profile's greatest height after the last pass (0 without
    // compulsory parts): the least capacity that holds them, which a
    // resource of variable capacity raises its capacity to.
    std::int64_t peak() const noexcept { return peak(INT64_MIN, INT64_MAX); }
    // The same over [from, to): what a task certain to run then shares the
    // capacity with, its own compulsory part included.
    std::int64_t peak(std::int64_t from, std::int64_t to) const noexcept {
        std::int64_t top = 0;
        for (const Stretch& s : profile_)
            if (s.from < to && from < s.to) top = std::max(top, s.height);
        return top;
    }

private:
    // A stretch [from, to) over which the profile is `height`.
    struct Stretch {
        std::int64_t from, to, height;
    };

    bool build(const std::vector<CumulativeTask>& tasks, std::int64_t capacity) {
        events_.clear();
        for (const CumulativeTask& t : tasks)
            if (t.compulsory()) {
                events_.push_back({t.lst, t.h});
                events_.push_back({t.est + t.p, -t.h});
            }
        std::sort(events_.begin(), events_.end(), [](const Event& a, const Event& b) { return a.time < b.time; });
        profile_.clear();
        std::int64_t height = 0;
        for (std::size_t k = 0; k < events_.size();) {
            const std::int64_t time = events_[k].time;
            for (; k < events_.size() && events_[k].time == time; ++k) height += events_[k].delta;
            if (height > capacity) return false;
            if (k < events_.size() && height > 0) profile_.push_back({time, events_[k].time, height});
        }
        return true;
    }

    // The profile at [from, to) less t's own compulsory part there: does it
    // leave less than t.h free?
    static bool conflicts(const Stretch& s, const CumulativeTask& t, std::int64_t capacity) {
        const bool own = t.compulsory() && t.lst <= s.from && s.to <= t.est + t.p;
        return s.height - (own ? t.h : 0) + t.h > capacity;
    }

    // The least start >= est whose run meets no conflicting stretch. The
    // stretches are in time order, and pushing past one only meets later
    // ones. Stretches split at every event, so a stretch lies wholly
    // inside or wholly outside the task's own compulsory part.
    std::int64_t earliest(const CumulativeTask& t, std::int64_t capacity) const {
        std::int64_t start = t.est;
        for (const Stretch& s : profile_) {
            if (s.from >= start + t.p) break;
            if (s.to > start && conflicts(s, t, capacity)) start = s.to;
        }
        return start;
    }
    std::int64_t latest(const CumulativeTask& t, std::int64_t capacity) const {
        std::int64_t start = t.lst;
        for (auto it = profile_.rbegin(); it != profile_.rend(); ++it) {
            if (it->to <= start) break;
            if (it->from < start + t.p && conflicts(*it, t, capacity)) start = it->from - t.p;
        }
        return start;
    }

    struct Event {
        std::int64_t time, delta;
    };
    std::vector<Event> events_;
    std::vector<Stretch> profile_;
};

} // namespace propane::detail::scheduling

#endif
