#ifndef PROPANE_SEARCH_SPLIT_HPP
#define PROPANE_SEARCH_SPLIT_HPP

// The search tree cut into numbered subproblems, for Embarrassingly
// Parallel Search (Régin, Rezgui and Malapert, CP 2013): split() expands
// the top of the tree one level at a time, making the depth-first search's
// own choices, until the nodes of the last level (and the solutions above
// it) number at least what was asked for, and lists them in the search's
// order; solve_subproblem() replays one node's path on a store and
// searches what lies below it.
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
// theirs are the search's (a node above the cut depth where every view is
// fixed is a subproblem of its own, whose search decides the variables
// outside the views, Strategy::assign_all, or finds that one solution).
// The expansion chooses with the search's own code (Search::decide), so the
// split cannot drift from the search. The list depends only on the model,
// the strategy and the number asked for, so every thread or process that
// splits the same model gets the same list.
//
// A tree that stays narrow (a chain, where each level holds one node to
// expand and one solution) is handed out as it is once it stops widening:
// expanding it further would walk it alone, before any worker starts, and
// leave its work in as few subproblems as before (split() says more).
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

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <ranges>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "../engine/error.hpp"
#include "../engine/store.hpp"
#include "clock.hpp"
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
    std::size_t open = 0;                // subproblems with a decision left, not a solution already
};

namespace detail {

// The left branches on sub's path: the search's stack holds them under the
// subtree's own, so its depth in the whole search is this plus its own.
inline std::uint64_t left_branches(const std::vector<Decision>& path) noexcept {
    std::uint64_t n = 0;
    for (const Decision& d : path) n += d.right ? 0 : 1;
    return n;
}
inline std::uint64_t left_branches(const Subproblem& sub) noexcept { return left_branches(sub.path); }

// Takes decision d (its left or its right branch) at the store's node.
template <class Store, class View>
Change take(Store& s, const View& x, const Decision& d) {
    if (d.branch == Branch::assign) return d.right ? x.remove(s, d.value) : x.assign(s, d.value);
    // Replay refuses a split at INT_MAX and split() takes only values below
    // max(x), so value + 1 cannot overflow.
    const bool upper = (d.branch == Branch::split) == d.right;
    return upper ? x.remove_below(s, d.value + 1) : x.remove_above(s, d.value);
}

inline bool known_branch(Branch b) noexcept {
    return b == Branch::assign || b == Branch::split || b == Branch::split_high;
}

// "view 3: x != 5", for messages.
inline std::string describe(const Decision& d) {
    const bool upper = (d.branch == Branch::split) == d.right;
    const char* rel = d.branch == Branch::assign ? (d.right ? " != " : " = ") : (upper ? " > " : " <= ");
    return "view " + std::to_string(d.var) + ": x" + rel + std::to_string(d.value);
}

// A store brought from one subproblem's node to the next. Replaying each
// path from the root would redo the propagation at the top of the tree,
// where every view is open and a propagator's run costs the most, once per
// subproblem: with about a thousand of them that was 2-8% of N-queens'
// whole search (N = 12..14, bounds). The subproblems are numbered in the
// search's order and a worker takes them in increasing order, so the next
// path mostly shares all but its last decisions with the last one: reach()
// undoes only the decisions that differ and takes the rest. split() walks
// its frontier with it for the same reason.
//
// Levels are the unit of undoing. A left branch opens a level; a right
// branch is taken in the level of the left branch before it (or the root
// level), as the search does. To undo the decisions from position p on,
// the store pops to undo_[p], which may also drop some before p: those from
// from_[p] on, which are then taken again.
//
// A path may be made by hand, so each decision is checked before it is
// taken: what split() lists always passes (its decisions were chosen by the
// search at the very node the replay reaches), and anything else would
// search a node twice, or none, or compute value + 1 at INT_MAX.
template <class Store, class View>
class Replay {
public:
    // `who` names the caller in messages.
    Replay(Store& s, const std::vector<View>& vars, const char* who = "solve_subproblem")
        : s_(s), vars_(vars), who_(who), root_(s.level()) {}

    // The store at sub's node, at its fixpoint. Throws model_error if the
    // path does not fit these views or fails; the store is then back at
    // its level of entry.
    void reach(const Subproblem& sub) {
        if (!enter(sub.path))
            throw model_error(std::string(who_) +
                              ": the path fails when replayed, so it was not split from this model (or a "
                              "propagator or chooser does not give the same answer twice)");
    }

    // As reach(), but a path that fails returns false, the store back at
    // its level of entry: for split(), whose root may fail.
    bool enter(const std::vector<Decision>& path) {
        // Before anything is taken, what no store state can excuse.
        for (std::size_t p = 0; p < path.size(); ++p) {
            const Decision& d = path[p];
            if (d.var >= vars_.size())
                throw model_error(std::string(who_) + ": the path names view " + std::to_string(d.var) + " of " +
                                  std::to_string(vars_.size()) + "; it was not split from these views");
            if (!known_branch(d.branch))
                throw model_error(std::string(who_) + ": decision " + std::to_string(p) +
                                  " of the path has branch kind " +
                                  std::to_string(static_cast<unsigned>(d.branch)) +
                                  ", not a Branch; it was not split from this model");
            if (d.branch != Branch::assign && d.value == std::numeric_limits<int>::max())
                throw model_error(std::string(who_) + ": decision " + std::to_string(p) + " of the path splits view " +
                                  std::to_string(d.var) + " at INT_MAX, which leaves no value on its right side; it "
                                  "was not split from this model");
        }
        std::size_t from = 0;
        if (at_root_level_) {
            std::size_t shared = 0;
            while (shared < path_.size() && shared < path.size() && path_[shared] == path[shared]) ++shared;
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
        for (std::size_t p = from; ok && p < path.size(); ++p) {
            const Decision& d = path[p];
            const View& x = vars_[d.var];
            // The search decided d at this node, where x was open and kept
            // a value on each side of d.
            const bool fits = !x.fixed(s_) && (d.branch == Branch::assign ? x.contains(s_, d.value)
                                                                           : x.min(s_) <= d.value && d.value < x.max(s_));
            if (!fits) {
                const std::string domain = x.fixed(s_) ? "is fixed to " + std::to_string(x.min(s_))
                                                       : "spans " + std::to_string(x.min(s_)) + ".." +
                                                             std::to_string(x.max(s_));
                leave();
                throw model_error(std::string(who_) + ": decision " + std::to_string(p) + " of the path (" +
                                  describe(d) + ") leaves no value on one of its sides where it is taken (the "
                                  "view " + domain + "); it was not split from this model");
            }
            if (!d.right) {
                undo_.push_back(s_.level());
                from_.push_back(p);
                s_.push_level();
            } else {
                undo_.push_back(p == 0 ? root_ : undo_[p - 1]);
                from_.push_back(p == 0 ? 0 : from_[p - 1]);
            }
            path_.push_back(d);
            ok = take(s_, x, d) != Change::failed && s_.propagate();
        }
        if (!ok) leave();
        return ok;
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
    const char* who_;
    int root_;
    bool at_root_level_ = false; // the search's root level is pushed and path_ taken
    std::vector<Decision> path_;
    std::vector<int> undo_;          // per decision: the level to pop to to undo it
    std::vector<std::size_t> from_;  // per decision: the first decision that pop undoes
};

// Why the expansion stops on a narrow tree: every round is serial work,
// done before any worker starts. A round that does not multiply the nodes
// to expand only peels the leaves and failures off a few long paths; the
// work below them stays in as many subproblems as before, which the
// workers cannot share any better. On the chain x[i] <= x[i+1] of 800
// Booleans (one node to expand and one solution per level) the split went
// on to the depth asked for and searched most of the tree alone: two
// threads took 4-8x one thread's time. So it stops once the open nodes
// have not doubled over the last narrow_rounds rounds. Over several rounds
// rather than one, because a tree may stay narrow for a level or two (a
// split whose one side fails at once, a forced first choice) and widen
// after. The rule bounds the cost too: while it goes on, the open nodes
// at least double every narrow_rounds rounds, so all rounds together
// expand about twice as many nodes as the last narrow_rounds rounds (a
// geometric sum), whatever the depth.
inline constexpr unsigned narrow_rounds = 4;

// A node of the frontier: its path from the root, and the decision the
// search takes there, none where every view is fixed (a solution, which
// stays a subproblem of its own, expanded no further).
struct FrontierNode {
    std::vector<Decision> path;
    std::optional<Decision> next;
};

// The top of the tree, level by level, into `out`. A node's level counts
// the x = v and split branches on its path; expanding a node takes its
// decision's left branch, a child one level down, then its right branch:
// after x > v that is a child one level down too, after x != v it is the
// node again, which decides anew, as Search::run does. The frontier keeps
// the depth-first order: each node is replaced by its children in the
// order the search meets them, and the replay moves from one node to the
// next undoing only what their paths do not share, so a round costs one
// walk of the top of the tree down to its level (not one walk per level
// from the root, which made the split quadratic in its depth, and each
// walk recursive).
template <class Store, class View, class VarSel, class ValSel>
void expand_top(Store& s, const std::vector<View>& views, const BasicStrategy<VarSel, ValSel>& strategy,
                std::size_t at_least, Split& out) {
    Search<Store, View, VarSel, ValSel> chooser(s, views, strategy);
    const auto decide = [&chooser] {
        const std::optional<Decision> d = chooser.decide();
        // Recorded in a path, it would be refused by solve_subproblem.
        if (d && !known_branch(d->branch))
            throw model_error("value chooser returned branch kind " +
                                   std::to_string(static_cast<unsigned>(d->branch)) +
                                   ", not a Branch");
        return d;
    };
    Replay<Store, View> replay(s, views, "split");
    out.depth = 1;
    try {
        if (!replay.enter({})) {
            ++out.top.failures;
            return;
        }
        std::vector<FrontierNode> frontier, next;
        frontier.push_back({{}, decide()});
        std::vector<std::size_t> open_at{frontier.back().next ? std::size_t{1} : 0}; // per level
        for (;;) {
            next.clear();
            std::size_t open = 0;
            const auto add = [&](std::vector<Decision> path) {
                next.push_back({std::move(path), decide()});
                open += next.back().next ? 1 : 0;
            };
            for (FrontierNode& node : frontier) {
                if (!node.next) {
                    next.push_back(std::move(node));
                    continue;
                }
                if (!replay.enter(node.path))
                    throw model_error("split: a node fails when reached again, so a propagator or chooser does "
                                      "not give the same answer twice");
                const std::uint64_t lefts = left_branches(node.path);
                std::vector<Decision>& path = node.path;
                // The right branches below are taken in this level, so the
                // replay finds its node again by popping it.
                s.push_level();
                Decision d = *node.next;
                for (;;) {
                    const View& x = views[d.var];
                    ++out.top.branches;
                    if (lefts + 1 > out.top.max_depth) out.top.max_depth = lefts + 1;
                    s.push_level();
                    path.push_back(d);
                    if (take(s, x, d) != Change::failed && s.propagate()) add(path);
                    else ++out.top.failures;
                    path.pop_back();
                    s.pop_level();
                    ++out.top.branches;
                    d.right = true;
                    path.push_back(d);
                    if (take(s, x, d) == Change::failed || !s.propagate()) {
                        ++out.top.failures;
                        break;
                    }
                    if (d.branch != Branch::assign) {
                        add(std::move(path));
                        break;
                    }
                    const std::optional<Decision> again = decide();
                    if (!again) {
                        next.push_back({std::move(path), std::nullopt});
                        break;
                    }
                    d = *again;
                }
                s.pop_level();
            }
            std::swap(frontier, next);
            if (open == 0 || frontier.size() >= at_least) break;
            open_at.push_back(open);
            if (out.depth >= narrow_rounds && open < 2 * open_at[out.depth - narrow_rounds]) break;
            ++out.depth;
        }
        out.subproblems.reserve(frontier.size());
        for (FrontierNode& node : frontier) {
            out.open += node.next ? 1 : 0;
            out.subproblems.push_back({std::move(node.path)});
        }
    } catch (...) {
        replay.leave();
        throw;
    }
    replay.leave();
}

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
// `at_least` subproblems when it has that many nodes at some depth and is
// not narrow above it; fewer otherwise: when the tree is smaller, every
// leaf above the depth is listed and `top` holds all the failures; when
// the nodes left to expand stop multiplying (detail::narrow_rounds), the
// frontier as it stands. The depth grows one level at a time, from one: a
// node can have as many children as its variable has values, so a guess
// from at_least alone could overshoot by millions. `top` counts the
// propagation of the whole split. Throws whatever the chooser throws (and
// model_error for a branch kind outside Branch); the store is back
// at its root state.
template <class Store, std::ranges::input_range R, class VarSel, class ValSel>
Split split(Store& s, const R& vars, const BasicStrategy<VarSel, ValSel>& strategy, std::size_t at_least) {
    using View = std::ranges::range_value_t<R>;
    const auto t0 = std::chrono::steady_clock::now();
    const std::vector<View> views(std::ranges::begin(vars), std::ranges::end(vars));
    const std::uint64_t propagations0 = s.propagations();
    Split out;
    detail::expand_top(s, views, strategy, at_least, out);
    out.top.propagations = s.propagations() - propagations0;
    out.time = std::chrono::steady_clock::now() - t0;
    return out;
}

// Searches the subtree of `sub` (from split() of this model, strategy and
// views) on `s`, the model's store or a copy of it at the root state it was
// split in: replays the path, then searches below it, the visitor called as
// by solve(). The statistics are the subtree's, the path's branches not
// included (they are in the split's top). s is back at its root state
// afterwards, exception or not. A path that split() cannot have made (a
// view out of range, a branch kind outside Branch, a split at INT_MAX, a
// decision that leaves one of its sides empty where it is taken, a path
// that fails) is refused with model_error; the checks that need no store
// come before anything is taken.
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
