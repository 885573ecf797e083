// rel(x, r, y) and rel(x, r, c) through the checker (checker.hpp), and the
// checker itself against propagators broken on purpose.
//
// Claims checked exactly, in view space: every relation between two views
// is domain consistent (eq and ne by design; for one order relation bounds
// consistency is the same thing), and so is a relation with a constant.
// Views of one variable make the relation a unary constraint, filtered
// exactly too, so the shared sweep holds rel to domain consistency over
// the variable.
//
// Configurations: two views over every pair of subsets of -3..2 (3,969) per
// relation and view kind, each in a fresh store and cut in a reused one;
// a view against a constant over every subset of -3..3 (127) per relation,
// constant and kind; one variable under two views; random walks.

#include <doctest/doctest.h>

#include "checker.hpp"

#include <propane/constraints/rel.hpp>
#include <propane/engine/propagator.hpp>

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "instances_store.hpp"

namespace {

using checker::Case;
using checker::compare;
using checker::Kind;
using checker::Spec;
using checker::Store;
using propane::IntVar;
using propane::Rel;
using Affine = propane::AffineView;
using Offset = propane::OffsetView;

constexpr std::array<Rel, 6> relations{Rel::eq, Rel::ne, Rel::lt, Rel::le, Rel::gt, Rel::ge};

std::string rel_name(Rel r) { return std::string(propane::to_string(r)); }

// Position 0 and 1 as the kind says (mixed: IntVar r AffineView).
template <class Make>
void post_pair(Store& s, const std::vector<IntVar>& xs, const Case& c, Make&& make) {
    using checker::view;
    switch (c.kind) {
    case Kind::var: s.post(make(view<IntVar>(xs, c, 0), view<IntVar>(xs, c, 1))); break;
    case Kind::offset: s.post(make(view<Offset>(xs, c, 0), view<Offset>(xs, c, 1))); break;
    case Kind::affine: s.post(make(view<Affine>(xs, c, 0), view<Affine>(xs, c, 1))); break;
    case Kind::mixed: s.post(make(view<IntVar>(xs, c, 0), view<Affine>(xs, c, 1))); break;
    }
}

Spec rel_spec(Rel r) {
    Spec spec;
    spec.name = "rel(x, " + rel_name(r) + ", y)";
    spec.claim = checker::Claim::domain;
    spec.exact_when_shared = true;
    spec.holds = [r](const int* v) { return compare(r, v[0], v[1]); };
    spec.post = [r](Store& s, const std::vector<IntVar>& xs, const Case& c) {
        post_pair(s, xs, c, [r](auto x, auto y) { return propane::rel(x, r, y); });
    };
    return spec;
}

Spec rel_const_spec(Rel r, int k) {
    Spec spec;
    spec.name = "rel(x, " + rel_name(r) + ", " + std::to_string(k) + ")";
    spec.claim = checker::Claim::domain;
    spec.holds = [r, k](const int* v) { return compare(r, v[0], k); };
    spec.post = [r, k](Store& s, const std::vector<IntVar>& xs, const Case& c) {
        using checker::view;
        switch (c.kind) {
        case Kind::var: s.post(propane::rel(view<IntVar>(xs, c, 0), r, k)); break;
        case Kind::offset: s.post(propane::rel(view<Offset>(xs, c, 0), r, k)); break;
        case Kind::affine:
        case Kind::mixed: s.post(propane::rel(view<Affine>(xs, c, 0), r, k)); break;
        }
    };
    return spec;
}

// ---- the checker's own test: x <= y written here, right and wrong ------------

enum class Mutation { none, weak, unsound, early, loose_eq };

std::string mutation_name(Mutation m) {
    switch (m) {
    case Mutation::none: return "correct";
    case Mutation::weak: return "never cuts y from below";
    case Mutation::unsound: return "cuts x above max(y) - 1";
    case Mutation::early: return "one cut per run, yet says fix";
    case Mutation::loose_eq: return "x == y on bounds only";
    }
    return "?";
}

// x <= y (or x == y for loose_eq), with the mutation built in. Its run
// counter is deliberately not trailed: only `early` reads it.
template <class X, class Y>
class TestRel : public propane::PropagatorBase<Store, TestRel<X, Y>> {
public:
    TestRel(X x, Y y, Mutation m) : x_(x), y_(y), m_(m) {}

    propane::PropStatus propagate(Store& s) override {
        using propane::Change;
        const bool odd = (++runs_ % 2) == 1;
        const int slack = m_ == Mutation::unsound ? 1 : 0;
        if ((m_ != Mutation::early || odd) && x_.remove_above(s, y_.max(s) - slack) == Change::failed)
            return propane::PropStatus::failed;
        if (m_ != Mutation::weak && (m_ != Mutation::early || !odd) &&
            y_.remove_below(s, x_.min(s)) == Change::failed)
            return propane::PropStatus::failed;
        if (m_ == Mutation::loose_eq &&
            (x_.remove_below(s, y_.min(s)) == Change::failed || y_.remove_above(s, x_.max(s)) == Change::failed))
            return propane::PropStatus::failed;
        return propane::PropStatus::fix;
    }

private:
    X x_;
    Y y_;
    Mutation m_;
    int runs_ = 0;
};

template <class X, class Y>
struct TestConstraint {
    X x;
    Y y;
    Mutation m;
    int post(Store& s) const {
        const int id = s.add_propagator(std::make_unique<TestRel<X, Y>>(x, y, m));
        s.subscribe(x.var(), id, propane::Event::bounds);
        s.subscribe(y.var(), id, propane::Event::bounds);
        return id;
    }
};

Spec test_spec(Mutation m) {
    Spec spec;
    spec.name = "test x " + std::string(m == Mutation::loose_eq ? "==" : "<=") + " y (" + mutation_name(m) + ")";
    spec.claim = checker::Claim::domain;
    spec.exact_when_shared = false;
    if (m == Mutation::loose_eq)
        spec.holds = [](const int* v) { return v[0] == v[1]; };
    else
        spec.holds = [](const int* v) { return v[0] <= v[1]; };
    spec.post = [m](Store& s, const std::vector<IntVar>& xs, const Case& c) {
        post_pair(s, xs, c, [m](auto x, auto y) { return TestConstraint<decltype(x), decltype(y)>{x, y, m}; });
    };
    return spec;
}

} // namespace

TEST_CASE("checker self-test: a correct x <= y passes, each broken one is caught") {
    const checker::Options opt{.n = 2, .lo = -2, .range = 5};
    for (const Mutation m : {Mutation::none, Mutation::weak, Mutation::unsound, Mutation::early, Mutation::loose_eq}) {
        const Spec spec = test_spec(m);
        checker::Outcome sweeps, walks;
        for (const Kind k : checker::kinds) {
            sweeps += checker::sweep(spec, k, opt, true);
            walks += checker::walks(spec, k, 2, -2, 5, 4, 60, 11, true);
        }
        const long long failures = sweeps.chk.failures, walk_failures = walks.chk.failures;
        MESSAGE(spec.name << ": " << failures << " failed checks in " << sweeps.tally.configurations
                          << " configurations, " << walk_failures << " in " << walks.tally.configurations
                          << " walk propagations" << (failures == 0 ? "" : "; first: " + sweeps.chk.first));
        if (m == Mutation::none) {
            CHECK(failures == 0);
            CHECK(walk_failures == 0);
        } else {
            CHECK(failures > 0);
            CHECK(walk_failures > 0);
        }
    }
}

TEST_CASE("rel(x, r, y): domain consistent in view space, every pair of subsets of -3..2") {
    const checker::Options opt{.n = 2, .lo = -3, .range = 6};
    for (const Rel r : relations)
        for (const Kind k : checker::kinds) {
            const Spec spec = rel_spec(r);
            checker::report(spec.name + " x " + checker::name_of(k), checker::sweep(spec, k, opt));
        }
}

TEST_CASE("rel(x, r, c): domain consistent, every subset of -3..3, constants on and off the views' values") {
    const checker::Options opt{.n = 1, .lo = -3, .range = 7};
    for (const Rel r : relations)
        for (const Kind k : {Kind::var, Kind::offset, Kind::affine}) {
            checker::Outcome all;
            for (const int c : {-10, -4, -1, 0, 1, 2, 5, 9}) {
                all += checker::sweep(rel_const_spec(r, c), k, opt);
            }
            checker::report("rel(x, " + rel_name(r) + ", c) for 8 constants x " + checker::name_of(k), all);
        }
}

TEST_CASE("rel over one variable: x r f(x) filtered exactly") {
    for (const Rel r : relations)
        for (const Kind k : checker::kinds) {
            const Spec spec = rel_spec(r);
            checker::report(spec.name + " x " + checker::name_of(k) + ", one variable",
                            checker::shared_sweep(spec, k, 2, 1, -3, 7, 400, 5));
        }
}

TEST_CASE("rel(x, r, y): random push/cut/propagate/pop/copy walks") {
    for (const Rel r : relations)
        for (const Kind k : checker::kinds) {
            const Spec spec = rel_spec(r);
            checker::report(spec.name + " x " + checker::name_of(k) + ", walks",
                            checker::walks(spec, k, 2, -3, 7, 14, 120, 23));
        }
}
