#ifndef PROPANE_ENGINE_STORE_MODELLING_HPP
#define PROPANE_ENGINE_STORE_MODELLING_HPP

// The members of Store (store.hpp) that modelling code calls: making
// variables, posting, subscribing, levels pushed and popped by hand, and
// the checks behind them. Defined here, outside the class body, so that
// they are not inline: an `extern template class Store<...>` (as
// <propane/compiled.hpp> declares) then keeps a model's file from
// compiling them and all they reach, where a member defined in the class
// body would be compiled again in each file for inlining. None of them is
// on search's hot path, which stays in the class body.
//
// Included at the end of store.hpp; not a header to include on its own.

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "store.hpp"

namespace propane {

template <class Domain>
Store<Domain>::Store() = default;
template <class Domain>
Store<Domain>::Store(Store&&) noexcept = default;
template <class Domain>
Store<Domain>& Store<Domain>::operator=(Store&&) noexcept = default;
template <class Domain>
Store<Domain>::Store(const Store&) = default;
template <class Domain>
Store<Domain>::~Store() = default;
template <class Domain>
Store<Domain>& Store<Domain>::operator=(const Store& o) {
    if (this != &o) *this = Store(o);
    return *this;
}

template <class Domain>
IntVar Store<Domain>::int_var(int lo, int hi) {
    return int_var(lo, hi, Representation::automatic);
}

template <class Domain>
IntVar Store<Domain>::int_var(int lo, int hi, Representation r) {
    if (level() > 0)
        throw model_error(detail::formatted("int_var at level %d: variables are made at level 0, before "
                                            "push_level or a search (an expression that needs an auxiliary "
                                            "variable too: post it at level 0)",
                                            level()));
    doms_.emplace_back(lo, hi, r);
    const auto index = static_cast<int>(doms_.size() - 1);
    init_.emplace_back(lo, hi);
    subs_.emplace_back();
    var_props_.emplace_back();
    if constexpr (Domain::is_dynamic) {
        word_offset_.push_back(word_stamp_.size());
        word_stamp_.resize(word_stamp_.size() + doms_.back().trail_slots(), 0);
        touched_flag_.push_back(0);
    } else {
        stamp_.push_back(0);
    }
    return {index, lo, hi, model_.add()};
}

template <class Domain>
std::vector<IntVar> Store<Domain>::int_vars(int n, int lo, int hi) {
    if (n < 0) throw model_error(detail::formatted("int_vars: negative count %d", n));
    std::vector<IntVar> xs;
    xs.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) xs.push_back(int_var(lo, hi));
    return xs;
}

template <class Domain>
std::vector<IntVar> Store<Domain>::bool_vars(int n) {
    if (n < 0) throw model_error(detail::formatted("bool_vars: negative count %d", n));
    return int_vars(n, 0, 1);
}

template <class Domain>
IntVar Store<Domain>::var(int index) const {
    if (index < 0 || index >= num_vars())
        throw model_error(detail::formatted("var: no variable %d in a store of %d", index, num_vars()));
    const auto [lo, hi] = init_[static_cast<std::size_t>(index)];
    return {index, lo, hi, model_.tag()};
}

template <class Domain>
void Store<Domain>::check(IntVar x, std::string_view who) const {
    if (x.model() == nullptr)
        throw model_error(detail::formatted("%.*s: a default-constructed IntVar, not a variable made by a store "
                                            "(int_var)",
                                            static_cast<int>(who.size()), who.data()));
    if (!owns(x))
        throw model_error(detail::formatted("%.*s: variable handle %d belongs to another store (a handle works "
                                            "in the store that made it and in copies made after it)",
                                            static_cast<int>(who.size()), who.data(), x.index()));
}

template <class Domain>
Change Store<Domain>::remove(IntVar x, std::int64_t v) {
    check(x, "remove");
    return remove_at(x.index(), v);
}

template <class Domain>
Change Store<Domain>::remove_below(IntVar x, int v) {
    check(x, "remove_below");
    return remove_below_at(x.index(), v);
}

template <class Domain>
Change Store<Domain>::remove_above(IntVar x, int v) {
    check(x, "remove_above");
    return remove_above_at(x.index(), v);
}

template <class Domain>
Change Store<Domain>::assign(IntVar x, int v) {
    check(x, "assign");
    return assign_at(x.index(), v);
}

template <class Domain>
Change Store<Domain>::remove_range(IntVar x, std::int64_t a, std::int64_t b) {
    check(x, "remove_range");
    return remove_range_at(x.index(), a, b);
}

template <class Domain>
void Store<Domain>::push_level() {
    refuse_while_searching("push_level");
    push();
}

template <class Domain>
void Store<Domain>::reserve_levels(int levels) {
    const auto n = static_cast<std::size_t>(std::max(levels, 0));
    dom_trail_.reserve_levels(n);
    cells_.reserve_levels(n);
    if constexpr (Domain::is_dynamic) touched_.reserve(doms_.size());
}

template <class Domain>
void Store<Domain>::pop_level() {
    refuse_while_searching("pop_level");
    if (level() == 0) throw model_error("pop_level at level 0: every push_level has been popped already");
    pop();
}

template <class Domain>
void Store<Domain>::pop_to(int target) {
    refuse_while_searching("pop_to");
    if (target < 0 || target > level())
        throw model_error(detail::formatted("pop_to(%d) at level %d: the target must be between 0 and the "
                                            "current level",
                                            target, level()));
    unwind_to(target);
}

template <class Domain>
int Store<Domain>::add_propagator(std::unique_ptr<propagator_type> p) {
    refuse_while_searching("add_propagator");
    if (!p) throw model_error("add_propagator: null propagator");
    scope_posts();
    props_.push_back(std::move(p));
    queued_.push_back(0);
    prop_failures_.push_back(0);
    prop_runs_.push_back(0);
    // Each propagator is subsumed at most once at a time: no room is
    // made in search.
    subsumed_.reserve(props_.size());
    tagged_subs_.push_back(0);
    for (detail::PropagatorQueue& q : queues_) q.grow();
    const auto id = static_cast<int>(props_.size() - 1);
    schedule(id);
    return id;
}

template <class Domain>
void Store<Domain>::subscribe(IntVar var, int prop, Event event, int tag) {
    check(var, "subscribe");
    refuse_while_searching("subscribe");
    check_propagator(prop, "subscribe");
    if (static_cast<unsigned>(event) > static_cast<unsigned>(Event::max))
        throw model_error(detail::formatted("subscribe: event %u is none of domain, bounds, fixed, min, max",
                                            static_cast<unsigned>(event)));
    VarSubs& vs = subs_[static_cast<std::size_t>(var.index())];
    std::vector<int>& props = var_props_[static_cast<std::size_t>(var.index())];
    if (std::find(props.begin(), props.end(), prop) == props.end()) props.push_back(prop);
    // A tagged subscription fires at most once per fixing, so pending()
    // needs about one slot each: room made now is not made in search.
    if (tag >= 0) {
        const std::size_t tagged = ++tagged_subs_[static_cast<std::size_t>(prop)];
        std::vector<int>& pending = props_[static_cast<std::size_t>(prop)]->pending();
        if (pending.capacity() < tagged) pending.reserve(2 * tagged);
    }
    vs.add(prop, event, tag);
}

template <class Domain>
int Store<Domain>::add_watch(int prop) {
    refuse_while_searching("add_watch");
    check_propagator(prop, "add_watch");
    return watches_.add_slot(prop);
}

template <class Domain>
void Store<Domain>::watchable(IntVar var, int prop) {
    check(var, "watchable");
    refuse_while_searching("watchable");
    check_propagator(prop, "watchable");
    const auto v = static_cast<std::size_t>(var.index());
    std::vector<int>& props = var_props_[v];
    if (std::find(props.begin(), props.end(), prop) == props.end()) props.push_back(prop);
    watches_.add_vars(doms_.size());
    if (watchable_.size() < doms_.size()) watchable_.resize(doms_.size(), 0);
    if (watchable_[v]) return;
    if (watch_dispatch_ < 0)
        watch_dispatch_ = add_propagator(std::make_unique<detail::WatchDispatch<Store>>());
    subscribe(var, watch_dispatch_, Event::fixed, var.index());
    // The dispatcher never fails and stands for no constraint: it is
    // not one of var's propagators.
    std::erase(props, watch_dispatch_);
    watchable_[v] = 1;
}

template <class Domain>
void Store<Domain>::check_propagator(int prop, std::string_view who) const {
    if (prop < 0 || prop >= num_propagators())
        throw model_error(detail::formatted("%.*s: no propagator %d in this store", static_cast<int>(who.size()),
                                            who.data(), prop));
}

template <class Domain>
void Store<Domain>::refuse_while_searching(std::string_view who) const {
    if (searches_.running())
        throw model_error(detail::formatted("%.*s: a search is running on this store; its levels and "
                                            "constraints stay as they are until it ends (stop() it, or let it "
                                            "finish)",
                                            static_cast<int>(who.size()), who.data()));
}

template <class Domain>
void Store<Domain>::scope_posts() {
    if (level() > 0 && (scoped_.empty() || scoped_.back().level != level()))
        scoped_.push_back({level(), props_.size(), watches_.slots()});
}

template <class Domain>
void Store<Domain>::drop_scope() {
    const std::size_t first = scoped_.back().props, first_slot = scoped_.back().slots;
    scoped_.pop_back();
    const auto gone = [first](int p) { return static_cast<std::size_t>(p) >= first; };
    for (VarSubs& vs : subs_) vs.drop_from(static_cast<int>(first));
    watches_.drop_from(first_slot);
    // The dispatcher's subscriptions went with it; one made earlier
    // keeps those of the scope, which only wake it once too often.
    if (watch_dispatch_ >= static_cast<int>(first)) {
        watch_dispatch_ = -1;
        std::fill(watchable_.begin(), watchable_.end(), 0);
    }
    for (std::vector<int>& props : var_props_) std::erase_if(props, gone);
    props_.resize(first);
    queued_.resize(first);
    prop_failures_.resize(first);
    prop_runs_.resize(first);
    tagged_subs_.resize(first);
    for (detail::PropagatorQueue& q : queues_) q.reset(first);
}

} // namespace propane

#endif
