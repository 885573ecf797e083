#ifndef PROPANE_ENGINE_INTERVALS_HPP
#define PROPANE_ENGINE_INTERVALS_HPP

// The interval form of a dynamic domain (BitDomain<dynamic>, domain.hpp):
// for a domain too wide for a bitset (a sum, an objective, a time horizon),
// its bounds and size, as the bitset form caches them, and the runs of
// values removed between the bounds (holes), sorted. Its memory grows with
// what was removed, never with its width: a variable over 0..10^9 costs
// what one over 0..10 does until values inside it go.
//
// Most wide domains only ever lose values at their ends (linear sums,
// products, resources reason on bounds), and a bound's update is then a
// few stores. A value removed inside makes or widens a hole: a binary
// search, and an insertion into a vector that stays short in practice.
//
// The algorithms are written once here over the fields of the dynamic
// domain's storage (lo, hi, count, holes), so that the bitset form, the
// fast path of every other model, stays as it was apart from one test.

#include <algorithm>
#include <bit>
#include <cstdint>
#include <iterator>
#include <utility>
#include <vector>

#include "change.hpp"

namespace propane::detail {

// The values lo..hi, all absent. 64-bit ends: no arithmetic on them wraps.
struct Hole {
    std::int64_t lo, hi;
};

// An owned vector of holes behind one pointer, so that a dynamic domain
// stays within its cache line; null while the domain is a bitset. Copies
// are deep: a copied store must not share a domain's holes.
// HoleList is HoleListOf<>, compiled where used (see Cells, cells.hpp).
template <class = void>
class HoleListOf {
public:
    HoleListOf() noexcept = default;
    HoleListOf(const HoleListOf& o) : v_(o.v_ != nullptr ? new std::vector<Hole>(*o.v_) : nullptr) {}
    HoleListOf(HoleListOf&& o) noexcept : v_(std::exchange(o.v_, nullptr)) {}
    HoleListOf& operator=(const HoleListOf& o) {
        if (this != &o) {
            HoleListOf copy(o);
            std::swap(v_, copy.v_);
        }
        return *this;
    }
    HoleListOf& operator=(HoleListOf&& o) noexcept {
        std::swap(v_, o.v_);
        return *this;
    }
    ~HoleListOf() { delete v_; }

    bool active() const noexcept { return v_ != nullptr; }
    void activate() {
        if (v_ == nullptr) v_ = new std::vector<Hole>();
    }
    std::vector<Hole>& get() noexcept { return *v_; }
    const std::vector<Hole>& get() const noexcept { return *v_; }

private:
    std::vector<Hole>* v_ = nullptr;
};
using HoleList = HoleListOf<>;

// The operations of the interval form, over any storage with the fields
// lo, hi (int64, the present bounds), count (the number of values) and
// holes (a HoleList, active). Invariants: lo and hi are present, so every
// hole lies strictly between them; holes are disjoint, never adjacent, and
// sorted. Each update calls before_write(0) once, before it writes, so the
// store saves the domain once per level (its trail copies the holes).
// IntervalForm is IntervalFormOf<>, compiled where used (see Cells, cells.hpp).
template <class = void>
struct IntervalFormOf {
    using Holes = std::vector<Hole>;

    // The first hole whose upper end is at least v.
    static Holes::const_iterator from(const Holes& h, std::int64_t v) noexcept {
        return std::lower_bound(h.begin(), h.end(), v, [](const Hole& x, std::int64_t w) { return x.hi < w; });
    }
    static Holes::iterator from(Holes& h, std::int64_t v) noexcept {
        return std::lower_bound(h.begin(), h.end(), v, [](const Hole& x, std::int64_t w) { return x.hi < w; });
    }

    // Whether every value between the bounds is present, told by the count
    // in the domain's own cache line: then the holes' vector, another
    // allocation, is empty and need not be read. Sums and objectives that
    // only ever move their bounds stay solid (road-cons: a third of the
    // search's time went to reading empty hole lists).
    template <class B>
    static bool solid(const B& b) noexcept {
        return std::int64_t{b.count} == b.hi - b.lo + 1;
    }

    template <class B>
    static bool contains(const B& b, std::int64_t v) noexcept {
        if (v < b.lo || v > b.hi) return false;
        if (solid(b)) return true;
        const Holes& h = b.holes.get();
        const auto it = from(h, v);
        return it == h.end() || it->lo > v;
    }

    // The least present value >= v, for lo <= v <= hi: v, or the end of
    // the hole v falls in plus one (present, as holes are never adjacent
    // and never reach hi).
    template <class B>
    static std::int64_t first_from(const B& b, std::int64_t v) noexcept {
        if (solid(b)) return v;
        const Holes& h = b.holes.get();
        const auto it = from(h, v);
        return it != h.end() && it->lo <= v ? it->hi + 1 : v;
    }
    // The greatest present value <= v, for lo <= v <= hi.
    template <class B>
    static std::int64_t last_to(const B& b, std::int64_t v) noexcept {
        if (solid(b)) return v;
        const Holes& h = b.holes.get();
        const auto it = from(h, v);
        return it != h.end() && it->lo <= v ? it->lo - 1 : v;
    }

    template <class B>
    static std::int64_t next(const B& b, std::int64_t v) noexcept {
        const std::int64_t w = std::max(v + 1, b.lo);
        return w > b.hi ? b.hi : first_from(b, w);
    }
    template <class B>
    static std::int64_t prev(const B& b, std::int64_t v) noexcept {
        const std::int64_t w = std::min(v - 1, b.hi);
        return w < b.lo ? b.lo : last_to(b, w);
    }

    // The ends of the run of present values around a present v: the hole
    // after it starts one past its end, the hole before it ends one short
    // of its start.
    template <class B>
    static std::int64_t run_end(const B& b, std::int64_t v) noexcept {
        if (solid(b)) return b.hi;
        const Holes& h = b.holes.get();
        const auto it = from(h, v);
        return it == h.end() ? b.hi : it->lo - 1;
    }
    template <class B>
    static std::int64_t run_start(const B& b, std::int64_t v) noexcept {
        if (solid(b)) return b.lo;
        const Holes& h = b.holes.get();
        const auto it = from(h, v);
        return it == h.begin() ? b.lo : std::prev(it)->hi + 1;
    }

    // The k-th smallest value (from 0, k < count): past each hole that
    // starts at or below it so far.
    template <class B>
    static std::int64_t nth(const B& b, std::uint64_t k) noexcept {
        std::int64_t v = b.lo + static_cast<std::int64_t>(k);
        for (const Hole& h : b.holes.get()) {
            if (h.lo > v) break;
            v += h.hi - h.lo + 1;
        }
        return v;
    }

    // Calls f(v) for each value in increasing order; f may remove v (the
    // value after it is found first).
    template <class B, class F>
    static void for_each(const B& b, F&& f) {
        std::int64_t v = b.lo;
        for (;;) {
            const bool more = v < b.hi;
            const std::int64_t after = more ? first_from(b, v + 1) : 0;
            f(static_cast<int>(v));
            if (!more) return;
            v = after;
        }
    }

    // The 64 membership bits of start .. start + 63.
    template <class B>
    static std::uint64_t bits_from(const B& b, std::int64_t start) noexcept {
        const std::int64_t a = std::max(start, b.lo), z = std::min(start + 63, b.hi);
        if (a > z) return 0;
        const auto span = [start](std::int64_t x, std::int64_t y) { // bits x - start .. y - start
            const int from = static_cast<int>(x - start), to = static_cast<int>(y - start);
            const std::uint64_t upto = to >= 63 ? ~std::uint64_t{0} : (std::uint64_t{1} << (to + 1)) - 1;
            return upto & ~((std::uint64_t{1} << from) - 1);
        };
        std::uint64_t out = span(a, z);
        if (solid(b)) return out;
        const Holes& h = b.holes.get();
        for (auto it = from(h, a); it != h.end() && it->lo <= z; ++it)
            out &= ~span(std::max(it->lo, a), std::min(it->hi, z));
        return out;
    }

    // ---- updates ----------------------------------------------------------

    template <class B, class Hook>
    static Change remove(B& b, std::int64_t v, Hook& before_write) {
        if (!contains(b, v)) return Change::none;
        if (b.lo == b.hi) return Change::failed;
        before_write(0);
        --b.count;
        if (v == b.lo || v == b.hi) {
            if (v == b.lo) b.lo = first_from(b, v + 1);
            else b.hi = last_to(b, v - 1);
            trim(b);
            return b.count == 1 ? Change::fixed : Change::bounds;
        }
        Holes& h = b.holes.get();
        // The first hole ending at v - 1 or later: one just below v grows up
        // to it (and meets one just above), one just above grows down.
        const auto it = from(h, v - 1);
        if (it != h.end() && it->hi == v - 1) {
            it->hi = v;
            if (const auto up = it + 1; up != h.end() && up->lo == v + 1) {
                it->hi = up->hi;
                h.erase(up);
            }
        } else if (it != h.end() && it->lo == v + 1) {
            it->lo = v;
        } else {
            h.insert(it, Hole{v, v});
        }
        return Change::domain;
    }

    // Keeps the values a..b (a <= b, at least one of them within the
    // bounds, as BitDomain's callers ensure).
    template <class B, class Hook>
    static Change keep_between(B& b, std::int64_t a, std::int64_t z, Hook& before_write) {
        a = std::max(a, b.lo);
        z = std::min(z, b.hi);
        if (a == b.lo && z == b.hi) return Change::none;
        if (a > z) return Change::failed;
        const std::int64_t lo = first_from(b, a);
        if (lo > z) return Change::failed; // a..z lies in one hole
        const std::int64_t hi = last_to(b, z);
        const bool was_solid = solid(b);
        before_write(0);
        b.lo = lo;
        b.hi = hi;
        if (was_solid) {
            b.count = static_cast<decltype(b.count)>(hi - lo + 1);
        } else {
            trim(b);
            recount(b);
        }
        return b.count == 1 ? Change::fixed : Change::bounds;
    }

    // Removes the values a..z, for lo < a <= z < hi (the callers move a
    // bound themselves): one hole, merged with those it meets.
    template <class B, class Hook>
    static Change remove_inside(B& b, std::int64_t a, std::int64_t z, Hook& before_write) {
        if (first_from(b, a) > z) return Change::none; // a..z lies in one hole
        before_write(0);
        Holes& h = b.holes.get();
        const auto first = from(h, a - 1);
        const auto last = std::find_if(first, h.end(), [z](const Hole& x) { return x.lo > z + 1; });
        Hole merged{a, z};
        if (first != last) merged = Hole{std::min(a, first->lo), std::max(z, std::prev(last)->hi)};
        // The merged hole's values less those already absent: a count by
        // the holes it swallows, not by all of them (a walk by runs cuts
        // thousands of holes in one pass).
        std::int64_t gone = merged.hi - merged.lo + 1;
        for (auto it = first; it != last; ++it) gone -= it->hi - it->lo + 1;
        h.insert(h.erase(first, last), merged);
        b.count -= static_cast<decltype(b.count)>(gone);
        return Change::domain;
    }

    template <class B, class Hook>
    static Change assign(B& b, std::int64_t v, Hook& before_write) {
        if (!contains(b, v)) return Change::failed;
        if (b.lo == b.hi) return Change::none;
        before_write(0);
        b.lo = b.hi = v;
        b.holes.get().clear();
        b.count = 1;
        return Change::fixed;
    }

    // Removes start + k for each bit k of mask.
    template <class B, class Hook>
    static Change remove_bits(B& b, std::int64_t start, std::uint64_t mask, Hook& before_write) {
        const std::uint64_t hit = bits_from(b, start) & mask;
        if (hit == 0) return Change::none;
        const auto gone = static_cast<unsigned>(std::popcount(hit));
        if (gone == b.count) return Change::failed;
        const std::int64_t lo = b.lo, hi = b.hi;
        bool saved = false;
        const auto once = [&](std::size_t) {
            if (!saved) before_write(0);
            saved = true;
        };
        for (std::uint64_t rest = hit; rest != 0; rest &= rest - 1)
            static_cast<void>(remove(b, start + std::countr_zero(rest), once));
        if (b.count == 1) return Change::fixed;
        return b.lo != lo || b.hi != hi ? Change::bounds : Change::domain;
    }

    // Keeps the values also in `mask` (any BitDomain): the holes become
    // the union of this domain's and the mask's gaps between the new
    // bounds, so the cost follows the holes of both (and a bitset mask's
    // values), never the width.
    template <class B, class Mask, class Hook>
    static Change intersect(B& b, const Mask& mask, Hook& before_write) {
        const std::int64_t a = std::max<std::int64_t>(b.lo, mask.min()), z = std::min<std::int64_t>(b.hi, mask.max());
        if (a > z) return Change::failed;
        Holes gaps; // the mask's, within a..z, sorted
        bool walked = false;
        if constexpr (Mask::is_dynamic) {
            if (mask.representation() == Representation::interval) {
                for (const Hole& x : mask.holes())
                    if (x.hi >= a && x.lo <= z) gaps.push_back(Hole{std::max(x.lo, a), std::min(x.hi, z)});
                walked = true;
            }
        }
        if (!walked) {
            std::int64_t last = a - 1; // the last value of the mask seen
            for (std::int64_t v = mask.contains(a) ? a : mask.next(a); v <= z; v = v < mask.max() ? mask.next(v) : z + 1) {
                if (v > last + 1) gaps.push_back(Hole{last + 1, v - 1});
                last = v;
            }
            if (last < z) gaps.push_back(Hole{last + 1, z});
        }
        // With this domain's own holes there, merged by their lower ends
        // into sorted, disjoint, non-adjacent runs.
        Holes merged;
        const auto add = [&merged](Hole x) {
            if (!merged.empty() && x.lo <= merged.back().hi + 1) merged.back().hi = std::max(merged.back().hi, x.hi);
            else merged.push_back(x);
        };
        const Holes& own = b.holes.get();
        auto i = from(own, a);
        auto j = gaps.cbegin();
        while ((i != own.end() && i->lo <= z) || j != gaps.cend()) {
            if (j == gaps.cend() || (i != own.end() && i->lo <= z && i->lo <= j->lo)) {
                add(Hole{std::max(i->lo, a), std::min(i->hi, z)});
                ++i;
            } else {
                add(*j++);
            }
        }
        // The new bounds: the ends of a..z unless a run covers them.
        std::int64_t lo = a, hi = z;
        auto first = merged.begin();
        if (first != merged.end() && first->lo <= lo) lo = (first++)->hi + 1;
        auto last = merged.end();
        if (last != first && std::prev(last)->hi >= hi) hi = (--last)->lo - 1;
        if (lo > hi) return Change::failed;
        merged.erase(last, merged.end());
        merged.erase(merged.begin(), first);
        const std::int64_t old_lo = b.lo, old_hi = b.hi;
        const unsigned n = count_of(lo, hi, merged);
        if (lo == old_lo && hi == old_hi && n == b.count) return Change::none;
        before_write(0);
        b.lo = lo;
        b.hi = hi;
        b.holes.get() = std::move(merged);
        b.count = n;
        if (b.count == 1) return Change::fixed;
        return b.lo != old_lo || b.hi != old_hi ? Change::bounds : Change::domain;
    }

private:
    // Drops the holes the bounds have passed.
    template <class B>
    static void trim(B& b) {
        Holes& h = b.holes.get();
        const auto first = from(h, b.lo);
        h.erase(h.begin(), first);
        const auto last = std::lower_bound(h.begin(), h.end(), b.hi, [](const Hole& x, std::int64_t w) { return x.lo < w; });
        h.erase(last, h.end());
    }

    // The values lo..hi less the holes (within them).
    static unsigned count_of(std::int64_t lo, std::int64_t hi, const Holes& h) noexcept {
        std::int64_t n = hi - lo + 1;
        for (const Hole& x : h) n -= x.hi - x.lo + 1;
        return static_cast<unsigned>(n);
    }
    template <class B>
    static void recount(B& b) {
        b.count = count_of(b.lo, b.hi, b.holes.get());
    }
};
using IntervalForm = IntervalFormOf<>;

} // namespace propane::detail

#endif
