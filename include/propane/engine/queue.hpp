#ifndef PROPANE_ENGINE_QUEUE_HPP
#define PROPANE_ENGINE_QUEUE_HPP

#include <cstddef>
#include <utility>
#include <vector>

namespace propane::detail {

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
