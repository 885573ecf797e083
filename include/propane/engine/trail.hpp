#ifndef PROPANE_ENGINE_TRAIL_HPP
#define PROPANE_ENGINE_TRAIL_HPP

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
//
// Entries live in fixed-size blocks, not one vector: a deep dive (the first
// solution of 5000 queens) records hundreds of megabytes, and a doubling
// vector would copy all of it on each growth and touch twice the memory.
// Blocks, once allocated, are kept and reused.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

namespace propane {

template <class Entry>
class Trail {
public:
    Trail() = default;
    Trail(Trail&&) noexcept = default;
    Trail& operator=(Trail&&) noexcept = default;
    Trail(const Trail& o) : marks_(o.marks_), last_stamp_(o.last_stamp_), stamp_(o.stamp_) {
        for (std::size_t i = 0; i < o.size_; ++i) record_raw(o.at(i));
    }
    Trail& operator=(const Trail& o) {
        if (this != &o) *this = Trail(o);
        return *this;
    }

    int level() const noexcept { return static_cast<int>(marks_.size()); }
    bool recording() const noexcept { return stamp_ != 0; }
    // Kept in a member rather than read from marks_.back(): every update
    // compares against it.
    std::uint64_t stamp() const noexcept { return stamp_; }
    std::size_t entries() const noexcept { return size_; }

    // Room for n levels, so a search that goes no deeper pushes levels
    // without allocating.
    void reserve_levels(std::size_t n) { marks_.reserve(n); }

    void push_level() {
        marks_.push_back({size_, ++last_stamp_});
        stamp_ = last_stamp_;
    }

    // Undoes the newest level: undo(entry) is called for each entry recorded
    // in it, newest first. Precondition: level() > 0.
    template <class Undo>
    void pop_level(Undo&& undo) {
        const std::size_t keep = marks_.back().size;
        marks_.pop_back();
        stamp_ = marks_.empty() ? 0 : marks_.back().stamp;
        while (size_ > keep) {
            const Slot* block = blocks_[(size_ - 1) >> block_bits].get();
            const std::size_t stop = std::max(keep, (size_ - 1) & ~block_mask);
            for (; size_ > stop; --size_) undo(entry(block[(size_ - 1) & block_mask]));
        }
    }

    void record(const Entry& e) {
        if (recording()) record_raw(e);
    }

    // Records e only when `keep` (and inside a level), without branching on
    // it: the entry is written to the next slot either way and counted only
    // when kept. Whether a variable was already saved in this level is as
    // good as random to a branch predictor, and search asks it of every
    // removal.
#if defined(__GNUC__)
    [[gnu::always_inline]]
#endif
    void record_when(const Entry& e, bool keep) {
        write_next(e);
        size_ += static_cast<std::size_t>(keep & recording());
    }

    // Keeps the blocks, so a search that reuses the trail does not allocate
    // again.
    void clear() noexcept {
        size_ = 0;
        marks_.clear();
        stamp_ = 0;
    }

private:
    static constexpr int block_bits = 12; // 4096 entries a block
    static constexpr std::size_t block_mask = (std::size_t{1} << block_bits) - 1;

    struct Mark {
        std::size_t size;
        std::uint64_t stamp;
    };
    // Raw storage: entries (a saved domain, say) need not be default
    // constructible, and a block is never cleared, only overwritten.
    static_assert(std::is_trivially_copyable_v<Entry> && std::is_trivially_destructible_v<Entry>);
    struct Slot {
        alignas(Entry) std::byte raw[sizeof(Entry)];
    };

    static const Entry& entry(const Slot& slot) noexcept {
        return *std::launder(reinterpret_cast<const Entry*>(slot.raw));
    }
    const Entry& at(std::size_t i) const noexcept { return entry(blocks_[i >> block_bits][i & block_mask]); }

    // Small enough to inline into every update (GCC declines on its own);
    // growing is out of line.
#if defined(__GNUC__)
    [[gnu::always_inline]]
#endif
    void record_raw(const Entry& e) {
        write_next(e);
        ++size_;
    }
    // Writes e to slot size_ without counting it.
#if defined(__GNUC__)
    [[gnu::always_inline]]
#endif
    void write_next(const Entry& e) {
        if (size_ == capacity_) [[unlikely]] grow();
        std::construct_at(reinterpret_cast<Entry*>(blocks_[size_ >> block_bits][size_ & block_mask].raw), e);
    }
#if defined(__GNUC__)
    [[gnu::noinline]]
#endif
    void grow() {
        blocks_.push_back(std::make_unique_for_overwrite<Slot[]>(block_mask + 1));
        capacity_ += block_mask + 1;
    }

    std::vector<std::unique_ptr<Slot[]>> blocks_;
    std::size_t size_ = 0;
    std::size_t capacity_ = 0; // entries the blocks hold
    std::vector<Mark> marks_;
    std::uint64_t last_stamp_ = 0;
    std::uint64_t stamp_ = 0; // of the newest level, 0 below the first
};

} // namespace propane

#endif
