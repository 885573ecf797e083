#ifndef PROPANE_TRAIL_HPP
#define PROPANE_TRAIL_HPP

// Trail<Entry>: the undo log that makes backtracking cheap. Each search
// level pushes a mark; every change made inside the level first records what
// it overwrites; popping the level replays those records newest first.
//
// Recording once per level is the caller's job, helped by stamp(): a number
// unique to the current level *instance* (a level popped and pushed again
// gets a fresh stamp), so "stamp of my last save == stamp()" means "already
// saved in this level" without any clearing on backtrack. MiniCP's magic
// number and OR-Tools' Rev<T> stamp work the same way.
//
// Below the first mark nothing is recorded: changes made while building the
// model are permanent.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace propane {

template <class Entry>
class Trail {
public:
    int level() const noexcept { return static_cast<int>(marks_.size()); }
    bool recording() const noexcept { return !marks_.empty(); }
    std::uint64_t stamp() const noexcept { return marks_.empty() ? 0 : marks_.back().stamp; }
    std::size_t entries() const noexcept { return entries_.size(); }

    void push_level() { marks_.push_back({entries_.size(), ++last_stamp_}); }

    // Undoes the newest level: undo(entry) is called for each entry recorded
    // in it, newest first. Precondition: level() > 0.
    template <class Undo>
    void pop_level(Undo&& undo) {
        const std::size_t keep = marks_.back().size;
        marks_.pop_back();
        while (entries_.size() > keep) {
            undo(entries_.back());
            entries_.pop_back();
        }
    }

    void record(const Entry& e) {
        if (recording()) entries_.push_back(e);
    }

    // Keeps the buffers' capacity, so a search that reuses the trail does
    // not allocate again.
    void clear() noexcept {
        entries_.clear();
        marks_.clear();
    }

private:
    struct Mark {
        std::size_t size;
        std::uint64_t stamp;
    };
    std::vector<Entry> entries_;
    std::vector<Mark> marks_;
    std::uint64_t last_stamp_ = 0;
};

} // namespace propane

#endif
