#ifndef PROPANE_EXAMPLES_JOBSHOP_BRANCHING_HPP
#define PROPANE_EXAMPLES_JOBSHOP_BRANCHING_HPP

// The job-shop search: which pair of operations to order next, and which
// of the two first. Used by jobshop_model.hpp's solve(), by the example and
// by bench/jobshop_compare.cpp.
//
// The pair: on the machine with the least slack, the pair with the least
// slack, where a set of operations' slack is the span of its window (the
// latest end less the earliest start) less its total duration: the time
// the machine may still stand idle there. It is Smith and Cheng's min-slack
// ordering ("Slack-based heuristics for constraint satisfaction
// scheduling", AAAI 1993), taken first over machines: deciding the most
// crowded machine first lets the unary propagator's edge finding settle the
// rest of it and fail early. The value: the operation that can start
// earlier goes first (on a tie, the one that must end earlier), as a
// schedule built from the left would have it.
//
// Measured against ordering the pairs as they come (machine by machine,
// the later job first), with --model unary, in one run each:
//   la01 to la05: 0.02 to 0.05 s and 1,900 to 4,400 failures each, against
//     seconds (la01: 4 s, 58,610 failures);
//   ft10, makespan 929 refuted (the proof of 930's optimality): 10,325
//     failures, against no answer after 284,576 failures (60 s);
//   ft10 from scratch: 930 found and proven in 36 s, 383,594 failures
//     (`taskset -c 1 build/jobshop bench/data/ft10.txt --quiet`).
// Choosing the value by slack instead (the order that leaves the pair more
// room) halved la01's failures but left ft10 at 978 after 200 s; restarts
// and solution-guided values (the last schedule's order first) did worse
// on ft10 (967 and 969 after 120 s).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include <propane/propane.hpp>

namespace jobshop {

// The model's layout, as the search needs it: order Boolean i decides
// operations a and b (a of the lower job) of one machine, with i running
// machine by machine.
struct Layout {
    struct Task {
        propane::IntVar start;
        int duration = 0;
    };
    struct Pair {
        Task a, b;
    };
    struct Machine {
        std::vector<Task> tasks;
        std::size_t first = 0, last = 0; // its order Booleans: [first, last)
    };
    std::vector<Pair> pairs;       // one per order Boolean
    std::vector<Machine> machines; // those with two operations or more
    // The order Boolean of a variable, by the variable's index, or -1.
    std::vector<std::ptrdiff_t> order_of;
};

namespace detail {

constexpr std::int64_t none = std::numeric_limits<std::int64_t>::max();

template <class Store>
std::int64_t slack(const Store& s, std::span<const Layout::Task> tasks) {
    std::int64_t lo = none, hi = -none, total = 0;
    for (const Layout::Task& t : tasks) {
        lo = std::min<std::int64_t>(lo, t.start.min(s));
        hi = std::max<std::int64_t>(hi, std::int64_t{t.start.max(s)} + t.duration);
        total += t.duration;
    }
    return hi - lo - total;
}

} // namespace detail

// The variable choice: views are the model's branching list, the order
// Booleans first (Model::branching). Once every order is fixed, the first
// open view: a start (at its least value, the value choice below) or the
// makespan.
struct LeastSlackPair {
    std::shared_ptr<const Layout> layout;

    template <class Store>
    int operator()(const Store& s, std::span<const propane::IntVar> views) const {
        const Layout& l = *layout;
        const Layout::Machine* critical = nullptr;
        std::int64_t least = detail::none;
        for (const Layout::Machine& m : l.machines) {
            bool open = false;
            for (std::size_t i = m.first; i < m.last && !open; ++i) open = !views[i].fixed(s);
            if (!open) continue;
            const std::int64_t sl = detail::slack(s, m.tasks);
            if (sl < least) {
                least = sl;
                critical = &m;
            }
        }
        if (critical == nullptr) {
            for (std::size_t i = 0; i < views.size(); ++i)
                if (!views[i].fixed(s)) return static_cast<int>(i);
            return 0; // not reached: the search asks only while a view is open
        }
        std::size_t chosen = critical->first;
        least = detail::none;
        for (std::size_t i = critical->first; i < critical->last; ++i) {
            if (views[i].fixed(s)) continue;
            const Layout::Task two[] = {l.pairs[i].a, l.pairs[i].b};
            const std::int64_t sl = detail::slack(s, two);
            if (sl < least) {
                least = sl;
                chosen = i;
            }
        }
        return static_cast<int>(chosen);
    }
};

// The value choice: for an order Boolean, 1 (a first) when a can start
// earlier than b, or as early and must end no later; any other view at its
// least value.
struct EarliestFirst {
    std::shared_ptr<const Layout> layout;

    template <class Store>
    int operator()(const Store& s, const propane::IntVar& x) const {
        const std::size_t v = static_cast<std::size_t>(x.index());
        const std::ptrdiff_t i = v < layout->order_of.size() ? layout->order_of[v] : -1;
        if (i < 0) return x.min(s);
        const Layout::Pair& p = layout->pairs[static_cast<std::size_t>(i)];
        const int ea = p.a.start.min(s), eb = p.b.start.min(s);
        if (ea != eb) return ea < eb ? 1 : 0;
        return std::int64_t{p.a.start.max(s)} + p.a.duration <= std::int64_t{p.b.start.max(s)} + p.b.duration ? 1 : 0;
    }
};

using Branching = propane::BasicStrategy<LeastSlackPair, EarliestFirst>;

inline Branching branching_for(std::shared_ptr<const Layout> layout) {
    return propane::strategy(LeastSlackPair{layout}, EarliestFirst{layout});
}

} // namespace jobshop

#endif
