#ifndef PROPANE_TESTS_CHECKER_RUN_HPP
#define PROPANE_TESTS_CHECKER_RUN_HPP

// One propagation under the checker (checker.hpp): its report, its tally,
// and check_run, which holds a propagate() on given domains to the
// reference and to the properties every run must have.

#include <doctest/doctest.h>

#include "checker_reference.hpp"

#include <array>
#include <bit>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace checker {

// ---- reporting ---------------------------------------------------------------------

inline std::string set_string(Mask m, int lo) {
    std::string s = "{";
    for (int t = 0; (m >> t) != 0; ++t)
        if ((m >> t) & 1U) {
            if (s.size() > 1) s += ',';
            s += std::to_string(lo + t);
        }
    return s + "}";
}

inline std::string describe(const Spec& spec, const Case& c, const char* mode) {
    std::ostringstream o;
    o << spec.name << " [" << name_of(c.kind) << ", " << mode << "]: views";
    for (int i = 0; i < c.n; ++i) {
        const ViewSpec& s = c.v[u(i)];
        o << (i ? ", " : " ") << s.a << "*x" << s.var << (s.b < 0 ? "" : "+") << s.b;
    }
    o << ";";
    for (int k = 0; k < c.nvars; ++k)
        o << " x" << k << " in " << set_string(c.dom[u(k)], c.lo) << (c.interval(k) ? " (interval)" : "");
    return o.str();
}

// Collects failures without one doctest assertion per property per
// configuration, and stops reporting after a dozen so that one bug does
// not flood the output. A quiet checker only counts: the self-tests run
// broken propagators through it and expect it to find them.
struct Checker {
    int reported = 0;
    long long failures = 0;
    int limit = 12;
    bool quiet = false;
    std::string first; // the first failure, for the self-tests' messages

    template <class Describe>
    void expect(bool ok, const char* what, Describe&& describe) {
        if (ok) return;
        ++failures;
        if (first.empty()) first = std::string(what) + " -- " + describe();
        if (!quiet && ++reported <= limit) FAIL_CHECK((std::string(what) + " -- " + describe()));
    }
};

struct Tally {
    long long configurations = 0; // checked, by either mode
    long long posted = 0;         // fresh stores
    long long cut = 0;            // cuts in a reused store
    long long emptied = 0;        // cuts skipped: the root propagation had removed all of a domain
    long long infeasible = 0;     // no solution
    long long failed = 0;         // propagate() failed
    long long pruned = 0;         // propagate() succeeded and removed something
    long long beyond = 0;         // at least bounds(R): removed more than bounds(R) does
    long long walks = 0;          // random walks, whose propagations are the configurations

    Tally& operator+=(const Tally& o) {
        configurations += o.configurations, posted += o.posted, cut += o.cut, emptied += o.emptied;
        infeasible += o.infeasible, failed += o.failed, pruned += o.pruned, beyond += o.beyond, walks += o.walks;
        return *this;
    }

    std::string str() const {
        std::ostringstream o;
        if (walks)
            o << walks << " walks, " << configurations << " propagations (";
        else
            o << configurations << " configurations (" << posted << " posted, " << cut << " cut in reused stores";
        if (emptied) o << ", " << emptied << " cuts left out as the root had emptied them";
        o << (walks ? "" : "; ") << infeasible << " without solution): propagation failed on " << failed
          << ", pruned " << pruned;
        if (beyond) o << " (" << beyond << " beyond bounds(R))";
        return o.str();
    }
};

// ---- running a propagation -------------------------------------------------------

inline Mask mask_of(const Store& s, IntVar x, int lo, int range) {
    Mask m = 0;
    for (int t = 0; t < range; ++t)
        if (s.domain(x).contains(lo + t)) m |= Mask{1} << t;
    return m;
}

inline void snapshot(const Store& s, std::vector<Dom>& d) {
    d.clear();
    for (int i = 0; i < s.num_vars(); ++i) d.push_back(s.domain(i));
}

inline bool same_domains(const Store& s, const std::vector<Dom>& d) {
    if (u(s.num_vars()) != d.size()) return false;
    for (int i = 0; i < s.num_vars(); ++i)
        if (!(s.domain(i) == d[u(i)])) return false;
    return true;
}

inline bool all_fixed(const Case& c, const Doms& d) {
    for (int k = 0; k < c.nvars; ++k)
        if (std::popcount(d[u(k)]) != 1) return false;
    return true;
}

inline bool holds_fixed(const Spec& spec, const Case& c, const Doms& d) {
    std::array<int, max_views> vals{};
    for (int i = 0; i < c.n; ++i) vals[u(i)] = c.value(i, std::countr_zero(d[u(c.v[u(i)].var)]));
    return spec.holds(vals.data());
}

// The propagators a post added: [first, last).
struct Props {
    int first = 0, last = 0;
};

inline Props post_counted(const Spec& spec, Store& s, const std::vector<IntVar>& xs, const Case& c) {
    Props p{s.num_propagators(), 0};
    spec.post(s, xs, c);
    p.last = s.num_propagators();
    return p;
}

// Runs propagate() on s, whose domains are c's, and checks everything but
// backtracking. Returns what propagate() returned.
template <class Why>
bool check_run(Store& s, const std::vector<IntVar>& xs, Props props, const Spec& spec, const Case& c,
               const Brute& brute, const Expected& want, Checker& chk, Tally& tally, std::vector<Dom>& scratch,
               Why&& why) {
    const bool ok = s.propagate();
    const Claim claim = spec.claim_for(c);
    const bool exact = claim != Claim::at_least_bounds_r && claim != Claim::sound;

    ++tally.configurations;
    tally.infeasible += brute.feasible ? 0 : 1;
    tally.failed += ok ? 0 : 1;

    chk.expect(ok || !brute.feasible, "propagate() failed on a satisfiable configuration", why);
    if (all_fixed(c, c.dom))
        chk.expect(ok == holds_fixed(spec, c, c.dom), "with every view fixed, propagate() must fail iff violated", why);
    if (exact) chk.expect(ok == want.ok, "propagate() failed or not, unlike the reference", why);
    if (claim == Claim::at_least_bounds_r)
        chk.expect(want.ok || !ok, "propagate() succeeded where the bounds(R) closure is empty", why);
    if (!ok) return false;

    Doms got{};
    for (int k = 0; k < c.nvars; ++k) got[u(k)] = mask_of(s, xs[u(k)], c.lo, c.range);
    bool keeps = true, within = true, same = true, inside = true;
    for (int k = 0; k < c.nvars; ++k) {
        keeps &= (brute.support[u(k)] & ~got[u(k)]) == 0;
        within &= (got[u(k)] & ~c.dom[u(k)]) == 0;
        same &= got[u(k)] == want.doms[u(k)];
        inside &= (got[u(k)] & ~want.doms[u(k)]) == 0;
    }
    tally.pruned += got == c.dom ? 0 : 1;
    auto detail = [&] {
        std::string m = why() + "  got";
        // Appended piece by piece: g++ 12 warns (-Wrestrict, wrongly) on
        // " " + std::string here.
        for (int k = 0; k < c.nvars; ++k) m.append(" ").append(set_string(got[u(k)], c.lo));
        if (claim != Claim::sound) {
            m.append("  want (").append(name_of(claim)).append(")");
            for (int k = 0; k < c.nvars; ++k) m.append(" ").append(set_string(want.doms[u(k)], c.lo));
        }
        return m;
    };
    chk.expect(keeps, "a solution was pruned", detail);
    chk.expect(within, "propagation added a value", detail);
    if (exact) chk.expect(same, "the domains differ from the claimed strength's closure", detail);
    if (claim == Claim::at_least_bounds_r) {
        const Box b = box_of(c, got);
        bool supported = true;
        for (int i = 0; i < c.n; ++i)
            supported &= spec.real_support(i, b.lo[u(i)], b) && spec.real_support(i, b.hi[u(i)], b);
        chk.expect(supported, "a view bound has no real support within the box left (weaker than bounds(R))",
                   detail);
        chk.expect(inside, "the box left is outside the bounds(R) closure", detail);
        tally.beyond += !same && inside ? 1 : 0;
    }
    if (all_fixed(c, got))
        chk.expect(holds_fixed(spec, c, got), "propagate() succeeded on an assignment that violates the constraint",
                   detail);

    // A fixpoint of every propagator, not only by the store's account: a
    // propagator that said "fix" before it was one leaves the store short.
    snapshot(s, scratch);
    const auto runs = s.propagations();
    chk.expect(s.propagate() && s.propagations() == runs && same_domains(s, scratch),
               "a second propagate() did something", why);
    for (int p = props.first; p < props.last; ++p) s.schedule(p);
    chk.expect(s.propagate() && same_domains(s, scratch), "re-running the propagators at the fixpoint changed something",
               why);
    return true;
}

// Cuts x to the variable values in m through the checked store update.
inline propane::Change cut_to(Store& s, IntVar x, int lo, int range, Mask m) {
    Dom keep(lo, lo + range - 1);
    for (int t = 0; t < range; ++t)
        if (!((m >> t) & 1U)) (void)keep.remove(lo + t);
    return s.intersect(x, keep);
}

} // namespace checker

#endif
