#ifndef PROPANE_SEARCH_STRATEGY_HPP
#define PROPANE_SEARCH_STRATEGY_HPP

// How a search branches: which view (VarChoice or a callable), which
// decision on it (ValChoice or a callable), and when to restart. The
// names the command-line programs use come with each choice.

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <utility>

#include "../engine/names.hpp"

namespace propane {

// Which unfixed view to branch on. Ties go to the lowest position.
//   first_unbound    the first one in the search order
//   smallest_domain  fewest values ("first fail")
//   largest_domain   most values
//   smallest_min     smallest minimum value
//   dom_wdeg         smallest domain size / weighted degree, where the
//                    weighted degree is the sum over the propagators on the
//                    view's variable of 1 + their failures in this search
//                    (Boussemart et al., ECAI 2004): it learns which
//                    constraints are hard, and keeps learning across restarts
enum class VarChoice : std::uint8_t { first_unbound, smallest_domain, largest_domain, smallest_min, dom_wdeg };

// Which decision to take on the chosen view x.
//   min_value / max_value   x = min / x = max
//   middle_value            x = the median value of x's domain (the lower
//                           of the two for an even count)
//   split_value             x <= (min + max) / 2, rounded down, then x > it
//   random_value            x = a value drawn uniformly from the domain,
//                           from Strategy::seed (the same seed gives the
//                           same search)
enum class ValChoice : std::uint8_t { min_value, max_value, middle_value, split_value, random_value };

inline constexpr VarChoice first_unbound = VarChoice::first_unbound;
inline constexpr VarChoice smallest_domain = VarChoice::smallest_domain;
inline constexpr VarChoice largest_domain = VarChoice::largest_domain;
inline constexpr VarChoice smallest_min = VarChoice::smallest_min;
inline constexpr VarChoice dom_wdeg = VarChoice::dom_wdeg;
inline constexpr ValChoice min_value = ValChoice::min_value;
inline constexpr ValChoice max_value = ValChoice::max_value;
inline constexpr ValChoice middle_value = ValChoice::middle_value;
inline constexpr ValChoice split_value = ValChoice::split_value;
inline constexpr ValChoice random_value = ValChoice::random_value;

// The names used on command lines.
constexpr std::string_view to_string(VarChoice c) noexcept {
    switch (c) {
    case VarChoice::first_unbound: return "first";
    case VarChoice::smallest_domain: return "smallest";
    case VarChoice::largest_domain: return "largest";
    case VarChoice::smallest_min: return "smallest-min";
    case VarChoice::dom_wdeg: return "dom-wdeg";
    }
    return "?";
}
constexpr std::string_view to_string(ValChoice c) noexcept {
    switch (c) {
    case ValChoice::min_value: return "min";
    case ValChoice::max_value: return "max";
    case ValChoice::middle_value: return "middle";
    case ValChoice::split_value: return "split";
    case ValChoice::random_value: return "random";
    }
    return "?";
}

constexpr std::optional<VarChoice> var_choice_from_string(std::string_view name) noexcept {
    return detail::from_name(name, {first_unbound, smallest_domain, largest_domain, smallest_min, dom_wdeg});
}
constexpr std::optional<ValChoice> val_choice_from_string(std::string_view name) noexcept {
    return detail::from_name(name, {min_value, max_value, middle_value, split_value, random_value});
}

// What a value chooser decides. assign: left x = value, right x != value
// (value must be in x's domain). split: left x <= value, right x > value;
// split_high: left x > value, right x <= value, the upper half first
// (for both, min(x) <= value < max(x), so both sides keep a value).
// A path from the root (a Subproblem of the parallel search, split.hpp) is
// a list of decisions taken: there `var` says which view (its position in
// the search's views) and `right` which side. A chooser leaves both alone;
// the search ignores them in what it returns.
enum class Branch : std::uint8_t { assign, split, split_high };
struct Decision {
    Branch branch = Branch::assign;
    int value = 0;
    std::uint32_t var = 0;
    bool right = false;

    friend bool operator==(const Decision&, const Decision&) = default;
};

// Restarts abandon the tree after a budget of failures and start again from
// the root, where a randomised or learning strategy (random_value, dom_wdeg)
// makes different choices. Run k (from 0) may fail scale * luby(k + 1) times
// (1, 1, 2, 1, 1, 2, 4, ...; Luby, Sinclair and Zuckerman 1993),
// scale * growth^k times (geometric) or scale * (k + 1) times (linear).
// Every budget grows, so a tree too large for one run is still exhausted
// by a later one (a constant budget would search a deterministic
// strategy's same first `scale` failures for ever). Restarts stop at the first solution: from then on
// the current tree is searched to its end, so every solution is found once
// and an exhausted search is still complete.
enum class RestartPolicy : std::uint8_t { none, luby, geometric, linear };
struct Restarts {
    RestartPolicy policy = RestartPolicy::none;
    std::uint64_t scale = 100;
    double growth = 1.5;
};

constexpr std::string_view to_string(RestartPolicy p) noexcept {
    switch (p) {
    case RestartPolicy::none: return "none";
    case RestartPolicy::luby: return "luby";
    case RestartPolicy::geometric: return "geometric";
    case RestartPolicy::linear: return "linear";
    }
    return "?";
}
constexpr std::optional<RestartPolicy> restart_policy_from_string(std::string_view name) noexcept {
    return detail::from_name(name, {RestartPolicy::none, RestartPolicy::luby, RestartPolicy::geometric,
                                    RestartPolicy::linear});
}

// How to branch. VarSel is a VarChoice or a callable
//   int (const Store&, std::span<const View>)
// returning the position of an unfixed view (it is only called while one
// exists). ValSel is a ValChoice or a callable
//   int (const Store&, const View&)        meaning Decision{assign, value}
//   Decision (const Store&, const View&)
// A callable that breaks these rules makes next() throw model_error (a
// misuse no construction can see coming: it depends on the nodes).
//
// assign_all: what a solution is. true (the default): once the views are
// fixed, the search goes on to decide every other variable of the store
// that is still open, the first open one in creation order each time,
// x = min(x) then x != min(x), as for a view (the branches and failures
// count as usual), and reports a solution only when every variable is
// fixed, so every solution satisfies every posted constraint. Where the
// views fix everything by propagation (N-queens, Sudoku, Golomb rulers,
// magic squares) that costs one look at each variable per solution and
// changes no count. false: a solution is the views' assignment as soon as
// they are fixed and propagation has not failed; the variables outside
// them may be open and read as such, and each assignment of the views is
// reported once however many ways the rest could be completed. Safe only
// when every such assignment extends to the other variables: they are
// functionally defined by the views (y == x + z, b == (x <= y), which
// propagation fixes with them) or free of constraints. Otherwise it
// reports assignments that are no solution (three variables over {0, 1}
// under all_different, outside the views: two "solutions" of a model that
// has none). Branch and bound decides the objective's variable either way,
// after the views, so every solution has an objective value.
template <class VarSel, class ValSel>
struct BasicStrategy {
    VarSel var{};
    ValSel val{};
    std::uint64_t seed = 0; // for random_value
    Restarts restarts{};
    bool assign_all = true;
};
using Strategy = BasicStrategy<VarChoice, ValChoice>;

// A strategy with user choosers: strategy(my_var_chooser, propane::min_value).
template <class VarSel, class ValSel>
constexpr BasicStrategy<VarSel, ValSel> strategy(VarSel var, ValSel val, std::uint64_t seed = 0,
                                                 Restarts restarts = {}, bool assign_all = true) {
    return {std::move(var), std::move(val), seed, restarts, assign_all};
}

namespace detail {

// luby(i) for i >= 1: 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, ...
constexpr std::uint64_t luby(std::uint64_t i) noexcept {
    for (;;) {
        int k = 1;
        while (k < 63 && (std::uint64_t{1} << k) - 1 < i) ++k;
        if ((std::uint64_t{1} << k) - 1 == i || k == 63) return std::uint64_t{1} << (k - 1);
        i -= (std::uint64_t{1} << (k - 1)) - 1;
    }
}

// SplitMix64 (Steele, Lea and Flood 2014): tiny, fast, and the same stream
// on every platform, unlike the standard distributions.
struct SplitMix64 {
    std::uint64_t state;
    std::uint64_t operator()() noexcept {
        std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
};

} // namespace detail

} // namespace propane

#endif
