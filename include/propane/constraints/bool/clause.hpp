#ifndef PROPANE_CONSTRAINTS_BOOL_CLAUSE_HPP
#define PROPANE_CONSTRAINTS_BOOL_CLAUSE_HPP

// clause(pos, neg): some view of pos is 1 or some view of neg is 0, over
// Boolean views (values within {0, 1} when posted, else model_error); pos
// and neg are ranges of views or braced lists (arguments.hpp).
//
// Strength: domain consistent (unit propagation), for literals on distinct
// variables, which posting ensures: a literal fixed when posted is dropped
// (false) or makes the clause hold (true, nothing is posted); a literal
// repeated is kept once; two literals that are each other's negation make
// the clause hold. An empty clause fails the store; a clause of one
// literal sets it when posted.
//
// Two watched literals, as SAT solvers do, through the store's watches
// (engine/watches.hpp): the propagator runs only when the variable of one
// of its two watched literals is fixed so as to make it false, and then
// reads the two watches, O(1), and looks for another literal that is not
// false only when one of them is. A clause whose other literals change
// costs nothing. A satisfied clause is subsumed until search backtracks
// above the level where it became true. The watches need no trail:
// backtracking only frees literals, so a watched literal that was not
// false stays not false, and one that was false was so at a level where
// the clause was either unit (its other watch then made true at that
// level, so freed no sooner than the false one) or failed.
//
// A literal is kept as its variable and the value t that makes it true:
// the variable has two values at most (the view is Boolean), so the
// literal is false exactly when the variable is fixed to another value,
// which is what a watch wakes on. So one propagator type serves every
// view type (one instantiation per store type, not per literal types).
//
// clause(pos, neg, iff(b)): b == (the clause holds), domain consistent
// (with b on a variable of no literal). clause(pos, neg, implies(b)):
// b == 1 => the clause; it propagates only once b is 1, and sets b = 0 when
// every literal is false. Both are posted as clauses, the usual encoding:
// implies(b) is the clause with "b is 0" added, and iff(b) adds, for each
// literal l, the clause "l is false or b is 1"; unit propagation over those
// is domain consistent on b == (l_1 or ... or l_n). The literals are taken
// as AffineViews there (one multiplication more per read).

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <ranges>
#include <memory>
#include <vector>

#include "../../engine/propagator.hpp"
#include "../../engine/view.hpp"
#include "../arguments.hpp"
#include "../reify.hpp"

namespace propane {

namespace detail {

// A literal: var == t.
struct Literal {
    IntVar var;
    int t;
};

template <class S>
class WatchedClause : public PropagatorBase<S, WatchedClause<S>> {
public:
    explicit WatchedClause(std::vector<Literal> lits) : lits_(std::move(lits)) {}

    // Points the two slots at the first two literals; called once, at post.
    void watch_first(S& s, int id) {
        for (int k = 0; k < 2; ++k) {
            slot_[k] = s.add_watch(id);
            s.watch(slot_[k], lits_[static_cast<std::size_t>(k)].var, lits_[static_cast<std::size_t>(k)].t);
        }
    }

    PropStatus propagate(S& s) override {
        int a = state(s, w_[0]), b = state(s, w_[1]);
        if (a > 0 || b > 0) return PropStatus::subsumed;
        if (a < 0 && (a = rewatch(s, 0)) > 0) return PropStatus::subsumed;
        if (b < 0 && (b = rewatch(s, 1)) > 0) return PropStatus::subsumed;
        if (a < 0 && b < 0) return PropStatus::failed;
        if (a < 0 || b < 0) {
            const Literal& l = lits_[static_cast<std::size_t>(w_[a < 0 ? 1 : 0])];
            return l.var.assign(s, l.t) == Change::failed ? PropStatus::failed : PropStatus::subsumed;
        }
        return PropStatus::fix;
    }

private:
    // 1 true, -1 false, 0 open: the variable has two values at most.
    int state(const S& s, int i) const noexcept {
        const Literal& l = lits_[static_cast<std::size_t>(i)];
        const int lo = l.var.min(s);
        if (lo != l.var.max(s)) return 0;
        return lo == l.t ? 1 : -1;
    }
    // Moves watch k to a literal that is not false and not the other watch;
    // returns that literal's state, or -1 (watch k stays) when none is left.
    int rewatch(S& s, int k) {
        for (int i = 0, n = static_cast<int>(lits_.size()); i < n; ++i) {
            if (i == w_[0] || i == w_[1]) continue;
            if (const int st = state(s, i); st >= 0) {
                w_[k] = i;
                s.watch(slot_[k], lits_[static_cast<std::size_t>(i)].var, lits_[static_cast<std::size_t>(i)].t);
                return st;
            }
        }
        return -1;
    }

    std::vector<Literal> lits_;
    int w_[2] = {0, 1};
    int slot_[2] = {-1, -1};
};

template <class V, class S>
int true_value(const S& s, const V& v, int want) {
    const int hi = v.var().max(s);
    return v.of(hi) == want ? hi : v.var().min(s);
}

} // namespace detail

template <class P, class N>
struct Clause {
    std::vector<P> pos;
    std::vector<N> neg;

    // Defined below, out of the class and not inline, for
    // <propane/compiled.hpp>.
    template <class S>
    void post(S& s) const;
};

// clause(pos, neg, iff(b)) and clause(pos, neg, implies(b)).
template <class P, class N, class B>
struct ReifiedClause {
    std::vector<P> pos;
    std::vector<N> neg;
    Reify<B> r;

    template <class S>
    void post(S& s) const {
        detail::check_bool(s, r.b, "clause");
        for (const P& p : pos) detail::check_bool(s, p, "clause");
        for (const N& n : neg) detail::check_bool(s, n, "clause");
        std::vector<AffineView> ps(pos.begin(), pos.end()), ns(neg.begin(), neg.end());
        ns.push_back(r.b);
        Clause<AffineView, AffineView>{ps, ns}.post(s);
        if (r.mode == ReifyMode::implies) return;
        for (const P& p : pos) Clause<AffineView, AffineView>{{r.b}, {p}}.post(s);
        for (const N& n : neg) Clause<AffineView, AffineView>{{r.b, n}, {}}.post(s);
    }
};

template <class P, class N>
template <class S>
void Clause<P, N>::post(S& s) const {
    for (const P& p : pos) detail::check_bool(s, p, "clause");
    for (const N& n : neg) detail::check_bool(s, n, "clause");
    std::vector<detail::Literal> open;
    for (const P& p : pos) {
        const int st = detail::bool_state(s, p);
        if (st > 0) return;
        if (st == 0) open.push_back({p.var(), detail::true_value(s, p, 1)});
    }
    for (const N& n : neg) {
        const int st = detail::bool_state(s, n);
        if (st < 0) return;
        if (st == 0) open.push_back({n.var(), detail::true_value(s, n, 0)});
    }
    std::sort(open.begin(), open.end(), [](const auto& a, const auto& b) {
        return a.var.index() != b.var.index() ? a.var.index() < b.var.index() : a.t < b.t;
    });
    std::size_t kept = 0;
    for (std::size_t i = 0; i < open.size(); ++i) {
        if (kept > 0 && open[i].var.same(open[kept - 1].var)) {
            if (open[i].t != open[kept - 1].t) return;
            continue;
        }
        open[kept++] = open[i];
    }
    open.resize(kept);
    if (open.empty()) {
        [[maybe_unused]] const Change c = s.fail();
        return;
    }
    if (open.size() == 1) {
        [[maybe_unused]] const Change c = open[0].var.assign(s, open[0].t);
        return;
    }
    auto prop = std::make_unique<detail::WatchedClause<S>>(open);
    detail::WatchedClause<S>& clause = *prop;
    const int id = s.add_propagator(std::move(prop));
    for (const detail::Literal& l : open) s.watchable(l.var, id);
    clause.watch_first(s, id);
}

namespace detail {

// Literals in any form but a range of one view type: a braced list, or a
// range of views of another type than the other side's list. Read as
// AffineView, which costs nothing after posting (the propagator keeps
// variables and values, see the header comment).
class Literals {
public:
    Literals(std::initializer_list<AffineView> views) : views_(views) {} // NOLINT: implicit by design
    template <ViewRange R>
        requires std::convertible_to<std::ranges::range_value_t<R>, AffineView>
    Literals(const R& views) : views_(views_of<AffineView>(views)) {} // NOLINT: implicit by design

    std::vector<AffineView> take() && { return std::move(views_); }

private:
    std::vector<AffineView> views_;
};

} // namespace detail

// pos and neg as ranges of one view type each, or either as a braced list
// (arguments.hpp).
template <detail::ViewRange P, detail::ViewRange N>
Clause<std::ranges::range_value_t<P>, std::ranges::range_value_t<N>> clause(const P& pos, const N& neg) {
    return {detail::views_of(pos), detail::views_of(neg)};
}
inline Clause<AffineView, AffineView> clause(detail::Literals pos, detail::Literals neg) {
    return {std::move(pos).take(), std::move(neg).take()};
}

template <detail::ViewRange P, detail::ViewRange N, class B>
ReifiedClause<std::ranges::range_value_t<P>, std::ranges::range_value_t<N>, B> clause(const P& pos, const N& neg,
                                                                                      const Reify<B>& r) {
    return {detail::views_of(pos), detail::views_of(neg), r};
}
template <class B>
ReifiedClause<AffineView, AffineView, B> clause(detail::Literals pos, detail::Literals neg, const Reify<B>& r) {
    return {std::move(pos).take(), std::move(neg).take(), r};
}

} // namespace propane

#endif
