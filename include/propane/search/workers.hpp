#ifndef PROPANE_SEARCH_WORKERS_HPP
#define PROPANE_SEARCH_WORKERS_HPP

// What the workers of a parallel search (parallel.hpp, and branch and bound
// on threads in optimize.hpp) share and what each keeps: the shared state
// with its limits, outcome and bound; a worker's gate into it; its tally
// and solution count; and the crew that owns their threads.

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <limits>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "clock.hpp"
#include "limits.hpp"
#include "search.hpp"
#include "split.hpp"
#include "stats.hpp"

namespace propane {

namespace detail {

// The worker running on this thread; see this_worker().
inline thread_local std::size_t current_worker = 0;

// Sets current_worker for a worker's run and puts back the old value after,
// for a search started from inside another's visitor.
class AsWorker {
public:
    explicit AsWorker(std::size_t w) noexcept : saved_(current_worker) { current_worker = w; }
    AsWorker(const AsWorker&) = delete;
    AsWorker& operator=(const AsWorker&) = delete;
    ~AsWorker() { current_worker = saved_; }

private:
    std::size_t saved_;
};

} // namespace detail

// The index, 0 to threads - 1, of the parallel search's worker that runs
// the calling thread; 0 on any other thread. An unordered visitor can keep
// a slot per worker with it, such as a count on a cache line of its own,
// instead of sharing one that every solution writes.
inline std::size_t this_worker() noexcept { return detail::current_worker; }

namespace detail {

// What the workers of one parallel solve share.
class ParallelShared {
public:
    using clock = std::chrono::steady_clock;

    ParallelShared(const Limits& limits, clock::time_point start, const SearchStats& top, bool progress)
        : limits_(limits), start_(start), progress_(progress), branches_(top.branches), failures_(top.failures) {}

    // Stops every worker; the first reason given is the outcome.
    void halt(Outcome why) {
        {
            const std::lock_guard lock(m);
            if (why_ == Outcome::running) {
                why_ = why;
                keep_.store(why == Outcome::branch_limit || why == Outcome::failure_limit ||
                                why == Outcome::time_limit,
                            std::memory_order_relaxed);
            }
            stop_.store(true, std::memory_order_release);
        }
        space.notify_all();
        ready.notify_all();
    }
    void fail(std::exception_ptr e) {
        {
            const std::lock_guard lock(m);
            if (!error_) error_ = std::move(e);
        }
        halt(Outcome::stopped);
    }
    bool stopped() const noexcept { return stop_.load(std::memory_order_relaxed); }
    // Stopped, and the solutions found but not yet visited are to be
    // dropped: after a visitor's stop, an exception or the solution limit.
    // Not after a branch, failure or time limit: a solution found inside
    // the work that the limit counted still reaches the visitor (in
    // ordered mode after the workers have ended, in solve()'s order).
    bool discarding() const noexcept {
        return stop_.load(std::memory_order_acquire) && !keep_.load(std::memory_order_relaxed);
    }
    Outcome why() {
        const std::lock_guard lock(m);
        return why_;
    }
    std::exception_ptr error() {
        const std::lock_guard lock(m);
        return error_;
    }

    // Ordered mode: subproblem `index` found Limits::solutions on its own,
    // so no later one can hold any of the first that many.
    void cut_after(std::size_t index) noexcept {
        std::size_t c = cut_.load(std::memory_order_relaxed);
        while (index < c && !cut_.compare_exchange_weak(c, index, std::memory_order_relaxed)) {}
    }
    bool beyond_cut(std::size_t index) const noexcept { return index > cut_.load(std::memory_order_relaxed); }

    // The limits of a subproblem's search, from what is left of the
    // shared ones; false (and the search halted) when nothing is.
    bool local_limits(Limits& out) {
        out.solutions = limits_.solutions;
        if (limits_.branches != unlimited) {
            const std::uint64_t b = branches_.load(std::memory_order_relaxed);
            if (b >= limits_.branches) return halt_false(Outcome::branch_limit);
            out.branches = limits_.branches - b;
        }
        if (limits_.failures != unlimited) {
            const std::uint64_t f = failures_.load(std::memory_order_relaxed);
            if (f >= limits_.failures) return halt_false(Outcome::failure_limit);
            out.failures = limits_.failures - f;
        }
        if (limits_.time != std::chrono::nanoseconds::max()) {
            const auto spent = std::chrono::duration_cast<std::chrono::nanoseconds>(clock::now() - start_);
            if (spent >= limits_.time) return halt_false(Outcome::time_limit);
            out.time = limits_.time - spent;
        }
        return true;
    }

    // The workers publish their counts for a branch or failure limit, or
    // for the progress reports.
    bool counts_shared() const noexcept {
        return progress_ || limits_.branches != unlimited || limits_.failures != unlimited;
    }
    std::uint64_t branches() const noexcept { return branches_.load(std::memory_order_relaxed); }
    std::uint64_t failures() const noexcept { return failures_.load(std::memory_order_relaxed); }
    // Release and acquire: a report that reads a subproblem as finished
    // also sees the solutions its worker counted before it finished.
    void finished_one() noexcept { finished_.fetch_add(1, std::memory_order_release); }
    std::size_t finished() const noexcept { return finished_.load(std::memory_order_acquire); }
    void add_counts(std::uint64_t branches, std::uint64_t failures) noexcept {
        branches_.fetch_add(branches, std::memory_order_relaxed);
        failures_.fetch_add(failures, std::memory_order_relaxed);
    }

    // At a search's check: Outcome::running to go on, and its limits
    // lowered to what the others have left.
    Outcome poll(const SearchStats& st, Limits& local) const {
        if (limits_.time != std::chrono::nanoseconds::max() && clock::now() - start_ >= limits_.time)
            return Outcome::time_limit;
        if (!counts_shared()) return Outcome::running;
        const std::uint64_t b = branches_.load(std::memory_order_relaxed);
        const std::uint64_t f = failures_.load(std::memory_order_relaxed);
        if (b >= limits_.branches) return Outcome::branch_limit;
        if (f >= limits_.failures) return Outcome::failure_limit;
        if (limits_.branches != unlimited) local.branches = st.branches + (limits_.branches - b);
        if (limits_.failures != unlimited) local.failures = st.failures + (limits_.failures - f);
        return Outcome::running;
    }

    // Branch and bound: the best objective value any worker has found, for
    // the others to adopt as their bound. Relaxed: a stale one only prunes
    // less.
    std::optional<int> bound() const noexcept {
        const std::int64_t b = bound_.load(std::memory_order_relaxed);
        return b == no_bound ? std::nullopt : std::optional<int>(static_cast<int>(b));
    }
    void set_bound(int value) noexcept { bound_.store(value, std::memory_order_relaxed); }

    // Guards the ordered mode's window and slots, and the outcome.
    std::mutex m;
    std::condition_variable space; // workers wait for the window or a slot to have room
    std::condition_variable ready; // the delivering thread waits for solutions

private:
    bool halt_false(Outcome why) {
        halt(why);
        return false;
    }

    Limits limits_;
    clock::time_point start_;
    bool progress_;
    std::atomic<bool> stop_{false};
    std::atomic<bool> keep_{false}; // set once, with why_, before stop_
    std::atomic<std::size_t> finished_{0}; // subproblems searched, to their end or not
    std::atomic<std::uint64_t> branches_, failures_; // published at the checks and at each subproblem's end
    std::atomic<std::size_t> cut_{std::numeric_limits<std::size_t>::max()};
    static constexpr std::int64_t no_bound = std::numeric_limits<std::int64_t>::max(); // beyond every int
    std::atomic<std::int64_t> bound_{no_bound};
    Outcome why_ = Outcome::running; // guarded by m
    std::exception_ptr error_;       // guarded by m
};

// One worker's search of one subproblem: polled at its checks.
class WorkerGate final : public SearchGate {
public:
    WorkerGate(ParallelShared& shared, std::size_t index) noexcept : shared_(shared), index_(index) {}

    Outcome poll(const SearchStats& st, Limits& limits) override {
        if (shared_.stopped() || shared_.beyond_cut(index_)) return Outcome::stopped;
        publish(st);
        return shared_.poll(st, limits);
    }
    std::optional<int> bound() override { return shared_.bound(); }
    // Adds what the search did since the last call to the shared counts.
    void publish(const SearchStats& st) noexcept {
        if (!shared_.counts_shared()) return;
        shared_.add_counts(st.branches - branches_, st.failures - failures_);
        branches_ = st.branches;
        failures_ = st.failures;
    }

private:
    ParallelShared& shared_;
    std::size_t index_;
    std::uint64_t branches_ = 0, failures_ = 0;
};

// What one worker did, summed when all have ended.
struct WorkerTally {
    std::uint64_t branches = 0, failures = 0, propagations = 0, max_depth = 0;
    bool incomplete = false; // some subproblem was not searched to its end

    void add(const SearchStats& st, const Subproblem& sub) noexcept {
        branches += st.branches;
        failures += st.failures;
        propagations += st.propagations;
        max_depth = std::max(max_depth, left_branches(sub) + st.max_depth);
    }
};

// A worker's count of the solutions it visited, on a cache line of its
// own: only its worker writes it, so counting costs no atomic
// read-modify-write and no line moving between cores (a count of N-queens
// 14 visits 365,596 solutions); the reports read it.
struct alignas(64) VisitCount {
    std::atomic<std::uint64_t> n{0};
    void add_one() noexcept { n.store(n.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed); }
};

// Adds the workers' counts to `total` (the top's) and sets the outcome:
// complete only if every subproblem was searched to its end.
inline void merge(SearchStats& total, const std::vector<WorkerTally>& tallies, ParallelShared& shared) {
    bool incomplete = false;
    for (const WorkerTally& t : tallies) {
        total.branches += t.branches;
        total.failures += t.failures;
        total.propagations += t.propagations;
        total.max_depth = std::max(total.max_depth, t.max_depth);
        incomplete = incomplete || t.incomplete;
    }
    const Outcome why = shared.why();
    total.outcome = why != Outcome::running ? why : incomplete ? Outcome::stopped : Outcome::complete;
}

// Joins its threads when it goes, stopping them first if it goes by an
// exception: no thread outlives the call, none is left waiting.
class Crew {
public:
    explicit Crew(ParallelShared& shared) : shared_(shared) {}
    Crew(const Crew&) = delete;
    Crew& operator=(const Crew&) = delete;
    ~Crew() {
        if (std::ranges::any_of(threads_, [](const std::thread& t) { return t.joinable(); })) {
            shared_.halt(Outcome::stopped);
            join();
        }
    }
    template <class F>
    void spawn(F&& f) {
        threads_.emplace_back(std::forward<F>(f));
    }
    void join() {
        for (std::thread& t : threads_)
            if (t.joinable()) t.join();
    }

private:
    ParallelShared& shared_;
    std::vector<std::thread> threads_;
};

// Runs body on a thread of its own, an exception stopping the search and
// kept for the caller.
template <class Body>
auto guarded(ParallelShared& shared, Body body) {
    return [&shared, body = std::move(body)]() mutable {
        try {
            body();
        } catch (...) {
            shared.fail(std::current_exception());
        }
    };
}

} // namespace detail

} // namespace propane

#endif
