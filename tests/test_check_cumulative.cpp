// cumulative(starts, durations, heights, capacity) through the checker
// (checker.hpp).
//
// Claim checked, for views on distinct variables: exactly the fixpoint of
// time-tabling, written here from its statement one time point at a time:
// the compulsory parts [lst_j, ect_j) summed must stay within the
// capacity, and a start's least (greatest) value goes while the task,
// started there, meets a time at which the others' compulsory parts leave
// less than its height free. Where views share a variable the checker
// holds cumulative to soundness and the fixed-assignment rule.
//
// Configurations, per view kind, durations, heights and capacity: three
// tasks over every triple of subsets of 0..4, four sampled over 0..5 and
// -1..6, durations and heights including 0; then shared variables and
// random walks.

#include <doctest/doctest.h>

#include "checker.hpp"
#include "optional_tasks.hpp"

#include <propane/constraints/cumulative.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "instances_store.hpp"

namespace {

using checker::Case;
using checker::Doms;
using checker::Kind;
using checker::Spec;
using checker::Store;
using checker::list;
using checker::u;
using propane::IntVar;
using Affine = propane::AffineView;

const std::vector<Kind> all_kinds(checker::kinds.begin(), checker::kinds.end());

struct Resource {
    std::vector<int> d, h;
    int capacity = 0;
};

std::string describe(const Resource& r) {
    return list(r.d) + ", " + list(r.h) + ", " + std::to_string(r.capacity);
}

// present: the tasks' presences (1: present), or null when all are.
bool fits(const Resource& r, const int* v, int n, const int* present = nullptr) {
    int lo = v[0], hi = v[0];
    for (int i = 0; i < n; ++i) lo = std::min(lo, v[i]), hi = std::max(hi, v[i] + r.d[u(i)]);
    for (int t = lo; t < hi; ++t) {
        int used = 0;
        for (int i = 0; i < n; ++i)
            if (v[i] <= t && t < v[i] + r.d[u(i)] && (!present || present[i] == 1)) used += r.h[u(i)];
        if (used > r.capacity) return false;
    }
    return true;
}

bool timetable_closure(const Resource& r, const Case& c, Doms& d) {
    const int n = c.n;
    // A task of duration or height 0 takes no part; one higher than the
    // capacity cannot run.
    for (int i = 0; i < n; ++i)
        if (r.d[u(i)] > 0 && r.h[u(i)] > r.capacity) return false;
    const auto active = [&](int i) { return r.d[u(i)] > 0 && r.h[u(i)] > 0; };
    const auto values = [&](int i) {
        std::vector<int> out;
        for (int t = 0; t < c.range; ++t)
            if ((d[u(c.v[u(i)].var)] >> t) & 1U) out.push_back(c.value(i, t));
        std::sort(out.begin(), out.end());
        return out;
    };
    for (;;) {
        std::vector<int> est(u(n)), lst(u(n));
        int lo = 0, hi = 0;
        for (int i = 0; i < n; ++i) {
            const std::vector<int> w = values(i);
            if (w.empty()) return false;
            est[u(i)] = w.front();
            lst[u(i)] = w.back();
            lo = std::min(lo, w.front());
            hi = std::max(hi, w.back() + r.d[u(i)]);
        }
        // The others' compulsory parts at t.
        const auto others = [&](int i, int t) {
            int used = 0;
            for (int j = 0; j < n; ++j)
                if (j != i && active(j) && lst[u(j)] <= t && t < est[u(j)] + r.d[u(j)]) used += r.h[u(j)];
            return used;
        };
        for (int t = lo; t < hi; ++t)
            if (others(-1, t) > r.capacity) return false;
        const auto fits_at = [&](int i, int s) {
            for (int t = s; t < s + r.d[u(i)]; ++t)
                if (others(i, t) + r.h[u(i)] > r.capacity) return false;
            return true;
        };
        bool moved = false;
        for (int i = 0; i < n; ++i) {
            if (active(i) && !checker::trim_bounds(c, d, i, [&](int s) { return fits_at(i, s); }, moved))
                return false;
        }
        if (!moved) return true;
    }
}

Spec cumulative_spec(const Resource& r) {
    Spec spec;
    const int n = static_cast<int>(r.d.size());
    spec.name = "cumulative(" + std::to_string(n) + " starts, " + describe(r) + ")";
    spec.claim = checker::Claim::custom;
    spec.holds = [=](const int* v) { return fits(r, v, n); };
    spec.closure = [=](const Case& c, Doms& d) { return timetable_closure(r, c, d); };
    spec.post = [=](Store& s, const std::vector<IntVar>& xs, const Case& c) {
        checker::with_views(xs, c, 0, n,
                            [&](const auto& starts) { s.post(propane::cumulative(starts, r.d, r.h, r.capacity)); });
    };
    return spec;
}

// cumulative(starts, durations, heights, capacity, present): views 0 ..
// n-1 the starts, n .. 2n-1 the presences (optional_tasks.hpp).
Spec optional_spec(const Resource& r) {
    Spec spec;
    const int n = static_cast<int>(r.d.size());
    spec.name = "cumulative(" + std::to_string(n) + " starts, " + describe(r) + ", present)";
    spec.claim = checker::Claim::custom;
    spec.holds = [=](const int* v) { return fits(r, v, n, v + n); };
    spec.closure = [=](const Case& c, Doms& d) {
        const auto rules = [&](const Case& sub, Doms& dd, const std::vector<int>& tasks) {
            Resource kept{{}, {}, r.capacity};
            for (const int i : tasks) kept.d.push_back(r.d[u(i)]), kept.h.push_back(r.h[u(i)]);
            return sub.n == 0 || timetable_closure(kept, sub, dd);
        };
        return checker::optional::closure(c, d, n, rules, [&](int i) { return r.d[u(i)] > 0 && r.h[u(i)] > 0; });
    };
    spec.post = [=](Store& s, const std::vector<IntVar>& xs, const Case& c) {
        checker::optional::post_by_kind(xs, c, n, [&](const auto& starts, const auto& present) {
            s.post(propane::cumulative(starts, r.d, r.h, r.capacity, present));
        });
    };
    return spec;
}

} // namespace

TEST_CASE("cumulative(starts, durations, heights, capacity, present): optional tasks, the claimed fixpoint exactly") {
    const std::vector<Resource> two{{{2, 3}, {1, 1}, 1}, {{3, 2}, {2, 1}, 2}, {{2, 2}, {1, 3}, 2}, {{0, 2}, {1, 1}, 1},
                                    {{3, 1}, {2, 2}, 3}};
    for (const Resource& r : two) {
        checker::Outcome full;
        for (const Kind k : all_kinds) full += checker::optional::sweep(optional_spec(r), k, 2, 0, 5);
        checker::report(optional_spec(r).name + " x 4 kinds, every pair of subsets of 0..4, presences open or fixed",
                        full);
    }
    const std::vector<Resource> three{{{2, 1, 3}, {1, 1, 1}, 1}, {{3, 1, 2}, {2, 1, 2}, 3}, {{2, 2, 1}, {1, 1, 3}, 2},
                                      {{1, 2, 2}, {0, 2, 1}, 2}, {{2, 3, 2}, {1, 2, 2}, 3}};
    for (const Resource& r : three) {
        checker::Outcome sampled, wide;
        for (const Kind k : all_kinds) {
            sampled += checker::optional::sampled(optional_spec(r), k, 3, 0, 5, 3000, 5);
            wide += checker::optional::sampled(optional_spec(r), k, 3, -1, 6, 3000, 9);
        }
        checker::report(optional_spec(r).name + " x 4 kinds, sampled over 0..4", sampled);
        checker::report(optional_spec(r).name + " x 4 kinds, sampled over -1..4", wide);
    }
}

TEST_CASE("cumulative(starts, durations, heights, capacity): the fixpoint of time-tabling, exactly") {
    const std::vector<Resource> three{
        {{2, 1, 3}, {1, 1, 1}, 1}, {{2, 2, 2}, {1, 2, 1}, 2}, {{3, 1, 2}, {2, 1, 2}, 3},
        {{2, 0, 3}, {1, 3, 2}, 2}, {{1, 2, 2}, {0, 2, 1}, 2}, {{2, 2, 1}, {1, 1, 3}, 2},
    };
    for (const Resource& r : three) {
        checker::Outcome full, walked, shared;
        for (const Kind k : all_kinds) {
            full += checker::sweep(cumulative_spec(r), k, {.n = 3, .lo = 0, .range = 5, .posted_every = 3});
            shared += checker::shared_sweep(cumulative_spec(r), k, 3, 2, 0, 5, 300, 7);
            walked += checker::walks(cumulative_spec(r), k, 3, 0, 5, 4, 120, 11);
        }
        checker::report("cumulative(3 starts, " + describe(r) + ") x 4 kinds, every triple of subsets of 0..4", full);
        checker::report("cumulative(3 starts, " + describe(r) + ") x 4 kinds, shared variables", shared);
        checker::report("cumulative(3 starts, " + describe(r) + ") x 4 kinds, walks", walked);
    }
    const std::vector<Resource> four{
        {{2, 1, 3, 2}, {1, 2, 1, 2}, 3}, {{3, 3, 2, 1}, {2, 1, 1, 1}, 2}, {{1, 2, 2, 3}, {1, 1, 1, 1}, 1}};
    for (const Resource& r : four) {
        checker::Outcome sampled, wide;
        for (const Kind k : all_kinds) {
            sampled += checker::sweep(cumulative_spec(r), k,
                                      {.n = 4, .lo = 0, .range = 6, .samples = 3000, .posted_every = 3, .seed = 5});
            wide += checker::sweep(cumulative_spec(r), k,
                                   {.n = 4, .lo = -1, .range = 8, .samples = 3000, .posted_every = 3, .seed = 9});
        }
        checker::report("cumulative(4 starts, " + describe(r) + ") x 4 kinds, sampled over 0..5", sampled);
        checker::report("cumulative(4 starts, " + describe(r) + ") x 4 kinds, sampled over -1..6", wide);
    }
}

TEST_CASE("cumulative: model errors name the constraint") {
    Store s;
    const std::vector<IntVar> xs = s.int_vars(3, 0, 5);
    CHECK_THROWS_WITH_AS(propane::cumulative(xs, {1, 2}, {1, 1, 1}, 2),
                         doctest::Contains("cumulative: 3 starts but 2 durations"), propane::model_error);
    CHECK_THROWS_WITH_AS(propane::cumulative(xs, {1, 2, 1}, {1, -1, 1}, 2),
                         doctest::Contains("cumulative: heights[1] is -1"), propane::model_error);
    CHECK_THROWS_WITH_AS(propane::cumulative(xs, {1, 2, 1}, {1, 1, 1}, -2),
                         doctest::Contains("cumulative: the capacity is -2"), propane::model_error);
    CHECK_THROWS_WITH_AS(s.post(propane::cumulative(std::vector<IntVar>{xs[0], IntVar{}}, {1, 1}, {1, 1}, 1)),
                         doctest::Contains("cumulative"), propane::model_error);
    const std::vector<IntVar> bs = s.int_vars(3, 0, 1);
    CHECK_THROWS_WITH_AS(propane::cumulative(xs, {1, 2, 1}, {1, 1, 1}, 2, std::vector<IntVar>{bs[0]}),
                         doctest::Contains("cumulative: 3 starts but 1 presence views"), propane::model_error);
    const std::vector<Affine> doubled{bs[0], 2 * bs[1], bs[2]};
    CHECK_THROWS_WITH_AS(s.post(propane::cumulative(xs, {1, 2, 1}, {1, 1, 1}, 2, doubled)),
                         doctest::Contains("cumulative: present[1] is over 0..2"), propane::model_error);
    // A task higher than the capacity cannot run; one of height 0 can.
    Store t = s;
    t.post(propane::cumulative(xs, {1, 1, 1}, {0, 1, 3}, 2));
    CHECK_FALSE(t.propagate());
    Store u = s;
    u.post(propane::cumulative(xs, {1, 1, 0}, {0, 1, 3}, 2));
    CHECK(u.propagate());
}

// test_models_mixed, seed 1720 (the globals' models): b1 is the start of a
// task and the presences of two others, one made absent by the run, which
// makes the other present beside a task it overlaps.
TEST_CASE("cumulative with optional tasks: a presence the run sets, shared with other tasks, is propagated") {
    Store s;
    const IntVar x0 = s.int_var(-3, 4), b0 = s.bool_var(), b1 = s.bool_var();
    const std::vector<Affine> starts{3 * x0 + 1, x0, -b1 - 1};
    const std::vector<Affine> present{1 - b1, b1, 1 - b0};
    s.post(propane::cumulative(starts, {3, 3, 3}, {2, 1, 2}, 2, present));
    REQUIRE(s.propagate());
    REQUIRE(x0.assign(s, 0) != propane::Change::failed);
    REQUIRE(b0.assign(s, 0) != propane::Change::failed);
    CHECK_FALSE(s.propagate());
}
