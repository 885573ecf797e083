#ifndef PROPANE_SEARCH_PARALLEL_HPP
#define PROPANE_SEARCH_PARALLEL_HPP

// solve() on several threads, by Embarrassingly Parallel Search (split.hpp):
//
//   SearchStats st = solve(store, vars, strategy, limits, Parallel{.threads = 4}, visitor);
//
// The tree is split into at least subproblems_per_worker subproblems per
// thread (Régin et al. find 30 or more per worker keep the threads about
// equally busy, however unequal the subtrees), and each worker takes the
// next one from a shared counter and searches it on its own copy of the
// store. The workers share nothing per node: a worker touches shared state
// once per subproblem, once per batch of solutions, and at the search's
// limit checks, about every millisecond.
//
// For a deterministic strategy and a complete search, the solutions and the
// failures and branches equal solve()'s on one thread exactly, for any
// number of threads (the top of the tree is counted once, by the split).
// propagations do not (each worker replays its subproblem's path), nor does
// wall_time, which is the call's elapsed time, the split included (and, in
// ordered mode, the visitor's time too). threads == 1 is solve() itself.
//
// Ordered (the default): the visitor sees the solutions in solve()'s order,
// on the calling thread, which only delivers them while `threads` workers
// search. Unordered: each worker calls the visitor on its own thread, as it
// finds solutions, in no set order; the visitor must then be safe to call
// from several threads at once. Either way the Solution it gets reads any
// view of the store, as solve()'s does.
//
// Limits hold for the whole search. Limits::solutions: exactly that many
// reach the visitor, in ordered mode the first ones of solve()'s order
// (workers on later subproblems stop, those on earlier ones go on). A
// visitor's stop stops every worker; in unordered mode, calls already under
// way on other threads finish (and count). The time limit runs from the
// call. The branch and failure limits count every worker's branches and
// failures (and the top's), read about every millisecond: the search stops
// close to them, never before, and which subtrees they cut varies from run
// to run. A limit of 0 branches, failures or solutions is the one-thread
// search's (limits.hpp). The outcome is complete only when every
// subproblem was searched to its end.
//
// Under a branch, failure or time limit, every solution a worker found
// before it stopped reaches the visitor and counts in the statistics: all
// of them were found inside the work the limit counted. Ordered, they come
// in solve()'s order: every solution of each subproblem searched to its
// end and the ones found in those the limit cut short, subproblem by
// subproblem, so the first of them are the first ones of solve()'s order
// up to the first subproblem cut short, and after it there may be gaps
// (another worker was still on the subproblems in between). Unordered, the
// workers that see the limit late still visit what they find until their
// next check. After a visitor's stop, an exception or the solution limit,
// nothing more reaches the visitor.
//
// The store is held as running for the whole call: the split searches a
// copy of it, made on the calling thread once the store is held, and the
// workers copies of that. A visitor, or another thread, that starts a
// search on the store, posts to it or pushes or pops its levels gets
// model_error, as while any search runs; reading it is safe (nothing
// writes it), and a copy of it is another store, to search freely.
//
// Strategies whose choices depend on the search's history (restarts,
// random_value, dom_wdeg) find every solution once, but their failures,
// branches and order are not solve()'s (split.hpp says why); with
// random_value they are the same from run to run for one number of
// threads, with dom_wdeg they vary. The store is back at its root state
// afterwards; an exception from the visitor or a chooser
// stops every worker and is rethrown on the calling thread once they have
// all ended. Branch and bound on threads is minimize() and maximize() with
// a Parallel (optimize.hpp), on this same machinery.

#include <algorithm>
#include <atomic>
#include <concepts>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <limits>
#include <mutex>
#include <optional>
#include <ranges>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "../engine/error.hpp"
#include "claim.hpp"
#include "clock.hpp"
#include "limits.hpp"
#include "search.hpp"
#include "solve.hpp"
#include "solution.hpp"
#include "split.hpp"
#include "stats.hpp"
#include "strategy.hpp"
#include "workers.hpp"

namespace propane {

// What a progress report sees: the share of subproblems searched, and the
// statistics so far over all threads (solutions: those the visitor got).
struct ParallelProgress {
    double done = 0;
    SearchStats stats;
};

// A number of threads, from any integer type, so that Parallel{.threads =
// n} takes an int n as it takes an unsigned one, without narrowing. A
// negative count throws model_error where it is given.
class ThreadCount {
public:
    constexpr ThreadCount() noexcept = default;
    template <std::integral I>
        requires(!std::same_as<I, bool>)
    constexpr ThreadCount(I n) : n_(checked(n)) {}
    constexpr operator unsigned() const noexcept { return n_; }

private:
    template <class I>
    static constexpr unsigned checked(I n) {
        if constexpr (std::is_signed_v<I>)
            if (n < 0) throw model_error("a negative thread count, " + std::to_string(n));
        if (std::cmp_greater(n, std::numeric_limits<unsigned>::max()))
            throw model_error("thread count " + std::to_string(n) + " is past any machine's");
        return static_cast<unsigned>(n);
    }
    unsigned n_ = 0;
};

struct Parallel {
    ThreadCount threads{};                 // 0: std::thread::hardware_concurrency() (at least 1)
    bool ordered = true;                   // solutions reach the visitor in solve()'s order, on the calling thread
    std::size_t subproblems_per_worker = 30;
    // Called on the calling thread about every progress_period, for a
    // progress display (the calling thread then only reports and delivers),
    // and once more when the search ends if a report is due by then: a
    // search shorter than the period makes none. On one thread too (which
    // threads = 1 comes down to), with the search's own estimate of the
    // share explored.
    std::function<void(const ParallelProgress&)> progress{};
    std::chrono::nanoseconds progress_period = std::chrono::milliseconds(500);
};

namespace detail {

inline unsigned resolve_threads(unsigned threads) noexcept {
    if (threads > 0) return threads;
    const unsigned hardware = std::thread::hardware_concurrency();
    return hardware > 0 ? hardware : 1;
}

// A limit that lets the search take no branch (limits.hpp): the
// one-thread search decides, which is what the split would leave to it.
inline bool stops_at_once(const Limits& limits) noexcept {
    return limits.solutions == 0 || limits.branches == 0 || limits.failures == 0;
}

// The split for `threads` workers, Parallel::subproblems_per_worker each;
// nothing when a branch or failure limit falls in the top of the tree,
// which the one-thread search then decides, as it reaches that limit
// there too, in the middle of what the split counted, and nothing when
// the split leaves fewer than two subproblems to search below: one
// thread then searches it all.
template <class Store, class View, class VarSel, class ValSel>
std::optional<Split> split_for(Store& s, const std::vector<View>& views, const BasicStrategy<VarSel, ValSel>& strategy,
                               const Limits& limits, const Parallel& parallel, unsigned threads) {
    const std::size_t per_worker = std::max<std::size_t>(1, parallel.subproblems_per_worker);
    Split sp = split(s, views, strategy, std::size_t{threads} * per_worker);
    if (sp.top.branches >= limits.branches || sp.top.failures >= limits.failures) return std::nullopt;
    // One subproblem with work below it (or none) is all a narrow tree
    // leaves (split() stops expanding one): a single worker would do all
    // the search while the others only hand on solutions, and, ordered,
    // each solution would be copied out and back for nothing. On the chain
    // x[i] <= x[i+1] of 800 Booleans that made two ordered threads 3.6x
    // slower than one.
    if (sp.open < 2) return std::nullopt;
    sp.top.subproblems = sp.subproblems.size();
    sp.top.split_time = sp.time;
    return sp;
}

// Searches subproblem `index` on the worker's store, handing each solution
// to on_solution (which returns an Action).
// With a `goal` (an Objective), by branch and bound.
template <class Store, class View, class VarSel, class ValSel, class OnSolution, class... Goal>
void search_one(ParallelShared& shared, Replay<Store, View>& replay, const BasicStrategy<VarSel, ValSel>& strategy,
                const Split& sp, std::size_t index, bool ordered, WorkerTally& tally, OnSolution&& on_solution,
                const Goal&... goal) {
    Limits limits;
    if (!shared.local_limits(limits)) {
        tally.incomplete = true;
        return;
    }
    const Subproblem& sub = sp.subproblems[index];
    WorkerGate gate(shared, index);
    const SearchStats st = search_subproblem(replay, strategy, limits, sub, &gate, on_solution, goal...);
    gate.publish(st);
    shared.finished_one();
    tally.add(st, sub);
    switch (st.outcome) {
    case Outcome::complete: return;
    case Outcome::solution_limit:
        // Unordered, the ticket that reached the limit has halted already.
        if (ordered) shared.cut_after(index);
        break;
    case Outcome::branch_limit:
    case Outcome::failure_limit:
    case Outcome::time_limit: shared.halt(st.outcome); break;
    default: break;
    }
    tally.incomplete = true;
}

using ReportClock = std::chrono::steady_clock;

// t + period, saturating: a period of nanoseconds::max() (Parallel's
// "never", as for Limits::time) is due at the end of time instead of
// overflowing into the past, which would make every tick a report.
inline ReportClock::time_point due_after(ReportClock::time_point t, std::chrono::nanoseconds period) noexcept {
    const auto since = std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch());
    return ReportClock::time_point(
        std::chrono::duration_cast<ReportClock::duration>(add_saturated(since, period)));
}

// Whether Parallel::progress can ever be called.
inline bool reports(const Parallel& parallel) noexcept {
    return parallel.progress && parallel.progress_period != std::chrono::nanoseconds::max();
}

// Calls Parallel::progress, from the calling thread, about every period.
class Reporter {
public:
    using clock = ReportClock;
    Reporter(const Parallel& parallel, const ParallelShared& shared, std::size_t subproblems, clock::time_point start)
        : parallel_(parallel), shared_(shared), subproblems_(subproblems), start_(start),
          due_(due_after(clock::now(), parallel.progress_period)) {}
    // False when no report can fall due: the calling thread then need not
    // wake for reports (and works, when unordered).
    bool active() const noexcept { return parallel_.progress && due_ != clock::time_point::max(); }
    clock::time_point due() const noexcept { return due_; }
    // Reports if it is time to; solutions() counts the solutions so far.
    template <class Count>
    void tick(Count&& solutions) {
        if (!active() || clock::now() < due_) return;
        ParallelProgress p;
        p.done = subproblems_ == 0 ? 1.0 : static_cast<double>(shared_.finished()) / static_cast<double>(subproblems_);
        p.stats.solutions = solutions();
        p.stats.branches = shared_.branches();
        p.stats.failures = shared_.failures();
        p.stats.wall_time = clock::now() - start_;
        parallel_.progress(p);
        due_ = due_after(clock::now(), parallel_.progress_period);
    }

private:
    const Parallel& parallel_;
    const ParallelShared& shared_;
    std::size_t subproblems_;
    clock::time_point start_, due_;
};

// Waits on cv until ready(), waking for the reports that fall due, each
// with the count solutions() gives then. A report due when ready() comes
// true is made too: the workers can end before the calling thread first
// waits, and a report due from the start (a period of 0) must still come.
template <class Count, class Ready>
void wait_reporting(std::condition_variable& cv, std::unique_lock<std::mutex>& lock, Reporter& reporter,
                    Count solutions, Ready ready) {
    if (!reporter.active()) {
        cv.wait(lock, ready);
        return;
    }
    for (;;) {
        const bool is_ready = cv.wait_until(lock, reporter.due(), ready);
        lock.unlock();
        reporter.tick(solutions);
        lock.lock();
        if (is_ready) return;
    }
}

// The one-thread search that the forms on threads fall back to (one
// thread, a solution limit of 0, or a limit the split already reached),
// with Parallel::progress fed by the search's own reports, as on threads:
// about every period, and once more if one is due when the search ends.
template <class OneSearch, class Visitor>
void visit_reporting(OneSearch& search, const Parallel& parallel, Visitor& visitor) {
    if (!reports(parallel)) {
        visit_all(search, visitor);
        return;
    }
    using clock = ReportClock;
    auto due = due_after(clock::now(), parallel.progress_period);
    const auto report = [&](const OneSearch& at) {
        parallel.progress(ParallelProgress{at.progress(), at.stats()});
        due = due_after(clock::now(), parallel.progress_period);
    };
    search.on_progress(report, parallel.progress_period);
    visit_all(search, visitor);
    if (clock::now() >= due) report(search);
}

// Unordered: the calling thread works too (or, with progress reports, only
// reports), and every worker visits its own solutions. Returns the number
// of solutions visited.
template <class Store, class View, class VarSel, class ValSel, class Visitor, class... Goal>
std::uint64_t run_unordered(ParallelShared& shared, const Store& s, const std::vector<View>& views,
                            const BasicStrategy<VarSel, ValSel>& strategy, const Limits& limits, const Split& sp,
                            std::vector<WorkerTally>& tallies, Visitor& visitor, Reporter& reporter,
                            const Goal&... goal) {
    std::atomic<std::size_t> next{0};
    // Shared only under a solution limit, which needs one count for all.
    std::atomic<std::uint64_t> tickets{0};
    std::vector<VisitCount> visits(tallies.size());
    const auto visited = [&visits] {
        std::uint64_t total = 0;
        for (const VisitCount& v : visits) total += v.n.load(std::memory_order_relaxed);
        return total;
    };
    const bool capped = limits.solutions != unlimited;
    const auto work = [&](std::size_t w) {
        const AsWorker as(w);
        Store store(s);
        Replay<Store, View> replay(store, views);
        for (;;) {
            const std::size_t i = next.fetch_add(1, std::memory_order_relaxed);
            if (i >= sp.subproblems.size() || shared.stopped()) return;
            search_one(
                shared, replay, strategy, sp, i, false, tallies[w],
                [&](const auto& solution) {
                    if (shared.discarding()) return Action::stop;
                    // A ticket per solution, so exactly Limits::solutions are visited.
                    const std::uint64_t ticket = capped ? tickets.fetch_add(1, std::memory_order_relaxed) : 0;
                    if (ticket >= limits.solutions) return Action::stop;
                    visits[w].add_one();
                    const Action a = visit_one(visitor, solution);
                    if (a == Action::stop) shared.halt(Outcome::stopped);
                    else if (ticket + 1 == limits.solutions) shared.halt(Outcome::solution_limit);
                    return shared.stopped() ? Action::stop : a;
                },
                goal...);
        }
    };
    {
        Crew crew(shared);
        if (!reporter.active()) {
            for (std::size_t w = 1; w < tallies.size(); ++w) crew.spawn(guarded(shared, [&work, w] { work(w); }));
            guarded(shared, [&work] { work(0); })();
        } else {
            std::size_t ended = 0; // guarded by shared.m
            for (std::size_t w = 0; w < tallies.size(); ++w)
                crew.spawn([&, w] {
                    guarded(shared, [&work, w] { work(w); })();
                    {
                        const std::lock_guard lock(shared.m);
                        ++ended;
                    }
                    shared.ready.notify_all();
                });
            std::unique_lock lock(shared.m);
            for (;;) {
                wait_reporting(shared.ready, lock, reporter, visited, [&] { return ended == tallies.size(); });
                if (ended == tallies.size()) break;
            }
        }
        crew.join();
    }
    return visited();
}

// Ordered: `workers` threads search and buffer their solutions (each a copy
// of every domain of the store) in the slot of their subproblem; the
// calling thread hands them to the visitor in subproblem order, loading
// each into a copy of the store of its own so the visitor reads any view.
//
// Two bounds keep the buffers small. A worker takes subproblem i only once
// i < head + window, head being the oldest subproblem not yet delivered:
// window = 4 * workers lets the others get through four subproblems each
// (with 30 per worker, several times the average) while one long subtree
// holds the head, which covers most of the imbalance EPS leaves, and
// beyond that they would only buffer more. And a slot holds at most about
// a megabyte of solutions (at least 64): a worker ahead of the head with
// that many waits until the head reaches it. So the buffers never pass
// about 4 * workers megabytes, however many solutions a subtree has.
//
// A branch, failure or time limit stops the workers, not the delivery:
// once they have ended, every slot still holding solutions is delivered,
// in subproblem order. Each holds the solutions its subproblem's worker
// found before it stopped, all inside the counted work, and the window
// bounds them as before (a worker halted while waiting for room adds its
// last batch all the same, at most 64 more).
template <class Store, class View, class VarSel, class ValSel, class Visitor>
std::uint64_t run_ordered(ParallelShared& shared, const Store& s, const std::vector<View>& views,
                          const BasicStrategy<VarSel, ValSel>& strategy, const Limits& limits, const Split& sp,
                          std::vector<WorkerTally>& tallies, Visitor& visitor, Reporter& reporter) {
    using Domain = typename Store::domain_type;
    struct Slot {
        std::vector<Domain> domains; // the solutions' domains, one after the other
        std::size_t count = 0;
        bool done = false;
    };
    const std::size_t n = sp.subproblems.size();
    const auto vars = static_cast<std::size_t>(s.num_vars());
    const std::size_t window = 4 * tallies.size();
    const std::size_t cap =
        std::max<std::size_t>(64, (std::size_t{1} << 20) / std::max<std::size_t>(1, vars * sizeof(Domain)));
    // A batch per lock; no more than the limit, so a first solution goes at once.
    const std::size_t batch_size = static_cast<std::size_t>(std::min<std::uint64_t>(64, limits.solutions));
    std::vector<Slot> slots(window);
    std::size_t head = 0, next = 0; // guarded by shared.m

    const auto work = [&](std::size_t w) {
        const AsWorker as(w);
        Store store(s);
        Replay<Store, View> replay(store, views);
        std::vector<Domain> batch;
        std::size_t batch_count = 0;
        for (;;) {
            std::size_t i = 0;
            {
                std::unique_lock lock(shared.m);
                shared.space.wait(lock, [&] { return shared.stopped() || next >= n || next < head + window; });
                if (shared.stopped() || next >= n) return;
                i = next++;
            }
            Slot& slot = slots[i % window];
            const auto flush = [&](bool done) {
                {
                    std::unique_lock lock(shared.m);
                    shared.space.wait(lock, [&] { return shared.stopped() || slot.count < cap; });
                    if (!shared.discarding()) {
                        slot.domains.insert(slot.domains.end(), batch.begin(), batch.end());
                        slot.count += batch_count;
                    }
                    slot.done = done;
                }
                shared.ready.notify_one();
                batch.clear();
                batch_count = 0;
            };
            if (!shared.beyond_cut(i))
                search_one(shared, replay, strategy, sp, i, true, tallies[w], [&](const auto& solution) {
                    const Store& at = solution.store();
                    for (std::size_t v = 0; v < vars; ++v) batch.push_back(at.domain(static_cast<int>(v)));
                    if (++batch_count >= batch_size) flush(false);
                    return shared.stopped() || shared.beyond_cut(i) ? Action::stop : Action::next;
                });
            flush(true);
        }
    };

    Store shown(s);
    std::uint64_t delivered = 0;
    // Hands `count` solutions of `domains` to the visitor, in order; false
    // once no more may go: the visitor stopped, the limit on solutions is
    // reached, or the search was stopped in a way that drops the rest.
    const auto deliver = [&](const std::vector<Domain>& domains, std::size_t count) {
        for (std::size_t k = 0; k < count; ++k) {
            if (shared.discarding()) return false;
            for (std::size_t v = 0; v < vars; ++v)
                // `shown` is ours and never searched, so writing its
                // domains behind the trail's back breaks nothing: it
                // only has to read as the worker's store did.
                const_cast<Domain&>(shown.domain(static_cast<int>(v))) = domains[k * vars + v];
            ++delivered;
            if (visit_one(visitor, Solution<Store, View>(shown, views)) == Action::stop) {
                shared.halt(Outcome::stopped);
                return false;
            }
            if (delivered >= limits.solutions) {
                shared.halt(Outcome::solution_limit);
                return false;
            }
        }
        return true;
    };
    bool more = true; // the visitor may get more solutions
    {
        Crew crew(shared);
        for (std::size_t w = 0; w < tallies.size(); ++w) crew.spawn(guarded(shared, [&work, w] { work(w); }));
        std::vector<Domain> taken;
        while (more) {
            std::size_t count = 0;
            {
                std::unique_lock lock(shared.m);
                Slot& slot = slots[head % window];
                wait_reporting(shared.ready, lock, reporter, [&delivered] { return delivered; },
                               [&] { return shared.stopped() || head >= n || slot.count > 0 || slot.done; });
                if (shared.stopped() || head >= n) break;
                taken.swap(slot.domains);
                slot.domains.clear();
                count = slot.count;
                slot.count = 0;
                if (slot.done) {
                    slot.done = false;
                    ++head;
                }
            }
            shared.space.notify_all();
            more = deliver(taken, count);
            reporter.tick([&delivered] { return delivered; });
        }
        crew.join();
    }
    // The workers have ended: what a limit left in the slots, in order.
    // Subproblem i, if taken, is in slot i % window for head <= i < head + window.
    for (std::size_t i = head; more && i < std::min(n, head + window); ++i) {
        Slot& slot = slots[i % window];
        more = deliver(slot.domains, slot.count);
    }
    return delivered;
}

} // namespace detail

namespace detail {

// The parallel solve() with its views in a vector and its visitor behind a
// VisitorRef: one instance per store, view and strategy, whatever the
// visitor, which compiled/parallel.hpp can declare for the library to hold.
template <class Store, class View, class VarSel, class ValSel>
SearchStats solve_on_threads(Store& s, const std::vector<View>& views, const BasicStrategy<VarSel, ValSel>& strategy,
                             const Limits& limits, const Parallel& parallel,
                             VisitorRef<Solution<Store, View>> visitor) {
    using clock = std::chrono::steady_clock;
    const auto one_thread = [&] {
        Search<Store, View, VarSel, ValSel> search(s, views, strategy, limits);
        visit_reporting(search, parallel, visitor);
        return search.stats();
    };
    const unsigned threads = resolve_threads(parallel.threads);
    if (threads == 1 || stops_at_once(limits)) return one_thread();
    const auto start = clock::now();
    StoreClaim<Store, View> claim(s, "solve");
    Store root(s);
    const std::optional<Split> split = split_for(root, views, strategy, limits, parallel, threads);
    if (!split) {
        claim.release();
        return one_thread();
    }
    const Split& sp = *split;

    SearchStats total = sp.top;
    ParallelShared shared(limits, start, sp.top, reports(parallel));
    Reporter reporter(parallel, shared, sp.subproblems.size(), start);
    const std::size_t workers = std::min<std::size_t>(threads, sp.subproblems.size());
    std::vector<WorkerTally> tallies(workers);
    if (workers > 0) {
        total.solutions =
            parallel.ordered
                ? run_ordered(shared, root, views, strategy, limits, sp, tallies, visitor, reporter)
                : run_unordered(shared, root, views, strategy, limits, sp, tallies, visitor, reporter);
        if (const std::exception_ptr e = shared.error()) std::rethrow_exception(e);
    }
    merge(total, tallies, shared);
    total.wall_time = clock::now() - start;
    return total;
}

} // namespace detail

// The parallel solve(): as solve(s, vars, strategy, limits, visitor), on
// parallel.threads threads (see the top of this header). The statistics
// are the merged ones.
template <class Store, std::ranges::input_range R, class VarSel = VarChoice, class ValSel = ValChoice,
          class Visitor>
SearchStats solve(Store& s, const R& vars, const BasicStrategy<VarSel, ValSel>& strategy, const Limits& limits,
                  const Parallel& parallel, Visitor&& visitor) {
    using View = std::ranges::range_value_t<R>;
    const std::vector<View> views(std::ranges::begin(vars), std::ranges::end(vars));
    return detail::solve_on_threads(s, views, strategy, limits, parallel,
                                    detail::VisitorRef<Solution<Store, View>>(visitor));
}

} // namespace propane

#endif
