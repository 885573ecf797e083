#ifndef PROPANE_SEARCH_LNS_THREADS_HPP
#define PROPANE_SEARCH_LNS_THREADS_HPP

// Large-neighbourhood search (lns.hpp) on threads:
//   minimize(store, vars, strategy, limits, lns, Parallel{.threads = 4}, cost, visitor)
//   minimize(store, vars, strategy, limits, lns, Parallel{.threads = 4}, neighbourhood, cost, visitor)
// (and maximize), the Parallel right after the Lns.
//
// The rounds run in lockstep. Each of the K workers searches a copy of the
// store of its own. A round gives every worker the same incumbent and a
// neighbourhood of its own, all drawn on the calling thread, one after the
// other, worker 0 first, before the round starts: the neighbourhood
// callback is never called from two threads, and LnsRound::worker says
// whose neighbourhood it draws. Each worker then runs its branch and bound
// within the round's budget; when all are done, the worker whose last
// solution is best (the lowest index among equals) wins, and its improving
// solutions, each better than the last, reach the visitor on the calling
// thread. The visitor so sees a strictly improving sequence, as on one
// thread, and a solution that reads any view of the store.
//
// The first solution comes from worker 0's branch and bound alone. In a
// proving round (Lns::prove_every) worker 0 searches the whole tree under
// the bound while the others search neighbourhoods: a proof by worker 0,
// or by any worker whose neighbourhood fixed nothing, ends the search
// complete.
//
// Deterministic for a seed and a number of threads: the neighbourhoods,
// the budgets and the choice of the winner depend on neither the threads'
// timing nor the clock, so under count limits the incumbents and the
// statistics are the same from run to run; under a time limit the run
// ends where the clock says. The limits are checked between rounds, and
// each worker's round gets all that is left of them (within its budget),
// so a failure limit can be passed by up to K - 1 budgets. st.restarts
// counts the neighbourhoods searched (K a round), st.solutions the
// solutions the visitor got. Only Parallel::threads applies; threads == 1
// is the one-thread LNS, run for run. The store is held as running for the
// whole call (a visitor that searches it or posts to it gets model_error)
// and is left as it was.

#include <atomic>
#include <concepts>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <span>
#include <thread>
#include <utility>
#include <vector>

#include "claim.hpp"
#include "limits.hpp"
#include "lns.hpp"
#include "objective.hpp"
#include "parallel.hpp"
#include "search.hpp"
#include "solution.hpp"
#include "solve.hpp"
#include "stats.hpp"
#include "strategy.hpp"
#include "workers.hpp"

namespace propane::detail {

// Threads that run one round's jobs in lockstep: round() runs job(w) for
// every worker w, worker 0 on the calling thread, and returns once all
// have ended. The threads wait between rounds instead of being started
// for each: a round of a few failures takes well under a millisecond.
// Each wait yields for a while before it blocks, as a round is often over
// before a blocked thread would have been woken.
class RoundCrew {
public:
    RoundCrew(std::size_t workers, std::function<void(std::size_t)> job) : job_(std::move(job)) {
        threads_.reserve(workers - 1);
        try {
            for (std::size_t w = 1; w < workers; ++w) threads_.emplace_back([this, w] { serve(w); });
        } catch (...) {
            quit();
            throw;
        }
    }
    RoundCrew(const RoundCrew&) = delete;
    RoundCrew& operator=(const RoundCrew&) = delete;
    ~RoundCrew() { quit(); }

    // Rethrows the first exception a job threw, once every job has ended.
    void round() {
        {
            const std::lock_guard lock(m_);
            pending_.store(threads_.size(), std::memory_order_relaxed);
            generation_.fetch_add(1, std::memory_order_release);
        }
        start_.notify_all();
        run(0);
        const auto all_done = [this] { return pending_.load(std::memory_order_acquire) == 0; };
        if (!yield_until(all_done)) {
            std::unique_lock lock(m_);
            done_.wait(lock, all_done);
        }
        const std::lock_guard lock(m_);
        if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
    }

private:
    template <class Ready>
    static bool yield_until(Ready ready) {
        for (int i = 0; i < 1000; ++i) {
            if (ready()) return true;
            std::this_thread::yield();
        }
        return ready();
    }
    void run(std::size_t w) {
        try {
            const AsWorker as(w);
            job_(w);
        } catch (...) {
            const std::lock_guard lock(m_);
            if (!error_) error_ = std::current_exception();
        }
    }
    void serve(std::size_t w) {
        std::uint64_t seen = 0;
        for (;;) {
            const auto started = [&] {
                return quit_.load(std::memory_order_acquire) || generation_.load(std::memory_order_acquire) != seen;
            };
            if (!yield_until(started)) {
                std::unique_lock lock(m_);
                start_.wait(lock, started);
            }
            if (quit_.load(std::memory_order_acquire)) return;
            seen = generation_.load(std::memory_order_acquire);
            run(w);
            {
                // Under the lock, so that the caller cannot check and then
                // block between this and the notification.
                const std::lock_guard lock(m_);
                pending_.fetch_sub(1, std::memory_order_release);
            }
            done_.notify_one();
        }
    }
    void quit() {
        {
            const std::lock_guard lock(m_);
            quit_.store(true, std::memory_order_release);
        }
        start_.notify_all();
        for (std::thread& t : threads_)
            if (t.joinable()) t.join();
    }

    std::function<void(std::size_t)> job_;
    std::vector<std::thread> threads_;
    std::mutex m_;
    std::condition_variable start_, done_;
    // Changed under m_ (for the blocked waits), read without it while yielding.
    std::atomic<std::uint64_t> generation_{0};
    std::atomic<std::size_t> pending_{0};
    std::atomic<bool> quit_{false};
    std::exception_ptr error_; // guarded by m_
};

// One worker's round: what it is given, and what it found.
template <class Domain>
struct LnsWork {
    std::vector<char> fix;
    bool all_free = false;
    Limits limits;
    SearchStats stats;
    bool failed = false;         // at the neighbourhood's root
    std::vector<Domain> domains; // each improving solution's domains, one solution after another
    std::size_t found = 0;
    std::int64_t value = 0;      // the last one's objective

    bool proved() const noexcept { return all_free && (failed || stats.outcome == Outcome::complete); }
};

template <Sense sense, class Store, class W, class VarSel, class ValSel, class V, class Neighbourhood, class Visitor>
OptimizeStats lns_on_threads(Store& s, const std::vector<W>& views, const BasicStrategy<VarSel, ValSel>& strategy,
                             const Limits& limits, const Lns& lns, const Parallel& parallel,
                             Neighbourhood& neighbourhood, const V& objective, Visitor& visitor) {
    const std::size_t threads = resolve_threads(parallel.threads);
    if (threads == 1) return lns_optimize<sense>(s, views, strategy, limits, lns, neighbourhood, objective, visitor);
    check_lns(lns, limits, std::same_as<Neighbourhood, RandomShare>);
    using Domain = typename Store::domain_type;
    using OneSearch = Search<Store, W, VarSel, ValSel>;
    const StoreClaim<Store, W> claim(s, sense == Sense::minimize ? "minimize" : "maximize");
    std::vector<Store> stores;
    stores.reserve(threads);
    for (std::size_t w = 0; w < threads; ++w) stores.emplace_back(s);
    const auto vars = static_cast<std::size_t>(s.num_vars());
    LnsBook book(limits, lns, views.size());
    OptimizeStats& total = book.total;

    {
        OneSearch first(stores[0], views, strategy, book.first(), Objective<V>{objective, sense});
        if (first.next()) {
            for (std::size_t i = 0; i < views.size(); ++i) book.best[i] = views[i].value(stores[0]);
            total.objective = first.objective();
            book.stopped = visit_one(visitor, first.solution()) == Action::stop;
        } else if (first.stats().outcome == Outcome::complete) {
            total.outcome = Outcome::complete; // no solution at all
        }
        add_stats(total, first.stats());
    }

    std::vector<LnsWork<Domain>> work(threads);
    std::int64_t bound = 0;
    RoundCrew crew(threads, [&](std::size_t w) {
        LnsWork<Domain>& wk = work[w];
        Store& st = stores[w];
        wk.domains.clear();
        wk.found = 0;
        wk.stats = {};
        wk.failed = !enter_neighbourhood<sense>(st, views, objective, bound, book.best, wk.fix);
        if (!wk.failed) {
            OneSearch search(st, views, strategy, wk.limits, Objective<V>{objective, sense});
            while (search.next()) {
                for (std::size_t v = 0; v < vars; ++v) wk.domains.push_back(st.domain(static_cast<int>(v)));
                ++wk.found;
                wk.value = *search.objective();
            }
            wk.stats = search.stats();
        }
        st.pop_level();
    });

    // The winner's solutions are shown in a copy of the store that is
    // never searched, so writing its domains behind the trail's back
    // breaks nothing: it only has to read as the worker's store did.
    Store shown(s);
    const auto better = [](std::int64_t a, std::int64_t b) { return sense == Sense::minimize ? a < b : a > b; };
    for (std::uint64_t round = 0; total.outcome == Outcome::running; ++round) {
        if (const Outcome end = book.end(); end != Outcome::running) {
            total.outcome = end;
            break;
        }
        bound = *total.objective;
        for (std::size_t w = 0; w < threads; ++w) {
            LnsWork<Domain>& wk = work[w];
            wk.fix.assign(views.size(), 0);
            const bool proving = w == 0 && book.proving(round);
            if (!proving) neighbourhood(book.next_round(round, w), std::span<char>(wk.fix));
            wk.all_free = fixes_nothing(wk.fix);
            wk.limits = book.left(proving ? book.budget(round) : lns.failures);
        }
        crew.round();

        std::size_t winner = threads;
        bool proof = false;
        for (std::size_t w = 0; w < threads; ++w) {
            const LnsWork<Domain>& wk = work[w];
            SearchStats counted = wk.stats;
            counted.solutions = 0; // only those the visitor gets count
            add_stats(total, counted);
            if (wk.failed) ++total.failures;
            ++total.restarts;
            proof = proof || wk.proved();
            if (wk.found > 0 && (winner == threads || better(wk.value, work[winner].value))) winner = w;
        }
        std::size_t delivered = 0;
        if (winner < threads) {
            const LnsWork<Domain>& wk = work[winner];
            const std::uint64_t room = book.left(unlimited).solutions;
            while (delivered < wk.found && delivered < room && !book.stopped) {
                for (std::size_t v = 0; v < vars; ++v)
                    const_cast<Domain&>(shown.domain(static_cast<int>(v))) = wk.domains[delivered * vars + v];
                ++delivered;
                for (std::size_t i = 0; i < views.size(); ++i) book.best[i] = views[i].value(shown);
                total.objective = objective.value(shown);
                ++total.solutions;
                book.stopped = visit_one(visitor, Solution<Store, W>(shown, views)) == Action::stop;
            }
        }
        // A proof holds for the winner's last solution, if it got through.
        if (proof && !book.stopped && (winner == threads || delivered == work[winner].found))
            total.outcome = Outcome::complete;
    }
    book.finish();
    return total;
}

} // namespace propane::detail

#endif
