#ifndef PROPANE_TESTS_MODELS_MIXED_HPP
#define PROPANE_TESTS_MODELS_MIXED_HPP

// The random models of test_models_mixed: what a model is, what each of its
// constraints means (written from the definitions, sharing nothing with the
// propagators), its text for a failure report, how one is drawn from a seed,
// and its solutions by enumeration. models_mixed_search.hpp posts and
// searches them.
//
// A model: integer variables with values inside -3..4 (created over a range,
// holes cut before or after posting) and, in the models of both parts,
// Booleans (Store::bool_var(), now and then fixed by a hole); constraints
// over random views of them: a*x + b for the integer arguments, b or 1 - b
// for a literal or a reification's control. Domains are redrawn until there
// are at most max_assignments assignments, so that enumeration stays cheap.
// Most constraints are redrawn until a planted assignment satisfies them,
// the others are kept as first drawn, so that models with solutions and
// models without both come often.

#include "checker_reference.hpp" // checker::compare

#include <propane/constraints/all_different.hpp>
#include <propane/constraints/regular.hpp>
#include <propane/constraints/reify.hpp>
#include <propane/constraints/rel.hpp>
#include <propane/search/strategy.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace models {

using propane::Rel;
using propane::ReifyMode;

constexpr int lowest = -3, highest = 4;
constexpr int max_ints = 7, max_bools = 5, max_vars = max_ints + max_bools;
constexpr std::uint64_t max_assignments = 50000, max_logic_assignments = 200000;

// SplitMix64: the same numbers with every standard library.
class Rng {
public:
    explicit Rng(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    int between(int lo, int hi) { return lo + static_cast<int>(next() % static_cast<std::uint64_t>(hi - lo + 1)); }
    bool chance(int percent) { return between(0, 99) < percent; }

private:
    std::uint64_t state_;
};

inline std::size_t u(int i) { return static_cast<std::size_t>(i); }

struct ViewSpec { // a * x_var + b
    int var = 0, a = 1, b = 0;
    std::int64_t at(const int* x) const { return std::int64_t{a} * x[var] + b; }
    bool plain() const { return a == 1 && b == 0; }
};

// Part 1's families first, then part 2's, in the order their models have
// always been drawn in (so that a seed of the part 1 or part 2 test draws
// the model it did), then the globals.
enum class Type {
    rel, rel_const, linear, abs, min, max, times, all_different,
    clause, clause_reif, rel_reif, rel_const_reif, element_const, element_var, count_const, count_view, div, mod,
    table, table_forbidden, linear_reif,
    unary, cumulative, circuit, inverse, regular, global_cardinality, lex, bin_packing, increasing, nvalue,
    unary_optional, cumulative_optional, cumulative_var
};
constexpr int part1_types = 8, part2_types = 21, types = 34;
constexpr std::array<const char*, types> type_names{
    "rel", "rel with a constant", "linear", "abs", "min", "max", "times", "all_different",
    "clause", "reified clause", "reified rel", "reified rel with a constant", "element of numbers",
    "element of views", "count against a number", "count against a view", "div", "mod", "table",
    "table of forbidden tuples", "reified linear", "unary", "cumulative", "circuit", "inverse", "regular",
    "global_cardinality", "lex", "bin_packing", "increasing", "nvalue", "unary with optional tasks",
    "cumulative with optional tasks", "cumulative with variable durations, heights and capacity"};

// Which families a model draws from: part 1's, parts 1 and 2's, or all of
// them with half the constraints from the globals.
enum class Part { arithmetic, logic, globals };

struct Con {
    Type type = Type::rel;
    Rel r = Rel::eq;
    int c = 0;                     // the constant of rel_const, linear, count_const
    int v = 0;                     // count's value
    int npos = 0;                  // clause: views[0, npos) are pos, the rest neg; global_cardinality:
                                   // views[0, npos) are xs; bin_packing: views[0, npos) are the loads
    std::vector<int> k;            // linear's coefficients, element's array, durations, sizes, gcc's values
    std::vector<std::vector<int>> tuples; // and cumulative's heights, as tuples[0]
    propane::Dfa dfa;
    std::vector<ViewSpec> views;   // min/max, element_var, count_view: xs then the last ones
    propane::Consistency strength = propane::bounds;
    bool reified = false;          // then `control` and `mode` apply
    ViewSpec control;
    ReifyMode mode = ReifyMode::iff;

    bool plain() const {
        return std::all_of(views.begin(), views.end(), [](const ViewSpec& w) { return w.plain(); }) &&
               (!reified || control.plain());
    }
};

// The constraint itself, before any reification, from its definition.
inline bool holds(const Con& c, const int* x) {
    const auto& w = c.views;
    const auto n = w.size();
    switch (c.type) {
    case Type::rel:
    case Type::rel_reif: return checker::compare(c.r, w[0].at(x), w[1].at(x));
    case Type::rel_const:
    case Type::rel_const_reif: return checker::compare(c.r, w[0].at(x), c.c);
    case Type::linear:
    case Type::linear_reif: {
        std::int64_t sum = 0;
        for (std::size_t i = 0; i < n; ++i) sum += c.k[i] * w[i].at(x);
        return checker::compare(c.r, sum, c.c);
    }
    case Type::abs: return w[1].at(x) == (w[0].at(x) < 0 ? -w[0].at(x) : w[0].at(x));
    case Type::min:
    case Type::max: {
        std::int64_t e = w[0].at(x);
        for (std::size_t i = 1; i + 1 < n; ++i) e = c.type == Type::min ? std::min(e, w[i].at(x)) : std::max(e, w[i].at(x));
        return w.back().at(x) == e;
    }
    case Type::times: return w[0].at(x) * w[1].at(x) == w[2].at(x);
    case Type::all_different:
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < i; ++j)
                if (w[i].at(x) == w[j].at(x)) return false;
        return true;
    case Type::clause:
    case Type::clause_reif:
        for (std::size_t i = 0; i < n; ++i)
            if (w[i].at(x) == (i < u(c.npos) ? 1 : 0)) return true;
        return false;
    case Type::element_const: {
        const std::int64_t i = w[0].at(x);
        return i >= 0 && i < static_cast<std::int64_t>(c.k.size()) && c.k[static_cast<std::size_t>(i)] == w[1].at(x);
    }
    case Type::element_var: {
        const std::int64_t i = w[n - 2].at(x);
        return i >= 0 && i < static_cast<std::int64_t>(n - 2) && w[static_cast<std::size_t>(i)].at(x) == w[n - 1].at(x);
    }
    case Type::count_const:
    case Type::count_view: {
        const std::size_t xs = c.type == Type::count_view ? n - 1 : n;
        std::int64_t hits = 0;
        for (std::size_t i = 0; i < xs; ++i) hits += w[i].at(x) == c.v ? 1 : 0;
        return checker::compare(c.r, hits, c.type == Type::count_view ? w[n - 1].at(x) : c.c);
    }
    case Type::div: // C++ truncation, as the engine promises; y == 0 has no quotient
        return w[1].at(x) != 0 && w[0].at(x) / w[1].at(x) == w[2].at(x);
    case Type::mod: return w[1].at(x) != 0 && w[0].at(x) % w[1].at(x) == w[2].at(x);
    case Type::table:
    case Type::table_forbidden: {
        const bool listed = std::any_of(c.tuples.begin(), c.tuples.end(), [&](const std::vector<int>& t) {
            for (std::size_t i = 0; i < n; ++i)
                if (w[i].at(x) != t[i]) return false;
            return true;
        });
        return listed == (c.type == Type::table);
    }
    case Type::unary:
    case Type::unary_optional: {
        // With optional tasks, the views are the starts and then their
        // presences; a task takes part when its presence is 1.
        const std::size_t h = c.type == Type::unary ? n : n / 2;
        const auto on = [&](std::size_t i) { return h == n || w[h + i].at(x) == 1; };
        for (std::size_t i = 0; i < h; ++i)
            for (std::size_t j = 0; j < i; ++j)
                if (on(i) && on(j) && !(w[i].at(x) + c.k[i] <= w[j].at(x) || w[j].at(x) + c.k[j] <= w[i].at(x)))
                    return false;
        return true;
    }
    case Type::cumulative:
    case Type::cumulative_optional: {
        const std::size_t h = c.type == Type::cumulative ? n : n / 2;
        const auto on = [&](std::size_t i) { return h == n || w[h + i].at(x) == 1; };
        for (std::size_t i = 0; i < h; ++i) { // the load only rises where a task starts
            std::int64_t load = 0;
            for (std::size_t j = 0; j < h; ++j)
                if (on(j) && w[j].at(x) <= w[i].at(x) && w[i].at(x) < w[j].at(x) + c.k[j]) load += c.tuples[0][j];
            if (on(i) && c.k[i] > 0 && load > c.c) return false;
        }
        return true;
    }
    case Type::cumulative_var: {
        // Tasks 0 .. h-1: starts, durations, heights, then the capacity.
        const std::size_t h = n / 3;
        const auto at = [&](std::size_t i) { return w[i].at(x); };
        for (std::size_t i = h; i < 3 * h; ++i)
            if (at(i) < 0) return false;
        for (std::size_t i = 0; i < h; ++i) { // the load only rises where a task starts
            if (at(h + i) == 0 || at(2 * h + i) == 0) continue;
            std::int64_t load = 0;
            for (std::size_t j = 0; j < h; ++j)
                if (at(j) <= at(i) && at(i) < at(j) + at(h + j)) load += at(2 * h + j);
            if (load > at(n - 1)) return false;
        }
        return true;
    }
    case Type::circuit: {
        for (std::size_t i = 0; i < n; ++i)
            if (w[i].at(x) < 0 || w[i].at(x) >= static_cast<std::int64_t>(n)) return false;
        std::size_t node = 0, length = 0;
        do node = static_cast<std::size_t>(w[node].at(x)), ++length;
        while (node != 0 && length <= n);
        return node == 0 && length == n;
    }
    case Type::inverse: {
        const std::size_t h = n / 2;
        for (std::size_t i = 0; i < h; ++i)
            for (std::size_t j = 0; j < h; ++j)
                if ((w[i].at(x) == static_cast<std::int64_t>(j)) != (w[h + j].at(x) == static_cast<std::int64_t>(i)))
                    return false;
        for (std::size_t i = 0; i < n; ++i)
            if (w[i].at(x) < 0 || w[i].at(x) >= static_cast<std::int64_t>(h)) return false;
        return true;
    }
    case Type::regular: {
        std::vector<char> now(u(c.dfa.states), 0);
        now[u(c.dfa.start)] = 1;
        for (std::size_t i = 0; i < n; ++i) {
            std::vector<char> next(u(c.dfa.states), 0);
            for (const propane::Transition& t : c.dfa.transitions)
                if (now[u(t.from)] && t.symbol == w[i].at(x)) next[u(t.to)] = 1;
            now = next;
        }
        return std::any_of(c.dfa.finals.begin(), c.dfa.finals.end(), [&](int f) { return now[u(f)] != 0; });
    }
    case Type::global_cardinality:
        for (std::size_t k = 0; k < c.k.size(); ++k) {
            std::int64_t hits = 0;
            for (std::size_t i = 0; i < u(c.npos); ++i) hits += w[i].at(x) == c.k[k] ? 1 : 0;
            if (hits != w[u(c.npos) + k].at(x)) return false;
        }
        return true;
    case Type::lex: {
        const std::size_t h = n / 2;
        for (std::size_t i = 0; i < h; ++i)
            if (w[i].at(x) != w[h + i].at(x)) return w[i].at(x) < w[h + i].at(x);
        return c.r == Rel::le;
    }
    case Type::bin_packing: {
        const std::size_t bins = u(c.npos);
        for (std::size_t i = bins; i < n; ++i)
            if (w[i].at(x) < 0 || w[i].at(x) >= static_cast<std::int64_t>(bins)) return false;
        for (std::size_t b = 0; b < bins; ++b) {
            std::int64_t load = 0;
            for (std::size_t i = bins; i < n; ++i)
                if (w[i].at(x) == static_cast<std::int64_t>(b)) load += c.k[i - bins];
            if (load != w[b].at(x)) return false;
        }
        return true;
    }
    case Type::increasing:
        for (std::size_t i = 0; i + 1 < n; ++i)
            if (!checker::compare(c.r, w[i].at(x), w[i + 1].at(x))) return false;
        return true;
    case Type::nvalue: {
        std::vector<std::int64_t> seen;
        for (std::size_t i = 0; i + 1 < n; ++i) seen.push_back(w[i].at(x));
        std::sort(seen.begin(), seen.end());
        const auto distinct = std::unique(seen.begin(), seen.end()) - seen.begin();
        return w[n - 1].at(x) == distinct;
    }
    }
    return false;
}

// What the model asks of the constraint: itself, or its tie to the control.
inline bool satisfied(const Con& c, const int* x) {
    const bool h = holds(c, x);
    if (!c.reified) return h;
    const std::int64_t b = c.control.at(x);
    return c.mode == ReifyMode::iff ? b == (h ? 1 : 0) : b == 0 || h;
}

struct Model {
    int ints = 0;                  // variables 0 .. ints - 1; the rest are Booleans
    std::vector<int> lo, hi;
    std::vector<std::vector<int>> values;
    bool holes_after_posting = false;
    std::vector<Con> cons;
    std::vector<int> order;
    propane::Strategy strategy, second;

    int n() const { return static_cast<int>(values.size()); }
    bool boolean(int var) const { return var >= ints; }
    std::uint64_t assignments() const {
        std::uint64_t p = 1;
        for (const auto& w : values) p *= w.size();
        return p;
    }
    std::string name(int var) const { return (boolean(var) ? "b" : "x") + std::to_string(boolean(var) ? var - ints : var); }
    std::string view_text(const ViewSpec& w) const {
        std::ostringstream o;
        if (w.a == -1 && w.b == 1) return "1 - " + name(w.var);
        if (w.a == -1) o << '-';
        else if (w.a != 1) o << w.a << '*';
        o << name(w.var);
        if (w.b != 0) o << (w.b < 0 ? " - " : " + ") << (w.b < 0 ? -w.b : w.b);
        return o.str();
    }
    std::string con_text(const Con& c) const;
    std::string text() const;
};

inline std::string numbers(const std::vector<int>& xs) {
    std::ostringstream o;
    o << '{';
    for (std::size_t i = 0; i < xs.size(); ++i) o << (i ? "," : "") << xs[i];
    return o.str() + "}";
}

inline std::string Model::con_text(const Con& c) const {
    static constexpr std::array<const char*, types> calls{
        "rel", "rel", "linear", "abs", "min", "max", "times", "all_different", "clause", "clause", "rel", "rel",
        "element", "element", "count", "count", "div", "mod", "table", "table", "linear",
        "unary", "cumulative", "circuit", "inverse", "regular", "global_cardinality", "lex", "bin_packing",
        "increasing", "nvalue", "unary", "cumulative", "cumulative"};
    std::ostringstream o;
    o << calls[static_cast<std::size_t>(c.type)] << "(";
    const auto& w = c.views;
    auto list = [&](std::size_t from, std::size_t to) {
        o << '[';
        for (std::size_t i = from; i < to; ++i) o << (i > from ? ", " : "") << view_text(w[i]);
        o << ']';
    };
    switch (c.type) {
    case Type::linear:
    case Type::linear_reif:
        for (std::size_t i = 0; i < w.size(); ++i) o << (i ? " + " : "") << c.k[i] << "*(" << view_text(w[i]) << ")";
        o << " " << propane::to_string(c.r) << " " << c.c;
        break;
    case Type::rel:
    case Type::rel_reif: o << view_text(w[0]) << ", " << propane::to_string(c.r) << ", " << view_text(w[1]); break;
    case Type::rel_const:
    case Type::rel_const_reif: o << view_text(w[0]) << ", " << propane::to_string(c.r) << ", " << c.c; break;
    case Type::clause:
    case Type::clause_reif:
        list(0, u(c.npos));
        o << ", ";
        list(u(c.npos), w.size());
        break;
    case Type::element_const: o << numbers(c.k) << ", " << view_text(w[0]) << ", " << view_text(w[1]); break;
    case Type::element_var:
        list(0, w.size() - 2);
        o << ", " << view_text(w[w.size() - 2]) << ", " << view_text(w.back());
        break;
    case Type::count_const:
    case Type::count_view: {
        const bool view = c.type == Type::count_view;
        list(0, view ? w.size() - 1 : w.size());
        o << ", " << c.v << ", " << propane::to_string(c.r) << ", ";
        if (view) o << view_text(w.back());
        else o << c.c;
        break;
    }
    case Type::table:
    case Type::table_forbidden:
        list(0, w.size());
        o << ", {";
        for (std::size_t t = 0; t < c.tuples.size(); ++t) o << (t ? ", " : "") << numbers(c.tuples[t]);
        o << '}';
        if (c.type == Type::table_forbidden) o << ", forbidden";
        break;
    case Type::min:
    case Type::max:
        list(0, w.size() - 1);
        o << ", " << view_text(w.back());
        break;
    case Type::unary:
        list(0, w.size());
        o << ", " << numbers(c.k);
        break;
    case Type::cumulative:
        list(0, w.size());
        o << ", " << numbers(c.k) << ", " << numbers(c.tuples[0]) << ", " << c.c;
        break;
    case Type::cumulative_var:
        for (std::size_t k = 0, h = w.size() / 3; k < 3; ++k) {
            list(k * h, (k + 1) * h);
            o << ", ";
        }
        o << view_text(w.back());
        break;
    case Type::unary_optional:
    case Type::cumulative_optional:
        list(0, w.size() / 2);
        o << ", " << numbers(c.k);
        if (c.type == Type::cumulative_optional) o << ", " << numbers(c.tuples[0]) << ", " << c.c;
        o << ", ";
        list(w.size() / 2, w.size());
        break;
    case Type::inverse:
    case Type::lex:
        list(0, w.size() / 2);
        o << ", ";
        list(w.size() / 2, w.size());
        if (c.type == Type::lex) o << (c.r == Rel::lt ? ", strict" : "");
        break;
    case Type::regular:
        list(0, w.size());
        o << ", " << c.dfa.states << " states, start " << c.dfa.start << ", finals " << numbers(c.dfa.finals) << ",";
        for (const propane::Transition& t : c.dfa.transitions) o << " " << t.from << "-" << t.symbol << "->" << t.to;
        break;
    case Type::global_cardinality:
        list(0, u(c.npos));
        o << ", " << numbers(c.k) << ", ";
        list(u(c.npos), w.size());
        break;
    case Type::bin_packing:
        list(0, u(c.npos));
        o << ", ";
        list(u(c.npos), w.size());
        o << ", " << numbers(c.k);
        break;
    case Type::increasing:
        list(0, w.size());
        o << (c.r == Rel::lt ? ", strict" : "");
        break;
    case Type::nvalue:
        o << view_text(w.back()) << ", ";
        list(0, w.size() - 1);
        break;
    default:
        for (std::size_t i = 0; i < w.size(); ++i) o << (i ? ", " : "") << view_text(w[i]);
    }
    if (c.type == Type::all_different) o << "; " << propane::to_string(c.strength);
    if (c.reified) o << ", " << (c.mode == ReifyMode::iff ? "iff(" : "implies(") << view_text(c.control) << ")";
    return o.str() + ")";
}

inline std::string Model::text() const {
    std::ostringstream o;
    for (int i = 0; i < n(); ++i)
        o << name(i) << " in " << numbers(values[u(i)]) << " (created "
          << (boolean(i) ? std::string("by bool_var()") : std::to_string(lo[u(i)]) + ".." + std::to_string(hi[u(i)]))
          << ")\n";
    for (const Con& c : cons) o << con_text(c) << "\n";
    o << (holes_after_posting ? "holes cut after posting" : "holes cut before posting") << "; search order";
    for (int i : order) o << ' ' << name(i);
    auto strategy_text = [](const propane::Strategy& st) {
        return std::string(st.var == propane::first_unbound ? "first_unbound" : "smallest_domain") + " / " +
               (st.val == propane::min_value ? "min_value" : "max_value");
    };
    o << ", " << strategy_text(strategy) << ", then " << strategy_text(second) << "\n";
    return o.str();
}

// ---- drawing -------------------------------------------------------------------

inline ViewSpec random_view(Rng& rng, int var) {
    if (rng.chance(50)) return {var, 1, 0};
    constexpr std::array<int, 5> scales{-2, -1, 1, 2, 3};
    return {var, scales[u(rng.between(0, 4))], rng.between(-2, 2)};
}

// A Boolean view: b or its negation 1 - b.
inline ViewSpec random_literal(Rng& rng, const Model& m) {
    const int var = rng.between(m.ints, m.n() - 1);
    return rng.chance(50) ? ViewSpec{var, 1, 0} : ViewSpec{var, -1, 1};
}

// `count` of the variables first .. n - 1, distinct but for a 15 % chance
// of a repeat each.
inline std::vector<int> pick_vars(Rng& rng, int first, int n, int count) {
    std::vector<int> out;
    for (int k = 0; k < count; ++k) {
        int w = rng.between(first, n - 1);
        for (int tries = 0; tries < 8 && !rng.chance(15) && std::find(out.begin(), out.end(), w) != out.end(); ++tries)
            w = rng.between(first, n - 1);
        out.push_back(w);
    }
    return out;
}

constexpr std::array<Rel, 6> relations{Rel::eq, Rel::ne, Rel::lt, Rel::le, Rel::gt, Rel::ge};

// One value the view takes among its variable's values.
inline int some_value(Rng& rng, const Model& m, const ViewSpec& w) {
    const auto& vals = m.values[u(w.var)];
    return static_cast<int>(std::int64_t{w.a} * vals[u(rng.between(0, static_cast<int>(vals.size()) - 1))] + w.b);
}

inline void draw_literals(Rng& rng, const Model& m, Con& c) {
    c.npos = rng.between(0, 3);
    const int nneg = rng.between(c.npos == 0 && !rng.chance(5) ? 1 : 0, 3);
    for (int i = 0; i < c.npos + nneg; ++i) c.views.push_back(random_literal(rng, m));
}

// A divisor that takes some value other than 0 over its variable's values:
// one that can only be 0 leaves the model without a solution, which other
// draws test more cheaply.
inline ViewSpec random_divisor(Rng& rng, const Model& m) {
    for (int tries = 0; tries < 20; ++tries) {
        const ViewSpec w = random_view(rng, rng.between(0, m.n() - 1));
        const auto& vals = m.values[u(w.var)];
        if (std::any_of(vals.begin(), vals.end(), [&](int t) { return std::int64_t{w.a} * t + w.b != 0; })) return w;
    }
    const int var = rng.between(0, m.n() - 1);
    return {var, 1, m.values[u(var)] == std::vector<int>{0} ? 1 : 0};
}

// A constraint of the given type over random views of the model's variables;
// `planted` may lend a table one of its tuples.
inline Con random_constraint(Rng& rng, const Model& m, Type type, const int* planted) {
    const int n = m.n();
    Con c;
    c.type = type;
    c.r = relations[u(rng.between(0, 5))];
    auto views_of = [&](int arity) {
        for (const int w : pick_vars(rng, 0, n, arity)) c.views.push_back(random_view(rng, w));
    };
    switch (type) {
    case Type::rel: views_of(2); break;
    case Type::rel_const: views_of(1); break;
    case Type::linear:
    case Type::linear_reif: views_of(rng.between(1, 4)); break;
    case Type::abs: views_of(2); break;
    case Type::min:
    case Type::max: views_of(rng.between(2, 4)); break;
    case Type::times: views_of(3); break;
    case Type::all_different: views_of(rng.between(2, n)); break;
    case Type::clause:
    case Type::clause_reif: draw_literals(rng, m, c); break;
    case Type::rel_reif: views_of(2); break;
    case Type::rel_const_reif: views_of(1); break;
    case Type::element_const:
        for (int i = rng.between(1, 5); i > 0; --i) c.k.push_back(rng.between(-4, 5));
        views_of(2);
        break;
    case Type::element_var: views_of(rng.between(1, 4) + 2); break;
    case Type::count_const: views_of(rng.between(1, 4)); break;
    case Type::count_view: views_of(rng.between(1, 4) + 1); break;
    case Type::div:
    case Type::mod:
        views_of(3);
        c.views[1] = random_divisor(rng, m);
        break;
    case Type::table:
    case Type::table_forbidden:
        views_of(rng.between(1, 3));
        // Mostly values the views take (some tuples out of the domains,
        // which posting drops), now and then the planted one's.
        for (int t = rng.between(0, 8); t > 0; --t) {
            std::vector<int> tuple;
            for (const ViewSpec& w : c.views)
                tuple.push_back(rng.chance(85) ? some_value(rng, m, w) : rng.between(lowest - 2, highest + 2));
            c.tuples.push_back(std::move(tuple));
        }
        if (rng.chance(30)) {
            std::vector<int> tuple;
            for (const ViewSpec& w : c.views) tuple.push_back(static_cast<int>(w.at(planted)));
            c.tuples.insert(c.tuples.begin() + rng.between(0, static_cast<int>(c.tuples.size())), std::move(tuple));
        }
        break;
    case Type::unary:
    case Type::cumulative:
    case Type::unary_optional:
    case Type::cumulative_optional:
        views_of(rng.between(2, 4));
        for (std::size_t i = 0; i < c.views.size(); ++i) c.k.push_back(rng.between(0, 3));
        c.tuples.emplace_back();
        for (std::size_t i = 0; i < c.views.size(); ++i) c.tuples[0].push_back(rng.between(0, 3));
        c.c = rng.between(0, 4);
        // Each task's presence, a Boolean literal.
        if (type == Type::unary_optional || type == Type::cumulative_optional)
            for (std::size_t i = 0, h = c.views.size(); i < h; ++i) c.views.push_back(random_literal(rng, m));
        break;
    case Type::cumulative_var: views_of(3 * rng.between(1, 3) + 1); break;
    case Type::circuit: views_of(rng.between(2, 4)); break;
    case Type::inverse:
    case Type::lex: views_of(2 * rng.between(1, 3)); break;
    case Type::regular: {
        views_of(rng.between(1, 4));
        c.dfa.states = rng.between(1, 3);
        c.dfa.start = rng.between(0, c.dfa.states - 1);
        for (int q = 0; q < c.dfa.states; ++q)
            if (rng.chance(50)) c.dfa.finals.push_back(q);
        for (int t = rng.between(1, 8); t > 0; --t)
            c.dfa.transitions.push_back({rng.between(0, c.dfa.states - 1), some_value(rng, m, c.views[0]),
                                         rng.between(0, c.dfa.states - 1)});
        break;
    }
    case Type::global_cardinality:
        c.npos = rng.between(1, 4);
        views_of(c.npos);
        for (int k = rng.between(1, 2); k > 0; --k) {
            const int v = rng.chance(75) ? some_value(rng, m, c.views[0]) : rng.between(-3, 4);
            if (std::find(c.k.begin(), c.k.end(), v) != c.k.end()) continue;
            c.k.push_back(v);
            c.views.push_back(random_view(rng, rng.between(0, n - 1)));
        }
        break;
    case Type::bin_packing:
        c.npos = rng.between(1, 3);
        views_of(c.npos + rng.between(1, 3));
        for (std::size_t i = u(c.npos); i < c.views.size(); ++i) c.k.push_back(rng.between(0, 3));
        break;
    case Type::increasing: views_of(rng.between(2, 4)); break;
    case Type::nvalue: views_of(rng.between(1, 4) + 1); break;
    }
    if (c.type == Type::lex || c.type == Type::increasing) c.r = rng.chance(50) ? Rel::lt : Rel::le;
    if (c.type == Type::linear || c.type == Type::linear_reif) {
        // The constant is the sum at some assignment, give or take one,
        // so that the equation has solutions about as often as not.
        std::int64_t sum = 0;
        for (const ViewSpec& w : c.views) {
            c.k.push_back(rng.chance(10) ? 0 : rng.between(1, 3) * (rng.chance(50) ? 1 : -1));
            const auto& vals = m.values[u(w.var)];
            sum += c.k.back() * (std::int64_t{w.a} * vals[u(rng.between(0, static_cast<int>(vals.size()) - 1))] + w.b);
        }
        c.c = static_cast<int>(sum) + rng.between(-1, 1);
    }
    if (c.type == Type::rel_const || c.type == Type::rel_const_reif) c.c = rng.between(-5, 6);
    if (c.type == Type::count_const || c.type == Type::count_view) {
        // Mostly a value some view takes, so that the count moves.
        c.v = rng.chance(75) ? some_value(rng, m, c.views[u(rng.between(0, static_cast<int>(c.views.size()) - 1))])
                             : rng.between(-3, 4);
        c.c = rng.between(0, static_cast<int>(c.views.size()) + 1);
    }
    constexpr std::array<propane::Consistency, 3> strengths{propane::value, propane::bounds, propane::domain};
    c.strength = strengths[u(rng.between(0, 2))];
    // Two views that are the same function in one all_different make
    // it unsatisfiable outright: the later one is shifted by one.
    if (c.type == Type::all_different)
        for (std::size_t i = 0; i < c.views.size(); ++i)
            for (std::size_t j = 0; j < i; ++j)
                if (c.views[i].var == c.views[j].var && c.views[i].a == c.views[j].a && c.views[i].b == c.views[j].b)
                    c.views[i].b += 1;
    if (c.type == Type::clause_reif || c.type == Type::rel_reif || c.type == Type::rel_const_reif ||
        c.type == Type::linear_reif) {
        c.reified = true;
        c.control = random_literal(rng, m);
        c.mode = rng.chance(50) ? ReifyMode::iff : ReifyMode::implies;
    }
    return c;
}

// Part 1's models: 2..7 integer variables and 1..6 constraints of its 8
// families, drawn exactly as they were before part 2. Models of parts 1
// and 2: 1..6 integer variables, 1..5 Booleans, 3..12 constraints of every
// family of those parts. Models with the globals: the same variables, 2..6
// constraints, half of them globals.
inline Model random_model(std::uint64_t seed, Part part) {
    const bool logic = part != Part::arithmetic;
    Rng rng(seed);
    Model m;
    const int ints = logic ? rng.between(1, max_ints - 1) : rng.between(2, max_ints);
    const int n = ints + (logic ? rng.between(1, max_bools) : 0);
    m.ints = ints;
    m.lo.resize(u(n));
    m.hi.resize(u(n));
    m.values.resize(u(n));
    for (bool first = true; first || m.assignments() > (logic ? max_logic_assignments : max_assignments); first = false)
        for (int i = 0; i < n; ++i) {
            auto& vals = m.values[u(i)];
            vals.clear();
            if (m.boolean(i)) {
                m.lo[u(i)] = 0;
                m.hi[u(i)] = 1;
                const int hole = rng.chance(85) ? -1 : rng.between(0, 1);
                for (int t = 0; t <= 1; ++t)
                    if (t != hole) vals.push_back(t);
                continue;
            }
            m.lo[u(i)] = rng.between(lowest, 1);
            m.hi[u(i)] = rng.between(m.lo[u(i)], highest);
            const int density = rng.between(50, 100);
            for (int t = m.lo[u(i)]; t <= m.hi[u(i)]; ++t)
                if (rng.chance(density)) vals.push_back(t);
            if (vals.empty()) vals.push_back(rng.between(m.lo[u(i)], m.hi[u(i)]));
        }
    m.holes_after_posting = rng.chance(30);

    // A planted assignment: most constraints are redrawn until it
    // satisfies them, so that most models have solutions, and the search
    // more to find than a root failure.
    std::array<int, max_vars> planted{};
    for (int i = 0; i < n; ++i)
        planted[u(i)] = m.values[u(i)][u(rng.between(0, static_cast<int>(m.values[u(i)].size()) - 1))];
    // Fewer in the globals' models: with as many, most had no solution.
    const int ncons = part == Part::globals ? rng.between(2, 6) : logic ? rng.between(3, 12) : rng.between(1, 6);
    for (int k = 0; k < ncons; ++k) {
        const auto type = part == Part::globals && rng.chance(50)
                              ? static_cast<Type>(rng.between(part2_types, types - 1))
                              : static_cast<Type>(rng.between(0, (logic ? part2_types : part1_types) - 1));
        const int tries = rng.chance(80) ? 30 : 1;
        for (int attempt = 0; attempt < tries; ++attempt) {
            Con c = random_constraint(rng, m, type, planted.data());
            if (attempt + 1 < tries && !satisfied(c, planted.data())) continue;
            m.cons.push_back(std::move(c));
            break;
        }
    }
    for (int i = 0; i < n; ++i) m.order.push_back(i);
    for (int i = n - 1; i > 0; --i) std::swap(m.order[u(i)], m.order[u(rng.between(0, i))]);
    m.strategy = {.var = rng.chance(50) ? propane::first_unbound : propane::smallest_domain,
                  .val = rng.chance(50) ? propane::min_value : propane::max_value};
    m.second = {.var = m.strategy.var == propane::first_unbound ? propane::smallest_domain : propane::first_unbound,
                .val = rng.chance(50) ? propane::min_value : propane::max_value};
    return m;
}

// ---- enumeration ---------------------------------------------------------------

// A solution as one integer, four bits per variable, the first variable
// the most significant: codes sort as the solutions do.
using Code = std::uint64_t;
static_assert(highest - lowest < 16 && 4 * max_vars <= 64);

inline Code pack(const int* x, int n) {
    Code c = 0;
    for (int i = 0; i < n; ++i) c = c << 4 | static_cast<Code>(x[i] - lowest);
    return c;
}

inline std::vector<int> unpack(Code c, int n) {
    std::vector<int> x(u(n));
    for (int i = n - 1; i >= 0; --i, c >>= 4) x[u(i)] = static_cast<int>(c & 15) + lowest;
    return x;
}

inline std::vector<Code> brute_force(const Model& m) {
    std::vector<std::size_t> at(u(m.n()), 0);
    std::array<int, max_vars> x{};
    std::vector<Code> sols;
    for (;;) {
        for (int i = 0; i < m.n(); ++i) x[u(i)] = m.values[u(i)][at[u(i)]];
        if (std::all_of(m.cons.begin(), m.cons.end(), [&](const Con& c) { return satisfied(c, x.data()); }))
            sols.push_back(pack(x.data(), m.n()));
        int i = m.n();
        while (i > 0 && ++at[u(i - 1)] == m.values[u(i - 1)].size()) at[u(--i)] = 0;
        if (i == 0) return sols;
    }
}

} // namespace models

#endif
