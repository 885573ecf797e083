#ifndef PROPANE_TESTS_RUNS_REFERENCE_HPP
#define PROPANE_TESTS_RUNS_REFERENCE_HPP

// A reference for the interval form of a domain (test_domain, test_trail):
// a set of values kept as its runs, so that 10^9 values cost what 10 do.

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <map>
#include <vector>

#include <propane/engine/change.hpp>
#include <propane/engine/intervals.hpp>

namespace test_support {

// The values of a domain as sorted, disjoint, non-adjacent runs lo..hi:
// the reference for domains too wide for a std::set. The holes such a
// domain keeps are exactly the gaps between its runs.
class Runs {
public:
    Runs() = default;
    Runs(std::int64_t lo, std::int64_t hi) { runs_[lo] = hi; }
    // The runs of sorted, distinct values.
    static Runs of(const std::vector<std::int64_t>& values) {
        Runs r;
        for (std::size_t k = 0; k < values.size();) {
            std::size_t e = k;
            while (e + 1 < values.size() && values[e + 1] == values[e] + 1) ++e;
            r.runs_[values[k]] = values[e];
            k = e + 1;
        }
        return r;
    }

    bool empty() const { return runs_.empty(); }
    std::int64_t min() const { return runs_.begin()->first; }
    std::int64_t max() const { return runs_.rbegin()->second; }
    std::uint64_t size() const {
        std::uint64_t n = 0;
        for (const auto& [lo, hi] : runs_) n += static_cast<std::uint64_t>(hi - lo + 1);
        return n;
    }
    bool contains(std::int64_t v) const {
        const auto it = runs_.upper_bound(v);
        return it != runs_.begin() && v <= std::prev(it)->second;
    }
    // The least value above v, for v < max(): v + 1, or the start of the
    // first run above v.
    std::int64_t next(std::int64_t v) const { return contains(v + 1) ? v + 1 : runs_.upper_bound(v)->first; }
    // The greatest value below v, for v > min().
    std::int64_t prev(std::int64_t v) const { return std::min(std::prev(runs_.upper_bound(v - 1))->second, v - 1); }
    // The ends of the run holding v, a member.
    std::int64_t run_end(std::int64_t v) const { return std::prev(runs_.upper_bound(v))->second; }
    std::int64_t run_start(std::int64_t v) const { return std::prev(runs_.upper_bound(v))->first; }
    // Bit k for start + k.
    std::uint64_t bits_from(std::int64_t start) const {
        std::uint64_t out = 0;
        for (int k = 0; k < 64; ++k)
            if (contains(start + k)) out |= std::uint64_t{1} << k;
        return out;
    }
    // The n smallest values (all, if fewer).
    std::vector<std::int64_t> first(std::uint64_t n) const {
        std::vector<std::int64_t> out;
        for (const auto& [lo, hi] : runs_)
            for (std::int64_t v = lo; v <= hi && out.size() < n; ++v) out.push_back(v);
        return out;
    }
    // The k-th smallest value, from 0, for k < size().
    std::int64_t nth(std::uint64_t k) const {
        for (const auto& [lo, hi] : runs_) {
            const auto n = static_cast<std::uint64_t>(hi - lo + 1);
            if (k < n) return lo + static_cast<std::int64_t>(k);
            k -= n;
        }
        return max() + 1; // beyond: never a value
    }
    // How many values lie below v.
    std::uint64_t rank(std::int64_t v) const {
        std::uint64_t n = 0;
        for (const auto& [lo, hi] : runs_) {
            if (lo >= v) break;
            n += static_cast<std::uint64_t>(std::min(hi, v - 1) - lo + 1);
        }
        return n;
    }
    std::vector<propane::detail::Hole> gaps() const {
        std::vector<propane::detail::Hole> out;
        for (auto it = runs_.begin(); it != runs_.end() && std::next(it) != runs_.end(); ++it)
            out.push_back({it->second + 1, std::next(it)->first - 1});
        return out;
    }
    std::size_t count() const { return runs_.size(); }
    // Every value, for a reference small enough to list.
    std::vector<int> values() const {
        std::vector<int> out;
        for (const auto& [lo, hi] : runs_)
            for (std::int64_t v = lo; v <= hi; ++v) out.push_back(static_cast<int>(v));
        return out;
    }

    void remove(std::int64_t v) {
        auto it = runs_.upper_bound(v);
        if (it == runs_.begin()) return;
        --it;
        const auto [lo, hi] = *it;
        if (v > hi) return;
        runs_.erase(it);
        if (lo < v) runs_[lo] = v - 1;
        if (v < hi) runs_[v + 1] = hi;
    }
    void remove_range(std::int64_t a, std::int64_t b) {
        if (a > b) return;
        Runs out;
        for (const auto& [lo, hi] : runs_) {
            if (lo < a) out.runs_[lo] = std::min(hi, a - 1);
            if (hi > b) out.runs_[std::max(lo, b + 1)] = hi;
        }
        *this = out;
    }
    void keep(std::int64_t a, std::int64_t b) {
        Runs out;
        for (const auto& [lo, hi] : runs_)
            if (std::max(lo, a) <= std::min(hi, b)) out.runs_[std::max(lo, a)] = std::min(hi, b);
        *this = out;
    }
    void remove_bits(std::int64_t start, std::uint64_t mask) {
        for (std::uint64_t rest = mask; rest != 0; rest &= rest - 1) remove(start + std::countr_zero(rest));
    }
    // Keeps the values of a mask, a domain of bounded width.
    template <class M>
    void intersect(const M& mask) {
        std::vector<std::int64_t> kept;
        mask.for_each([&](int v) {
            if (contains(v)) kept.push_back(v);
        });
        *this = of(kept);
    }

    bool operator==(const Runs&) const = default;

private:
    std::map<std::int64_t, std::int64_t> runs_;
};

// What an update taking `before` to `after` must report, as for a std::set.
inline propane::Change expected_change(const Runs& before, const Runs& after) {
    using propane::Change;
    if (after.empty()) return Change::failed;
    if (after == before) return Change::none;
    if (after.size() == 1) return Change::fixed;
    if (after.min() != before.min() || after.max() != before.max()) return Change::bounds;
    return Change::domain;
}

} // namespace test_support

#endif
