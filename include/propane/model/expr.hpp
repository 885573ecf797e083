#ifndef PROPANE_MODEL_EXPR_HPP
#define PROPANE_MODEL_EXPR_HPP

// Expr: an integer expression over a store's variables, built with the
// usual operators on views (IntVar, x + c, a*x + b) and numbers:
//   x + y, 2 * x - 3 * y + 4, sum(xs), sum(weights, xs)   linear
//   abs(e), min(e, f), max(e, f), min(xs), max(xs),
//   e * f, e / f, e % f                                   non-linear
//   at(xs, i)                                             xs[i] (element)
// An Expr is a linear part (terms a*x with 64-bit coefficients, and a
// 64-bit constant) plus non-linear parts, each a coefficient times a node
// (an operator and its argument expressions). Nothing touches a store
// until the expression is posted in a relation (relation.hpp) or defines a
// variable (Store::int_var(e), define.hpp): a node then becomes an
// auxiliary variable.
//
// The arithmetic of views is left as view.hpp builds it: x + 3, 2 * x and
// -x are still views. Only what a view cannot hold (two variables, a
// product of two views, ...) is an Expr. A coefficient or constant that
// leaves 64 bits is refused with model_error.
//
// Terms are merged per variable when the expression is lowered (normal()),
// not while it is built, so sum(xs) over n views costs O(n log n).
//
// What +, - and a number's factor make of views and numbers is a
// LinearExpr: an Expr whose type says it has no node. A relation between
// two of them posts through the linear lowering alone, so a file whose
// expressions are all linear does not compile the propagators of the
// nodes (abs, min, max, times, div, mod, element) it never posts.

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <memory>
#include <ranges>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "../constraints/arguments.hpp"
#include "../engine/error.hpp"
#include "../engine/view.hpp"

namespace propane {

class Expr;

namespace detail {

// For static_assert in a template that must not be instantiated.
template <class>
inline constexpr bool never = false;

// element: args[0] the index, args[1..] the entries (at() below).
enum class ExprOp : std::uint8_t { abs, min, max, times, div, mod, element };

struct ExprNode;

// r, the result of a op b, unless the operation overflowed.
inline std::int64_t checked64(bool overflowed, std::int64_t r, std::int64_t a, const char* op, std::int64_t b) {
    if (overflowed)
        throw model_error(formatted("expression: %lld%s%lld overflows 64 bits (a coefficient or constant of the "
                                    "expression)",
                                    static_cast<long long>(a), op, static_cast<long long>(b)));
    return r;
}

inline std::int64_t add64(std::int64_t a, std::int64_t b) {
    std::int64_t r = 0;
    const bool overflowed = __builtin_add_overflow(a, b, &r);
    return checked64(overflowed, r, a, " + ", b);
}

inline std::int64_t mul64(std::int64_t a, std::int64_t b) {
    std::int64_t r = 0;
    const bool overflowed = __builtin_mul_overflow(a, b, &r);
    return checked64(overflowed, r, a, " * ", b);
}

// Any integral number as a 64-bit constant; an unsigned one beyond it is
// refused rather than wrapped (arguments.hpp's Number, as the constraint
// functions read theirs).
template <std::integral I>
std::int64_t to64(I v) {
    return Number(v).get_int64("expression", "a number");
}

} // namespace detail

class Expr {
public:
    struct Term {
        IntVar x;
        std::int64_t a;
    };
    struct Part {
        std::shared_ptr<const detail::ExprNode> node;
        std::int64_t a;
    };

    Expr() = default;
    // Implicit, so that a vector<Expr> or a function taking Expr accepts any
    // view as it is.
    Expr(IntVar x) : terms_{{x, 1}} {}                                           // NOLINT
    Expr(OffsetView v) : terms_{{v.var(), 1}}, c_(v.offset()) {}                 // NOLINT
    Expr(AffineView v) : terms_{{v.var(), v.scale()}}, c_(v.offset()) {}         // NOLINT

    static Expr constant(std::int64_t c) {
        Expr e;
        e.c_ = c;
        return e;
    }
    static Expr node(detail::ExprOp op, std::vector<Expr> args);

    const std::vector<Term>& terms() const noexcept { return terms_; }
    const std::vector<Part>& parts() const noexcept { return parts_; }
    std::int64_t constant() const noexcept { return c_; }

    Expr& operator+=(const Expr& o) {
        // push_back, not a range insert: the instances push_back needs are
        // compiled for normal() and node() anyway, and a range insert of
        // Parts (shared pointers) is 2 KB more in every file with a sum.
        // By index over the sizes read first: o may be *this (e += e), and
        // push_back copies an element of its own vector correctly. No
        // reserve: sum += x in a loop must keep push_back's doubling.
        const std::size_t nt = o.terms_.size(), np = o.parts_.size();
        for (std::size_t i = 0; i < nt; ++i) terms_.push_back(o.terms_[i]);
        for (std::size_t i = 0; i < np; ++i) parts_.push_back(o.parts_[i]);
        c_ = detail::add64(c_, o.c_);
        return *this;
    }
    Expr& operator+=(std::int64_t c) {
        c_ = detail::add64(c_, c);
        return *this;
    }
    Expr& operator*=(std::int64_t k) {
        for (Term& t : terms_) t.a = detail::mul64(t.a, k);
        for (Part& p : parts_) p.a = detail::mul64(p.a, k);
        c_ = detail::mul64(c_, k);
        return *this;
    }

    // The same expression with one term per variable, in the order of each
    // variable's first appearance, and no zero coefficient (x - x is gone);
    // the parts are kept as they are (each is its own auxiliary variable).
    Expr normal() const {
        // Each term's variable index and position in one number, sorted:
        // the terms of a variable together, in the order they came. (A
        // plain sort of numbers, not a stable sort with a comparator: this
        // is compiled in every file that posts an expression.)
        std::vector<std::uint64_t> order(terms_.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            order[i] = std::uint64_t{static_cast<std::uint32_t>(terms_[i].x.index())} << 32 | i;
        std::sort(order.begin(), order.end());
        for (std::uint64_t& o : order) o &= 0xffffffffU;
        std::vector<Term> merged = terms_;
        std::vector<bool> kept(terms_.size(), true);
        for (std::size_t k = 1; k < order.size(); ++k) {
            const std::size_t first = order[k - 1], i = order[k];
            if (!terms_[i].x.same(merged[first].x)) continue;
            merged[first].a = detail::add64(merged[first].a, merged[i].a);
            // The run of one variable accumulates into its first term.
            order[k] = first;
            kept[i] = false;
        }
        Expr out;
        out.parts_ = parts_;
        out.c_ = c_;
        for (std::size_t i = 0; i < merged.size(); ++i)
            if (kept[i] && merged[i].a != 0) out.terms_.push_back(merged[i]);
        return out;
    }

    // Whether the expression is a number: no term left once merged, no part.
    bool is_constant() const { return parts_.empty() && normal().terms_.empty(); }

    // The expression as text, variables by index (v3 for the variable of
    // index 3): for messages.
    std::string text() const;

private:
    std::vector<Term> terms_;
    std::vector<Part> parts_;
    std::int64_t c_ = 0;
};

// An Expr known to be linear: views and numbers under +, - and constant
// factors (see the head of this file). It converts to Expr wherever one is
// taken; a non-linear operand makes the result an Expr, and adding one to
// a LinearExpr in place does not compile (declare Expr instead).
class LinearExpr : public Expr {
public:
    using Expr::Expr;
    LinearExpr() = default;
    // e, which must have no node: a model_error otherwise. (The message
    // does not print e: every sum of views passes here, and would compile
    // the printing of every node.)
    explicit LinearExpr(Expr e) : Expr(std::move(e)) {
        if (!parts().empty())
            throw model_error("LinearExpr: an expression with abs, min, max, *, /, % or at over variables is not "
                              "linear; declare it propane::Expr");
    }

    LinearExpr& operator+=(const LinearExpr& o) {
        Expr::operator+=(o);
        return *this;
    }
    LinearExpr& operator+=(std::int64_t c) {
        Expr::operator+=(c);
        return *this;
    }
    LinearExpr& operator*=(std::int64_t k) {
        Expr::operator*=(k);
        return *this;
    }
    template <class E>
        requires(std::derived_from<E, Expr> && !std::derived_from<E, LinearExpr>)
    LinearExpr& operator+=(const E&) {
        static_assert(detail::never<E>, "propane: this expression is a LinearExpr (auto e = x + y makes one), "
                                        "which stays linear; to add a non-linear term declare it propane::Expr: "
                                        "propane::Expr e = x + y");
        return *this;
    }
    template <class E>
        requires(std::derived_from<E, Expr> && !std::derived_from<E, LinearExpr>)
    LinearExpr& operator=(const E&) {
        static_assert(detail::never<E>, "propane: this expression is a LinearExpr (auto e = x + y makes one), "
                                        "which stays linear; to assign a non-linear one declare it propane::Expr: "
                                        "propane::Expr e = x + y");
        return *this;
    }
};

// A LinearExpr whose type also counts its view operands: N of them, 4
// standing for four or more. The operators make these (x + y is a
// LinearSum<2>, 2 * x - y + z + 4 a LinearSum<3>), so that a relation
// between linear sides knows its shape when it is compiled and posts
// through that shape's propagators alone (relation.hpp). The count is of
// operands, not of the terms left once they merge (x + x) or cancel, and
// += on a sum adds terms its type does not count: the post takes every
// count, the type only chooses which shapes it prepares the faster
// propagators for.
template <int N>
class LinearSum : public LinearExpr {
public:
    using LinearExpr::LinearExpr;
};

namespace detail {

struct ExprNode {
    ExprOp op;
    std::vector<Expr> args;
};

inline const char* op_name(ExprOp op) noexcept {
    switch (op) {
    case ExprOp::abs: return "abs";
    case ExprOp::min: return "min";
    case ExprOp::max: return "max";
    case ExprOp::times: return "*";
    case ExprOp::div: return "/";
    case ExprOp::mod: return "%";
    case ExprOp::element: return "at";
    }
    return "?";
}

// Built by appending throughout: g++ 12 at -O3 takes "(" + std::string&&
// for an overlapping memcpy (-Wrestrict, a false positive).
inline std::string node_text(const ExprNode& n) {
    std::string out;
    if (n.op == ExprOp::times || n.op == ExprOp::div || n.op == ExprOp::mod) {
        out += '(';
        out += n.args[0].text();
        out += ") ";
        out += op_name(n.op);
        out += " (";
        out += n.args[1].text();
        out += ')';
        return out;
    }
    out += op_name(n.op);
    out += '(';
    // at({xs}, i): the entries first, as the call reads.
    const bool element = n.op == ExprOp::element;
    if (element) out += '{';
    for (std::size_t i = element ? 1 : 0; i < n.args.size(); ++i) {
        if (i > (element ? 1 : 0)) out += ", ";
        out += n.args[i].text();
    }
    if (element) {
        out += "}, ";
        out += n.args[0].text();
    }
    out += ')';
    return out;
}

inline std::string magnitude_text(std::int64_t a) {
    return std::to_string(a < 0 ? 0 - static_cast<std::uint64_t>(a) : static_cast<std::uint64_t>(a));
}

// Appends "+ a*what" (or "- ...", "what" alone first) to out.
inline void append_term(std::string& out, std::int64_t a, const std::string& what) {
    const bool negative = a < 0;
    if (!out.empty()) out += negative ? " - " : " + ";
    else if (negative) out += "-";
    if (a != 1 && a != -1) {
        out += magnitude_text(a);
        out += '*';
    }
    out += what;
}

} // namespace detail

inline Expr Expr::node(detail::ExprOp op, std::vector<Expr> args) {
    Expr e;
    e.parts_.push_back({std::make_shared<const detail::ExprNode>(detail::ExprNode{op, std::move(args)}), 1});
    return e;
}

inline std::string Expr::text() const {
    std::string out;
    for (const Term& t : terms_) {
        std::string name = "v";
        name += std::to_string(t.x.index());
        detail::append_term(out, t.a, name);
    }
    for (const Part& p : parts_) detail::append_term(out, p.a, detail::node_text(*p.node));
    if (out.empty()) return std::to_string(c_);
    if (c_ != 0) {
        out += c_ < 0 ? " - " : " + ";
        out += detail::magnitude_text(c_);
    }
    return out;
}

// What takes part in expressions: the views and Expr itself. Numbers are
// the other operand of a mixed operation, never an Operand: x + 3 stays a
// view (view.hpp).
template <class T>
concept Operand = std::same_as<std::remove_cvref_t<T>, IntVar> || std::same_as<std::remove_cvref_t<T>, OffsetView> ||
                  std::same_as<std::remove_cvref_t<T>, AffineView> || std::derived_from<std::remove_cvref_t<T>, Expr>;

// An operand or a number, with at least one operand among the two: what
// the binary operators below take. Only Expr with a number: a view with a
// number is view.hpp's.
template <class A, class B>
concept ExprOperands = (Operand<A> && Operand<B>) || (std::derived_from<A, Expr> && std::integral<B>) ||
                       (std::integral<A> && std::derived_from<B, Expr>);

namespace detail {

// A view, a LinearExpr or a number: what keeps a sum linear.
template <class T>
concept LinearSide = std::integral<T> || (Operand<T> && !std::same_as<T, Expr> &&
                                          (!std::derived_from<T, Expr> || std::derived_from<T, LinearExpr>));

// The view operands a linear side holds: 0 for a number, 1 for a view,
// LinearSum's N, and -1 (not counted) for any other LinearExpr.
template <class T>
inline constexpr int operand_count = std::integral<T> ? 0 : std::derived_from<T, Expr> ? -1 : 1;
template <int N>
inline constexpr int operand_count<LinearSum<N>> = N;

// The count of a + b: -1 if either side is not counted, at most 4.
template <class A, class B>
inline constexpr int sum_count = operand_count<A> < 0 || operand_count<B> < 0
                                     ? -1
                                     : std::min(operand_count<A> + operand_count<B>, 4);

template <int N>
using linear_t = std::conditional_t<(N < 0), LinearExpr, LinearSum<(N < 0 ? 1 : N)>>;

// The type of a + b and a - b, and of a * b (linear only with a number).
template <class A, class B>
using sum_t = std::conditional_t<LinearSide<A> && LinearSide<B>, linear_t<sum_count<A, B>>, Expr>;
template <class A, class B>
using product_t = std::conditional_t<LinearSide<A> && LinearSide<B> && (std::integral<A> || std::integral<B>),
                                     linear_t<sum_count<A, B>>, Expr>;

// e as the type R: a LinearExpr when the operands made one.
template <class R>
R typed(Expr e) {
    if constexpr (std::same_as<R, Expr>)
        return e;
    else
        return R(std::move(e));
}

template <class T>
Expr as_expr(const T& v) {
    if constexpr (std::integral<T>)
        return Expr::constant(to64(v));
    else
        return Expr(v);
}

} // namespace detail

template <class A, class B>
    requires ExprOperands<A, B>
detail::sum_t<A, B> operator+(const A& a, const B& b) {
    Expr e = detail::as_expr(a);
    e += detail::as_expr(b);
    return detail::typed<detail::sum_t<A, B>>(std::move(e));
}

template <class A, class B>
    requires ExprOperands<A, B>
detail::sum_t<A, B> operator-(const A& a, const B& b) {
    Expr e = detail::as_expr(b);
    e *= -1;
    e += detail::as_expr(a);
    return detail::typed<detail::sum_t<A, B>>(std::move(e));
}

template <class E>
    requires std::derived_from<E, Expr>
E operator-(const E& e) {
    E out = e;
    out *= -1;
    return out;
}

// A product with a constant factor scales the other; otherwise it is a
// node (times.hpp).
template <class A, class B>
    requires ExprOperands<A, B>
detail::product_t<A, B> operator*(const A& a, const B& b) {
    if constexpr (std::derived_from<detail::product_t<A, B>, LinearExpr>) {
        // A linear operand scaled by a number, never a node.
        if constexpr (std::integral<A>) {
            return b * a;
        } else {
            detail::product_t<A, B> e = a;
            e *= detail::to64(b);
            return e;
        }
    } else {
        Expr x = detail::as_expr(a), y = detail::as_expr(b);
        if (y.is_constant()) std::swap(x, y);
        if (x.is_constant()) {
            y *= x.constant();
            return y;
        }
        return Expr::node(detail::ExprOp::times, {std::move(x), std::move(y)});
    }
}

// e / f and e % f, C++'s truncating division (div_mod.hpp); the divisor
// may be a number.
template <class A, class B>
    requires(Operand<A> && (Operand<B> || std::integral<B>)) || (std::integral<A> && Operand<B>)
Expr operator/(const A& a, const B& b) {
    return Expr::node(detail::ExprOp::div, {detail::as_expr(a), detail::as_expr(b)});
}

template <class A, class B>
    requires(Operand<A> && (Operand<B> || std::integral<B>)) || (std::integral<A> && Operand<B>)
Expr operator%(const A& a, const B& b) {
    return Expr::node(detail::ExprOp::mod, {detail::as_expr(a), detail::as_expr(b)});
}

// |e|. The two-argument abs(x, y) of abs.hpp is the constraint y == |x|.
template <Operand E>
Expr abs(const E& e) {
    return Expr::node(detail::ExprOp::abs, {Expr(e)});
}

// min(e, f), max(e, f) of two operands, and min(xs), max(xs) of a range
// of them. min(xs, y) with a range and a view is min_max.hpp's constraint
// y == min(xs).
template <Operand A, Operand B>
Expr min(const A& a, const B& b) {
    return Expr::node(detail::ExprOp::min, {Expr(a), Expr(b)});
}
template <Operand A, Operand B>
Expr max(const A& a, const B& b) {
    return Expr::node(detail::ExprOp::max, {Expr(a), Expr(b)});
}

namespace detail {

template <class R>
concept OperandRange = std::ranges::input_range<R> && Operand<std::ranges::range_value_t<R>>;

template <OperandRange R>
std::vector<Expr> exprs_of(const R& xs, const char* who) {
    std::vector<Expr> out;
    for (const auto& x : xs) out.emplace_back(x);
    if (out.empty()) throw model_error(std::string(who) + "(xs): xs is empty, and the extremum of nothing is undefined");
    return out;
}

} // namespace detail

template <detail::OperandRange R>
Expr min(const R& xs) {
    return Expr::node(detail::ExprOp::min, detail::exprs_of(xs, "min"));
}
template <detail::OperandRange R>
Expr max(const R& xs) {
    return Expr::node(detail::ExprOp::max, detail::exprs_of(xs, "max"));
}

namespace detail {

// at()'s node, or element()'s arguments over expressions (define.hpp):
// the index first, then the entries; `who` names the caller.
inline std::vector<Expr> element_args(std::vector<Expr> entries, Expr i, const char* who) {
    if (entries.empty()) throw model_error(std::string(who) + "(xs, i): xs is empty, so no index can be chosen");
    std::vector<Expr> args;
    args.reserve(entries.size() + 1);
    args.push_back(std::move(i));
    for (Expr& e : entries) args.push_back(std::move(e));
    return args;
}

inline std::vector<Expr> constants_of(const Numbers& xs, const char* who) {
    std::vector<Expr> out;
    for (const int w : xs.as_ints(who, "xs")) out.push_back(Expr::constant(w));
    return out;
}

} // namespace detail

// at(xs, i): xs[i], the 0-based index i a view or an expression (an index
// outside xs has no value: element.hpp). xs is a range or braced list of
// views or expressions, or of numbers of any integral type within int
// (an empty one is a model_error). Its variable is tied to i by element(),
// over numbers when every entry is one (define.hpp).
template <detail::OperandRange R>
Expr at(const R& xs, const Expr& i) {
    std::vector<Expr> entries;
    for (const auto& x : xs) entries.emplace_back(x);
    return Expr::node(detail::ExprOp::element, detail::element_args(std::move(entries), i, "at"));
}
inline Expr at(std::initializer_list<Expr> xs, const Expr& i) {
    return Expr::node(detail::ExprOp::element, detail::element_args(std::vector<Expr>(xs), i, "at"));
}
inline Expr at(const detail::Numbers& xs, const Expr& i) {
    return Expr::node(detail::ExprOp::element, detail::element_args(detail::constants_of(xs, "at"), i, "at"));
}

namespace detail {

// LinearExpr over views and LinearExprs (not counted: the range's length
// is known at run time), Expr otherwise.
template <class R>
using sum_of_t = std::conditional_t<LinearSide<std::ranges::range_value_t<R>>, LinearExpr, Expr>;

} // namespace detail

// xs[0] + ... + xs[n-1]; 0 for no xs.
template <detail::OperandRange R>
detail::sum_of_t<R> sum(const R& xs) {
    Expr e;
    for (const auto& x : xs) e += Expr(x);
    return detail::typed<detail::sum_of_t<R>>(std::move(e));
}
inline Expr sum(std::initializer_list<Expr> xs) { return sum(std::vector<Expr>(xs)); }

// weights[0] * xs[0] + ...: the weights any integral type, one per operand.
template <std::ranges::forward_range W, detail::OperandRange R>
    requires std::ranges::forward_range<R> && std::integral<std::ranges::range_value_t<W>>
detail::sum_of_t<R> sum(const W& weights, const R& xs) {
    const auto nw = std::ranges::distance(weights), nx = std::ranges::distance(xs);
    if (nw != nx)
        throw model_error("sum(weights, xs): " + std::to_string(nw) + " weights for " + std::to_string(nx) +
                          " operands; each operand needs one weight");
    Expr e;
    auto w = std::ranges::begin(weights);
    for (const auto& x : xs) {
        Expr t(x);
        t *= detail::to64(*w++);
        e += t;
    }
    return detail::typed<detail::sum_of_t<R>>(std::move(e));
}

} // namespace propane

#endif
