#ifndef PROPANE_ENGINE_WORDS_HPP
#define PROPANE_ENGINE_WORDS_HPP

// The words under a BitDomain (domain.hpp): FixedWords for a width known at
// compile time, DynamicWords, with the summary it caches, for one chosen at
// run time.

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "intervals.hpp"

namespace propane::detail {

using word = std::uint64_t;
inline constexpr int word_bits = 64;

// The number of values in a word. std::popcount is one instruction only
// where the target has one: for x86-64 without POPCNT (the distributions'
// default target) GCC and Clang make it a call into libgcc, and the
// arithmetic form is a dozen instructions. Every x86-64 processor since
// 2008 has the instruction, so it is used when the processor has it, tested
// once at start-up; the test is a load and a branch that always goes the
// same way. (Golomb 10: 4 % fewer instructions, bounds cuts count the values
// they remove.) Before the test has run (a static initialiser elsewhere),
// the arithmetic form answers.
#if defined(__x86_64__) && !defined(__POPCNT__) && defined(__GNUC__)
inline bool detect_popcnt() noexcept {
    __builtin_cpu_init();
    return __builtin_cpu_supports("popcnt");
}
inline const bool has_popcnt = detect_popcnt();
#endif

constexpr unsigned popcount(word x) noexcept {
#if defined(__x86_64__) && !defined(__POPCNT__)
#if defined(__GNUC__)
    if (!std::is_constant_evaluated() && has_popcnt) {
        word n;
        asm("popcnt %1, %0" : "=r"(n) : "rm"(x) : "cc");
        return static_cast<unsigned>(n);
    }
#endif
    x -= (x >> 1) & 0x5555555555555555U;
    x = (x & 0x3333333333333333U) + ((x >> 2) & 0x3333333333333333U);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fU;
    return static_cast<unsigned>((x * 0x0101010101010101U) >> 56);
#else
    return static_cast<unsigned>(std::popcount(x));
#endif
}

inline word low_mask(int bits) noexcept { // bits in [0, 64]
    return bits >= word_bits ? ~word{0} : (word{1} << bits) - 1;
}

template <std::size_t Words>
struct FixedWords {
    int base = 0; // the value of bit 0 of word 0
    std::array<word, Words> w{};
    static constexpr std::size_t size() noexcept { return Words; }
    void allocate(std::size_t) noexcept {}
    word* data() noexcept { return w.data(); }
    const word* data() const noexcept { return w.data(); }
    void set(std::size_t i, word value) noexcept { w[i] = value; }
    void clear(std::size_t i, word bit) noexcept { w[i] &= ~bit; }
};

// The words of a dynamic domain: up to two of them (128 values) inside the
// domain itself, more on the heap. A store keeps its domains in one array,
// so a bound's update finds the words in the line that holds the cached
// bounds rather than in a block of their own elsewhere on the heap (the load
// of that block's word was the most sampled instruction of a bounds update:
// Golomb 11, 0.976 of the time).
class WordBuffer {
public:
    WordBuffer() noexcept = default;
    WordBuffer(const WordBuffer& o) : n_(o.n_) {
        if (n_ > inline_words) p_ = new word[n_];
        std::copy(o.p_, o.p_ + n_, p_);
    }
    WordBuffer(WordBuffer&& o) noexcept { take(o); }
    WordBuffer& operator=(const WordBuffer& o) {
        if (this != &o) {
            WordBuffer copy(o);
            release();
            take(copy);
        }
        return *this;
    }
    WordBuffer& operator=(WordBuffer&& o) noexcept {
        if (this != &o) {
            release();
            take(o);
        }
        return *this;
    }
    ~WordBuffer() { release(); }

    // n words, each `value`.
    void assign(std::size_t n, word value) {
        release();
        if (n > inline_words) p_ = new word[n];
        n_ = static_cast<std::uint32_t>(n);
        std::fill(p_, p_ + n, value);
    }
    std::size_t size() const noexcept { return n_; }
    word* data() noexcept { return p_; }
    const word* data() const noexcept { return p_; }
    word& operator[](std::size_t i) noexcept { return p_[i]; }
    const word& operator[](std::size_t i) const noexcept { return p_[i]; }
    const word* begin() const noexcept { return p_; }
    const word* end() const noexcept { return p_ + n_; }

private:
    static constexpr std::size_t inline_words = 2;

    void release() noexcept {
        if (p_ != inline_) delete[] p_;
        p_ = inline_;
        n_ = 0;
    }
    // o's words become this one's, which holds none; o is left empty.
    void take(WordBuffer& o) noexcept {
        n_ = o.n_;
        if (o.p_ == o.inline_) {
            std::copy(o.inline_, o.inline_ + inline_words, inline_);
        } else {
            p_ = o.p_;
            o.p_ = o.inline_;
        }
        o.n_ = 0;
    }

    // The inline words or the heap block. A pointer rather than a choice
    // made on the size at each access: that test cost more instructions
    // (2.5 % of Golomb 10's) than the load it saves.
    word* p_ = inline_;
    std::uint32_t n_ = 0;
    word inline_[inline_words]{};
};

// Words plus a summary of them: the number of values and the smallest and
// largest. Every write goes through a member below, which updates the
// summary from the words it changes. Only a write that loses the smallest
// (largest) value scans, forward (backward) to the next value, so a bound
// moving across empty words pays for those words once, as the scanning
// queries did on every call.
//
// The bounds are kept as values, not as offsets from base: reading one is
// then one load, where an offset took a second load and an add, and
// propagators read bounds far more often than updates move them (Golomb:
// a three-term sum reads six on every run).
struct DynamicWords {
    WordBuffer w;
    unsigned count = 0;
    int base = 0; // the value of bit 0 of word 0
    // An empty set has lo = base + size() * 64 and hi = base - 1, so the
    // next write that adds values sets both. Domains are never empty, but
    // restore_word takes any word. 64-bit: for a domain of capacity values,
    // that lo is 2^31 past base.
    std::int64_t lo = 0;
    std::int64_t hi = -1;
    // Active in the interval form (intervals.hpp), which then keeps no
    // words: lo, hi and count are its bounds and size, as in the bitset
    // form.
    HoleList holes;

    std::size_t size() const noexcept { return w.size(); }
    void allocate(std::size_t n) { w.assign(n, 0); }
    word* data() noexcept { return w.data(); }
    const word* data() const noexcept { return w.data(); }

    // The bounds' offsets from base: their bit positions in the words.
    std::int64_t lo_at() const noexcept { return lo - base; }
    std::int64_t hi_at() const noexcept { return hi - base; }

    void set(std::size_t i, word value) noexcept {
        const word old = w[i];
        w[i] = value;
        // Restores only gain bits and updates only lose them: one popcount.
        if (const word gained = value & ~old; gained != 0) count += popcount(gained);
        if (const word lost = old & ~value; lost != 0) count -= popcount(lost);
        const std::int64_t at = std::int64_t{base} + static_cast<std::int64_t>(i) * 64;
        const std::int64_t low = lo_at(), high = hi_at();
        if (value != 0 && at + std::countr_zero(value) < lo)
            lo = at + std::countr_zero(value);
        else if ((low >> 6) == static_cast<std::int64_t>(i) && ((value >> (low & 63)) & 1U) == 0)
            lo = base + first_from(i); // nothing below lo in word i, and all earlier words are zero
        if (value != 0 && at + 63 - std::countl_zero(value) > hi)
            hi = at + 63 - std::countl_zero(value);
        else if ((high >> 6) == static_cast<std::int64_t>(i) && ((value >> (high & 63)) & 1U) == 0)
            hi = base + last_from(i);
    }

    // set(i, w[i] & ~bit) for a present value, the commonest update, without
    // the popcounts.
    void clear(std::size_t i, word bit) noexcept {
        w[i] &= ~bit;
        --count;
        const std::int64_t v = std::int64_t{base} + static_cast<std::int64_t>(i) * 64 + std::countr_zero(bit);
        if (v == lo) lo = base + first_from(i);
        if (v == hi) hi = base + last_from(i);
    }

    // The trail's write: it puts back an older word, a superset of the
    // current one, so the bounds can only widen and no scan is needed. Any
    // other word takes set()'s general path.
    void restore(std::size_t i, word value) noexcept {
        const word old = w[i];
        if ((old & ~value) != 0 || value == 0) [[unlikely]] {
            set(i, value);
            return;
        }
        w[i] = value;
        count += popcount(value & ~old);
        const std::int64_t at = std::int64_t{base} + static_cast<std::int64_t>(i) * 64;
        lo = std::min<std::int64_t>(lo, at + std::countr_zero(value));
        hi = std::max<std::int64_t>(hi, at + 63 - std::countl_zero(value));
    }

    // The summary as the trail saves it with a word, so that undoing the
    // word puts the summary back with three stores instead of recomputing it
    // (a popcount and two bit scans per word: 4 % of Golomb 9's
    // instructions). Taken from a domain, which is never empty, every field
    // fits 32 bits.
    struct Summary {
        std::uint32_t count;
        std::int32_t lo, hi;
    };
    Summary summary() const noexcept {
        return {count, static_cast<std::int32_t>(lo), static_cast<std::int32_t>(hi)};
    }
    // Puts back word i and the summary saved with it. The trail undoes a
    // level newest first, so the last word of a domain it puts back is
    // the first one saved, with the summary from before the level's first
    // write: whatever the entries in between held, that one is exact.
    void restore(std::size_t i, word value, Summary s) noexcept {
        w[i] = value;
        count = s.count;
        lo = s.lo;
        hi = s.hi;
    }

    // Removes the offsets `part` marks in word i and those `next` marks in
    // word i + 1 (either may be 0; i + 1 exists when `next` is not), which
    // are `gone` values in all, fewer than count. Only a removed bound sends
    // a bound to a scan, and the count drops by the popcount the caller took
    // anyway, so none of set()'s general tests run: AllDifferent's value
    // stage removes values this way from every open view.
    template <class Hook>
    void drop(std::size_t i, word part, word next, unsigned gone, Hook& before_write) {
        if (part != 0) {
            before_write(i);
            w[i] &= ~part;
        }
        if (next != 0) {
            before_write(i + 1);
            w[i + 1] &= ~next;
        }
        count -= gone;
        const std::int64_t low = lo_at(), high = hi_at();
        if (((w[static_cast<std::size_t>(low >> 6)] >> (low & 63)) & 1U) == 0)
            lo = base + first_from(static_cast<std::size_t>(low >> 6));
        if (((w[static_cast<std::size_t>(high >> 6)] >> (high & 63)) & 1U) == 0)
            hi = base + last_from(static_cast<std::size_t>(high >> 6));
    }

    // Keeps the offsets >= off, for lo < base + off <= hi. The new lo is the
    // first value at or above it, so it is found from off's word on,
    // without set()'s rescans; hi stays. Golomb's linear cuts spend most of
    // their updates here.
    template <class Hook>
    void keep_from(std::int64_t off, Hook& before_write) {
        const auto last = static_cast<std::size_t>(off >> 6);
        for (auto i = static_cast<std::size_t>(lo_at() >> 6); i < last; ++i)
            if (w[i] != 0) {
                before_write(i);
                count -= popcount(w[i]);
                w[i] = 0;
            }
        if (const word below = w[last] & low_mask(static_cast<int>(off & 63)); below != 0) {
            before_write(last);
            count -= popcount(below);
            w[last] &= ~below;
        }
        std::size_t i = last;
        while (w[i] == 0) ++i;
        lo = std::int64_t{base} + static_cast<std::int64_t>(i) * 64 + std::countr_zero(w[i]);
    }

    // Keeps the offsets <= off, for lo <= base + off < hi: keep_from's
    // mirror.
    template <class Hook>
    void keep_to(std::int64_t off, Hook& before_write) {
        const auto first = static_cast<std::size_t>(off >> 6);
        if (const word above = w[first] & ~low_mask(static_cast<int>(off & 63) + 1); above != 0) {
            before_write(first);
            count -= popcount(above);
            w[first] &= ~above;
        }
        for (std::size_t i = first + 1, end = static_cast<std::size_t>(hi_at() >> 6); i <= end; ++i)
            if (w[i] != 0) {
                before_write(i);
                count -= popcount(w[i]);
                w[i] = 0;
            }
        std::size_t i = first;
        while (w[i] == 0) --i;
        hi = std::int64_t{base} + static_cast<std::int64_t>(i) * 64 + 63 - std::countl_zero(w[i]);
    }

    // After raw writes of w: recompute the cache from the words.
    void resync() noexcept {
        count = 0;
        for (const word x : w) count += popcount(x);
        lo = base + first_from(0);
        hi = base + last_from(w.size() - 1);
    }

    // Offset of the smallest value in words i.., or size() * 64 if none.
    std::int64_t first_from(std::size_t i) const noexcept {
        for (; i < w.size(); ++i)
            if (w[i] != 0) return static_cast<std::int64_t>(i) * 64 + std::countr_zero(w[i]);
        return static_cast<std::int64_t>(w.size()) * 64;
    }
    // Offset of the largest value in words ..i, or -1 if none.
    std::int64_t last_from(std::size_t i) const noexcept {
        for (std::size_t j = i + 1; j-- > 0;)
            if (w[j] != 0) return static_cast<std::int64_t>(j) * 64 + 63 - std::countl_zero(w[j]);
        return -1;
    }
};

} // namespace propane::detail

#endif
