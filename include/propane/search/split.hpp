#ifndef PROPANE_SEARCH_SPLIT_HPP
#define PROPANE_SEARCH_SPLIT_HPP

// The search tree cut into numbered subproblems, for Embarrassingly
// Parallel Search (Régin, Rezgui and Malapert, CP 2013): split() walks the
// top of the tree exactly as the depth-first search does, down to a depth
// that leaves at least the number of subproblems asked for, and lists the
// nodes at that depth in the search's order; solve_subproblem() replays
// one node's path on a store and searches what lies below it.
//
// The depth counts the branches that narrow a domain by a share: x = v, and
// both sides of a split (x <= v, x > v), but not x != v, as EPS cuts after
// the first variables are assigned. Counting x != v too would cut the
// chain x != v1, x != v2, ... after a few links and leave the rest of x's
// values in one subproblem: for N-queens that one held over half the tree,
// which no number of threads can then speed past 2x.
//
//   Split sp = split(store, vars, strategy, 60);
//   for (const Subproblem& sub : sp.subproblems)      // on any store copies,
//       solve_subproblem(copy, vars, strategy, {}, sub, visitor);  // anywhere
//
// The subproblems partition the tree: their solutions, in list order, are
// the search's solutions in its order, and top's branches and failures plus
// theirs are the search's (a solution above the cut depth is a subproblem
// of its own, whose search finds that one solution and takes no branch).
// The walk chooses with the search's own code (Search::decide), so the
// split cannot drift from the search. The list depends only on the model
// and the strategy, so every thread or process that splits the same model
// gets the same list.
//
// A strategy whose choices depend on the search's history splits too, but
// its subtrees are no longer those of one search: each subproblem is
// searched by a search of its own, so random_value draws from a stream
// started afresh at the strategy's seed, dom_wdeg weighs the failures seen
// by the copy of the store that searches it, and restarts go back to the
// subproblem's node. Every solution is still found exactly once (the
// subproblems partition the tree); the failures, the branches and the
// order of solutions within a subproblem depend on the split, and for
// dom_wdeg on which worker searched what before. A callable chooser must
// choose from the store alone: the workers each have a copy of it.

#include <chrono>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <ranges>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "../engine/error.hpp"
#include "../engine/store.hpp"
#include "limits.hpp"
#include "search.hpp"
#include "solution.hpp"
#include "solve.hpp"
#include "stats.hpp"
#include "strategy.hpp"

namespace propane {

struct Subproblem {
    std::vector<Decision> path; // from the root, in order
};

struct Split {
    std::vector<Subproblem> subproblems; // in the search's order
    SearchStats top;                     // branches and failures taken above the cut
    std::chrono::nanoseconds time{0};    // spent splitting
    unsigned depth = 0;                  // x = v and split branches on the path of a cut node
};

namespace detail {

// The left branches on sub's path: the search's stack holds them under the
// subtree's own, so its depth in the whole search is this plus its own.
inline std::uint64_t left_branches(const Subproblem& sub) noexcept {
    std::uint64_t n = 0;
    for (const Decision& d : sub.path) n += d.right ? 0 : 1;
    return n;
}

// Takes decision d (its left or its right branch) at the store's node.
template <class Store, class View>
Change take(Store& s, const View& x, const Decision& d) {
    if (d.branch == Branch::assign) return d.right ? x.remove(s, d.value) : x.assign(s, d.value);
    // A split's value is below max(x), so value + 1 cannot overflow.
    return d.right ? x.remove_below(s, d.value + 1) : x.remove_above(s, d.value);
}

// The top of the tree down to `depth` (x = v and split) branches, as
// Search::run explores it: each left branch in a level of its own, each
// right branch in its node's level, where the node then chooses again.
template <class Store, class Chooser, class View>
class TopWalk {
public:
    TopWalk(Store& s, Chooser& chooser, const std::vector<View>& vars, unsigned depth, Split& out)
        : s_(s), chooser_(chooser), vars_(vars), depth_(depth), out_(out) {}

    // From the root, at its fixpoint.
    void run() { node(0, 0); }
    // Whether some node was cut below: a deeper walk would find more.
    bool cut() const noexcept { return cut_; }

private:
    // lefts: the left branches above (the search's stack depth); level:
    // the branches above that count towards the cut depth.
    void node(std::uint64_t lefts, unsigned level) {
        const std::size_t entry = path_.size();
        for (;;) {
            const std::optional<Decision> d = chooser_.decide();
            if (!d || level >= depth_) {
                cut_ = cut_ || d.has_value();
                out_.subproblems.push_back({path_});
                break;
            }
            const View& x = vars_[d->var];
            ++out_.top.branches;
            if (lefts + 1 > out_.top.max_depth) out_.top.max_depth = lefts + 1;
            s_.push_level();
            path_.push_back(*d);
            if (take(s_, x, *d) != Change::failed && s_.propagate()) node(lefts + 1, level + 1);
            else ++out_.top.failures;
            path_.pop_back();
            s_.pop_level();
            ++out_.top.branches;
            Decision right = *d;
            right.right = true;
            path_.push_back(right);
            if (take(s_, x, right) == Change::failed || !s_.propagate()) {
                ++out_.top.failures;
                break;
            }
            if (d->branch == Branch::split) ++level;
        }
        path_.resize(entry);
    }

    Store& s_;
    Chooser& chooser_;
    const std::vector<View>& vars_;
    unsigned depth_;
    Split& out_;
    std::vector<Decision> path_;
    bool cut_ = false;
};

// One split at `depth`; the store is back at its root level after it,
// exception or not. False in `cut` when the whole tree lies above depth.
template <class Store, class View, class VarSel, class ValSel>
Split split_at(Store& s, const std::vector<View>& vars, const BasicStrategy<VarSel, ValSel>& strategy,
               unsigned depth, bool& cut) {
    Split out;
    out.depth = depth;
    const std::uint64_t propagations0 = s.propagations();
    const int root = s.level();
    Search<Store, View, VarSel, ValSel> chooser(s, vars, strategy);
    s.push_level();
    try {
        // The search's root, at the level Search::start pushes for it.
        if (s.propagate()) {
            TopWalk<Store, decltype(chooser), View> walk(s, chooser, vars, depth, out);
            walk.run();
            cut = walk.cut();
        } else {
            ++out.top.failures;
            cut = false;
        }
    } catch (...) {
        s.pop_to(root);
        throw;
    }
    s.pop_to(root);
    out.top.propagations = s.propagations() - propagations0;
    return out;
}

// A store brought from one subproblem's node to the next. Replaying each
// path from the root would redo the propagation at the top of the tree,
// where every view is open and a propagator's run costs the most, once per
// subproblem: with about a thousand of them that was 2-8% of N-queens'
// whole search (N = 12..14, bounds). The subproblems are numbered in the
// search's order and a worker takes them in increasing order, so the next
// path mostly shares all but its last decisions with the last one: reach()
// undoes only the decisions that differ and takes the rest.
//
// Levels are the unit of undoing. A left branch opens a level; a right
// branch is taken in the level of the left branch before it (or the root
// level), as the search does. To undo the decisions from position p on,
// the store pops to undo_[p], which may also drop some before p: those from
// from_[p] on, which are then taken again.
template <class Store, class View>
class Replay {
public:
    Replay(Store& s, const std::vector<View>& vars) : s_(s), vars_(vars), root_(s.level()) {}

    // The store at sub's node, at its fixpoint. Throws model_error if the
    // path does not fit these views or fails; the store is then back at
    // its level of entry.
    void reach(const Subproblem& sub) {
        for (const Decision& d : sub.path)
            if (d.var >= vars_.size())
                throw model_error("solve_subproblem: the path names view " + std::to_string(d.var) + " of " +
                                  std::to_string(vars_.size()) + "; it was not split from these views");
        std::size_t from = 0;
        if (at_root_level_) {
            std::size_t shared = 0;
            while (shared < path_.size() && shared < sub.path.size() && path_[shared] == sub.path[shared]) ++shared;
            from = shared;
            if (shared < path_.size()) {
                s_.pop_to(undo_[shared]);
                from = from_[shared];
                at_root_level_ = undo_[shared] != root_;
            }
        }
        path_.resize(from);
        undo_.resize(from);
        from_.resize(from);
        bool ok = true;
        if (!at_root_level_) {
            // The search's root, at the level Search::start pushes for it.
            s_.push_level();
            at_root_level_ = true;
            ok = s_.propagate();
        }
        for (std::size_t p = from; ok && p < sub.path.size(); ++p) {
            const Decision& d = sub.path[p];
            if (!d.right) {
                undo_.push_back(s_.level());
                from_.push_back(p);
                s_.push_level();
            } else {
                undo_.push_back(p == 0 ? root_ : undo_[p - 1]);
                from_.push_back(p == 0 ? 0 : from_[p - 1]);
            }
            path_.push_back(d);
            ok = take(s_, vars_[d.var], d) != Change::failed && s_.propagate();
        }
        if (!ok) {
            leave();
            throw model_error("solve_subproblem: the path fails when replayed, so it was not split from this "
                              "model (or a propagator or chooser does not give the same answer twice)");
        }
    }

    // Back to the level of entry.
    void leave() {
        s_.pop_to(root_);
        path_.clear();
        undo_.clear();
        from_.clear();
        at_root_level_ = false;
    }

    Store& store() const noexcept { return s_; }
    const std::vector<View>& views() const noexcept { return vars_; }

private:
    Store& s_;
    const std::vector<View>& vars_;
    int root_;
    bool at_root_level_ = false; // the search's root level is pushed and path_ taken
    std::vector<Decision> path_;
    std::vector<int> undo_;          // per decision: the level to pop to to undo it
    std::vector<std::size_t> from_;  // per decision: the first decision that pop undoes
};

// Brings `replay`'s store to sub's node, then searches below it with
// `gate` (may be null), by branch and bound if given a `goal` (an
// Objective), handing each solution to on_solution, which returns an
// Action. The store is back at sub's node afterwards (at the level of entry
// if this throws).
template <class Store, class View, class VarSel, class ValSel, class OnSolution, class... Goal>
SearchStats search_subproblem(Replay<Store, View>& replay, const BasicStrategy<VarSel, ValSel>& strategy,
                              const Limits& limits, const Subproblem& sub, SearchGate* gate,
                              OnSolution&& on_solution, const Goal&... goal) {
    Store& s = replay.store();
    const std::uint64_t propagations0 = s.propagations();
    SearchStats st;
    try {
        replay.reach(sub);
        Search<Store, View, VarSel, ValSel> search(s, replay.views(), strategy, limits, goal...);
        search.gate(gate);
        while (search.next())
            if (on_solution(search.solution()) == Action::stop) {
                search.stop();
                break;
            }
        st = search.stats();
    } catch (...) {
        replay.leave();
        throw;
    }
    // The replay's propagation too: it is work this search did.
    st.propagations = s.propagations() - propagations0;
    return st;
}

} // namespace detail

// Splits the tree of solve(s, vars, strategy, ...) into at least
// `at_least` subproblems when it has that many nodes at some depth (fewer
// when the tree is smaller: then every leaf above the depth is listed, and
// `top` holds all the failures). The depth starts at one and grows until
// enough nodes survive: a node can have as many children as its variable
// has values, so a guess from at_least alone could overshoot by millions.
// Throws whatever the chooser throws; the store is back at its root state.
template <class Store, std::ranges::input_range R, class VarSel, class ValSel>
Split split(Store& s, const R& vars, const BasicStrategy<VarSel, ValSel>& strategy, std::size_t at_least) {
    using View = std::ranges::range_value_t<R>;
    const auto t0 = std::chrono::steady_clock::now();
    const std::vector<View> views(std::ranges::begin(vars), std::ranges::end(vars));
    unsigned depth = 1;
    Split out;
    for (;;) {
        bool cut = false;
        out = detail::split_at(s, views, strategy, depth, cut);
        if (out.subproblems.size() >= at_least || !cut) break;
        ++depth;
    }
    out.time = std::chrono::steady_clock::now() - t0;
    return out;
}

// Searches the subtree of `sub` (from split() of this model, strategy and
// views) on `s`, the model's store or a copy of it at the root state it was
// split in: replays the path, then searches below it, the visitor called as
// by solve(). The statistics are the subtree's, the path's branches not
// included (they are in the split's top). s is back at its root state
// afterwards, exception or not.
template <class Store, std::ranges::input_range R, class VarSel, class ValSel, class Visitor>
SearchStats solve_subproblem(Store& s, const R& vars, const BasicStrategy<VarSel, ValSel>& strategy,
                             const Limits& limits, const Subproblem& sub, Visitor&& visitor) {
    using View = std::ranges::range_value_t<R>;
    const std::vector<View> views(std::ranges::begin(vars), std::ranges::end(vars));
    detail::Replay<Store, View> replay(s, views);
    const SearchStats st = detail::search_subproblem(
        replay, strategy, limits, sub, nullptr, [&](const auto& solution) { return detail::visit_one(visitor, solution); });
    replay.leave();
    return st;
}

} // namespace propane

#endif
