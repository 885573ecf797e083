#ifndef PROPANE_ENGINE_QUEUE_HPP
#define PROPANE_ENGINE_QUEUE_HPP

#include <array>
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
// than a chain of tests on c, which would mispredict. end[none] is 0.
struct VarSubscriptions {
    std::vector<Subscription> list;
    std::array<std::uint32_t, 4> end{};
};

// A FIFO ring with one slot per propagator: the store's propagation queue.
// A propagator is queued at most once (the store keeps a flag per
// propagator), so the ring never needs more slots than there are
// propagators.
struct PropagatorQueue {
    std::vector<int> ring;
    std::size_t head = 0;
    std::size_t count = 0;

    int at(std::size_t k) const noexcept { return ring[(head + k) % ring.size()]; }
    void push(int p) noexcept {
        std::size_t tail = head + count;
        if (tail >= ring.size()) tail -= ring.size();
        ring[tail] = p;
        ++count;
    }
    int pop() noexcept {
        const int p = ring[head];
        if (++head == ring.size()) head = 0;
        --count;
        return p;
    }
    // An empty ring of n slots.
    void reset(std::size_t n) {
        ring.assign(n, 0);
        head = 0;
        count = 0;
    }
    // One more slot, with the queued entries moved to the front: a
    // slot appended behind entries that wrap around would split them.
    void grow() {
        std::vector<int> r(ring.size() + 1, 0);
        for (std::size_t k = 0; k < count; ++k) r[k] = at(k);
        ring = std::move(r);
        head = 0;
    }
};

} // namespace propane::detail

#endif
