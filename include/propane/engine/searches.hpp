#ifndef PROPANE_ENGINE_SEARCHES_HPP
#define PROPANE_ENGINE_SEARCHES_HPP

// The searches over a store, and which one of them runs (see store.hpp and
// the "Rules of use" in the README).

#include <atomic>
#include <mutex>
#include <vector>

namespace propane {

namespace detail {

// A search's link to its store. The store clears `attached` when it is
// moved from, assigned over or destroyed, so the search learns that its
// store is gone instead of touching freed or replaced state.
struct SearchTie {
    bool attached = true;
};

// The searches over one store, and which of them is running (has pushed
// levels, or, for a parallel solve, has workers searching copies): at most
// one may run at a time. A copy of a store has no searches; moving or
// destroying one detaches the searches it had. Kept in a member of its own
// so the store's moves can stay defaulted.
//
// Safe to use from several threads at once, so that two threads that
// start a search on one store by mistake get model_error rather than a
// corrupted registry: the list is locked, and a search takes the store by
// one compare-and-swap (try_start) before it reads anything a running
// search writes. All of this happens once per search, never per node.
// SearchRegistry is SearchRegistryOf<>, compiled where used (see Cells, cells.hpp).
template <class = void>
class SearchRegistryOf {
public:
    SearchRegistryOf() = default;
    SearchRegistryOf(const SearchRegistryOf&) noexcept {}
    SearchRegistryOf(SearchRegistryOf&& o) noexcept { o.detach_all(); }
    SearchRegistryOf& operator=(const SearchRegistryOf& o) noexcept {
        if (this != &o) detach_all();
        return *this;
    }
    SearchRegistryOf& operator=(SearchRegistryOf&& o) noexcept {
        if (this != &o) {
            detach_all();
            o.detach_all();
        }
        return *this;
    }
    ~SearchRegistryOf() { detach_all(); }

    void attach(SearchTie* t) {
        const std::lock_guard lock(m_);
        ties_.push_back(t);
    }
    void detach(SearchTie* t) noexcept {
        const std::lock_guard lock(m_);
        end(t);
        std::erase(ties_, t);
    }
    bool running() const noexcept { return running_.load(std::memory_order_acquire) != nullptr; }
    bool running(const SearchTie* t) const noexcept { return running_.load(std::memory_order_acquire) == t; }
    // Takes the store for t: false, and nothing changed, if a search runs.
    bool try_start(SearchTie* t) noexcept {
        SearchTie* none = nullptr;
        return running_.compare_exchange_strong(none, t, std::memory_order_acq_rel);
    }
    void end(SearchTie* t) noexcept {
        SearchTie* self = t;
        running_.compare_exchange_strong(self, nullptr, std::memory_order_acq_rel);
    }

private:
    void detach_all() noexcept {
        const std::lock_guard lock(m_);
        for (SearchTie* t : ties_) t->attached = false;
        ties_.clear();
        running_.store(nullptr, std::memory_order_release);
    }
    mutable std::mutex m_;
    std::vector<SearchTie*> ties_; // guarded by m_
    std::atomic<SearchTie*> running_{nullptr};
};
using SearchRegistry = SearchRegistryOf<>;

} // namespace detail

} // namespace propane

#endif
