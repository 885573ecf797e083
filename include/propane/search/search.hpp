#ifndef PROPANE_SEARCH_SEARCH_HPP
#define PROPANE_SEARCH_SEARCH_HPP

// Depth-first search with binary branching: at each node choose a view x and
// a decision, try its left branch (x = v, or x <= v when splitting), and when
// that subtree is exhausted take the right branch (x != v, or x > v) and
// choose again, possibly the same view. The path is an explicit stack of
// open left branches, so depth is limited by memory, not by the call stack;
// the stack and the trail grow once and are reused, so a node allocates
// nothing.
//
// Two forms share one engine:
//   Search search(store, vars, strategy, limits); while (search.next()) { ... }
//   SearchStats st = solve(store, vars, strategy, limits, visitor);  // solve.hpp
// Either way the store is back at its root state when the search ends, is
// stopped, or is destroyed (an exception from a visitor included). Without
// vars (Search search(store, strategy, limits)) the views are every
// variable of the store, in creation order.
//
// A solution is a whole assignment: once the views are fixed, the search
// decides every other open variable of the store before it reports one
// (Strategy::assign_all in strategy.hpp, which can turn that off for
// variables that the views define).
//
// Branch and bound is the same engine given an objective:
//   Search search(store, vars, strategy, limits, minimizing(cost));
//   while (search.next()) { ... search.objective() ... }
// (or minimize() and maximize() in optimize.hpp, which drive it with a
// visitor). Each solution is strictly better than the one before, and once
// next() returns false after a complete search the last one was optimal.
// The store refuses posts during a search, and a pop restores the queue
// saved with its level, so the bound cannot be a posted constraint: the
// search itself tightens the objective's domain, a trailed update like any
// other, at every node it resumes (each right branch, and the root after a
// restart), before propagating there. After an improvement it first tests
// the new bound up to probe_distance levels above the node it resumes, so
// that a subtree the bound empties goes as one failure, not one failure per
// pending right branch, as with Gecode's BAB (probe()). Without an
// objective that costs one test per backtrack.
//
// Rules the search checks (model_error when broken): one search runs on a
// store at a time (from its first next() until it ends), whichever threads
// they run on; while it runs,
// nothing may post to the store or push or pop its levels; a search whose
// store was moved from, assigned over or destroyed throws from next()
// instead of touching it. Several searches may exist over one store and run
// one after the other.
//
// What throws: the constructor, model_error for a view or objective of
// another store and for restart settings that make no sense; next(),
// model_error for a broken rule above or a callable chooser that breaks
// its contract (strategy.hpp), and whatever a chooser or progress
// callback throws, after which the search is over. With the built-in
// choosers and no callbacks, a search whose rules hold never throws from
// its nodes (std::bad_alloc aside, while its stacks first grow).
//
// The strategy's variable and value choosers are template parameters: a
// built-in choice (an enum, dispatched by a switch) or any callable, so a
// user's chooser is inlined rather than called through a pointer.

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <memory>
#include <optional>
#include <ranges>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "../engine/error.hpp"
#include "choose.hpp"
#include "clock.hpp"
#include "gate.hpp"
#include "callback.hpp"
#include "limits.hpp"
#include "objective.hpp"
#include "owned.hpp"
#include "solution.hpp"
#include "stats.hpp"
#include "strategy.hpp"
#include "../engine/store.hpp"
#include "../engine/view.hpp"

#if defined(__GNUC__)
#define PROPANE_SEARCH_COLD [[gnu::cold, gnu::noinline]]
#else
#define PROPANE_SEARCH_COLD
#endif

namespace propane {

namespace detail {

template <class Store, class View>
class StoreClaim;

} // namespace detail

// ---- the engine ----------------------------------------------------------------

template <class Store, class View = IntVar, class VarSel = VarChoice, class ValSel = ValChoice>
class Search {
public:
    using strategy_type = BasicStrategy<VarSel, ValSel>;
    using clock = std::chrono::steady_clock;

    // Throws model_error if a view is not of this store or the restart
    // settings make no sense (scale 0, or geometric growth <= 1).
    template <std::ranges::input_range R>
    Search(Store& s, const R& vars, strategy_type strategy = {}, Limits limits = {})
        : Search(s, std::vector<View>(std::ranges::begin(vars), std::ranges::end(vars)), std::move(strategy), limits,
                 Init{}) {}
    // Branch and bound on `objective`, a view of this store (model_error
    // otherwise). Restarts go on after solutions here: the bound keeps a
    // solution from being found twice.
    template <std::ranges::input_range R, propane::View<Store> V>
    Search(Store& s, const R& vars, strategy_type strategy, Limits limits, Objective<V> objective)
        : Search(s, vars, std::move(strategy), limits) {
        s.check(objective.view.var(), "objective");
        objective_var_ = objective.view.var().index();
        objective_ =
            detail::Owned<detail::ErasedObjective<Store>>(new detail::ObjectiveOf<Store, V>(std::move(objective)));
    }
    template <std::ranges::input_range R, propane::View<Store> V>
    Search(Store& s, const R& vars, strategy_type strategy, Objective<V> objective)
        : Search(s, vars, std::move(strategy), Limits{}, std::move(objective)) {}
    // Without views: every variable of the store, in creation order (so
    // variables made after this are not among them).
    explicit Search(Store& s, strategy_type strategy = {}, Limits limits = {})
        requires std::same_as<View, IntVar>
        : Search(s, every_var(s), std::move(strategy), limits, Init{}) {}
    template <propane::View<Store> V>
    Search(Store& s, strategy_type strategy, Limits limits, Objective<V> objective)
        requires std::same_as<View, IntVar>
        : Search(s, every_var(s), std::move(strategy), limits, std::move(objective)) {}
    template <propane::View<Store> V>
    Search(Store& s, strategy_type strategy, Objective<V> objective)
        requires std::same_as<View, IntVar>
        : Search(s, every_var(s), std::move(strategy), Limits{}, std::move(objective)) {}
    Search(const Search&) = delete;
    Search& operator=(const Search&) = delete;
    // The constructor that does the work, and the destructor, are defined
    // below, out of the class, for the reason next() is.
    ~Search();

    // Advances to the next solution; false once there is none left or a
    // limit stopped the search (stats().outcome says which). After true,
    // solution() reads it; the store holds it until the next call.
    // Defined below, out of the class and not inline, so that an explicit
    // instantiation declaration (propane/compiled.hpp) keeps a model's file
    // from instantiating the search loop.
    bool next();

    // Ends the search early: the statistics say it was stopped and the
    // store returns to its root state.
    void stop() {
        if (state_ != State::done) finish(Outcome::stopped);
    }

    // Calls f(*this) about every `period` of search time, between two nodes,
    // for a progress display: f may read stats() and progress().
    void on_progress(detail::Callback<void(const Search&)> f, std::chrono::nanoseconds period) {
        progress_fn_ = std::move(f);
        progress_period_ = period;
        next_progress_ = detail::add_saturated(stats_.wall_time, period);
        if (ticking()) check_at_ = std::min(check_at_, stats_.branches);
    }

    // An estimate of the share of the tree explored so far, in [0, 1]: each
    // decision x = v splits its node's share evenly over x's values, and a
    // split decision halves it. Exact for the first levels, good enough for
    // a progress line. Starts again at 0 after a restart.
    double progress() const noexcept { return stats_.outcome == Outcome::complete ? 1.0 : done_; }

    // The decision this search takes at the store's current node, its
    // view's position in `var`, or nothing when every view is fixed there.
    // For split.hpp, whose walk over the top of the tree must make exactly
    // this search's choices; only for a search that has not started.
    std::optional<Decision> decide() {
        // The walk backtracks without telling us.
        first_ = 0;
        const int i = chooser_.var(*s_, vars_, first_);
        if (i < 0) return std::nullopt;
        Decision d = chooser_.value(*s_, at(i));
        d.var = static_cast<std::uint32_t>(i);
        d.right = false;
        return d;
    }

    // Polled at the checks from the first next() on (so set it before);
    // it must outlive the search. For parallel.hpp.
    void gate(detail::SearchGate* g) noexcept { gate_ = g; }

    Solution<Store, View> solution() const noexcept { return {*s_, vars_}; }
    const SearchStats& stats() const noexcept { return stats_; }
    const std::vector<View>& vars() const noexcept { return vars_; }
    // The objective's value at the last solution, the best so far; empty
    // before the first solution and without an objective.
    std::optional<std::int64_t> objective() const noexcept {
        return best_ ? std::optional<std::int64_t>(*best_) : std::nullopt;
    }

private:
    template <class, class>
    friend class detail::StoreClaim;

    // The store's registry, for StoreClaim, which the store does not befriend.
    static detail::SearchRegistry& registry(Store& s) noexcept { return s.searches_; }

    enum class State : std::uint8_t { fresh, running, done };
    enum class Step : std::uint8_t { solution, exhausted, stopped, restarted };
    struct Frame {
        int pos; // position in vars_ of the view branched on
        int value;
        int first; // first_ at the node, restored on backtrack
        Branch branch;
        double base; // progress share explored before the node
        double mass; // the node's share
        double left; // its left branch's share
        std::uint32_t log; // refuted_'s size when the frame was pushed
    };
    // A right branch taken, kept under branch and bound so that a node's
    // state can be rebuilt from its parent's (probe()).
    struct Refuted {
        int pos;
        int value;
        Branch branch;
    };

    struct Init {};
    Search(Store& s, std::vector<View> vars, strategy_type strategy, Limits limits, Init);

    const View& at(int i) const noexcept { return vars_[static_cast<std::size_t>(i)]; }

    // A handle to each variable of s, in creation order.
    static std::vector<IntVar> every_var(const Store& s) {
        std::vector<IntVar> vars;
        vars.reserve(static_cast<std::size_t>(s.num_vars()));
        for (int i = 0; i < s.num_vars(); ++i) vars.push_back(s.var(i));
        return vars;
    }

    // A time limit or a progress callback needs the clock read.
    bool ticking() const noexcept {
        return gate_ != nullptr || static_cast<bool>(progress_fn_) || limits_.time != std::chrono::nanoseconds::max();
    }

    // Takes the store, by one atomic test-and-set, before reading anything
    // of it that a search running on another thread may be writing: a
    // second thread that starts a search on the store by mistake gets
    // model_error instead of a race. Refused before anything starts, so
    // this search can run later.
    void claim() {
        if (!s_->searches_.try_start(&tie_))
            throw model_error("Search::next: another search is running on this store (a parallel solve's "
                              "included, until its workers and visitor are done); one search at a time (stop() "
                              "the other or let it finish first, or search a copy of the store)");
        state_ = State::running;
        root_level_ = s_->level();
        propagations0_ = s_->propagations();
    }

    // False when a bound from the gate leaves nothing at the root.
    bool start() {
        ++s_->search_starts_;
        chooser_.start(*s_);
        restart_at_ = chooser_.strategy().restarts.policy == RestartPolicy::none ? unlimited : budget(0);
        fail_check_at_ = std::min(limits_.failures, restart_at_);
        check_at_ = ticking() ? std::min(limits_.branches, stride_) : limits_.branches;
        // Assignments bound the depth by the number of variables decided
        // (the views, and the others with assign_all, or the objective's);
        // splits may go deeper, and then grow these once or twice, with
        // depth only.
        const int views = static_cast<int>(vars_.size());
        const int decided = chooser_.strategy().assign_all ? std::max(s_->num_vars(), views) : views + 1;
        s_->reserve_levels(root_level_ + decided + 2);
        stack_.reserve(static_cast<std::size_t>(decided) + 1);
        s_->push();
        if (!objective_ || !gate_) return true;
        adopt(gate_->bound());
        return !best_ || objective_->improve_on(*s_, *best_) != Change::failed;
    }

    bool settle(Step step) {
        if (step == Step::solution) return true;
        if (step == Step::exhausted) finish(Outcome::complete);
        else finish(halt_);
        return false;
    }

    // The search loop. From a consistent node, branch left until a solution;
    // from a failed node (or, when resuming, the last solution), take the
    // right branch of the newest open left branch.
    Step run(bool resume) {
        bool ok = !resume;
        for (;;) {
            if (ok) {
                const int i = chooser_.var(*s_, vars_, first_);
                if (i < 0) {
                    if (const int k = open_rest(); k >= 0) {
                        if (stats_.branches >= check_at_ && !check()) return Step::stopped;
                        ok = branch_rest(k);
                    } else if (!objective_ || record()) {
                        ++stats_.solutions;
                        done_ += mass_;
                        if (restart_at_ != unlimited && !objective_) {
                            restart_at_ = unlimited;
                            fail_check_at_ = limits_.failures;
                        }
                        return Step::solution;
                    } else {
                        // No better than a bound adopted on the way down: a failure.
                        ok = false;
                    }
                } else {
                    if (stats_.branches >= check_at_ && !check()) return Step::stopped;
                    const View& x = at(i);
                    const Decision d = chooser_.value(*s_, x);
                    ++stats_.branches;
                    const double left = d.branch == Branch::assign ? mass_ / x.size(*s_) : mass_ / 2;
                    stack_.push_back({i, d.value, first_, d.branch, done_, mass_, left, log_size()});
                    if (stack_.size() > stats_.max_depth) stats_.max_depth = stack_.size();
                    mass_ = left;
                    s_->push();
                    // Decisions are checked to keep a value on each side, so
                    // only propagation can fail here.
                    ok = take_left(x, d.branch, d.value) != Change::failed && s_->propagate();
                }
            } else {
                if (stack_.empty()) return Step::exhausted;
                if (stats_.branches >= check_at_ && !check()) return Step::stopped;
                const Frame f = stack_.back();
                stack_.pop_back();
                s_->pop();
                first_ = f.first;
                done_ = f.base + f.left;
                mass_ = f.mass - f.left;
                ++stats_.branches;
                if (objective_) {
                    if (stack_.size() < mark_ && !probe(f)) {
                        ok = false;
                    } else {
                        refuted_.resize(f.log);
                        refuted_.push_back({f.pos, f.value, f.branch});
                        Change c = take_right(f.pos, f.branch, f.value);
                        if (best_ && c != Change::failed && !bounded()) c = Change::failed;
                        ok = c != Change::failed && s_->propagate();
                    }
                } else {
                    ok = take_right(f.pos, f.branch, f.value) != Change::failed && s_->propagate();
                }
            }
            if (!ok) {
                ++stats_.failures;
                done_ += mass_;
                if (stats_.failures >= fail_check_at_) [[unlikely]] {
                    if (stats_.failures >= limits_.failures) {
                        halt_ = Outcome::failure_limit;
                        return Step::stopped;
                    }
                    // With the stack empty the tree is already exhausted,
                    // and the root level holds the failed state: no restart.
                    if (!stack_.empty()) {
                        const Change c = restart();
                        if (c != Change::none && c != Change::failed) return Step::restarted;
                        ok = c == Change::none;
                        if (!ok) ++stats_.failures;
                    }
                }
            }
        }
    }

    // ---- the variables outside the views -----------------------------------
    //
    // Decided once the views are fixed (Strategy::assign_all): a frame
    // whose pos is negative branches on store variable -1 - pos, always
    // x = min(x) then x != min(x). No open variable precedes the one a
    // frame on the stack branched on, there and below it, so the search
    // for the next one starts there rather than at variable 0.

    static int rest_var(const Frame& f) noexcept { return -1 - f.pos; }

    // The next store variable to decide at a node where the views are
    // fixed, -1 when there is none left: a solution.
    PROPANE_SEARCH_COLD int open_rest() const noexcept {
        if (!chooser_.strategy().assign_all)
            return objective_ && !s_->domain(objective_var_).fixed() ? objective_var_ : -1;
        const int n = s_->num_vars();
        int k = !stack_.empty() && stack_.back().pos < 0 ? rest_var(stack_.back()) : 0;
        while (k < n && s_->domain(k).fixed()) ++k;
        return k < n ? k : -1;
    }

    // Takes the left branch x = min(x) on store variable k; false when it fails.
    PROPANE_SEARCH_COLD bool branch_rest(int k) {
        const auto& d = s_->domain(k);
        const int value = d.min();
        ++stats_.branches;
        const double left = mass_ / d.size();
        stack_.push_back({-1 - k, value, first_, Branch::assign, done_, mass_, left, log_size()});
        if (stack_.size() > stats_.max_depth) stats_.max_depth = stack_.size();
        mass_ = left;
        s_->push();
        return s_->assign_at(k, value) != Change::failed && s_->propagate();
    }

    // The left branch of a decision on view x, and the right branch of a
    // frame's decision (on a view, or on a store variable when pos < 0).
    Change take_left(const View& x, Branch branch, int value) {
        return branch == Branch::assign  ? x.assign(*s_, value)
               : branch == Branch::split ? x.remove_above(*s_, value)
                                         : x.remove_below(*s_, value + 1);
    }
    Change take_right(int pos, Branch branch, int value) {
        if (pos < 0) [[unlikely]]
            return s_->remove_at(-1 - pos, value);
        const View& x = at(pos);
        return branch == Branch::assign  ? x.remove(*s_, value)
               : branch == Branch::split ? x.remove_below(*s_, value + 1)
                                         : x.remove_above(*s_, value);
    }

    std::uint32_t log_size() const noexcept { return static_cast<std::uint32_t>(refuted_.size()); }

    // Branch and bound after a better bound: the nodes on the path were
    // entered before it existed, and resuming at the deepest open right
    // branch would fail the right branches one at a time wherever the
    // bound empties a whole subtree. Instead the bound is tested at an
    // ancestor, up to probe_distance levels above: when propagation fails
    // there, every frame from it down goes at once, a single failure;
    // otherwise the decisions below it are taken again (the left branch of
    // each frame and the right branches taken at each level since, from
    // refuted_) under the bound, and any that fails drops the frames below
    // it. Each node is probed once per bound, so the replays cost at most
    // the depth of the path per improvement. f is the frame being
    // resumed, already popped, the store at its node. False when a node on
    // the way failed: the stack then ends above that node, which the store
    // holds, and done_ and mass_ are the failed node's.
    PROPANE_SEARCH_COLD bool probe(const Frame& f) {
        const std::size_t t = stack_.size();
        const auto frame = [&](std::size_t k) -> const Frame& { return k < t ? stack_[k] : f; };
        const auto fail_at = [&](std::size_t k) {
            done_ = frame(k).base;
            mass_ = frame(k).mass;
            stack_.resize(k);
            return false;
        };
        const std::size_t j = t > probe_distance ? t - probe_distance : 0;
        mark_ = j;
        if (j == t) return true;
        s_->unwind_to(root_level_ + 1 + static_cast<int>(j));
        if (!bounded() || !s_->propagate()) return fail_at(j);
        for (std::size_t i = j; i < t; ++i) {
            const Frame& g = stack_[i];
            const std::uint32_t end = i + 1 < t ? stack_[i + 1].log : f.log;
            s_->push();
            bool ok = g.pos >= 0 ? take_left(at(g.pos), g.branch, g.value) != Change::failed
                                 : s_->assign_at(rest_var(g), g.value) != Change::failed;
            for (std::uint32_t k = g.log; ok && k < end; ++k)
                ok = take_right(refuted_[k].pos, refuted_[k].branch, refuted_[k].value) != Change::failed;
            if (!ok || !s_->propagate()) return fail_at(i + 1);
        }
        return true;
    }

    // At a solution: its objective value becomes the bound. False when it
    // is no better than the bound: only after adopt(), whose bound applies
    // from the next backtrack on, so a descent begun before may end worse.
    // The objective is fixed here: its variable is decided with the rest.
    PROPANE_SEARCH_COLD bool record() {
        const int value = objective_->value(*s_);
        if (best_ && !objective_->better(value, *best_)) return false;
        best_ = value;
        mark_ = stack_.size();
        return true;
    }

    // A bound found elsewhere, if better than this search's.
    PROPANE_SEARCH_COLD void adopt(std::optional<int> bound) {
        if (bound && (!best_ || objective_->better(*bound, *best_))) {
            best_ = bound;
            mark_ = stack_.size();
        }
    }

    // Applies the bound at the current node; false when nothing better is left there.
    bool bounded() { return objective_->improve_on(*s_, *best_) != Change::failed; }

    // Called when branches reach check_at_. False when a limit stops the
    // search. The stride between clock readings doubles while readings come
    // less than half a millisecond apart and halves above two.
    bool check() {
        if (stats_.branches >= limits_.branches) {
            halt_ = Outcome::branch_limit;
            return false;
        }
        if (ticking()) {
            // Measured in search time, so the caller's time between next()
            // calls neither counts nor looks like a short stride.
            stats_.wall_time = wall_base_ + (clock::now() - call_start_);
            const auto since = stats_.wall_time - last_tick_;
            if (since < std::chrono::microseconds(500) && stride_ < (std::uint64_t{1} << 24)) stride_ *= 2;
            else if (since > std::chrono::milliseconds(2) && stride_ > 1) stride_ /= 2;
            last_tick_ = stats_.wall_time;
            if (stats_.wall_time >= limits_.time) {
                halt_ = Outcome::time_limit;
                return false;
            }
            if (gate_) {
                const Outcome o = gate_->poll(stats_, limits_);
                if (o != Outcome::running) {
                    halt_ = o;
                    return false;
                }
                fail_check_at_ = std::min(limits_.failures, restart_at_);
                if (objective_) adopt(gate_->bound());
            }
            if (progress_fn_ && stats_.wall_time >= next_progress_) {
                next_progress_ = detail::add_saturated(stats_.wall_time, progress_period_);
                stats_.propagations = s_->propagations() - propagations0_;
                progress_fn_(*this);
            }
        }
        check_at_ = ticking() ? std::min(limits_.branches, stats_.branches + stride_) : limits_.branches;
        return true;
    }

    std::uint64_t budget(std::uint64_t run) const noexcept {
        const Restarts& r = chooser_.strategy().restarts;
        double b = static_cast<double>(r.scale);
        switch (r.policy) {
        case RestartPolicy::luby: b *= static_cast<double>(detail::luby(run + 1)); break;
        case RestartPolicy::geometric:
            for (std::uint64_t i = 0; i < run && b < 1e18; ++i) b *= r.growth;
            break;
        case RestartPolicy::linear: b *= static_cast<double>(run + 1); break;
        case RestartPolicy::none: break;
        }
        return b >= 1e18 ? std::uint64_t{1'000'000'000'000'000'000} : static_cast<std::uint64_t>(b);
    }

    // Starts again from the root, which is at its fixpoint, and applies the
    // bound there (the root level may predate the best solution): what that
    // changed, none without a best solution.
    PROPANE_SEARCH_COLD Change restart() {
        s_->unwind_to(root_level_ + 1);
        stack_.clear();
        refuted_.clear();
        mark_ = 0;
        first_ = 0;
        done_ = 0;
        mass_ = 1;
        ++stats_.restarts;
        restart_at_ = stats_.failures + budget(stats_.restarts);
        fail_check_at_ = std::min(limits_.failures, restart_at_);
        return best_ ? objective_->improve_on(*s_, *best_) : Change::none;
    }

    // Pops every level this search pushed (unless the store is gone).
    void unwind() noexcept {
        if (state_ == State::running && tie_.attached) {
            s_->unwind_to(root_level_);
            s_->searches_.end(&tie_);
        }
        stack_.clear();
        refuted_.clear();
        mark_ = 0;
        state_ = State::done;
    }

    void finish(Outcome o) {
        stats_.outcome = o;
        if (state_ == State::running && tie_.attached) stats_.propagations = s_->propagations() - propagations0_;
        unwind();
    }

    Store* s_;
    detail::SearchTie tie_;
    std::vector<View> vars_;
    detail::Chooser<Store, View, VarSel, ValSel> chooser_;
    Limits limits_;
    std::vector<Frame> stack_;
    std::vector<Refuted> refuted_; // right branches taken on the path, under branch and bound
    std::size_t mark_ = 0;         // frames below this were entered before the bound
    // Gecode's default copy distance, at which its branch and bound posts a
    // new bound above the node it resumes; measured best of 1..64 on ft06
    // and la01..la05 (performance.md).
    static constexpr std::size_t probe_distance = 8;
    SearchStats stats_;
    State state_ = State::fresh;
    Outcome halt_ = Outcome::stopped; // why run() returned Step::stopped
    int root_level_ = 0;
    int first_ = 0; // no view before this position is unfixed
    std::uint64_t propagations0_ = 0;
    std::uint64_t restart_at_ = unlimited;    // failure count that triggers the next restart
    std::uint64_t fail_check_at_ = unlimited; // min(limits_.failures, restart_at_)
    std::uint64_t check_at_ = unlimited;      // branch count of the next check()
    std::uint64_t stride_ = 1;                // branches between clock readings
    double done_ = 0;                         // progress share explored
    double mass_ = 1;                         // the current node's share
    clock::time_point call_start_{};
    std::chrono::nanoseconds last_tick_{0}; // search time at the last clock reading
    std::chrono::nanoseconds wall_base_{0}; // search time before this next() call
    detail::Callback<void(const Search&)> progress_fn_;
    std::chrono::nanoseconds progress_period_{0};
    std::chrono::nanoseconds next_progress_{0};
    detail::SearchGate* gate_ = nullptr;
    detail::Owned<detail::ErasedObjective<Store>> objective_; // null: not branch and bound
    std::optional<int> best_;                                   // the incumbent's objective value
    int objective_var_ = -1;                                    // the store variable under the objective
};

template <class Store, class View, class VarSel, class ValSel>
Search<Store, View, VarSel, ValSel>::Search(Store& s, std::vector<View> vars, strategy_type strategy, Limits limits,
                                            Init)
    : s_(&s), vars_(std::move(vars)), chooser_(std::move(strategy)), limits_(limits) {
    for (const View& v : vars_) s.check(v.var(), "Search");
    const Restarts& r = chooser_.strategy().restarts;
    if (r.policy != RestartPolicy::none && r.scale == 0)
        throw model_error("restarts need a failure budget (scale) of at least 1");
    if (r.policy == RestartPolicy::geometric && !(r.growth > 1.0 && r.growth <= std::numeric_limits<double>::max()))
        throw model_error(detail::formatted("geometric restarts need a growth factor > 1, got %f", r.growth));
    stack_.reserve(vars_.size() + 1);
    // Last, so a constructor that throws leaves nothing registered.
    s.searches_.attach(&tie_);
}

template <class Store, class View, class VarSel, class ValSel>
Search<Store, View, VarSel, ValSel>::~Search() {
    unwind();
    if (tie_.attached) s_->searches_.detach(&tie_);
}

template <class Store, class View, class VarSel, class ValSel>
bool Search<Store, View, VarSel, ValSel>::next() {
    if (!tie_.attached) {
        state_ = State::done;
        throw model_error("Search::next: the store of this search was moved from, assigned over or destroyed");
    }
    // An ended search keeps its statistics as they were.
    if (state_ == State::done) return false;
    const bool fresh = state_ == State::fresh;
    if (fresh) claim();
    const auto t0 = clock::now();
    call_start_ = t0;
    bool found = false;
    try {
        if (stats_.solutions >= limits_.solutions) {
            finish(Outcome::solution_limit);
        } else if (stats_.failures >= limits_.failures) {
            finish(Outcome::failure_limit);
        } else {
            Step step = Step::restarted;
            if (fresh) {
                if (!start()) {
                    ++stats_.failures;
                    step = Step::exhausted;
                }
            } else {
                step = run(true);
            }
            // The root wants propagating at the start, and after a
            // restart whose bound pruned it. Here rather than in run(),
            // whose loop then keeps the store's propagate() inlined.
            while (step == Step::restarted) {
                if (s_->propagate()) {
                    step = run(false);
                } else {
                    ++stats_.failures;
                    step = Step::exhausted;
                }
            }
            found = settle(step);
        }
    } catch (...) {
        // A chooser or progress callback threw: the search cannot go on.
        finish(Outcome::stopped);
        throw;
    }
    // An ended search has counted them in finish(): the store may be
    // another thread's search's by now.
    if (found) stats_.propagations = s_->propagations() - propagations0_;
    stats_.wall_time = wall_base_ + (clock::now() - t0);
    wall_base_ = stats_.wall_time;
    return found;
}

template <class Store>
Search(Store&) -> Search<Store, IntVar>;
template <class Store, class VarSel, class ValSel>
Search(Store&, BasicStrategy<VarSel, ValSel>) -> Search<Store, IntVar, VarSel, ValSel>;
template <class Store, class VarSel, class ValSel>
Search(Store&, BasicStrategy<VarSel, ValSel>, Limits) -> Search<Store, IntVar, VarSel, ValSel>;
template <class Store, class VarSel, class ValSel, class V>
Search(Store&, BasicStrategy<VarSel, ValSel>, Objective<V>) -> Search<Store, IntVar, VarSel, ValSel>;
template <class Store, class VarSel, class ValSel, class V>
Search(Store&, BasicStrategy<VarSel, ValSel>, Limits, Objective<V>) -> Search<Store, IntVar, VarSel, ValSel>;
template <class Store, std::ranges::input_range R>
Search(Store&, const R&) -> Search<Store, std::ranges::range_value_t<R>>;
template <class Store, std::ranges::input_range R, class VarSel, class ValSel>
Search(Store&, const R&, BasicStrategy<VarSel, ValSel>) -> Search<Store, std::ranges::range_value_t<R>, VarSel, ValSel>;
template <class Store, std::ranges::input_range R, class VarSel, class ValSel>
Search(Store&, const R&, BasicStrategy<VarSel, ValSel>, Limits)
    -> Search<Store, std::ranges::range_value_t<R>, VarSel, ValSel>;
template <class Store, std::ranges::input_range R, class VarSel, class ValSel, class V>
Search(Store&, const R&, BasicStrategy<VarSel, ValSel>, Objective<V>)
    -> Search<Store, std::ranges::range_value_t<R>, VarSel, ValSel>;
template <class Store, std::ranges::input_range R, class VarSel, class ValSel, class V>
Search(Store&, const R&, BasicStrategy<VarSel, ValSel>, Limits, Objective<V>)
    -> Search<Store, std::ranges::range_value_t<R>, VarSel, ValSel>;

} // namespace propane

#undef PROPANE_SEARCH_COLD

// The push form comes with the engine, as it always has for code that
// includes this header alone.
#include "solve.hpp"

#endif
