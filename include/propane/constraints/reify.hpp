#ifndef PROPANE_CONSTRAINTS_REIFY_HPP
#define PROPANE_CONSTRAINTS_REIFY_HPP

// iff(b) and implies(b): the last argument of a reified constraint, which
// ties a Boolean view b to whether the constraint holds.
//   iff(b)      b == 1 exactly when the constraint holds: entailment sets
//               b = 1, disentailment b = 0; b fixed to 1 enforces the
//               constraint, b fixed to 0 its negation (Gecode's RM_EQV).
//   implies(b)  b == 1 => the constraint: b fixed to 1 enforces it and
//               disentailment sets b = 0; entailment and b == 0 do nothing
//               (Gecode's RM_IMP, MiniZinc's _imp predicates).
// b is any view whose values lie within {0, 1} when the constraint is
// posted: a store's bool_var(), or its negation 1 - b (an AffineView).

#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>

#include "../engine/error.hpp"
#include "../engine/view.hpp"

namespace propane {

enum class ReifyMode : std::uint8_t { iff, implies };

template <class B>
struct Reify {
    B b;
    ReifyMode mode = ReifyMode::iff;
};

template <class B>
    requires requires(const B& b) {
        { b.var() } -> std::same_as<IntVar>;
    }
Reify<B> iff(const B& b) {
    return {b, ReifyMode::iff};
}

template <class B>
    requires requires(const B& b) {
        { b.var() } -> std::same_as<IntVar>;
    }
Reify<B> implies(const B& b) {
    return {b, ReifyMode::implies};
}

namespace detail {

// Refuses, naming the constraint, a literal or control view that is not
// Boolean now: propagators read "min 1" as true and "max 0" as false, which
// means nothing for a view that can take 2 or -1.
template <class S, class B>
void check_bool(const S& s, const B& b, std::string_view who) {
    s.check(b.var(), who);
    const int lo = b.min(s), hi = b.max(s);
    if (lo < 0 || hi > 1)
        throw model_error(std::string(who) + ": a Boolean view takes values " + std::to_string(lo) + " .. " +
                          std::to_string(hi) + ", not within {0, 1}");
}

// A Boolean view's state: 1 true, -1 false, 0 open.
template <class S, class B>
int bool_state(const S& s, const B& b) noexcept {
    if (b.min(s) > 0) return 1;
    return b.max(s) < 1 ? -1 : 0;
}

} // namespace detail

} // namespace propane

#endif
