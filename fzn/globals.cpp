// The native globals' posters (globals.hpp): each reads the arguments its
// propane_* predicate in fzn/mznlib passes, and posts the propane
// constraint of that name. Index sets arrive as their least index, and
// become offset views where propane counts from 0.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "globals.hpp"
#include "posting.hpp"

namespace propane::fzn::globals {

namespace {

using posting::need;

Consistency strength_of(const ConstraintItem& c, Consistency fallback) {
    for (const Node& a : c.annotations) {
        if (a.is("domain") || a.is("domain_propagation")) return domain;
        if (a.is("bounds") || a.is("bounds_propagation")) return bounds;
        if (a.is("value_propagation")) return value;
    }
    return fallback;
}

// x[i] - first for each i: x[i] indexes an array of `count` elements from
// `first`, read from 0. A view needs x[i]'s initial range to stay within
// int once offset, which a variable over the whole 32-bit range does not
// (builder.hpp): such an x[i] is replaced by an equal variable over the
// indexes it can take, those of the array (none: the model fails).
std::vector<OffsetView> from_zero(FznStore& s, const std::vector<IntVar>& xs, std::int64_t first, std::size_t count) {
    if (first < detail::int_min + 1 || first > detail::int_max)
        throw Unsupported("an index set starting at " + std::to_string(first));
    const std::int64_t last = std::min(first + static_cast<std::int64_t>(count) - 1, detail::int_max);
    const auto fits = [&](std::int64_t v) { return v - first >= detail::int_min && v - first <= detail::int_max; };
    std::vector<OffsetView> out;
    out.reserve(xs.size());
    for (const IntVar x : xs) {
        if (fits(x.lo()) && fits(x.hi())) {
            out.push_back(x - static_cast<int>(first));
            continue;
        }
        const std::int64_t lo = std::max<std::int64_t>(x.lo(), first), hi = std::min<std::int64_t>(x.hi(), last);
        if (lo > hi) {
            (void)s.fail();
            out.push_back(s.int_var(static_cast<int>(first), static_cast<int>(first)) - static_cast<int>(first));
            continue;
        }
        const IntVar y = s.int_var(static_cast<int>(lo), static_cast<int>(hi));
        s.post(rel(x, Rel::eq, y));
        out.push_back(y - static_cast<int>(first));
    }
    return out;
}

} // namespace

// Domain strength keeps arrays over the values' span and refuses one past
// AllDifferentDomain's limit (all_different.hpp); over such a span, which
// only variables in the interval form reach, the model gets bounds
// strength, as asked or by default, rather than an error.
void all_different_int(Builder& b, const ConstraintItem& c) {
    need(c, 1);
    const std::vector<IntVar> xs = b.vars(c.args[0]);
    Consistency strength = strength_of(c, domain);
    if (strength == domain && !xs.empty()) {
        std::int64_t lo = xs.front().lo(), hi = xs.front().hi();
        for (const IntVar x : xs) {
            lo = std::min<std::int64_t>(lo, x.lo());
            hi = std::max<std::int64_t>(hi, x.hi());
        }
        if (hi - lo + 1 > detail::AllDifferentDomain<FznStore, IntVar>::max_values) strength = bounds;
    }
    b.store().post(all_different(xs, strength));
}

// propane_bin_packing_load(load, bin, w, first bin).
void bin_packing_load(Builder& b, const ConstraintItem& c) {
    need(c, 4);
    const std::vector<IntVar> load = b.vars(c.args[0]);
    const auto bins = from_zero(b.store(), b.vars(c.args[1]), b.integer(c.args[3]), load.size());
    b.store().post(bin_packing(load, bins, b.integers(c.args[2])));
}

// propane_circuit(x, first index).
void circuit(Builder& b, const ConstraintItem& c) {
    need(c, 2);
    const std::vector<IntVar> x = b.vars(c.args[0]);
    b.store().post(propane::circuit(from_zero(b.store(), x, b.integer(c.args[1]), x.size())));
}

template <Rel r>
void count_rel(Builder& b, const ConstraintItem& c) {
    need(c, 3);
    const std::vector<IntVar> xs = b.vars(c.args[0]);
    const std::int64_t v = b.integer(c.args[1]);
    const Term n = b.term(c.args[2]);
    if (n.fixed) b.store().post(count(xs, v, r, n.value));
    else b.store().post(count(xs, v, r, n.var));
}
template void count_rel<Rel::eq>(Builder&, const ConstraintItem&);
template void count_rel<Rel::ne>(Builder&, const ConstraintItem&);
template void count_rel<Rel::lt>(Builder&, const ConstraintItem&);
template void count_rel<Rel::le>(Builder&, const ConstraintItem&);
template void count_rel<Rel::gt>(Builder&, const ConstraintItem&);
template void count_rel<Rel::ge>(Builder&, const ConstraintItem&);

// propane_cumulative(s, d, r, b), all but s fixed. A negative capacity
// holds no task at all (MiniZinc's cumulative has at least one here).
void cumulative(Builder& b, const ConstraintItem& c) {
    need(c, 4);
    const std::int64_t capacity = b.integer(c.args[3]);
    if (capacity < 0) {
        (void)b.store().fail();
        return;
    }
    b.store().post(
        propane::cumulative(b.vars(c.args[0]), b.integers(c.args[1]), b.integers(c.args[2]), capacity));
}

// propane_cumulative_var(s, d, r, b): durations, heights and the capacity
// variables (a constant among them becomes a fixed variable). The library
// adds b >= 0, which MiniZinc's cumulative asks of any resource with a task.
void cumulative_var(Builder& b, const ConstraintItem& c) {
    need(c, 4);
    b.store().post(
        propane::cumulative(b.vars(c.args[0]), b.vars(c.args[1]), b.vars(c.args[2]), b.var(c.args[3])));
}

// propane_disjunctive(s, d) and propane_disjunctive_strict(s, d), d fixed.
void disjunctive(Builder& b, const ConstraintItem& c) {
    need(c, 2);
    b.store().post(propane::disjunctive(b.vars(c.args[0]), b.integers(c.args[1])));
}
void disjunctive_strict(Builder& b, const ConstraintItem& c) {
    need(c, 2);
    b.store().post(unary(b.vars(c.args[0]), b.integers(c.args[1])));
}

// The optional forms: the same with the tasks' presences (MiniZinc's
// occurs) as a last argument, the starts their deopt.
void cumulative_opt(Builder& b, const ConstraintItem& c) {
    need(c, 5);
    b.store().post(propane::cumulative(b.vars(c.args[0]), b.integers(c.args[1]), b.integers(c.args[2]),
                                       b.integer(c.args[3]), b.vars(c.args[4])));
}
void disjunctive_opt(Builder& b, const ConstraintItem& c) {
    need(c, 3);
    b.store().post(propane::disjunctive(b.vars(c.args[0]), b.integers(c.args[1]), b.vars(c.args[2])));
}
void disjunctive_strict_opt(Builder& b, const ConstraintItem& c) {
    need(c, 3);
    b.store().post(unary(b.vars(c.args[0]), b.integers(c.args[1]), b.vars(c.args[2])));
}

// propane_global_cardinality(x, cover, counts), the cover values distinct.
void global_cardinality(Builder& b, const ConstraintItem& c) {
    need(c, 3);
    b.store().post(propane::global_cardinality(b.vars(c.args[0]), b.integers(c.args[1]), b.vars(c.args[2])));
}

// propane_inverse(f, first index of f, invf, first index of invf): f's
// values index invf, and the other way.
void inverse(Builder& b, const ConstraintItem& c) {
    need(c, 4);
    const std::vector<IntVar> f = b.vars(c.args[0]), g = b.vars(c.args[2]);
    b.store().post(propane::inverse(from_zero(b.store(), f, b.integer(c.args[3]), g.size()),
                                    from_zero(b.store(), g, b.integer(c.args[1]), f.size())));
}

// propane_lex_lesseq_int(x, y), propane_lex_less_int(x, y): on the common
// length; x <=lex y then needs the prefixes strictly ordered when x is the
// longer, x <lex y unless x is the shorter.
namespace {
void lex(Builder& b, const ConstraintItem& c, bool strict) {
    need(c, 2);
    std::vector<IntVar> x = b.vars(c.args[0]), y = b.vars(c.args[1]);
    const bool prefix_strict = strict ? x.size() >= y.size() : x.size() > y.size();
    const std::size_t n = std::min(x.size(), y.size());
    x.resize(n);
    y.resize(n);
    if (prefix_strict) b.store().post(lex_less(x, y));
    else b.store().post(lex_lesseq(x, y));
}
} // namespace
void lex_less_int(Builder& b, const ConstraintItem& c) { lex(b, c, true); }
void lex_lesseq_int(Builder& b, const ConstraintItem& c) { lex(b, c, false); }

// propane_nvalue(n, x).
void nvalue(Builder& b, const ConstraintItem& c) {
    need(c, 2);
    b.store().post(propane::nvalue(b.var(c.args[0]), b.vars(c.args[1])));
}

// propane_regular(x, Q, S, d row by row, q0, F): states 1..Q become 0..Q-1;
// a 0 in d is no transition.
void regular(Builder& b, const ConstraintItem& c) {
    need(c, 6);
    const std::int64_t states = b.integer(c.args[1]), symbols = b.integer(c.args[2]);
    const std::vector<std::int64_t> d = b.integers(c.args[3]);
    if (states < 1 || symbols < 0 || states > detail::int_max || symbols > detail::int_max ||
        static_cast<std::uint64_t>(d.size()) != static_cast<std::uint64_t>(states) * static_cast<std::uint64_t>(symbols))
        throw SyntaxError(c.line, c.column, c.name + ": a table of " + std::to_string(d.size()) + " entries for " +
                                                std::to_string(states) + " states and " + std::to_string(symbols) +
                                                " symbols");
    Dfa dfa{.states = static_cast<int>(states), .start = 0, .finals = {}, .transitions = {}};
    const std::int64_t start = b.integer(c.args[4]);
    if (start < 1 || start > states) throw SyntaxError(c.line, c.column, c.name + ": start state " + std::to_string(start));
    dfa.start = static_cast<int>(start - 1);
    const IntSet finals = b.set(c.args[5]);
    for (const auto& [lo, hi] : finals.runs)
        for (std::int64_t f = std::max<std::int64_t>(lo, 1); f <= std::min(hi, states); ++f)
            dfa.finals.push_back(static_cast<int>(f - 1));
    for (std::int64_t q = 0; q < states; ++q)
        for (std::int64_t a = 0; a < symbols; ++a) {
            const std::int64_t to = d[static_cast<std::size_t>(q * symbols + a)];
            if (to == 0) continue;
            if (to < 1 || to > states)
                throw SyntaxError(c.line, c.column, c.name + ": a transition to state " + std::to_string(to));
            dfa.transitions.push_back({static_cast<int>(q), static_cast<int>(a + 1), static_cast<int>(to - 1)});
        }
    b.store().post(propane::regular(b.vars(c.args[0]), std::move(dfa)));
}

// propane_table_int(xs, tuples flattened row by row).
void table_int(Builder& b, const ConstraintItem& c) {
    need(c, 2);
    const std::vector<IntVar> xs = b.vars(c.args[0]);
    const std::vector<std::int64_t> flat = b.integers(c.args[1]);
    if (xs.empty()) throw SyntaxError(c.line, c.column, c.name + " over no variables");
    if (flat.size() % xs.size() != 0)
        throw SyntaxError(c.line, c.column, c.name + ": " + std::to_string(flat.size()) +
                                                " table entries are not rows of " + std::to_string(xs.size()));
    std::vector<std::vector<std::int64_t>> tuples;
    for (std::size_t k = 0; k < flat.size(); k += xs.size())
        tuples.emplace_back(flat.begin() + static_cast<std::ptrdiff_t>(k),
                            flat.begin() + static_cast<std::ptrdiff_t>(k + xs.size()));
    b.store().post(table(xs, tuples));
}

} // namespace propane::fzn::globals
