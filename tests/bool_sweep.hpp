#ifndef PROPANE_TESTS_BOOL_SWEEP_HPP
#define PROPANE_TESTS_BOOL_SWEEP_HPP

// checker::sweep for constraints over Boolean views: the same runs
// (run_case, both modes), but over coefficient vectors the test chooses
// (a Boolean view must map its variable into {0, 1}) and with each
// variable's domains limited to the non-empty subsets of a mask (a
// Boolean view's variable to the two values it maps into {0, 1}); all of
// them, or a random sample.

#include "checker.hpp"

#include <cstddef>
#include <random>
#include <vector>

namespace checker {

// Cuts blank's variables xs to their allowed values for good, before any
// post, and makes one store per coefficient vector from it, posted and
// propagated at its root, for run_case to cut and reuse.
inline std::vector<Reused> reused_within(const Spec& spec, Kind kind, int n, int lo, int range,
                                         const std::vector<Coefs>& coefs, const std::vector<Mask>& allowed,
                                         Store& blank, const std::vector<IntVar>& xs) {
    for (int k = 0; k < n; ++k) REQUIRE(cut_to(blank, xs[u(k)], lo, range, allowed[u(k)]) != propane::Change::failed);
    std::vector<Reused> reused(coefs.size());
    for (std::size_t p = 0; p < coefs.size(); ++p) {
        Reused& r = reused[p];
        r.s = blank;
        r.xs = xs;
        r.props = post_counted(spec, r.s, r.xs, base_case(kind, n, n, lo, range, coefs[p]));
        r.root_ok = r.s.propagate();
        snapshot(r.s, r.root);
        for (int k = 0; k < n; ++k) r.root_masks[u(k)] = r.root_ok ? mask_of(r.s, xs[u(k)], lo, range) : 0;
    }
    return reused;
}

inline Outcome bool_sweep(const Spec& spec, Kind kind, int n, int lo, int range, const std::vector<Coefs>& coefs,
                          const std::vector<Mask>& allowed) {
    REQUIRE(n <= max_views);
    REQUIRE(range <= max_range);
    REQUIRE(allowed.size() == static_cast<std::size_t>(n));
    Outcome out;
    Store blank;
    const std::vector<IntVar> xs = blank.int_vars(n, lo, lo + range - 1);
    std::vector<Reused> reused = reused_within(spec, kind, n, lo, range, coefs, allowed, blank, xs);
    // Each variable's subsets of its allowed mask, enumerated in turn.
    std::vector<std::vector<Mask>> subsets(static_cast<std::size_t>(n));
    long long total = 1;
    for (int k = 0; k < n; ++k) {
        const Mask a = allowed[u(k)];
        for (Mask m = a; m != 0; m = (m - 1) & a) subsets[u(k)].push_back(m);
        total *= static_cast<long long>(subsets[u(k)].size());
    }
    std::vector<Dom> before, scratch;
    for (std::size_t p = 0; p < coefs.size(); ++p)
        for (long long idx = 0; idx < total; ++idx) {
            Case c = base_case(kind, n, n, lo, range, coefs[p]);
            long long rest = idx;
            for (int k = 0; k < n; ++k) {
                const auto m = static_cast<long long>(subsets[u(k)].size());
                c.dom[u(k)] = subsets[u(k)][static_cast<std::size_t>(rest % m)];
                rest /= m;
            }
            run_case(spec, c, blank, xs, reused[p], true, out, before, scratch);
        }
    return out;
}

// `samples` random configurations of the same kind, in both modes, each
// variable's domain a random one within its allowed mask; configuration k
// uses coefficient vector k mod their count.
inline Outcome sampled_within(const Spec& spec, Kind kind, int n, int lo, int range, const std::vector<Coefs>& coefs,
                              const std::vector<Mask>& allowed, long long samples, unsigned seed, bool quiet = false) {
    REQUIRE(n <= max_views);
    REQUIRE(range <= max_range);
    REQUIRE(allowed.size() == static_cast<std::size_t>(n));
    Outcome out;
    out.chk.quiet = quiet;
    Store blank;
    const std::vector<IntVar> xs = blank.int_vars(n, lo, lo + range - 1);
    std::vector<Reused> reused = reused_within(spec, kind, n, lo, range, coefs, allowed, blank, xs);
    std::mt19937 rng(seed);
    std::vector<Dom> before, scratch;
    for (long long idx = 0; idx < samples; ++idx) {
        const std::size_t p = static_cast<std::size_t>(idx % static_cast<long long>(coefs.size()));
        Case c = base_case(kind, n, n, lo, range, coefs[p]);
        for (int k = 0; k < n; ++k) {
            Mask m = 0;
            while (m == 0) m = random_domain(rng, range) & allowed[u(k)];
            c.dom[u(k)] = m;
        }
        run_case(spec, c, blank, xs, reused[p], true, out, before, scratch);
    }
    return out;
}

} // namespace checker

#endif
