#ifndef PROPANE_TESTS_BOOL_SWEEP_HPP
#define PROPANE_TESTS_BOOL_SWEEP_HPP

// checker::sweep for constraints over Boolean views: the same runs
// (run_case, both modes), but over coefficient vectors the test chooses
// (a Boolean view must map its variable into {0, 1}) and with each
// variable's domains limited to the non-empty subsets of a mask (a
// Boolean view's variable to the two values it maps into {0, 1}); all of
// them, or a random sample. Forms mix as in checker::sweep.

#include "checker.hpp"

#include <cstddef>
#include <random>
#include <vector>

namespace checker {

// The stores of a sweep over coefficient vectors `coefs`, each blank
// store's variables cut to their allowed values for good, before any post.
inline Stores stores_within(const Spec& spec, Kind kind, int n, int lo, int range, const std::vector<Coefs>& coefs,
                            const std::vector<Mask>& allowed) {
    std::vector<Case> shapes;
    for (const Coefs& v : coefs) shapes.push_back(base_case(kind, n, n, lo, range, v));
    return Stores(spec, shapes, [=](Store& blank, const std::vector<IntVar>& xs) {
        for (int k = 0; k < n; ++k)
            REQUIRE(cut_to(blank, xs[u(k)], lo, range, allowed[u(k)]) != propane::Change::failed);
    });
}

inline Outcome bool_sweep(const Spec& spec, Kind kind, int n, int lo, int range, const std::vector<Coefs>& coefs,
                          const std::vector<Mask>& allowed) {
    REQUIRE(n <= max_views);
    REQUIRE(range <= max_range);
    REQUIRE(allowed.size() == static_cast<std::size_t>(n));
    Outcome out;
    Stores stores = stores_within(spec, kind, n, lo, range, coefs, allowed);
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
            c.forms = forms_of(idx + static_cast<long long>(p), n);
            long long rest = idx;
            for (int k = 0; k < n; ++k) {
                const auto m = static_cast<long long>(subsets[u(k)].size());
                c.dom[u(k)] = subsets[u(k)][static_cast<std::size_t>(rest % m)];
                rest /= m;
            }
            run_case(spec, c, stores.blank(c.forms), stores.xs(c.forms), stores.reused(p, c.forms), true, out, before, scratch);
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
    Stores stores = stores_within(spec, kind, n, lo, range, coefs, allowed);
    std::mt19937 rng(seed);
    std::vector<Dom> before, scratch;
    for (long long idx = 0; idx < samples; ++idx) {
        const std::size_t p = static_cast<std::size_t>(idx % static_cast<long long>(coefs.size()));
        Case c = base_case(kind, n, n, lo, range, coefs[p]);
        c.forms = forms_of(idx, n);
        for (int k = 0; k < n; ++k) {
            Mask m = 0;
            while (m == 0) m = random_domain(rng, range) & allowed[u(k)];
            c.dom[u(k)] = m;
        }
        run_case(spec, c, stores.blank(c.forms), stores.xs(c.forms), stores.reused(p, c.forms), true, out, before, scratch);
    }
    return out;
}

} // namespace checker

#endif
