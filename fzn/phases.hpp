#ifndef PROPANE_FZN_PHASES_HPP
#define PROPANE_FZN_PHASES_HPP

// FlatZinc search annotations as one propane strategy. The search's views
// are the phases' variables one phase after the other; the variable
// chooser looks for the first phase with an open variable and picks in it
// by that phase's rule, and the value chooser applies the rule of the
// phase the variable came from. Both are plain copyable values, so each
// worker of a parallel search holds its own (the random value rule keeps
// its generator per copy).

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "builder.hpp"

namespace propane::fzn {

enum class VarRule : std::uint8_t {
    input_order, first_fail, anti_first_fail, smallest, largest, occurrence, most_constrained, max_regret, dom_w_deg
};
enum class ValRule : std::uint8_t { min, max, median, middle, split, reverse_split, random };

std::optional<VarRule> var_rule(std::string_view name);
std::optional<ValRule> val_rule(std::string_view name);

struct Plan {
    struct Range {
        int begin = 0, end = 0;
        VarRule rule = VarRule::input_order;
    };
    std::vector<Range> phases;
    std::vector<IntVar> views;
    std::vector<ValRule> val_of; // by variable index
};

// The plan for p's annotations, then the variables no annotation names
// under the default rule (all of them under `free`): the model's own, and
// then those MiniZinc introduced. With `outputs_only` (an enumeration, whose
// solutions are the distinct assignments of the output variables) the plan
// holds the output variables and nothing else, in the same order and under
// the same rules. Throws Unsupported for an annotation rule it does not
// know.
std::shared_ptr<const Plan> make_plan(const FznStore& s, const Program& p, bool free, bool outputs_only = false);

struct PickVar {
    std::shared_ptr<const Plan> plan;
    int operator()(const FznStore& s, std::span<const IntVar> views) const;
};

struct PickValue {
    std::shared_ptr<const Plan> plan;
    detail::SplitMix64 rng{0};
    Decision operator()(const FznStore& s, const IntVar& x);
};

using PhaseStrategy = BasicStrategy<PickVar, PickValue>;

// The strategy of a plan, its random choices (indomain_random, restarts)
// drawn from seed.
inline PhaseStrategy strategy_of(const std::shared_ptr<const Plan>& plan, std::uint64_t seed) {
    return PhaseStrategy{PickVar{plan}, PickValue{plan, detail::SplitMix64{seed}}, seed};
}

} // namespace propane::fzn

#endif
