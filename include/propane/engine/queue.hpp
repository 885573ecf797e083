#ifndef PROPANE_ENGINE_QUEUE_HPP
#define PROPANE_ENGINE_QUEUE_HPP

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "domain.hpp"
#include "event.hpp"

namespace propane::detail {

// What puts a propagator in the queue: a subscription to a variable's
// changes. A tag >= 0 goes to the propagator's pending() list when it fires.
struct Subscription {
    int prop;
    int tag;
};
// Which end of a domain an update can move: only the least value (a
// removal from below), only the greatest (from above), or either.
enum class Moves : std::uint8_t { min, max, either };

// A variable's subscriptions. The untagged ones, nearly all of them, are
// kept grouped as [max | domain | bounds | min | fixed], so that every
// change wakes one slice of the list, found without a chain of tests on
// the change, which would mispredict:
//   from below (remove_below):  domain to min, or to fixed when fixed;
//   from above (remove_above):  max to bounds, or all when fixed;
//   any other update:           max to domain for a removal inside, max
//                               to min for bounds, all when fixed.
// So a min subscriber can wake when a fixing came from above, and a max
// subscriber on a removal inside the domain: waking it too costs a run now
// and then, telling those cases apart would cost every wake-up a test
// (N-queens 10 at value strength: 2 % more instructions). A subscription
// may fire more often than its event, never less. A wake-up is a few loads
// and stores without a branch (Golomb 9 visits 3.1 million subscriptions).
// The one-end groups spare x <= y in Golomb's chain of marks: waking on
// both ends of both, 87 % of its runs cut nothing. The tagged ones are a
// list apart, [domain | bounds | fixed] (one to an end fires as bounds), of
// which a change of strength c wakes the prefix tagged[0 ..
// tagged_end[c]); tagged_end[none] is 0.
// VarSubscriptions is VarSubscriptionsOf<>, compiled where used (see Cells, cells.hpp).
template <class = void>
struct VarSubscriptionsOf {
    enum Group : std::uint8_t { max_group, domain_group, bounds_group, min_group, fixed_group };
    std::vector<int> props;
    // Where the groups end, kept in the order that lets a wake-up find its
    // slice's end at ends[c] for a change c (domain, bounds, fixed) that
    // need not have come from above, as the store's updates did before
    // there were one-end groups: ends[1] the domain group's, ends[2] the
    // min group's, ends[3] the fixed group's (the list's), then ends[4] the
    // max group's and ends[5] the bounds group's. ends[0] is unused.
    std::array<std::uint32_t, 6> ends{};
    std::vector<Subscription> tagged;
    std::array<std::uint32_t, 4> tagged_end{};

    // Subscribes propagator `prop` to `event`, with a tag when tag >= 0.
    void add(int prop, Event event, int tag) {
        if (tag < 0) {
            constexpr Group group[] = {domain_group, bounds_group, fixed_group, min_group, max_group};
            insert(props, in_order(), prop, group[static_cast<std::size_t>(event)]);
            return;
        }
        // A tagged subscription is woken by changes of strength `from` and
        // above: every change for domain, bounds and fixed for bounds (or
        // an end), fixed only for fixed.
        const bool one_end = event == Event::min || event == Event::max;
        const std::size_t from =
            static_cast<std::size_t>(Change::domain) + static_cast<std::size_t>(one_end ? Event::bounds : event);
        insert(tagged, tagged_in_order(), Subscription{prop, tag}, from);
    }
    // Drops the subscriptions of the propagators numbered `first` and up.
    void drop_from(int first) {
        keep(props, in_order(), [first](int p) { return p < first; });
        keep(tagged, tagged_in_order(), [first](const Subscription& sub) { return sub.prop < first; });
    }

    // The slice props[first .. last) a change of strength c (domain, bounds
    // or fixed) from an update that can move M wakes.
    template <Moves M>
    std::uint32_t first() const noexcept {
        return M == Moves::min ? ends[4] : 0;
    }
    template <Moves M>
    std::uint32_t last(std::size_t c) const noexcept {
        return M == Moves::max && c == 2 ? ends[5] : ends[c];
    }

private:
    // The groups' ends in list order.
    std::array<std::uint32_t*, 5> in_order() noexcept { return {&ends[4], &ends[1], &ends[5], &ends[2], &ends[3]}; }
    std::array<std::uint32_t*, 4> tagged_in_order() noexcept {
        return {&tagged_end[0], &tagged_end[1], &tagged_end[2], &tagged_end[3]};
    }

    // Puts entry at the end of group g and moves the ends of g and of the
    // groups after it.
    template <class List, std::size_t N, class Entry>
    static void insert(List& list, const std::array<std::uint32_t*, N>& group_ends, const Entry& entry, std::size_t g) {
        list.insert(list.begin() + *group_ends[g], entry);
        for (std::size_t k = g; k < N; ++k) ++*group_ends[k];
    }

    template <class List, std::size_t N, class Keep>
    static void keep(List& list, const std::array<std::uint32_t*, N>& group_ends, Keep kept_entry) {
        std::size_t kept = 0, k = 0;
        for (std::uint32_t* e : group_ends) {
            for (; k < *e; ++k)
                if (kept_entry(list[k])) list[kept++] = list[k];
            *e = static_cast<std::uint32_t>(kept);
        }
        list.resize(kept);
    }
};
using VarSubscriptions = VarSubscriptionsOf<>;

// A FIFO ring with a slot per propagator and one more, rounded up to a
// power of two so that wrapping is a mask: the store's propagation queue. A
// propagator is queued at most once (the store keeps a flag per
// propagator), so the slot after the last entry is always free: the
// store's wake-ups write there unconditionally and count the entry only if
// the propagator was not queued yet.
// PropagatorQueue is PropagatorQueueOf<>, compiled where used (see Cells, cells.hpp).
template <class = void>
struct PropagatorQueueOf {
    std::vector<int> ring;
    std::size_t mask = 0; // ring.size() - 1
    std::size_t head = 0;
    std::size_t count = 0;

    int at(std::size_t k) const noexcept { return ring[(head + k) & mask]; }
    void push(int p) noexcept {
        ring[(head + count) & mask] = p;
        ++count;
    }
    // Queues p unless its flag in `queued` says it is queued already, and
    // sets the flag.
    void push_if_new(int p, std::uint8_t* queued) noexcept {
        if (queued[static_cast<std::size_t>(p)] != 0) return;
        queued[static_cast<std::size_t>(p)] = 1;
        push(p);
    }
    // Queues each of props[0 .. n) whose flag in `queued` is 0, and sets
    // the flags. Whether a propagator is queued already is as good as
    // random on a long list, and a branch on it mispredicted a quarter of
    // the time: each is written to the free slot after the last entry and
    // counted only when new (Golomb 10: 17 % fewer mispredicted branches).
    // The fields in locals: a store through the flags, bytes, could alias
    // them all. (The store tests lists of one or two one by one instead.)
    void push_new(const int* props, std::size_t n, std::uint8_t* queued) noexcept {
        int* const r = ring.data();
        const std::size_t h = head, m = mask;
        std::size_t c = count;
        for (std::size_t k = 0; k < n; ++k) {
            const int p = props[k];
            r[(h + c) & m] = p;
            c += queued[static_cast<std::size_t>(p)] == 0;
            queued[static_cast<std::size_t>(p)] = 1;
        }
        count = c;
    }
    int pop() noexcept {
        const int p = ring[head];
        head = (head + 1) & mask;
        --count;
        return p;
    }
    // An empty ring for n propagators.
    void reset(std::size_t n) {
        served_ = n;
        ring.assign(std::bit_ceil(n + 1), 0);
        mask = ring.size() - 1;
        head = 0;
        count = 0;
    }
    // Room for one more propagator. A new ring has the queued entries
    // moved to its front: slots appended behind entries that wrap around
    // would split them.
    void grow() {
        if (++served_ < ring.size()) return;
        std::vector<int> r(std::bit_ceil(served_ + 1), 0);
        for (std::size_t k = 0; k < count; ++k) r[k] = at(k);
        ring = std::move(r);
        mask = ring.size() - 1;
        head = 0;
    }

private:
    std::size_t served_ = 0; // propagators the ring has room for
};
using PropagatorQueue = PropagatorQueueOf<>;

} // namespace propane::detail

#endif
