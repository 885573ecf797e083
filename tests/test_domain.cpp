// BitDomain against a std::set<int> reference: every query after every
// update, the exact Change each update reports, and the before_write hook
// contract that the store's trail relies on.

#include <doctest/doctest.h>

#include "support.hpp"

#include <propane/engine/domain.hpp>
#include <propane/engine/error.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace {

using test_support::first_difference;
using test_support::str;
using test_support::expected_change;

using propane::BitDomain;
using propane::Change;
using Ref = std::set<int>;

constexpr int int_min = std::numeric_limits<int>::min();
constexpr int int_max = std::numeric_limits<int>::max();

using D1 = BitDomain<1>;
using D2 = BitDomain<2>;
using D4 = BitDomain<4>;
using DD = BitDomain<propane::dynamic>;

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

    // Membership over all the storage bits and beyond them on both sides:
    // bits past the initial hi exist in a fixed-width domain and must read 0.
    const std::int64_t span = 64 * std::int64_t(d.words());
    CHECK(first_difference(
              "contains", clamp_int(std::int64_t{d.base()} - 70), clamp_int(std::int64_t{d.base()} + span + 70),
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
}

// Runs op(d, hook) and checks the before_write contract: each word the
// update changes was announced before it was written, and at every call
// the words not yet announced (the announced one included) still hold
// their old values -- the store saves a fixed-width domain whole on the
// first call. The same op without a hook must do exactly the same.
template <class D, class Op>
Change apply_checked(D& d, Op op) {
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
    const std::int64_t base = d.base(), span = 64 * std::int64_t(d.words());
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

#define DOMAIN_TYPES D1, D2, D4, DD

TEST_CASE_TEMPLATE("domain type constants", D, DOMAIN_TYPES) {
    if constexpr (D::is_dynamic) {
        CHECK(D::capacity == int_max);
    } else {
        CHECK(D::capacity == 64 * std::int64_t(D(0, 0).words()));
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
            if constexpr (D::is_dynamic) {
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
        // 2^32 values (all of int) and INT_MAX + 1 values are both beyond it;
        // neither may try to allocate first.
        CHECK_THROWS_AS(D(int_min, int_max), propane::model_error);
        CHECK_THROWS_AS(D(0, int_max), propane::model_error);
        CHECK_THROWS_AS(D(-1, int_max - 1), propane::model_error);
        CHECK_THROWS_AS(D(int_min, -1), propane::model_error);
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
    const auto message = [](int lo, int hi) -> std::string {
        try {
            D d(lo, hi);
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

    const std::int64_t too_many = D::is_dynamic ? std::int64_t{int_max} + 1 : D::capacity + 1;
    const std::string big = message(-10, static_cast<int>(-10 + too_many - 1));
    CAPTURE(big);
    CHECK(big.rfind("propane: ", 0) == 0);
    CHECK(big.find(std::to_string(too_many)) != std::string::npos);
    CHECK(big.find(std::to_string(D::capacity)) != std::string::npos);
    CHECK_THROWS_AS(D(-10, static_cast<int>(-10 + too_many - 1)), std::invalid_argument);
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
        // unaligned with d's words.
        switch (round % 4) {
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
