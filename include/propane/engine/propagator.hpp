#ifndef PROPANE_ENGINE_PROPAGATOR_HPP
#define PROPANE_ENGINE_PROPAGATOR_HPP

// The propagator interface. A propagator subscribes to its variables with an
// event class and is queued (once) when a subscribed event fires; the store
// then calls propagate(), one virtual call per run.
//
// A subscription may carry a tag (usually the view's position in the
// propagator). Each firing of a tagged subscription appends the tag to the
// propagator's pending() list, so an incremental propagator learns *which*
// views changed without rescanning all of them (Gecode's advisors, reduced
// to a list of ints).

#include <cstdint>
#include <memory>
#include <vector>

#include "event.hpp"

namespace propane {

// What a run of propagate() concluded.
//   fix:    the propagator is at a fixpoint with respect to its own changes;
//   nofix:  it may be able to prune more, run it again;
//   failed: no solution is left; the store must backtrack;
//   defer:  it has done its cheap stage and wants its dear one run later,
//           once no other propagator is queued (Store::queued() == 0), so
//           that the dear stage sees what the cheap work of all the others
//           has left (Gecode's staged propagators);
//   subsumed: the constraint holds whatever values are still left (it is
//           entailed): the propagator is not run again until search
//           backtracks above this level (Gecode's disposal, undone on
//           backtracking). Taken as fix from a propagator with tagged
//           subscriptions, whose tags would pile up meanwhile.
enum class PropStatus : std::uint8_t { fix, nofix, failed, defer, subsumed };

template <class Store>
class Propagator {
public:
    virtual ~Propagator() = default;
    virtual PropStatus propagate(Store& s) = 0;
    // Deep copy, so a Store can be copied (say, one per search thread).
    virtual std::unique_ptr<Propagator> clone() const = 0;

    // Tags of tagged subscriptions that fired since the last run. The
    // propagator consumes them (and may see new ones appended while it runs,
    // caused by its own updates).
    std::vector<int>& pending() noexcept { return pending_; }

protected:
    Propagator() = default;
    Propagator(const Propagator&) = default;
    Propagator& operator=(const Propagator&) = default;

private:
    std::vector<int> pending_;
};

// CRTP helper that writes clone() for a propagator that is copyable.
template <class Store, class Derived>
class PropagatorBase : public Propagator<Store> {
public:
    std::unique_ptr<Propagator<Store>> clone() const override {
        return std::make_unique<Derived>(static_cast<const Derived&>(*this));
    }
};

namespace detail {

// A store's propagators, which it owns: copying the list clones each one,
// so that a copy of a store shares nothing with the original.
template <class Store>
class PropagatorList : public std::vector<std::unique_ptr<Propagator<Store>>> {
    using Base = std::vector<std::unique_ptr<Propagator<Store>>>;

public:
    PropagatorList() = default;
    PropagatorList(PropagatorList&&) noexcept = default;
    PropagatorList& operator=(PropagatorList&&) noexcept = default;
    PropagatorList(const PropagatorList& o) : Base() {
        this->reserve(o.size());
        for (const auto& p : o) this->push_back(p->clone());
    }
    PropagatorList& operator=(const PropagatorList& o) {
        if (this != &o) *this = PropagatorList(o);
        return *this;
    }
};

} // namespace detail

} // namespace propane

#endif
