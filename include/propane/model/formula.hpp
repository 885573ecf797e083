#ifndef PROPANE_MODEL_FORMULA_HPP
#define PROPANE_MODEL_FORMULA_HPP

// BoolExpr: a formula over relations and Boolean views, as logic.hpp's
// operators build it: a tree of shared, immutable nodes (relations and
// Booleans at the leaves; not, and, or, equivalence inside), so that
// copying a formula into a larger one costs a pointer. Posting it
// (formula_post.hpp) walks the tree once.

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "../engine/view.hpp"
#include "reified.hpp"
#include "relation.hpp"

namespace propane {

class BoolExpr;

namespace detail {

enum class LogicOp : std::uint8_t { relation, boolean, negation, conjunction, disjunction, equivalence };

struct LogicNode {
    LogicOp op;
    std::optional<ExprRel> rel;     // relation
    std::optional<AffineView> view; // boolean
    std::vector<BoolExpr> args;     // negation (one), conjunction, disjunction, equivalence (two)
};

} // namespace detail

class BoolExpr {
public:
    // Implicit, so that a relation takes part in a formula as it is.
    BoolExpr(const ExprRel& r) // NOLINT
        : n_(std::make_shared<const detail::LogicNode>(detail::LogicNode{detail::LogicOp::relation, r, {}, {}})) {}

    template <detail::BoolOperand B>
    BoolExpr(const ReifiedExprRel<B>& r) // NOLINT: b == (relation) takes part as the equivalence it is
        : BoolExpr(r.reify().mode == ReifyMode::iff
                       ? of(detail::LogicOp::equivalence, {boolean(AffineView(r.reify().b)), BoolExpr(r.relation())})
                       : of(detail::LogicOp::disjunction,
                            {of(detail::LogicOp::negation, {boolean(AffineView(r.reify().b))}),
                             BoolExpr(r.relation())})) {}

    // "b is 1", for a view b over {0, 1}.
    static BoolExpr boolean(AffineView b) {
        return BoolExpr(std::make_shared<const detail::LogicNode>(
            detail::LogicNode{detail::LogicOp::boolean, std::nullopt, b, {}}));
    }

    // A node over args; a conjunction or disjunction takes in the
    // arguments of its own kind, so that a && b && c is one node of three.
    static BoolExpr of(detail::LogicOp op, std::vector<BoolExpr> args) {
        std::vector<BoolExpr> flat;
        const bool associative = op == detail::LogicOp::conjunction || op == detail::LogicOp::disjunction;
        for (BoolExpr& a : args) {
            if (associative && a.node().op == op)
                flat.insert(flat.end(), a.node().args.begin(), a.node().args.end());
            else
                flat.push_back(std::move(a));
        }
        return BoolExpr(std::make_shared<const detail::LogicNode>(
            detail::LogicNode{op, std::nullopt, std::nullopt, std::move(flat)}));
    }

    const detail::LogicNode& node() const noexcept { return *n_; }

    // Defined in formula_post.hpp, out of the class and not inline, for
    // <propane/compiled.hpp> (as ExprRel::post).
    template <class S>
    void post(S& s) const;

    template <class D = void>
    operator bool() const { // NOLINT: implicit, so that every use as a bool meets the assertion
        static_assert(detail::never<D>, "propane: a formula such as (x < y) && (y < z) is a constraint, not a "
                                        "bool: post it with s.post(...), or tie it to a Boolean, "
                                        "s.post(b == ((x < y) && (y < z)))");
        return false;
    }

private:
    explicit BoolExpr(std::shared_ptr<const detail::LogicNode> n) : n_(std::move(n)) {}

    std::shared_ptr<const detail::LogicNode> n_;
};

} // namespace propane

#endif
