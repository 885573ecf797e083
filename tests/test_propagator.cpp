// PropagatorBase: clone() must be a deep, independent copy of the dynamic
// type (a copied store relies on it), and pending() belongs to each
// propagator alone.

#include <doctest/doctest.h>

#include "support.hpp"

#include <propane/engine/domain.hpp>
#include <propane/engine/propagator.hpp>
#include <propane/engine/store.hpp>

#include <cstddef>
#include <memory>
#include <typeinfo>
#include <vector>

#include "instances_store.hpp"

namespace {

using S = propane::Store<propane::BitDomain<1>>;
using propane::PropStatus;

// Keeps state of its own (a counter and a growing history) and prunes the
// store it is run on, so a clone's work can be told apart from the original's.
class Counter : public propane::PropagatorBase<S, Counter> {
public:
    explicit Counter(propane::IntVar var) : var_(var) {}

    PropStatus propagate(S& s) override {
        ++runs;
        history.push_back(s.domain(var_).max());
        return s.remove_above(var_, s.domain(var_).max() - 1) == propane::Change::failed ? PropStatus::failed
                                                                                          : PropStatus::fix;
    }

    int runs = 0;
    std::vector<int> history;

private:
    propane::IntVar var_;
};

Counter& as_counter(propane::Propagator<S>& p) {
    return dynamic_cast<Counter&>(p);
}

} // namespace

TEST_CASE("clone copies the dynamic type and its state") {
    S s;
    const propane::IntVar x = s.int_var(0, 9);
    S other = s;
    Counter original(x);
    CHECK(original.propagate(s) == PropStatus::fix);
    CHECK(original.propagate(s) == PropStatus::fix);
    original.pending() = {4, 2};
    CHECK(s.domain(x).max() == 7);

    const propane::Propagator<S>& base = original;
    std::unique_ptr<propane::Propagator<S>> copy = base.clone();
    REQUIRE(copy != nullptr);
    propane::Propagator<S>& copied = *copy;
    CHECK(typeid(copied) == typeid(Counter));
    Counter& c = as_counter(copied);
    CHECK(&c != &original);
    CHECK(c.runs == 2);
    CHECK(c.history == std::vector<int>{9, 8});
    CHECK(c.pending() == std::vector<int>{4, 2});

    // From here on, neither sees the other's changes.
    c.pending().push_back(8);
    original.pending().clear();
    CHECK(c.pending() == std::vector<int>{4, 2, 8});
    CHECK(original.pending().empty());

    // A copy of the store before any run, where x is 0..3: the clone runs
    // there as it would in a search thread's copy.
    CHECK(other.remove_above(x, 3) == propane::Change::bounds);
    CHECK(c.propagate(other) == PropStatus::fix);
    CHECK(c.runs == 3);
    CHECK(c.history == std::vector<int>{9, 8, 3});
    CHECK(other.domain(x).max() == 2);
    CHECK(original.runs == 2);
    CHECK(original.history == std::vector<int>{9, 8});
    CHECK(s.domain(x).max() == 7);

    CHECK(original.propagate(s) == PropStatus::fix);
    CHECK(original.history == std::vector<int>{9, 8, 7});
    CHECK(c.history == std::vector<int>{9, 8, 3});

    // A clone of a clone is a third independent copy.
    std::unique_ptr<propane::Propagator<S>> third = c.clone();
    Counter& t = as_counter(*third);
    CHECK(t.history == std::vector<int>{9, 8, 3});
    t.history.clear();
    CHECK(c.history.size() == 3);
}

TEST_CASE("pending is per propagator") {
    S s;
    const propane::IntVar x = s.int_var(0, 9);
    Counter a(x), b(x);
    a.pending().push_back(1);
    a.pending().push_back(3);
    CHECK(b.pending().empty());
    b.pending().push_back(7);
    CHECK(a.pending() == std::vector<int>{1, 3});
    CHECK(b.pending() == std::vector<int>{7});

    // Through a store: each subscription's tag goes to its own propagator.
    const int ia = s.add_propagator(std::make_unique<Counter>(x));
    const int ib = s.add_propagator(std::make_unique<Counter>(x));
    const propane::IntVar y = s.int_var(0, 9);
    s.subscribe(y, ia, propane::Event::domain, 10);
    s.subscribe(y, ib, propane::Event::fixed, 20);
    CHECK(s.remove(y, 5) != propane::Change::failed);
    CHECK(s.propagator(ia).pending() == std::vector<int>{10});
    CHECK(s.propagator(ib).pending().empty());
    CHECK(s.assign(y, 6) != propane::Change::failed);
    CHECK(s.propagator(ia).pending() == std::vector<int>{10, 10});
    CHECK(s.propagator(ib).pending() == std::vector<int>{20});
}
