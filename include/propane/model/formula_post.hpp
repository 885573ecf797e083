#ifndef PROPANE_MODEL_FORMULA_POST_HPP
#define PROPANE_MODEL_FORMULA_POST_HPP

// How a formula (formula.hpp, built by logic.hpp's operators) is posted: as the relations and clauses a
// modeller would write by hand, with an auxiliary Boolean only where a
// part must be named to be combined.
//
// Negations are pushed to the leaves as the tree is walked: !(x == z) is
// x != z, !(a && c) is !a || !c, !b is 1 - b. Then, for a part that must
// hold:
//   relation       posted as it is (lower.hpp), no Boolean;
//   a && c         each part posted as if alone;
//   a || c         one literal per part and a clause over them; a part
//                  that is a relation gets a Boolean l with l >> (relation)
//                  (half reification: only l = 1 must force it), and one of
//                  two parts that is a relation is posted under the other's
//                  negation instead ((x > 2) >> (y < 3) is one Boolean
//                  l == (x > 2) and l >> (y < 3));
//   a == c         one side as a literal l, the other tied to it: a
//                  relation reified by iff(l), a conjunction or disjunction
//                  by the usual clauses (l -> each part, all parts -> l).
// A part that is only implied (under l >> ...) is posted half reified the
// same way; one that must be equivalent to a literal is reified in full.
// Unit propagation over those clauses is what Gecode's and MiniZinc's
// decompositions give: domain consistent on each clause, the relations at
// their own strength.

#include <cstddef>
#include <vector>

#include "../constraints/bool/clause.hpp"
#include "../constraints/reify.hpp"
#include "../constraints/bool/rel_reif.hpp"
#include "formula.hpp"

namespace propane {

namespace detail {

// "var is 1" when positive, "var is 0" when not.
struct Lit {
    IntVar var;
    bool positive = true;

    Lit operator!() const noexcept { return {var, !positive}; }
};

template <class S>
class LogicPoster {
public:
    explicit LogicPoster(S& s) : s_(s) {}

    // Refuses a handle of another store, or a Boolean that is not one,
    // anywhere in n before anything is posted, so that such a mistake
    // leaves the store as it was (the operands of a non-linear node are
    // checked when it is made, as for a relation alone).
    void check(const LogicNode& n) const {
        if (n.op == LogicOp::relation)
            for (const Expr::Term& t : n.rel->expr().terms()) s_.check(t.x, "post");
        else if (n.op == LogicOp::boolean)
            check_bool(s_, *n.view, "a Boolean in a formula");
        for (const BoolExpr& a : n.args) check(a.node());
    }

    // n (pol true) or its negation (pol false) holds.
    void require(const LogicNode& n, bool pol) {
        switch (n.op) {
        case LogicOp::relation: relation(n, pol).post(s_); return;
        case LogicOp::boolean: {
            const Lit l = pol ? literal(n) : !literal(n);
            ConstRelation<IntVar>{l.var, Rel::eq, l.positive ? 1 : 0}.post(s_);
            return;
        }
        case LogicOp::negation: require(arg(n, 0), !pol); return;
        case LogicOp::conjunction:
        case LogicOp::disjunction:
            if (conjunctive(n, pol))
                for (const BoolExpr& a : n.args) require(a.node(), pol);
            else
                disjunction(n, pol);
            return;
        case LogicOp::equivalence: {
            // One side as a literal (a Boolean side costs nothing), the
            // other tied to it; the negation ties the opposite literal.
            const bool left_literal = stripped(arg(n, 0)).op == LogicOp::boolean;
            const LogicNode& named = arg(n, left_literal ? 0 : 1);
            const LogicNode& other = arg(n, left_literal ? 1 : 0);
            const Lit l = full(named, true);
            bind(pol ? l : !l, other, true);
            return;
        }
        }
    }

private:
    static const LogicNode& arg(const LogicNode& n, std::size_t i) { return n.args[i].node(); }

    // Whether n with polarity pol is a conjunction of its parts (each with
    // polarity pol): an and, or the negation of an or.
    static bool conjunctive(const LogicNode& n, bool pol) {
        return (n.op == LogicOp::conjunction) == pol;
    }

    // n without its negations; pol flipped once per negation taken off.
    static const LogicNode& stripped(const LogicNode& n) {
        return n.op == LogicOp::negation ? stripped(arg(n, 0)) : n;
    }
    static bool stripped_pol(const LogicNode& n, bool pol) {
        return n.op == LogicOp::negation ? stripped_pol(arg(n, 0), !pol) : pol;
    }

    static ExprRel relation(const LogicNode& n, bool pol) {
        return pol ? *n.rel : ExprRel(n.rel->expr(), negated(n.rel->rel()));
    }

    // A Boolean leaf as a literal on a 0/1 variable: b and 1 - b directly,
    // any other view over {0, 1} (b + 1 over -1..0) through a variable
    // equal to it.
    Lit literal(const LogicNode& n) {
        const AffineView& v = *n.view;
        check_bool(s_, v, "a Boolean in a formula");
        const IntVar x = v.var();
        if (x.min(s_) >= 0 && x.max(s_) <= 1) {
            if (v.scale() == 1 && v.offset() == 0) return {x, true};
            if (v.scale() == -1 && v.offset() == 1) return {x, false};
        }
        const IntVar l = s_.bool_var();
        ExprRel(Expr(l) - Expr(v), Rel::eq).post(s_);
        return {l, true};
    }

    Lit fresh() { return {s_.bool_var(), true}; }

    // Posts the clause: some literal of ls holds.
    void clause_of(const std::vector<Lit>& ls) {
        std::vector<IntVar> pos, neg;
        for (const Lit& l : ls) (l.positive ? pos : neg).push_back(l.var);
        propane::clause(pos, neg).post(s_);
    }

    // l ==> relation (pol), l == relation (pol) when iff.
    void reified(const Lit& l, const LogicNode& n, bool pol, bool iff_mode) {
        if (iff_mode) {
            // A negative literal ties the negated relation to its variable.
            ReifiedExprRel<IntVar>(relation(n, pol == l.positive), iff(l.var)).post(s_);
        } else if (l.positive) {
            ReifiedExprRel<IntVar>(relation(n, pol), implies(l.var)).post(s_);
        } else {
            ReifiedExprRel<AffineView>(relation(n, pol), implies(AffineView(l.var, -1, 1))).post(s_);
        }
    }

    // The parts of n (pol) taken as a disjunction, and posted so.
    void disjunction(const LogicNode& n, bool pol) {
        if (n.args.size() == 2) {
            for (std::size_t r = 0; r < 2; ++r) {
                const LogicNode& rel = stripped(arg(n, r));
                if (rel.op != LogicOp::relation) continue;
                // other || relation: !other ==> relation.
                const LogicNode& other = arg(n, 1 - r);
                reified(full(other, !pol), rel, stripped_pol(arg(n, r), pol), false);
                return;
            }
        }
        std::vector<Lit> ls;
        for (const BoolExpr& a : n.args) ls.push_back(half(a.node(), pol));
        clause_of(ls);
    }

    // A literal l with l ==> n (pol).
    Lit half(const LogicNode& n, bool pol) {
        if (n.op == LogicOp::boolean) return pol ? literal(n) : !literal(n);
        if (n.op == LogicOp::negation) return half(arg(n, 0), !pol);
        const Lit l = fresh();
        imply(l, n, pol);
        return l;
    }

    // A literal l with l == n (pol).
    Lit full(const LogicNode& n, bool pol) {
        if (n.op == LogicOp::boolean) return pol ? literal(n) : !literal(n);
        if (n.op == LogicOp::negation) return full(arg(n, 0), !pol);
        const Lit l = fresh();
        bind(l, n, pol);
        return l;
    }

    // Posts l ==> n (pol).
    void imply(const Lit& l, const LogicNode& n, bool pol) {
        switch (n.op) {
        case LogicOp::relation: reified(l, n, pol, false); return;
        case LogicOp::boolean: clause_of({!l, pol ? literal(n) : !literal(n)}); return;
        case LogicOp::negation: imply(l, arg(n, 0), !pol); return;
        case LogicOp::conjunction:
        case LogicOp::disjunction:
            if (conjunctive(n, pol)) {
                for (const BoolExpr& a : n.args) imply(l, a.node(), pol);
            } else {
                std::vector<Lit> ls{!l};
                for (const BoolExpr& a : n.args) ls.push_back(half(a.node(), pol));
                clause_of(ls);
            }
            return;
        case LogicOp::equivalence: {
            const Lit a = full(arg(n, 0), true), c = full(arg(n, 1), pol);
            clause_of({!l, !a, c});
            clause_of({!l, a, !c});
            return;
        }
        }
    }

    // Posts l == n (pol).
    void bind(const Lit& l, const LogicNode& n, bool pol) {
        switch (n.op) {
        case LogicOp::relation: reified(l, n, pol, true); return;
        case LogicOp::boolean: {
            const Lit m = pol ? literal(n) : !literal(n);
            clause_of({!l, m});
            clause_of({l, !m});
            return;
        }
        case LogicOp::negation: bind(l, arg(n, 0), !pol); return;
        case LogicOp::conjunction:
        case LogicOp::disjunction: {
            // l == (p_1 && ... && p_k): l -> each p_i, and all p_i -> l; a
            // disjunction is the same with every literal negated.
            const bool conj = conjunctive(n, pol);
            const Lit lc = conj ? l : !l;
            std::vector<Lit> back{lc};
            for (const BoolExpr& a : n.args) {
                const Lit p = full(a.node(), pol), pc = conj ? p : !p;
                clause_of({!lc, pc});
                back.push_back(!pc);
            }
            clause_of(back);
            return;
        }
        case LogicOp::equivalence: {
            const Lit a = full(arg(n, 0), true), c = full(arg(n, 1), pol);
            clause_of({!l, !a, c});
            clause_of({!l, a, !c});
            clause_of({l, a, c});
            clause_of({l, !a, !c});
            return;
        }
        }
    }

    S& s_;
};

} // namespace detail

template <class S>
void BoolExpr::post(S& s) const {
    detail::LogicPoster<S> poster(s);
    poster.check(node());
    poster.require(node(), true);
}

} // namespace propane

#endif
