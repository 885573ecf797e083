// regular(xs, dfa) through the checker (checker.hpp).
//
// Claim checked, in view space, for views on distinct variables: domain
// consistency (exact), against brute force (the automaton run on every
// word). Where views share a variable the checker holds regular to
// soundness and the fixed-assignment rule.
//
// Automata: the issue's "1 then 0", "contains 1 then 0", "no value twice
// in a row" over -1..2, a nondeterministic "some 2 is followed, two
// places on, by 0", and "the sum is 0 mod 67" (more than 64 states).
// Configurations, per automaton and view kind: three positions over every
// triple of subsets of -1..2, five sampled over -2..3, shared variables,
// random walks, and longer walks over six positions, which exercise the
// graph the propagator keeps between runs. Beyond the checker: more than
// 64 symbols and states against brute force through levels, and a domain
// of billions of values.

#include <doctest/doctest.h>

#include "checker.hpp"

#include <propane/constraints/regular.hpp>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "instances_store.hpp"

namespace {

using checker::Case;
using checker::Kind;
using checker::Spec;
using checker::Store;
using checker::u;
using propane::Dfa;
using propane::IntVar;
using Affine = propane::AffineView;
using Offset = propane::OffsetView;

const std::vector<Kind> all_kinds(checker::kinds.begin(), checker::kinds.end());

// Whether some run of the automaton reads v[0 .. n-1] into a final state:
// the set of states reachable, word by word.
bool accepts(const Dfa& a, const int* v, int n) {
    std::vector<char> now(u(a.states), 0);
    now[u(a.start)] = 1;
    for (int i = 0; i < n; ++i) {
        std::vector<char> next(u(a.states), 0);
        for (const propane::Transition& t : a.transitions)
            if (now[u(t.from)] && t.symbol == v[i]) next[u(t.to)] = 1;
        now = next;
    }
    for (const int f : a.finals)
        if (now[u(f)]) return true;
    return false;
}

// Accepts the words whose sum is a multiple of m, over -1..2: state q is
// the sum so far mod m. With m > 64 a layer's states take two words, and
// the sums of short words reach both ends of 0..m-1.
Dfa sum_mod(int m) {
    Dfa d{.states = m, .start = 0, .finals = {0}, .transitions = {}};
    for (int q = 0; q < m; ++q)
        for (int v = -1; v <= 2; ++v) d.transitions.push_back({q, v, ((q + v) % m + m) % m});
    return d;
}

struct Named {
    std::string name;
    Dfa dfa;
    bool words_of_two_only = false; // no longer word is accepted
};

std::vector<Named> automata() {
    std::vector<Named> out;
    out.push_back({"1 then 0", Dfa{.states = 3, .start = 0, .finals = {2}, .transitions = {{0, 1, 1}, {1, 0, 2}}}, true});
    Dfa contains{.states = 3, .start = 0, .finals = {2}, .transitions = {}};
    for (int v = -1; v <= 2; ++v) {
        contains.transitions.push_back({0, v, v == 1 ? 1 : 0});
        contains.transitions.push_back({1, v, v == 0 ? 2 : v == 1 ? 1 : 0});
        contains.transitions.push_back({2, v, 2});
    }
    out.push_back({"contains 1 then 0", contains});
    // State 0 is the start, state k + 2 "the last value was k".
    Dfa no_repeat{.states = 5, .start = 0, .finals = {0, 1, 2, 3, 4}, .transitions = {}};
    for (int v = -1; v <= 2; ++v) {
        no_repeat.transitions.push_back({0, v, v + 2});
        for (int last = -1; last <= 2; ++last)
            if (last != v) no_repeat.transitions.push_back({last + 2, v, v + 2});
    }
    out.push_back({"no value twice in a row", no_repeat});
    Dfa guess{.states = 4, .start = 0, .finals = {3}, .transitions = {}};
    for (int v = -1; v <= 2; ++v) {
        guess.transitions.push_back({0, v, 0});
        guess.transitions.push_back({1, v, 2});
        guess.transitions.push_back({3, v, 3});
    }
    guess.transitions.push_back({0, 2, 1});
    guess.transitions.push_back({2, 0, 3});
    out.push_back({"a 2, then 0 two places on (nondeterministic)", guess});
    out.push_back({"sum 0 mod 67 (two words of states)", sum_mod(67)});
    return out;
}

Spec regular_spec(const Named& a, int n) {
    Spec spec;
    spec.name = "regular(" + std::to_string(n) + " views, " + a.name + ")";
    spec.claim = checker::Claim::domain;
    spec.holds = [=](const int* v) { return accepts(a.dfa, v, n); };
    spec.post = [=](Store& s, const std::vector<IntVar>& xs, const Case& c) {
        switch (c.kind) {
        case Kind::var: s.post(propane::regular(checker::views<IntVar>(xs, c, 0, n), a.dfa)); break;
        case Kind::offset: s.post(propane::regular(checker::views<Offset>(xs, c, 0, n), a.dfa)); break;
        case Kind::affine:
        case Kind::mixed: s.post(propane::regular(checker::views<Affine>(xs, c, 0, n), a.dfa)); break;
        }
    };
    return spec;
}

} // namespace

TEST_CASE("regular(xs, dfa): domain consistent") {
    for (const Named& a : automata()) {
        checker::Outcome two, three, five, shared, walked;
        for (const Kind k : all_kinds) {
            two += checker::sweep(regular_spec(a, 2), k, {.n = 2, .lo = -1, .range = 4});
            if (a.words_of_two_only) continue;
            three += checker::sweep(regular_spec(a, 3), k, {.n = 3, .lo = -1, .range = 4, .posted_every = 2});
            five += checker::sweep(regular_spec(a, 5), k, {.n = 5, .lo = -2, .range = 6, .samples = 1500, .posted_every = 2, .seed = 5});
            shared += checker::shared_sweep(regular_spec(a, 4), k, 4, 2, -1, 4, 300, 7);
            walked += checker::walks(regular_spec(a, 5), k, 5, -1, 4, 4, 120, 11);
        }
        checker::report("regular(2, " + a.name + ") x 4 kinds, every pair of subsets of -1..2", two);
        if (a.words_of_two_only) continue;
        checker::report("regular(3, " + a.name + ") x 4 kinds, every triple of subsets of -1..2", three);
        checker::report("regular(5, " + a.name + ") x 4 kinds, sampled over -2..3", five);
        checker::report("regular(4, " + a.name + ") x 4 kinds, shared variables", shared);
        checker::report("regular(5, " + a.name + ") x 4 kinds, walks", walked);
    }
}

// The graph is kept between runs: long walks of cuts, propagations,
// pushes, pops and copies over six positions, where one removal can
// change the layers several positions away in both directions.
TEST_CASE("regular(xs, dfa): long walks through the kept graph") {
    for (const Named& a : automata()) {
        if (a.words_of_two_only) continue;
        checker::Outcome walked;
        for (const Kind k : all_kinds) walked += checker::walks(regular_spec(a, 6), k, 6, -1, 4, 6, 250, 23);
        checker::report("regular(6, " + a.name + ") x 4 kinds, long walks", walked);
    }
}

// Rows of more than 64 symbols and states: x_i over 0..99, each value at
// most 12 above the one before (101 states: the start and the last value).
// Random domains of a few values each, then random removals and
// assignments inside nested levels; after every propagation each position
// must hold exactly the values of the accepted words over the domains it
// started from, and every pop must restore the domains.
TEST_CASE("regular: more than 64 symbols and states, against brute force through levels") {
    constexpr int n = 4, values = 100, step = 12;
    Dfa climb{.states = values + 1, .start = values, .finals = {}, .transitions = {}};
    for (int q = 0; q <= values; ++q) climb.finals.push_back(q);
    for (int v = 0; v < values; ++v) {
        climb.transitions.push_back({values, v, v});
        for (int u = std::max(0, v - step); u <= v; ++u) climb.transitions.push_back({u, v, v});
    }
    const auto accepted = [](const std::vector<int>& w) {
        for (std::size_t i = 1; i < w.size(); ++i)
            if (w[i] < w[i - 1] || w[i] > w[i - 1] + step) return false;
        return true;
    };
    using Doms = std::vector<std::vector<int>>;
    const auto domains = [&](const Store& s, const std::vector<IntVar>& xs) {
        Doms d(xs.size());
        for (std::size_t i = 0; i < xs.size(); ++i)
            for (int v = 0; v < values; ++v)
                if (s.domain(xs[i]).contains(v)) d[i].push_back(v);
        return d;
    };
    // The supported values of each position, or nothing if no word is
    // accepted.
    const auto brute = [&](const Doms& d) {
        Doms keep(d.size());
        std::vector<int> w(d.size());
        std::vector<std::size_t> at(d.size(), 0);
        bool any = false;
        for (;;) {
            for (std::size_t i = 0; i < d.size(); ++i) w[i] = d[i][at[i]];
            if (accepted(w)) {
                any = true;
                for (std::size_t i = 0; i < d.size(); ++i) keep[i].push_back(w[i]);
            }
            std::size_t i = 0;
            while (i < d.size() && ++at[i] == d[i].size()) at[i++] = 0;
            if (i == d.size()) break;
        }
        for (auto& k : keep) {
            std::sort(k.begin(), k.end());
            k.erase(std::unique(k.begin(), k.end()), k.end());
        }
        return any ? keep : Doms{};
    };
    std::mt19937 rng(31);
    int propagations = 0, failures = 0, pruned = 0;
    for (int round = 0; round < 40; ++round) {
        Store s;
        std::vector<IntVar> xs;
        for (int i = 0; i < n; ++i) {
            xs.push_back(s.int_var(0, values - 1, round % 2 == 0 ? propane::Representation::bitset
                                                                 : propane::Representation::interval));
            // A few values near a drifting centre, so that words exist.
            const int centre = 10 + 12 * i + static_cast<int>(rng() % 20);
            for (int v = 0; v < values; ++v)
                if (std::abs(v - centre) > 12 || rng() % 3 == 0) (void)xs.back().remove(s, v);
        }
        s.post(propane::regular(xs, climb));
        std::vector<Doms> saved;
        bool failed = false;
        const auto check = [&] {
            const Doms before = domains(s, xs);
            const Doms want = brute(before);
            const bool ok = s.propagate();
            ++propagations;
            CHECK(ok == !want.empty());
            if (ok) CHECK(domains(s, xs) == want);
            failures += ok ? 0 : 1;
            pruned += ok && want != before ? 1 : 0;
            failed = !ok;
        };
        check();
        if (failed) continue;
        for (int k = 0; k < 60; ++k) {
            const unsigned r = rng() % 10;
            if ((r < 3 || failed) && !saved.empty()) {
                s.pop_level();
                CHECK(domains(s, xs) == saved.back());
                saved.pop_back();
                failed = false;
            } else if (r < 6 && !failed) {
                saved.push_back(domains(s, xs));
                s.push_level();
            } else if (!failed) {
                const Doms d = domains(s, xs);
                const auto i = static_cast<std::size_t>(rng() % n);
                if (d[i].size() < 2) continue;
                const int v = d[i][rng() % d[i].size()];
                (void)(rng() % 3 == 0 ? xs[i].assign(s, v) : xs[i].remove(s, v));
                if (rng() % 2 == 0) check();
            }
        }
    }
    MESSAGE("regular over 0..99: " << propagations << " propagations, " << failures << " failed, " << pruned
                                      << " pruned");
    CHECK(failures > 0);
    CHECK(pruned > propagations / 4);
    CHECK(failures < propagations);
}

// A variable of billions of values in the interval form: the first run
// keeps the supported symbols by runs, not value by value.
TEST_CASE("regular: a wide interval domain keeps only its supported symbols") {
    Store s;
    const IntVar x = s.int_var(-2'000'000'000, 2'000'000'000, propane::Representation::interval);
    const IntVar y = s.int_var(0, 3);
    const Dfa d{.states = 3, .start = 0, .finals = {2}, .transitions = {{0, -7, 1}, {0, 5, 1}, {0, 1'000'000, 1}, {1, 2, 2}, {1, 3, 2}}};
    s.post(propane::regular({x, y}, d));
    REQUIRE(s.propagate());
    CHECK(s.domain(x).size() == 3);
    CHECK((s.domain(x).contains(-7) && s.domain(x).contains(5) && s.domain(x).contains(1'000'000)));
    CHECK((s.domain(y).size() == 2 && s.domain(y).min() == 2));
    s.push_level();
    REQUIRE(y.remove(s, 2) != propane::Change::failed);
    REQUIRE(x.remove(s, 5) != propane::Change::failed);
    REQUIRE(s.propagate());
    CHECK(s.domain(x).size() == 2);
    REQUIRE(y.remove(s, 3) == propane::Change::failed);
    s.pop_level();
    CHECK(s.domain(x).size() == 3);
}

TEST_CASE("regular: model errors name the constraint; the empty word") {
    Store s;
    const std::vector<IntVar> xs = s.int_vars(2, 0, 1);
    CHECK_THROWS_WITH_AS(propane::regular(xs, Dfa{.states = 0, .start = 0, .finals = {}, .transitions = {}}),
                         doctest::Contains("regular: the automaton has 0 states"), propane::model_error);
    CHECK_THROWS_WITH_AS(propane::regular(xs, Dfa{.states = 2, .start = 2, .finals = {}, .transitions = {}}),
                         doctest::Contains("regular: the start is state 2"), propane::model_error);
    CHECK_THROWS_WITH_AS(propane::regular(xs, Dfa{.states = 2, .start = 0, .finals = {1}, .transitions = {{0, 1, 5}}}),
                         doctest::Contains("transitions[0].to is state 5"), propane::model_error);
    Store t = s;
    t.post(propane::regular(std::vector<IntVar>{}, Dfa{.states = 2, .start = 0, .finals = {0}, .transitions = {}}));
    CHECK(t.propagate());
    t.post(propane::regular(std::vector<IntVar>{}, Dfa{.states = 2, .start = 0, .finals = {1}, .transitions = {}}));
    CHECK_FALSE(t.propagate());
}
