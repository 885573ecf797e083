// The store: variables and handles, which updates wake which subscribers,
// the propagation queue (once per propagator, failure, nofix), deep
// copies, and the representations a dynamic store keeps (bitset or
// interval) side by side.

#include <doctest/doctest.h>

#include "support.hpp"

#include <propane/engine/domain.hpp>
#include <propane/engine/error.hpp>
#include <propane/engine/propagator.hpp>
#include <propane/engine/store.hpp>
#include <propane/engine/view.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "instances_store.hpp"

namespace {

using test_support::str;
using test_support::expected_change;

using propane::Change;
using propane::Event;
using propane::IntVar;
using propane::PropStatus;

// A propagator that records its runs and the tags pending at each, and
// does what its body says (nothing by default). The body gets the store it
// runs in, never captures one, so a copied store's probe acts on the copy.
template <class S>
class Probe : public propane::PropagatorBase<S, Probe<S>> {
public:
    using Body = std::function<PropStatus(S&, Probe&)>;
    explicit Probe(Body body = {}) : body_(std::move(body)) {}

    PropStatus propagate(S& s) override {
        ++runs;
        seen.push_back(this->pending());
        this->pending().clear();
        return body_ ? body_(s, *this) : PropStatus::fix;
    }

    int runs = 0;
    std::vector<std::vector<int>> seen;

private:
    Body body_;
};

template <class S>
int add_probe(S& s, typename Probe<S>::Body body = {}) {
    return s.add_propagator(std::make_unique<Probe<S>>(std::move(body)));
}

template <class S>
Probe<S>& probe(S& s, int id) {
    return dynamic_cast<Probe<S>&>(s.propagator(id));
}

std::vector<int> sorted(std::vector<int> v) {
    std::sort(v.begin(), v.end());
    return v;
}

using Ref = std::set<int>;

template <class S>
Ref contents(const S& s, IntVar x) {
    return test_support::contents(s.domain(x));
}

#define STORES propane::Store<propane::BitDomain<2>>, propane::Store<propane::BitDomain<propane::dynamic>>

} // namespace

TEST_CASE_TEMPLATE("int_var and int_vars", S, STORES) {
    S s;
    CHECK(s.num_vars() == 0);
    const IntVar a = s.int_var(-3, 7);
    CHECK(a.index() == 0);
    CHECK(a.lo() == -3);
    CHECK(a.hi() == 7);
    CHECK(s.domain(a) == typename S::domain_type(-3, 7));
    CHECK(s.domain(0) == s.domain(a));

    const std::vector<IntVar> xs = s.int_vars(4, 10, 100);
    REQUIRE(xs.size() == 4);
    for (std::size_t i = 0; i < xs.size(); ++i) {
        CHECK(xs[i].index() == static_cast<int>(i) + 1);
        CHECK(xs[i].lo() == 10);
        CHECK(xs[i].hi() == 100);
        CHECK(s.domain(xs[i]) == typename S::domain_type(10, 100));
    }
    CHECK(s.num_vars() == 5);
    CHECK(s.int_vars(0, 1, 2).empty());
    CHECK(s.num_vars() == 5);

    // A failed creation leaves the store as it was.
    CHECK_THROWS_AS(s.int_vars(-1, 0, 3), propane::model_error);
    CHECK_THROWS_AS(s.int_vars(-1, 0, 3), std::invalid_argument);
    CHECK_THROWS_AS(s.int_var(4, 3), propane::model_error);
    if constexpr (!S::domain_type::is_dynamic) {
        CHECK_THROWS_AS(s.int_var(0, 128), propane::model_error);
        CHECK_THROWS_AS(s.int_vars(2, 0, 128), propane::model_error);
    }
    CHECK(s.num_vars() == 5);
    const IntVar b = s.int_var(1, 2);
    CHECK(b.index() == 5);
    CHECK_NOTHROW(s.check(b));
    // Updates go to the right variable.
    CHECK(s.remove(b, 1) != propane::Change::failed);
    CHECK(s.domain(b).fixed());
    CHECK(s.domain(a).size() == 11);
}

TEST_CASE_TEMPLATE("check rejects handles that are not this store's", S, STORES) {
    S s;
    const IntVar x = s.int_var(0, 9);
    const IntVar y = s.int_var(-5, 5);
    CHECK_NOTHROW(s.check(x));
    CHECK_NOTHROW(s.check(y));
    CHECK_THROWS_AS(s.check(IntVar{}), propane::model_error);
    CHECK_THROWS_AS(s.check(IntVar(2, 0, 9)), propane::model_error);
    CHECK_THROWS_AS(s.check(IntVar(-7, 0, 9)), propane::model_error);
    CHECK_THROWS_AS(s.check(IntVar(0, 0, 10)), propane::model_error);
    CHECK_THROWS_AS(s.check(IntVar(0, 1, 9)), propane::model_error);
    CHECK_THROWS_AS(s.check(IntVar(1, 0, 9)), propane::model_error);

    S other;
    other.int_var(100, 200);
    const IntVar foreign = other.int_var(7, 8);
    CHECK_THROWS_AS(s.check(foreign), propane::model_error);
    CHECK_THROWS_AS(s.check(other.int_var(0, 9)), propane::model_error); // index 2: none here
    const int p = add_probe(s);
    CHECK_THROWS_AS(s.subscribe(foreign, p, Event::domain), propane::model_error);
    CHECK_THROWS_AS(s.subscribe(foreign, p, Event::domain), std::invalid_argument);
}

TEST_CASE_TEMPLATE("each change wakes exactly the matching subscribers", S, STORES) {
    std::mt19937 rng(2024);
    S s;
    const IntVar x = s.int_var(-20, 100);
    const IntVar y = s.int_var(-20, 100);
    const int on_domain = add_probe(s), on_bounds = add_probe(s), on_fixed = add_probe(s);
    const int on_y = add_probe(s);
    s.subscribe(x, on_domain, Event::domain, 10);
    s.subscribe(x, on_bounds, Event::bounds, 20);
    s.subscribe(x, on_fixed, Event::fixed, 30);
    s.subscribe(y, on_y, Event::domain, 40);
    s.subscribe(y, on_y, Event::bounds, 41);
    s.subscribe(y, on_y, Event::fixed, 42);
    const int ids[] = {on_domain, on_bounds, on_fixed, on_y};

    // Each new propagator is queued for a first run, with nothing pending.
    CHECK(s.propagations() == 0);
    CHECK(s.propagate());
    CHECK(s.propagations() == 4);
    for (int id : ids) {
        CHECK(probe(s, id).runs == 1);
        CHECK(probe(s, id).seen.back().empty());
    }

    s.push_level();
    Ref ref = contents(s, x);
    std::map<Change, int> seen_changes;
    for (int step = 0; step < 600; ++step) {
        CAPTURE(step);
        int runs_before[4];
        for (int k = 0; k < 4; ++k) runs_before[k] = probe(s, ids[k]).runs;
        const std::uint64_t props_before = s.propagations();

        const int v = std::uniform_int_distribution<int>(*ref.begin() - 2, *ref.rbegin() + 2)(rng);
        Ref after = ref;
        Change got{};
        switch (std::uniform_int_distribution<int>(0, 5)(rng)) {
        case 0:
        case 1:
            got = s.remove(x, v);
            after.erase(v);
            break;
        case 2:
            got = s.remove_below(x, v);
            after.erase(after.begin(), after.lower_bound(v));
            break;
        case 3:
            got = s.remove_above(x, v);
            after.erase(after.upper_bound(v), after.end());
            break;
        case 4:
            got = s.assign(x, v);
            after = after.count(v) ? Ref{v} : Ref{};
            break;
        default: {
            typename S::domain_type mask(v - 3, v + 3);
            CHECK(mask.remove(v) != propane::Change::failed);
            got = s.intersect(x, mask);
            Ref kept;
            for (int w : after)
                if (mask.contains(w)) kept.insert(w);
            after = kept;
        }
        }
        const Change want = expected_change(ref, after);
        CHECK(str(got) == str(want));
        ++seen_changes[want];
        if (want != Change::failed) ref = after;

        const bool wake_domain = want == Change::domain || want == Change::bounds || want == Change::fixed;
        const bool wake_bounds = want == Change::bounds || want == Change::fixed;
        const bool wake_fixed = want == Change::fixed;
        // A failed update fails the store until its level is popped.
        CHECK(s.propagate() == (want != Change::failed));
        CHECK(s.failed() == (want == Change::failed));
        CHECK(probe(s, on_domain).runs == runs_before[0] + wake_domain);
        CHECK(probe(s, on_bounds).runs == runs_before[1] + wake_bounds);
        CHECK(probe(s, on_fixed).runs == runs_before[2] + wake_fixed);
        CHECK(probe(s, on_y).runs == runs_before[3]);
        CHECK(s.propagations() == props_before + wake_domain + wake_bounds + wake_fixed);
        if (wake_domain) CHECK(probe(s, on_domain).seen.back() == std::vector<int>{10});
        if (wake_bounds) CHECK(probe(s, on_bounds).seen.back() == std::vector<int>{20});
        if (wake_fixed) CHECK(probe(s, on_fixed).seen.back() == std::vector<int>{30});

        if (ref.size() == 1 || want == Change::failed) {
            // Backtracking restores x, clears a failure and wakes nobody.
            s.pop_level();
            const std::uint64_t before_pop = s.propagations();
            CHECK(s.propagate());
            CHECK(s.propagations() == before_pop);
            s.push_level();
            ref = contents(s, x);
        }
    }
    // The random walk met every kind of change.
    for (Change c : {Change::none, Change::domain, Change::bounds, Change::fixed, Change::failed})
        CHECK(seen_changes[c] > 0);

    // And y's subscriptions, with one propagator on all three events: a
    // fixing change fires all three, each appending its tag.
    CHECK(s.assign(y, 5) != propane::Change::failed);
    CHECK(s.propagate());
    CHECK(sorted(probe(s, on_y).seen.back()) == std::vector<int>{40, 41, 42});
}

TEST_CASE_TEMPLATE("min and max subscriptions wake on their end of the domain", S, STORES) {
    std::mt19937 rng(77);
    S s;
    const IntVar x = s.int_var(-30, 90);
    const int on_min = add_probe(s), on_max = add_probe(s), tagged_min = add_probe(s);
    s.subscribe(x, on_min, Event::min);
    s.subscribe(x, on_max, Event::max);
    s.subscribe(x, tagged_min, Event::min, 5); // fires as bounds, with its tag
    // A later scope's one-end subscription goes with its propagator (were
    // it left behind, waking it would reach past the propagators).
    s.push_level();
    const int scoped = add_probe(s);
    s.subscribe(x, scoped, Event::max);
    CHECK(s.propagate());
    s.pop_level();
    CHECK(s.num_propagators() == tagged_min + 1);
    CHECK(s.propagate());

    s.push_level();
    Ref ref = contents(s, x);
    int moved_min = 0, moved_max = 0, other_end_spared = 0;
    for (int step = 0; step < 800; ++step) {
        CAPTURE(step);
        const int before_min = probe(s, on_min).runs, before_max = probe(s, on_max).runs,
                  before_tagged = probe(s, tagged_min).runs;
        const int v = std::uniform_int_distribution<int>(*ref.begin() - 2, *ref.rbegin() + 2)(rng);
        Ref after = ref;
        const int how = std::uniform_int_distribution<int>(0, 3)(rng);
        Change got{};
        if (how == 0) {
            got = s.remove(x, v);
            after.erase(v);
        } else if (how == 1) {
            got = s.remove_below(x, v);
            after.erase(after.begin(), after.lower_bound(v));
        } else if (how == 2) {
            got = s.remove_above(x, v);
            after.erase(after.upper_bound(v), after.end());
        } else {
            got = s.assign(x, v);
            after = after.count(v) ? Ref{v} : Ref{};
        }
        CHECK(str(got) == str(expected_change(ref, after)));
        const bool failed = after.empty();
        CHECK(s.propagate() == !failed);
        const bool min_rose = !failed && *after.begin() > *ref.begin();
        const bool max_fell = !failed && *after.rbegin() < *ref.rbegin();
        const bool woke_min = probe(s, on_min).runs > before_min, woke_max = probe(s, on_max).runs > before_max;
        // Never missed. Woken more often only as documented: a min
        // subscriber when the variable became fixed or, after an update
        // that can move either end, when the max fell; a max one also on a
        // removal inside; nobody when nothing was removed.
        const bool removed = !failed && after.size() < ref.size(), fixed = removed && after.size() == 1;
        const bool either_end = how == 0 || how == 3;
        if (min_rose) CHECK(woke_min);
        if (max_fell) CHECK(woke_max);
        if (woke_min) CHECK((min_rose || fixed || (either_end && max_fell)));
        if (woke_max) CHECK(removed);
        // An update that can move one end only leaves the other's
        // subscribers asleep (a fixing from above wakes all).
        if (how == 1) CHECK_FALSE(woke_max);
        if (how == 2 && !fixed) CHECK_FALSE(woke_min);
        other_end_spared += (how == 1 && min_rose) + (how == 2 && max_fell);
        moved_min += min_rose;
        moved_max += max_fell;
        // The tagged one fires on either end, with its tag.
        const bool bounds_moved = min_rose || max_fell;
        CHECK((probe(s, tagged_min).runs > before_tagged) == bounds_moved);
        if (bounds_moved) CHECK(probe(s, tagged_min).seen.back() == std::vector<int>{5});
        ref = after;
        if (failed || ref.size() == 1) {
            s.pop_level();
            CHECK(s.propagate());
            s.push_level();
            ref = contents(s, x);
        }
    }
    CHECK(moved_min > 50);
    CHECK(moved_max > 50);
    CHECK(other_end_spared > 50);
    CHECK_THROWS_AS(s.subscribe(x, on_min, static_cast<Event>(5)), propane::model_error);
}

TEST_CASE_TEMPLATE("a subsumed propagator sleeps until search backtracks above its level", S, STORES) {
    S s;
    const IntVar x = s.int_var(0, 40);
    bool entailed = false;
    const int p = add_probe(s, [&entailed](S&, Probe<S>&) { return entailed ? PropStatus::subsumed : PropStatus::fix; });
    s.subscribe(x, p, Event::domain);
    // Tagged: subsumed is taken as fix, so its tags cannot pile up.
    const int tagged = add_probe(s, [](S&, Probe<S>&) { return PropStatus::subsumed; });
    s.subscribe(x, tagged, Event::domain, 3);
    CHECK(s.propagate());
    int v = 0;
    const auto wake = [&] {
        CHECK(s.remove(x, v++) != Change::failed);
        CHECK(s.propagate());
    };
    wake();
    CHECK(probe(s, p).runs == 2);

    s.push_level(); // level 1
    entailed = true;
    wake(); // runs, subsumed at level 1
    CHECK(probe(s, p).runs == 3);
    wake();
    s.schedule(p);
    CHECK(s.propagate());
    CHECK(probe(s, p).runs == 3);
    CHECK(probe(s, tagged).runs == 4);
    CHECK(probe(s, tagged).seen.back() == std::vector<int>{3});

    // A copy keeps the subsumption, and undoes it on its own.
    S copy = s;
    CHECK(copy.remove(x, 30) == Change::domain);
    CHECK(copy.propagate());
    CHECK(probe(copy, p).runs == 3);

    s.push_level(); // level 2
    wake();
    CHECK(probe(s, p).runs == 3);
    s.pop_level(); // back to level 1, where it was subsumed
    wake();
    CHECK(probe(s, p).runs == 3);
    s.pop_level(); // level 0: awake again
    entailed = false;
    wake();
    CHECK(probe(s, p).runs == 4);

    copy.pop_level();
    CHECK(copy.remove(x, 31) == Change::domain);
    CHECK(copy.propagate());
    CHECK(probe(copy, p).runs == 4);

    // A propagator posted in a level and subsumed there goes with the
    // level; the next one takes its number, awake.
    s.push_level();
    const int scoped = add_probe(s, [](S&, Probe<S>&) { return PropStatus::subsumed; });
    s.subscribe(x, scoped, Event::domain);
    CHECK(s.propagate());
    s.pop_level();
    const int next = add_probe(s);
    CHECK(next == scoped);
    s.subscribe(x, next, Event::domain);
    CHECK(s.propagate());
    wake();
    CHECK(probe(s, next).runs == 2);
}

TEST_CASE_TEMPLATE("a propagator is queued once however many events fire", S, STORES) {
    S s;
    const IntVar x = s.int_var(0, 50);
    const IntVar y = s.int_var(0, 50);
    const int p = add_probe(s), q = add_probe(s), untagged = add_probe(s);
    s.subscribe(x, p, Event::domain, 0);
    s.subscribe(y, p, Event::domain, 1);
    s.subscribe(x, q, Event::bounds, 7);
    s.subscribe(x, untagged, Event::domain);
    s.subscribe(y, untagged, Event::fixed);
    CHECK(s.propagate());
    const std::uint64_t props = s.propagations();

    CHECK(s.remove(y, 10) == Change::domain);      // domain on y
    CHECK(s.remove(x, 20) == Change::domain);      // domain on x
    CHECK(s.remove(x, 20) == Change::none);        // none: fires nothing
    CHECK(s.remove_below(x, 3) == Change::bounds); // bounds on x
    CHECK(s.remove(y, 11) == Change::domain);      // domain on y
    CHECK(s.assign(y, 30) == Change::fixed);       // fixed on y
    CHECK(s.propagate());
    CHECK(s.propagations() == props + 3);
    CHECK(probe(s, p).runs == 2);
    CHECK(probe(s, q).runs == 2);
    CHECK(probe(s, untagged).runs == 2);
    // One tag per firing, in the order they fired.
    CHECK(probe(s, p).seen.back() == std::vector<int>{1, 0, 0, 1, 1});
    CHECK(probe(s, q).seen.back() == std::vector<int>{7});
    CHECK(probe(s, untagged).seen.back().empty());
    // Nothing left over for the next round.
    CHECK(s.propagate());
    CHECK(s.propagations() == props + 3);
    // A failed update fires nothing (and fails the level).
    s.push_level();
    CHECK(s.assign(y, 31) == Change::failed);
    CHECK_FALSE(s.propagate());
    CHECK(s.propagations() == props + 3);
    s.pop_level();
}

TEST_CASE_TEMPLATE("a failing propagator empties the queue", S, STORES) {
    S s;
    const IntVar x = s.int_var(0, 20);
    int fail_times = 0;
    const int failing = add_probe(s, [&fail_times](S&, Probe<S>&) {
        return fail_times-- > 0 ? PropStatus::failed : PropStatus::fix;
    });
    const int later = add_probe(s);
    s.subscribe(x, failing, Event::domain, 1);
    s.subscribe(x, later, Event::domain, 2);
    CHECK(s.propagate());
    fail_times = 1;
    const std::uint64_t props = s.propagations();

    // Inside a level, as search fails; below the first level a failure is
    // permanent (see the next test case).
    s.push_level();
    CHECK(s.remove(x, 5) != propane::Change::failed);
    CHECK(s.remove(x, 6) != propane::Change::failed);
    CHECK_FALSE(s.propagate());
    CHECK(s.propagations() == props + 1);
    CHECK(probe(s, failing).runs == 2);
    CHECK(probe(s, later).runs == 1); // never got its turn
    CHECK(probe(s, failing).pending().empty());
    CHECK(probe(s, later).pending().empty());

    // Nothing scheduled: nothing runs, and the level stays failed until it
    // is popped.
    CHECK(s.failed());
    CHECK_FALSE(s.propagate());
    CHECK(s.propagations() == props + 1);
    s.pop_level();
    CHECK(s.propagate());
    CHECK(s.propagations() == props + 1);
    CHECK_FALSE(s.failed());

    // Both can be queued again, and see only the new tags.
    CHECK(s.remove(x, 7) != propane::Change::failed);
    CHECK(s.propagate());
    CHECK(probe(s, failing).runs == 3);
    CHECK(probe(s, later).runs == 2);
    CHECK(probe(s, failing).seen.back() == std::vector<int>{1});
    CHECK(probe(s, later).seen.back() == std::vector<int>{2});
}

TEST_CASE_TEMPLATE("a failure below the first level is permanent", S, STORES) {
    S s;
    const IntVar x = s.int_var(0, 20);
    bool fail = true;
    const int p = add_probe(s, [&fail](S&, Probe<S>&) { return fail ? PropStatus::failed : PropStatus::fix; });
    s.subscribe(x, p, Event::domain);
    CHECK_FALSE(s.failed());
    CHECK_FALSE(s.propagate());
    CHECK(s.failed());
    // The model has no solution whatever runs later, so nothing may claim a
    // fixpoint, even with an empty queue or a propagator that would agree.
    fail = false;
    CHECK_FALSE(s.propagate());
    CHECK(s.remove(x, 3) != propane::Change::failed);
    CHECK_FALSE(s.propagate());
    s.push_level();
    CHECK_FALSE(s.propagate());
    s.pop_level();
    CHECK(s.failed());
}

TEST_CASE_TEMPLATE("a level restores the queue it was pushed with", S, STORES) {
    S s;
    const IntVar x = s.int_var(0, 20);
    int fail_times = 1;
    const int p = add_probe(s, [&fail_times](S&, Probe<S>&) {
        return fail_times-- > 0 ? PropStatus::failed : PropStatus::fix;
    });
    s.subscribe(x, p, Event::domain, 4);
    // Queued by add_probe, never run: a failure inside the level must not
    // lose that first run, or the model's own consequences would be skipped.
    s.push_level();
    CHECK_FALSE(s.propagate());
    s.pop_level();
    const std::uint64_t props = s.propagations();
    CHECK(s.propagate());
    CHECK(s.propagations() == props + 1);
    // Work queued inside a level (a tag for a change that pop_level undoes)
    // does not outlive it.
    s.push_level();
    CHECK(s.remove(x, 0) != propane::Change::failed);
    s.pop_level();
    CHECK(s.propagate());
    CHECK(s.propagations() == props + 1);
    CHECK(probe(s, p).pending().empty());
}

TEST_CASE_TEMPLATE("nofix runs a propagator again", S, STORES) {
    S s;
    int left = 3;
    const int p = add_probe(s, [&left](S&, Probe<S>&) { return --left > 0 ? PropStatus::nofix : PropStatus::fix; });
    const int other = add_probe(s);
    CHECK(s.propagate());
    CHECK(probe(s, p).runs == 3);
    CHECK(probe(s, other).runs == 1);
    CHECK(s.propagations() == 4);
}

TEST_CASE_TEMPLATE("defer runs a propagator again once no other is queued", S, STORES) {
    S s;
    const IntVar x = s.int_var(0, 9);
    std::vector<int> order;
    // Staged: defers while others wait, as the bounds and domain
    // AllDifferents do with their dear stage.
    const int staged = add_probe(s, [&order](S& st, Probe<S>&) {
        order.push_back(0);
        return st.queued() > 0 ? PropStatus::defer : PropStatus::fix;
    });
    const int a = add_probe(s, [&order](S&, Probe<S>&) {
        order.push_back(1);
        return PropStatus::fix;
    });
    // Wakes the deferred propagator, which must not run twice for it, nor
    // lose the tag.
    const int b = add_probe(s, [&order, x](S& st, Probe<S>&) {
        order.push_back(2);
        CHECK(st.remove(x, 4) != propane::Change::failed);
        return PropStatus::fix;
    });
    s.subscribe(x, staged, Event::domain, 7);
    CHECK(s.queued() == 3);
    CHECK(s.propagate());
    CHECK(order == std::vector<int>{0, 1, 2, 0});
    CHECK(s.queued() == 0);
    CHECK(probe(s, staged).seen == std::vector<std::vector<int>>{{}, {7}});
    CHECK(probe(s, a).runs == 1);
    CHECK(probe(s, b).runs == 1);
    CHECK(s.propagations() == 4);
}

TEST_CASE_TEMPLATE("a failure empties the deferred queue too", S, STORES) {
    S s;
    const int staged =
        add_probe(s, [](S& st, Probe<S>&) { return st.queued() > 0 ? PropStatus::defer : PropStatus::fix; });
    add_probe(s);
    s.push_level();
    const int failing = add_probe(s, [](S&, Probe<S>&) { return PropStatus::failed; });
    CHECK_FALSE(s.propagate());
    CHECK(probe(s, staged).runs == 1);
    CHECK(probe(s, failing).runs == 1);
    // Nothing is left queued: a second propagate() runs nothing (and the
    // level is still failed).
    const auto runs = s.propagations();
    CHECK_FALSE(s.propagate());
    CHECK(s.propagations() == runs);
    CHECK(probe(s, staged).runs == 1);
}

TEST_CASE_TEMPLATE("updates made by a running propagator", S, STORES) {
    S s;
    const IntVar trigger = s.int_var(0, 5);
    const IntVar a = s.int_var(0, 20);
    const IntVar b = s.int_var(0, 20);
    // Subscribed untagged to the variable it prunes: its own removal must
    // not queue it again (were it requeued, it would run until a is fixed).
    const int self = add_probe(s, [a](S& st, Probe<S>&) {
        if (!st.domain(a).fixed()) CHECK(st.remove(a, st.domain(a).max()) != propane::Change::failed);
        return PropStatus::fix;
    });
    // Tagged: its own removal leaves a tag, so it runs once more.
    const int tagged = add_probe(s, [b](S& st, Probe<S>&) {
        CHECK(st.remove(b, 16) != propane::Change::failed);
        return PropStatus::fix;
    });
    const int watcher = add_probe(s);
    s.subscribe(trigger, self, Event::domain);
    s.subscribe(a, self, Event::domain);
    s.subscribe(b, tagged, Event::domain, 3);
    s.subscribe(a, watcher, Event::domain);
    CHECK(s.propagate());
    CHECK(probe(s, self).runs == 1);
    CHECK(s.domain(a).max() == 19);
    CHECK(probe(s, tagged).runs == 2);
    CHECK(probe(s, tagged).seen == std::vector<std::vector<int>>{{}, {3}});
    CHECK_FALSE(s.domain(b).contains(16));
    CHECK(probe(s, watcher).runs == 1);

    // Another propagator's update wakes the watcher.
    CHECK(s.remove(trigger, 0) != propane::Change::failed);
    CHECK(s.propagate());
    CHECK(probe(s, self).runs == 2);
    CHECK(s.domain(a).max() == 18);
    CHECK(probe(s, watcher).runs == 2);
}

TEST_CASE_TEMPLATE("propagation runs to a fixpoint", S, STORES) {
    S s;
    const std::vector<IntVar> xs = s.int_vars(6, 0, 9);
    // x[i] = x[i+1], one way, as a chain woken by fixing.
    for (std::size_t i = 0; i + 1 < xs.size(); ++i) {
        const IntVar from = xs[i], to = xs[i + 1];
        const int id = add_probe(s, [from, to](S& st, Probe<S>&) {
            if (!st.domain(from).fixed()) return PropStatus::fix;
            return st.assign(to, st.domain(from).value()) == Change::failed ? PropStatus::failed
                                                                                       : PropStatus::fix;
        });
        s.subscribe(from, id, Event::fixed);
    }
    CHECK(s.propagate());
    const std::uint64_t props = s.propagations();
    s.push_level();
    CHECK(s.assign(xs[0], 4) != propane::Change::failed);
    CHECK(s.propagate());
    for (const IntVar x : xs) CHECK(s.domain(x).value() == 4);
    CHECK(s.propagations() == props + xs.size() - 1);
    s.pop_level();

    s.push_level();
    CHECK(s.remove(xs.back(), 7) != propane::Change::failed);
    CHECK(s.assign(xs[0], 7) != propane::Change::failed);
    CHECK_FALSE(s.propagate());
    s.pop_level();
    int runs = 0;
    for (int id = 0; id < s.num_propagators(); ++id) runs += probe(s, id).runs;
    CHECK(s.propagations() == static_cast<std::uint64_t>(runs));
}

TEST_CASE_TEMPLATE("posting while propagators are queued keeps them all", S, STORES) {
    // The queue is a ring of one slot per propagator. Adding a propagator
    // while the queued ones wrap around the end of the ring must not lose
    // or duplicate any of them.
    S s;
    const std::vector<IntVar> v = s.int_vars(3, 0, 30);
    std::vector<int> ids;
    for (int k = 0; k < 3; ++k) {
        ids.push_back(add_probe(s));
        s.subscribe(v[static_cast<std::size_t>(k)], ids.back(), Event::domain, k);
    }
    CHECK(s.propagate());
    // Move the ring's head off slot 0.
    CHECK(s.remove(v[0], 1) != propane::Change::failed);
    CHECK(s.propagate());
    for (int k = 0; k < 3; ++k) CHECK(s.remove(v[static_cast<std::size_t>(k)], 2) != propane::Change::failed);
    const int late = add_probe(s);
    CHECK(s.propagate());
    CHECK(probe(s, ids[0]).runs == 3);
    CHECK(probe(s, ids[1]).runs == 2);
    CHECK(probe(s, ids[2]).runs == 2);
    CHECK(probe(s, late).runs == 1);
    // And every one can still be woken afterwards.
    for (int k = 0; k < 3; ++k) CHECK(s.remove(v[static_cast<std::size_t>(k)], 3) != propane::Change::failed);
    CHECK(s.propagate());
    CHECK(probe(s, ids[0]).runs == 4);
    CHECK(probe(s, ids[1]).runs == 3);
    CHECK(probe(s, ids[2]).runs == 3);
    CHECK(probe(s, ids[2]).seen.back() == std::vector<int>{2});
}

TEST_CASE_TEMPLATE("post hands the store to the constraint", S, STORES) {
    struct Watch {
        IntVar x;
        int post(S& s) const {
            s.check(x);
            const int id = add_probe(s);
            s.subscribe(x, id, Event::fixed, 9);
            return id;
        }
    };
    S s;
    const IntVar x = s.int_var(0, 3);
    const int id = s.post(Watch{x});
    CHECK(id == 0);
    CHECK(s.num_propagators() == 1);
    CHECK(s.propagate());
    CHECK(s.assign(x, 2) != propane::Change::failed);
    CHECK(s.propagate());
    CHECK(probe(s, id).seen.back() == std::vector<int>{9});
    S other;
    CHECK_THROWS_AS(other.post(Watch{x}), propane::model_error);
}

TEST_CASE_TEMPLATE("a copied store is independent of its original", S, STORES) {
    S s;
    const IntVar x = s.int_var(0, 120);
    const IntVar y = s.int_var(0, 120);
    const int cell = s.new_cell(11);
    // y < x, on x's bounds.
    const int less = add_probe(s, [x, y](S& st, Probe<S>&) {
        return st.remove_above(y, st.domain(x).max() - 1) == Change::failed ? PropStatus::failed
                                                                                      : PropStatus::fix;
    });
    s.subscribe(x, less, Event::bounds, 5);
    CHECK(s.propagate());
    CHECK(s.domain(y).max() == 119);
    const auto x0 = s.domain(x), y0 = s.domain(y);
    const std::uint64_t props0 = s.propagations();

    SUBCASE("copy construction") {
        S t = s;
        CHECK(t.remove_above(x, 100) != propane::Change::failed);
        t.set_cell(cell, 12);
        CHECK(t.propagate());
        CHECK(t.domain(y).max() == 99);
        CHECK(probe(t, less).runs == 2);
        CHECK(probe(t, less).seen.back() == std::vector<int>{5});
        CHECK(t.propagations() == props0 + 1);
        CHECK(s.domain(x) == x0);
        CHECK(s.domain(y) == y0);
        CHECK(s.cell(cell) == 11);
        CHECK(probe(s, less).runs == 1);
        CHECK(s.propagations() == props0);
        // And the other way round.
        CHECK(s.remove_above(x, 60) != propane::Change::failed);
        CHECK(s.propagate());
        CHECK(s.domain(y).max() == 59);
        CHECK(t.domain(x).max() == 100);
        CHECK(t.domain(y).max() == 99);
        CHECK(probe(t, less).runs == 2);
    }
    SUBCASE("copy assignment") {
        S t;
        t.int_var(5, 6);
        t = s;
        CHECK(t.num_vars() == 2);
        CHECK(t.remove_above(x, 100) != propane::Change::failed);
        CHECK(t.propagate());
        CHECK(t.domain(y).max() == 99);
        CHECK(s.domain(y) == y0);
        CHECK(probe(s, less).runs == 1);
        const S& same = t;
        t = same; // self-assignment keeps everything
        CHECK(t.domain(y).max() == 99);
        CHECK(probe(t, less).runs == 2);
    }
    SUBCASE("queue and trail are copied, then go their own ways") {
        s.push_level();
        CHECK(s.remove_above(x, 80) != propane::Change::failed); // queues `less` in s
        s.set_cell(cell, 13);
        S t = s;
        CHECK(t.propagate());
        CHECK(t.domain(y).max() == 79);
        CHECK(probe(t, less).seen.back() == std::vector<int>{5}); // the tag came along
        CHECK(s.domain(y) == y0); // s has not propagated yet
        t.pop_level();
        CHECK(t.domain(x) == x0);
        CHECK(t.domain(y) == y0);
        CHECK(t.cell(cell) == 11);
        CHECK(s.domain(x).max() == 80);
        CHECK(s.cell(cell) == 13);
        CHECK(s.propagate());
        CHECK(probe(s, less).runs == 2);
        CHECK(s.domain(y).max() == 79);
        s.pop_level();
        CHECK(s.domain(x) == x0);
        CHECK(s.domain(y) == y0);
        CHECK(s.cell(cell) == 11);
    }
    SUBCASE("a moved store keeps its propagators") {
        S t = std::move(s);
        CHECK(t.remove_above(x, 50) != propane::Change::failed);
        CHECK(t.propagate());
        CHECK(t.domain(y).max() == 49);
        CHECK(probe(t, less).runs == 2);
    }
}

TEST_CASE_TEMPLATE("bool_var and bool_vars make variables over {0, 1}; 1 - b is the negation", D, propane::BitDomain<1>,
                   propane::BitDomain<propane::dynamic>) {
    propane::Store<D> s;
    const propane::IntVar b = s.bool_var();
    CHECK(s.domain(b).min() == 0);
    CHECK(s.domain(b).max() == 1);
    CHECK(s.domain(b).size() == 2);
    const std::vector<propane::IntVar> bs = s.bool_vars(3);
    REQUIRE(bs.size() == 3);
    for (const propane::IntVar& x : bs) {
        CHECK(s.owns(x));
        CHECK(s.domain(x).size() == 2);
        CHECK(x.lo() == 0);
        CHECK(x.hi() == 1);
    }
    CHECK(s.bool_vars(0).empty());
    CHECK_THROWS_WITH_AS(s.bool_vars(-1), doctest::Contains("bool_vars"), propane::model_error);
    const propane::AffineView not_b = 1 - b;
    CHECK(not_b.min(s) == 0);
    CHECK(not_b.max(s) == 1);
    CHECK(not_b.assign(s, 1) == propane::Change::fixed);
    CHECK(s.domain(b).value() == 0);
}

TEST_CASE("var(i) is the handle of the i-th variable, accepted in the store and in its copies") {
    propane::Store<propane::BitDomain<1>> s;
    const auto x = s.int_var(0, 3), y = s.int_var(2, 5);
    CHECK(s.var(0).same(x));
    CHECK(s.var(1).same(y));
    CHECK(s.var(1).lo() == 2);
    CHECK_NOTHROW(s.check(s.var(1)));
    CHECK_THROWS_AS(s.var(2), propane::model_error);
    CHECK_THROWS_AS(s.var(-1), propane::model_error);
    propane::Store<propane::BitDomain<1>> copy = s;
    const auto z = copy.int_var(0, 1);
    CHECK(copy.var(2).same(z));
    CHECK_NOTHROW(copy.check(copy.var(0)));
    CHECK_NOTHROW(copy.check(copy.var(2)));
    // Not in a sibling made from the same original after the copy.
    propane::Store<propane::BitDomain<1>> sibling = s;
    sibling.int_var(0, 1);
    CHECK_THROWS_AS(sibling.check(copy.var(2)), propane::model_error);
    CHECK_THROWS_AS(s.check(copy.var(2)), propane::model_error);
}

TEST_CASE_TEMPLATE("variables are made at level 0 only", S, STORES) {
    S s;
    const IntVar x = s.int_var(0, 3);
    s.push_level();
    // pop_level could not take a variable back without leaving its handle
    // dangling, and a search deciding every variable would enumerate it.
    CHECK_THROWS_WITH_AS(s.int_var(0, 1), doctest::Contains("level 0"), propane::model_error);
    CHECK_THROWS_AS(s.bool_var(), propane::model_error);
    CHECK_THROWS_AS(s.int_vars(2, 0, 1), propane::model_error);
    CHECK(s.num_vars() == 1);
    s.pop_level();
    const IntVar y = s.int_var(0, 1);
    CHECK(s.num_vars() == 2);
    CHECK_NOTHROW(s.check(x));
    CHECK_NOTHROW(s.check(y));
}

// ---- representations -----------------------------------------------------

TEST_CASE("int_var with a representation: a fixed-width store refuses the interval form") {
    propane::Store<propane::BitDomain<1>> s;
    const IntVar a = s.int_var(0, 9, propane::Representation::bitset);
    const IntVar b = s.int_var(0, 9, propane::Representation::automatic);
    std::string what = "no exception";
    try {
        s.int_var(0, 9, propane::Representation::interval);
    } catch (const propane::model_error& e) {
        what = e.what();
    }
    CAPTURE(what);
    CHECK(what.find("0..9") != std::string::npos);
    CHECK(what.find("interval") != std::string::npos);
    CHECK(what.find("BitDomain<dynamic>") != std::string::npos);
    // Refused whole: the store goes on as if it had not been asked.
    CHECK(s.num_vars() == 2);
    const IntVar c = s.int_var(0, 9);
    CHECK(c.index() == 2);
    CHECK(s.remove(c, 3) == Change::domain);
    CHECK(s.domain(a).size() == 10);
    CHECK(s.domain(b).size() == 10);
    CHECK(s.domain(c).representation() == propane::Representation::bitset);
}

TEST_CASE("int_var in a dynamic store: the widest ranges are intervals, all of int is refused") {
    using D = propane::BitDomain<propane::dynamic>;
    propane::Store<D> s;
    const IntVar wide = s.int_var(-2'000'000'000, 2'000'000'000);
    CHECK(s.domain(wide).representation() == propane::Representation::interval);
    CHECK(s.domain(wide).size() == 4'000'000'001U);
    CHECK(s.domain(wide).min() == -2'000'000'000);
    CHECK(s.domain(wide).max() == 2'000'000'000);
    const IntVar at_limit = s.int_var(0, 65535), above = s.int_var(0, 65536);
    const IntVar asked_bits = s.int_var(0, 65536, propane::Representation::bitset);
    const IntVar asked_interval = s.int_var(0, 3, propane::Representation::interval);
    CHECK(s.domain(at_limit).representation() == propane::Representation::bitset);
    CHECK(s.domain(above).representation() == propane::Representation::interval);
    CHECK(s.domain(asked_bits).representation() == propane::Representation::bitset);
    CHECK(s.domain(asked_interval).representation() == propane::Representation::interval);
    CHECK(s.num_vars() == 5);

    // 2^32 values, in any form: refused, naming the count, and the store
    // goes on.
    for (const auto r : {propane::Representation::automatic, propane::Representation::interval,
                         propane::Representation::bitset}) {
        std::string what = "no exception";
        try {
            s.int_var(std::numeric_limits<int>::min(), std::numeric_limits<int>::max(), r);
        } catch (const propane::model_error& e) {
            what = e.what();
        }
        CAPTURE(what);
        CHECK(what.find("4294967296") != std::string::npos);
    }
    CHECK(s.num_vars() == 5);
    const IntVar last = s.int_var(std::numeric_limits<int>::min() + 1, std::numeric_limits<int>::max());
    CHECK(last.index() == 5);
    CHECK(s.domain(last).size() == std::numeric_limits<std::uint32_t>::max());

    // Updates and levels on the widest.
    s.push_level();
    CHECK(s.remove(wide, 0) == Change::domain);
    CHECK(s.remove_range(wide, 10, 1'000'000'000) == Change::domain);
    CHECK(s.remove_below(wide, -1'999'999'999) == Change::bounds);
    CHECK(s.domain(wide).size() == 4'000'000'001U - 1 - 999'999'991 - 1);
    CHECK(s.domain(wide).holes().size() == 2);
    s.pop_level();
    CHECK(s.domain(wide).size() == 4'000'000'001U);
    CHECK(s.domain(wide).holes().empty());
}

TEST_CASE("an interval variable wakes the same subscribers as a bitset one") {
    // Twins over one range, one in each form, take the same updates: each
    // must report the same change and wake its subscribers alike.
    using S = propane::Store<propane::BitDomain<propane::dynamic>>;
    std::mt19937 rng(3);
    S s;
    const IntVar bits = s.int_var(-20, 180, propane::Representation::bitset);
    const IntVar ivl = s.int_var(-20, 180, propane::Representation::interval);
    std::array<int, 2> on_domain{}, on_bounds{}, on_fixed{}, on_min{}, on_max{};
    const IntVar twins[] = {bits, ivl};
    for (std::size_t k = 0; k < 2; ++k) {
        on_domain[k] = add_probe(s);
        on_bounds[k] = add_probe(s);
        on_fixed[k] = add_probe(s);
        on_min[k] = add_probe(s);
        on_max[k] = add_probe(s);
        s.subscribe(twins[k], on_domain[k], Event::domain, 1);
        s.subscribe(twins[k], on_bounds[k], Event::bounds, 2);
        s.subscribe(twins[k], on_fixed[k], Event::fixed, 3);
        s.subscribe(twins[k], on_min[k], Event::min);
        s.subscribe(twins[k], on_max[k], Event::max);
    }
    CHECK(s.propagate());
    s.push_level();
    std::map<Change, int> seen;
    for (int step = 0; step < 1500; ++step) {
        CAPTURE(step);
        const Ref now = contents(s, bits);
        const int v = std::uniform_int_distribution<int>(*now.begin() - 2, *now.rbegin() + 2)(rng);
        const int w = v + std::uniform_int_distribution<int>(-3, 12)(rng);
        const int kind = std::uniform_int_distribution<int>(0, 8)(rng);
        std::array<Change, 2> got{};
        std::array<std::array<int, 5>, 2> runs_before{};
        const auto runs = [&](std::size_t k) {
            return std::array<int, 5>{probe(s, on_domain[k]).runs, probe(s, on_bounds[k]).runs,
                                      probe(s, on_fixed[k]).runs, probe(s, on_min[k]).runs, probe(s, on_max[k]).runs};
        };
        for (std::size_t k = 0; k < 2; ++k) {
            runs_before[k] = runs(k);
            const IntVar x = twins[k];
            switch (kind) {
            case 0:
            case 1: got[k] = s.remove(x, v); break;
            case 2: got[k] = s.remove_below(x, v); break;
            case 3: got[k] = s.remove_above(x, v); break;
            case 4: got[k] = s.remove_range(x, v, w); break;
            case 5: got[k] = x.keep_between(s, std::min(v, w), std::max(v, w)); break;
            case 6: got[k] = x.remove_bits(s, v, 0x5555'0000'ffff'0f0fU); break;
            case 7: got[k] = s.assign(x, v); break;
            default: got[k] = s.remove(x, w);
            }
        }
        // Each probe listens to one twin: one propagation wakes each
        // twin's own.
        const bool ok = s.propagate();
        CHECK(ok == (got[0] != Change::failed));
        CHECK(str(got[1]) == str(got[0]));
        ++seen[got[0]];
        // Each twin's probes ran as often, with the same tags.
        const auto after_ivl = runs(1), after_bits = runs(0);
        for (std::size_t j = 0; j < 5; ++j) CHECK(after_ivl[j] - runs_before[1][j] == after_bits[j] - runs_before[0][j]);
        CHECK(probe(s, on_domain[1]).seen.back() == probe(s, on_domain[0]).seen.back());
        CHECK(contents(s, ivl) == contents(s, bits));
        if (!ok || s.domain(bits).fixed()) {
            s.pop_level();
            s.push_level();
        }
    }
    for (Change c : {Change::none, Change::domain, Change::bounds, Change::fixed, Change::failed})
        CHECK(seen[c] > 0);
}

TEST_CASE("a copied store keeps its interval domains and their trail") {
    using D = propane::BitDomain<propane::dynamic>;
    propane::Store<D> s;
    const IntVar x = s.int_var(0, 999'999'999);
    const IntVar y = s.int_var(-100, 100);
    REQUIRE(s.domain(x).interval());
    CHECK(s.remove(x, 500) == Change::domain);
    const D x0 = s.domain(x), y0 = s.domain(y);
    s.push_level();
    CHECK(s.remove(x, 700) == Change::domain);
    CHECK(s.remove(y, 0) == Change::domain);
    const D x1 = s.domain(x);
    s.push_level();
    CHECK(s.remove(x, 501) == Change::domain); // grows the level-0 hole
    CHECK(s.remove_range(x, 600, 699) == Change::domain);
    const D x2 = s.domain(x);
    CHECK(s.domain(x).holes().size() == 2);

    propane::Store<D> t = s;
    // The copy changes its own holes only...
    CHECK(t.remove(x, 502) == Change::domain);
    CHECK(t.remove_below(x, 10) == Change::bounds);
    CHECK(s.domain(x) == x2);
    // ...and undoes its levels, the original's entries copied with them.
    t.pop_level();
    CHECK(t.domain(x) == x1);
    CHECK(t.domain(x).size() == x1.size());
    t.pop_to(0);
    CHECK(t.domain(x) == x0);
    CHECK(t.domain(y) == y0);
    // The original still has its two levels to undo.
    CHECK(s.domain(x) == x2);
    s.pop_to(0);
    CHECK(s.domain(x) == x0);
    CHECK(s.domain(x).holes().size() == 1);
    CHECK(s.domain(y) == y0);
}
