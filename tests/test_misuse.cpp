// The rules of use (README, "Rules of use"), one repro per way of breaking
// them: each either gives the right answer or a clear model_error, and none
// may corrupt memory (the sanitizer stage runs this file too).

#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

#include <propane/propane.hpp>

#include "support.hpp"

#include "instances.hpp"

using propane::Change;
using propane::IntVar;
using propane::model_error;

namespace {

using S = propane::Store<propane::BitDomain<1>>;

// Every solution of `xs` by search, as value tuples.
std::vector<std::vector<int>> all_solutions(S& s, const std::vector<IntVar>& xs) {
    std::vector<std::vector<int>> out;
    propane::solve(s, xs, [&](const auto& sol) {
        std::vector<int> row;
        for (std::size_t i = 0; i < sol.size(); ++i) row.push_back(sol[i]);
        out.push_back(row);
    });
    return out;
}

bool all_distinct(const std::vector<int>& row, std::size_t a, std::size_t b) { return row[a] != row[b]; }

template <class Store>
std::uint64_t all_solutions_of(Store& s, IntVar x) {
    return propane::solve(s, std::vector{x}, [](const auto&) {}).solutions;
}

} // namespace

TEST_CASE_TEMPLATE("a failed update fails the store: no solution is reported", D, propane::BitDomain<1>,
                   propane::BitDomain<2>, propane::BitDomain<propane::dynamic>) {
    using Store = propane::Store<D>;
    SUBCASE("remove_below past the maximum, at level 0") {
        Store s;
        const IntVar x = s.int_var(1, 9);
        CHECK(s.remove_below(x, 10) == Change::failed);
        CHECK(s.domain(x).size() == 9); // the domain itself is never emptied
        CHECK(s.failed());
        CHECK_FALSE(s.propagate());
        std::uint64_t seen = 0;
        const auto st = propane::solve(s, std::vector{x}, [&](const auto&) { ++seen; });
        CHECK(seen == 0);
        CHECK(st.solutions == 0);
        CHECK(st.outcome == propane::Outcome::complete);
        // For good: a level pushed and popped on top does not clear it.
        s.push_level();
        s.pop_level();
        CHECK(s.failed());
        CHECK_FALSE(s.propagate());
    }
    SUBCASE("a second assign to another value") {
        Store s;
        const IntVar x = s.int_var(1, 9);
        const IntVar y = s.int_var(1, 9);
        CHECK(s.assign(x, 3) == Change::fixed);
        CHECK_FALSE(s.failed());
        CHECK(s.assign(x, 4) == Change::failed);
        CHECK(s.failed());
        std::uint64_t seen = 0;
        propane::solve(s, std::vector{x, y}, [&](const auto&) { ++seen; });
        CHECK(seen == 0);
    }
    SUBCASE("inside a level, popping the level undoes the failure") {
        Store s;
        const IntVar x = s.int_var(1, 9);
        s.push_level();
        CHECK(s.remove_above(x, 0) == Change::failed);
        CHECK(s.failed());
        CHECK_FALSE(s.propagate());
        s.push_level(); // deeper levels inherit it
        CHECK(s.failed());
        s.pop_level();
        CHECK(s.failed());
        s.pop_level();
        CHECK_FALSE(s.failed());
        CHECK(s.propagate());
        std::uint64_t seen = 0;
        propane::solve(s, std::vector{x}, [&](const auto&) { ++seen; });
        CHECK(seen == 9);
    }
}

TEST_CASE("a propagator that ignores its own failed update still fails propagate()") {
    S s;
    const IntVar x = s.int_var(0, 3);
    // Asks for a value x cannot take, and claims a fixpoint regardless.
    struct Sloppy : propane::PropagatorBase<S, Sloppy> {
        IntVar x;
        explicit Sloppy(IntVar v) : x(v) {}
        propane::PropStatus propagate(S& st) override {
            if (x.remove_below(st, 7) == Change::failed) ++failed_updates;
            return propane::PropStatus::fix;
        }
        int failed_updates = 0;
    };
    const int id = s.add_propagator(std::make_unique<Sloppy>(x));
    s.subscribe(x, id, propane::Event::domain);
    CHECK_FALSE(s.propagate());
    CHECK(static_cast<Sloppy&>(s.propagator(id)).failed_updates == 1);
    std::uint64_t seen = 0;
    propane::solve(s, std::vector{x}, [&](const auto&) { ++seen; });
    CHECK(seen == 0);
}

TEST_CASE("posting while a search runs is refused; the search goes on unharmed") {
    S s;
    const auto x = s.int_vars(3, 0, 1);
    SUBCASE("pull API: post after the first next()") {
        propane::Search search(s, x);
        REQUIRE(search.next());
        CHECK_THROWS_AS(s.post(propane::all_different(std::vector{x[0], x[1]}, propane::domain)), model_error);
        CHECK_THROWS_AS(s.push_level(), model_error);
        CHECK_THROWS_AS(s.pop_level(), model_error);
        CHECK_THROWS_AS(s.pop_to(0), model_error);
        std::uint64_t count = 1;
        while (search.next()) ++count;
        CHECK(count == 8); // unconstrained: 2^3
        CHECK(s.level() == 0);
        CHECK(s.num_propagators() == 0);
    }
    SUBCASE("from inside a solve visitor") {
        std::uint64_t seen = 0;
        CHECK_THROWS_AS(propane::solve(s, x,
                                       [&](const auto&) {
                                           ++seen;
                                           s.post(propane::all_different(std::vector{x[0], x[1]}));
                                       }),
                        model_error);
        CHECK(seen == 1);
        // The search has ended and the store is back at its root, unchanged.
        CHECK(s.level() == 0);
        CHECK(s.num_propagators() == 0);
        CHECK(all_solutions(s, x).size() == 8);
    }
    SUBCASE("after the search ends, posting works again") {
        {
            propane::Search search(s, x);
            REQUIRE(search.next());
            search.stop();
            s.post(propane::all_different(std::vector{x[0], x[1]}, propane::domain));
        }
        const auto sols = all_solutions(s, x);
        CHECK(sols.size() == 4);
        for (const auto& row : sols) CHECK(all_distinct(row, 0, 1));
    }
}

TEST_CASE("a constraint posted inside a level holds until the level is popped") {
    S s;
    const auto x = s.int_vars(3, 0, 1);
    // The repro: posted inside a level whose pop used to drop its first run
    // while the constraint stayed, never enforced.
    s.push_level();
    s.post(propane::all_different(std::vector{x[0], x[1]}, propane::domain));
    CHECK(s.num_propagators() == 1);
    CHECK(s.propagate());
    CHECK(s.assign(x[0], 0) == Change::fixed);
    CHECK(s.propagate());
    CHECK(s.domain(x[1]).fixed());
    CHECK(s.domain(x[1]).value() == 1);
    s.pop_level();
    CHECK(s.num_propagators() == 0);
    CHECK(s.propagate());
    CHECK(all_solutions(s, x).size() == 8);

    // While the level stands, a search inside it sees the constraint.
    s.push_level();
    s.post(propane::all_different(std::vector{x[1], x[2]}, propane::value));
    const auto sols = all_solutions(s, x);
    CHECK(sols.size() == 4);
    for (const auto& row : sols) CHECK(all_distinct(row, 1, 2));
    s.pop_level();
    CHECK(s.num_propagators() == 0);

    // A constraint of the model, posted at level 0, is untouched by the
    // scoped ones around it.
    s.post(propane::all_different(std::vector{x[0], x[2]}, propane::bounds));
    s.push_level();
    s.post(propane::all_different(std::vector{x[0], x[1]}, propane::bounds));
    s.push_level();
    s.post(propane::all_different(x, propane::bounds));
    CHECK(s.num_propagators() == 3);
    CHECK_FALSE(s.propagate()); // three different 0/1 variables
    s.pop_level();
    CHECK(s.num_propagators() == 2);
    CHECK(s.propagate());
    s.pop_level();
    CHECK(s.num_propagators() == 1);
    const auto left = all_solutions(s, x);
    CHECK(left.size() == 4);
    for (const auto& row : left) CHECK(all_distinct(row, 0, 2));
}

TEST_CASE("pop_level at level 0 and pop_to outside 0..level() are refused") {
    S s;
    const IntVar x = s.int_var(0, 5);
    CHECK_THROWS_AS(s.pop_level(), model_error);
    s.push_level();
    CHECK(s.remove(x, 2) == Change::domain);
    CHECK_THROWS_AS(s.pop_to(2), model_error);
    CHECK_THROWS_AS(s.pop_to(-1), model_error);
    s.pop_to(0);
    CHECK(s.level() == 0);
    CHECK(s.domain(x).size() == 6);
    CHECK_THROWS_AS(s.pop_level(), model_error);
}

TEST_CASE("a handle from another store, or a default one, is refused at every checked entry point") {
    S a, b;
    const IntVar ax = a.int_var(0, 9);
    const IntVar ay = a.int_var(0, 9);
    const IntVar bx = b.int_var(0, 9); // same index and bounds as ax
    REQUIRE(bx.index() == ax.index());
    CHECK_FALSE(bx.same(ax));
    CHECK_THROWS_AS(a.check(bx), model_error);
    CHECK_FALSE(a.owns(bx));
    CHECK(a.owns(ax));
    CHECK_THROWS_AS(a.post(propane::all_different(std::vector{bx, ay})), model_error);
    CHECK_THROWS_AS(static_cast<void>(a.remove(bx, 3)), model_error);
    CHECK_THROWS_AS(static_cast<void>(a.remove_below(bx, 3)), model_error);
    CHECK_THROWS_AS(static_cast<void>(a.remove_above(bx, 3)), model_error);
    CHECK_THROWS_AS(static_cast<void>(a.assign(bx, 3)), model_error);
    CHECK_THROWS_AS(a.domain(bx), model_error);
    CHECK_THROWS_AS(propane::Search(a, std::vector{ax, bx}), model_error);
    CHECK_THROWS_AS(propane::solve(a, std::vector{bx}, [](const auto&) {}), model_error);
    CHECK_THROWS_AS(a.post(propane::all_different(std::vector{IntVar{}, ay})), model_error);
    CHECK_THROWS_AS(static_cast<void>(a.remove(IntVar{}, 3)), model_error);
    CHECK_THROWS_AS(a.domain(IntVar{}), model_error);
    CHECK_THROWS_AS(a.check(IntVar(0, 0, 9)), model_error); // built from numbers
    // Nothing was changed by the refused calls.
    CHECK(a.domain(ax).size() == 10);
    CHECK(a.num_propagators() == 0);
    CHECK_FALSE(a.failed());

    // The repro: with the foreign handle accepted, x != y became y != y.
    const auto bad = [&] { a.post(propane::all_different(std::vector{bx, ay}, propane::domain)); };
    CHECK_THROWS_WITH_AS(bad(), doctest::Contains("another store"), model_error);
}

TEST_CASE("handles work in copies of their store, and after a move") {
    S s;
    const auto x = s.int_vars(3, 0, 2);
    S copy = s;
    CHECK_NOTHROW(copy.check(x[0]));
    copy.post(propane::all_different(x, propane::domain));
    CHECK(all_solutions(copy, x).size() == 6);
    CHECK(all_solutions(s, x).size() == 27); // the original is untouched
    S moved = std::move(copy);
    CHECK_NOTHROW(moved.check(x[2]));
    CHECK(all_solutions(moved, x).size() == 6);
    // A variable made by a copy belongs to the shared model, and a fresh
    // store is another model.
    const IntVar z = moved.int_var(0, 1);
    S other;
    CHECK_THROWS_AS(other.check(z), model_error);
}

TEST_CASE("a handle works in its store and in copies made after it, nowhere else: not in a sibling copy") {
    S base;
    const IntVar x = base.int_var(0, 9);
    S a = base;
    S b = base;
    const IntVar ya = a.int_var(0, 9);
    const IntVar yb = b.int_var(0, 9); // the same index, bounds and origin as ya
    REQUIRE(ya.index() == yb.index());
    // The repro: b took a's handle as its own, and x != y became yb != yb
    // (no solution where there are 90).
    CHECK_THROWS_WITH_AS(b.post(propane::all_different(std::vector{ya, yb})), doctest::Contains("another store"),
                         model_error);
    CHECK_THROWS_AS(propane::solve(b, std::vector{ya}, [](const auto&) {}), model_error);
    CHECK_THROWS_AS(a.check(yb), model_error);
    CHECK_THROWS_AS(base.check(ya), model_error); // made after the copy: the original never had it
    CHECK(b.num_propagators() == 0);
    // What each store does have is accepted.
    CHECK(a.owns(x));
    CHECK(b.owns(x));
    CHECK(b.owns(yb));
    b.post(propane::all_different(std::vector{x, yb}));
    CHECK(all_solutions(b, std::vector{x, yb}).size() == 90);

    // A variable the original makes after the copy is not the copy's,
    // though the copy's own next variable has its index and bounds.
    const IntVar zb = base.int_var(0, 9);
    REQUIRE(zb.index() == ya.index());
    CHECK_THROWS_AS(a.check(zb), model_error);
    CHECK(base.owns(zb));

    // Copies of copies inherit every handle their source had, and only those.
    S aa = a;
    CHECK(aa.owns(x));
    CHECK(aa.owns(ya));
    CHECK_FALSE(aa.owns(yb));
    CHECK_FALSE(aa.owns(zb));
    const IntVar w = a.int_var(0, 1); // after aa was made
    CHECK_FALSE(aa.owns(w));
    const IntVar wa = aa.int_var(0, 1);
    CHECK_FALSE(a.owns(wa));
    S aaa = aa;
    CHECK(aaa.owns(x));
    CHECK(aaa.owns(ya));
    CHECK(aaa.owns(wa));
    CHECK_FALSE(aaa.owns(w));

    // Assigned a copy, a store takes the copied store's handles, and
    // gives up its own.
    a = b;
    CHECK(a.owns(yb));
    CHECK_FALSE(a.owns(ya));
    CHECK(a.owns(x));
    // A move hands the store's handles over with it.
    S moved = std::move(aa);
    CHECK(moved.owns(wa));
    CHECK(moved.owns(ya));
}

TEST_CASE_TEMPLATE("a failed update through a view fails the store, as one on the variable does", D,
                   propane::BitDomain<1>, propane::BitDomain<2>, propane::BitDomain<propane::dynamic>) {
    using Store = propane::Store<D>;
    constexpr int int_max = std::numeric_limits<int>::max();
    constexpr int int_min = std::numeric_limits<int>::min();
    // Each refuses in the view, before any domain is touched: a value the
    // view cannot take (2*x is never 3, x + 1 never 0 for x in 0..5), or a
    // bound beyond int once mapped back to x.
    const std::vector<std::pair<const char*, Change (*)(Store&, IntVar)>> updates{
        {"(2*x).assign(3)", [](Store& s, IntVar x) { return (2 * x).assign(s, 3); }},
        {"(2*x).keep_between(3, 3)", [](Store& s, IntVar x) { return (2 * x).keep_between(s, 3, 3); }},
        {"(x - 10).remove_below(INT_MAX)", [](Store& s, IntVar x) { return (x - 10).remove_below(s, int_max); }},
        {"(x + 1).assign(0)", [](Store& s, IntVar x) { return (x + 1).assign(s, 0); }},
        {"(x + 10).remove_above(INT_MIN)", [](Store& s, IntVar x) { return (x + 10).remove_above(s, int_min); }},
        {"(x + 1).keep_between(7, 9)", [](Store& s, IntVar x) { return (x + 1).keep_between(s, 7, 9); }},
        {"(-x).remove_below(1)", [](Store& s, IntVar x) { return (-x).remove_below(s, 1); }},
        {"(-3*x + 1).remove_above(-16)", [](Store& s, IntVar x) { return (-3 * x + 1).remove_above(s, -16); }},
        {"(2*x).remove_bits(0, all)", [](Store& s, IntVar x) { return (2 * x).remove_bits(s, 0, ~std::uint64_t{0}); }},
    };
    for (const auto& entry : updates) {
        // Named, not a structured binding: Clang 14 cannot capture one in
        // CAPTURE's lambda.
        const char* const name = entry.first;
        const auto update = entry.second;
        CAPTURE(name);
        Store s;
        const IntVar x = s.int_var(0, 5);
        CHECK(update(s, x) == Change::failed);
        CHECK(s.domain(x).size() == 6); // the domain is left whole, as a failed update leaves it
        CHECK(s.failed());
        CHECK_FALSE(s.propagate());
        std::uint64_t seen = 0;
        const auto st = propane::solve(s, std::vector{x}, [&](const auto&) { ++seen; });
        CHECK(seen == 0);
        CHECK(st.solutions == 0);
        // Inside a level it lasts until the level is popped, as any failure.
        Store t;
        const IntVar y = t.int_var(0, 5);
        t.push_level();
        CHECK(update(t, y) == Change::failed);
        CHECK(t.failed());
        t.pop_level();
        CHECK_FALSE(t.failed());
        CHECK(all_solutions_of(t, y) == 6);
    }
}

TEST_CASE("each constraint names itself when it refuses another store's handle; view overflow names the constant") {
    S a, b;
    const auto xa = a.int_vars(2, 0, 3);
    const IntVar xb = b.int_var(0, 3);
    CHECK_THROWS_WITH_AS(a.post(propane::all_different(std::vector{xa[0], xb})),
                         doctest::Contains("all_different:"), model_error);
    const IntVar w = a.int_var(-5, -1);
    // The offset itself leaves int, whatever w's values.
    CHECK_THROWS_WITH_AS(static_cast<void>(w - std::numeric_limits<int>::min()),
                         doctest::Contains("offset view x - c overflows int: its offset would be 2147483648"),
                         model_error);
    const IntVar zero = a.int_var(0, 0);
    const propane::AffineView scaled = std::numeric_limits<int>::min() * zero; // only the value 0
    CHECK_THROWS_WITH_AS(static_cast<void>(-scaled), doctest::Contains("its coefficient would be 2147483648"),
                         model_error);
    // Where the constants fit and the values do not, the values are named.
    CHECK_THROWS_WITH_AS(static_cast<void>(w + std::numeric_limits<int>::min()),
                         doctest::Contains("its values span"), model_error);
}

TEST_CASE("a search whose store is destroyed, moved or assigned over throws instead of touching it") {
    SUBCASE("destroyed") {
        auto s = std::make_unique<S>();
        const auto x = s->int_vars(4, 0, 3);
        s->post(propane::all_different(x));
        propane::Search search(*s, x);
        REQUIRE(search.next());
        s.reset();
        CHECK_THROWS_AS(search.next(), model_error);
        CHECK_THROWS_AS(search.next(), model_error);
        search.stop();
        // ~Search runs here with the store gone: ASan checks it reads nothing.
    }
    SUBCASE("moved from, mid-search") {
        S s;
        const auto x = s.int_vars(4, 0, 3);
        s.post(propane::all_different(x));
        propane::Search search(s, x);
        REQUIRE(search.next());
        S t = std::move(s);
        CHECK_THROWS_AS(search.next(), model_error);
        // The moved-to store holds the search's node; nothing runs on it any
        // more, so its levels are the caller's to pop.
        t.pop_to(0);
        CHECK(all_solutions(t, x).size() == 24);
    }
    SUBCASE("assigned over, mid-search") {
        S s;
        const auto x = s.int_vars(4, 0, 3);
        const S fresh = s;
        propane::Search search(s, x);
        REQUIRE(search.next());
        s = fresh;
        CHECK_THROWS_AS(search.next(), model_error);
        CHECK(s.level() == 0);
        CHECK(all_solutions(s, x).size() == 256);
    }
    SUBCASE("destroyed before a search that never ran") {
        auto s = std::make_unique<S>();
        const auto x = s->int_vars(2, 0, 1);
        propane::Search search(*s, x);
        s.reset();
        CHECK_THROWS_AS(search.next(), model_error);
    }
}

TEST_CASE("one search runs on a store at a time; they may run one after the other") {
    S s;
    const auto x = s.int_vars(3, 0, 2);
    s.post(propane::all_different(x));
    propane::Search a(s, x);
    propane::Search b(s, x);
    REQUIRE(a.next());
    CHECK_THROWS_AS(b.next(), model_error);
    // a is unharmed by b's refused start.
    std::uint64_t count = 1;
    while (a.next()) ++count;
    CHECK(count == 6);
    // Now b may run, from the root.
    count = 0;
    while (b.next()) ++count;
    CHECK(count == 6);
    // A search nested in another's visitor is the same mistake.
    CHECK_THROWS_AS(propane::solve(s, x, [&](const auto&) { propane::solve(s, x, [](const auto&) {}); }),
                    model_error);
    CHECK(s.level() == 0);
    // A copy of the store is another store: a search may run on it from a
    // visitor.
    std::uint64_t inner = 0;
    propane::solve(s, x, [&](const auto&) {
        S copy = s;
        copy.pop_to(0);
        propane::solve(copy, x, [&](const auto&) { ++inner; });
        return propane::stop;
    });
    CHECK(inner == 6);
}

TEST_CASE_TEMPLATE("64-bit arguments are safe over their whole range", D, propane::BitDomain<1>,
                   propane::BitDomain<2>, propane::BitDomain<propane::dynamic>) {
    using Store = propane::Store<D>;
    constexpr std::int64_t lo64 = std::numeric_limits<std::int64_t>::min();
    constexpr std::int64_t hi64 = std::numeric_limits<std::int64_t>::max();
    for (const int base : {-100, -1, 0, 5, 1'000'000}) {
        CAPTURE(base);
        Store s;
        const IntVar x = s.int_var(base, base + 40);
        for (const std::int64_t v : {lo64, lo64 + 1, std::int64_t{-1} << 40, hi64 - 1, hi64}) {
            CAPTURE(v);
            CHECK_FALSE(x.contains(s, v));
            CHECK(x.remove(s, v) == Change::none);
            CHECK(s.remove(x, v) == Change::none);
            CHECK(x.bits(s, v) == 0);
        }
        CHECK(x.next(s, lo64) == base);
        CHECK(x.prev(s, hi64) == base + 40);
        // Outside their precondition next and prev stay inside the domain.
        CHECK(s.domain(x).contains(x.next(s, hi64)));
        CHECK(s.domain(x).contains(x.prev(s, lo64)));
        CHECK(s.domain(x).size() == 41);
        CHECK_FALSE(s.failed());
    }
}

TEST_CASE("a progress period of nanoseconds::max() means never, without overflow") {
    S s;
    const auto x = s.int_vars(6, 0, 5);
    s.post(propane::all_different(x));
    propane::Search search(s, x, propane::Strategy{}, propane::Limits{.time = std::chrono::hours(1)});
    int calls = 0;
    search.on_progress([&](const auto&) { ++calls; }, std::chrono::nanoseconds::max());
    std::uint64_t count = 0;
    while (search.next()) ++count;
    CHECK(count == 720);
    CHECK(calls == 0);
}
