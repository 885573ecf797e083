#ifndef PROPANE_TESTS_CHECKER_HPP
#define PROPANE_TESTS_CHECKER_HPP

// The propagator checker, for any constraint over a few views: every small
// domain configuration (or a sample of them), propagated in a fresh store
// and in a reused one, compared with a reference computed by brute force.
//
// The reference shares nothing with the propagators. It works on bitmasks
// of variable values and on each view's coefficients (view = a*x + b), not
// through the header's views, and a constraint is known to it only as a
// predicate over view values (plus, for bounds(R), a test of real support):
//   domain     the values that occur in some solution (one enumeration of
//              every assignment gives the supports of all values at once);
//   bounds(Z)  the greatest box within the domains whose every view min and
//              max has a support with the other views taking any integer
//              between their min and max (holes ignored), found by removing
//              an unsupported bound value until none is left: support only
//              shrinks with the box, so this chaotic iteration reaches the
//              greatest fixpoint in any order;
//   bounds(R)  the same with the other views taking real values, decided by
//              a support function the constraint's test supplies;
//   custom     a closure the test supplies (linear's ne rule).
// A constraint claiming one of these is compared with it exactly: pruning
// too little fails as surely as losing a solution. A constraint claiming
// "at least bounds(R)" must keep every solution and leave bounds that all
// have a real support in the box it leaves, which puts its box inside the
// greatest one; it may prune more.
//
// Whatever the claim, every run is also checked for: no solution lost;
// failure only without solutions; with every view fixed, failure exactly
// when the constraint is violated, and no success that leaves a violating
// assignment; a fixpoint (a second propagate() runs nothing, and re-running
// each of the constraint's propagators changes nothing); pop_level()
// restoring the domains exactly.
//
// Modes, as in test_all_different: "posted" cuts a configuration at level
// 0 of a fresh store and then posts the constraint; "cut" posts it once on
// full domains and cuts each configuration inside a level of the same
// store, which is reused after every pop, failures included. Random walks
// push, cut, propagate, pop and copy one store in random order, each
// propagation compared with the reference for the domains it started from.
//
// Both domain forms: each configuration makes each variable a bitset or an
// interval domain (Case::forms, from the configuration's index, so that
// every coefficient vector meets every mix of forms), in fresh and reused
// stores and in walks alike. The reference knows nothing of forms: a
// propagator must do the same on either, whichever path (word scans, or
// runs between holes) it takes.
//
// When views share a variable the bounds references no longer describe the
// propagators, which treat views as independent; a separate sweep checks
// only what still holds there (soundness, the fixed-assignment rule,
// fixpoints), and domain consistency over the variables for constraints
// that promise it even then.
//
// The checker is compiled once per test file: constraints reach it through
// std::function (a predicate, a poster), so it is not instantiated per
// constraint or per view type; only the posters are.

#include <doctest/doctest.h>

#include "checker_reference.hpp"
#include "checker_run.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace checker {

// ---- sweeps over configurations ----------------------------------------------------

struct Options {
    int n = 2;             // views, view i on variable i
    int lo = -2;           // variables over lo .. lo + range - 1
    int range = 5;
    long long samples = 0; // 0: every combination of non-empty subsets
    int posted_every = 1;  // a fresh store for every k-th configuration; all are cut
    unsigned seed = 1;
};

struct Outcome {
    Tally tally;
    Checker chk;

    Outcome& operator+=(const Outcome& o) {
        tally += o.tally;
        chk.failures += o.chk.failures;
        if (chk.first.empty()) chk.first = o.chk.first;
        return *this;
    }
};

// One store posted once on full domains (its root propagated) and reused
// for every configuration of its coefficient vector.
struct Reused {
    Store s;
    std::vector<IntVar> xs;
    Props props;
    bool root_ok = true;
    std::vector<Dom> root;
    Doms root_masks{};
};

// The case's variables, each in the form Case::forms gives it.
inline std::vector<IntVar> make_vars(Store& s, int nvars, int lo, int hi, unsigned forms) {
    std::vector<IntVar> xs;
    for (int k = 0; k < nvars; ++k)
        xs.push_back(s.int_var(lo, hi, ((forms >> k) & 1U) ? propane::Representation::interval
                                                            : propane::Representation::bitset));
    return xs;
}

// A configuration's forms, from its index: every mix in turn.
inline unsigned forms_of(long long idx, int nvars) {
    return static_cast<unsigned>(idx % (1LL << nvars));
}

// The stores a sweep works on, for shapes that differ in their views (the
// variables the same): per mix of forms a blank store, its variables cut
// by `prepare` before any post, and per shape and mix one store posted at
// its root for run_case to cut and reuse, each made when first needed.
class Stores {
public:
    using Prepare = std::function<void(Store&, const std::vector<IntVar>&)>;

    Stores(const Spec& spec, std::vector<Case> shapes, Prepare prepare = {})
        : spec_(spec), shapes_(std::move(shapes)), prepare_(std::move(prepare)) {
        const std::size_t mixes = std::size_t{1} << shapes_.front().nvars;
        blanks_.resize(mixes);
        reused_.resize(shapes_.size() * mixes);
    }

    // A handle belongs to its store and its copies: each blank store has
    // its own variables.
    Store& blank(unsigned forms) { return made(forms).s; }
    const std::vector<IntVar>& xs(unsigned forms) { return made(forms).xs; }

    Reused& reused(std::size_t shape, unsigned forms) {
        auto& r = reused_[shape * blanks_.size() + forms];
        if (!r) {
            const Case& c = shapes_[shape];
            r = std::make_unique<Reused>();
            r->s = blank(forms);
            r->xs = xs(forms);
            Case posted = c;
            posted.forms = forms;
            r->props = post_counted(spec_, r->s, r->xs, posted);
            r->root_ok = r->s.propagate();
            snapshot(r->s, r->root);
            for (int k = 0; k < c.nvars; ++k)
                r->root_masks[u(k)] = r->root_ok ? mask_of(r->s, r->xs[u(k)], c.lo, c.range) : 0;
        }
        return *r;
    }

private:
    struct Blank {
        Store s;
        std::vector<IntVar> xs;
    };
    Blank& made(unsigned forms) {
        auto& b = blanks_[forms];
        if (!b) {
            const Case& c = shapes_.front();
            b = std::make_unique<Blank>();
            b->xs = make_vars(b->s, c.nvars, c.lo, c.lo + c.range - 1, forms);
            if (prepare_) prepare_(b->s, b->xs);
        }
        return *b;
    }

    const Spec& spec_;
    std::vector<Case> shapes_;
    Prepare prepare_;
    std::vector<std::unique_ptr<Blank>> blanks_;
    std::vector<std::unique_ptr<Reused>> reused_;
};

inline void run_case(const Spec& spec, const Case& c, const Store& blank, const std::vector<IntVar>& xs, Reused& r,
                     bool post_fresh, Outcome& out, std::vector<Dom>& before, std::vector<Dom>& scratch) {
    const Brute brute = brute_force(spec, c);
    const Expected want = expected(spec, c, brute);
    out.chk.expect(reference_sound(c, brute, want), "the reference closure is unsound",
                   [&] { return describe(spec, c, "reference"); });

    if (post_fresh) {
        Store s = blank;
        bool cut_ok = true;
        for (int k = 0; k < c.nvars; ++k) cut_ok &= cut_to(s, xs[u(k)], c.lo, c.range, c.dom[u(k)]) != propane::Change::failed;
        REQUIRE(cut_ok);
        const Props props = post_counted(spec, s, xs, c);
        snapshot(s, before);
        s.push_level();
        auto why = [&] { return describe(spec, c, "posted"); };
        check_run(s, xs, props, spec, c, brute, want, out.chk, out.tally, scratch, why);
        s.pop_level();
        out.chk.expect(same_domains(s, before), "pop_level() did not restore the domains", why);
        ++out.tally.posted;
    }

    if (!r.root_ok) return;
    Case cc = c;
    for (int k = 0; k < c.nvars; ++k) cc.dom[u(k)] &= r.root_masks[u(k)];
    if (std::find(cc.dom.begin(), cc.dom.begin() + c.nvars, Mask{0}) != cc.dom.begin() + c.nvars) {
        ++out.tally.emptied;
        return;
    }
    r.s.push_level();
    bool cut_ok = true;
    for (int k = 0; k < c.nvars; ++k) cut_ok &= cut_to(r.s, r.xs[u(k)], c.lo, c.range, cc.dom[u(k)]) != propane::Change::failed;
    auto why = [&] { return describe(spec, cc, "cut"); };
    out.chk.expect(cut_ok, "a cut within the root domains failed", why);
    if (cc.dom == c.dom) {
        check_run(r.s, r.xs, r.props, spec, cc, brute, want, out.chk, out.tally, scratch, why);
    } else {
        const Brute b2 = brute_force(spec, cc);
        check_run(r.s, r.xs, r.props, spec, cc, b2, expected(spec, cc, b2), out.chk, out.tally, scratch, why);
    }
    r.s.pop_level();
    out.chk.expect(same_domains(r.s, r.root), "pop_level() did not restore the domains", why);
    ++out.tally.cut;
}

inline Case base_case(Kind kind, int n, int nvars, int lo, int range, const Coefs& v) {
    Case c;
    c.kind = kind;
    c.n = n;
    c.nvars = nvars;
    c.lo = lo;
    c.range = range;
    c.v = v;
    return c;
}

// A random domain: half arbitrary subsets, half intervals with at most one
// hole, the shapes bounds reasoning cares about.
inline Mask random_domain(std::mt19937& rng, int range) {
    std::uniform_int_distribution<int> pick(0, range - 1);
    if (rng() % 2 == 0) return std::uniform_int_distribution<Mask>(1, (Mask{1} << range) - 1)(rng);
    int lo = pick(rng), hi = pick(rng);
    if (lo > hi) std::swap(lo, hi);
    Mask m = ((Mask{2} << hi) - 1) & ~((Mask{1} << lo) - 1);
    const int hole = pick(rng);
    if (hole > lo && hole < hi && rng() % 2 == 0) m &= ~(Mask{1} << hole);
    return m;
}

// Every configuration of opt.n views on their own variables (or a sample),
// in both modes; configuration k uses coefficient vector k mod 7 (or the one
// IntVar has), coprime with the 2^range - 1 subsets, so every vector meets
// every domain of every view.
inline Outcome sweep(const Spec& spec, Kind kind, const Options& opt, bool quiet = false) {
    REQUIRE(opt.n <= max_views);
    REQUIRE(opt.range <= max_range);
    Outcome out;
    out.chk.quiet = quiet;
    const std::vector<Coefs> coefs = coefficients(kind, opt.n, opt.seed);
    std::vector<Case> shapes;
    for (const Coefs& v : coefs) shapes.push_back(base_case(kind, opt.n, opt.n, opt.lo, opt.range, v));
    Stores stores(spec, shapes);
    std::vector<Dom> before, scratch;
    const Mask subsets = (Mask{1} << opt.range) - 1;
    long long total = opt.samples;
    if (total == 0) {
        total = 1;
        for (int i = 0; i < opt.n; ++i) total *= subsets;
    }
    std::mt19937 rng(opt.seed);
    for (long long idx = 0; idx < total; ++idx) {
        const std::size_t p = u(static_cast<int>(idx % static_cast<long long>(coefs.size())));
        Case c = shapes[p];
        c.forms = forms_of(idx, opt.n);
        long long rest = idx;
        for (int i = 0; i < opt.n; ++i, rest /= subsets)
            c.dom[u(i)] = opt.samples == 0 ? static_cast<Mask>(rest % subsets) + 1 : random_domain(rng, opt.range);
        run_case(spec, c, stores.blank(c.forms), stores.xs(c.forms), stores.reused(p, c.forms),
                 idx % opt.posted_every == 0, out, before, scratch);
    }
    return out;
}

// Views that share variables: n views over nvars < n variables (each used),
// random coefficients of the kind, random domains, posted fresh and cut in
// a store reused per layout.
inline Outcome shared_sweep(const Spec& spec, Kind kind, int n, int nvars, int lo, int range, long long count,
                            unsigned seed, bool quiet = false) {
    REQUIRE((n <= max_views && nvars < n && nvars >= 1));
    Outcome out;
    out.chk.quiet = quiet;
    std::mt19937 rng(seed);
    std::vector<Dom> before, scratch;
    constexpr int layouts = 8;
    for (int l = 0; l < layouts; ++l) {
        // Variables first in order, so each is used, then at random; the
        // kind's coefficients at random too, so that two views of one
        // variable are sometimes the same function.
        Coefs v{};
        const std::vector<Coefs> pool = coefficients(kind, n, seed + static_cast<unsigned>(l));
        const Coefs& from = pool[rng() % pool.size()];
        for (int i = 0; i < n; ++i) {
            v[u(i)] = from[u(rng() % static_cast<unsigned>(n))];
            if (kind == Kind::mixed) v[u(i)] = from[u(i)];
            v[u(i)].var = i < nvars ? i : static_cast<int>(rng() % static_cast<unsigned>(nvars));
        }
        // Shuffled, so that the shared variable is at any position.
        std::shuffle(v.begin(), v.begin() + n, rng);
        if (kind == Kind::mixed)
            for (int i = 0; i < n; ++i) {
                const Kind k = mixed_at(i);
                v[u(i)].a = k == Kind::affine ? (v[u(i)].a == 1 ? 2 : v[u(i)].a) : 1;
                v[u(i)].b = k == Kind::var ? 0 : v[u(i)].b;
            }
        Stores stores(spec, {base_case(kind, n, nvars, lo, range, v)});
        for (long long k = 0; k < count / layouts; ++k) {
            Case c = base_case(kind, n, nvars, lo, range, v);
            c.forms = forms_of(k, nvars);
            for (int x = 0; x < nvars; ++x) c.dom[u(x)] = random_domain(rng, range);
            run_case(spec, c, stores.blank(c.forms), stores.xs(c.forms), stores.reused(0, c.forms), true, out, before,
                     scratch);
        }
    }
    return out;
}

// ---- random walks --------------------------------------------------------------------

// One constraint on one store, driven through nested levels at random:
// push, cut (several per level, and levels pushed with cuts unpropagated),
// propagate, pop, copy. Every propagate() is compared with the reference
// for the domains it starts from (each reference is unique, so it does not
// matter which earlier runs got there), every pop with the domains saved
// at its push. The copies are deep: the original is destroyed, so a copy
// that shared anything with it would show under ASan.
class Walk {
public:
    Walk(const Spec& spec, const Case& shape, Checker& chk, Tally& tally)
        : spec_(spec), c_(shape), chk_(chk), tally_(tally) {
        xs_ = make_vars(s_, c_.nvars, c_.lo, c_.lo + c_.range - 1, c_.forms);
        props_ = post_counted(spec_, s_, xs_, c_);
        root_ok_ = propagate_checked();
    }

    int depth() const { return static_cast<int>(saved_.size()); }
    Mask mask(int k) const { return mask_of(s_, xs_[u(k)], c_.lo, c_.range); }

    void run(std::mt19937& rng, int steps) {
        if (!root_ok_) return;
        auto below = [&](int k) { return static_cast<int>(rng() % static_cast<unsigned>(k)); };
        for (int step = 0; step < steps; ++step) {
            if (failed_) {
                pop();
                continue;
            }
            const int r = below(100);
            int op = r < 20 ? 0 : r < 50 ? 1 : r < 75 ? 2 : r < 93 ? 3 : 4; // push cut propagate pop copy
            if (depth() == 0 && (op == 1 || op == 3)) op = 0;
            if (depth() == 8 && op == 0) op = 2;
            int k = -1;
            for (int j = 0, start = below(c_.nvars); op == 1 && j < c_.nvars && k < 0; ++j)
                if (std::popcount(mask((start + j) % c_.nvars)) >= 2) k = (start + j) % c_.nvars;
            if (op == 1 && k < 0) op = 2;
            switch (op) {
            case 0: push(); break;
            case 1: cut(k, below(4), rng); break;
            case 2: propagate_checked(); break;
            case 3: pop(); break;
            default: copy(); break;
            }
        }
        while (depth() > 0) pop();
        snapshot(s_, scratch_);
        chk_.expect(same_domains(s_, root_after_), "the root domains did not come back", [&] { return why(); });
    }

private:
    bool propagate_checked() {
        for (int k = 0; k < c_.nvars; ++k) c_.dom[u(k)] = mask(k);
        const Brute brute = brute_force(spec_, c_);
        const Expected want = expected(spec_, c_, brute);
        log_ += " propagate;";
        const bool ok = check_run(s_, xs_, props_, spec_, c_, brute, want, chk_, tally_, scratch_, [&] { return why(); });
        failed_ = !ok;
        if (depth() == 0) snapshot(s_, root_after_);
        return ok;
    }
    void push() {
        log_ += " push;";
        saved_.emplace_back();
        snapshot(s_, saved_.back());
        s_.push_level();
    }
    void cut(int k, int how, std::mt19937& rng) {
        std::vector<int> vals;
        for (int t = 0; t < c_.range; ++t)
            if ((mask(k) >> t) & 1U) vals.push_back(c_.lo + t);
        const auto count = static_cast<unsigned>(vals.size());
        // >= anything but the minimum narrows without emptying, and so
        // does <= anything but the maximum.
        const unsigned at = how == 2 ? 1 + rng() % (count - 1) : how == 3 ? rng() % (count - 1) : rng() % count;
        const int v = vals[at];
        const IntVar x = xs_[u(k)];
        static constexpr std::array<const char*, 4> ops{" != ", " = ", " >= ", " <= "};
        const propane::Change ch = how == 0   ? x.remove(s_, v)
                                   : how == 1 ? x.assign(s_, v)
                                   : how == 2 ? x.remove_below(s_, v)
                                              : x.remove_above(s_, v);
        log_ += " x" + std::to_string(k) + ops[u(how)] + std::to_string(v) + ";";
        chk_.expect(ch != propane::Change::failed, "a cut emptied a domain", [&] { return why(); });
    }
    void pop() {
        log_ += " pop;";
        s_.pop_level();
        chk_.expect(same_domains(s_, saved_.back()), "pop_level() did not restore the domains", [&] { return why(); });
        saved_.pop_back();
        failed_ = false;
    }
    void copy() {
        log_ += " copy;";
        Store clone(s_);
        s_ = std::move(clone);
    }
    std::string why() const { return describe(spec_, c_, "walk") + "  (the domains before the last propagate), after" + log_; }

    const Spec& spec_;
    Case c_;
    Checker& chk_;
    Store s_;
    std::vector<IntVar> xs_;
    Props props_;
    Tally& tally_;
    bool root_ok_ = true;
    bool failed_ = false;
    std::vector<Dom> root_after_, scratch_;
    std::vector<std::vector<Dom>> saved_;
    std::string log_;
};

// `count` walks of `steps` steps, each on a store posted on full domains
// over lo .. lo + range - 1, cycling through the kind's coefficient vectors;
// the variables' forms: all bitsets, all intervals, or mixed.
inline Outcome walks(const Spec& spec, Kind kind, int n, int lo, int range, int count, int steps, unsigned seed,
                     bool quiet = false) {
    Outcome out;
    out.chk.quiet = quiet;
    std::mt19937 rng(seed);
    const std::vector<Coefs> coefs = coefficients(kind, n, seed);
    for (int w = 0; w < count; ++w) {
        Case shape = base_case(kind, n, n, lo, range, coefs[u(w) % coefs.size()]);
        // All bitsets, all intervals, then mixes at random.
        const unsigned all = (1U << n) - 1;
        shape.forms = w % 4 == 0 ? 0 : w % 4 == 1 ? all : static_cast<unsigned>(rng()) & all;
        Walk walk(spec, shape, out.chk, out.tally);
        walk.run(rng, steps);
        ++out.tally.walks;
    }
    return out;
}

// One line per batch, and a failed check if it found anything.
inline void report(const std::string& what, const Outcome& o) {
    MESSAGE(what << ": " << o.tally.str() << "; " << o.chk.failures << " failed checks");
    CHECK(o.chk.failures == 0);
}

} // namespace checker

#endif
