#ifndef PROPANE_ENGINE_QUEUE_HPP
#define PROPANE_ENGINE_QUEUE_HPP

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace propane::detail {

// What puts a propagator in the queue: a subscription to a variable's
// changes. A tag >= 0 goes to the propagator's pending() list when it fires.
struct Subscription {
    int prop;
    int tag;
};
// A variable's subscriptions, kept grouped as [domain | bounds | fixed], so
// a change of strength c wakes the prefix list[0 .. end[c]): a table rather
// than a chain of tests on c, which would mispredict. end[none] is 0. The
// untagged ones, nearly all of them, are kept apart from the tagged ones:
// a wake-up is then a few loads and stores without a branch (Golomb 9
// visits 3.1 million subscriptions).
struct VarSubscriptions {
    std::vector<int> props;
    std::array<std::uint32_t, 4> end{};
    std::vector<Subscription> tagged;
    std::array<std::uint32_t, 4> tagged_end{};

    // Adds a subscription woken by changes of strength `from` and above.
    void add(Subscription sub, std::size_t from) {
        if (sub.tag >= 0)
            insert(tagged, tagged_end, sub, from);
        else
            insert(props, end, sub.prop, from);
    }
    // Drops the subscriptions of the propagators numbered `first` and up.
    void drop_from(int first) {
        keep(props, end, [first](int p) { return p < first; });
        keep(tagged, tagged_end, [first](const Subscription& sub) { return sub.prop < first; });
    }

private:
    template <class List, class Entry>
    static void insert(List& list, std::array<std::uint32_t, 4>& ends, const Entry& entry, std::size_t from) {
        list.insert(list.begin() + ends[from], entry);
        for (std::size_t c = from; c < ends.size(); ++c) ++ends[c];
    }
    template <class List, class Keep>
    static void keep(List& list, std::array<std::uint32_t, 4>& ends, Keep kept_entry) {
        std::size_t kept = 0, k = 0;
        for (std::uint32_t& e : ends) {
            for (; k < e; ++k)
                if (kept_entry(list[k])) list[kept++] = list[k];
            e = static_cast<std::uint32_t>(kept);
        }
        list.resize(kept);
    }
};

// A FIFO ring with a slot per propagator and one more, rounded up to a
// power of two so that wrapping is a mask: the store's propagation queue. A
// propagator is queued at most once (the store keeps a flag per
// propagator), so the slot after the last entry is always free: the
// store's wake-ups write there unconditionally and count the entry only if
// the propagator was not queued yet.
struct PropagatorQueue {
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

} // namespace propane::detail

#endif
