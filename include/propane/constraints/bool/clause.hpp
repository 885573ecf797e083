#ifndef PROPANE_CONSTRAINTS_BOOL_CLAUSE_HPP
#define PROPANE_CONSTRAINTS_BOOL_CLAUSE_HPP

// clause(pos, neg): some view of pos is 1 or some view of neg is 0, over
// Boolean views (values within {0, 1} when posted, else model_error).
//
// Strength: domain consistent (unit propagation), for literals on distinct
// variables, which posting ensures: a literal fixed when posted is dropped
// (false) or makes the clause hold (true, nothing is posted); a literal
// repeated is kept once; two literals that are each other's negation make
// the clause hold. An empty clause fails the store; a clause of one
// literal sets it when posted.
//
// Two watched literals, as SAT solvers do. Subscriptions are fixed once
// search starts, so the propagator is subscribed (Event::fixed, untagged)
// to every literal's variable and keeps its two watches itself: a run
// reads the two watched literals only, O(1), unless one of them is false,
// when it looks for another literal that is not. A satisfied clause is
// subsumed, so it is not run again until search backtracks above the level
// where it became true. The watches need no trail: backtracking only frees
// literals, so a watched literal that was not false stays not false, and
// one that was false was so at a level where the clause was either unit
// (its other watch then true, the clause subsumed until that level goes)
// or failed.
//
// What it costs per fixing of an unwatched literal's variable: one queue
// entry and one virtual call that reads two bounds. A store with tens of
// thousands of clauses pays that for each clause of each variable fixed,
// and the scan of a clause only when a watched literal falls.
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
#include <memory>
#include <vector>

#include "../../engine/propagator.hpp"
#include "../../engine/view.hpp"
#include "../reify.hpp"

namespace propane {

namespace detail {

// Literal i is pos[i] == 1 for i < pos.size(), else neg[i - pos.size()] == 0.
template <class S, class P, class N>
class WatchedClause : public PropagatorBase<S, WatchedClause<S, P, N>> {
public:
    WatchedClause(std::vector<kept_t<P>> pos, std::vector<kept_t<N>> neg)
        : pos_(std::move(pos)), neg_(std::move(neg)),
          size_(static_cast<int>(pos_.size() + neg_.size())) {}

    PropStatus propagate(S& s) override {
        int a = state(s, w_[0]), b = state(s, w_[1]);
        if (a > 0 || b > 0) return PropStatus::subsumed;
        if (a < 0 && (a = rewatch(s, 0)) > 0) return PropStatus::subsumed;
        if (b < 0 && (b = rewatch(s, 1)) > 0) return PropStatus::subsumed;
        if (a < 0 && b < 0) return PropStatus::failed;
        if (a < 0 || b < 0)
            return make_true(s, w_[a < 0 ? 1 : 0]) == Change::failed ? PropStatus::failed : PropStatus::subsumed;
        return PropStatus::fix;
    }

private:
    int state(const S& s, int i) const noexcept {
        if (i < static_cast<int>(pos_.size())) return bool_state(s, pos_[static_cast<std::size_t>(i)]);
        return -bool_state(s, neg_[static_cast<std::size_t>(i) - pos_.size()]);
    }
    Change make_true(S& s, int i) const {
        if (i < static_cast<int>(pos_.size())) return pos_[static_cast<std::size_t>(i)].remove_below(s, 1);
        return neg_[static_cast<std::size_t>(i) - pos_.size()].remove_above(s, 0);
    }
    // Moves watch k to a literal that is not false and not the other watch;
    // returns that literal's state, or -1 (watch k stays) when none is left.
    int rewatch(const S& s, int k) {
        for (int i = 0; i < size_; ++i) {
            if (i == w_[0] || i == w_[1]) continue;
            if (const int st = state(s, i); st >= 0) {
                w_[k] = i;
                return st;
            }
        }
        return -1;
    }

    std::vector<kept_t<P>> pos_;
    std::vector<kept_t<N>> neg_;
    int size_;
    int w_[2] = {0, 1};
};

// A literal still open when posted: true exactly when its variable is t.
struct OpenLiteral {
    int var, t;
    bool pos;
    std::size_t k;
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

    template <class S>
    void post(S& s) const {
        for (const P& p : pos) detail::check_bool(s, p, "clause");
        for (const N& n : neg) detail::check_bool(s, n, "clause");
        std::vector<detail::OpenLiteral> open;
        for (std::size_t k = 0; k < pos.size(); ++k) {
            const int st = detail::bool_state(s, pos[k]);
            if (st > 0) return;
            if (st == 0) open.push_back({pos[k].var().index(), detail::true_value(s, pos[k], 1), true, k});
        }
        for (std::size_t k = 0; k < neg.size(); ++k) {
            const int st = detail::bool_state(s, neg[k]);
            if (st < 0) return;
            if (st == 0) open.push_back({neg[k].var().index(), detail::true_value(s, neg[k], 0), false, k});
        }
        std::sort(open.begin(), open.end(), [](const auto& a, const auto& b) {
            return a.var != b.var ? a.var < b.var : a.t < b.t;
        });
        std::vector<P> kp;
        std::vector<N> kn;
        for (std::size_t i = 0; i < open.size(); ++i) {
            if (i > 0 && open[i].var == open[i - 1].var) {
                if (open[i].t != open[i - 1].t) return;
                continue;
            }
            if (open[i].pos)
                kp.push_back(pos[open[i].k]);
            else
                kn.push_back(neg[open[i].k]);
        }
        if (kp.size() + kn.size() == 0) {
            [[maybe_unused]] const Change c = s.fail();
            return;
        }
        if (kp.size() + kn.size() == 1) {
            [[maybe_unused]] const Change c = kp.empty() ? kn[0].remove_above(s, 0) : kp[0].remove_below(s, 1);
            return;
        }
        const int id = s.add_propagator(
            std::make_unique<detail::WatchedClause<S, P, N>>(detail::kept(kp), detail::kept(kn)));
        for (const P& p : kp) s.subscribe(p.var(), id, Event::fixed);
        for (const N& n : kn) s.subscribe(n.var(), id, Event::fixed);
    }
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
Clause<P, N> clause(const std::vector<P>& pos, const std::vector<N>& neg) {
    return {pos, neg};
}

template <class P, class N, class B>
ReifiedClause<P, N, B> clause(const std::vector<P>& pos, const std::vector<N>& neg, const Reify<B>& r) {
    return {pos, neg, r};
}

} // namespace propane

#endif
