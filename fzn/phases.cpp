#include "phases.hpp"

#include <limits>
#include <utility>

namespace propane::fzn {

std::optional<VarRule> var_rule(std::string_view n) {
    if (n == "input_order") return VarRule::input_order;
    if (n == "first_fail") return VarRule::first_fail;
    if (n == "anti_first_fail") return VarRule::anti_first_fail;
    if (n == "smallest") return VarRule::smallest;
    if (n == "largest") return VarRule::largest;
    if (n == "occurrence") return VarRule::occurrence;
    if (n == "most_constrained") return VarRule::most_constrained;
    if (n == "max_regret") return VarRule::max_regret;
    if (n == "dom_w_deg") return VarRule::dom_w_deg;
    return std::nullopt;
}

std::optional<ValRule> val_rule(std::string_view n) {
    if (n == "indomain_min" || n == "indomain") return ValRule::min;
    if (n == "indomain_max") return ValRule::max;
    if (n == "indomain_median") return ValRule::median;
    if (n == "indomain_middle") return ValRule::middle;
    if (n == "indomain_split" || n == "indomain_interval") return ValRule::split;
    if (n == "indomain_reverse_split") return ValRule::reverse_split;
    if (n == "indomain_random") return ValRule::random;
    return std::nullopt;
}

namespace {

// What rules without an annotation, and under -f: the smallest ratio of
// domain size to weighted degree (failures included), smallest value first.
constexpr VarRule default_var = VarRule::dom_w_deg;
constexpr ValRule default_val = ValRule::min;

double wdeg(const FznStore& s, const IntVar& x) {
    double w = 0;
    for (const int p : s.propagators_of(x.index())) w += 1.0 + static_cast<double>(s.failures_of(p));
    return w;
}

// The key a rule minimises (ties to the first view).
double key(VarRule rule, const FznStore& s, const IntVar& x) {
    switch (rule) {
    case VarRule::input_order: return 0;
    case VarRule::first_fail: return x.size(s);
    case VarRule::anti_first_fail: return -static_cast<double>(x.size(s));
    case VarRule::smallest: return x.min(s);
    case VarRule::largest: return -static_cast<double>(x.max(s));
    case VarRule::occurrence: return -static_cast<double>(s.propagators_of(x.index()).size());
    case VarRule::most_constrained:
        // Smallest domain, then most constraints: the degree is below 2^20
        // for any model that fits in memory, so it breaks ties only.
        return static_cast<double>(x.size(s)) * (1 << 20) - static_cast<double>(s.propagators_of(x.index()).size());
    // In 64 bits: the gap between two values of a 32-bit range may pass int.
    case VarRule::max_regret: return -static_cast<double>(std::int64_t{x.next(s, x.min(s))} - x.min(s));
    case VarRule::dom_w_deg: {
        const double w = wdeg(s, x);
        return w > 0 ? x.size(s) / w : std::numeric_limits<double>::infinity();
    }
    }
    return 0;
}

// x's k-th smallest value (from 0).
int nth(const FznStore& s, const IntVar& x, unsigned k) { return s.domain(x.index()).nth(k); }

} // namespace

std::shared_ptr<const Plan> make_plan(const FznStore& s, const Program& p, bool free, bool outputs_only) {
    auto plan = std::make_shared<Plan>();
    plan->val_of.assign(static_cast<std::size_t>(s.num_vars()), default_val);
    // 1: taken or left out; what is left out never enters a phase.
    std::vector<char> taken(static_cast<std::size_t>(s.num_vars()), outputs_only ? 1 : 0);
    if (outputs_only)
        for (const OutputItem& item : p.outputs)
            for (const Term& t : item.terms)
                if (!t.fixed) taken[static_cast<std::size_t>(t.var.index())] = 0;
    auto add_phase = [&](const std::vector<IntVar>& vars, VarRule vr, ValRule vl) {
        Plan::Range r{static_cast<int>(plan->views.size()), 0, vr};
        for (const IntVar& x : vars) {
            auto& t = taken[static_cast<std::size_t>(x.index())];
            if (t || s.domain(x.index()).fixed()) continue;
            t = 1;
            plan->views.push_back(x);
            plan->val_of[static_cast<std::size_t>(x.index())] = vl;
        }
        r.end = static_cast<int>(plan->views.size());
        if (r.end > r.begin) plan->phases.push_back(r);
    };
    if (!free) {
        for (const Phase& ph : p.phases) {
            const auto vr = var_rule(ph.var_choice);
            if (!vr)
                throw Unsupported("unknown variable selection '" + ph.var_choice + "' in a search annotation", ph.line,
                                  ph.column);
            const auto vl = val_rule(ph.val_choice);
            if (!vl)
                throw Unsupported("unknown value selection '" + ph.val_choice + "' in a search annotation", ph.line,
                                  ph.column);
            add_phase(ph.vars, *vr, *vl);
        }
    }
    // An objective no annotation names tries its better end first, as
    // Gecode's does: from the worse end, branch and bound over an objective
    // nothing else bounds would step through up to 2^32 values, one
    // solution each.
    const bool objective_open = p.kind != SolveItem::Kind::satisfy && !p.objective.fixed &&
                                !taken[static_cast<std::size_t>(p.objective.var.index())];
    add_phase(p.decision, default_var, default_val);
    add_phase(p.introduced, default_var, default_val);
    if (objective_open && p.kind == SolveItem::Kind::maximize)
        plan->val_of[static_cast<std::size_t>(p.objective.var.index())] = ValRule::max;
    return plan;
}

int PickVar::operator()(const FznStore& s, std::span<const IntVar> views) const {
    for (const Plan::Range& r : plan->phases) {
        int best = -1;
        double best_key = 0;
        for (int i = r.begin; i < r.end; ++i) {
            const IntVar& x = views[static_cast<std::size_t>(i)];
            if (x.fixed(s)) continue;
            if (r.rule == VarRule::input_order) return i;
            const double k = key(r.rule, s, x);
            if (best < 0 || k < best_key) {
                best = i;
                best_key = k;
            }
        }
        if (best >= 0) return best;
    }
    return -1; // not reached: the search asks only while a view is open
}

Decision PickValue::operator()(const FznStore& s, const IntVar& x) {
    const int lo = x.min(s), hi = x.max(s);
    const int mid = static_cast<int>(detail::floor_div(std::int64_t{lo} + hi, 2));
    switch (plan->val_of[static_cast<std::size_t>(x.index())]) {
    case ValRule::min: return {Branch::assign, lo};
    case ValRule::max: return {Branch::assign, hi};
    case ValRule::split: return {Branch::split, mid};
    case ValRule::reverse_split: return {Branch::split_high, mid};
    case ValRule::median: return {Branch::assign, nth(s, x, (x.size(s) - 1) / 2)};
    case ValRule::middle: {
        if (x.contains(s, mid)) return {Branch::assign, mid};
        const int up = x.next(s, mid), down = x.prev(s, mid);
        return {Branch::assign, std::int64_t{up} - mid < std::int64_t{mid} - down ? up : down};
    }
    case ValRule::random: return {Branch::assign, nth(s, x, static_cast<unsigned>(rng() % x.size(s)))};
    }
    return {Branch::assign, lo};
}

} // namespace propane::fzn
