#ifndef PROPANE_CONSTRAINTS_SCHEDULING_UNARY_RULES_HPP
#define PROPANE_CONSTRAINTS_SCHEDULING_UNARY_RULES_HPP

// The filtering rules of a unary resource, over plain numbers: task i runs
// p_i time units without interruption, starts no earlier than est_i and
// ends no later than lct_i, and no two tasks overlap. For a set Ω of tasks,
// ECT(Ω) is the greatest est(Ω') + p(Ω') over Ω' ⊆ Ω (no schedule of Ω
// ends sooner) and lct(Ω) the greatest lct_j in it. One pass of each rule,
// each O(n log n) with the Θ-Λ-tree (theta_tree.hpp), after Vilím's
// algorithms (2004 for the first three, 2008 for edge finding):
//   overload       ECT(Ω) > lct(Ω) for some Ω: no schedule (checked while
//                  edge finding, for every Ω = {j : lct_j <= L});
//   detectable     est_i + p_i > lct_j - p_j: j must come before i, so
//   precedences    est_i >= ECT(those j);
//   not-last       ECT(Ω) > lct_i - p_i for Ω without i: i cannot come
//                  after all of Ω, so it ends by the latest start in Ω;
//   edge finding   ECT(Ω ∪ {i}) > lct(Ω): i must come after all of Ω, so
//                  est_i >= ECT(Ω).
// Each raises earliest starts only (not-last lowers latest ends); the
// propagator runs them on the mirror image too (time reversed) for the
// other end, and repeats until nothing moves, which reaches the fixpoint
// of all of them: each pass finds the strongest update its rule gives from
// the bounds it started with.
//
// A zero-length task counts as a point that may not lie strictly inside
// another task (MiniZinc's disjunctive_strict), for which every rule above
// stays sound: the tasks of a set still occupy disjoint stretches of time
// of total length p(Ω).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <vector>

#include "theta_tree.hpp"

namespace propane::detail::scheduling {

struct Task {
    std::int64_t est = 0;
    std::int64_t lct = 0;
    std::int64_t p = 0;
    std::int64_t ect() const noexcept { return est + p; }
    std::int64_t lst() const noexcept { return lct - p; }
};

// A template on nothing: see Timetable (timetable.hpp).
template <class = void>
class UnaryRules {
public:
    // One pass of the four rules over `tasks`: raises new_est and lowers
    // new_lct (each as large as tasks, starting from the tasks' own
    // bounds, and only ever tightened). False on overload.
    bool pass(const std::vector<Task>& tasks, std::vector<std::int64_t>& new_est, std::vector<std::int64_t>& new_lct) {
        prepare(tasks);
        detectable_precedences(tasks, new_est);
        not_last(tasks, new_lct);
        return edge_finding(tasks, new_est);
    }

private:
    void prepare(const std::vector<Task>& tasks) {
        const int n = static_cast<int>(tasks.size());
        by_est_.resize(tasks.size());
        std::iota(by_est_.begin(), by_est_.end(), 0);
        std::sort(by_est_.begin(), by_est_.end(), [&](int a, int b) { return at(tasks, a).est < at(tasks, b).est; });
        leaf_.resize(tasks.size());
        for (int r = 0; r < n; ++r) leaf_[u(by_est_[u(r)])] = r;
        by_lst_ = by_est_;
        std::sort(by_lst_.begin(), by_lst_.end(), [&](int a, int b) { return at(tasks, a).lst() < at(tasks, b).lst(); });
        order_ = by_est_;
    }

    // In order of ect: Θ gathers the tasks j with lst_j < ect_i, which
    // grows with ect_i; ECT(Θ \ {i}) bounds est_i.
    void detectable_precedences(const std::vector<Task>& tasks, std::vector<std::int64_t>& new_est) {
        std::sort(order_.begin(), order_.end(), [&](int a, int b) { return at(tasks, a).ect() < at(tasks, b).ect(); });
        clear(tasks.size());
        std::size_t next = 0;
        for (const int i : order_) {
            const Task& t = at(tasks, i);
            for (; next < by_lst_.size() && at(tasks, by_lst_[next]).lst() < t.ect(); ++next)
                insert(tasks, by_lst_[next]);
            new_est[u(i)] = std::max(new_est[u(i)], ect_without(tasks, i));
        }
    }

    // In order of lct: Θ gathers the tasks j with lst_j < lct_i (the others
    // cannot lower lct_i); if ECT(Θ \ {i}) > lst_i, i ends by the greatest
    // lst_j of Θ \ {i}.
    void not_last(const std::vector<Task>& tasks, std::vector<std::int64_t>& new_lct) {
        std::sort(order_.begin(), order_.end(), [&](int a, int b) { return at(tasks, a).lct < at(tasks, b).lct; });
        clear(tasks.size());
        std::size_t next = 0;
        for (const int i : order_) {
            const Task& t = at(tasks, i);
            for (; next < by_lst_.size() && at(tasks, by_lst_[next]).lst() < t.lct; ++next)
                insert(tasks, by_lst_[next]);
            if (ect_without(tasks, i) <= t.lst()) continue;
            // by_lst_[0 .. next) is Θ in order of lst: its last task other
            // than i.
            std::size_t k = next - 1;
            if (by_lst_[k] == i) --k; // Θ \ {i} is not empty, or ECT would be none
            new_lct[u(i)] = std::min(new_lct[u(i)], at(tasks, by_lst_[k]).lst());
        }
    }

    // Θ starts as every task. In order of lct, greatest first: Θ is
    // checked for overload against its lct, the lct of the task j about to
    // leave it; while some gray i gives ECT(Θ ∪ {i}) > lct(Θ), i comes
    // after all of Θ, and leaves Λ; then j turns gray. As ECT(Θ) <= lct(Θ)
    // by then, a gray task is always what makes ECT(Θ ∪ Λ) exceed it.
    bool edge_finding(const std::vector<Task>& tasks, std::vector<std::int64_t>& new_est) {
        std::sort(order_.begin(), order_.end(), [&](int a, int b) { return at(tasks, a).lct > at(tasks, b).lct; });
        clear(tasks.size());
        for (std::size_t k = 0; k < tasks.size(); ++k) insert(tasks, static_cast<int>(k));
        for (const int j : order_) {
            const std::int64_t lct_theta = at(tasks, j).lct;
            if (tree_.ect() > lct_theta) return false;
            while (tree_.ect_gray() > lct_theta) {
                const int i = by_est_[u(tree_.responsible())];
                new_est[u(i)] = std::max(new_est[u(i)], tree_.ect());
                tree_.remove(leaf_[u(i)]);
            }
            tree_.make_gray(leaf_[u(j)]);
        }
        return true;
    }

    void insert(const std::vector<Task>& tasks, int i) {
        const Task& t = at(tasks, i);
        tree_.add(leaf_[u(i)], t.est, t.p);
        in_theta_[u(i)] = 1;
    }

    // ECT(Θ \ {i}), i in Θ or not.
    std::int64_t ect_without(const std::vector<Task>& tasks, int i) {
        if (!in_theta_[u(i)]) return tree_.ect();
        tree_.remove(leaf_[u(i)]);
        const std::int64_t e = tree_.ect();
        insert(tasks, i);
        return e;
    }

    void clear(std::size_t n) {
        tree_.reset(static_cast<int>(n));
        in_theta_.assign(n, 0);
    }

    static std::size_t u(int i) noexcept { return static_cast<std::size_t>(i); }
    static const Task& at(const std::vector<Task>& tasks, int i) noexcept { return tasks[u(i)]; }

    std::vector<int> by_est_, by_lst_, order_, leaf_;
    std::vector<char> in_theta_;
    ThetaLambdaTree<> tree_;
};

// The rules to their fixpoint over a resource's start bounds: `at` reads
// and tightens them (size, lo, hi, raise, lower, as presence.hpp's
// StoreStarts and NumberStarts), duration(k) is task k's. Forward
// (earliest starts, and latest ends by not-last), then the mirror image
// (time reversed: a task from -lct to -est), each applied as soon as
// computed; until a round moves no bound. False on failure. A template
// on nothing: see Timetable (timetable.hpp).
template <class = void>
class UnarySettle {
public:
    template <class Starts, class Duration>
    bool operator()(Starts& at, Duration&& duration) {
        const std::size_t n = at.size();
        tasks_.resize(n);
        est_.resize(n);
        lct_.resize(n);
        for (;;) {
            bool moved = false;
            for (const bool mirror : {false, true}) {
                for (std::size_t k = 0; k < n; ++k) {
                    const std::int64_t p = duration(k);
                    const std::int64_t lo = at.lo(k), hi = at.hi(k) + p;
                    tasks_[k] = mirror ? Task{-hi, -lo, p} : Task{lo, hi, p};
                    est_[k] = tasks_[k].est;
                    lct_[k] = tasks_[k].lct;
                }
                if (!rules_.pass(tasks_, est_, lct_)) return false;
                for (std::size_t k = 0; k < n; ++k) {
                    // Back from the mirror: its est is minus the real lct.
                    const std::int64_t rise = mirror ? -lct_[k] : est_[k];
                    const std::int64_t fall = (mirror ? -est_[k] : lct_[k]) - tasks_[k].p;
                    if (rise > at.lo(k)) {
                        if (!at.raise(k, rise)) return false;
                        moved = true;
                    }
                    if (fall < at.hi(k)) {
                        if (!at.lower(k, fall)) return false;
                        moved = true;
                    }
                }
            }
            if (!moved) return true;
        }
    }

private:
    std::vector<Task> tasks_;
    std::vector<std::int64_t> est_, lct_;
    UnaryRules<> rules_;
};

} // namespace propane::detail::scheduling

#endif
