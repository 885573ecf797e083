// The parallel search (search/parallel.hpp) and the split under it
// (search/split.hpp) against the one-thread search: on N-queens at every
// strength and on random models, for 1..4 threads and several split sizes,
// the solutions, failures and branches must equal solve()'s exactly; in
// ordered mode the solutions must come in solve()'s order, in unordered
// mode they must be the same multiset. Then the limits across threads
// (solution limit, first solution, a visitor's stop, branch, failure and
// time limits), an exception from the visitor, threads = 0, the strategies
// that depend on the search's history (every solution once), and the store
// back at its root state after each.
//
// Every run records its solutions with one visitor type (Recorder), and
// every model uses one store type, so that this file stays cheap to build.

#include <doctest/doctest.h>

#include "nqueens_model.hpp"

#include <propane/parallel.hpp>
// The shared instances where the build links them (PROPANE_TEST_INSTANCES):
// every build but the ThreadSanitizer one, which compiles this test alone
// and would otherwise compile the instances too, for this one file.
#if PROPANE_TEST_INSTANCES
#include "instances.hpp"
#endif

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <latch>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

using Store = propane::Store<propane::BitDomain<1>>;
using propane::IntVar;
using Solutions = std::vector<std::vector<int>>;

// Records each solution; answers stop at call number stop_at (from 1) and
// throws at call number throw_at. Locked, for the unordered mode.
struct Recorder {
    Solutions* out;
    std::mutex* m;
    std::uint64_t stop_at = 0;  // 0: never
    std::uint64_t throw_at = 0; // 0: never

    template <class Solution>
    propane::Action operator()(const Solution& sol) const {
        std::vector<int> values;
        for (std::size_t i = 0; i < sol.size(); ++i) values.push_back(sol[i]);
        // Through the store too: the visitor may read any view of it.
        for (std::size_t i = 0; i < sol.size(); ++i)
            if (!sol.store().domain(static_cast<int>(i)).fixed()) values.push_back(-1000);
        const std::lock_guard lock(*m);
        out->push_back(std::move(values));
        if (throw_at != 0 && out->size() == throw_at) throw std::runtime_error("visitor");
        return stop_at != 0 && out->size() >= stop_at ? propane::stop : propane::next;
    }
};

struct Run {
    propane::SearchStats stats;
    Solutions solutions;
};

// solve() on one thread (threads == 0 there) or the parallel solve().
template <class Strategy>
Run run(Store& s, const std::vector<IntVar>& vars, const Strategy& strategy, const propane::Limits& limits,
        const propane::Parallel* parallel, std::uint64_t stop_at = 0) {
    Run r;
    std::mutex m;
    const Recorder rec{&r.solutions, &m, stop_at, 0};
    r.stats = parallel ? propane::solve(s, vars, strategy, limits, *parallel, rec)
                       : propane::solve(s, vars, strategy, limits, rec);
    return r;
}

std::vector<std::uint64_t> domain_words(const Store& s) {
    std::vector<std::uint64_t> d;
    for (int i = 0; i < s.num_vars(); ++i)
        for (int v = s.domain(i).min(); v <= s.domain(i).max(); ++v) d.push_back(s.domain(i).contains(v) ? 1 : 0);
    return d;
}

std::string text(const propane::Parallel& p) {
    return "threads " + std::to_string(p.threads) + (p.ordered ? " ordered" : " unordered") + ", per worker " +
           std::to_string(p.subproblems_per_worker);
}

// The parallel runs of the model in s against its one-thread run.
template <class Strategy>
void check_equal(Store& s, const std::vector<IntVar>& vars, const Strategy& strategy, std::size_t per_worker,
                 const Run& want) {
    const auto before = domain_words(s);
    REQUIRE(want.stats.complete());
    for (unsigned threads = 1; threads <= 4; ++threads)
        for (const bool ordered : {true, false}) {
            const propane::Parallel p{.threads = threads, .ordered = ordered, .subproblems_per_worker = per_worker};
            CAPTURE(text(p));
            Run got = run(s, vars, strategy, {}, &p);
            CHECK(got.stats.solutions == want.stats.solutions);
            CHECK(got.stats.failures == want.stats.failures);
            CHECK(got.stats.branches == want.stats.branches);
            CHECK(got.stats.max_depth == want.stats.max_depth);
            CHECK(got.stats.outcome == propane::Outcome::complete);
            // The statistics say how the tree was cut: as split() cuts it,
            // unless it leaves fewer than two subproblems with work below
            // them, which one thread then searches.
            const propane::Split sp =
                propane::split(s, vars, strategy, threads * std::max<std::size_t>(1, per_worker));
            const std::size_t parts = threads == 1 || sp.open < 2 ? 0 : sp.subproblems.size();
            CHECK(got.stats.subproblems == parts);
            CHECK(got.stats.split_time <= got.stats.wall_time);
            CHECK((got.stats.split_time.count() > 0) == (parts > 0));
            if (ordered) {
                CHECK(got.solutions == want.solutions);
            } else {
                Solutions sorted = want.solutions;
                std::sort(sorted.begin(), sorted.end());
                std::sort(got.solutions.begin(), got.solutions.end());
                CHECK(got.solutions == sorted);
            }
            CHECK(s.level() == 0);
            CHECK(domain_words(s) == before);
        }
}

template <class Strategy>
void check_equal(Store& s, const std::vector<IntVar>& vars, const Strategy& strategy, std::size_t per_worker) {
    check_equal(s, vars, strategy, per_worker, run(s, vars, strategy, {}, nullptr));
}

// ---- random models ---------------------------------------------------------------

// SplitMix64, so a seed means the same model with every standard library.
struct Rng {
    std::uint64_t state;
    std::uint64_t next() {
        std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    int between(int lo, int hi) { return lo + static_cast<int>(next() % static_cast<std::uint64_t>(hi - lo + 1)); }
};

// 4..7 variables over 0..5 with holes (at most 6^7 assignments, so the
// solutions stay cheap to record); AllDifferent over some of them (at a
// random strength), binary relations and ternary linear constraints.
std::vector<IntVar> random_model(Store& s, Rng& rng) {
    const int n = rng.between(4, 7);
    std::vector<IntVar> x = s.int_vars(n, 0, 5);
    for (const IntVar& v : x)
        for (int k = rng.between(0, 2); k > 0; --k) (void)s.remove(v, rng.between(0, 5));
    const auto pick = [&] { return x[static_cast<std::size_t>(rng.between(0, n - 1))]; };
    constexpr propane::Consistency strengths[] = {propane::value, propane::bounds, propane::domain};
    constexpr propane::Rel rels[] = {propane::Rel::ne, propane::Rel::lt, propane::Rel::le, propane::Rel::ge};
    for (int c = rng.between(2, 5); c > 0; --c) {
        switch (rng.between(0, 2)) {
        case 0: {
            std::vector<IntVar> some;
            for (const IntVar& v : x)
                if (rng.between(0, 2) > 0) some.push_back(v);
            if (some.size() >= 2) s.post(propane::all_different(some, strengths[rng.between(0, 2)]));
            break;
        }
        case 1: {
            // Drawn one by one: the order of a call's arguments is the compiler's.
            const IntVar a = pick(), b = pick();
            s.post(propane::rel(a, rels[rng.between(0, 3)], b));
            break;
        }
        default: {
            const std::vector<int> coeffs{rng.between(1, 2), -rng.between(1, 2), rng.between(-1, 1) | 1};
            const std::vector<IntVar> terms{pick(), pick(), pick()};
            const propane::Rel r = rels[rng.between(0, 3)];
            s.post(propane::linear(coeffs, terms, r, rng.between(-2, 4)));
        }
        }
    }
    std::vector<IntVar> order = x;
    for (std::size_t i = order.size(); i > 1; --i)
        std::swap(order[i - 1], order[static_cast<std::size_t>(rng.between(0, static_cast<int>(i) - 1))]);
    return order;
}

propane::Strategy random_strategy(Rng& rng) {
    constexpr propane::VarChoice vars[] = {propane::first_unbound, propane::smallest_domain,
                                           propane::largest_domain, propane::smallest_min};
    constexpr propane::ValChoice vals[] = {propane::min_value, propane::max_value, propane::middle_value,
                                           propane::split_value};
    return {.var = vars[rng.between(0, 3)], .val = vals[rng.between(0, 3)]};
}

} // namespace

TEST_CASE("parallel: N-queens counts, order and statistics equal one thread's, at every strength") {
    const std::vector<propane::Strategy> strategies{
        {.var = propane::first_unbound, .val = propane::min_value},
        {.var = propane::first_unbound, .val = propane::split_value},
        {.var = propane::smallest_domain, .val = propane::max_value},
        {.var = propane::largest_domain, .val = propane::middle_value},
        {.var = propane::smallest_min, .val = propane::split_value},
    };
    for (const propane::Consistency strength :
         std::initializer_list<propane::Consistency>{propane::value, propane::bounds, propane::domain})
        for (const propane::Strategy& strategy : strategies) {
            CAPTURE(static_cast<int>(strength));
            CAPTURE(propane::to_string(strategy.var));
            CAPTURE(propane::to_string(strategy.val));
            nqueens::Model<propane::BitDomain<1>> m(8, strength);
            check_equal(m.store, m.q, strategy, 30);
        }
    // Other split sizes: one subproblem per worker, and a deep split.
    nqueens::Model<propane::BitDomain<1>> m(9, propane::value);
    check_equal(m.store, m.q, propane::Strategy{}, 1);
    check_equal(m.store, m.q, propane::Strategy{.val = propane::split_value}, 500);
}

TEST_CASE("parallel: random models equal one thread's") {
    Rng rng{2024};
    std::uint64_t with_solutions = 0, failing_root = 0, checked = 0;
    for (int k = 0; k < 150; ++k) {
        CAPTURE(k);
        Store s;
        const std::vector<IntVar> vars = random_model(s, rng);
        const propane::Strategy strategy = random_strategy(rng);
        Store probe = s;
        failing_root += probe.propagate() ? 0 : 1;
        const std::size_t per_worker = static_cast<std::size_t>(rng.between(1, 40));
        const Run want = run(s, vars, strategy, {}, nullptr);
        with_solutions += want.stats.solutions > 0 ? 1 : 0;
        // A loose model has tens of thousands: too dear to record 16 times.
        if (want.stats.solutions > 3000) continue;
        ++checked;
        check_equal(s, vars, strategy, per_worker, want);
    }
    // The draw must give models of both kinds.
    CHECK(with_solutions > 20);
    CHECK(with_solutions < 150);
    CHECK(checked > 100);
    MESSAGE("random models checked: " << checked << ", with solutions: " << with_solutions
                                      << ", failing at the root: " << failing_root);
}

TEST_CASE("parallel: with variables outside the views, whole solutions and one thread's counts") {
    Rng rng{35};
    std::uint64_t outside = 0;
    for (int k = 0; k < 60; ++k) {
        CAPTURE(k);
        Store s;
        std::vector<IntVar> vars = random_model(s, rng);
        // One to all but one of the variables left out of the views.
        vars.resize(static_cast<std::size_t>(rng.between(0, static_cast<int>(vars.size()) - 1)));
        propane::Strategy strategy = random_strategy(rng);
        strategy.assign_all = k % 4 != 3;
        const std::size_t per_worker = static_cast<std::size_t>(rng.between(1, 8));
        const Run want = run(s, vars, strategy, {}, nullptr);
        if (want.stats.solutions > 3000) continue;
        ++outside;
        check_equal(s, vars, strategy, per_worker, want);
        if (!strategy.assign_all) continue;
        std::atomic<std::uint64_t> open{0}, seen{0};
        for (const bool ordered : {true, false}) {
            const propane::Parallel p{.threads = 2, .ordered = ordered, .subproblems_per_worker = per_worker};
            propane::solve(s, vars, strategy, {}, p, [&](const auto& sol) {
                ++seen;
                for (int i = 0; i < sol.store().num_vars(); ++i) open += sol.store().domain(i).fixed() ? 0 : 1;
            });
        }
        CHECK(open == 0);
        CHECK(seen == 2 * want.stats.solutions);
    }
    CHECK(outside > 40);
}

TEST_CASE("parallel: callable choosers split as the search branches") {
    nqueens::Model<propane::BitDomain<1>> m(8, propane::bounds);
    // The last unfixed view; the upper half first, as x <= v / x > v reversed.
    const auto strategy = propane::strategy(
        [](const Store& s, std::span<const IntVar> xs) {
            for (int i = static_cast<int>(xs.size()) - 1; i >= 0; --i)
                if (!xs[static_cast<std::size_t>(i)].fixed(s)) return i;
            return -1;
        },
        [](const Store& s, const IntVar& x) {
            return propane::Decision{propane::Branch::split, (x.min(s) + x.max(s)) / 2};
        });
    check_equal(m.store, m.q, strategy, 30);
}

TEST_CASE("Branch::split_high: the upper half first, on one thread and on several") {
    nqueens::Model<propane::BitDomain<1>> m(8, propane::bounds);
    const auto upper_first = propane::strategy(propane::first_unbound, [](const Store& s, const IntVar& x) {
        return propane::Decision{propane::Branch::split_high, (x.min(s) + x.max(s)) / 2};
    });
    // Either way, the values of each queen are tried from the largest down,
    // so the solutions come in the same order as under max_value.
    Run got;
    std::mutex mx;
    got.stats = propane::solve(m.store, m.q, upper_first, {}, Recorder{&got.solutions, &mx, 0, 0});
    const Run want = run(m.store, m.q, propane::Strategy{.val = propane::max_value}, {}, nullptr);
    CHECK(got.solutions.size() == 92);
    CHECK(got.solutions == want.solutions);
    check_equal(m.store, m.q, upper_first, 30);
}

TEST_CASE("split: a partition of the tree in the search's order, the same every time") {
    nqueens::Model<propane::BitDomain<1>> m(8, propane::value);
    const propane::Strategy strategy{.val = propane::split_value};
    const Run want = run(m.store, m.q, strategy, {}, nullptr);
    for (const std::size_t at_least : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{60}}) {
        CAPTURE(at_least);
        const propane::Split sp = propane::split(m.store, m.q, strategy, at_least);
        CHECK(sp.subproblems.size() >= at_least);
        CHECK(sp.top.solutions == 0);
        // The depth counts the x = v and split branches: a path has at most
        // that many, plus the x != v ones.
        for (const propane::Subproblem& sub : sp.subproblems)
            CHECK(std::ranges::count_if(sub.path, [](const propane::Decision& d) {
                      return !d.right || d.branch == propane::Branch::split;
                  }) <= sp.depth);
        // Deterministic.
        const propane::Split again = propane::split(m.store, m.q, strategy, at_least);
        REQUIRE(again.subproblems.size() == sp.subproblems.size());
        for (std::size_t i = 0; i < sp.subproblems.size(); ++i)
            for (std::size_t d = 0; d < sp.subproblems[i].path.size(); ++d) {
                const propane::Decision &a = sp.subproblems[i].path[d], &b = again.subproblems[i].path[d];
                CHECK((a.var == b.var && a.value == b.value && a.branch == b.branch && a.right == b.right));
            }
        // Searched one after the other on a copy: the whole search.
        Store copy = m.store;
        Run got;
        std::mutex mx;
        propane::SearchStats sum = sp.top;
        for (const propane::Subproblem& sub : sp.subproblems) {
            const propane::SearchStats st =
                propane::solve_subproblem(copy, m.q, strategy, {}, sub, Recorder{&got.solutions, &mx});
            CHECK(st.complete());
            sum.branches += st.branches;
            sum.failures += st.failures;
            sum.solutions += st.solutions;
            CHECK(copy.level() == 0);
        }
        CHECK(got.solutions == want.solutions);
        CHECK(sum.solutions == want.stats.solutions);
        CHECK(sum.failures == want.stats.failures);
        CHECK(sum.branches == want.stats.branches);
    }
    // A tree smaller than asked for: every leaf, solutions included.
    nqueens::Model<propane::BitDomain<1>> four(4, propane::bounds);
    const propane::Split small = propane::split(four.store, four.q, propane::Strategy{}, 1000);
    CHECK(small.subproblems.size() < 1000);
    CHECK(small.top.failures == run(four.store, four.q, propane::Strategy{}, {}, nullptr).stats.failures);
    // A root that fails: nothing to search, one failure.
    Store s;
    const auto x = s.int_vars(2, 0, 0);
    s.post(propane::all_different(x, propane::value));
    const propane::Split none = propane::split(s, x, propane::Strategy{}, 10);
    CHECK(none.subproblems.empty());
    CHECK(none.top.failures == 1);
    const propane::Parallel p{.threads = 2, .ordered = true};
    const Run r = run(s, x, propane::Strategy{}, {}, &p);
    CHECK(r.stats.failures == 1);
    CHECK(r.stats.branches == 0);
    CHECK(r.stats.complete());
}

// A worker keeps its store at the last subproblem's node and undoes only
// what the next path does not share (detail::Replay). Whatever the order
// the subproblems come in (as split, reversed, shuffled: paths that share
// all, some or none of their decisions), each must search as it does
// replayed from the root, and the store must come back to its root state.
TEST_CASE("split: subproblems reached from one another search as from the root") {
    Rng rng{77};
    const auto check_orders = [&](Store& s, const std::vector<IntVar>& vars, const propane::Strategy& strategy,
                                  std::size_t at_least) {
        const propane::Split sp = propane::split(s, vars, strategy, at_least);
        std::vector<Run> want(sp.subproblems.size());
        std::mutex mx;
        for (std::size_t i = 0; i < sp.subproblems.size(); ++i) {
            Store fresh = s;
            want[i].stats = propane::solve_subproblem(fresh, vars, strategy, {}, sp.subproblems[i],
                                                      Recorder{&want[i].solutions, &mx});
        }
        std::vector<std::size_t> order(sp.subproblems.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
        for (int pass = 0; pass < 3; ++pass) {
            if (pass == 1) std::ranges::reverse(order);
            if (pass == 2)
                for (std::size_t i = order.size(); i > 1; --i)
                    std::swap(order[i - 1], order[static_cast<std::size_t>(rng.between(0, static_cast<int>(i) - 1))]);
            Store copy = s;
            const std::vector<std::uint64_t> root = domain_words(copy);
            const std::vector<IntVar> views(vars);
            propane::detail::Replay<Store, IntVar> replay(copy, views);
            for (const std::size_t i : order) {
                CAPTURE(pass);
                CAPTURE(i);
                Run got;
                got.stats = propane::detail::search_subproblem(replay, strategy, {}, sp.subproblems[i], nullptr,
                                                               Recorder{&got.solutions, &mx});
                CHECK(got.solutions == want[i].solutions);
                CHECK(got.stats.branches == want[i].stats.branches);
                CHECK(got.stats.failures == want[i].stats.failures);
                CHECK(got.stats.max_depth == want[i].stats.max_depth);
            }
            replay.leave();
            CHECK(copy.level() == 0);
            CHECK(domain_words(copy) == root);
        }
    };
    for (const propane::Consistency strength :
         std::initializer_list<propane::Consistency>{propane::value, propane::bounds, propane::domain}) {
        nqueens::Model<propane::BitDomain<1>> m(7, strength);
        check_orders(m.store, m.q, propane::Strategy{}, 40);
        check_orders(m.store, m.q, propane::Strategy{.var = propane::smallest_domain, .val = propane::split_value},
                     40);
    }
    for (int k = 0; k < 40; ++k) {
        CAPTURE(k);
        Store s;
        const std::vector<IntVar> vars = random_model(s, rng);
        check_orders(s, vars, random_strategy(rng), static_cast<std::size_t>(rng.between(2, 30)));
    }
}

TEST_CASE("parallel: a solution limit gives exactly that many, the first ones when ordered") {
    nqueens::Model<propane::BitDomain<1>> m(10, propane::bounds);
    const propane::Strategy strategy{};
    const Run all = run(m.store, m.q, strategy, {}, nullptr);
    for (const std::uint64_t k : {std::uint64_t{1}, std::uint64_t{7}, std::uint64_t{300}})
        for (const unsigned threads : {2U, 3U}) {
            CAPTURE(k);
            CAPTURE(threads);
            const propane::Limits limits{.solutions = k};
            const Run want = run(m.store, m.q, strategy, limits, nullptr);
            const propane::Parallel ordered{.threads = threads, .ordered = true};
            const Run got = run(m.store, m.q, strategy, limits, &ordered);
            CHECK(got.stats.solutions == k);
            CHECK(got.stats.outcome == propane::Outcome::solution_limit);
            CHECK(got.solutions == want.solutions);
            const propane::Parallel unordered{.threads = threads, .ordered = false};
            const Run any = run(m.store, m.q, strategy, limits, &unordered);
            CHECK(any.stats.solutions == k);
            CHECK(any.solutions.size() == k);
            CHECK(any.stats.outcome == propane::Outcome::solution_limit);
            for (const auto& sol : any.solutions)
                CHECK(std::find(all.solutions.begin(), all.solutions.end(), sol) != all.solutions.end());
            CHECK(std::set<std::vector<int>>(any.solutions.begin(), any.solutions.end()).size() == k);
            CHECK(m.store.level() == 0);
        }
}

TEST_CASE("parallel: a visitor's stop stops every worker") {
    nqueens::Model<propane::BitDomain<1>> m(10, propane::value);
    const Run all = run(m.store, m.q, propane::Strategy{}, {}, nullptr);
    const propane::Parallel ordered{.threads = 3, .ordered = true}, unordered{.threads = 3, .ordered = false};
    const Run got = run(m.store, m.q, propane::Strategy{}, {}, &ordered, 5);
    CHECK(got.stats.outcome == propane::Outcome::stopped);
    CHECK(got.stats.solutions == 5);
    CHECK(got.solutions == Solutions(all.solutions.begin(), all.solutions.begin() + 5));
    const Run any = run(m.store, m.q, propane::Strategy{}, {}, &unordered, 5);
    CHECK(any.stats.outcome == propane::Outcome::stopped);
    CHECK(any.stats.solutions == any.solutions.size());
    CHECK(any.solutions.size() >= 5);
    CHECK(any.solutions.size() < all.solutions.size());
}

TEST_CASE("parallel: this_worker() names the worker a visitor runs on") {
    nqueens::Model<propane::BitDomain<1>> m(9, propane::value);
    const Run all = run(m.store, m.q, propane::Strategy{}, {}, nullptr);
    CHECK(propane::this_worker() == 0);
    for (const bool ordered : {false, true}) {
        CAPTURE(ordered);
        const unsigned threads = 3;
        std::mutex mu;
        std::set<std::pair<std::size_t, std::thread::id>> seen;
        std::vector<std::uint64_t> per_worker(threads, 0);
        const auto st = propane::solve(m.store, m.q, propane::Strategy{}, {},
                                       propane::Parallel{.threads = threads, .ordered = ordered}, [&](const auto&) {
                                           const std::size_t w = propane::this_worker();
                                           const std::lock_guard lock(mu);
                                           seen.insert({w, std::this_thread::get_id()});
                                           if (w < threads) ++per_worker[w];
                                       });
        CHECK(st.solutions == all.stats.solutions);
        std::uint64_t total = 0;
        for (const std::uint64_t c : per_worker) total += c;
        // Every index in range, and index and thread in one-to-one
        // correspondence: one thread per worker, one worker per thread.
        CHECK(total == all.stats.solutions);
        std::set<std::size_t> workers;
        std::set<std::thread::id> ids;
        for (const auto& [w, id] : seen) {
            workers.insert(w);
            ids.insert(id);
        }
        CHECK(workers.size() == seen.size());
        CHECK(ids.size() == seen.size());
        // Ordered, the calling thread visits every solution, and it is no worker.
        if (ordered) CHECK(seen == std::set<std::pair<std::size_t, std::thread::id>>{{0, std::this_thread::get_id()}});
        CHECK(propane::this_worker() == 0);
    }
}

TEST_CASE("parallel: branch, failure and time limits hold across the workers") {
    nqueens::Model<propane::BitDomain<1>> m(9, propane::bounds);
    for (const bool ordered : {true, false}) {
        CAPTURE(ordered);
        const propane::Parallel p{.threads = 2, .ordered = ordered, };
        const Run b = run(m.store, m.q, propane::Strategy{}, {.branches = 700}, &p);
        CHECK(b.stats.outcome == propane::Outcome::branch_limit);
        CHECK(b.stats.branches >= 700);
        const Run f = run(m.store, m.q, propane::Strategy{}, {.failures = 300}, &p);
        CHECK(f.stats.outcome == propane::Outcome::failure_limit);
        CHECK(f.stats.failures >= 300);
        // Below the split's own counts: the one-thread search decides.
        const Run tiny = run(m.store, m.q, propane::Strategy{}, {.branches = 3}, &p);
        CHECK(tiny.stats.branches == 3);
        CHECK(tiny.stats.outcome == propane::Outcome::branch_limit);
        // A limit of 0 failures as on one thread: nothing done at all.
        const Run none = run(m.store, m.q, propane::Strategy{}, {.failures = 0}, &p);
        CHECK(none.stats.failures == 0);
        CHECK(none.stats.branches == 0);
        CHECK(none.stats.outcome == propane::Outcome::failure_limit);
        const Run no_branch = run(m.store, m.q, propane::Strategy{}, {.branches = 0}, &p);
        CHECK(no_branch.stats.branches == 0);
        CHECK(no_branch.stats.outcome == propane::Outcome::branch_limit);
        const Run t = run(m.store, m.q, propane::Strategy{}, {.time = std::chrono::nanoseconds(0)}, &p);
        CHECK(t.stats.outcome == propane::Outcome::time_limit);
        CHECK(m.store.level() == 0);
    }
}

TEST_CASE("parallel: an exception from the visitor reaches the caller, the store at its root") {
    nqueens::Model<propane::BitDomain<1>> m(9, propane::domain);
    const auto before = domain_words(m.store);
    const Run want = run(m.store, m.q, propane::Strategy{}, {}, nullptr);
    for (const bool ordered : {true, false})
        for (const std::uint64_t at : {std::uint64_t{1}, std::uint64_t{40}}) {
            CAPTURE(ordered);
            CAPTURE(at);
            Solutions seen;
            std::mutex mx;
            const propane::Parallel p{.threads = 3, .ordered = ordered, };
            CHECK_THROWS_AS(propane::solve(m.store, m.q, propane::Strategy{}, {}, p, Recorder{&seen, &mx, 0, at}),
                            std::runtime_error);
            CHECK(m.store.level() == 0);
            CHECK(domain_words(m.store) == before);
            // Nothing left running on it: it searches again.
            const propane::Parallel again{.threads = 3, .ordered = true, };
            CHECK(run(m.store, m.q, propane::Strategy{}, {}, &again).solutions == want.solutions);
        }
}

TEST_CASE("parallel: threads = 0 means every hardware thread") {
    nqueens::Model<propane::BitDomain<1>> m(8, propane::bounds);
    const Run want = run(m.store, m.q, propane::Strategy{}, {}, nullptr);
    const propane::Parallel p{};
    CHECK(p.threads == 0);
    const Run got = run(m.store, m.q, propane::Strategy{}, {}, &p);
    CHECK(got.solutions == want.solutions);
    CHECK(got.stats.branches == want.stats.branches);
    CHECK(got.stats.failures == want.stats.failures);
}

TEST_CASE("parallel: a thread count of any integer type; a negative one is a model_error") {
    int n = 2;
    const long three = 3;
    const std::size_t four = 4;
    const propane::Parallel a{.threads = n}, b{.threads = three}, c{.threads = four};
    CHECK(a.threads == 2u);
    CHECK(b.threads == 3u);
    CHECK(c.threads == 4u);
    n = -1;
    CHECK_THROWS_WITH_AS((void)propane::Parallel{.threads = n}, doctest::Contains("negative thread count, -1"),
                         propane::model_error);
    propane::Parallel d;
    CHECK_THROWS_AS(d.threads = -2, propane::model_error);
    CHECK(d.threads == 0u);
}

TEST_CASE("parallel: strategies that depend on the search's history find every solution once") {
    // Restarts are combined with the others too: a restart goes back to the
    // subproblem's node, and after a solution the search stops restarting,
    // as on one thread, so that no solution comes twice.
    const std::vector<propane::Strategy> strategies{
        {.val = propane::random_value, .seed = 7},
        {.var = propane::dom_wdeg},
        {.restarts = {propane::RestartPolicy::luby, 4, 1.5}},
        {.var = propane::dom_wdeg, .val = propane::random_value, .seed = 3,
         .restarts = {propane::RestartPolicy::geometric, 3, 1.5}},
    };
    for (const propane::Consistency strength :
         std::initializer_list<propane::Consistency>{propane::value, propane::domain})
        for (std::size_t k = 0; k < strategies.size(); ++k) {
            CAPTURE(static_cast<int>(strength));
            CAPTURE(k);
            const propane::Strategy& strategy = strategies[k];
            nqueens::Model<propane::BitDomain<1>> m(8, strength);
            const auto before = domain_words(m.store);
            Solutions want = run(m.store, m.q, strategy, {}, nullptr).solutions;
            REQUIRE(want.size() == 92);
            std::sort(want.begin(), want.end());
            // The split walks the top of the tree with the strategy's chooser.
            const propane::Split sp = propane::split(m.store, m.q, strategy, 40);
            CHECK(sp.subproblems.size() >= 40);
            for (unsigned threads = 2; threads <= 3; ++threads)
                for (const bool ordered : {true, false}) {
                    const propane::Parallel p{.threads = threads, .ordered = ordered};
                    CAPTURE(text(p));
                    const Run got = run(m.store, m.q, strategy, {}, &p);
                    CHECK(got.stats.outcome == propane::Outcome::complete);
                    CHECK(got.stats.solutions == 92);
                    Solutions sorted = got.solutions;
                    std::sort(sorted.begin(), sorted.end());
                    CHECK(sorted == want);
                    CHECK(m.store.level() == 0);
                    CHECK(domain_words(m.store) == before);
                }
        }
    // random_value: each subproblem's stream starts at the seed, whichever
    // worker searches it, so the ordered search repeats itself exactly.
    nqueens::Model<propane::BitDomain<1>> m(9, propane::bounds);
    const propane::Strategy random{.val = propane::random_value, .seed = 11};
    const propane::Parallel three{.threads = 3};
    const Run first = run(m.store, m.q, random, {}, &three);
    for (int again = 0; again < 3; ++again) {
        const Run next = run(m.store, m.q, random, {}, &three);
        CHECK(next.solutions == first.solutions);
        CHECK(next.stats.failures == first.stats.failures);
        CHECK(next.stats.branches == first.stats.branches);
    }
    // First solution and a solution limit hold as for any strategy.
    const propane::Strategy wdeg{.var = propane::dom_wdeg, .restarts = {propane::RestartPolicy::luby, 4, 1.5}};
    CHECK(run(m.store, m.q, wdeg, {.solutions = 1}, &three).solutions.size() == 1);
    CHECK(run(m.store, m.q, wdeg, {.solutions = 17}, &three).solutions.size() == 17);
}

TEST_CASE("parallel: progress reports come on the calling thread, in order, and change no answer") {
    nqueens::Model<propane::BitDomain<1>> m(9, propane::value);
    const Run want = run(m.store, m.q, propane::Strategy{}, {}, nullptr);
    for (const bool ordered : {true, false}) {
        CAPTURE(ordered);
        std::vector<propane::ParallelProgress> reports;
        bool elsewhere = false;
        const auto caller = std::this_thread::get_id();
        propane::Parallel p{.threads = 3, .ordered = ordered, };
        // Due at every chance: as many reports as the search gives room for.
        p.progress_period = std::chrono::nanoseconds(0);
        p.progress = [&](const propane::ParallelProgress& r) {
            elsewhere = elsewhere || std::this_thread::get_id() != caller;
            reports.push_back(r);
        };
        const Run got = run(m.store, m.q, propane::Strategy{}, {}, &p);
        CHECK(got.stats.solutions == want.stats.solutions);
        CHECK(got.stats.branches == want.stats.branches);
        CHECK(got.stats.failures == want.stats.failures);
        if (ordered) CHECK(got.solutions == want.solutions);
        CHECK_FALSE(elsewhere);
        // Due from the start, a report comes even when the workers end
        // before the calling thread first waits; unordered, the last one
        // comes after every worker has ended, and sees the whole search.
        REQUIRE_FALSE(reports.empty());
        if (!ordered) CHECK(reports.back().done == 1.0);
        for (std::size_t k = 0; k < reports.size(); ++k) {
            CHECK(reports[k].done >= 0.0);
            CHECK(reports[k].done <= 1.0);
            CHECK(reports[k].stats.branches <= want.stats.branches);
            CHECK(reports[k].stats.solutions <= want.stats.solutions);
            // Once every subproblem is searched, every solution has been
            // counted (in ordered mode the report may come before the
            // delivering thread has taken them all).
            if (!ordered && reports[k].done == 1.0) CHECK(reports[k].stats.solutions == want.stats.solutions);
            if (k > 0) {
                CHECK(reports[k].done >= reports[k - 1].done);
                CHECK(reports[k].stats.branches >= reports[k - 1].stats.branches);
                CHECK(reports[k].stats.solutions >= reports[k - 1].stats.solutions);
            }
        }
    }
}

TEST_CASE("parallel: progress reports come on one thread too, for solve() and minimize()") {
    // Parallel{.threads = 1} is the one-thread search; its reports must
    // not go missing, nor those of a search the split ends by a limit.
    nqueens::Model<propane::BitDomain<1>> m(9, propane::value);
    const Run want = run(m.store, m.q, propane::Strategy{}, {}, nullptr);
    const auto check_reports = [](const std::vector<propane::ParallelProgress>& reports, std::uint64_t solutions,
                                  bool complete) {
        REQUIRE_FALSE(reports.empty());
        for (std::size_t k = 1; k < reports.size(); ++k) {
            CHECK(reports[k].done >= reports[k - 1].done);
            CHECK(reports[k].stats.branches >= reports[k - 1].stats.branches);
        }
        // Due from the start, the last report comes when the search has ended.
        CHECK(reports.back().stats.solutions == solutions);
        CHECK((reports.back().done == 1.0) == complete);
    };
    std::vector<propane::ParallelProgress> reports;
    propane::Parallel one{.threads = 1};
    one.progress_period = std::chrono::nanoseconds(0);
    one.progress = [&](const propane::ParallelProgress& r) { reports.push_back(r); };
    const Run got = run(m.store, m.q, propane::Strategy{}, {}, &one);
    CHECK(got.stats.solutions == want.stats.solutions);
    CHECK(got.stats.branches == want.stats.branches);
    check_reports(reports, want.stats.solutions, true);

    // A branch limit the split reaches: the one-thread search, stopped by it.
    reports.clear();
    propane::Parallel three = one;
    three.threads = 3;
    const Run limited = run(m.store, m.q, propane::Strategy{}, {.branches = 2}, &three);
    CHECK(limited.stats.outcome == propane::Outcome::branch_limit);
    check_reports(reports, limited.stats.solutions, false);

    reports.clear();
    const IntVar cost = m.store.int_var(0, 16);
    m.store.post(propane::linear(std::vector<int>{1, 1, -1}, std::vector<IntVar>{m.q[0], m.q[8], cost}, propane::Rel::eq, 0));
    const propane::OptimizeStats best = propane::minimize(m.store, m.q, propane::Strategy{}, {}, one, cost);
    CHECK(best.complete());
    check_reports(reports, best.solutions, true);
}

TEST_CASE("split: no subproblem holds a large share of the tree") {
    // Cut by binary depth, the chain q[0] != 0, q[0] != 1, ... would leave
    // q[0]'s other values, half the tree or more, in one subproblem; then
    // no number of threads could go twice as fast.
    for (const propane::Strategy& strategy :
         {propane::Strategy{}, propane::Strategy{.val = propane::split_value},
          propane::Strategy{.var = propane::smallest_domain, .val = propane::max_value}}) {
        CAPTURE(propane::to_string(strategy.val));
        nqueens::Model<propane::BitDomain<1>> m(10, propane::value);
        const propane::Split sp = propane::split(m.store, m.q, strategy, 60);
        std::uint64_t total = sp.top.branches, largest = 0;
        for (const propane::Subproblem& sub : sp.subproblems) {
            const propane::SearchStats st = propane::solve_subproblem(m.store, m.q, strategy, {}, sub, [](const auto&) {});
            total += st.branches;
            largest = std::max(largest, st.branches);
        }
        CHECK(largest * 10 <= total);
    }
}

// ---- branch and bound on threads -------------------------------------------------

namespace {

// Minimizes or maximizes `objective` on 2..4 threads against one thread:
// the same optimum, proven; the visitor called one at a time (no lock here:
// ThreadSanitizer checks that promise) with strictly improving values, the
// last of them the optimum; the store back at its root state.
template <class V>
void check_optimum(Store& s, const std::vector<IntVar>& vars, const propane::Strategy& strategy, const V& objective,
                   bool maximize) {
    const auto before = domain_words(s);
    const propane::OptimizeStats one = maximize ? propane::maximize(s, vars, strategy, {}, objective)
                                                : propane::minimize(s, vars, strategy, {}, objective);
    REQUIRE(one.complete());
    for (unsigned threads = 2; threads <= 4; ++threads)
        for (const std::size_t per_worker : {std::size_t{1}, std::size_t{30}}) {
            const propane::Parallel p{.threads = threads, .subproblems_per_worker = per_worker};
            CAPTURE(text(p));
            std::vector<int> seen;
            bool all_fixed = true;
            const auto visitor = [&](const auto& sol) {
                for (const IntVar& x : vars) all_fixed = all_fixed && x.fixed(sol.store());
                seen.push_back(objective.value(sol.store()));
            };
            const propane::OptimizeStats st = maximize ? propane::maximize(s, vars, strategy, {}, p, objective, visitor)
                                                       : propane::minimize(s, vars, strategy, {}, p, objective, visitor);
            CHECK(st.complete());
            CHECK(st.objective == one.objective);
            CHECK(st.solutions == seen.size());
            CHECK(all_fixed);
            for (std::size_t k = 1; k < seen.size(); ++k) CHECK((maximize ? seen[k] > seen[k - 1] : seen[k] < seen[k - 1]));
            if (!seen.empty()) CHECK(st.objective == std::optional<std::int64_t>(seen.back()));
            CHECK(s.level() == 0);
            CHECK(domain_words(s) == before);
        }
}

} // namespace

TEST_CASE("parallel branch and bound: the optimum of one thread, in strictly improving steps") {
    // N-queens with a weighted sum of queens as the cost, both ways.
    for (const propane::Consistency strength :
         std::initializer_list<propane::Consistency>{propane::value, propane::bounds, propane::domain}) {
        nqueens::Model<propane::BitDomain<1>> m(8, strength);
        const IntVar cost = m.store.int_var(-30, 30);
        m.store.post(propane::linear(std::vector<int>{1, -1, 2, -3, 1}, std::vector<IntVar>{m.q[0], m.q[7], m.q[3], m.q[5], cost},
                                     propane::Rel::eq, 0));
        check_optimum(m.store, m.q, propane::Strategy{}, cost, false);
        check_optimum(m.store, m.q, propane::Strategy{.var = propane::smallest_domain, .val = propane::split_value},
                      cost, true);
        // The objective as a view: q[2] * 3 - 1.
        check_optimum(m.store, m.q, propane::Strategy{}, 3 * m.q[2] - 1, true);
    }
    Rng rng{4242};
    int with_optimum = 0;
    for (int k = 0; k < 60; ++k) {
        CAPTURE(k);
        Store s;
        const std::vector<IntVar> vars = random_model(s, rng);
        const IntVar goal = vars[static_cast<std::size_t>(rng.between(0, static_cast<int>(vars.size()) - 1))];
        Store probe = s;
        with_optimum += propane::minimize(probe, vars, propane::Strategy{}, {}, goal).objective ? 1 : 0;
        // Drawn one by one: the order of a call's arguments is the compiler's.
        const propane::Strategy strategy = random_strategy(rng);
        const bool maximize = rng.between(0, 1) == 1;
        check_optimum(s, vars, strategy, goal, maximize);
    }
    CHECK(with_optimum > 10);
}

TEST_CASE("parallel branch and bound: limits, stop, one thread, history-dependent strategies") {
    nqueens::Model<propane::BitDomain<1>> m(10, propane::bounds);
    const IntVar cost = m.store.int_var(-36, 18);
    m.store.post(propane::linear(std::vector<int>{3, -2, 1, 1}, std::vector<IntVar>{m.q[0], m.q[9], m.q[4], cost},
                                 propane::Rel::eq, 0));
    const propane::Parallel two{.threads = 2};
    std::uint64_t calls = 0;
    const auto count = [&](const auto&) { ++calls; };
    // A solution limit counts improving solutions: exactly that many.
    const propane::OptimizeStats first = propane::minimize(m.store, m.q, propane::Strategy{}, {.solutions = 1}, two, cost, count);
    CHECK(calls == 1);
    CHECK(first.solutions == 1);
    CHECK(first.outcome == propane::Outcome::solution_limit);
    CHECK(first.objective.has_value());
    // The same with a slow visitor: while the first call sleeps, the other
    // worker finds a better solution and waits for its turn; when it gets
    // it, the limit has been reached and it must deliver nothing.
    for (int k = 0; k < 3; ++k) {
        calls = 0;
        const propane::OptimizeStats slow = propane::minimize(m.store, m.q, propane::Strategy{}, {.solutions = 1}, two, cost,
                                                              [&](const auto&) {
                                                                  ++calls;
                                                                  std::this_thread::sleep_for(std::chrono::milliseconds(30));
                                                              });
        CHECK(calls == 1);
        CHECK(slow.solutions == 1);
    }
    // A stop at the second improvement stops every worker.
    calls = 0;
    const propane::OptimizeStats stopped = propane::minimize(m.store, m.q, propane::Strategy{}, {}, two, cost, [&](const auto&) {
        return ++calls == 2 ? propane::stop : propane::next;
    });
    CHECK(calls == 2);
    CHECK(stopped.outcome == propane::Outcome::stopped);
    CHECK_FALSE(stopped.complete());
    CHECK(m.store.level() == 0);
    // One thread is the one-thread search, statistics and all.
    const propane::OptimizeStats seq = propane::minimize(m.store, m.q, propane::Strategy{}, {}, cost);
    const propane::OptimizeStats par = propane::minimize(m.store, m.q, propane::Strategy{}, {}, propane::Parallel{.threads = 1}, cost);
    CHECK(par.objective == seq.objective);
    CHECK(par.branches == seq.branches);
    CHECK(par.failures == seq.failures);
    CHECK(par.solutions == seq.solutions);
    // Strategies that depend on the search's history: the same optimum.
    const propane::OptimizeStats most = propane::maximize(m.store, m.q, propane::Strategy{}, {}, cost);
    REQUIRE(seq.complete());
    REQUIRE(most.complete());
    const propane::OptimizeStats random_par =
        propane::minimize(m.store, m.q, propane::Strategy{.val = propane::random_value, .seed = 5}, {}, two, cost);
    CHECK(random_par.complete());
    CHECK(random_par.objective == seq.objective);
    const propane::OptimizeStats restarts_par = propane::maximize(
        m.store, m.q, propane::Strategy{.var = propane::dom_wdeg, .restarts = {propane::RestartPolicy::luby, 10, 2.0}}, {},
        two, cost);
    CHECK(restarts_par.complete());
    CHECK(restarts_par.objective == most.objective);
    CHECK(m.store.level() == 0);
}

TEST_CASE("parallel: under a branch limit, every solution the workers found reaches the visitor, in order") {
    // Six free variables over 0..9: every leaf is a solution, one thread
    // finds them in lexicographic order, and each subproblem of the split
    // (the first two values fixed) holds 10,000 of them. A limit 50 branches
    // past the split's own lets the workers find a few (a solution every
    // two branches at the last variable) but finish no subproblem nor fill
    // a batch of 64, so nothing reaches the calling thread before the
    // limit: the ordered mode used to deliver none of them.
    Store s;
    const std::vector<IntVar> x = s.int_vars(6, 0, 9);
    const propane::Strategy strategy{};
    for (const unsigned threads : {2U, 3U})
        for (const bool ordered : {true, false}) {
            const propane::Parallel p{.threads = threads, .ordered = ordered};
            CAPTURE(text(p));
            const std::uint64_t top = propane::split(s, x, strategy, threads * p.subproblems_per_worker).top.branches;
            const propane::Limits limits{.branches = top + 50};
            const Run r = run(s, x, strategy, limits, &p);
            CHECK(r.stats.outcome == propane::Outcome::branch_limit);
            CHECK(r.stats.branches >= limits.branches);
            CHECK(r.stats.solutions == r.solutions.size());
            // 50 branches over at most 3 workers, 4 to reach each one's
            // first solution, then one per 2 branches.
            CHECK(r.solutions.size() >= 16);
            if (ordered) {
                CHECK(std::is_sorted(r.solutions.begin(), r.solutions.end()));
                CHECK(std::adjacent_find(r.solutions.begin(), r.solutions.end()) == r.solutions.end());
            } else {
                CHECK(std::set<std::vector<int>>(r.solutions.begin(), r.solutions.end()).size() == r.solutions.size());
            }
            CHECK(s.level() == 0);
        }
}

TEST_CASE("parallel: under a failure limit, the solutions delivered are in the one-thread order") {
    nqueens::Model<propane::BitDomain<1>> m(9, propane::value);
    const Run all = run(m.store, m.q, propane::Strategy{}, {}, nullptr);
    for (const std::uint64_t k : {all.stats.failures / 4, all.stats.failures / 2, all.stats.failures - 1}) {
        CAPTURE(k);
        const propane::Parallel p{.threads = 3, .ordered = true};
        const Run r = run(m.store, m.q, propane::Strategy{}, {.failures = k}, &p);
        CHECK(r.stats.outcome == propane::Outcome::failure_limit);
        CHECK(r.stats.solutions == r.solutions.size());
        // A subsequence of the one-thread order.
        auto at = all.solutions.begin();
        for (const auto& sol : r.solutions) {
            at = std::find(at, all.solutions.end(), sol);
            REQUIRE(at != all.solutions.end());
            ++at;
        }
    }
}

TEST_CASE("parallel: a progress period of nanoseconds::max() means no report at all") {
    nqueens::Model<propane::BitDomain<1>> m(9, propane::value);
    std::uint64_t calls = 0; // the reports come on the calling thread
    const auto count = [&calls](const propane::ParallelProgress&) { ++calls; };
    for (const unsigned threads : {1U, 2U})
        for (const bool ordered : {true, false}) {
            const propane::Parallel p{.threads = threads,
                                      .ordered = ordered,
                                      .progress = count,
                                      .progress_period = std::chrono::nanoseconds::max()};
            CAPTURE(text(p));
            calls = 0;
            const Run r = run(m.store, m.q, propane::Strategy{}, {}, &p);
            CHECK(r.stats.solutions == 352);
            CHECK(calls == 0);
            calls = 0;
            const propane::OptimizeStats best =
                propane::minimize(m.store, m.q, propane::Strategy{}, {}, p, m.q[0]);
            CHECK(best.objective == 0);
            CHECK(calls == 0);
        }
}

TEST_CASE("parallel: a visitor that searches, or posts to, the store being searched gets model_error") {
    // The workers search copies, but the store is held as running from the
    // call to its end: searching or changing it from the visitor would race
    // with the copies (unordered) and break the rule of one search at a time.
    nqueens::Model<propane::BitDomain<1>> m(8, propane::value);
    Store& s = m.store;
    const auto before = domain_words(s);
    const auto noop = [](const auto&) {};
    const auto searches = [&](const auto&) { propane::solve(s, m.q, propane::Strategy{}, {.solutions = 1}, noop); };
    const auto searches_on_threads = [&](const auto&) {
        propane::solve(s, m.q, propane::Strategy{}, {}, propane::Parallel{.threads = 2}, noop);
    };
    const auto posts = [&](const auto&) { s.post(propane::rel(m.q[0], propane::Rel::ne, m.q[7])); };
    const auto pushes = [&](const auto&) { s.push_level(); };
    // A copy is another store: searching it is fine.
    std::atomic<std::uint64_t> in_copies{0};
    const auto searches_a_copy = [&](const auto& sol) {
        Store copy(sol.store());
        in_copies += propane::solve(copy, m.q, propane::Strategy{}, {}, noop).solutions;
    };
    for (const bool ordered : {true, false}) {
        const propane::Parallel p{.threads = 2, .ordered = ordered};
        CAPTURE(text(p));
        const propane::Strategy st{};
        CHECK_THROWS_AS(propane::solve(s, m.q, st, {}, p, searches), propane::model_error);
        CHECK_THROWS_AS(propane::solve(s, m.q, st, {}, p, searches_on_threads), propane::model_error);
        CHECK_THROWS_AS(propane::solve(s, m.q, st, {}, p, posts), propane::model_error);
        CHECK_THROWS_AS(propane::solve(s, m.q, st, {}, p, pushes), propane::model_error);
        CHECK_THROWS_AS(propane::minimize(s, m.q, st, {}, p, m.q[0], searches), propane::model_error);
        CHECK(s.level() == 0);
        CHECK(domain_words(s) == before);
        in_copies = 0;
        CHECK(propane::solve(s, m.q, st, {}, p, searches_a_copy).solutions == 92);
        CHECK(in_copies == 92);
        // Afterwards the store is free again.
        CHECK(run(s, m.q, st, {}, &p).stats.solutions == 92);
    }
}

TEST_CASE("parallel: a second thread that searches a store while a search runs on it gets model_error") {
    // Thread A's visitor holds its search open on a latch until the main
    // thread has tried the same store, so the try always falls inside A's
    // search, whichever thread gets there first; then A goes on and must
    // find every solution.
    nqueens::Model<propane::BitDomain<1>> m(8, propane::value);
    Store& s = m.store;
    const auto before = domain_words(s);
    const auto noop = [](const auto&) {};
    const char* const modes[] = {"one thread", "ordered on 2 threads", "unordered on 2 threads"};
    const char* const tries[] = {"solve", "solve on 2 threads", "post", "minimize on 2 threads", "Search"};
    for (int mode = 0; mode < 3; ++mode)
        for (int attempt = 0; attempt < 5; ++attempt) {
            const std::string mode_name = modes[mode], try_name = tries[attempt];
            CAPTURE(mode_name);
            CAPTURE(try_name);
            std::latch a_running(1), tried(1);
            std::atomic<bool> signalled{false};
            const auto signal = [&] {
                if (!signalled.exchange(true)) a_running.count_down();
            };
            std::uint64_t a_solutions = 0;
            bool a_failed = false;
            std::thread a([&] {
                const auto hold = [&](const auto&) {
                    if (!signalled.load()) {
                        signal();
                        tried.wait();
                    }
                };
                try {
                    const propane::Parallel p{.threads = 2, .ordered = mode == 1};
                    a_solutions = mode == 0 ? propane::solve(s, m.q, propane::Strategy{}, {}, hold).solutions
                                            : propane::solve(s, m.q, propane::Strategy{}, {}, p, hold).solutions;
                } catch (...) {
                    a_failed = true;
                }
                signal();
            });
            a_running.wait();
            bool refused = false;
            try {
                switch (attempt) {
                case 0: propane::solve(s, m.q, propane::Strategy{}, noop); break;
                case 1: propane::solve(s, m.q, propane::Strategy{}, {}, propane::Parallel{.threads = 2}, noop); break;
                case 2: s.post(propane::rel(m.q[0], propane::Rel::ne, m.q[7])); break;
                case 3: propane::minimize(s, m.q, propane::Strategy{}, {}, propane::Parallel{.threads = 2}, m.q[0]); break;
                default: {
                    propane::Search search(s, m.q);
                    (void)search.next();
                }
                }
            } catch (const propane::model_error&) {
                refused = true;
            }
            tried.count_down();
            a.join();
            CHECK(refused);
            CHECK_FALSE(a_failed);
            CHECK(a_solutions == 92);
            CHECK(s.level() == 0);
            CHECK(domain_words(s) == before);
        }
}

TEST_CASE("parallel: two threads that race to search one store each get a whole search or model_error") {
    // No latch here: the threads start together, so one search may end
    // just as the other starts. Each must then get the store whole or not
    // at all; a search that read the store after giving it up (its
    // propagation count, once) raced with the next one, which only
    // ThreadSanitizer sees, in about one round of 600.
    int refused = 0, searched = 0;
    for (int round = 0; round < 300; ++round) {
        nqueens::Model<propane::BitDomain<1>> m(6, propane::value);
        std::atomic<int> errors{0}, whole{0};
        const auto body = [&] {
            try {
                if (propane::solve(m.store, m.q, propane::Strategy{}, [](const auto&) {}).solutions == 4) ++whole;
            } catch (const propane::model_error&) {
                ++errors;
            }
        };
        std::thread a(body), b(body);
        a.join();
        b.join();
        CHECK(errors + whole == 2);
        CHECK(whole >= 1);
        refused += errors;
        searched += whole;
        CHECK(m.store.level() == 0);
    }
    MESSAGE(searched << " searches, " << refused << " refused");
}
