#ifndef PROPANE_ENGINE_SEARCHES_HPP
#define PROPANE_ENGINE_SEARCHES_HPP

// The searches over a store, and which one of them runs (see store.hpp and
// the "Rules of use" in the README).

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
// levels): at most one may run at a time. A copy of a store has no
// searches; moving or destroying one detaches the searches it had. Kept in
// a member of its own so the store's moves can stay defaulted.
class SearchRegistry {
public:
    SearchRegistry() = default;
    SearchRegistry(const SearchRegistry&) noexcept {}
    SearchRegistry(SearchRegistry&& o) noexcept { o.detach_all(); }
    SearchRegistry& operator=(const SearchRegistry& o) noexcept {
        if (this != &o) detach_all();
        return *this;
    }
    SearchRegistry& operator=(SearchRegistry&& o) noexcept {
        if (this != &o) {
            detach_all();
            o.detach_all();
        }
        return *this;
    }
    ~SearchRegistry() { detach_all(); }

    void attach(SearchTie* t) { ties_.push_back(t); }
    void detach(SearchTie* t) noexcept {
        if (running_ == t) running_ = nullptr;
        std::erase(ties_, t);
    }
    bool running() const noexcept { return running_ != nullptr; }
    bool running(const SearchTie* t) const noexcept { return running_ == t; }
    void start(SearchTie* t) noexcept { running_ = t; }
    void end(SearchTie* t) noexcept {
        if (running_ == t) running_ = nullptr;
    }

private:
    void detach_all() noexcept {
        for (SearchTie* t : ties_) t->attached = false;
        ties_.clear();
        running_ = nullptr;
    }
    std::vector<SearchTie*> ties_;
    SearchTie* running_ = nullptr;
};

} // namespace detail

} // namespace propane

#endif
