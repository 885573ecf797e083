// BitDomain against a std::set<int> reference: every query after every
// update, the exact Change each update reports, and the before_write hook
// contract that the store's trail relies on. Each of these runs over the
// interval form of a dynamic domain too (DI); the interval form over wide
// ranges, which no std::set can hold, is checked against a reference of
// runs (Runs) at the end.

#include <doctest/doctest.h>

#include "runs_reference.hpp"
#include "support.hpp"

#include <propane/engine/domain.hpp>
#include <propane/engine/error.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <limits>
#include <map>
#include <new>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

// This file replaces the global operator new (forwarding to malloc) to
// learn the largest block anything asked for: a domain refused for its
// width must be refused before its words are allocated (2^32 values are
// 512 MiB of bits), which no other observation shows. The message it
// throws is allocated, so "nothing allocated" means "no large block".
namespace {
std::atomic<std::size_t> largest_block{0};
} // namespace

void* operator new(std::size_t size) {
    std::size_t seen = largest_block.load(std::memory_order_relaxed);
    while (size > seen && !largest_block.compare_exchange_weak(seen, size, std::memory_order_relaxed)) {
    }
    // [new.delete.single]: on failure, the new-handler and another try,
    // until there is none.
    for (;;) {
        if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
        const std::new_handler handler = std::get_new_handler();
        if (handler == nullptr) throw std::bad_alloc();
        handler();
    }
}
// Out of line: GCC, seeing free() inlined where operator new's block is
// released, warns of a mismatched deallocation.
#if defined(__GNUC__)
[[gnu::noinline]]
#endif
void operator delete(void* p) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t) noexcept { operator delete(p); }

namespace {

// The largest block allocated while f ran.
template <class F>
std::size_t largest_block_in(F f) {
    largest_block.store(0, std::memory_order_relaxed);
    f();
    return largest_block.load(std::memory_order_relaxed);
}

using test_support::first_difference;
using test_support::str;
using test_support::expected_change;

using propane::BitDomain;
using propane::Change;
using propane::Representation;
using propane::detail::Hole;
using Ref = std::set<int>;

constexpr int int_min = std::numeric_limits<int>::min();
constexpr int int_max = std::numeric_limits<int>::max();

using D1 = BitDomain<1>;
using D2 = BitDomain<2>;
using D4 = BitDomain<4>;
using DD = BitDomain<propane::dynamic>;

// A dynamic domain in the interval form whatever its width: on the narrow
// ranges the tests below build, Representation::automatic would make a
// bitset, and the interval form would go untested by all of them.
struct DI : DD {
    DI(int lo, int hi) : DD(lo, hi, Representation::interval) {}
};

} // namespace

namespace doctest {
template <>
struct StringMaker<DI> : StringMaker<DD> {};
} // namespace doctest

namespace {

// Widest range the tests build. A dynamic domain has no practical limit, so
// pick one that spans several words (and a partial last word) yet keeps the
// randomized tests fast.
template <class D>
constexpr std::int64_t test_width = D::is_dynamic ? 330 : D::capacity;

Ref range_set(std::int64_t lo, std::int64_t hi) {
    Ref r;
    for (std::int64_t v = lo; v <= hi; ++v) r.insert(static_cast<int>(v));
    return r;
}

std::int64_t clamp_int(std::int64_t v) {
    return v < int_min ? int_min : v > int_max ? int_max : v;
}

// One past the last value d's storage can hold: the end of its words, or
// in the interval form, which has none, one past its greatest value.
template <class D>
std::int64_t storage_end(const D& d) {
    return d.words() != 0 ? std::int64_t{d.base()} + 64 * std::int64_t(d.words()) : std::int64_t{d.max()} + 1;
}

// Holes printed as [lo,hi] runs: Hole has no operator==, and a failure
// should show where the two lists part.
std::string holes_str(const std::vector<Hole>& holes) {
    std::ostringstream os;
    for (const Hole& h : holes) os << "[" << h.lo << "," << h.hi << "]";
    return os.str();
}

// The holes a domain holding exactly `ref` must keep: every maximal run of
// absent values between its least and greatest, and nothing else (holes
// are never adjacent, and never reach past the bounds).
std::vector<Hole> gaps_of(const Ref& ref) {
    std::vector<Hole> out;
    for (auto it = ref.begin(); it != ref.end() && std::next(it) != ref.end(); ++it)
        if (*std::next(it) > *it + 1) out.push_back({std::int64_t{*it} + 1, std::int64_t{*std::next(it)} - 1});
    return out;
}

template <class D>
std::vector<int> by_for_each(const D& d) {
    std::vector<int> out;
    d.for_each([&](int v) { out.push_back(v); });
    return out;
}

template <class D>
std::vector<int> by_iterator(const D& d) {
    std::vector<int> out;
    for (auto it = d.begin(); it != d.end(); it++) out.push_back(*it);
    std::vector<int> ranged;
    for (int v : d) ranged.push_back(v);
    CHECK(ranged == out);
    return out;
}

// Every query of d agrees with ref.
template <class D>
void check_matches(const D& d, const Ref& ref) {
    REQUIRE_FALSE(ref.empty());
    const std::vector<int> want(ref.begin(), ref.end());
    CHECK(by_for_each(d) == want);
    CHECK(by_iterator(d) == want);
    const int lo = *ref.begin(), hi = *ref.rbegin();
    CHECK(d.min() == lo);
    CHECK(d.max() == hi);
    CHECK(d.size() == ref.size());
    CHECK(d.fixed() == (ref.size() == 1));
    if (ref.size() == 1) CHECK(d.value() == lo);

    if constexpr (D::is_dynamic) {
        if (d.interval()) {
            CHECK(d.representation() == Representation::interval);
            CHECK(d.words() == 0);
            CHECK(holes_str(d.holes()) == holes_str(gaps_of(ref)));
        } else {
            CHECK(d.representation() == Representation::bitset);
        }
    } else {
        CHECK(d.representation() == Representation::bitset);
    }

    // Membership over all the storage bits and beyond them on both sides:
    // bits past the initial hi exist in a fixed-width domain and must read 0.
    CHECK(first_difference(
              "contains", clamp_int(std::int64_t{d.base()} - 70), clamp_int(storage_end(d) + 70),
              [&](std::int64_t v) { return d.contains(static_cast<int>(v)); },
              [&](std::int64_t v) { return ref.count(static_cast<int>(v)) == 1; }) == "");
    CHECK(d.contains(int_min) == (ref.count(int_min) == 1));
    CHECK(d.contains(int_max) == (ref.count(int_max) == 1));
    // contains takes 64-bit values too (a view's arithmetic may leave int):
    // those are never members, however their offset from the base wraps.
    for (const std::int64_t far : {std::numeric_limits<std::int64_t>::min(), std::int64_t{int_min} - 1,
                                   std::int64_t{int_max} + 1, std::numeric_limits<std::int64_t>::max(),
                                   std::int64_t{d.base()} + (std::int64_t{1} << 32)})
        CHECK_FALSE(d.contains(far));

    // next/prev take 64-bit arguments, so ask from outside int as well.
    CHECK(first_difference(
              "next", std::int64_t{lo} - 70, std::int64_t{hi} - 1, [&](std::int64_t v) { return d.next(v); },
              [&](std::int64_t v) { return v < lo ? lo : *ref.upper_bound(static_cast<int>(v)); }) == "");
    CHECK(first_difference(
              "prev", std::int64_t{lo} + 1, std::int64_t{hi} + 70, [&](std::int64_t v) { return d.prev(v); },
              [&](std::int64_t v) { return v > hi ? hi : *std::prev(ref.lower_bound(static_cast<int>(v))); }) == "");
    CHECK(d.next(std::int64_t{lo} - (std::int64_t{1} << 40)) == lo);
    CHECK(d.prev(std::int64_t{hi} + (std::int64_t{1} << 40)) == hi);

    // The run around each value, against a walk of the reference.
    for (auto it = ref.begin(); it != ref.end();) {
        auto last = it;
        while (std::next(last) != ref.end() && *std::next(last) == *last + 1) ++last;
        for (auto v = it;; ++v) {
            CAPTURE(*v);
            if (d.run_end(*v) != *last) CHECK(d.run_end(*v) == *last);
            if (d.run_start(*v) != *it) CHECK(d.run_start(*v) == *it);
            if (v == last) break;
        }
        it = std::next(last);
    }

    // nth at both ends and between (each is a walk in the bitset form).
    const std::size_t n = ref.size();
    for (const std::size_t k : {std::size_t{0}, std::size_t{1}, std::size_t{2}, n / 3, n / 2, n - 3, n - 2, n - 1})
        if (k < n) CHECK(d.nth(k) == *std::next(ref.begin(), static_cast<std::ptrdiff_t>(k)));
}

// Equal, and with the same cached size and bounds (equality compares the
// words, or the bounds and holes, not the cache).
template <class D>
bool same(const D& a, const D& b) {
    return a == b && a.size() == b.size() && a.min() == b.min() && a.max() == b.max();
}

// The before_write contract of the interval form, which the store saves
// whole (its summary and holes): one call, with 0, while the domain is
// still as it was, for an update that changes it; none for none or failed,
// which the trail would otherwise save for nothing. What the hook sees is
// what the trail keeps: restore_interval from it must give the domain back.
template <class D, class Op>
Change apply_checked_interval(D& d, Op op) {
    const D before = d;
    int calls = 0;
    std::vector<Hole> saved_holes;
    typename D::summary_type saved{};
    auto hook = [&](std::size_t i) {
        ++calls;
        CHECK(i == 0);
        CHECK_MESSAGE(same(d, before), "the domain changed before before_write(0)");
        saved_holes = d.holes();
        saved = d.summary();
    };
    D plain = d;
    const Change c = op(d, hook);
    const Change c_plain = op(plain);
    CHECK(str(c_plain) == str(c));
    CHECK(same(plain, d));
    const bool changed = c != Change::none && c != Change::failed;
    CHECK(calls == (changed ? 1 : 0));
    if (!changed) CHECK(same(d, before));
    if (calls == 1) {
        D back = d;
        back.restore_interval(saved_holes.data(), saved_holes.data() + saved_holes.size(), saved);
        CHECK(same(back, before));
    }
    return c;
}

// Runs op(d, hook) and checks the before_write contract: each word the
// update changes was announced before it was written, and at every call
// the words not yet announced (the announced one included) still hold
// their old values -- the store saves a fixed-width domain whole on the
// first call. The same op without a hook must do exactly the same.
template <class D, class Op>
Change apply_checked(D& d, Op op) {
    if constexpr (D::is_dynamic)
        if (d.interval()) return apply_checked_interval(d, op);
    const D before = d;
    std::vector<bool> announced(d.words(), false);
    int calls = 0;
    auto hook = [&](std::size_t i) {
        ++calls;
        REQUIRE(i < d.words());
        for (std::size_t j = 0; j < d.words(); ++j)
            if (!announced[j] && d.word_at(j) != before.word_at(j)) {
                FAIL_CHECK("word " << j << " was written before before_write(" << j << ")");
            }
        announced[i] = true;
    };
    D plain = d;
    const Change c = op(d, hook);
    const Change c_plain = op(plain);
    CHECK(str(c_plain) == str(c));
    CHECK(plain == d);
    for (std::size_t j = 0; j < d.words(); ++j)
        if (d.word_at(j) != before.word_at(j)) {
            CHECK_MESSAGE(announced[j], "word " << j << " changed without before_write");
        }
    if (c == Change::none || c == Change::failed) CHECK(d == before);
    return c;
}

// One update, checked against the reference: the Change reported, and the
// domain afterwards (unchanged on failure). ref is updated to match.
template <class D, class Op>
void update_and_check(D& d, Ref& ref, const Ref& want_after, Op op) {
    const Change want = expected_change(ref, want_after);
    const Change got = apply_checked(d, op);
    CHECK(str(got) == str(want));
    if (want != Change::failed) ref = want_after;
    check_matches(d, ref);
}

Ref ref_remove(Ref r, int v) {
    r.erase(v);
    return r;
}
Ref ref_below(const Ref& r, int v) { return Ref(r.lower_bound(v), r.end()); }
Ref ref_above(const Ref& r, int v) { return Ref(r.begin(), r.upper_bound(v)); }
Ref ref_assign(const Ref& r, int v) { return r.count(v) ? Ref{v} : Ref{}; }
Ref ref_intersect(const Ref& r, const Ref& m) {
    Ref out;
    for (int v : r)
        if (m.count(v)) out.insert(v);
    return out;
}

template <class D>
void do_remove(D& d, Ref& ref, int v) {
    INFO("remove(" << v << ")");
    update_and_check(d, ref, ref_remove(ref, v), [v](auto& x, auto&&... h) { return x.remove(v, h...); });
}
template <class D>
void do_remove_below(D& d, Ref& ref, int v) {
    INFO("remove_below(" << v << ")");
    update_and_check(d, ref, ref_below(ref, v), [v](auto& x, auto&&... h) { return x.remove_below(v, h...); });
}
template <class D>
void do_remove_above(D& d, Ref& ref, int v) {
    INFO("remove_above(" << v << ")");
    update_and_check(d, ref, ref_above(ref, v), [v](auto& x, auto&&... h) { return x.remove_above(v, h...); });
}
template <class D>
void do_assign(D& d, Ref& ref, int v) {
    INFO("assign(" << v << ")");
    update_and_check(d, ref, ref_assign(ref, v), [v](auto& x, auto&&... h) { return x.assign(v, h...); });
}
template <class D>
void do_keep_between(D& d, Ref& ref, int a, int b) {
    INFO("keep_between(" << a << ", " << b << ")");
    update_and_check(d, ref, ref_above(ref_below(ref, a), b),
                     [a, b](auto& x, auto&&... h) { return x.keep_between(a, b, h...); });
}
template <class D>
void do_remove_range(D& d, Ref& ref, std::int64_t a, std::int64_t b) {
    INFO("remove_range(" << a << ", " << b << ")");
    Ref after;
    for (int v : ref)
        if (v < a || v > b) after.insert(v);
    update_and_check(d, ref, after, [a, b](auto& x, auto&&... h) { return x.remove_range(a, b, h...); });
}
Ref ref_remove_bits(const Ref& r, std::int64_t start, std::uint64_t mask) {
    Ref out;
    for (int v : r)
        if (const std::int64_t k = v - start; k < 0 || k >= 64 || ((mask >> k) & 1) == 0) out.insert(v);
    return out;
}
template <class D>
void do_remove_bits(D& d, Ref& ref, std::int64_t start, std::uint64_t mask) {
    INFO("remove_bits(" << start << ", " << mask << ")");
    update_and_check(d, ref, ref_remove_bits(ref, start, mask),
                     [start, mask](auto& x, auto&&... h) { return x.remove_bits(start, mask, h...); });
}
// A window for remove_bits: anywhere from below the domain to above it,
// with a mask of any density (all ones removes every value it covers).
template <class D>
std::pair<std::int64_t, std::uint64_t> random_window(std::mt19937& rng, const D& d) {
    const std::int64_t start = std::uniform_int_distribution<std::int64_t>(std::int64_t{d.min()} - 70,
                                                                           std::int64_t{d.max()} + 5)(rng);
    std::uint64_t mask = 0;
    switch (std::uniform_int_distribution<int>(0, 3)(rng)) {
    case 0: mask = ~std::uint64_t{0}; break;
    case 1: mask = std::uint64_t{1} << std::uniform_int_distribution<int>(0, 63)(rng); break;
    default: mask = std::uniform_int_distribution<std::uint64_t>()(rng) & std::uniform_int_distribution<std::uint64_t>()(rng);
    }
    return {start, mask};
}

template <class D, class M>
void do_intersect(D& d, Ref& ref, const M& mask, const Ref& mask_ref) {
    INFO("intersect(mask base " << mask.base() << ", " << mask.words() << " words)");
    update_and_check(d, ref, ref_intersect(ref, mask_ref),
                     [&mask](auto& x, auto&&... h) { return x.intersect(mask, h...); });
}

// A domain of width [1, max_width] at a random base, thinned to a random
// density (sparse domains leave whole words empty between their values).
template <class D>
D random_domain(std::mt19937& rng, Ref& ref, std::int64_t max_width, int base_lo, int base_hi) {
    const auto width = std::uniform_int_distribution<std::int64_t>(1, max_width)(rng);
    const int lo = std::uniform_int_distribution<int>(base_lo, base_hi)(rng);
    const auto hi = static_cast<int>(std::int64_t{lo} + width - 1);
    D d(lo, hi);
    ref = range_set(lo, hi);
    static constexpr double keep_odds[] = {1.0, 0.9, 0.5, 0.1, 0.02};
    std::bernoulli_distribution keep(keep_odds[std::uniform_int_distribution<int>(0, 4)(rng)]);
    for (std::int64_t v = lo; v <= hi; ++v)
        if (ref.size() > 1 && !keep(rng)) {
            CHECK(d.remove(static_cast<int>(v)) != propane::Change::failed);
            ref.erase(static_cast<int>(v));
        }
    return d;
}

// Values an update is worth trying on: anywhere around the storage, near the
// current bounds, and the extremes of int.
template <class D>
int random_value(std::mt19937& rng, const D& d, const Ref& ref) {
    const std::int64_t base = d.base(), span = storage_end(d) - base;
    const int delta = std::uniform_int_distribution<int>(-1, 1)(rng);
    switch (std::uniform_int_distribution<int>(0, 9)(rng)) {
    case 0: return static_cast<int>(clamp_int(std::int64_t{*ref.begin()} + delta));
    case 1: return static_cast<int>(clamp_int(std::int64_t{*ref.rbegin()} + delta));
    case 2: return std::uniform_int_distribution<int>(0, 1)(rng) ? int_min : int_max;
    case 3: { // a present value
        auto it = ref.begin();
        std::advance(it, std::uniform_int_distribution<std::size_t>(0, ref.size() - 1)(rng));
        return *it;
    }
    default:
        return static_cast<int>(
            clamp_int(std::uniform_int_distribution<std::int64_t>(base - 70, base + span + 70)(rng)));
    }
}

} // namespace

#define DOMAIN_TYPES D1, D2, D4, DD, DI

TEST_CASE_TEMPLATE("domain type constants", D, DOMAIN_TYPES) {
    if constexpr (D::is_dynamic) {
        // The interval form counts its values in 32 bits: every int but
        // one. A bitset is indexed by int.
        CHECK(D::capacity == std::int64_t{std::numeric_limits<std::uint32_t>::max()});
        CHECK(D::bitset_capacity == int_max);
        CHECK(D::bitset_limit == std::int64_t{1} << 16);
    } else {
        CHECK(D::capacity == 64 * std::int64_t(D(0, 0).words()));
        CHECK(D::bitset_capacity == D::capacity);
    }
}

TEST_CASE_TEMPLATE("constructor builds exactly lo..hi", D, DOMAIN_TYPES) {
    // Widths around each word boundary: the last value lands on bit 62, 63,
    // 64 of the base word, and so on.
    const std::int64_t widths[] = {1, 2, 63, 64, 65, 127, 128, 129, 191, 192, 193, 255, 256, 257, 330};
    const std::int64_t bases[] = {0, 1, -1, -64, -65, -1000, 12345, int_min, int_min + 1};
    for (std::int64_t width : widths) {
        for (std::int64_t base : bases) {
            const std::int64_t hi = base + width - 1;
            CAPTURE(base);
            CAPTURE(width);
            if (width > D::capacity) {
                CHECK_THROWS_AS(D(static_cast<int>(base), static_cast<int>(hi)), propane::model_error);
                continue;
            }
            const D d(static_cast<int>(base), static_cast<int>(hi));
            CHECK(d.base() == base);
            if constexpr (std::is_same_v<D, DI>) {
                CHECK(d.words() == 0);
            } else if constexpr (D::is_dynamic) {
                // Automatic: a bitset this narrow.
                CHECK(d.words() == static_cast<std::size_t>((width + 63) / 64));
            }
            check_matches(d, range_set(base, hi));
        }
        // Ranges that end exactly at INT_MAX.
        if (width <= D::capacity) {
            const std::int64_t lo = std::int64_t{int_max} - width + 1;
            CAPTURE(width);
            const D d(static_cast<int>(lo), int_max);
            check_matches(d, range_set(lo, int_max));
        }
    }
}

TEST_CASE_TEMPLATE("constructor at full capacity", D, DOMAIN_TYPES) {
    if constexpr (D::is_dynamic) {
        // 2^32 values (all of int) are one more than the interval form
        // counts; refused before anything as large as words is allocated.
        CHECK(largest_block_in([] { CHECK_THROWS_AS(D(int_min, int_max), propane::model_error); }) < 4096);
        // Up to 2^32 - 1 values, in the interval form, in a few bytes:
        // INT_MAX + 1 of them was refused before the interval form.
        const std::pair<int, int> widest[] = {
            {int_min + 1, int_max}, {int_min, int_max - 1}, {0, int_max}, {-1, int_max - 1}, {int_min, -1}};
        for (const std::pair<int, int>& range : widest) {
            // Named, not bound: Clang 14 cannot capture a structured binding.
            const int lo = range.first, hi = range.second;
            CAPTURE(lo);
            CAPTURE(hi);
            const std::size_t block = largest_block_in([&] {
                const D full(lo, hi);
                CHECK(full.interval());
                CHECK(full.words() == 0);
                CHECK(full.size() == static_cast<std::uint64_t>(std::int64_t{hi} - lo + 1));
                CHECK(full.min() == lo);
                CHECK(full.max() == hi);
                CHECK(full.contains(lo));
                CHECK(full.contains(hi));
                CHECK_FALSE(full.contains(std::int64_t{lo} - 1));
                CHECK_FALSE(full.contains(std::int64_t{hi} + 1));
                CHECK(full.next(std::int64_t{lo} - 1) == lo);
                CHECK(full.prev(std::int64_t{hi} + 1) == hi);
                // Cut down from either end to one value, through the
                // middle of int, then try to empty it.
                D down = full, up = full;
                const std::int64_t width = std::int64_t{hi} - lo + 1;
                for (std::int64_t k = width - 1; k > 0; k = k / 3) {
                    CHECK(down.remove_above(static_cast<int>(lo + k)) != Change::failed);
                    CHECK(up.remove_below(static_cast<int>(hi - k)) != Change::failed);
                    CHECK(down.size() == static_cast<std::uint64_t>(k + 1));
                    CHECK(up.size() == static_cast<std::uint64_t>(k + 1));
                    CHECK(down.max() == lo + k);
                    CHECK(up.min() == hi - k);
                }
                CHECK(str(down.remove_above(lo)) == "fixed");
                CHECK(str(up.remove_below(hi)) == "fixed");
                CHECK(str(down.remove(lo)) == "failed");
                CHECK(str(up.remove(hi)) == "failed");
                CHECK(down.value() == lo);
                CHECK(up.value() == hi);
                CHECK(full.size() == static_cast<std::uint64_t>(width));
            });
            CHECK(block < 4096);
        }
    } else {
        const std::int64_t cap = D::capacity;
        for (std::int64_t base : {std::int64_t{0}, std::int64_t{-7}, std::int64_t{int_min},
                                  std::int64_t{int_max} - cap + 1}) {
            CAPTURE(base);
            D full(static_cast<int>(base), static_cast<int>(base + cap - 1));
            Ref ref = range_set(base, base + cap - 1);
            check_matches(full, ref);
            for (std::size_t i = 0; i < full.words(); ++i) CHECK(full.word_at(i) == ~std::uint64_t{0});
            if (base + cap <= int_max) {
                CHECK_THROWS_AS(D(static_cast<int>(base), static_cast<int>(base + cap)), propane::model_error);
            }
            // Cut the full domain down from either end, in steps that land
            // all over its words, to one value, then try to empty it.
            D down = full, up = full;
            Ref down_ref = ref, up_ref = ref;
            for (std::int64_t k = cap - 1; k >= 0; k -= 37) {
                do_remove_above(down, down_ref, static_cast<int>(base + k));
                do_remove_below(up, up_ref, static_cast<int>(base + cap - 1 - k));
            }
            do_remove_above(down, down_ref, static_cast<int>(base));
            do_remove_below(up, up_ref, static_cast<int>(base + cap - 1));
            CHECK(down.fixed());
            CHECK(up.fixed());
            do_remove(down, down_ref, static_cast<int>(base));
            do_remove(up, up_ref, static_cast<int>(base + cap - 1));
        }
        CHECK_THROWS_AS(D(int_min, int_max), propane::model_error);
    }
}

TEST_CASE_TEMPLATE("constructor errors name the problem", D, DOMAIN_TYPES) {
    const auto message = [](std::int64_t lo, std::int64_t hi) -> std::string {
        try {
            D d(static_cast<int>(lo), static_cast<int>(hi));
        } catch (const std::invalid_argument& e) {
            return e.what();
        }
        return "no exception";
    };
    CHECK_THROWS_AS(D(5, 4), propane::model_error);
    CHECK_THROWS_AS(D(5, 4), std::invalid_argument);
    CHECK_THROWS_AS(D(int_max, int_min), propane::model_error);
    const std::string empty = message(5, -3);
    CAPTURE(empty);
    CHECK(empty.rfind("propane: ", 0) == 0);
    CHECK(empty.find("empty") != std::string::npos);
    CHECK(empty.find("5") != std::string::npos);
    CHECK(empty.find("-3") != std::string::npos);

    // One value too many: for a dynamic domain only all of int is.
    const std::int64_t too_many = D::capacity + 1;
    const std::int64_t lo = D::is_dynamic ? int_min : -10;
    const std::string big = message(lo, lo + too_many - 1);
    CAPTURE(big);
    CHECK(big.rfind("propane: ", 0) == 0);
    CHECK(big.find(std::to_string(too_many)) != std::string::npos);
    CHECK(big.find(std::to_string(D::capacity)) != std::string::npos);
    CHECK_THROWS_AS(D(static_cast<int>(lo), static_cast<int>(lo + too_many - 1)), std::invalid_argument);
}

TEST_CASE_TEMPLATE("queries on random domains", D, DOMAIN_TYPES) {
    std::mt19937 rng(1234);
    for (int round = 0; round < 300; ++round) {
        CAPTURE(round);
        Ref ref;
        const D d = random_domain<D>(rng, ref, test_width<D>, -300, 300);
        check_matches(d, ref);
        const D copy = d;
        CHECK(copy == d);
    }
}

TEST_CASE_TEMPLATE("equality compares contents", D, DOMAIN_TYPES) {
    D a(-3, 40), b(-3, 40);
    CHECK(a == b);
    CHECK(a.remove(17) != propane::Change::failed);
    CHECK_FALSE(a == b);
    CHECK(b.remove(17) != propane::Change::failed);
    CHECK(a == b);
    CHECK(a.remove(-3) != propane::Change::failed);
    CHECK(b.remove(40) != propane::Change::failed);
    CHECK_FALSE(a == b);
}

TEST_CASE_TEMPLATE("remove reports each kind of change", D, DOMAIN_TYPES) {
    const int hi = static_cast<int>(test_width<D>) - 1 - 10;
    D d(-10, hi);
    Ref ref = range_set(-10, hi);
    // Outside the range, within the unused storage bits, and far away.
    for (int v : {-11, hi + 1, int_min, int_max, -10 - 64}) do_remove(d, ref, v);
    do_remove(d, ref, 3);      // interior: domain
    do_remove(d, ref, 3);      // already gone: none
    do_remove(d, ref, -10);    // min: bounds
    do_remove(d, ref, hi);     // max: bounds
    if (hi > 60) {
        // Empty the first word from its low end so the new min lies in a
        // later word.
        for (int v = -9; v <= 60; ++v) do_remove(d, ref, v);
    }
    while (ref.size() > 1) do_remove(d, ref, *std::next(ref.begin(), static_cast<long>(ref.size() / 2)));
    const int last = *ref.begin();
    do_remove(d, ref, last); // failed, unchanged
    CHECK(d.value() == last);
}

TEST_CASE_TEMPLATE("remove_below and remove_above across word boundaries", D, DOMAIN_TYPES) {
    const std::int64_t width = test_width<D>;
    for (const int base : {0, -64, -100, int_max - static_cast<int>(width) + 1, int_min}) {
        const int hi = static_cast<int>(std::int64_t{base} + width - 1);
        const D full(base, hi);
        Ref full_ref = range_set(base, hi);
        // Full, and with only the two extreme values (empty words between).
        D ends = full;
        Ref ends_ref{base, hi};
        for (int v = base + 1; v < hi; ++v) CHECK(ends.remove(v) != propane::Change::failed);
        check_matches(ends, ends_ref);

        for (std::int64_t b = base; b <= std::int64_t{hi} + 1; b += 64) {
            for (std::int64_t v = b - 1; v <= b + 1; ++v) {
                if (v < int_min || v > int_max) continue;
                CAPTURE(base);
                CAPTURE(v);
                const int iv = static_cast<int>(v);
                D d = full;
                Ref r = full_ref;
                do_remove_below(d, r, iv);
                d = full;
                r = full_ref;
                do_remove_above(d, r, iv);
                d = ends;
                r = ends_ref;
                do_remove_below(d, r, iv);
                d = ends;
                r = ends_ref;
                do_remove_above(d, r, iv);
            }
        }
    }
}

TEST_CASE_TEMPLATE("emptying attempts fail and change nothing", D, DOMAIN_TYPES) {
    const int hi = static_cast<int>(std::min<std::int64_t>(test_width<D>, 150)) - 21;
    D d(-20, hi);
    Ref ref = range_set(-20, hi);
    do_remove_below(d, ref, hi + 1);
    do_remove_below(d, ref, int_max);
    do_remove_above(d, ref, -21);
    do_remove_above(d, ref, int_min);
    do_assign(d, ref, hi + 1);
    do_assign(d, ref, -21);
    do_assign(d, ref, int_max);
    const D far(1000, 1010);
    do_intersect(d, ref, far, range_set(1000, 1010));
    // Bounds that keep everything.
    do_remove_below(d, ref, -20);
    do_remove_below(d, ref, int_min);
    do_remove_above(d, ref, hi);
    do_remove_above(d, ref, int_max);
    // Down to one value, then every way of removing it.
    do_remove(d, ref, 5);
    do_remove_below(d, ref, 4);
    do_remove_above(d, ref, 6);
    CHECK(ref == Ref{4, 6});
    do_assign(d, ref, 5); // a hole
    do_assign(d, ref, 6);
    do_assign(d, ref, 6); // already fixed to it: none
    do_remove(d, ref, 6);
    do_remove_below(d, ref, 7);
    do_remove_above(d, ref, 5);
    do_assign(d, ref, 4);
    const DD below(-5, 5);
    do_intersect(d, ref, below, range_set(-5, 5));
    CHECK(d.value() == 6);
}

TEST_CASE_TEMPLATE("assign from several words", D, DOMAIN_TYPES) {
    const auto width = static_cast<int>(test_width<D>);
    for (int v = -5; v < width; v += 13) {
        D d(-5, width - 6);
        Ref ref = range_set(-5, width - 6);
        CAPTURE(v);
        do_assign(d, ref, v);
    }
}

TEST_CASE_TEMPLATE("intersect with masks of other bases and widths", D, DOMAIN_TYPES) {
    std::mt19937 rng(77);
    for (int round = 0; round < 400; ++round) {
        CAPTURE(round);
        Ref ref;
        D d = random_domain<D>(rng, ref, test_width<D>, -200, 200);
        Ref mask_ref;
        // Masks overlapping d in every way: from far below to far above,
        // unaligned with d's words; in the interval form too (case 3).
        switch (round % 5) {
        case 0: {
            const auto m = random_domain<BitDomain<1>>(rng, mask_ref, 64, d.base() - 80, d.max() + 10);
            do_intersect(d, ref, m, mask_ref);
            break;
        }
        case 1: {
            const auto m = random_domain<BitDomain<2>>(rng, mask_ref, 128, d.base() - 140, d.max() + 10);
            do_intersect(d, ref, m, mask_ref);
            break;
        }
        case 2: {
            const auto m = random_domain<DD>(rng, mask_ref, 400, d.base() - 300, d.max() + 10);
            do_intersect(d, ref, m, mask_ref);
            break;
        }
        case 3: {
            const auto m = random_domain<DI>(rng, mask_ref, 400, d.base() - 300, d.max() + 10);
            do_intersect(d, ref, m, mask_ref);
            break;
        }
        default: {
            // A dense mask that removes only a few values, so that the
            // domain/bounds/fixed distinctions all come up.
            const int lo = d.min() - std::uniform_int_distribution<int>(0, 3)(rng);
            const int hi = d.max() + std::uniform_int_distribution<int>(-3, 3)(rng);
            if (hi < lo) break;
            DD m(lo, hi);
            mask_ref = range_set(lo, hi);
            for (int k = std::uniform_int_distribution<int>(0, 3)(rng); k > 0; --k) {
                const int v = std::uniform_int_distribution<int>(lo, hi)(rng);
                if (mask_ref.size() > 1) {
                    CHECK(m.remove(v) != propane::Change::failed);
                    mask_ref.erase(v);
                }
            }
            do_intersect(d, ref, m, mask_ref);
            break;
        }
        }
    }
}

TEST_CASE_TEMPLATE("random update sequences against std::set", D, DOMAIN_TYPES) {
    std::mt19937 rng(20240601);
    for (int seq = 0; seq < 60; ++seq) {
        CAPTURE(seq);
        Ref ref;
        // Some sequences live at the ends of int.
        const int where = seq % 6;
        const int base_lo = where == 4 ? int_min : where == 5 ? static_cast<int>(int_max - test_width<D> - 5) : -300;
        const int base_hi = where == 4 ? int_min + 5 : where == 5 ? static_cast<int>(int_max - test_width<D> + 1) : 300;
        D d = random_domain<D>(rng, ref, test_width<D>, base_lo, base_hi);
        for (int step = 0; step < 60; ++step) {
            CAPTURE(step);
            const int v = random_value(rng, d, ref), w = random_value(rng, d, ref);
            switch (std::uniform_int_distribution<int>(0, 10)(rng)) {
            case 0:
            case 1:
            case 2: do_remove(d, ref, v); break;
            case 3:
            case 4: do_remove_below(d, ref, v); break;
            case 5:
            case 6: do_remove_above(d, ref, v); break;
            case 7: do_assign(d, ref, v); break;
            case 8:
                if (std::uniform_int_distribution<int>(0, 1)(rng) == 0) {
                    do_keep_between(d, ref, std::min(v, w), std::max(v, w));
                } else {
                    // Reversed ends, an empty range, now and then.
                    do_keep_between(d, ref, v, w);
                }
                break;
            case 9:
                if (std::uniform_int_distribution<int>(0, 1)(rng) == 0) {
                    const auto [start, mask] = random_window(rng, d);
                    do_remove_bits(d, ref, start, mask);
                    break;
                }
                [[fallthrough]];
            default: {
                Ref mask_ref;
                // Mask bases keep a 300-wide mask inside int.
                const std::int64_t top = std::int64_t{int_max} - 299;
                const std::int64_t mlo = std::clamp<std::int64_t>(std::int64_t{d.min()} - 40, int_min, top);
                const std::int64_t mhi = std::clamp<std::int64_t>(std::int64_t{d.max()} + 5, mlo, top);
                const auto m = random_domain<DD>(rng, mask_ref, 300, static_cast<int>(mlo), static_cast<int>(mhi));
                do_intersect(d, ref, m, mask_ref);
            }
            }
            if (ref.size() == 1 && step % 7 == 0) break;
        }
    }
}

TEST_CASE_TEMPLATE("remove_range against std::set", D, DOMAIN_TYPES) {
    std::mt19937 rng(8086);
    for (int seq = 0; seq < 60; ++seq) {
        CAPTURE(seq);
        Ref ref;
        const int where = seq % 4;
        const int base_lo = where == 3 ? static_cast<int>(int_max - test_width<D> - 5) : where == 2 ? int_min : -300;
        const int base_hi = where == 3 ? static_cast<int>(int_max - test_width<D> + 1) : where == 2 ? int_min + 5 : 300;
        D d = random_domain<D>(rng, ref, test_width<D>, base_lo, base_hi);
        for (int step = 0; step < 40; ++step) {
            CAPTURE(step);
            // Ranges of every length, inside, across either bound, around
            // everything, reversed (empty), and beyond int.
            const std::int64_t a = random_value(rng, d, ref);
            std::int64_t b = a + std::uniform_int_distribution<std::int64_t>(-2, 140)(rng);
            if (std::uniform_int_distribution<int>(0, 9)(rng) == 0) b = std::int64_t{1} << 40;
            const std::int64_t from = std::uniform_int_distribution<int>(0, 9)(rng) == 0 ? -(std::int64_t{1} << 40) : a;
            if (std::uniform_int_distribution<int>(0, 3)(rng) == 0) do_remove(d, ref, random_value(rng, d, ref));
            else do_remove_range(d, ref, from, b);
            if (ref.size() == 1 && step % 5 == 0) break;
        }
    }
}

TEST_CASE("dynamic domains size themselves") {
    for (int width : {1, 64, 65, 128, 129, 1000, 4097}) {
        CAPTURE(width);
        DD d(-width, -1);
        CHECK(d.words() == static_cast<std::size_t>((width + 63) / 64));
        CHECK(d.size() == static_cast<unsigned>(width));
        CHECK(d.min() == -width);
        CHECK(d.max() == -1);
        // A copy owns its words.
        DD copy = d;
        CHECK(copy.remove(-1) == (width == 1 ? propane::Change::failed : propane::Change::bounds));
        CHECK(d.max() == -1);
        CHECK(copy.max() == (width == 1 ? -1 : -2));
    }
}

// ---- the cached size and bounds of dynamic domains ------------------------
//
// A dynamic domain caches size, min and max; the trail puts words back one
// at a time with restore_word. These tests recompute the summary from the
// words after every single write, so a cache that is right only once a
// level is fully restored still fails.

namespace {

// The words, mirrored without a cache: what a BitDomain<W> must not outgrow.
template <std::size_t W>
struct BareDomain {
    int base;
    std::array<std::uint64_t, W> words;
};
static_assert(sizeof(D1) == sizeof(BareDomain<1>), "fixed-width domains carry no cache");
static_assert(sizeof(D2) == sizeof(BareDomain<2>), "fixed-width domains carry no cache");
static_assert(sizeof(D4) == sizeof(BareDomain<4>), "fixed-width domains carry no cache");

// size, min and max counted from the words alone.
struct Summary {
    unsigned size = 0;
    std::int64_t min = 0, max = 0;
};

Summary summary_of_words(const DD& d) {
    Summary s;
    for (std::size_t i = 0; i < d.words(); ++i) {
        const std::uint64_t w = d.word_at(i);
        if (w == 0) continue;
        const std::int64_t at = std::int64_t{d.base()} + 64 * std::int64_t(i);
        if (s.size == 0) s.min = at + std::countr_zero(w);
        s.max = at + 63 - std::countl_zero(w);
        s.size += static_cast<unsigned>(std::popcount(w));
    }
    return s;
}

// The O(1) queries agree with the words. An empty domain (possible only
// mid-way through arbitrary restores) has a size and nothing else.
void check_summary(const DD& d) {
    const Summary s = summary_of_words(d);
    CHECK(d.size() == s.size);
    if (s.size == 0) return;
    CHECK(d.min() == s.min);
    CHECK(d.max() == s.max);
    CHECK(d.fixed() == (s.size == 1));
    if (s.size == 1) CHECK(d.value() == s.min);
}

// A level of a miniature trail: the first old value of each word written in
// it, with the summary before the write, as the store records them, and the
// state to come back to.
struct OldWord {
    std::size_t word;
    std::uint64_t old;
    DD::summary_type summary;
};
struct Level {
    DD saved;
    Ref ref;
    std::vector<bool> seen;
    std::vector<OldWord> old_words;
};

// One update through the trail, checked against the reference set.
template <class Op>
void trailed_update(DD& d, Ref& ref, std::vector<Level>& levels, const Ref& want_after, Op op) {
    const Change want = expected_change(ref, want_after);
    auto save = [&](std::size_t i) {
        if (levels.empty()) return;
        Level& top = levels.back();
        if (top.seen[i]) return;
        top.seen[i] = true;
        top.old_words.push_back({i, d.word_at(i), d.summary()});
    };
    CHECK(str(op(d, save)) == str(want));
    if (want != Change::failed) ref = want_after;
    check_matches(d, ref);
    check_summary(d);
}

// How pop_level puts words back: newest save first, as the store does, with
// or without the saved summaries, or in any order (words only).
enum class Undo { newest_first, with_summaries, shuffled };

// Pops the newest level word by word, checking the summary after each
// restore_word (with saved summaries, only once all are back: the one put
// back last is exact, those before it need not be).
void pop_level(DD& d, Ref& ref, std::vector<Level>& levels, Undo undo, std::mt19937& rng) {
    Level top = std::move(levels.back());
    levels.pop_back();
    std::reverse(top.old_words.begin(), top.old_words.end());
    if (undo == Undo::shuffled) std::shuffle(top.old_words.begin(), top.old_words.end(), rng);
    for (const OldWord& w : top.old_words) {
        const std::size_t i = w.word;
        CAPTURE(i);
        if (undo == Undo::with_summaries) {
            d.restore_word(i, w.old, w.summary);
        } else {
            d.restore_word(i, w.old);
            check_summary(d);
        }
    }
    check_summary(d);
    CHECK(d == top.saved);
    ref = top.ref;
    check_matches(d, ref);
}

} // namespace

TEST_CASE("dynamic domain: size and bounds stay exact through updates and restores") {
    std::mt19937 rng(31337);
    for (int seq = 0; seq < 250; ++seq) {
        CAPTURE(seq);
        const int words = 1 + seq % 5;
        // Negative bases, the end of int among them; widths that end
        // anywhere in the last word.
        const int width = std::uniform_int_distribution<int>(64 * (words - 1) + 1, 64 * words)(rng);
        const int lo = seq % 10 == 9 ? int_min + std::uniform_int_distribution<int>(0, 5)(rng)
                                     : std::uniform_int_distribution<int>(-700, -1)(rng);
        DD d(lo, lo + width - 1);
        Ref ref = range_set(lo, std::int64_t{lo} + width - 1);
        REQUIRE(d.words() == static_cast<std::size_t>(words));
        check_summary(d);
        std::vector<Level> levels;
        for (int step = 0; step < 80; ++step) {
            CAPTURE(step);
            const int v = random_value(rng, d, ref);
            const int kind = std::uniform_int_distribution<int>(0, 13)(rng);
            INFO("step kind " << kind << ", value " << v << ", level " << levels.size());
            switch (kind) {
            case 0:
            case 1: levels.push_back({d, ref, std::vector<bool>(d.words(), false), {}}); break;
            case 2:
            case 3:
                if (!levels.empty())
                    pop_level(d, ref, levels,
                              kind == 3 ? Undo::shuffled : step % 2 == 0 ? Undo::newest_first : Undo::with_summaries,
                              rng);
                break;
            case 4:
            case 5:
                trailed_update(d, ref, levels, ref_remove(ref, v),
                               [v](DD& x, auto& save) { return x.remove(v, save); });
                break;
            case 6:
                trailed_update(d, ref, levels, ref_below(ref, v),
                               [v](DD& x, auto& save) { return x.remove_below(v, save); });
                break;
            case 7:
                trailed_update(d, ref, levels, ref_above(ref, v),
                               [v](DD& x, auto& save) { return x.remove_above(v, save); });
                break;
            case 8:
                trailed_update(d, ref, levels, ref_assign(ref, v),
                               [v](DD& x, auto& save) { return x.assign(v, save); });
                break;
            case 9: {
                // Down to the values between two present ones.
                auto it = ref.begin();
                std::advance(it, std::uniform_int_distribution<std::size_t>(0, ref.size() - 1)(rng));
                const int a = std::min(v, *it), b = std::max(v, *it);
                // Neither half can fail, and Change is ordered by strength.
                trailed_update(d, ref, levels, ref_above(ref_below(ref, a), b), [a, b](DD& x, auto& save) {
                    const Change below = x.remove_below(a, save);
                    return std::max(below, x.remove_above(b, save));
                });
                break;
            }
            case 10: {
                Ref mask_ref;
                const auto mask_lo = static_cast<int>(std::max<std::int64_t>(std::int64_t{d.base()} - 100, int_min));
                const auto m = random_domain<DD>(rng, mask_ref, 400, mask_lo, d.base() + 300);
                trailed_update(d, ref, levels, ref_intersect(ref, mask_ref),
                               [&m](DD& x, auto& save) { return x.intersect(m, save); });
                break;
            }
            case 11: {
                const int w = random_value(rng, d, ref);
                const int a = std::min(v, w), b = std::max(v, w);
                trailed_update(d, ref, levels, ref_above(ref_below(ref, a), b),
                               [a, b](DD& x, auto& save) { return x.keep_between(a, b, save); });
                break;
            }
            case 12: {
                // Named, not bound: Clang 14 cannot capture a structured binding.
                const std::pair<std::int64_t, std::uint64_t> window = random_window(rng, d);
                const std::int64_t start = window.first;
                const std::uint64_t mask = window.second;
                trailed_update(d, ref, levels, ref_remove_bits(ref, start, mask),
                               [start, mask](DD& x, auto& save) { return x.remove_bits(start, mask, save); });
                break;
            }
            default: {
                // A copy keeps the cache, and equality ignores it.
                const DD copy = d;
                check_summary(copy);
                CHECK(copy == d);
                CHECK(copy.size() == d.size());
                CHECK(copy.min() == d.min());
                CHECK(copy.max() == d.max());
            }
            }
        }
        while (!levels.empty()) pop_level(d, ref, levels, Undo::with_summaries, rng);
    }
}

TEST_CASE("dynamic domains copy and move, words inline or on the heap") {
    // Up to two words live inside the domain, more on the heap: every
    // copy and move between the two kinds, and a vector that moves its
    // domains as it grows, must keep each one's values and summary.
    std::mt19937 rng(5150);
    std::vector<DD> grown;
    std::vector<Ref> refs;
    for (int round = 0; round < 40; ++round) {
        CAPTURE(round);
        Ref ra, rb;
        const DD a = random_domain<DD>(rng, ra, 64 * (1 + round % 5), -300, 300);
        DD b = random_domain<DD>(rng, rb, 64 * (1 + (round / 5) % 5), -300, 300);
        DD copy(a);
        check_matches(copy, ra);
        check_summary(copy);
        CHECK(copy == a);
        b = a;
        check_matches(b, ra);
        check_summary(b);
        const DD& same = b;
        b = same; // self-assignment keeps the words
        check_matches(b, ra);
        DD moved(std::move(copy));
        check_matches(moved, ra);
        check_summary(moved);
        DD target = random_domain<DD>(rng, rb, 64 * (1 + round % 3), -300, 300);
        target = std::move(moved);
        check_matches(target, ra);
        check_summary(target);
        // A moved-to copy still updates its own words only.
        if (ra.size() > 1) {
            Ref after = ref_remove(ra, *ra.begin());
            CHECK(target.remove(*ra.begin()) != Change::failed);
            check_matches(target, after);
            check_matches(a, ra);
        }
        grown.push_back(a);
        refs.push_back(ra);
    }
    for (std::size_t k = 0; k < grown.size(); ++k) {
        CAPTURE(k);
        check_matches(grown[k], refs[k]);
        check_summary(grown[k]);
    }
}

TEST_CASE("dynamic domain: restore_word keeps size and bounds exact for any word") {
    // The trail only ever puts bits back, but the cache must not depend on
    // it: write arbitrary words, emptying the domain on the way and filling
    // it again, and check after each write.
    std::mt19937 rng(4242);
    for (int seq = 0; seq < 200; ++seq) {
        CAPTURE(seq);
        const int words = 1 + seq % 5;
        const int lo = std::uniform_int_distribution<int>(-500, -64)(rng);
        DD d(lo, lo + 64 * words - 1);
        for (int step = 0; step < 60; ++step) {
            CAPTURE(step);
            const auto i = std::uniform_int_distribution<std::size_t>(0, d.words() - 1)(rng);
            std::uint64_t w = 0;
            switch (std::uniform_int_distribution<int>(0, 5)(rng)) {
            case 0: w = 0; break;
            case 1: w = ~std::uint64_t{0}; break;
            case 2: w = std::uint64_t{1} << std::uniform_int_distribution<int>(0, 63)(rng); break;
            case 3: w = d.word_at(i) & rng(); break;                       // loses bits
            case 4: w = d.word_at(i) | (std::uint64_t{1} << (rng() % 64)); break; // gains one
            default: w = (std::uint64_t{rng()} << 32) ^ rng(); break;
            }
            CAPTURE(i);
            CAPTURE(w);
            d.restore_word(i, w);
            check_summary(d);
        }
    }
}

TEST_CASE("dynamic domain: restore_word brings bounds back from other words") {
    // Five words: -130..-67, -66..-3, -2..61, 62..125, 126..189.
    const DD full(-130, 189);
    DD d = full;
    std::vector<std::pair<std::size_t, std::uint64_t>> saved;
    std::vector<bool> seen(d.words(), false);
    auto save = [&](std::size_t i) {
        if (!seen[i]) saved.emplace_back(i, d.word_at(i));
        seen[i] = true;
    };
    CHECK(str(d.remove_below(70, save)) == "bounds"); // saves words 0..3
    CHECK(str(d.remove_above(71, save)) == "bounds"); // saves word 4
    CHECK(str(d.remove(70, save)) == "fixed");
    CHECK(d.value() == 71);
    check_summary(d);
    // Newest first: word 4 brings the max back while the min is still in
    // word 3, then each earlier word lowers the min.
    const int mins[] = {71, 62, -2, -66, -130};
    REQUIRE(saved.size() == 5);
    for (std::size_t k = 0; k < 5; ++k) {
        const std::size_t i = saved[4 - k].first;
        CAPTURE(i);
        d.restore_word(i, saved[4 - k].second);
        check_summary(d);
        CHECK(d.max() == 189);
        CHECK(d.min() == mins[k]);
    }
    CHECK(d.size() == 320);
    CHECK(d == full);
}

// At compile time popcount takes its arithmetic path, whatever the
// processor: checked here on many words (splitmix64's sequence, and each
// of them thinned and thickened), which the run-time test below, where the
// instruction answers, cannot reach.
constexpr bool popcount_arithmetic_matches() {
    std::uint64_t x = 0;
    for (int k = 0; k < 300; ++k) {
        x += 0x9e3779b97f4a7c15U;
        std::uint64_t z = x;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9U;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebU;
        z ^= z >> 31;
        for (const std::uint64_t w : {z, z & (z >> 7), z | (z << 5), std::uint64_t{1} << (k % 64)})
            if (propane::detail::popcount(w) != static_cast<unsigned>(std::popcount(w))) return false;
    }
    return true;
}

TEST_CASE("popcount counts the bits of any word, at run time and at compile time") {
    static_assert(propane::detail::popcount(0) == 0);
    static_assert(propane::detail::popcount(~std::uint64_t{0}) == 64);
    static_assert(propane::detail::popcount(0x8000000000000001U) == 2);
    static_assert(popcount_arithmetic_matches());
    // Run time: the processor's instruction where it has one (detected at
    // start-up on x86-64), else the arithmetic form; both must agree with
    // the standard library.
    std::mt19937_64 rng(7);
    for (int k = 0; k < 10000; ++k) {
        // Sparse, dense and uniform words, so every count from 0 to 64 comes up.
        const std::uint64_t a = rng(), b = rng(), w = k % 3 == 0 ? a & b : k % 3 == 1 ? a | b : a;
        const std::uint64_t x = k < 65 ? (k == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << k) - 1) : w;
        CHECK(propane::detail::popcount(x) == static_cast<unsigned>(std::popcount(x)));
    }
}

// ---- the interval form ----------------------------------------------------
//
// DI runs every test above on narrow ranges. Here: how the form is chosen,
// wide ranges against a reference of runs, and the holes it keeps.

TEST_CASE("Representation: automatic picks a bitset up to bitset_limit values, an interval above") {
    const auto words_of = [](const DD& d) { return d.interval() ? std::size_t{0} : d.words(); };
    const DD at_limit(0, 65535), above(0, 65536), below_zero(-65536, -1), across_zero(-65536, 0);
    CHECK(at_limit.representation() == Representation::bitset);
    CHECK(words_of(at_limit) == 1024);
    CHECK(below_zero.representation() == Representation::bitset);
    CHECK(above.representation() == Representation::interval);
    CHECK(across_zero.representation() == Representation::interval);
    CHECK(above.words() == 0);
    CHECK(above.size() == 65537);
    CHECK(across_zero.size() == 65537);
    // Asked for, either form at any width it can hold.
    const DD wide_bits(0, 65536, Representation::bitset), narrow(3, 3, Representation::interval);
    CHECK(wide_bits.representation() == Representation::bitset);
    CHECK(wide_bits.words() == 1025);
    CHECK(narrow.representation() == Representation::interval);
    CHECK(narrow.fixed());
    CHECK(narrow.value() == 3);
    CHECK(narrow.size() == 1);
    // The two forms of one set are not equal: equality compares how a
    // domain is kept, as it compares bases.
    CHECK_FALSE(DD(0, 9) == DD(0, 9, Representation::interval));
    CHECK(DD(0, 9, Representation::interval) == DI(0, 9));
}

TEST_CASE_TEMPLATE("a fixed-width domain refuses the interval form, naming the problem", D, D1, D2, D4) {
    std::string what = "no exception";
    try {
        const D d(0, 10, Representation::interval);
    } catch (const propane::model_error& e) {
        what = e.what();
    }
    CAPTURE(what);
    CHECK(what.rfind("propane: ", 0) == 0);
    CHECK(what.find("0..10") != std::string::npos);
    CHECK(what.find("interval") != std::string::npos);
    CHECK(what.find("BitDomain<dynamic>") != std::string::npos);
    // Its own form, asked for or chosen, is a bitset.
    CHECK(D(0, 10, Representation::bitset) == D(0, 10));
    CHECK(D(0, 10, Representation::automatic).representation() == Representation::bitset);
}

TEST_CASE("a dynamic bitset holds at most bitset_capacity values, refused before allocating") {
    // INT_MAX + 1 values fit the interval form, not a bitset asked for.
    std::string what = "no exception";
    const std::size_t block = largest_block_in([&] {
        try {
            const DD d(-10, int_max - 10, Representation::bitset);
        } catch (const propane::model_error& e) {
            what = e.what();
        }
    });
    CHECK(block < 4096);
    CAPTURE(what);
    CHECK(what.find("2147483648") != std::string::npos);
    CHECK(what.find("2147483647") != std::string::npos);
    CHECK(what.find("bitset") != std::string::npos);
    CHECK(largest_block_in([] { CHECK_THROWS_AS(DD(int_min, int_max, Representation::bitset), propane::model_error); }) <
          4096);
    CHECK(largest_block_in([] { CHECK_THROWS_AS(DD(int_min, int_max, Representation::interval), propane::model_error); }) <
          4096);
    CHECK(DD(-10, int_max - 10).interval());
}

namespace {

using test_support::Runs;

// Every query of an interval domain agrees with ref, probed where the
// answers change: at and beside each run's ends, at the ends of int, and
// at random between and around the bounds. All the values by iteration
// when there are few, the first ones always.
template <class D>
void check_runs(const D& d, const Runs& ref, std::mt19937& rng) {
    REQUIRE_FALSE(ref.empty());
    CHECK(d.interval());
    CHECK(d.words() == 0);
    CHECK(d.min() == ref.min());
    CHECK(d.max() == ref.max());
    CHECK(d.size() == ref.size());
    CHECK(d.fixed() == (ref.size() == 1));
    CHECK(holes_str(d.holes()) == holes_str(ref.gaps()));

    std::vector<std::int64_t> probes = {int_min, int_max, std::int64_t{int_min} - 1, std::int64_t{int_max} + 1,
                                        std::numeric_limits<std::int64_t>::min(),
                                        std::numeric_limits<std::int64_t>::max()};
    for (const Hole& h : ref.gaps())
        for (const std::int64_t v : {h.lo - 1, h.lo, h.lo + 1, h.hi - 1, h.hi, h.hi + 1}) probes.push_back(v);
    for (const std::int64_t v : {ref.min() - 1, ref.min(), ref.min() + 1, ref.max() - 1, ref.max(), ref.max() + 1})
        probes.push_back(v);
    for (int k = 0; k < 20; ++k)
        probes.push_back(std::uniform_int_distribution<std::int64_t>(ref.min() - 3, ref.max() + 3)(rng));
    int bit_windows = 0;
    for (const std::int64_t v : probes) {
        CAPTURE(v);
        CHECK(d.contains(v) == ref.contains(v));
        if (v < ref.max()) CHECK(d.next(v) == ref.next(v));
        if (v > ref.min()) CHECK(d.prev(v) == ref.prev(v));
        if (ref.contains(v)) {
            CHECK(d.run_end(static_cast<int>(v)) == ref.run_end(v));
            CHECK(d.run_start(static_cast<int>(v)) == ref.run_start(v));
        }
        // Windows that start at, below and above a probe (a few: each is
        // 64 look-ups in the reference), the far probes brought within
        // reach of int first.
        if (bit_windows++ < 12) {
            constexpr std::int64_t far = std::int64_t{1} << 40;
            const std::int64_t start = std::clamp(v, -far, far) - std::uniform_int_distribution<int>(0, 63)(rng);
            CHECK(d.bits_from(start) == ref.bits_from(start));
        }
    }

    // nth at both ends, at random, and on the first value past a hole.
    std::vector<std::uint64_t> ks = {0, 1, ref.size() - 1, ref.size() - 2};
    for (int k = 0; k < 6; ++k) ks.push_back(std::uniform_int_distribution<std::uint64_t>(0, ref.size() - 1)(rng));
    const std::vector<Hole> gaps = ref.gaps();
    for (std::size_t k = 0; k < gaps.size() && k < 6; ++k) {
        const std::uint64_t r = ref.rank(gaps[(k * 7919) % gaps.size()].hi + 1);
        ks.insert(ks.end(), {r - 1, r});
    }
    for (const std::uint64_t k : ks)
        if (k < ref.size()) {
            CAPTURE(k);
            CHECK(d.nth(k) == ref.nth(k));
        }

    const std::vector<std::int64_t> head = ref.first(50);
    std::vector<std::int64_t> seen;
    for (auto it = d.begin(); it != d.end() && seen.size() < head.size(); ++it) seen.push_back(*it);
    CHECK(seen == head);
    if (ref.size() <= 3000) {
        const std::vector<std::int64_t> all = ref.first(ref.size());
        std::vector<std::int64_t> each, ranged;
        d.for_each([&](int v) { each.push_back(v); });
        for (const int v : d) ranged.push_back(v);
        CHECK(each == all);
        CHECK(ranged == all);
    }
}

// One update, checked as update_and_check does, against runs; `seen`
// counts the kinds of change met.
template <class D, class Op>
void wide_update(std::map<Change, int>& seen, D& d, Runs& ref, const Runs& want_after, std::mt19937& rng, Op op) {
    const Change want = expected_change(ref, want_after);
    const Change got = apply_checked(d, op);
    CHECK(str(got) == str(want));
    ++seen[want];
    if (want != Change::failed) ref = want_after;
    check_runs(d, ref, rng);
}

int clamp_to_int(std::int64_t v) { return static_cast<int>(clamp_int(v)); }

// Values worth an update: beside the bounds, at and beside the holes'
// ends, around the middle (where removals cluster, so that holes meet and
// merge), anywhere between the bounds or in the initial range, and the
// ends of int.
int wide_value(std::mt19937& rng, const Runs& ref, int lo0, int hi0) {
    const auto any = [&](std::int64_t a, std::int64_t b) { return std::uniform_int_distribution<std::int64_t>(a, b)(rng); };
    switch (std::uniform_int_distribution<int>(0, 9)(rng)) {
    case 0: return clamp_to_int(ref.min() + any(-2, 40));
    case 1: return clamp_to_int(ref.max() - any(-2, 40));
    case 2:
    case 3: {
        const std::vector<Hole> gaps = ref.gaps();
        if (gaps.empty()) break;
        const Hole& h = gaps[static_cast<std::size_t>(any(0, static_cast<std::int64_t>(gaps.size()) - 1))];
        const std::int64_t at[] = {h.lo - 1, h.lo, h.hi, h.hi + 1, h.lo + (h.hi - h.lo) / 2};
        return clamp_to_int(at[any(0, 4)]);
    }
    case 4: return clamp_to_int(any(ref.min(), ref.max()));
    case 5: return clamp_to_int(any(std::int64_t{lo0} - 3, std::int64_t{hi0} + 3));
    case 6: return std::uniform_int_distribution<int>(0, 1)(rng) ? int_min : int_max;
    default: break;
    }
    return clamp_to_int(ref.min() + (ref.max() - ref.min()) / 2 + any(-150, 150));
}

// A value a bound may move to without emptying a wide domain at once:
// mostly just inside it, or onto a hole.
int near_bound(std::mt19937& rng, const Runs& ref, bool low, int lo0, int hi0) {
    if (std::uniform_int_distribution<int>(0, 9)(rng) < 7) {
        const std::int64_t step = std::uniform_int_distribution<std::int64_t>(-1, 60)(rng);
        return clamp_to_int(low ? ref.min() + step : ref.max() - step);
    }
    return wide_value(rng, ref, lo0, hi0);
}

// A mask of width <= 64 * W (a fixed width) or <= 300 (dynamic) around v,
// thinned at random, in the form M makes.
template <class M>
M mask_around(std::mt19937& rng, std::int64_t v) {
    const std::int64_t width = M::is_dynamic ? std::uniform_int_distribution<std::int64_t>(1, 300)(rng) : M::capacity;
    const std::int64_t lo = std::clamp<std::int64_t>(v - std::uniform_int_distribution<std::int64_t>(0, width)(rng),
                                                     int_min, std::int64_t{int_max} - width + 1);
    M m(static_cast<int>(lo), static_cast<int>(lo + width - 1));
    std::bernoulli_distribution drop(std::uniform_int_distribution<int>(0, 2)(rng) * 0.3);
    for (std::int64_t x = lo; x < lo + width; ++x)
        if (m.size() > 1 && drop(rng)) CHECK(m.remove(x) != Change::failed);
    return m;
}

} // namespace

TEST_CASE("interval form: random updates on wide domains against a reference of runs") {
    std::mt19937 rng(1000000007);
    // 10^9 values, the whole of int but one, and ranges that end at
    // either end of int.
    const std::pair<int, int> ranges[] = {{0, 999'999'999},     {-123'456'789, 876'543'210}, {int_min + 1, int_max},
                                          {0, int_max},         {int_min, int_max - 1},      {int_min, -1},
                                          {-2'000'000'000, 2'000'000'000}};
    std::map<Change, int> seen;
    std::size_t most_holes = 0;
    for (int seq = 0; seq < 70; ++seq) {
        CAPTURE(seq);
        const auto [lo0, hi0] = ranges[seq % 7];
        // Automatic: this wide, an interval.
        DD d(lo0, hi0);
        REQUIRE(d.interval());
        Runs ref(lo0, hi0);
        check_runs(d, ref, rng);
        for (int step = 0; step < 150; ++step) {
            CAPTURE(step);
            const int v = wide_value(rng, ref, lo0, hi0);
            const int kind = std::uniform_int_distribution<int>(0, 17)(rng);
            INFO("kind " << kind << ", value " << v);
            Runs after = ref;
            switch (kind) {
            case 0:
            case 1:
            case 2:
            case 3:
                after.remove(v);
                wide_update(seen, d, ref, after, rng, [v](auto& x, auto&&... h) { return x.remove(v, h...); });
                break;
            case 4: {
                // A burst of neighbours in random order: holes grow at
                // either end and merge.
                std::vector<int> burst;
                for (std::int64_t k = 0; k < 6; ++k)
                    if (std::int64_t{v} + k <= int_max) burst.push_back(static_cast<int>(v + k));
                std::shuffle(burst.begin(), burst.end(), rng);
                for (const int b : burst) {
                    Runs next = ref;
                    next.remove(b);
                    wide_update(seen, d, ref, next, rng, [b](auto& x, auto&&... h) { return x.remove(b, h...); });
                }
                break;
            }
            case 5: {
                const int a = near_bound(rng, ref, true, lo0, hi0);
                after.keep(a, int_max);
                wide_update(seen, d, ref, after, rng, [a](auto& x, auto&&... h) { return x.remove_below(a, h...); });
                break;
            }
            case 6: {
                const int b = near_bound(rng, ref, false, lo0, hi0);
                after.keep(int_min, b);
                wide_update(seen, d, ref, after, rng, [b](auto& x, auto&&... h) { return x.remove_above(b, h...); });
                break;
            }
            case 7: {
                int a = near_bound(rng, ref, true, lo0, hi0), b = near_bound(rng, ref, false, lo0, hi0);
                if (std::uniform_int_distribution<int>(0, 4)(rng) == 0) a = v; // inside, or reversed
                after.keep(a, b);
                wide_update(seen, d, ref, after, rng, [a, b](auto& x, auto&&... h) { return x.keep_between(a, b, h...); });
                break;
            }
            case 8:
            case 9: {
                const std::int64_t start = std::int64_t{v} - std::uniform_int_distribution<int>(0, 63)(rng);
                std::uint64_t mask = 0;
                switch (std::uniform_int_distribution<int>(0, 2)(rng)) {
                case 0: mask = ~std::uint64_t{0}; break;
                case 1: mask = std::uint64_t{1} << std::uniform_int_distribution<int>(0, 63)(rng); break;
                default: mask = std::uniform_int_distribution<std::uint64_t>()(rng) & std::uniform_int_distribution<std::uint64_t>()(rng);
                }
                after.remove_bits(start, mask);
                wide_update(seen, d, ref, after, rng,
                            [start, mask](auto& x, auto&&... h) { return x.remove_bits(start, mask, h...); });
                break;
            }
            case 10:
                // Rarely: it ends the width.
                if (std::uniform_int_distribution<int>(0, 3)(rng) == 0) {
                    after = ref.contains(v) ? Runs(v, v) : Runs();
                    wide_update(seen, d, ref, after, rng, [v](auto& x, auto&&... h) { return x.assign(v, h...); });
                }
                break;
            case 11:
            case 12:
            case 13: {
                if (std::uniform_int_distribution<int>(0, 2)(rng) != 0) break; // these end the width too
                const auto with = [&](const auto& m) {
                    after.intersect(m);
                    wide_update(seen, d, ref, after, rng, [&m](auto& x, auto&&... h) { return x.intersect(m, h...); });
                };
                if (kind == 11) with(mask_around<BitDomain<1>>(rng, v));
                else if (kind == 12) with(mask_around<DD>(rng, v));
                else with(mask_around<DI>(rng, v));
                break;
            }
            case 14:
            case 15: {
                // Runs of every length, up to most of the domain.
                const std::int64_t len = std::int64_t{1} << std::uniform_int_distribution<int>(0, 31)(rng);
                const std::int64_t a = v, b = a + std::uniform_int_distribution<std::int64_t>(-1, len)(rng);
                after.remove_range(a, b);
                wide_update(seen, d, ref, after, rng, [a, b](auto& x, auto&&... h) { return x.remove_range(a, b, h...); });
                break;
            }
            default: {
                // A copy answers alike and owns its holes.
                DD copy = d;
                check_runs(copy, ref, rng);
                if (copy.size() > 1) {
                    const int w = copy.max();
                    CHECK(copy.remove(w) != Change::failed);
                    CHECK(copy.max() != d.max());
                }
                check_runs(d, ref, rng);
            }
            }
            most_holes = std::max(most_holes, d.holes().size());
            if (ref.size() == 1 && step % 7 == 0) break;
        }
    }
    // The walk met every kind of change, and domains with many holes.
    for (Change c : {Change::none, Change::domain, Change::bounds, Change::fixed, Change::failed})
        CHECK(seen[c] > 0);
    CHECK(most_holes >= 30);
}

TEST_CASE("interval form: holes grow with what was removed, not with the width") {
    std::mt19937 rng(606);
    DI d(0, 999'999'999);
    Runs ref(0, 999'999'999);
    // k removals inside make at most k holes; clustered, many of them meet
    // an existing hole and make none.
    std::set<int> removed;
    for (std::size_t k = 1; k <= 2000; ++k) {
        const int v = std::uniform_int_distribution<int>(500'000, 503'000)(rng);
        removed.insert(v);
        const Change c = d.remove(v);
        CHECK(c != Change::failed);
        ref.remove(v);
        CHECK(d.holes().size() <= k);
        CHECK(d.holes().size() == ref.count() - 1);
    }
    check_runs(d, ref, rng);
    CHECK(d.size() == 1'000'000'000 - removed.size());
    // Moving the bounds makes no hole, however far they go.
    const std::size_t holes = d.holes().size();
    for (int k = 1; k <= 1000; ++k) {
        CHECK(d.remove_below(k * 100) == Change::bounds);
        CHECK(d.remove_above(999'999'999 - k * 100) == Change::bounds);
        CHECK(d.remove(d.min()) == Change::bounds);
        CHECK(d.remove(d.max()) == Change::bounds);
    }
    CHECK(d.holes().size() == holes);
    // Bounds that pass the holes take them away: none is left behind one.
    CHECK(d.keep_between(501'000, 502'000) == Change::bounds);
    for (const Hole& h : d.holes()) {
        CHECK(h.lo > d.min());
        CHECK(h.hi < d.max());
    }
    ref.keep(501'000, 502'000);
    check_runs(d, ref, rng);
    CHECK(d.holes().size() < holes);
    const int second = d.next(d.min());
    CHECK(d.remove_above(second) == Change::bounds);
    CHECK(d.holes().size() == (second > d.min() + 1 ? 1U : 0U));
}

TEST_CASE("interval form: neighbouring removals make one hole, and a bound meeting a hole swallows it") {
    std::mt19937 rng(7);
    DI d(0, 999'999'999);
    Runs ref(0, 999'999'999);
    std::map<Change, int> seen;
    const auto remove = [&](int v, const char* holes_after) {
        Runs after = ref;
        after.remove(v);
        wide_update(seen, d, ref, after, rng, [v](auto& x, auto&&... h) { return x.remove(v, h...); });
        CHECK(holes_str(d.holes()) == holes_after);
    };
    remove(100, "[100,100]");
    remove(102, "[100,100][102,102]");
    remove(101, "[100,102]");            // joins the two
    remove(99, "[99,102]");              // grows down
    remove(103, "[99,103]");             // grows up
    remove(101, "[99,103]");             // already gone: none
    remove(200, "[99,103][200,200]");
    remove(1, "[1,1][99,103][200,200]");
    // The least value goes and the next one starts a hole: the new least
    // value is the one after that hole, which goes with it.
    remove(0, "[99,103][200,200]");
    CHECK(d.min() == 2);
    for (int v = 2; v < 98; ++v) remove(v, "[99,103][200,200]");
    remove(98, "[200,200]");
    CHECK(d.min() == 104);
    // The same at the top.
    remove(999'999'998, "[200,200][999999998,999999998]");
    remove(999'999'999, "[200,200]");
    CHECK(d.max() == 999'999'997);
    // A window that removes everything between two holes makes one of the
    // three.
    Runs after = ref;
    after.remove_bits(201, ~std::uint64_t{0});
    wide_update(seen, d, ref, after, rng, [](auto& x, auto&&... h) { return x.remove_bits(201, ~std::uint64_t{0}, h...); });
    CHECK(holes_str(d.holes()) == "[200,264]");
    remove(266, "[200,264][266,266]");
    remove(265, "[200,266]");
    // Bounds that land in a hole move past it.
    after = ref;
    after.keep(230, int_max);
    wide_update(seen, d, ref, after, rng, [](auto& x, auto&&... h) { return x.remove_below(230, h...); });
    CHECK(d.min() == 267);
    CHECK(d.holes().empty());
    CHECK(d.size() == 999'999'997 - 267 + 1);
}

TEST_CASE("interval form: iteration and next/prev at the ends of int") {
    // Offsets from the base past INT_MAX: the whole of int but one.
    DI top(int_min + 1, int_max);
    CHECK(top.remove_below(int_max - 4) == Change::bounds);
    CHECK(top.remove(int_max - 2) == Change::domain);
    const std::vector<int> want_top = {int_max - 4, int_max - 3, int_max - 1, int_max};
    CHECK(by_for_each(top) == want_top);
    CHECK(by_iterator(top) == want_top);
    CHECK(top.next(int_max - 3) == int_max - 1);
    CHECK(top.prev(int_max) == int_max - 1);
    CHECK(top.prev(int_max - 1) == int_max - 3);

    DI bottom(int_min, int_max - 1);
    CHECK(bottom.remove_above(int_min + 3) == Change::bounds);
    CHECK(bottom.remove(int_min + 1) == Change::domain);
    const std::vector<int> want_bottom = {int_min, int_min + 2, int_min + 3};
    CHECK(by_for_each(bottom) == want_bottom);
    CHECK(by_iterator(bottom) == want_bottom);

    // A small domain near the top, with holes: every value by iteration.
    DI near(int_max - 200, int_max);
    Ref ref = range_set(int_max - 200, int_max);
    for (std::int64_t v = int_max - 200; v < int_max; v += 3) do_remove(near, ref, static_cast<int>(v));
    check_matches(near, ref);
}

TEST_CASE_TEMPLATE("for_each lets f remove the value it is given", D, DOMAIN_TYPES) {
    const int hi = static_cast<int>(std::min<std::int64_t>(test_width<D>, 200)) - 11;
    D d(-10, hi);
    Ref ref = range_set(-10, hi);
    CHECK(d.remove(5) != Change::failed);
    ref.erase(5);
    // Every even value and every third, the least among them: the walk
    // must still hand out each value once, in order.
    const std::vector<int> before(ref.begin(), ref.end());
    std::vector<int> seen;
    d.for_each([&](int v) {
        seen.push_back(v);
        if (v % 2 == 0 || v % 3 == 0) {
            CHECK(d.remove(v) != Change::failed);
            ref.erase(v);
        }
    });
    CHECK(seen == before);
    check_matches(d, ref);
}

TEST_CASE("interval form: copies are deep") {
    DI a(0, 999'999'999);
    for (const int v : {10, 20, 30, 40}) CHECK(a.remove(v) == Change::domain);
    const std::string a_holes = holes_str(a.holes());
    DI b = a;
    CHECK(same(b, a));
    // Growing, merging, clearing holes in the copy leaves the original's.
    CHECK(b.remove(11) == Change::domain);
    CHECK(b.remove(19) == Change::domain);
    CHECK(b.remove(50) == Change::domain);
    CHECK(holes_str(a.holes()) == a_holes);
    CHECK(a.contains(11));
    CHECK(a.size() == 999'999'996);
    CHECK(b.assign(25) == Change::fixed);
    CHECK(b.holes().empty());
    CHECK(holes_str(a.holes()) == a_holes);

    // Assigned over, and the other way round.
    b = a;
    CHECK(same(b, a));
    CHECK(a.remove(21) == Change::domain);
    CHECK(b.contains(21));
    CHECK(holes_str(b.holes()) == a_holes);
    const DI& self = b;
    b = self;
    CHECK(holes_str(b.holes()) == a_holes);

    // Moved, and a moved-from domain assigned again.
    DI c = std::move(b);
    CHECK(holes_str(c.holes()) == a_holes);
    b = a;
    CHECK(same(b, a));
    CHECK(b.remove(22) == Change::domain);
    CHECK(a.contains(22));

    // Between the forms: a bitset assigned an interval becomes one, and
    // back.
    DD bits(0, 100);
    bits = a;
    CHECK(bits.interval());
    CHECK(same(bits, static_cast<const DD&>(a)));
    CHECK(bits.remove(23) == Change::domain);
    CHECK(a.contains(23));
    bits = DD(0, 100);
    CHECK_FALSE(bits.interval());
    CHECK(bits.size() == 101);

    // A vector that moves its domains as it grows keeps each one's holes.
    std::vector<DD> grown;
    std::vector<std::string> holes;
    for (int k = 0; k < 40; ++k) {
        DD d = k % 3 == 0 ? DD(0, 500) : DD(-k, 999'999'999);
        for (int j = 0; j <= k % 5; ++j) CHECK(d.remove(7 * j + k + 1) == Change::domain);
        holes.push_back(d.interval() ? holes_str(d.holes()) : "bitset");
        grown.push_back(d);
    }
    for (std::size_t k = 0; k < grown.size(); ++k) {
        CAPTURE(k);
        CHECK((grown[k].interval() ? holes_str(grown[k].holes()) : "bitset") == holes[k]);
    }
}

TEST_CASE("interval form: remove_range makes one hole, merged with those it meets") {
    std::mt19937 rng(99);
    DI d(0, 999'999'999);
    Runs ref(0, 999'999'999);
    std::map<Change, int> seen;
    const auto remove_range = [&](std::int64_t a, std::int64_t b, const char* holes_after) {
        CAPTURE(a);
        CAPTURE(b);
        Runs after = ref;
        after.remove_range(a, b);
        wide_update(seen, d, ref, after, rng, [a, b](auto& x, auto&&... h) { return x.remove_range(a, b, h...); });
        CHECK(holes_str(d.holes()) == holes_after);
    };
    remove_range(100, 199, "[100,199]");
    remove_range(300, 399, "[100,199][300,399]");
    remove_range(150, 350, "[100,399]");           // spans the gap: one
    remove_range(400, 400, "[100,400]");           // touches: grows
    remove_range(50, 99, "[50,400]");
    remove_range(120, 130, "[50,400]");            // inside a hole: none
    remove_range(500, 499, "[50,400]");            // empty range: none
    remove_range(600, 100'000'599, "[50,400][600,100000599]");
    CHECK(d.size() == 1'000'000'000 - 351 - 100'000'000);
    // Across the bounds: the bounds move and the holes behind them go.
    remove_range(-(std::int64_t{1} << 40), 49, "[600,100000599]");
    CHECK(d.min() == 401);
    remove_range(999'999'000, std::int64_t{1} << 40, "[600,100000599]");
    CHECK(d.max() == 999'998'999);
    remove_range(401, 599, "");
    CHECK(d.min() == 100'000'600);
    // Everything: refused.
    remove_range(int_min, int_max, "");
    CHECK(seen[Change::failed] == 1);
}

TEST_CASE("interval form: intersecting with a wide interval mask costs what its holes cost, not its width") {
    // The mask is a BitDomain too, and may be an interval of billions of
    // values; cutting x down to it is a bounds update here (neither has a
    // hole), which must not hold its values one by one: 10^6 values are
    // 8 MB as int64s, 10^9 would be 8 GB.
    DI x(0, 999'999'999);
    const DI mask(-5, 1'000'000);
    Change c = Change::none;
    const std::size_t block = largest_block_in([&] { c = x.intersect(mask); });
    CHECK(str(c) == "bounds");
    CHECK(x.min() == 0);
    CHECK(x.max() == 1'000'000);
    CHECK(x.holes().empty());
    CHECK(block < 4096);
}
