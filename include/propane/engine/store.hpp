#ifndef PROPANE_ENGINE_STORE_HPP
#define PROPANE_ENGINE_STORE_HPP

// Store<Domain>: the state of a model. It owns the domains (one contiguous
// vector), the trail that undoes their changes, the propagators with their
// subscriptions, and the propagation queue.
//
// Every domain update goes through the store, which (1) records the old
// contents on the trail the first time the variable changes in the current
// level, (2) applies the update, (3) wakes the subscribers of the event.
// Failure is a return value (Change::failed, PropStatus::failed, false from
// propagate()): search fails millions of times and must not pay for
// exceptions. Nothing is global or static, and copying a store copies
// everything, propagators included, so two stores never interact.
//
// A failure is remembered, whoever caused it: once an update or a
// propagator fails, propagate() answers false until the level it failed in
// is popped (for good at level 0). A caller that ignores a failed update
// therefore cannot be handed a solution of a model that has none.
//
// The checked members (those taking an IntVar: updates, subscribe, post,
// check) refuse a handle of another model with model_error. Views reach the
// domains through unchecked members instead, which only IntVar may call:
// that is the hot path, and it costs what it did before the checks.

#include <algorithm>
#include <array>
#include <cassert>
#include <climits>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cells.hpp"
#include "domain.hpp"
#include "error.hpp"
#include "inline.hpp"
#include "model.hpp"
#include "searches.hpp"
#include "propagator.hpp"
#include "queue.hpp"
#include "trail.hpp"
#include "view.hpp"
#include "watches.hpp"

namespace propane {

template <class Store, class View, class VarSel, class ValSel>
class Search;

template <class Domain>
class Store {
public:
    using domain_type = Domain;
    using propagator_type = Propagator<Store>;

    // Defined outside the class body (store_modelling.hpp), as the other
    // members a model calls: not inline, so that <propane/compiled.hpp>
    // keeps a model's file from compiling them.
    Store();
    Store(Store&&) noexcept;
    Store& operator=(Store&&) noexcept;
    // A copy owns copies of everything, propagators included (cloned), and
    // no search: those stay with the original.
    Store(const Store&);
    Store& operator=(const Store& o);
    ~Store();

    // ---- variables ---------------------------------------------------------

    // A new variable with domain lo..hi. Throws model_error if the range is
    // empty or does not fit in Domain.
    // Only at level 0: pop_level undoes what a level posted, but could not
    // take back a variable without leaving its handles dangling, and a
    // search that decides every variable would then enumerate its values.
    IntVar int_var(int lo, int hi);
    // The same, in the form r asks for (Representation: a bitset, or an
    // interval for a wide domain, which only Store<BitDomain<dynamic>>
    // keeps); int_var(lo, hi) is Representation::automatic.
    IntVar int_var(int lo, int hi, Representation r);

    // A new variable equal to an expression, s.int_var(abs(x - y)): its
    // domain is the tightest the operands' bounds allow, and the constraint
    // that defines it is posted. define_int_var is the modelling layer's
    // (propane/model/define.hpp), found through the expression's namespace,
    // so the engine does not depend on that layer.
    template <class E>
        requires requires(Store& s, const E& e) {
            { define_int_var(s, e) } -> std::same_as<IntVar>;
        }
    IntVar int_var(const E& e) {
        return define_int_var(*this, e);
    }

    std::vector<IntVar> int_vars(int n, int lo, int hi);

    // A Boolean: an IntVar over {0, 1} (1 for true), so every constraint
    // and view takes it, and 1 - b is its negation at no cost.
    IntVar bool_var() { return int_var(0, 1); }
    std::vector<IntVar> bool_vars(int n);

    int num_vars() const noexcept { return static_cast<int>(doms_.size()); }
    // The handle of variable `index` (0 <= index < num_vars()), in creation
    // order: for walking every variable, as a search without views does.
    IntVar var(int index) const;
    // By position, 0 <= var < num_vars(): for walking every variable.
    const Domain& domain(int var) const noexcept {
        assert(var >= 0 && var < num_vars());
        return doms_[static_cast<std::size_t>(var)];
    }
    // Throws model_error unless x is a variable of this store's model.
    const Domain& domain(IntVar x) const {
        check(x, "domain");
        return domain(x.index());
    }

    // Throws model_error unless x is a variable of this store: made by it,
    // or by a store it is a copy of (of a copy of ...) before the copy was
    // made. Not one of a sibling copy's, which may have the same index and
    // bounds. `who` names the entry point in the message.
    void check(IntVar x, std::string_view who = "check") const;
    // Whether x is a variable of this store, without throwing.
    bool owns(IntVar x) const noexcept {
        return model_.owns(x.model(), x.index()) &&
               init_[static_cast<std::size_t>(x.index())] == std::pair{x.lo(), x.hi()};
    }

    // ---- updates (trailed, wake subscribers) -------------------------------
    //
    // For modelling code: each checks its handle (model_error for another
    // model's). A failed update leaves the domain as it was and marks the
    // store failed. Propagators update through views, which skip the check.

    Change remove(IntVar x, std::int64_t v);
    Change remove_below(IntVar x, int v);
    Change remove_above(IntVar x, int v);
    Change assign(IntVar x, int v);
    // Removes the values a..b.
    Change remove_range(IntVar x, std::int64_t a, std::int64_t b);
    template <std::size_t W>
    Change intersect(IntVar x, const BitDomain<W>& mask) {
        check(x, "intersect");
        return intersect_at(x.index(), mask);
    }

    // ---- reversible integers for propagator state --------------------------

    int new_cell(std::int64_t initial) { return cells_.add(initial); }
    std::int64_t cell(int c) const noexcept { return cells_.get(c); }
    void set_cell(int c, std::int64_t v) { cells_.set(c, v); }

    // ---- levels --------------------------------------------------------------

    // A level saves the propagation queue along with the domains: popping it
    // restores both, so work still queued when the level was pushed (say,
    // propagators just posted) is not lost to a failure inside the level,
    // and work queued inside it does not outlive it. In search the queue is
    // empty at every push, and this costs nothing.
    //
    // While a search runs, its levels are its own: push_level, pop_level
    // and pop_to throw model_error rather than pull the path from under it.
    int level() const noexcept { return dom_trail_.level(); }
    void push_level();
    // Makes room for `levels` levels in all, and for a full unwind: a
    // search calls it once, so that going down and back up allocates
    // nothing.
    void reserve_levels(int levels);

    // Throws model_error at level 0, where there is nothing to pop.
    void pop_level();

    // Pops levels until level() == target, 0 <= target <= level().
    void pop_to(int target);

    // True while the store is failed: an update or a propagator failed at
    // this level or below it, and that level has not been popped. Failed at
    // level 0, the model itself has no solution, for good.
    bool failed() const noexcept { return failed_at_ != not_failed; }
    // Marks the store failed at this level, as a failed update does: for a
    // view or a constraint that finds a failure without an update reaching
    // a domain (a value the view cannot take, a bound beyond int), so that
    // the failure is remembered all the same. Returns Change::failed.
    Change fail() noexcept {
        mark_failed();
        return Change::failed;
    }

    // ---- propagators ---------------------------------------------------------

    // Posts a constraint: anything with a post(Store&) member, such as the
    // result of all_different(...). At level 0 the constraint is part of the
    // model; inside a level (outside search) it holds until that level is
    // popped, which removes it. Refused with model_error while a search
    // runs: a constraint posted at a search node would vanish when the
    // search backtracks, so it could not hold for the rest of the search.
    template <class Constraint>
    decltype(auto) post(const Constraint& c) {
        refuse_while_searching("post");
        scope_posts();
        return c.post(*this);
    }

    // Takes ownership of a propagator and queues it for its first run.
    int add_propagator(std::unique_ptr<propagator_type> p);

    propagator_type& propagator(int id) noexcept { return *props_[static_cast<std::size_t>(id)]; }
    int num_propagators() const noexcept { return static_cast<int>(props_.size()); }

    // Wakes propagator `prop` on `event` of `var`. A tag >= 0 is appended to
    // the propagator's pending() list each time the subscription fires.
    void subscribe(IntVar var, int prop, Event event, int tag = -1);

    // Watches (engine/watches.hpp). At post: add_watch(prop) makes a slot
    // of propagator `prop`, and watchable(var, prop) lets prop's slots be
    // pointed at var; prop then counts among var's propagators (what
    // weighted-degree branching reads), as a subscriber would. During
    // search, watch(slot, var, t) points a slot at (var, t): it then wakes
    // the slot's propagator when var is fixed to a value other than t.
    int add_watch(int prop);
    void watchable(IntVar var, int prop);
    // Unchecked, for propagators during search: slot must be one of the
    // propagator's own, var made watchable for it at post.
    void watch(int slot, IntVar var, int t) {
        assert(owns(var) && slot >= 0 && static_cast<std::size_t>(slot) < watches_.slots());
        assert(watchable_[static_cast<std::size_t>(var.index())]);
        watches_.point(slot, var.index(), t);
    }

    void schedule(int prop) { enqueue(prop, 0); }

    // How many propagators wait in the queue, not counting the deferred
    // ones. A staged propagator defers its dear stage while this is not 0.
    std::size_t queued() const noexcept { return queues_[0].count; }

    // Runs queued propagators until none is left (true) or one fails
    // (false; the queue is emptied and the caller must backtrack). Deferred
    // propagators run only when no other is queued. False while the store
    // is failed(), whatever failed: a propagator, or an update whose
    // Change::failed its caller ignored.
    bool propagate() {
        // A store failed already (by a post, say) has nothing to learn from
        // its propagators, and one queued over a wide domain may be costly.
        if (failed()) [[unlikely]] {
            clear_queue();
            return false;
        }
        for (;;) {
            // The deferred queue is looked at only when the first is empty,
            // so the loop that runs nearly every propagator tests one count.
            while (queues_[0].count > 0)
                if (!run(queues_[0].pop())) return false;
            if (queues_[1].count == 0) break;
            if (!run(queues_[1].pop())) return false;
        }
        // Checked once here rather than after every run: a failed store
        // only wastes the runs after the failure, and they are undone with
        // its level.
        return !failed();
    }

    // Propagator runs so far (a statistic).
    std::uint64_t propagations() const noexcept { return propagations_; }
    // Searches started on this store so far. A propagator that learns how
    // to schedule its work (AllDifferent's early Hall passes) starts afresh
    // when this changes, so that a search does the same work whatever
    // searches ran on the store before it.
    std::uint64_t search_starts() const noexcept { return search_starts_; }

    // How often propagator `prop` has failed, and the propagators subscribed
    // to a variable (each once): what weighted-degree branching learns from.
    std::uint64_t failures_of(int prop) const noexcept { return prop_failures_[static_cast<std::size_t>(prop)]; }
    // How many times propagator `prop` has run, in this store and the
    // stores it was copied from (a profile: which constraints the time
    // goes to).
    std::uint64_t runs_of(int prop) const noexcept { return prop_runs_[static_cast<std::size_t>(prop)]; }
    const std::vector<int>& propagators_of(int var) const noexcept {
        return var_props_[static_cast<std::size_t>(var)];
    }

private:
    // Views reach the domains through the unchecked members below; search
    // owns its levels through the unchecked push and pop.
    friend class detail::VarRef;
    template <class, class, class, class>
    friend class Search;
    friend class detail::WatchDispatch<Store>;

    // Walks var's watch list, var being fixed: the dispatcher's run.
    void fire_watches(int var) {
        watches_.fire(var, doms_[static_cast<std::size_t>(var)].min(), [this](int prop) { schedule(prop); });
    }

    PROPANE_CLANG_INLINE Change remove_at(int var, std::int64_t v) {
        return update(var, [v](Domain& d, auto&& save) { return d.remove(v, save); });
    }
    Change remove_below_at(int var, int v) {
        return update<Moves::min>(var, [v](Domain& d, auto&& save) { return d.remove_below(v, save); });
    }
    Change remove_above_at(int var, int v) {
        return update<Moves::max>(var, [v](Domain& d, auto&& save) { return d.remove_above(v, save); });
    }
    Change keep_between_at(int var, int a, int b) {
        return update(var, [a, b](Domain& d, auto&& save) { return d.keep_between(a, b, save); });
    }
    Change remove_bits_at(int var, std::int64_t start, std::uint64_t mask) {
        return update(var, [start, mask](Domain& d, auto&& save) { return d.remove_bits(start, mask, save); });
    }
    Change assign_at(int var, int v) {
        return update(var, [v](Domain& d, auto&& save) { return d.assign(v, save); });
    }
    Change remove_range_at(int var, std::int64_t a, std::int64_t b) {
        return update(var, [a, b](Domain& d, auto&& save) { return d.remove_range(a, b, save); });
    }
    template <std::size_t W>
    Change intersect_at(int var, const BitDomain<W>& mask) {
        return update(var, [&mask](Domain& d, auto&& save) { return d.intersect(mask, save); });
    }

    void push() {
        if (queues_[0].count + queues_[1].count > 0) {
            QueueSnapshot snap{level(), {}, {}};
            for (const detail::PropagatorQueue& q : queues_)
                for (std::size_t k = 0; k < q.count; ++k) {
                    const int p = q.at(k);
                    snap.props.push_back(p);
                    snap.pending.push_back(props_[static_cast<std::size_t>(p)]->pending());
                }
            saved_queues_.push_back(std::move(snap));
        }
        dom_trail_.push_level();
        cells_.push_level();
    }

#if defined(__GNUC__)
    [[gnu::always_inline]]
#endif
    void pop() {
        pop_level_with([this](const DomainSave& e) { restore(e); });
    }

    // A dynamic-width store writes the saved words back raw and recomputes
    // the size and bounds of each domain it touched once at the end:
    // unwinding a deep dive restores millions of words, many of them
    // several times.
    void unwind_to(int target) {
        if constexpr (Domain::is_dynamic) {
            touched_.clear();
            while (level() > target)
                pop_level_with([this](const WordSave& e) {
                    if (e.word == interval_save) [[unlikely]] {
                        restore_interval(e);
                        return;
                    }
                    if (!touched_flag_[e.var]) {
                        touched_flag_[e.var] = 1;
                        touched_.push_back(e.var);
                    }
                    doms_[e.var].restore_word_unsynced(e.word, e.old);
                });
            for (const std::uint32_t v : touched_) {
                doms_[v].resync();
                touched_flag_[v] = 0;
            }
        } else {
            while (level() > target) pop();
        }
    }

    void check_propagator(int prop, std::string_view who) const;

    void refuse_while_searching(std::string_view who) const;

    void mark_failed() noexcept { failed_at_ = std::min(failed_at_, level()); }

    // A post inside a level opens a scope (once per level): the
    // propagators the level adds are removed when it is popped. Their
    // cells stay allocated (a few integers), since anyone may have made a
    // cell inside the level.
    void scope_posts();

    // Removes the propagators of the newest scope, with their
    // subscriptions. Rare (a post inside a popped level), so a walk over
    // every variable, and kept out of line, away from search's pops.
#if defined(__GNUC__)
    [[gnu::noinline]]
#endif
    void drop_scope();

    using Sub = detail::Subscription;
    using VarSubs = detail::VarSubscriptions;
    // A fixed-width domain is small: save it whole. A dynamic one saves only
    // the words an update overwrites.
    struct FixedSave {
        std::uint32_t var;
        typename Domain::saved_words old;
    };
    struct WordSave {
        std::uint32_t var;
        std::uint32_t word;
        detail::word old;
        detail::DynamicWords::Summary summary; // of the domain before the write
    };
    using DomainSave = std::conditional_t<Domain::is_dynamic, WordSave, FixedSave>;
    struct QueueSnapshot {
        int level;
        std::vector<int> props;
        std::vector<std::vector<int>> pending;
    };
    // What posts inside `level` added: the propagators from `props` on,
    // the watch slots from `slots` on.
    struct Scope {
        int level;
        std::size_t props;
        std::size_t slots;
    };
    static constexpr int not_failed = INT_MAX;

    // Inlined into search's backtrack, as it was before the failure and
    // scope checks made it look too big to GCC (N = 11, value: 1 % more
    // instructions out of line).
    template <class Undo>
#if defined(__GNUC__)
    [[gnu::always_inline]]
#endif
    void pop_level_with(Undo&& undo) {
        assert(level() > 0);
        dom_trail_.pop_level(undo);
        cells_.pop_level();
        clear_queue();
        // Before the scope's propagators go: their subsumptions are above
        // this level too.
        for (; !subsumed_.empty() && subsumed_.back().level > level(); subsumed_.pop_back())
            queued_[static_cast<std::size_t>(subsumed_.back().prop)] = 0;
        failed_at_ = failed_at_ > level() ? not_failed : failed_at_;
        if (!scoped_.empty() && scoped_.back().level > level()) [[unlikely]] drop_scope();
        if (!saved_queues_.empty() && saved_queues_.back().level == level()) {
            QueueSnapshot& snap = saved_queues_.back();
            for (std::size_t k = 0; k < snap.props.size(); ++k) {
                schedule(snap.props[k]);
                // assign, not move: the propagator keeps its own buffer,
                // with the room it has grown.
                props_[static_cast<std::size_t>(snap.props[k])]->pending().assign(snap.pending[k].begin(),
                                                                                     snap.pending[k].end());
            }
            saved_queues_.pop_back();
        }
    }

    using Moves = detail::Moves;

    template <Moves M = Moves::either, class Op>
    PROPANE_CLANG_INLINE Change update(int var, Op&& op) {
        const auto i = static_cast<std::size_t>(var);
        Domain& d = doms_[i];
        const std::uint64_t now = dom_trail_.stamp();
        Change c;
        if constexpr (Domain::is_dynamic) {
            c = op(d, [&](std::size_t w) {
                const std::size_t g = word_offset_[i] + w;
                if (word_stamp_[g] != now) {
                    word_stamp_[g] = now;
                    if (d.interval()) [[unlikely]]
                        save_interval(i, d);
                    else
                        dom_trail_.record({static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(w), d.word_at(w),
                                           d.summary()});
                }
            });
        } else {
            c = op(d, [&](std::size_t) {
                const bool fresh = stamp_[i] != now;
                stamp_[i] = now;
                dom_trail_.record_when({static_cast<std::uint32_t>(i), d.save_words()}, fresh);
            });
        }
        // domain, bounds or fixed in one test; failed is the rare case.
        if (static_cast<unsigned>(c) - 1U < 3U) notify<M>(i, c);
        else if (c == Change::failed) [[unlikely]] mark_failed();
        return c;
    }

    void restore(const DomainSave& e) {
        if constexpr (Domain::is_dynamic) {
            if (e.word == interval_save) [[unlikely]]
                restore_interval(e);
            else
                doms_[e.var].restore_word(e.word, e.old, e.summary);
        } else {
            doms_[e.var].restore_words(e.old);
        }
    }

    // A domain in the interval form is saved whole, once per level: its
    // summary in the entry, its holes copied to the end of saved_holes_,
    // where the entry's `old` says they start. Levels are undone newest
    // first, so an entry's holes run from there to the end, and go with
    // it.
    static constexpr std::uint32_t interval_save = std::numeric_limits<std::uint32_t>::max();
    // Members of every store, run only by dynamic ones: a requires-clause
    // here is ignored by clang 14 in the explicit instantiations of
    // compiled.hpp, whose bodies then fail for fixed widths.
#if defined(__GNUC__)
    [[gnu::noinline]]
#endif
    void save_interval(std::size_t var, const Domain& d) {
        if constexpr (Domain::is_dynamic) {
            if (!dom_trail_.recording()) return;
            const std::size_t at = saved_holes_.size();
            // A domain without holes (its size fills its bounds) has none to
            // copy, and its list, another allocation, is not read.
            if (std::int64_t{d.size()} != std::int64_t{d.max()} - d.min() + 1)
                saved_holes_.insert(saved_holes_.end(), d.holes().begin(), d.holes().end());
            dom_trail_.record({static_cast<std::uint32_t>(var), interval_save, at, d.summary()});
        }
    }
    void restore_interval(const DomainSave& e) {
        if constexpr (Domain::is_dynamic) {
            const auto at = static_cast<std::size_t>(e.old);
            doms_[e.var].restore_interval(saved_holes_.data() + at, saved_holes_.data() + saved_holes_.size(),
                                          e.summary);
            saved_holes_.resize(at);
        }
    }

    // Inlined into each update: a call is a frame around a short loop.
    template <Moves M>
#if defined(__GNUC__)
    [[gnu::always_inline]]
#endif
    void notify(std::size_t var, Change c) {
        const VarSubs& vs = subs_[var];
        const auto strength = static_cast<std::size_t>(c);
        const std::uint32_t first = vs.template first<M>(), last = vs.template last<M>(strength);
        const int* const props = vs.props.data() + first;
        // (Tested first: where every subscription is tagged, as in N-queens
        // at value strength, the set-up of push_new's loop alone cost 2 %.)
        // A list of one or two is tested here, in line: there the
        // propagators are nearly always queued already (Golomb 10: a
        // difference's two subscribers, its own linear propagator and
        // AllDifferent, are new in 145 K of 4.4 M visits), so the branch
        // predicts well, and a call into push_new for them cost more than
        // its loop (Golomb 10: 1.6 % fewer instructions in line).
        if (const std::size_t n = last - first; n != 0) {
            if (n <= 2) {
                queues_[0].push_if_new(props[0], queued_.data());
                if (n == 2) queues_[0].push_if_new(props[1], queued_.data());
            } else {
                queues_[0].push_new(props, n, queued_.data());
            }
        }
        const Sub* const tagged = vs.tagged.data();
        for (std::size_t k = 0, end = vs.tagged_end[strength]; k < end; ++k) {
            props_[static_cast<std::size_t>(tagged[k].prop)]->pending().push_back(tagged[k].tag);
            schedule(tagged[k].prop);
        }
    }

    // Runs propagator p, just popped; false when it failed (the queue is
    // then emptied). In line, with failure and subsumption out of line: a
    // call per run cost golomb 9 6 % more instructions at -O2.
    PROPANE_INLINE bool run(int p) {
        propagator_type& prop = *props_[static_cast<std::size_t>(p)];
        // queued_[p] stays set during the run, so the propagator's own
        // updates do not queue it again; it says so itself (nofix) or
        // leaves pending tags when it needs another run.
        ++propagations_;
        ++prop_runs_[static_cast<std::size_t>(p)];
        const PropStatus st = prop.propagate(*this);
        queued_[static_cast<std::size_t>(p)] = 0;
        if (st == PropStatus::fix && prop.pending().empty()) [[likely]]
            return true;
        if (st == PropStatus::failed || st == PropStatus::subsumed) [[unlikely]]
            return settle(p, st);
        if (st == PropStatus::nofix || !prop.pending().empty()) enqueue(p, 0);
        else if (st == PropStatus::defer) enqueue(p, 1);
        return true;
    }
#if defined(__GNUC__)
    [[gnu::noinline]]
#endif
    bool settle(int p, PropStatus st) {
        propagator_type& prop = *props_[static_cast<std::size_t>(p)];
        if (st == PropStatus::failed) {
            ++prop_failures_[static_cast<std::size_t>(p)];
            prop.pending().clear();
            clear_queue();
            mark_failed();
            return false;
        }
        if (tagged_subs_[static_cast<std::size_t>(p)] == 0) {
            // Its flag stays set: wake-ups pass it by, at no cost, as
            // queued already, until backtracking clears it.
            queued_[static_cast<std::size_t>(p)] = 1;
            subsumed_.push_back({level(), p});
        } else if (!prop.pending().empty()) {
            enqueue(p, 0); // taken as fix
        }
        return true;
    }

    void enqueue(int prop, std::size_t queue) { queues_[queue].push_if_new(prop, queued_.data()); }

    void clear_queue() noexcept {
        for (detail::PropagatorQueue& q : queues_)
            while (q.count > 0) {
                const auto p = static_cast<std::size_t>(q.pop());
                queued_[p] = 0;
                props_[p]->pending().clear();
            }
    }

    detail::Model model_;
    detail::SearchRegistry searches_;
    std::vector<Domain> doms_;
    std::vector<std::pair<int, int>> init_;   // initial bounds, to recognise our handles
    std::vector<std::uint64_t> stamp_;        // fixed-width domains: per variable stamp of its last save
    std::vector<std::size_t> word_offset_;    // dynamic domains: first word of each variable
    std::vector<std::uint64_t> word_stamp_;   // dynamic domains: per word stamp
    std::vector<std::uint8_t> touched_flag_;  // dynamic domains: pop_to's scratch
    std::vector<std::uint32_t> touched_;
    Trail<DomainSave> dom_trail_;
    std::vector<detail::Hole> saved_holes_;  // dynamic domains in the interval form: see save_interval
    detail::Cells cells_;
    detail::PropagatorList<Store> props_;
    std::vector<VarSubs> subs_;
    detail::Watches watches_;
    std::vector<std::uint8_t> watchable_; // per variable, once one is watchable
    int watch_dispatch_ = -1; // the propagator that walks the lists
    std::vector<std::vector<int>> var_props_; // distinct subscribers of each variable, kept off the hot path
    std::vector<std::uint8_t> queued_;
    // Two queues: [0] for every wake-up, [1] for deferred propagators, run
    // only when [0] is empty. A propagator is in at most one.
    std::array<detail::PropagatorQueue, 2> queues_;
    std::uint64_t propagations_ = 0;
    std::uint64_t search_starts_ = 0;
    std::vector<std::uint64_t> prop_failures_;
    std::vector<std::uint64_t> prop_runs_;
    std::vector<std::size_t> tagged_subs_; // per propagator
    struct Subsumed {
        int level;
        int prop;
    };
    std::vector<Subsumed> subsumed_; // by level, the propagators' flags set until backtracking
    std::vector<QueueSnapshot> saved_queues_;
    std::vector<Scope> scoped_;
    int failed_at_ = not_failed; // the lowest level at which the store failed
};

} // namespace propane

#include "store_modelling.hpp"

#endif
