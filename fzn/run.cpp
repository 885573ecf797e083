#include "run.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <propane/parallel.hpp>

#include "phases.hpp"

namespace propane::fzn {

namespace {

void append_value(std::string& out, std::int64_t v, bool is_bool) {
    if (is_bool) out += v != 0 ? "true" : "false";
    else out += std::to_string(v);
}

template <class Solution>
std::int64_t value_of(const Solution& sol, const Term& t) {
    return t.fixed ? t.value : sol.value(t.var);
}

template <class Solution>
std::string format(const Program& p, const Solution& sol) {
    std::string out;
    for (const OutputItem& item : p.outputs) {
        out += item.name;
        out += " = ";
        if (!item.is_array) {
            append_value(out, value_of(sol, item.terms.front()), item.is_bool);
        } else {
            out += "array" + std::to_string(item.dims.size()) + "d(";
            for (const Node& d : item.dims) {
                if (d.kind == Node::Kind::range) out += std::to_string(d.lo) + ".." + std::to_string(d.hi);
                else out += "{}";
                out += ", ";
            }
            out += '[';
            for (std::size_t k = 0; k < item.terms.size(); ++k) {
                if (k > 0) out += ", ";
                append_value(out, value_of(sol, item.terms[k]), item.is_bool);
            }
            out += "])";
        }
        out += ";\n";
    }
    out += "----------\n";
    return out;
}


// "name:count,..." for the three builtins whose propagators count most,
// each count summed over the propagators a builtin posted.
template <class Count>
std::string top_builtins(const FznStore& s, const Program& p, Count count) {
    std::vector<std::pair<std::uint64_t, std::string>> by_name;
    for (int k = 0; k < s.num_propagators() && k < static_cast<int>(p.profile_names.size()); ++k) {
        const std::string& n = p.profile_names[static_cast<std::size_t>(k)];
        auto it = std::find_if(by_name.begin(), by_name.end(), [&](const auto& e) { return e.second == n; });
        if (it == by_name.end()) by_name.emplace_back(count(k), n);
        else it->first += count(k);
    }
    std::sort(by_name.begin(), by_name.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::string out;
    for (std::size_t k = 0; k < by_name.size() && k < 3; ++k) {
        if (k > 0) out += ',';
        out += by_name[k].second + ":" + std::to_string(by_name[k].first);
    }
    return out;
}

} // namespace

Printer::Printer(std::FILE* out, std::optional<std::chrono::steady_clock::time_point> deadline) : out_(out) {
    if (deadline) watchdog_ = std::thread([this, d = *deadline] { watch(d); });
}

Printer::~Printer() {
    {
        const std::lock_guard lock(mutex_);
        done_ = true;
    }
    done_cv_.notify_all();
    if (watchdog_.joinable()) watchdog_.join();
}

bool Printer::write(const std::string& text) {
    ok_ = ok_ && std::fwrite(text.data(), 1, text.size(), out_) == text.size() && std::fflush(out_) == 0;
    return ok_;
}

void Printer::solution(std::string text, bool keep_last) {
    const std::lock_guard lock(mutex_);
    any_ = true;
    if (keep_last) kept_ = std::move(text);
    else write(text);
}

bool Printer::finish(const std::string& tail) {
    const std::lock_guard lock(mutex_);
    if (!kept_.empty()) write(kept_);
    kept_.clear();
    write(tail);
    done_ = true;
    done_cv_.notify_all();
    return ok_;
}

void Printer::watch(std::chrono::steady_clock::time_point deadline) {
    std::unique_lock lock(mutex_);
    if (done_cv_.wait_until(lock, deadline + std::chrono::seconds(1), [this] { return done_; })) return;
    // The lock stays held: no solution can start or end from here on.
    if (!kept_.empty()) write(kept_);
    if (!any_) write("=====UNKNOWN=====\n");
    std::_Exit(ok_ ? 0 : 2);
}

// Several solutions of a satisfaction problem are the distinct assignments
// of the output variables, whatever else marks them (MiniZinc marks the
// arrays of Booleans behind a set variable, and the parts of an option
// variable, as introduced): counting on more would repeat a solution once
// for each value of a variable the output does not show, counting on fewer
// would lose solutions. So the search branches on the output variables
// only, and at each of their assignments a search on a copy of the store,
// by the full plan, looks for one way to fix the rest: the assignment
// counts only if there is one. A completion cut short by the time limit
// leaves the enumeration incomplete.
template <class Solution, class Emit>
Action complete_one(const Solution& sol, const Program& p, const PhaseStrategy& full,
                    std::optional<std::chrono::steady_clock::time_point> deadline, std::atomic<bool>& cut_short,
                    Emit&& emit) {
    const FznStore& at = sol.store();
    bool open = false;
    for (int v = 0; v < at.num_vars() && !open; ++v) open = !at.domain(v).fixed();
    if (!open) return emit(format(p, sol));
    FznStore copy(at);
    Limits limits{.solutions = 1};
    if (deadline) limits.time = std::max(std::chrono::nanoseconds{0}, *deadline - std::chrono::steady_clock::now());
    Action action = Action::next;
    const SearchStats st = solve(copy, full.var.plan->views, full, limits,
                                 [&](const auto& whole) { action = emit(format(p, whole)); });
    if (st.solutions == 0 && !st.complete()) {
        cut_short = true;
        return Action::stop;
    }
    return action;
}

bool run(FznStore& s, const Program& p, const RunOptions& o, Printer& printer, double init_seconds) {
    const bool optimizing = p.kind != SolveItem::Kind::satisfy && !p.objective.fixed;
    // An optimization over a constant objective has its optimum in its first
    // solution, and prints that one only, -a or not.
    const bool several = p.kind == SolveItem::Kind::satisfy && (o.all || o.solutions > 1);
    const auto plan = make_plan(s, p, o.free, several);
    PhaseStrategy strategy = strategy_of(plan, o.seed);
    strategy.assign_all = !several;
    // Under -f the search is propane's own, restarts included.
    if (!o.free) strategy.restarts = p.restarts;
    // What completes each assignment of the output variables: every
    // variable, by the rules of the plan a single solution would follow.
    const PhaseStrategy full = several ? strategy_of(make_plan(s, p, o.free), o.seed) : strategy;
    Limits limits;
    std::optional<std::chrono::steady_clock::time_point> deadline;
    if (o.time_ms) {
        limits.time = std::chrono::milliseconds(*o.time_ms);
        deadline = std::chrono::steady_clock::now() + limits.time;
    }
    if (optimizing) {
        if (o.solutions > 0) limits.solutions = o.solutions;
    } else if (!several) {
        limits.solutions = 1;
    }
    const Parallel parallel{.threads = o.threads, .ordered = false};

    // Visitors of parallel searches may run on several threads at once.
    std::atomic<std::uint64_t> found{0};
    std::atomic<bool> cut_short{false};
    const std::uint64_t wanted = o.solutions > 0 ? o.solutions : unlimited;
    const auto emit = [&](std::string text) {
        const std::uint64_t k = ++found;
        if (k > wanted) return Action::stop;
        printer.solution(std::move(text), optimizing && !o.all);
        return k == wanted ? Action::stop : Action::next;
    };
    auto visit = [&](const auto& sol) -> Action {
        if (several) return complete_one(sol, p, full, deadline, cut_short, emit);
        return emit(format(p, sol));
    };

    SearchStats st;
    std::optional<std::int64_t> objective;
    // relax_and_reconstruct: LNS, each round a restart within the restart
    // annotation's first budget (100 failures without one). Only where LNS
    // can end, under -t, and on one thread; elsewhere the annotation is
    // ignored and branch and bound runs to its proof.
    const bool lns = optimizing && p.relax && !o.free && o.time_ms && o.threads == 1;
    if (lns) {
        std::vector<int> at(static_cast<std::size_t>(s.num_vars()), -1);
        for (std::size_t i = 0; i < plan->views.size(); ++i)
            at[static_cast<std::size_t>(plan->views[i].index())] = static_cast<int>(i);
        std::vector<std::size_t> relaxed;
        for (const IntVar& x : p.relax->vars)
            if (const int i = at[static_cast<std::size_t>(x.index())]; i >= 0)
                relaxed.push_back(static_cast<std::size_t>(i));
        const auto keep = static_cast<std::uint64_t>(p.relax->percent);
        const auto neighbourhood = [&](const LnsRound& round, std::span<char> fix) {
            detail::SplitMix64 draw{round.random};
            for (const std::size_t i : relaxed) fix[i] = draw() % 100 < keep ? 1 : 0;
        };
        const Lns options{.failures = p.restarts.policy == RestartPolicy::none ? 100 : p.restarts.scale,
                          .seed = o.seed};
        strategy.restarts = {};
        const IntVar obj = p.objective.var;
        const OptimizeStats os =
            p.kind == SolveItem::Kind::minimize
                ? minimize(s, plan->views, strategy, limits, options, neighbourhood, obj, visit)
                : maximize(s, plan->views, strategy, limits, options, neighbourhood, obj, visit);
        st = os;
        objective = os.objective;
    } else if (optimizing && o.free) {
        // Under -f: LNS over the model's own variables (the plan's first
        // views then), every tenth round a proving one with a budget that
        // doubles, so that the run still ends with a proof when the tree
        // allows one; on threads, one neighbourhood per thread a round.
        std::size_t own = 0;
        for (const IntVar& x : p.decision)
            if (!s.domain(x.index()).fixed()) ++own;
        const Lns options{.relax = 0.3, .failures = 200, .seed = o.seed, .fixable = own, .prove_every = 10};
        const IntVar obj = p.objective.var;
        const Parallel threads{.threads = o.threads};
        const OptimizeStats os = p.kind == SolveItem::Kind::minimize
                                     ? minimize(s, plan->views, strategy, limits, options, threads, obj, visit)
                                     : maximize(s, plan->views, strategy, limits, options, threads, obj, visit);
        st = os;
        objective = os.objective;
    } else if (optimizing) {
        const IntVar obj = p.objective.var;
        OptimizeStats os;
        if (p.kind == SolveItem::Kind::minimize) {
            os = o.threads > 1 ? minimize(s, plan->views, strategy, limits, parallel, obj, visit)
                               : minimize(s, plan->views, strategy, limits, obj, visit);
        } else {
            os = o.threads > 1 ? maximize(s, plan->views, strategy, limits, parallel, obj, visit)
                               : maximize(s, plan->views, strategy, limits, obj, visit);
        }
        st = os;
        objective = os.objective;
    } else {
        st = o.threads > 1 ? solve(s, plan->views, strategy, limits, parallel, visit)
                           : solve(s, plan->views, strategy, limits, visit);
    }

    // Every domain is the variable's whole range (builder.hpp), so a search
    // that ends has seen every solution. A constant objective makes the
    // first solution optimal.
    const bool complete = (st.complete() && !cut_short) ||
                          (p.kind != SolveItem::Kind::satisfy && !optimizing && found > 0);
    std::string tail;
    if (found > 0) {
        if (complete) tail += "==========\n";
    } else {
        tail += complete ? "=====UNSATISFIABLE=====\n" : "=====UNKNOWN=====\n";
    }
    if (o.statistics) {
        auto stat = [&](const std::string& name, const std::string& value) {
            tail += "%%%mzn-stat: " + name + "=" + value + "\n";
        };
        stat("variables", std::to_string(s.num_vars()));
        stat("propagators", std::to_string(s.num_propagators()));
        // Those printed: an enumeration's search also meets assignments of
        // the output variables that no completion makes solutions.
        stat("solutions", std::to_string(std::min<std::uint64_t>(found, wanted)));
        stat("nodes", std::to_string(st.branches));
        stat("failures", std::to_string(st.failures));
        stat("propagations", std::to_string(st.propagations));
        stat("peakDepth", std::to_string(st.max_depth));
        stat("restarts", std::to_string(st.restarts));
        stat("initTime", std::to_string(init_seconds));
        stat("solveTime", std::to_string(st.wall_ms() / 1000.0));
        if (objective) stat("objective", std::to_string(*objective));
        // Which builtins the search spends its propagation on (runs), and
        // which of them fail (failures).
        stat("profile", "\"" + top_builtins(s, p, [&](int k) { return s.runs_of(k); }) + "\"");
        stat("failuresByConstraint", "\"" + top_builtins(s, p, [&](int k) { return s.failures_of(k); }) + "\"");
        tail += "%%%mzn-stat-end\n";
    }
    return printer.finish(tail);
}

} // namespace propane::fzn
