// A constraint written outside the library: increasing(xs) holds when
// xs[0] < xs[1] < ... < xs[n-1]. The README's "Writing your own
// constraint", word for word (a test keeps the two equal).
#include <propane/propane.hpp>
#include "program.hpp"
#include <cstdio>
#include <memory>
#include <vector>

// The propagator: runs when a bound of one of its views moves. One pass
// forward raises each lower bound above its predecessor's, one pass
// backward lowers each upper bound below its successor's; after both, every
// bound is supported, so one run reaches the fixpoint.
template <class Store, class View>
class Increasing : public propane::PropagatorBase<Store, Increasing<Store, View>> {
public:
    explicit Increasing(std::vector<View> xs) : xs_(std::move(xs)) {}

    propane::PropStatus propagate(Store& s) override {
        for (std::size_t i = 1; i < xs_.size(); ++i)
            if (xs_[i].remove_below(s, xs_[i - 1].min(s) + 1) == propane::Change::failed)
                return propane::PropStatus::failed;
        for (std::size_t i = xs_.size() - 1; i > 0; --i)
            if (xs_[i - 1].remove_above(s, xs_[i].max(s) - 1) == propane::Change::failed)
                return propane::PropStatus::failed;
        return propane::PropStatus::fix;
    }

private:
    std::vector<View> xs_;
};

// The constraint: what s.post(...) takes. post() checks its handles, adds
// the propagator (which queues its first run) and subscribes it to the
// events that can make it prune.
template <class View>
struct IncreasingConstraint {
    std::vector<View> xs;

    template <class Store>
    int post(Store& s) const {
        for (const View& x : xs) s.check(x.var(), "increasing");
        const int id = s.add_propagator(std::make_unique<Increasing<Store, View>>(xs));
        for (const View& x : xs) s.subscribe(x.var(), id, propane::Event::bounds);
        return id;
    }
};

template <class View>
IncreasingConstraint<View> increasing(std::vector<View> xs) {
    return {std::move(xs)};
}

int main(int argc, char** argv) {
    if (argc > 1) return examples::no_options(argv, "custom_constraint");
    propane::Store<propane::BitDomain<1>> s;
    const std::vector<propane::IntVar> x = s.int_vars(4, 0, 5);
    s.post(increasing(x));
    s.post(propane::rel(x[1], propane::Rel::ne, 1)); // so x[1] >= 2, x[2] >= 3, x[3] >= 4

    if (!s.propagate()) return 1;
    for (const propane::IntVar& v : x) std::printf("%d..%d ", v.min(s), v.max(s));
    std::printf("\n");                                // 0..2 2..3 3..4 4..5

    const auto stats = propane::solve(s, x, propane::Strategy{}, [&](const auto& sol) {
        std::printf("%d %d %d %d\n", sol[0], sol[1], sol[2], sol[3]);
    });
    // 15 increasing 4-tuples in 0..5, less the 6 with x[1] = 1 (x[0] = 0, and
    // any 2 of 2..5 after it).
    return examples::written("custom_constraint", stats.solutions == 9 ? 0 : 1);
}
