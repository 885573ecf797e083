#ifndef PROPANE_TESTS_UNARY_REFERENCE_HPP
#define PROPANE_TESTS_UNARY_REFERENCE_HPP

// The unary rules' fixpoint (scheduling/unary_rules.hpp), written again
// from their statement over every subset of a few tasks, for the checker:
// test_check_unary's claim, and the unary part of cumulative over variable
// durations (test_check_cumulative_var).

#include "checker_reference.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

namespace checker {

constexpr std::int64_t none = std::numeric_limits<std::int64_t>::min() / 4;

// The tasks' bounds as the rules read them.
struct Bounds {
    std::vector<std::int64_t> est, lct, p;
    std::int64_t ect(int i) const { return est[u(i)] + p[u(i)]; }
    std::int64_t lst(int i) const { return lct[u(i)] - p[u(i)]; }

    // ECT of the tasks in `set` (bits): the greatest est(Ω') + p(Ω') over
    // its non-empty subsets; `none` for the empty set.
    std::int64_t ect_of(unsigned set) const {
        std::int64_t best = none;
        for (unsigned sub = set; sub != 0; sub = (sub - 1) & set) {
            std::int64_t lo = std::numeric_limits<std::int64_t>::max(), sum = 0;
            for (int j = 0; (sub >> j) != 0; ++j)
                if ((sub >> j) & 1U) lo = std::min(lo, est[u(j)]), sum += p[u(j)];
            best = std::max(best, lo + sum);
        }
        return best;
    }
    // The mirror: the least lct(Ω') - p(Ω'), the latest time by which all
    // of the set must have started; `-none` for the empty set.
    std::int64_t lst_of(unsigned set) const {
        std::int64_t best = -none;
        for (unsigned sub = set; sub != 0; sub = (sub - 1) & set) {
            std::int64_t hi = std::numeric_limits<std::int64_t>::min(), sum = 0;
            for (int j = 0; (sub >> j) != 0; ++j)
                if ((sub >> j) & 1U) hi = std::max(hi, lct[u(j)]), sum += p[u(j)];
            best = std::min(best, hi - sum);
        }
        return best;
    }
};

// The rules' fixpoint on d, view i being task i's start; false on failure.
inline bool unary_closure(const std::vector<int>& durations, const Case& c, Doms& d) {
    const int n = c.n;
    const unsigned all = (1U << n) - 1;
    for (;;) {
        Bounds b;
        for (int i = 0; i < n; ++i) {
            bool any = false;
            std::int64_t lo = 0, hi = 0;
            for (int t = 0; t < c.range; ++t) {
                if (!((d[u(c.v[u(i)].var)] >> t) & 1U)) continue;
                const int w = c.value(i, t);
                if (!any || w < lo) lo = w;
                if (!any || w > hi) hi = w;
                any = true;
            }
            if (!any) return false;
            b.est.push_back(lo);
            b.lct.push_back(hi + durations[u(i)]);
            b.p.push_back(durations[u(i)]);
        }
        for (unsigned set = 1; set <= all; ++set) {
            std::int64_t lct = std::numeric_limits<std::int64_t>::min();
            for (int j = 0; j < n; ++j)
                if ((set >> j) & 1U) lct = std::max(lct, b.lct[u(j)]);
            if (b.ect_of(set) > lct) return false; // overload
        }
        std::vector<std::int64_t> est = b.est, lct = b.lct;
        for (int i = 0; i < n; ++i) {
            const unsigned others = all & ~(1U << i);
            unsigned before = 0, after = 0; // detectable: j before i, i before j
            for (int j = 0; j < n; ++j) {
                if (j == i) continue;
                if (b.ect(i) > b.lst(j)) before |= 1U << j;
                if (b.lst(i) < b.ect(j)) after |= 1U << j;
            }
            est[u(i)] = std::max(est[u(i)], b.ect_of(before));
            lct[u(i)] = std::min(lct[u(i)], b.lst_of(after));
            for (unsigned set = others; set != 0; set = (set - 1) & others) {
                std::int64_t max_lst = std::numeric_limits<std::int64_t>::min(), max_lct = max_lst;
                std::int64_t min_ect = std::numeric_limits<std::int64_t>::max(), min_est = min_ect;
                for (int j = 0; j < n; ++j)
                    if ((set >> j) & 1U) {
                        max_lst = std::max(max_lst, b.lst(j));
                        max_lct = std::max(max_lct, b.lct[u(j)]);
                        min_ect = std::min(min_ect, b.ect(j));
                        min_est = std::min(min_est, b.est[u(j)]);
                    }
                if (b.ect_of(set) > b.lst(i)) lct[u(i)] = std::min(lct[u(i)], max_lst); // not-last
                if (b.lst_of(set) < b.ect(i)) est[u(i)] = std::max(est[u(i)], min_ect); // not-first
                const unsigned with_i = set | (1U << i);
                if (b.ect_of(with_i) > max_lct) est[u(i)] = std::max(est[u(i)], b.ect_of(set)); // edge finding
                if (b.lst_of(with_i) < min_est) lct[u(i)] = std::min(lct[u(i)], b.lst_of(set)); // its mirror
            }
        }
        bool moved = false;
        for (int i = 0; i < n; ++i) {
            Mask& m = d[u(c.v[u(i)].var)];
            const Mask was = m;
            for (int t = 0; t < c.range; ++t) {
                const int w = c.value(i, t);
                if (w < est[u(i)] || w + durations[u(i)] > lct[u(i)]) m &= ~(Mask{1} << t);
            }
            if (m == 0) return false;
            moved = moved || m != was;
        }
        if (!moved) return true;
    }
}

} // namespace checker

#endif
