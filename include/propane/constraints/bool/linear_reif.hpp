#ifndef PROPANE_CONSTRAINTS_BOOL_LINEAR_REIF_HPP
#define PROPANE_CONSTRAINTS_BOOL_LINEAR_REIF_HPP

// linear(a, x, r, c, iff(b)), linear(a, x, r, c, implies(b)) and the plain
// sum linear(x, r, c, iff(b) | implies(b)): b == (sum a[i]*x[i] r c), or
// b == 1 => sum r c, for every Rel, x any views (one vector of one view
// type) and b a Boolean view (MiniZinc's int_lin_*_reif and _imp).
//
// Strength, for views of distinct variables:
//   b open   only b is pruned, on the sum's bounds (the least and greatest
//            of sum a[i]*x[i] over the views' bounds, holes ignored):
//              le c  entailed when the greatest sum is <= c, disentailed
//                    when the least is > c (lt, gt, ge alike);
//              eq c  entailed when the sum is fixed to c, disentailed when
//                    c lies outside least .. greatest;
//              ne c  the reverse of eq.
//            iff sets b = 1 on entailment; both modes set b = 0 on
//            disentailment; implies never sets b = 1.
//   b fixed  1 enforces the relation, and under iff 0 enforces its
//            negation (le -> gt, eq -> ne, ...), each exactly as linear()
//            does it (linear.hpp): bounds(R) for eq, le, lt, ge and gt
//            (for a single inequality that is bounds(Z) too: the supports
//            of a bound are the others' integer bounds), and for ne the
//            removal of the one value that would make the sum c from the
//            last open term. implies(b) with b == 0 does nothing.
// The cuts and the sum are linear.hpp's own (BoundsCuts, not_equal over
// its SumTerms), so once b is fixed a run costs what linear's does; a b
// fixed when posted posts linear() itself (or nothing, implies with 0).
//
// Posting folds the views fixed by then into c and drops zero
// coefficients (no term left: the first run decides 0 r c); overflow is
// refused as linear() refuses it, over every nonzero term. Views sharing a
// variable (b among them) are treated as independent: sound, not the
// strength above.
//
// Woken by: b fixed; under iff, every view's bounds; under implies, for
// le and lt the end of each term that the least sum reads (ge and gt: the
// greatest), for eq both ends, for ne the views' fixing (disentailment and
// the enforcement both wait for fixed terms).

#include <cstdint>
#include <memory>
#include <optional>
#include <ranges>
#include <utility>
#include <vector>

#include "../../engine/error.hpp"
#include "../../engine/propagator.hpp"
#include "../../engine/view.hpp"
#include "../linear.hpp"
#include "../reify.hpp"
#include "../rel.hpp"
#include "rel_reif.hpp"

namespace propane {

namespace detail {

// sum r k with r one of eq, ne, le, ge: lt and gt become le k - 1 and
// ge k + 1 when posted, so that the negation stays in the same four.
struct SumRel {
    Rel r = Rel::eq;
    std::int64_t k = 0;

    SumRel negated() const noexcept {
        switch (r) {
        case Rel::eq: return {Rel::ne, k};
        case Rel::ne: return {Rel::eq, k};
        case Rel::le: return {Rel::ge, k + 1};
        default: return {Rel::le, k - 1};
        }
    }

    // 1 when every sum in least .. most satisfies it, -1 when none does.
    int state(std::int64_t least, std::int64_t most) const noexcept {
        switch (r) {
        case Rel::eq: return least == k && most == k ? 1 : k < least || k > most ? -1 : 0;
        case Rel::ne: return least == k && most == k ? -1 : k < least || k > most ? 1 : 0;
        case Rel::le: return most <= k ? 1 : least > k ? -1 : 0;
        default: return least >= k ? 1 : most < k ? -1 : 0;
        }
    }
};

template <class S, class View, class B>
class LinearReif : public PropagatorBase<S, LinearReif<S, View, B>> {
public:
    LinearReif(S& s, std::vector<Term<View>> terms, SumRel rel, B b, ReifyMode mode)
        : cuts_(s, std::move(terms)), rel_(rel), b_(b), mode_(mode) {}

    PropStatus propagate(S& s) override {
        const int bs = bool_state(s, b_);
        if (bs < 0 && mode_ == ReifyMode::implies) return PropStatus::subsumed;
        if (bs != 0) return enforce(s, bs > 0 ? rel_ : rel_.negated());
        const auto [least, most] = cuts_.range(s);
        const int st = rel_.state(least, most);
        if (st > 0 && mode_ == ReifyMode::iff)
            return b_.remove_below(s, 1) == Change::failed ? PropStatus::failed : PropStatus::subsumed;
        if (st < 0) return b_.remove_above(s, 0) == Change::failed ? PropStatus::failed : PropStatus::subsumed;
        return st > 0 ? PropStatus::subsumed : PropStatus::fix;
    }

private:
    PropStatus enforce(S& s, SumRel want) {
        switch (want.r) {
        case Rel::ne: return not_equal(s, cuts_.terms(), want.k);
        case Rel::eq: cuts_.set_bounds(want.k, want.k); break;
        case Rel::le: cuts_.set_bounds(std::nullopt, want.k); break;
        default: cuts_.set_bounds(want.k, std::nullopt); break;
        }
        return cuts_.run(s);
    }

    BoundsCuts<View> cuts_;
    SumRel rel_;
    B b_;
    ReifyMode mode_;
};

} // namespace detail

// The constraint b == (sum(coeffs[i] * views[i]) r c), or b == 1 => it, as
// linear(..., iff(b) | implies(b)) returns it.
template <class View, class B>
struct ReifiedLinear {
    std::vector<std::int64_t> coeffs;
    std::vector<View> views;
    Rel r = Rel::eq;
    std::int64_t c = 0;
    Reify<B> re;

    template <class S>
    void post(S& s) const {
        detail::check_rel(r, "linear");
        detail::check_sizes(coeffs.size(), views.size());
        for (const View& v : views) s.check(v.var(), "linear");
        detail::check_bool(s, re.b, "linear");
        std::vector<detail::Term<View>> terms = detail::linear_terms(coeffs, views, c);
        // Each term folded is at most the reach linear_terms bounded, so c
        // stays below 2^62 with the terms left.
        std::int64_t k = c;
        std::erase_if(terms, [&](const detail::Term<View>& t) {
            if (!t.v.fixed(s)) return false;
            k -= t.a * t.v.value(s);
            return true;
        });
        const int bs = detail::bool_state(s, re.b);
        if (bs != 0) {
            if (bs < 0 && re.mode == ReifyMode::implies) return;
            std::vector<std::int64_t> a;
            std::vector<View> v;
            for (const detail::Term<View>& t : terms) a.push_back(t.a), v.push_back(t.v);
            s.post(Linear<View>{std::move(a), std::move(v), bs > 0 ? r : detail::negated(r), k});
            return;
        }
        detail::SumRel rel{r, k};
        if (r == Rel::lt) rel = {Rel::le, k - 1};
        if (r == Rel::gt) rel = {Rel::ge, k + 1};
        const int id =
            s.add_propagator(std::make_unique<detail::LinearReif<S, View, B>>(s, terms, rel, re.b, re.mode));
        s.subscribe(re.b.var(), id, Event::fixed);
        for (const detail::Term<View>& t : terms) {
            Event e = Event::bounds;
            if (re.mode == ReifyMode::implies) {
                if (rel.r == Rel::ne) e = Event::fixed;
                if (rel.r == Rel::le) e = t.a > 0 ? min_event(t.v) : max_event(t.v);
                if (rel.r == Rel::ge) e = t.a > 0 ? max_event(t.v) : min_event(t.v);
            }
            s.subscribe(t.v.var(), id, e);
        }
    }
};

namespace detail {

template <class View, class B>
ReifiedLinear<View, B> make_linear(const Numbers& coeffs, std::vector<View> views, Rel r, const Number& c,
                                   const Reify<B>& re) {
    Linear<View> l = make_linear(coeffs, std::move(views), r, c);
    return {std::move(l.coeffs), std::move(l.views), r, l.c, re};
}

} // namespace detail

// The views, coefficients and c in any of the forms linear() takes.
template <detail::ViewRange R, class B>
ReifiedLinear<std::ranges::range_value_t<R>, B> linear(const detail::Numbers& coeffs, const R& views, Rel r,
                                                       detail::Number c, const Reify<B>& re) {
    return detail::make_linear(coeffs, detail::views_of(views), r, c, re);
}
template <detail::ViewHandle V, class B>
ReifiedLinear<V, B> linear(const detail::Numbers& coeffs, std::initializer_list<V> views, Rel r, detail::Number c,
                           const Reify<B>& re) {
    return detail::make_linear(coeffs, detail::views_of(views), r, c, re);
}
template <class B>
ReifiedLinear<AffineView, B> linear(const detail::Numbers& coeffs, std::initializer_list<AffineView> views, Rel r,
                                    detail::Number c, const Reify<B>& re) {
    return detail::make_linear(coeffs, detail::views_of(views), r, c, re);
}

template <detail::ViewRange R, class B>
ReifiedLinear<std::ranges::range_value_t<R>, B> linear(const R& views, Rel r, detail::Number c, const Reify<B>& re) {
    auto vs = detail::views_of(views);
    const detail::Numbers ones = detail::ones(vs.size());
    return detail::make_linear(ones, std::move(vs), r, c, re);
}
template <detail::ViewHandle V, class B>
ReifiedLinear<V, B> linear(std::initializer_list<V> views, Rel r, detail::Number c, const Reify<B>& re) {
    return detail::make_linear(detail::ones(views.size()), detail::views_of(views), r, c, re);
}
template <class B>
ReifiedLinear<AffineView, B> linear(std::initializer_list<AffineView> views, Rel r, detail::Number c,
                                    const Reify<B>& re) {
    return detail::make_linear(detail::ones(views.size()), detail::views_of(views), r, c, re);
}

} // namespace propane

#endif
