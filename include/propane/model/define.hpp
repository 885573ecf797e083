#ifndef PROPANE_MODEL_DEFINE_HPP
#define PROPANE_MODEL_DEFINE_HPP

// Variables defined by expressions. Each non-linear node of an expression
// (abs, min, max, *, /, %, at) becomes an auxiliary variable when the
// expression is posted, with the tightest domain its operands' current
// bounds allow (abs of [-3, 5] is [0, 5]), tied to its operands by the
// node's propagator (abs.hpp, min_max.hpp, times.hpp, div_mod.hpp,
// element.hpp: at(xs, i) over the hull of the entries i can pick). An
// operand that is not a plain variable is itself defined first, by a
// linear equality. s.int_var(e) (store.hpp) returns the variable of e,
// made the same way, and expr_view gives the global constraints their
// expression arguments as views (constraints/arguments.hpp).
//
// A domain beyond int, or beyond what the store's domains can hold, is a
// model_error naming the expression.

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <optional>
#include <ranges>
#include <string>
#include <utility>
#include <vector>

#include "../constraints/abs.hpp"
#include "../constraints/div_mod.hpp"
#include "../constraints/element.hpp"
#include "../constraints/min_max.hpp"
#include "../constraints/times.hpp"
#include "expr.hpp"
#include "lower.hpp"

namespace propane {

namespace detail {

struct Range64 {
    std::int64_t lo;
    std::int64_t hi;
};

// A fresh variable over lo .. hi, or model_error naming `what` when the
// range does not fit in int or in the store's domains.
template <class S>
IntVar aux_var(S& s, std::int64_t lo, std::int64_t hi, const std::string& what) {
    if (lo < int_min || hi > int_max)
        throw model_error("expression " + what + ": its values span " + std::to_string(lo) + ".." +
                          std::to_string(hi) + ", beyond int");
    try {
        return s.int_var(static_cast<int>(lo), static_cast<int>(hi));
    } catch (const model_error& e) {
        throw model_error("expression " + what + ": " + e.what());
    }
}

// The least and greatest value of a linear, normal e in s now.
template <class S>
Range64 bounds_of(const S& s, const Expr& e) {
    Range64 r{e.constant(), e.constant()};
    for (const Expr::Term& t : e.terms()) {
        const std::int64_t u = mul64(t.a, t.x.min(s)), w = mul64(t.a, t.x.max(s));
        r.lo = add64(r.lo, std::min(u, w));
        r.hi = add64(r.hi, std::max(u, w));
    }
    return r;
}

template <class S>
IntVar node_var(S& s, const ExprNode& n);

// e with every node replaced by its variable, merged per variable; each
// variable checked to be s's (`who` names the entry point).
template <class S>
Expr resolved(S& s, const Expr& e, const char* who) {
    for (const Expr::Term& t : e.terms()) s.check(t.x, who);
    Expr out;
    for (const Expr::Term& t : e.terms()) {
        Expr term(t.x);
        term *= t.a;
        out += term;
    }
    for (const Expr::Part& p : e.parts()) {
        Expr term(node_var(s, *p.node));
        term *= p.a;
        out += term;
    }
    out += e.constant();
    return out.normal();
}

// e, a LinearExpr's, merged per variable; each variable checked to be s's.
// A LinearExpr has no node unless one was added through an Expr& to it,
// which is refused rather than lowered (that would compile every node).
template <class S>
Expr resolved_linear(S& s, const Expr& e, const char* who) {
    for (const Expr::Term& t : e.terms()) s.check(t.x, who);
    if (!e.parts().empty())
        throw model_error(std::string(who) + ": a LinearExpr holds a non-linear term, added through a reference "
                          "to its Expr; build it as a propane::Expr");
    return e.normal();
}

// A fresh variable over the bounds of lin (linear, normal), tied to it by
// a linear equality; `what` names the expression in messages.
template <class S>
IntVar equal_var(S& s, const Expr& lin, const std::string& what) {
    const Range64 r = bounds_of(s, lin);
    const IntVar v = aux_var(s, r.lo, r.hi, what);
    Expr def = lin;
    def += Expr(-1 * v);
    post_linear(s, def.normal(), Rel::eq);
    return v;
}

// The variable equal to e: e's own when e is a plain variable.
template <class S>
IntVar var_of(S& s, const Expr& e, const char* who) {
    const Expr lin = resolved(s, e, who);
    if (lin.terms().size() == 1 && lin.terms()[0].a == 1 && lin.constant() == 0) return lin.terms()[0].x;
    return equal_var(s, lin, e.text());
}

// An expression given to a global constraint (arguments.hpp's Listed) as
// a view: a*x + b when it comes to one term that fits a view (a node's
// variable counts, so 2 * abs(x) needs no more than abs's), else the
// variable equal to it. as_view() finds it through Listed's namespace.
template <class S>
AffineView expr_view(S& s, const Listed& item, const char* who) {
    const Expr& e = *item.expr();
    const Expr lin = resolved(s, e, who);
    if (lin.terms().size() == 1) {
        const Expr::Term& t = lin.terms()[0];
        if (affine_fits(t.x, t.a, lin.constant()))
            return AffineView(t.x, static_cast<int>(t.a), static_cast<int>(lin.constant()));
    }
    return equal_var(s, lin, e.text());
}

// The index and entries of at(xs, i) or of element() over expressions
// (args: the index, then the entries), each a variable, or the entries as
// numbers when every one is a number.
struct ElementArgs {
    IntVar i;
    std::vector<IntVar> xs;
    std::vector<int> numbers;
    bool over_numbers = false;

    // The least and greatest value of the entries i can pick; {0, 0} when
    // it picks none (element() then fails the store).
    template <class S>
    Range64 hull(const S& s) const {
        const std::int64_t n = over_numbers ? std::int64_t(numbers.size()) : std::int64_t(xs.size());
        Range64 r{int_max, int_min};
        for (std::int64_t k = std::max<std::int64_t>(0, i.min(s)); k <= std::min<std::int64_t>(n - 1, i.max(s)); ++k) {
            if (!i.contains(s, static_cast<int>(k))) continue;
            const auto p = std::size_t(k);
            r.lo = std::min<std::int64_t>(r.lo, over_numbers ? numbers[p] : xs[p].min(s));
            r.hi = std::max<std::int64_t>(r.hi, over_numbers ? numbers[p] : xs[p].max(s));
        }
        return r.lo <= r.hi ? r : Range64{0, 0};
    }

    // element(..., i, y), y a variable or an int.
    template <class S, class Y>
    void post(S& s, const Y& y) const {
        if (over_numbers)
            elements::over_array(numbers, i, y).post(s);
        else
            elements::over_views(xs, i, y).post(s);
    }
};

template <class S>
ElementArgs element_vars(S& s, const std::vector<Expr>& args, const char* who) {
    ElementArgs a{var_of(s, args[0], who), {}, {}, false};
    a.over_numbers = std::all_of(args.begin() + 1, args.end(), [](const Expr& e) { return e.is_constant(); });
    for (auto e = args.begin() + 1; e != args.end(); ++e) {
        if (a.over_numbers)
            a.numbers.push_back(Number(e->constant()).get_int(who, "an entry of xs"));
        else
            a.xs.push_back(var_of(s, *e, who));
    }
    return a;
}

inline Range64 abs_range(Range64 x) {
    if (x.lo >= 0) return x;
    if (x.hi <= 0) return {-x.hi, -x.lo};
    return {0, std::max(-x.lo, x.hi)};
}

inline Range64 product_range(Range64 x, Range64 y, bool square) {
    if (square) {
        const Range64 m = abs_range(x);
        return {m.lo * m.lo, m.hi * m.hi};
    }
    const std::int64_t c[] = {x.lo * y.lo, x.lo * y.hi, x.hi * y.lo, x.hi * y.hi};
    return {*std::min_element(std::begin(c), std::end(c)), *std::max_element(std::begin(c), std::end(c))};
}

// Truncating x / y over y's nonzero values: the quotient is monotone in x
// for a fixed y, and in y on each side of 0, so its extremes lie at x's
// bounds and y's bounds or +-1. A divisor that can only be 0 leaves no
// quotient; the result is then {0}, and the division posted over it fails.
inline Range64 quotient_range(Range64 x, Range64 y) {
    std::vector<std::int64_t> ds;
    for (const std::int64_t d : {y.lo, y.hi, std::int64_t{-1}, std::int64_t{1}})
        if (d != 0 && d >= y.lo && d <= y.hi) ds.push_back(d);
    if (ds.empty()) return {0, 0};
    Range64 r{int_max + 1, int_min - 1};
    for (const std::int64_t d : ds)
        for (const std::int64_t n : {x.lo, x.hi}) r = {std::min(r.lo, n / d), std::max(r.hi, n / d)};
    return r;
}

// x % y takes x's sign, and |x % y| < |y|, |x % y| <= |x| (a divisor that
// can only be 0: {0}, as for the quotient).
inline Range64 remainder_range(Range64 x, Range64 y) {
    if (y.lo == 0 && y.hi == 0) return {0, 0};
    const std::int64_t below = std::max(-y.lo, y.hi) - 1;
    return {x.lo < 0 ? -std::min(-x.lo, below) : 0, x.hi > 0 ? std::min(x.hi, below) : 0};
}

template <class S>
IntVar node_var(S& s, const ExprNode& n) {
    const std::string what = node_text(n);
    if (n.op == ExprOp::element) {
        // Its entries need no variable when they are numbers.
        const ElementArgs a = element_vars(s, n.args, "at");
        const Range64 r = a.hull(s);
        const IntVar v = aux_var(s, r.lo, r.hi, what);
        a.post(s, v);
        return v;
    }
    std::vector<IntVar> xs;
    std::vector<Range64> rs;
    for (const Expr& a : n.args) {
        xs.push_back(var_of(s, a, op_name(n.op)));
        rs.push_back({xs.back().min(s), xs.back().max(s)});
    }
    switch (n.op) {
    case ExprOp::abs: {
        const Range64 r = abs_range(rs[0]);
        const IntVar v = aux_var(s, r.lo, r.hi, what);
        propane::abs(xs[0], v).post(s);
        return v;
    }
    case ExprOp::min:
    case ExprOp::max: {
        Range64 r = rs[0];
        for (const Range64& x : rs)
            r = n.op == ExprOp::min ? Range64{std::min(r.lo, x.lo), std::min(r.hi, x.hi)}
                                    : Range64{std::max(r.lo, x.lo), std::max(r.hi, x.hi)};
        const IntVar v = aux_var(s, r.lo, r.hi, what);
        if (n.op == ExprOp::min)
            propane::min(xs, v).post(s);
        else
            propane::max(xs, v).post(s);
        return v;
    }
    case ExprOp::times: {
        const Range64 r = product_range(rs[0], rs[1], xs[0].same(xs[1]));
        const IntVar v = aux_var(s, r.lo, r.hi, what);
        propane::times(xs[0], xs[1], v).post(s);
        return v;
    }
    case ExprOp::div: {
        const Range64 r = quotient_range(rs[0], rs[1]);
        const IntVar v = aux_var(s, r.lo, r.hi, what);
        propane::div(xs[0], xs[1], v).post(s);
        return v;
    }
    case ExprOp::mod: {
        const Range64 r = remainder_range(rs[0], rs[1]);
        const IntVar v = aux_var(s, r.lo, r.hi, what);
        propane::mod(xs[0], xs[1], v).post(s);
        return v;
    }
    case ExprOp::element: break; // above
    }
    throw model_error("expression " + what + ": unknown operator");
}

// The variable equal to x (a fresh one, unless x is a single non-linear
// node, whose own variable it is). Not inline, for <propane/compiled.hpp>.
template <class S>
IntVar define_var(S& s, const Expr& x);

template <class S>
IntVar define_var(S& s, const Expr& x) {
    if (x.terms().empty() && x.parts().size() == 1 && x.parts()[0].a == 1 && x.constant() == 0)
        return node_var(s, *x.parts()[0].node);
    return equal_var(s, resolved(s, x, "int_var"), x.text());
}

} // namespace detail

// element(xs, i, y) over expressions: y == xs[i] with any of xs's entries,
// i and y an expression (a number for y too), each entry, i and y that is
// not a plain variable given one by a linear equality (var_of) first;
// entries that are all numbers post element() over numbers. The forms
// over views alone are element.hpp's, which take views without that step.
struct ElementOfExprs {
    std::vector<Expr> args; // the index, then the entries
    Expr y;
    std::optional<int> c;   // y, when it is a number

    // Out of the class, as ExprRel::post.
    template <class S>
    void post(S& s) const;
};

template <class S>
void ElementOfExprs::post(S& s) const {
    const detail::ElementArgs a = detail::element_vars(s, args, "element");
    if (c)
        a.post(s, *c);
    else
        a.post(s, detail::var_of(s, y, "element"));
}

namespace detail {

template <class Y>
ElementOfExprs element_of_exprs(std::vector<Expr> entries, const Expr& i, const Y& y) {
    ElementOfExprs e{element_args(std::move(entries), i, "element"), {}, {}};
    if constexpr (std::integral<Y> || std::same_as<Y, Number>)
        e.c = Number(y).get_int("element", "y");
    else
        e.y = Expr(y);
    return e;
}

template <class T>
concept ElementResult = Operand<T> || std::integral<T>;

} // namespace detail

template <detail::OperandRange R, Operand I, detail::ElementResult Y>
    requires std::derived_from<std::ranges::range_value_t<R>, Expr> || std::derived_from<I, Expr> ||
             std::derived_from<Y, Expr>
ElementOfExprs element(const R& xs, const I& i, const Y& y) {
    std::vector<Expr> entries;
    for (const auto& x : xs) entries.emplace_back(x);
    return detail::element_of_exprs(std::move(entries), Expr(i), y);
}
inline ElementOfExprs element(std::initializer_list<Expr> xs, const Expr& i, const Expr& y) {
    return detail::element_of_exprs(std::vector<Expr>(xs), i, y);
}
inline ElementOfExprs element(std::initializer_list<Expr> xs, const Expr& i, detail::Number y) {
    return detail::element_of_exprs(std::vector<Expr>(xs), i, y);
}
inline ElementOfExprs element(const detail::Numbers& array, const Expr& i, const Expr& y) {
    return detail::element_of_exprs(detail::constants_of(array, "element"), i, y);
}
inline ElementOfExprs element(const detail::Numbers& array, const Expr& i, detail::Number y) {
    return detail::element_of_exprs(detail::constants_of(array, "element"), i, y);
}

// What Store::int_var(e) calls.
template <class S, Operand E>
IntVar define_int_var(S& s, const E& e) {
    return detail::define_var(s, Expr(e));
}

} // namespace propane

#endif
