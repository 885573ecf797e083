#ifndef PROPANE_ENGINE_DOMAIN_HPP
#define PROPANE_ENGINE_DOMAIN_HPP

// BitDomain<Words>: a finite set of ints stored as a bitset over the values
// base .. base + 64*Words - 1. BitDomain<dynamic> chooses its width at run
// time, and keeps a wide domain as its bounds and holes instead (the
// interval form, intervals.hpp); its state and what the trail does with it
// are in domain_state.hpp, the queries and updates here.
//
// Invariant: a domain is never empty. An update that would empty it leaves
// it untouched and reports Change::failed, so min() and max() are always
// defined and a failed store needs no repair beyond backtracking.

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "change.hpp"
#include "error.hpp"
#include "inline.hpp"
#include "domain_iterator.hpp"
#include "domain_state.hpp"
#include "intervals.hpp"
#include "words.hpp"

namespace propane {

// A dynamic domain takes a cache line of its own: 56 bytes would put some
// across two lines, and the store finds domain i at i * 64, a shift, where
// i * 56 took three instructions on every read of a bound (Golomb 9: 1.4 %
// fewer instructions in all).
template <std::size_t Words>
class alignas(Words == dynamic ? 64 : alignof(std::uint64_t)) BitDomain : public detail::DomainState<Words> {
    using State = detail::DomainState<Words>;
    using State::all_zero;
    using State::bits_;
    using State::end_word;
    using State::first_nonzero;
    using State::first_word;
    using State::last_nonzero;
    using State::value_of;

public:
    using typename State::word;
    using State::interval;
    using State::is_dynamic;
    using State::word_at;
    using State::words;

    // The values lo..hi, in the form r asks for (DomainState).
    BitDomain(int lo, int hi, Representation r = Representation::automatic) : State(lo, hi, r) {}

    // ---- queries -----------------------------------------------------------

    // Branch-free, and for any 64-bit v (one outside int is absent): whether
    // a value is in a domain is as good as random to a branch predictor, and
    // propagators ask it of many domains in a row.
    // A dynamic domain tests v against its cached bounds, which sit in the
    // line already loaded, rather than against its width, which is the
    // difference of the word vector's two pointers (Golomb 10: 0.5 % fewer
    // instructions, most of them AllDifferent's value stage).
    bool contains(std::int64_t v) const noexcept {
        if constexpr (is_dynamic) {
            if (interval()) [[unlikely]]
                return Form::contains(bits_, v);
            const auto lo = static_cast<std::uint64_t>(bits_.lo);
            const auto in = static_cast<unsigned>(static_cast<std::uint64_t>(v) - lo <= static_cast<std::uint64_t>(bits_.hi) - lo);
            const std::uint64_t at = (in != 0 ? static_cast<std::uint64_t>(v) : lo) - static_cast<std::uint64_t>(bits_.base);
            return ((bits_.data()[at >> 6] >> (at & 63)) & 1U) & in;
        } else {
            const std::uint64_t off = detail::offset_of(v, bits_.base);
            const std::size_t i = std::min<std::uint64_t>(off >> 6, words() - 1);
            return ((bits_.data()[i] >> (off & 63)) & 1U) & static_cast<unsigned>(off < 64 * words());
        }
    }

    int min() const noexcept {
        if constexpr (is_dynamic) {
            return static_cast<int>(bits_.lo);
        } else {
            const std::size_t i = first_nonzero();
            return value_of(i, std::countr_zero(bits_.data()[i]));
        }
    }

    int max() const noexcept {
        if constexpr (is_dynamic) {
            return static_cast<int>(bits_.hi);
        } else {
            const std::size_t i = last_nonzero();
            return value_of(i, 63 - std::countl_zero(bits_.data()[i]));
        }
    }

    unsigned size() const noexcept {
        if constexpr (is_dynamic) {
            return bits_.count;
        } else {
            const word* w = bits_.data();
            unsigned n = 0;
            for (std::size_t i = 0; i < words(); ++i) n += detail::popcount(w[i]);
            return n;
        }
    }

    bool fixed() const noexcept {
        if constexpr (is_dynamic) {
            return bits_.count == 1;
        } else {
            const word* w = bits_.data();
            std::size_t i = first_nonzero();
            if ((w[i] & (w[i] - 1)) != 0) return false;
            for (++i; i < words(); ++i)
                if (w[i] != 0) return false;
            return true;
        }
    }

    // The value of a fixed domain (precondition: fixed()).
    int value() const noexcept { return min(); }

    // Smallest value greater than v (precondition: v < max()). v is 64-bit so
    // views can ask about values their own arithmetic puts outside int.
    // Outside the precondition the answer is max(), never a read past the
    // words.
    int next(std::int64_t v) const noexcept {
        if constexpr (is_dynamic) {
            if (interval()) [[unlikely]]
                return static_cast<int>(Form::next(bits_, detail::clamp_far(v)));
        }
        const word* w = bits_.data();
        const std::int64_t off = detail::clamp_far(v) - bits_.base + 1;
        if (off < 0) return min();
        auto i = static_cast<std::size_t>(off >> 6);
        if (i >= words()) return max();
        word rest = w[i] & ~detail::low_mask(static_cast<int>(off & 63));
        while (rest == 0) {
            if (++i == words()) return max();
            rest = w[i];
        }
        return value_of(i, std::countr_zero(rest));
    }

    // Largest value smaller than v (precondition: v > min()); min() outside
    // it.
    int prev(std::int64_t v) const noexcept {
        if constexpr (is_dynamic) {
            if (interval()) [[unlikely]]
                return static_cast<int>(Form::prev(bits_, detail::clamp_far(v)));
        }
        const word* w = bits_.data();
        const std::int64_t off = detail::clamp_far(v) - bits_.base - 1;
        if (off >= std::int64_t(64 * words())) return max();
        if (off < 0) return min();
        auto i = static_cast<std::size_t>(off >> 6);
        word rest = w[i] & detail::low_mask(static_cast<int>(off & 63) + 1);
        while (rest == 0) {
            if (i-- == 0) return min();
            rest = w[i];
        }
        return value_of(i, 63 - std::countl_zero(rest));
    }

    // The greatest w >= v with all of v..w present, for a present v: the
    // end of v's run; run_start(v) is its other end. A walk by runs costs
    // what the domain's gaps do, not its width (see engine/runs.hpp).
    int run_end(int v) const noexcept {
        if constexpr (is_dynamic) {
            if (interval()) [[unlikely]]
                return static_cast<int>(Form::run_end(bits_, v));
        }
        const word* w = bits_.data();
        const std::int64_t off = std::int64_t{v} - bits_.base;
        auto i = static_cast<std::size_t>(off >> 6);
        word gap = ~w[i] & ~detail::low_mask(static_cast<int>(off & 63));
        while (gap == 0) {
            if (++i == words()) return max();
            gap = ~w[i];
        }
        return static_cast<int>(bits_.base + std::int64_t(64 * i) + std::countr_zero(gap) - 1);
    }
    int run_start(int v) const noexcept {
        if constexpr (is_dynamic) {
            if (interval()) [[unlikely]]
                return static_cast<int>(Form::run_start(bits_, v));
        }
        const word* w = bits_.data();
        const std::int64_t off = std::int64_t{v} - bits_.base;
        auto i = static_cast<std::size_t>(off >> 6);
        word gap = ~w[i] & detail::low_mask(static_cast<int>(off & 63));
        while (gap == 0) {
            if (i-- == 0) return min();
            gap = ~w[i];
        }
        return static_cast<int>(bits_.base + std::int64_t(64 * i) + (63 - std::countl_zero(gap)) + 1);
    }

    // The k-th smallest value, from 0 (precondition: k < size()): walked
    // from the nearer end in the bitset form, found from the holes in the
    // interval form, which may hold billions of values.
    int nth(std::uint64_t k) const noexcept {
        if constexpr (is_dynamic) {
            if (interval()) [[unlikely]]
                return static_cast<int>(Form::nth(bits_, k));
        }
        const std::uint64_t n = size();
        int v;
        if (k <= n / 2) {
            for (v = min(); k > 0; --k) v = next(v);
        } else {
            v = max();
            for (std::uint64_t j = n - 1; j > k; --j) v = prev(v);
        }
        return v;
    }

    // Calls f(v) for each value in increasing order. f may remove v: each
    // word is read once, before its values are handed out.
    template <class F>
    void for_each(F&& f) const {
        if constexpr (is_dynamic) {
            if (interval()) [[unlikely]]
                return Form::for_each(bits_, f);
        }
        const word* w = bits_.data();
        for (std::size_t i = 0; i < words(); ++i)
            for (word rest = w[i]; rest != 0; rest &= rest - 1) f(value_of(i, std::countr_zero(rest)));
    }

    // Values in increasing order, by next(): the same walk over either
    // form. Propagators use for_each, which reads words whole; this serves
    // range-for in modelling code.
    using iterator = detail::DomainIterator<BitDomain>;
    iterator begin() const { return iterator(this, min()); }
    iterator end() const { return iterator(this); }

    // ---- updates -----------------------------------------------------------
    //
    // Each update calls before_write(i) just before it first overwrites word
    // i, while the word still holds its old value. The store passes a hook
    // that trails the old contents; standalone use needs none.

    // v is 64-bit, like next()'s: views pass values their own arithmetic
    // may put outside int, which are simply absent.
    template <class Hook = detail::NoHook>
    PROPANE_CLANG_INLINE Change remove(std::int64_t v, Hook&& before_write = {}) {
        if constexpr (Words == 1) {
            // The commonest update on the commonest width, in a dozen
            // instructions: the bounds tests need no scan of other words.
            const std::uint64_t off = detail::offset_of(v, bits_.base);
            if (off >= 64) return Change::none;
            const word old = bits_.w[0], bit = word{1} << off;
            if ((old & bit) == 0) return Change::none;
            const word rest = old & ~bit;
            if (rest == 0) return Change::failed;
            before_write(0);
            bits_.w[0] = rest;
            // Without branches, which would mispredict: domain, plus one if
            // v was the least or the greatest value, plus one if one value
            // is left (then v was one or the other).
            const unsigned at_end = static_cast<unsigned>((rest & (bit - 1)) == 0) | static_cast<unsigned>(bit > rest);
            const unsigned single = static_cast<unsigned>((rest & (rest - 1)) == 0);
            return static_cast<Change>(static_cast<unsigned>(Change::domain) + at_end + single);
        }
        if constexpr (is_dynamic) {
            if (interval()) [[unlikely]]
                return Form::remove(bits_, v, before_write);
        }
        const std::uint64_t off = detail::offset_of(v, bits_.base);
        if (off >= 64 * words()) return Change::none;
        word* w = bits_.data();
        const auto i = static_cast<std::size_t>(off >> 6);
        const word bit = word{1} << (off & 63);
        if ((w[i] & bit) == 0) return Change::none;
        bool lowest, highest;
        if constexpr (is_dynamic) {
            lowest = v == bits_.lo;
            highest = v == bits_.hi;
        } else {
            lowest = (w[i] & (bit - 1)) == 0 && all_zero(0, i);
            highest = (w[i] & ~(bit | (bit - 1))) == 0 && all_zero(i + 1, words());
        }
        if (lowest && highest) return Change::failed;
        before_write(i);
        bits_.clear(i, bit);
        if (!lowest && !highest) return Change::domain;
        return fixed() ? Change::fixed : Change::bounds;
    }

    // Keeps the values >= v.
    template <class Hook = detail::NoHook>
    PROPANE_CLANG_INLINE Change remove_below(int v, Hook&& before_write = {}) {
        if (v <= min()) return Change::none;
        if (v > max()) return Change::failed;
        const std::int64_t off = std::int64_t{v} - bits_.base;
        if constexpr (is_dynamic) {
            if (interval()) [[unlikely]]
                return Form::keep_between(bits_, v, bits_.hi, before_write);
            bits_.keep_from(off, before_write);
            return bits_.lo == bits_.hi ? Change::fixed : Change::bounds;
        }
        word* w = bits_.data();
        const auto last = static_cast<std::size_t>(off >> 6);
        for (std::size_t i = first_word(); i < last; ++i)
            if (w[i] != 0) {
                before_write(i);
                bits_.set(i, 0);
            }
        const word keep = ~detail::low_mask(static_cast<int>(off & 63));
        if ((w[last] & ~keep) != 0) {
            before_write(last);
            bits_.set(last, w[last] & keep);
        }
        return fixed() ? Change::fixed : Change::bounds;
    }

    // Keeps the values a .. b: remove_below(a) and remove_above(b) as one
    // update (empty when a > b), so that a propagator that cuts both ends
    // of a view pays for one call into the store, not two (Golomb 10: a
    // linear cut moves both ends of a term 185 K times).
    template <class Hook = detail::NoHook>
    PROPANE_CLANG_INLINE Change keep_between(int a, int b, Hook&& before_write = {}) {
        if (a <= min()) return remove_above(b, before_write);
        if (b >= max()) return remove_below(a, before_write);
        // min < a <= b < max, so a - 1 is below max, as next() needs.
        if (a > b || next(std::int64_t{a} - 1) > b) return Change::failed;
        if constexpr (is_dynamic) {
            if (interval()) [[unlikely]]
                return Form::keep_between(bits_, a, b, before_write);
            bits_.keep_from(std::int64_t{a} - bits_.base, before_write);
            bits_.keep_to(std::int64_t{b} - bits_.base, before_write);
            return bits_.lo == bits_.hi ? Change::fixed : Change::bounds;
        } else {
            // Neither can fail now.
            static_cast<void>(remove_below(a, before_write));
            static_cast<void>(remove_above(b, before_write));
            return fixed() ? Change::fixed : Change::bounds;
        }
    }

    // Removes the values start + k for the bits k of mask, in one update
    // (AllDifferent's value stage removes the values of several views
    // fixed at once: two per view it touches, in Golomb).
    template <class Hook = detail::NoHook>
    Change remove_bits(std::int64_t start, word mask, Hook&& before_write = {}) {
        if constexpr (is_dynamic) {
            if (interval()) [[unlikely]]
                return Form::remove_bits(bits_, detail::clamp_far(start), mask, before_write);
            // The mask laid over the one or two words the window meets, each
            // part then dropped from its word, rather than the window's bits
            // gathered into one word and split again.
            const std::int64_t from = detail::clamp_far(start);
            if (from > bits_.hi || from + 63 < bits_.lo) return Change::none;
            // A window that meets the bounds starts less than 64 below the
            // words.
            const std::int64_t off = from - bits_.base;
            const word* w = bits_.data();
            std::size_t i = 0;
            word part, next = 0;
            if (off < 0) {
                part = w[0] & (mask >> -off);
            } else {
                i = static_cast<std::size_t>(off >> 6);
                const int shift = static_cast<int>(off & 63);
                part = w[i] & (mask << shift);
                if (shift != 0 && i + 1 < words()) next = w[i + 1] & (mask >> (64 - shift));
            }
            if ((part | next) == 0) return Change::none;
            const unsigned n = size(), gone = detail::popcount(part) + detail::popcount(next);
            if (gone == n) return Change::failed;
            const std::int64_t old_lo = bits_.lo, old_hi = bits_.hi;
            bits_.drop(i, part, next, gone, before_write);
            if (gone + 1 == n) return Change::fixed;
            return bits_.lo != old_lo || bits_.hi != old_hi ? Change::bounds : Change::domain;
        }
        const word hit = bits_from(start) & mask;
        if (hit == 0) return Change::none;
        const unsigned n = size(), gone = detail::popcount(hit);
        if (gone == n) return Change::failed;
        // A window that meets the words starts less than 64 below them.
        const std::int64_t off = detail::clamp_far(start) - bits_.base;
        const int old_min = min(), old_max = max();
        word* w = bits_.data();
        const auto clear = [&](std::size_t i, word part) {
            if (part == 0) return;
            before_write(i);
            bits_.set(i, w[i] & ~part);
        };
        if (off < 0) {
            clear(0, hit >> -off);
        } else {
            const auto i = static_cast<std::size_t>(off >> 6);
            const int shift = static_cast<int>(off & 63);
            clear(i, hit << shift);
            if (shift != 0) clear(i + 1, hit >> (64 - shift));
        }
        if (gone + 1 == n) return Change::fixed;
        return min() != old_min || max() != old_max ? Change::bounds : Change::domain;
    }

    // Removes the values a..b (none when a > b), in one update: a run of
    // values cut from inside an interval domain is one hole, where value
    // by value it would take as many calls as it has values.
    template <class Hook = detail::NoHook>
    Change remove_range(std::int64_t a, std::int64_t b, Hook&& before_write = {}) {
        a = std::max<std::int64_t>(a, min());
        b = std::min<std::int64_t>(b, max());
        if (a > b) return Change::none;
        if (a == min() && b == max()) return Change::failed;
        if (a == min()) return remove_below(static_cast<int>(b + 1), before_write);
        if (b == max()) return remove_above(static_cast<int>(a - 1), before_write);
        if constexpr (is_dynamic) {
            if (interval()) [[unlikely]]
                return Form::remove_inside(bits_, a, b, before_write);
        }
        // Strictly inside the bounds: only values between them go.
        Change c = Change::none;
        for (std::int64_t start = a; start <= b; start += 64) {
            const int n = static_cast<int>(std::min<std::int64_t>(64, b - start + 1));
            if (remove_bits(start, detail::low_mask(n), before_write) != Change::none) c = Change::domain;
        }
        return c;
    }

    // Keeps the values <= v.
    template <class Hook = detail::NoHook>
    PROPANE_CLANG_INLINE Change remove_above(int v, Hook&& before_write = {}) {
        if (v >= max()) return Change::none;
        if (v < min()) return Change::failed;
        const std::int64_t off = std::int64_t{v} - bits_.base;
        if constexpr (is_dynamic) {
            if (interval()) [[unlikely]]
                return Form::keep_between(bits_, bits_.lo, v, before_write);
            bits_.keep_to(off, before_write);
            return bits_.lo == bits_.hi ? Change::fixed : Change::bounds;
        }
        word* w = bits_.data();
        const auto first = static_cast<std::size_t>(off >> 6);
        const word keep = detail::low_mask(static_cast<int>(off & 63) + 1);
        const std::size_t end = end_word();
        if ((w[first] & ~keep) != 0) {
            before_write(first);
            bits_.set(first, w[first] & keep);
        }
        for (std::size_t i = first + 1; i < end; ++i)
            if (w[i] != 0) {
                before_write(i);
                bits_.set(i, 0);
            }
        return fixed() ? Change::fixed : Change::bounds;
    }

    template <class Hook = detail::NoHook>
    Change assign(int v, Hook&& before_write = {}) {
        if constexpr (is_dynamic) {
            if (interval()) [[unlikely]]
                return Form::assign(bits_, v, before_write);
        }
        if (!contains(v)) return Change::failed;
        if (fixed()) return Change::none;
        const std::int64_t off = std::int64_t{v} - bits_.base;
        const auto k = static_cast<std::size_t>(off >> 6);
        const word bit = word{1} << (off & 63);
        word* w = bits_.data();
        const std::size_t begin = first_word(), end = end_word();
        for (std::size_t i = begin; i < end; ++i) {
            const word want = i == k ? bit : 0;
            if (w[i] != want) {
                before_write(i);
                if constexpr (is_dynamic)
                    w[i] = want; // the summary is known: set once below
                else
                    bits_.set(i, want);
            }
        }
        if constexpr (is_dynamic) {
            bits_.count = 1;
            bits_.lo = bits_.hi = v;
        }
        return Change::fixed;
    }

    // Keeps the values also in `mask`, whatever its base and width.
    template <std::size_t OtherWords, class Hook = detail::NoHook>
    Change intersect(const BitDomain<OtherWords>& mask, Hook&& before_write = {}) {
        if constexpr (is_dynamic) {
            if (interval()) [[unlikely]]
                return Form::intersect(bits_, mask, before_write);
        }
        word* w = bits_.data();
        const std::size_t begin = first_word(), end = end_word();
        bool any = false, changed = false;
        for (std::size_t i = begin; i < end; ++i) {
            const word kept = w[i] & mask.bits_from(std::int64_t{bits_.base} + 64 * std::int64_t(i));
            any |= kept != 0;
            changed |= kept != w[i];
        }
        if (!any) return Change::failed;
        if (!changed) return Change::none;
        const int old_min = min(), old_max = max();
        for (std::size_t i = begin; i < end; ++i) {
            const word kept = w[i] & mask.bits_from(std::int64_t{bits_.base} + 64 * std::int64_t(i));
            if (kept != w[i]) {
                before_write(i);
                bits_.set(i, kept);
            }
        }
        if (fixed()) return Change::fixed;
        return min() != old_min || max() != old_max ? Change::bounds : Change::domain;
    }

    // The 64 membership bits for the values start .. start + 63 (bit k is
    // start + k), wherever start falls relative to this domain's words.
    word bits_from(std::int64_t start) const noexcept {
        const std::int64_t off = detail::clamp_far(start) - bits_.base;
        if constexpr (Words == 1) {
            // Without branches: where start falls varies from view to view.
            const word w = bits_.w[0];
            const word below = off >= 0 && off < 64 ? w >> (off & 63) : 0;
            const word above = off < 0 && off > -64 ? w << (-off & 63) : 0;
            return below | above;
        }
        if constexpr (is_dynamic) {
            if (interval()) [[unlikely]]
                return Form::bits_from(bits_, detail::clamp_far(start));
            // Against the cached bounds, in the line already loaded: a
            // window that misses them holds nothing, and one that meets
            // them lies within the words.
            const std::int64_t from = detail::clamp_far(start);
            if (from > bits_.hi || from + 63 < bits_.lo) return 0;
        } else {
            if (off <= -64 || off >= std::int64_t(64 * words())) return 0;
        }
        const word* w = bits_.data();
        if (off < 0) return w[0] << (-off);
        const auto i = static_cast<std::size_t>(off >> 6);
        const int shift = static_cast<int>(off & 63);
        word lo = w[i] >> shift;
        if (shift != 0 && i + 1 < words()) lo |= w[i + 1] << (64 - shift);
        return lo;
    }

    bool operator==(const BitDomain& o) const noexcept {
        if (bits_.base != o.bits_.base || words() != o.words() || interval() != o.interval()) return false;
        if constexpr (is_dynamic)
            if (interval())
                return bits_.lo == o.bits_.lo && bits_.hi == o.bits_.hi &&
                   std::equal(bits_.holes.get().begin(), bits_.holes.get().end(), o.bits_.holes.get().begin(),
                              o.bits_.holes.get().end(),
                              [](const detail::Hole& a, const detail::Hole& b) { return a.lo == b.lo && a.hi == b.hi; });
        for (std::size_t i = 0; i < words(); ++i)
            if (word_at(i) != o.word_at(i)) return false;
        return true;
    }

private:
    using Form = detail::IntervalForm;
};

} // namespace propane

#endif
