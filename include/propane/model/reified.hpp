#ifndef PROPANE_MODEL_REIFIED_HPP
#define PROPANE_MODEL_REIFIED_HPP

// A relation tied to a Boolean: b == (x + y <= z) posts the reified form
// (b is 1 exactly when the relation holds; (x + y <= z) == b too), and
// b >> (x != y) the implication (b == 1 forces the relation). b is a view
// over {0, 1}: a Boolean variable or its negation 1 - b; one that can take
// other values is refused with model_error when posted. Lowered as the
// plain relation is (lower.hpp), to rel(..., iff(b)) / implies(b) of
// rel_reif.hpp or to linear_reif.hpp's sum.

#include <concepts>
#include <utility>

#include "../constraints/reify.hpp"
#include "define.hpp"
#include "lower.hpp"
#include "relation.hpp"

namespace propane {

template <class B>
class ReifiedExprRel {
public:
    ReifiedExprRel(ExprRel r, Reify<B> re) : r_(std::move(r)), re_(re) {}

    const ExprRel& relation() const noexcept { return r_; }
    const Reify<B>& reify() const noexcept { return re_; }

    // Defined below, out of the class and not inline, for
    // <propane/compiled.hpp> (as ExprRel::post).
    template <class S>
    void post(S& s) const;

    template <class D = void>
    operator bool() const { // NOLINT: implicit, so that every use as a bool meets the assertion
        static_assert(detail::never<D>, "propane: b == (x < y) is a constraint, not a bool: post it with "
                                        "s.post(b == (x < y)); to compare variable handles use b.same(x)");
        return false;
    }

private:
    ExprRel r_;
    Reify<B> re_;
};

template <class B>
template <class S>
void ReifiedExprRel<B>::post(S& s) const {
    detail::check_bool(s, re_.b, re_.mode == ReifyMode::iff ? "b == (relation)" : "b >> (relation)");
    detail::post_linear_reified(s, detail::resolved(s, r_.expr(), "post"), r_.rel(), re_);
}

namespace detail {

// What may stand for the Boolean: a view (an Expr such as b1 + b2 is not
// a Boolean).
template <class B>
concept BoolOperand = std::same_as<B, IntVar> || std::same_as<B, OffsetView> || std::same_as<B, AffineView>;

} // namespace detail

template <detail::BoolOperand B>
ReifiedExprRel<B> operator==(const B& b, const ExprRel& r) {
    return {r, iff(b)};
}
template <detail::BoolOperand B>
ReifiedExprRel<B> operator==(const ExprRel& r, const B& b) {
    return {r, iff(b)};
}
template <detail::BoolOperand B>
ReifiedExprRel<B> operator>>(const B& b, const ExprRel& r) {
    return {r, implies(b)};
}

} // namespace propane

#endif
