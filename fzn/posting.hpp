#ifndef PROPANE_FZN_POSTING_HPP
#define PROPANE_FZN_POSTING_HPP

// What the builtin posters (builtins.cpp) share: relations, linear sums
// and clauses over terms, any of which may be a constant. A constant
// folds into the constraint where that makes a smaller one (x r c for
// x r y, the right-hand side of a sum, a clause a true literal satisfies);
// a constraint over constants alone is checked at once (the store fails if
// it does not hold).

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "builder.hpp"

namespace propane::fzn::posting {

inline void need(const ConstraintItem& c, std::size_t n) {
    if (c.args.size() != n)
        throw SyntaxError(c.line, c.column, c.name + " takes " + std::to_string(n) + " arguments, not " +
                                                std::to_string(c.args.size()));
}

// The library's own: a r b is b flip(r) a; negate(r) is r's complement.
inline Rel flip(Rel r) { return detail::swapped(r); }
inline Rel negate(Rel r) { return detail::negated(r); }
inline bool holds(std::int64_t a, Rel r, std::int64_t b) { return detail::holds(r, a, b); }

inline void set_bool(Builder& b, const Term& t, bool value) {
    if (t.fixed) {
        if ((t.value != 0) != value) (void)b.store().fail();
        return;
    }
    (void)b.store().assign(t.var, value ? 1 : 0);
}

// x r y, either side possibly a constant.
inline void post_rel(Builder& b, const Term& x, Rel r, const Term& y) {
    FznStore& s = b.store();
    if (x.fixed && y.fixed) {
        if (!holds(x.value, r, y.value)) (void)s.fail();
    } else if (y.fixed) {
        s.post(rel(x.var, r, y.value));
    } else if (x.fixed) {
        s.post(rel(y.var, flip(r), x.value));
    } else {
        s.post(rel(x.var, r, y.var));
    }
}

// x r y reified on (or implied by) the Boolean term z.
inline void post_rel_reif(Builder& b, const Term& x, Rel r, const Term& y, const Term& z, ReifyMode mode) {
    FznStore& s = b.store();
    if (z.fixed) {
        if (z.value != 0) post_rel(b, x, r, y);
        else if (mode == ReifyMode::iff) post_rel(b, x, negate(r), y);
        return;
    }
    const Reify<IntVar> re{z.var, mode};
    if (x.fixed && y.fixed) {
        if (!holds(x.value, r, y.value)) set_bool(b, z, false);
        else if (mode == ReifyMode::iff) set_bool(b, z, true);
    } else if (y.fixed) {
        s.post(rel(x.var, r, y.value, re));
    } else if (x.fixed) {
        s.post(rel(y.var, flip(r), x.value, re));
    } else {
        s.post(rel(x.var, r, y.var, re));
    }
}

// Whether e is two terms, one scaled (a coefficient other than +-1), over
// a variable in the interval form (past 65,536 values). There the lowering's
// rel would be domain consistent through a scaled view, cutting every value
// the scale skips: obj == 1000 * x over a billion values would keep a
// million runs, and walk them at each propagation. Such a pair stays a
// bounds-consistent linear(), as it was before the lowering took over.
inline bool scaled_over_wide(const FznStore& s, const Expr& e) {
    const std::vector<Expr::Term>& t = e.terms();
    if (t.size() != 2) return false;
    const auto unit = [](std::int64_t a) { return a == 1 || a == -1; };
    const auto wide = [&](IntVar x) { return s.domain(x).representation() == Representation::interval; };
    return !(unit(t[0].a) && unit(t[1].a)) && (wide(t[0].x) || wide(t[1].x));
}

// sum coeffs[k] * xs[k] r rhs, constants folded into rhs; reified on z
// when given. What is left goes through the modelling layer's lowering
// (model/lower.hpp), as s.post(y == x + 3) and s.post(b == (y == x + 3))
// would post it in C++: one term is a bound or a value applied at once, two
// terms a rel between views (y == x + 3 as rel(y, eq, x + 3), x + y == 5
// as rel(x, eq, -y + 5), 2x == y as rel(2x, eq, y)), domain consistent
// where rel is, and three or more linear(). So MiniZinc's offset variables
// keep the holes of the variables they offset, as in C++. One exception,
// scaled_over_wide() above.
inline void post_linear(Builder& b, std::vector<std::int64_t> coeffs, const std::vector<Term>& xs, Rel r,
                 std::int64_t rhs, const Term* z = nullptr, ReifyMode mode = ReifyMode::iff) {
    FznStore& s = b.store();
    if (coeffs.size() != xs.size())
        throw model_error(std::to_string(coeffs.size()) + " coefficients for " + std::to_string(xs.size()) + " terms");
    std::vector<std::int64_t> cs;
    std::vector<IntVar> vs;
    for (std::size_t k = 0; k < xs.size(); ++k) {
        if (xs[k].fixed) {
            std::int64_t product = 0;
            if (__builtin_mul_overflow(coeffs[k], xs[k].value, &product) || __builtin_sub_overflow(rhs, product, &rhs))
                throw model_error("the constant terms overflow 64 bits");
        } else if (coeffs[k] != 0) {
            cs.push_back(coeffs[k]);
            vs.push_back(xs[k].var);
        }
    }
    if (z && z->fixed) {
        if (z->value != 0) z = nullptr;
        else if (mode == ReifyMode::implies) return;
        else {
            r = negate(r);
            z = nullptr;
        }
    }
    if (vs.empty()) {
        const bool ok = holds(0, r, rhs);
        if (!z) {
            if (!ok) (void)s.fail();
        } else if (!ok) {
            set_bool(b, *z, false);
        } else if (mode == ReifyMode::iff) {
            set_bool(b, *z, true);
        }
        return;
    }
    Expr e = Expr::constant(rhs);
    e *= -1;
    for (std::size_t k = 0; k < vs.size(); ++k) {
        Expr t(vs[k]);
        t *= cs[k];
        e += t;
    }
    if (scaled_over_wide(s, e.normal())) {
        if (z) s.post(linear(cs, vs, r, rhs, Reify<IntVar>{z->var, mode}));
        else s.post(linear(cs, vs, r, rhs));
        return;
    }
    ExprRel relation(std::move(e), r);
    if (z) s.post(ReifiedExprRel<IntVar>(std::move(relation), Reify<IntVar>{z->var, mode}));
    else s.post(relation);
}

// A clause over Boolean terms; constant literals dropped or satisfying.
// With z: z <-> clause (iff) or z -> clause (implies).
inline void post_clause(Builder& b, const std::vector<Term>& pos, const std::vector<Term>& neg, const Term* z = nullptr,
                 ReifyMode mode = ReifyMode::iff) {
    FznStore& s = b.store();
    std::vector<IntVar> p, n;
    bool satisfied = false;
    for (const Term& t : pos) {
        if (!t.fixed) p.push_back(t.var);
        else if (t.value != 0) satisfied = true;
    }
    for (const Term& t : neg) {
        if (!t.fixed) n.push_back(t.var);
        else if (t.value == 0) satisfied = true;
    }
    if (z && z->fixed) {
        if (z->value != 0) {
            z = nullptr;
        } else {
            if (mode == ReifyMode::implies) return;
            // The clause is false: every literal false.
            for (const IntVar& x : p) (void)s.assign(x, 0);
            for (const IntVar& x : n) (void)s.assign(x, 1);
            if (satisfied) (void)s.fail();
            return;
        }
    }
    if (satisfied) {
        if (z && mode == ReifyMode::iff) set_bool(b, *z, true);
        return;
    }
    if (!z) s.post(clause(p, n));
    else s.post(clause(p, n, Reify<IntVar>{z->var, mode}));
}

// r <-> (a_1 and ... and a_n), or r -> it: for each k, (a_k or not r),
// and for iff the clause (not a_1 or ... or not a_n or r).
inline void post_and(Builder& b, const std::vector<Term>& as, const Term& r, ReifyMode mode) {
    if (r.fixed && r.value != 0) {
        for (const Term& a : as) set_bool(b, a, true);
        return;
    }
    if (r.fixed) {
        if (mode == ReifyMode::iff) post_clause(b, {}, as);
        return;
    }
    for (const Term& a : as) post_clause(b, {a}, {r});
    if (mode == ReifyMode::iff) post_clause(b, {r}, as);
}

} // namespace propane::fzn::posting

#endif
