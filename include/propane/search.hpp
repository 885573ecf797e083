#ifndef PROPANE_SEARCH_HPP
#define PROPANE_SEARCH_HPP

// Depth-first search with binary branching: at each node choose a view x and
// a value v, try x = v (left), and when that subtree is exhausted take
// x != v (right) and choose again, possibly the same view. The path is an
// explicit stack of open left branches, so depth is limited by memory, not
// by the call stack; the stack and the trail grow once and are reused, so a
// node allocates nothing.
//
// Two forms share one engine:
//   Search search(store, vars, strategy); while (search.next()) { ... }
//   SearchStats st = solve(store, vars, strategy, visitor);
// Either way the store is back at its root state when the search ends, is
// stopped, or is destroyed (an exception from a visitor included).

#include <chrono>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <ranges>
#include <type_traits>
#include <utility>
#include <vector>

#include "stats.hpp"
#include "view.hpp"

namespace propane {

enum class VarChoice : std::uint8_t { first_unbound, smallest_domain };
enum class ValChoice : std::uint8_t { min_value, max_value };

inline constexpr VarChoice first_unbound = VarChoice::first_unbound;
// Smallest domain first; ties go to the lowest index.
inline constexpr VarChoice smallest_domain = VarChoice::smallest_domain;
inline constexpr ValChoice min_value = ValChoice::min_value;
inline constexpr ValChoice max_value = ValChoice::max_value;

struct Strategy {
    VarChoice var = first_unbound;
    ValChoice val = min_value;
};

// What a visitor returns: go on to the next solution, or stop the search.
enum class Action : std::uint8_t { next, stop };
inline constexpr Action next = Action::next;
inline constexpr Action stop = Action::stop;

// A solution as the visitor sees it: the values of the search views (by
// position) and of any other view of the same store.
template <class Store, class View>
class Solution {
public:
    Solution(const Store& s, const std::vector<View>& vars) noexcept : s_(&s), vars_(&vars) {}
    std::size_t size() const noexcept { return vars_->size(); }
    int operator[](std::size_t i) const noexcept { return (*vars_)[i].value(*s_); }
    template <class V>
    int value(const V& v) const noexcept {
        return v.value(*s_);
    }
    const Store& store() const noexcept { return *s_; }

private:
    const Store* s_;
    const std::vector<View>* vars_;
};

template <class Store, class View = IntVar>
class Search {
public:
    template <std::ranges::input_range R>
    Search(Store& s, const R& vars, Strategy strategy = {})
        : s_(&s), vars_(std::ranges::begin(vars), std::ranges::end(vars)), strategy_(strategy) {
        for (const View& v : vars_) s.check(v.var());
        stack_.reserve(vars_.size() + 1);
    }
    Search(const Search&) = delete;
    Search& operator=(const Search&) = delete;
    ~Search() { unwind(); }

    // Advances to the next solution; false once there is none left. After
    // true, solution() reads it; the store holds it until the next call.
    bool next() {
        const auto t0 = std::chrono::steady_clock::now();
        bool found = false;
        if (state_ == State::fresh) {
            state_ = State::running;
            root_level_ = s_->level();
            propagations0_ = s_->propagations();
            s_->push_level();
            found = s_->propagate() ? descend() : fail_root();
        } else if (state_ == State::running) {
            found = backtrack() && descend();
        }
        if (!found && state_ == State::running) {
            stats_.complete = true;
            unwind();
        }
        stats_.propagations = s_->propagations() - propagations0_;
        stats_.wall_time += std::chrono::steady_clock::now() - t0;
        return found;
    }

    // Ends the search early: the statistics say it is incomplete and the
    // store returns to its root state.
    void stop() { unwind(); }

    Solution<Store, View> solution() const noexcept { return {*s_, vars_}; }
    const SearchStats& stats() const noexcept { return stats_; }
    const std::vector<View>& vars() const noexcept { return vars_; }

private:
    enum class State : std::uint8_t { fresh, running, done };
    struct Frame {
        int var; // position in vars_
        int val;
    };

    bool fail_root() {
        ++stats_.failures;
        return false;
    }

    // From a propagated node, branch left until a solution (true) or until
    // the whole remaining tree failed (false).
    bool descend() {
        for (;;) {
            const int i = choose_var();
            if (i < 0) {
                ++stats_.solutions;
                return true;
            }
            const View& x = vars_[static_cast<std::size_t>(i)];
            const int v = strategy_.val == min_value ? x.min(*s_) : x.max(*s_);
            ++stats_.branches;
            stack_.push_back({i, v});
            if (stack_.size() > stats_.max_depth) stats_.max_depth = stack_.size();
            s_->push_level();
            // v is in x's domain and x is not fixed, so this cannot fail.
            x.assign(*s_, v);
            if (s_->propagate()) continue;
            ++stats_.failures;
            if (!backtrack()) return false;
        }
    }

    // Leaves the newest left branch and takes its right branch, repeating
    // while that fails. False when the stack empties: the tree is done.
    bool backtrack() {
        while (!stack_.empty()) {
            const Frame f = stack_.back();
            stack_.pop_back();
            s_->pop_level();
            ++stats_.branches;
            if (vars_[static_cast<std::size_t>(f.var)].remove(*s_, f.val) != Change::failed && s_->propagate())
                return true;
            ++stats_.failures;
        }
        return false;
    }

    int choose_var() const {
        const int n = static_cast<int>(vars_.size());
        if (strategy_.var == first_unbound) {
            for (int i = 0; i < n; ++i)
                if (!vars_[static_cast<std::size_t>(i)].fixed(*s_)) return i;
            return -1;
        }
        int best = -1;
        unsigned best_size = 0;
        for (int i = 0; i < n; ++i) {
            const unsigned sz = vars_[static_cast<std::size_t>(i)].size(*s_);
            if (sz > 1 && (best < 0 || sz < best_size)) {
                best = i;
                best_size = sz;
            }
        }
        return best;
    }

    // Pops every level this search pushed.
    void unwind() noexcept {
        if (state_ == State::running)
            while (s_->level() > root_level_) s_->pop_level();
        stack_.clear();
        state_ = State::done;
    }

    Store* s_;
    std::vector<View> vars_;
    Strategy strategy_;
    std::vector<Frame> stack_;
    SearchStats stats_;
    State state_ = State::fresh;
    int root_level_ = 0;
    std::uint64_t propagations0_ = 0;
};

template <class Store, std::ranges::input_range R>
Search(Store&, const R&, Strategy = {}) -> Search<Store, std::ranges::range_value_t<R>>;

// Explores the tree, calling visitor(solution) once per solution. The
// visitor returns next or stop (or nothing, meaning next). wall_time counts
// the search only, not the time spent inside the visitor.
template <class Store, std::ranges::input_range R, class Visitor>
SearchStats solve(Store& s, const R& vars, Strategy strategy, Visitor&& visitor) {
    Search<Store, std::ranges::range_value_t<R>> search(s, vars, strategy);
    while (search.next()) {
        using Result = std::invoke_result_t<Visitor&, const Solution<Store, std::ranges::range_value_t<R>>&>;
        if constexpr (std::is_void_v<Result>) {
            visitor(search.solution());
        } else {
            static_assert(std::same_as<Result, Action>, "a visitor returns propane::next, propane::stop or nothing");
            if (visitor(search.solution()) == Action::stop) {
                search.stop();
                break;
            }
        }
    }
    return search.stats();
}

template <class Store, std::ranges::input_range R, class Visitor>
SearchStats solve(Store& s, const R& vars, Visitor&& visitor) {
    return solve(s, vars, Strategy{}, std::forward<Visitor>(visitor));
}

} // namespace propane

#endif
