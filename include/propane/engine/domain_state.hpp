#ifndef PROPANE_ENGINE_DOMAIN_STATE_HPP
#define PROPANE_ENGINE_DOMAIN_STATE_HPP

// DomainState<Words>: what a BitDomain (domain.hpp) is made of, how it is
// made in either form, and what the store's trail saves and puts back of
// it. BitDomain adds the queries and updates on top.
//
// A fixed-width domain is its words: it recomputes its bounds and size from
// the bits with countr_zero, countl_zero and popcount, which for a few words
// is a handful of instructions, and it leaves nothing else to trail. A
// dynamic domain can have thousands of words, and search asks every
// variable its size at every node, so it caches size and bounds instead.
// The cache is derived from the words and kept exact by every write. The
// trail saves it with each word and puts both back together;
// restore_word(i, w) alone recomputes it. In the interval form a dynamic
// domain has no words: its bounds, count and holes are saved whole, once
// per level.

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "change.hpp"
#include "error.hpp"
#include "intervals.hpp"
#include "words.hpp"

namespace propane::detail {

template <std::size_t Words>
class DomainState {
    static_assert(Words > 0, "a domain needs at least one word");

public:
    using word = detail::word;
    static constexpr bool is_dynamic = Words == dynamic;
    // Largest number of values a bitset of this type can hold; a dynamic
    // domain in the interval form holds up to `capacity`, every int but
    // one (the size is 32-bit).
    static constexpr std::int64_t bitset_capacity =
        is_dynamic ? std::int64_t{std::numeric_limits<int>::max()} : std::int64_t(64 * Words);
    static constexpr std::int64_t capacity =
        is_dynamic ? std::int64_t{std::numeric_limits<std::uint32_t>::max()} : bitset_capacity;
    // The widest domain Representation::automatic makes a bitset: 1024
    // words, 8 KiB and as much again for the trail's stamps.
    static constexpr std::int64_t bitset_limit = std::int64_t{1} << 16;

    int base() const noexcept { return bits_.base; }
    // The form this domain is kept in; always bitset for a fixed width.
    Representation representation() const noexcept {
        return interval() ? Representation::interval : Representation::bitset;
    }
    // The words of the bitset form (none in the interval form).
    std::size_t words() const noexcept { return bits_.size(); }
    word word_at(std::size_t i) const noexcept { return bits_.data()[i]; }

    bool interval() const noexcept {
        if constexpr (is_dynamic)
            return bits_.holes.active();
        else
            return false;
    }

    // A fixed-width domain's words, all of its state that can change: the
    // trail saves these rather than the whole domain, whose base never
    // changes.
    using saved_words = std::array<word, is_dynamic ? 1 : Words>;
    saved_words save_words() const noexcept
        requires(!is_dynamic)
    {
        return bits_.w;
    }
    void restore_words(const saved_words& w) noexcept
        requires(!is_dynamic)
    {
        bits_.w = w;
    }

    // Raw word access for the trail, which restores saved words verbatim.
    // Each call leaves size and bounds exact on its own, whatever order the
    // words of a level come back in.
    void restore_word(std::size_t i, word value) noexcept {
        if constexpr (is_dynamic)
            bits_.restore(i, value);
        else
            bits_.set(i, value);
    }

    // A dynamic domain's summary, saved by the trail along with a word, and
    // put back with it (see DynamicWords::restore).
    using summary_type = DynamicWords::Summary;
    summary_type summary() const noexcept
        requires(is_dynamic)
    {
        return bits_.summary();
    }
    void restore_word(std::size_t i, word value, const summary_type& s) noexcept
        requires(is_dynamic)
    {
        bits_.restore(i, value, s);
    }

    // The trail's view of the interval form: the store saves the holes
    // with the summary (once per level, as before_write(0) asks) and puts
    // both back at once.
    std::size_t trail_slots() const noexcept { return interval() ? 1 : words(); }
    const std::vector<Hole>& holes() const noexcept
        requires(is_dynamic)
    {
        return bits_.holes.get();
    }
    void restore_interval(const Hole* first, const Hole* last, const summary_type& s)
        requires(is_dynamic)
    {
        // Without holes then or now (the count fills the bounds), there is
        // no list to touch.
        if (first != last || std::int64_t{bits_.count} != bits_.hi - bits_.lo + 1) bits_.holes.get().assign(first, last);
        bits_.count = s.count;
        bits_.lo = s.lo;
        bits_.hi = s.hi;
    }

    // For a long unwind, where most words come back several times: write
    // words raw, then resync() once. In between, size and bounds are stale.
    void restore_word_unsynced(std::size_t i, word value) noexcept { bits_.data()[i] = value; }
    void resync() noexcept {
        if constexpr (is_dynamic) bits_.resync();
    }

protected:
    using Storage = std::conditional_t<Words == dynamic, DynamicWords, FixedWords<Words>>;

    // The values lo..hi, in the form r asks for. Throws model_error when
    // lo > hi, when the range has more values than the form can hold, or
    // for an interval in a fixed-width domain.
    DomainState(int lo, int hi, Representation r) {
        bits_.base = lo;
        if (lo > hi)
            throw model_error(formatted("empty domain: lo %d > hi %d", lo, hi));
        const std::int64_t count = std::int64_t{hi} - lo + 1;
        const auto too_wide = [&](std::int64_t cap, const char* form) {
            return model_error(formatted("domain %d..%d has %lld values, more than %s holds (%lld)", lo, hi,
                                         static_cast<long long>(count), form, static_cast<long long>(cap)));
        };
        if constexpr (is_dynamic) {
            if (r == Representation::interval || (r == Representation::automatic && count > bitset_limit)) {
                if (count > capacity) throw too_wide(capacity, "a domain");
                bits_.holes.activate();
                bits_.count = static_cast<unsigned>(count);
                bits_.lo = lo;
                bits_.hi = hi;
                return;
            }
        } else if (r == Representation::interval) {
            throw model_error(formatted("domain %d..%d: a fixed-width BitDomain holds bitsets only; the interval "
                                        "form needs Store<BitDomain<dynamic>>",
                                        lo, hi));
        }
        if (count > bitset_capacity) throw too_wide(bitset_capacity, is_dynamic ? "a bitset" : "this domain type");
        bits_.allocate(static_cast<std::size_t>((count + 63) / 64));
        word* w = bits_.data();
        const auto full = static_cast<std::size_t>(count / 64);
        for (std::size_t i = 0; i < full; ++i) w[i] = ~word{0};
        if (count % 64 != 0) w[full] = low_mask(static_cast<int>(count % 64));
        if constexpr (is_dynamic) {
            bits_.count = static_cast<unsigned>(count);
            bits_.lo = lo;
            bits_.hi = hi;
        }
    }

    int value_of(std::size_t i, int bit) const noexcept { return bits_.base + static_cast<int>(64 * i) + bit; }

    // The words that can hold values: a dynamic domain knows its bounds, so
    // its updates skip the empty words outside them.
    std::size_t first_word() const noexcept {
        if constexpr (is_dynamic)
            return static_cast<std::size_t>(bits_.lo_at() >> 6);
        else
            return 0;
    }
    std::size_t end_word() const noexcept {
        if constexpr (is_dynamic)
            return static_cast<std::size_t>(bits_.hi_at() >> 6) + 1;
        else
            return words();
    }

    // Where the smallest (largest) value lives. A domain is never empty,
    // so one word needs no search.
    std::size_t first_nonzero() const noexcept {
        if constexpr (Words == 1) {
            return 0;
        } else {
            std::size_t i = 0;
            while (bits_.data()[i] == 0) ++i;
            return i;
        }
    }
    std::size_t last_nonzero() const noexcept {
        if constexpr (Words == 1) {
            return 0;
        } else {
            std::size_t i = words() - 1;
            while (bits_.data()[i] == 0) --i;
            return i;
        }
    }

    bool all_zero(std::size_t from, std::size_t to) const noexcept {
        const word* w = bits_.data();
        for (std::size_t i = from; i < to; ++i)
            if (w[i] != 0) return false;
        return true;
    }

    Storage bits_;
};

} // namespace propane::detail

#endif
