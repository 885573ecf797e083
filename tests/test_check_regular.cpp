// regular(xs, dfa) through the checker (checker.hpp).
//
// Claim checked, in view space, for views on distinct variables: domain
// consistency (exact), against brute force (the automaton run on every
// word). Where views share a variable the checker holds regular to
// soundness and the fixed-assignment rule.
//
// Automata: the issue's "1 then 0", "contains 1 then 0", "no value twice
// in a row" over -1..2, and a nondeterministic "some 2 is followed, two
// places on, by 0". Configurations, per automaton and view kind: three
// positions over every triple of subsets of -1..2, five sampled over -2..3,
// shared variables, random walks.

#include <doctest/doctest.h>

#include "checker.hpp"

#include <propane/constraints/regular.hpp>

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
