// The builtin table: each FlatZinc constraint name and the poster that
// posts it as propane constraints (sorted by name, found by binary search),
// with the posters themselves. What they share is posting.hpp.

#include <algorithm>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "builder.hpp"
#include "builtins.hpp"
#include "globals.hpp"
#include "posting.hpp"

namespace propane::fzn {

namespace {

using namespace posting;

Term tm(Builder& b, const Node& n) { return b.term(n); }

// ---- integers ----------------------------------------------------------------------

template <Rel r>
void int_rel(Builder& b, const ConstraintItem& c) {
    need(c, 2);
    post_rel(b, tm(b, c.args[0]), r, tm(b, c.args[1]));
}

template <Rel r, ReifyMode mode>
void int_rel_reif(Builder& b, const ConstraintItem& c) {
    need(c, 3);
    post_rel_reif(b, tm(b, c.args[0]), r, tm(b, c.args[1]), tm(b, c.args[2]), mode);
}

template <Rel r>
void int_lin(Builder& b, const ConstraintItem& c) {
    need(c, 3);
    post_linear(b, b.integers(c.args[0]), b.terms(c.args[1]), r, b.integer(c.args[2]));
}

template <Rel r, ReifyMode mode>
void int_lin_reif(Builder& b, const ConstraintItem& c) {
    need(c, 4);
    const Term z = tm(b, c.args[3]);
    post_linear(b, b.integers(c.args[0]), b.terms(c.args[1]), r, b.integer(c.args[2]), &z, mode);
}

// bool_lin_eq(as, bs, c) and bool_lin_le: c may be a variable.
template <Rel r>
void bool_lin(Builder& b, const ConstraintItem& c) {
    need(c, 3);
    auto coeffs = b.integers(c.args[0]);
    auto xs = b.terms(c.args[1]);
    const Term rhs = tm(b, c.args[2]);
    if (rhs.fixed) return post_linear(b, coeffs, xs, r, rhs.value);
    coeffs.push_back(-1);
    xs.push_back(rhs);
    post_linear(b, coeffs, xs, r, 0);
}

void int_plus(Builder& b, const ConstraintItem& c) {
    need(c, 3);
    post_linear(b, {1, 1, -1}, {tm(b, c.args[0]), tm(b, c.args[1]), tm(b, c.args[2])}, Rel::eq, 0);
}

void int_abs(Builder& b, const ConstraintItem& c) {
    need(c, 2);
    b.store().post(abs(b.var(c.args[0]), b.var(c.args[1])));
}

// A constant factor scales the other: z == k*y is then a relation between
// two views, as C++'s s.post(z == 3 * y), not a product.
void int_times(Builder& b, const ConstraintItem& c) {
    need(c, 3);
    const Term x = tm(b, c.args[0]), y = tm(b, c.args[1]);
    if (x.fixed || y.fixed) {
        const Term& k = x.fixed ? x : y;
        const Term& other = x.fixed ? y : x;
        post_linear(b, {k.value, -1}, {other, tm(b, c.args[2])}, Rel::eq, 0);
        return;
    }
    b.store().post(times(b.var(c.args[0]), b.var(c.args[1]), b.var(c.args[2])));
}

void int_div(Builder& b, const ConstraintItem& c) {
    need(c, 3);
    b.store().post(div(b.var(c.args[0]), b.var(c.args[1]), b.var(c.args[2])));
}

void int_mod(Builder& b, const ConstraintItem& c) {
    need(c, 3);
    b.store().post(mod(b.var(c.args[0]), b.var(c.args[1]), b.var(c.args[2])));
}

template <bool is_max>
void int_min_max(Builder& b, const ConstraintItem& c) {
    need(c, 3);
    const std::vector<IntVar> xs{b.var(c.args[0]), b.var(c.args[1])};
    const IntVar z = b.var(c.args[2]);
    if constexpr (is_max) b.store().post(max(xs, z));
    else b.store().post(min(xs, z));
}

template <bool is_max>
void array_min_max(Builder& b, const ConstraintItem& c) {
    need(c, 2);
    const IntVar z = b.var(c.args[0]);
    const std::vector<IntVar> xs = b.vars(c.args[1]);
    if (xs.empty()) throw SyntaxError(c.line, c.column, c.name + " of an empty array");
    if constexpr (is_max) b.store().post(max(xs, z));
    else b.store().post(min(xs, z));
}

// x^y for integers as MiniZinc defines it: y >= 0 the usual power, y < 0
// the reciprocal rounded toward zero (1 for x == 1, +-1 for x == -1, 0
// otherwise) and undefined for x == 0. Bases -1, 0 and 1 in closed form,
// the others by squaring: a few steps for any exponent, since |x| >= 2
// passes 2^40 (beyond any int domain: no power there) within 40.
std::optional<std::int64_t> power(std::int64_t x, std::int64_t y) {
    if (x == 1) return 1;
    if (x == -1) return y % 2 == 0 ? 1 : -1;
    if (x == 0) {
        if (y < 0) return std::nullopt;
        return y == 0 ? 1 : 0;
    }
    if (y < 0) return 0;
    constexpr std::int64_t limit = std::int64_t{1} << 40;
    const auto fits = [](std::int64_t a, std::int64_t b) { return std::abs(a) <= limit / std::abs(b); };
    std::int64_t result = 1, base = x;
    for (;;) {
        if (y & 1) {
            if (!fits(result, base)) return std::nullopt;
            result *= base;
        }
        y >>= 1;
        if (y == 0) return result;
        // Another factor of at least base^2 is still to come.
        if (!fits(base, base)) return std::nullopt;
        base *= base;
    }
}

// int_pow as a table of its solutions over the domains of its arguments:
// exact (domain consistent) and simple. Past a million pairs, a fixed
// exponent k >= 1 becomes a chain of k - 1 products (x * x * ... * x, each
// partial power a new variable), and a variable one is refused.
void int_pow(Builder& b, const ConstraintItem& c) {
    need(c, 3);
    FznStore& s = b.store();
    const IntVar x = b.var(c.args[0]), y = b.var(c.args[1]), z = b.var(c.args[2]);
    const std::uint64_t work = std::uint64_t{s.domain(x).size()} * s.domain(y).size();
    if (work > 1'000'000) {
        const int k = s.domain(y).min();
        if (!s.domain(y).fixed() || k < 1 || k > 64)
            throw Unsupported("int_pow over domains of " + std::to_string(s.domain(x).size()) + " and " +
                              std::to_string(s.domain(y).size()) +
                              " values: more than a million pairs, and not a fixed exponent from 1 to 64");
        IntVar power = x;
        for (int e = 2; e <= k; ++e) {
            IntVar next = z;
            if (e < k) {
                // Bounds of x^e within z's magnitude: a larger partial power
                // could only grow (|x| >= 2) or be 0 or +-1.
                const std::int64_t m = std::max<std::int64_t>(
                    1, std::max(std::abs(std::int64_t{s.domain(z).min()}), std::abs(std::int64_t{s.domain(z).max()})));
                next = s.int_var(static_cast<int>(-m), static_cast<int>(m));
            }
            s.post(times(power, x, next));
            power = next;
        }
        if (k == 1) s.post(rel(x, Rel::eq, z));
        return;
    }
    std::vector<std::vector<std::int64_t>> tuples;
    for (const int u : s.domain(x))
        for (const int v : s.domain(y)) {
            const auto p = power(u, v);
            if (p && s.domain(z).contains(*p)) tuples.push_back({u, v, *p});
        }
    if (tuples.empty()) {
        (void)s.fail();
        return;
    }
    s.post(table(std::vector<IntVar>{x, y, z}, tuples));
}

// Element with FlatZinc's 1-based index.
void array_int_element(Builder& b, const ConstraintItem& c) {
    need(c, 3);
    const IntVar i = b.var(c.args[0]);
    b.store().post(element(b.integers(c.args[1]), i - 1, b.var(c.args[2])));
}

void array_var_element(Builder& b, const ConstraintItem& c) {
    need(c, 3);
    const IntVar i = b.var(c.args[0]);
    const std::vector<Term> xs = b.terms(c.args[1]);
    if (std::all_of(xs.begin(), xs.end(), [](const Term& t) { return t.fixed; })) {
        std::vector<std::int64_t> values;
        for (const Term& t : xs) values.push_back(t.value);
        b.store().post(element(values, i - 1, b.var(c.args[2])));
        return;
    }
    std::vector<IntVar> vs;
    for (const Term& t : xs) vs.push_back(b.var(t));
    b.store().post(element(vs, i - 1, b.var(c.args[2])));
}

// ---- Booleans ------------------------------------------------------------------------

void bool2int(Builder& b, const ConstraintItem& c) {
    need(c, 2);
    post_rel(b, tm(b, c.args[0]), Rel::eq, tm(b, c.args[1]));
}

void bool_not(Builder& b, const ConstraintItem& c) {
    need(c, 2);
    post_rel(b, tm(b, c.args[0]), Rel::ne, tm(b, c.args[1]));
}

void bool_xor(Builder& b, const ConstraintItem& c) {
    if (c.args.size() == 2) return post_rel(b, tm(b, c.args[0]), Rel::ne, tm(b, c.args[1]));
    need(c, 3);
    post_rel_reif(b, tm(b, c.args[0]), Rel::ne, tm(b, c.args[1]), tm(b, c.args[2]), ReifyMode::iff);
}

template <ReifyMode mode>
void bool_xor_r(Builder& b, const ConstraintItem& c) {
    need(c, 3);
    post_rel_reif(b, tm(b, c.args[0]), Rel::ne, tm(b, c.args[1]), tm(b, c.args[2]), mode);
}

// r <-> (a_1 or ... or a_n), or r -> it.
template <ReifyMode mode>
void array_bool_or(Builder& b, const ConstraintItem& c) {
    need(c, 2);
    const Term r = tm(b, c.args[1]);
    post_clause(b, b.terms(c.args[0]), {}, &r, mode);
}

template <ReifyMode mode>
void array_bool_and(Builder& b, const ConstraintItem& c) {
    need(c, 2);
    post_and(b, b.terms(c.args[0]), tm(b, c.args[1]), mode);
}

template <ReifyMode mode>
void bool_and(Builder& b, const ConstraintItem& c) {
    need(c, 3);
    post_and(b, {tm(b, c.args[0]), tm(b, c.args[1])}, tm(b, c.args[2]), mode);
}

template <ReifyMode mode>
void bool_or(Builder& b, const ConstraintItem& c) {
    need(c, 3);
    const Term r = tm(b, c.args[2]);
    post_clause(b, {tm(b, c.args[0]), tm(b, c.args[1])}, {}, &r, mode);
}

void bool_clause(Builder& b, const ConstraintItem& c) {
    need(c, 2);
    post_clause(b, b.terms(c.args[0]), b.terms(c.args[1]));
}

template <ReifyMode mode>
void bool_clause_r(Builder& b, const ConstraintItem& c) {
    need(c, 3);
    const Term r = tm(b, c.args[2]);
    post_clause(b, b.terms(c.args[0]), b.terms(c.args[1]), &r, mode);
}

// An odd number of the as are true: sum(as) == 2k + 1.
void array_bool_xor(Builder& b, const ConstraintItem& c) {
    need(c, 1);
    std::vector<Term> as = b.terms(c.args[0]);
    const auto n = static_cast<int>(as.size());
    std::vector<std::int64_t> coeffs(as.size(), 1);
    const IntVar k = b.store().int_var(0, n / 2);
    coeffs.push_back(-2);
    as.push_back(Term{false, 0, k});
    post_linear(b, coeffs, as, Rel::eq, 1);
}

// ---- sets of constants ------------------------------------------------------------------

void set_in(Builder& b, const ConstraintItem& c) {
    need(c, 2);
    const Term x = tm(b, c.args[0]);
    const IntSet set = b.set(c.args[1]);
    FznStore& s = b.store();
    if (x.fixed) {
        if (!set.contains(x.value)) (void)s.fail();
        return;
    }
    keep_only(s, x.var, set);
}

// r <-> x in S (or r -> x in S): one reified range test per run of S
// that meets x's domain (x == v for a run of one value, domain consistent
// where two bounds tests would see only the bounds), r the disjunction of
// the tests.
template <ReifyMode mode>
void set_in_reif(Builder& b, const ConstraintItem& c) {
    need(c, 3);
    const Term x = tm(b, c.args[0]);
    const IntSet set = b.set(c.args[1]);
    const Term r = tm(b, c.args[2]);
    FznStore& s = b.store();
    if (x.fixed) {
        const bool in = set.contains(x.value);
        if (!in) set_bool(b, r, false);
        else if (mode == ReifyMode::iff) set_bool(b, r, true);
        return;
    }
    std::vector<Term> tests;
    for (const auto& [lo, hi] : set.runs) {
        if (hi < x.var.lo() || lo > x.var.hi()) continue;
        const bool low_open = lo > x.var.lo(), high_open = hi < x.var.hi();
        if (!low_open && !high_open) { // the run holds x's whole initial range
            tests.push_back(Term{true, 1, {}});
            continue;
        }
        const IntVar t = s.bool_var();
        if (lo == hi) {
            s.post(rel(x.var, Rel::eq, lo, iff(t)));
        } else if (low_open && high_open) {
            const IntVar above = s.bool_var(), below = s.bool_var();
            s.post(rel(x.var, Rel::ge, lo, iff(above)));
            s.post(rel(x.var, Rel::le, hi, iff(below)));
            post_and(b, {Term{false, 0, above}, Term{false, 0, below}}, Term{false, 0, t}, ReifyMode::iff);
        } else if (low_open) {
            s.post(rel(x.var, Rel::ge, lo, iff(t)));
        } else {
            s.post(rel(x.var, Rel::le, hi, iff(t)));
        }
        tests.push_back(Term{false, 0, t});
    }
    post_clause(b, tests, {}, &r, mode);
}

struct Entry {
    std::string_view name;
    void (*post)(Builder&, const ConstraintItem&);
};

constexpr ReifyMode reif = ReifyMode::iff, imp = ReifyMode::implies;

// Sorted by name, for the binary search in post_builtin.
constexpr Entry table_entries[] = {
    {"array_bool_and", array_bool_and<reif>},
    {"array_bool_and_imp", array_bool_and<imp>},
    {"array_bool_element", array_int_element},
    {"array_bool_or", array_bool_or<reif>},
    {"array_bool_or_imp", array_bool_or<imp>},
    {"array_bool_xor", array_bool_xor},
    {"array_int_element", array_int_element},
    {"array_int_maximum", array_min_max<true>},
    {"array_int_minimum", array_min_max<false>},
    {"array_var_bool_element", array_var_element},
    {"array_var_int_element", array_var_element},
    {"bool2int", bool2int},
    {"bool_and", bool_and<reif>},
    {"bool_and_imp", bool_and<imp>},
    {"bool_clause", bool_clause},
    {"bool_clause_imp", bool_clause_r<imp>},
    {"bool_clause_reif", bool_clause_r<reif>},
    {"bool_eq", int_rel<Rel::eq>},
    {"bool_eq_imp", int_rel_reif<Rel::eq, imp>},
    {"bool_eq_reif", int_rel_reif<Rel::eq, reif>},
    {"bool_le", int_rel<Rel::le>},
    {"bool_le_imp", int_rel_reif<Rel::le, imp>},
    {"bool_le_reif", int_rel_reif<Rel::le, reif>},
    {"bool_lin_eq", bool_lin<Rel::eq>},
    {"bool_lin_le", bool_lin<Rel::le>},
    {"bool_lt", int_rel<Rel::lt>},
    {"bool_lt_imp", int_rel_reif<Rel::lt, imp>},
    {"bool_lt_reif", int_rel_reif<Rel::lt, reif>},
    {"bool_ne", int_rel<Rel::ne>},
    {"bool_ne_imp", int_rel_reif<Rel::ne, imp>},
    {"bool_ne_reif", int_rel_reif<Rel::ne, reif>},
    {"bool_not", bool_not},
    {"bool_or", bool_or<reif>},
    {"bool_or_imp", bool_or<imp>},
    {"bool_xor", bool_xor},
    {"bool_xor_imp", bool_xor_r<imp>},
    {"bool_xor_reif", bool_xor_r<reif>},
    {"int_abs", int_abs},
    {"int_div", int_div},
    {"int_eq", int_rel<Rel::eq>},
    {"int_eq_imp", int_rel_reif<Rel::eq, imp>},
    {"int_eq_reif", int_rel_reif<Rel::eq, reif>},
    {"int_ge", int_rel<Rel::ge>},
    {"int_ge_imp", int_rel_reif<Rel::ge, imp>},
    {"int_ge_reif", int_rel_reif<Rel::ge, reif>},
    {"int_gt", int_rel<Rel::gt>},
    {"int_gt_imp", int_rel_reif<Rel::gt, imp>},
    {"int_gt_reif", int_rel_reif<Rel::gt, reif>},
    {"int_le", int_rel<Rel::le>},
    {"int_le_imp", int_rel_reif<Rel::le, imp>},
    {"int_le_reif", int_rel_reif<Rel::le, reif>},
    {"int_lin_eq", int_lin<Rel::eq>},
    {"int_lin_eq_imp", int_lin_reif<Rel::eq, imp>},
    {"int_lin_eq_reif", int_lin_reif<Rel::eq, reif>},
    {"int_lin_le", int_lin<Rel::le>},
    {"int_lin_le_imp", int_lin_reif<Rel::le, imp>},
    {"int_lin_le_reif", int_lin_reif<Rel::le, reif>},
    {"int_lin_ne", int_lin<Rel::ne>},
    {"int_lin_ne_imp", int_lin_reif<Rel::ne, imp>},
    {"int_lin_ne_reif", int_lin_reif<Rel::ne, reif>},
    {"int_lt", int_rel<Rel::lt>},
    {"int_lt_imp", int_rel_reif<Rel::lt, imp>},
    {"int_lt_reif", int_rel_reif<Rel::lt, reif>},
    {"int_max", int_min_max<true>},
    {"int_min", int_min_max<false>},
    {"int_mod", int_mod},
    {"int_ne", int_rel<Rel::ne>},
    {"int_ne_imp", int_rel_reif<Rel::ne, imp>},
    {"int_ne_reif", int_rel_reif<Rel::ne, reif>},
    {"int_plus", int_plus},
    {"int_pow", int_pow},
    {"int_times", int_times},
    {"propane_all_different_int", globals::all_different_int},
    {"propane_bin_packing_load", globals::bin_packing_load},
    {"propane_circuit", globals::circuit},
    {"propane_count_eq", globals::count_rel<Rel::eq>},
    {"propane_count_geq", globals::count_rel<Rel::le>},
    {"propane_count_gt", globals::count_rel<Rel::lt>},
    {"propane_count_leq", globals::count_rel<Rel::ge>},
    {"propane_count_lt", globals::count_rel<Rel::gt>},
    {"propane_count_neq", globals::count_rel<Rel::ne>},
    {"propane_cumulative", globals::cumulative},
    {"propane_cumulative_opt", globals::cumulative_opt},
    {"propane_cumulative_var", globals::cumulative_var},
    {"propane_disjunctive", globals::disjunctive},
    {"propane_disjunctive_opt", globals::disjunctive_opt},
    {"propane_disjunctive_strict", globals::disjunctive_strict},
    {"propane_disjunctive_strict_opt", globals::disjunctive_strict_opt},
    {"propane_global_cardinality", globals::global_cardinality},
    {"propane_inverse", globals::inverse},
    {"propane_lex_less_int", globals::lex_less_int},
    {"propane_lex_lesseq_int", globals::lex_lesseq_int},
    {"propane_nvalue", globals::nvalue},
    {"propane_regular", globals::regular},
    {"propane_table_int", globals::table_int},
    {"set_in", set_in},
    {"set_in_imp", set_in_reif<imp>},
    {"set_in_reif", set_in_reif<reif>},
};

constexpr bool sorted() {
    for (std::size_t k = 1; k < std::size(table_entries); ++k)
        if (!(table_entries[k - 1].name < table_entries[k].name)) return false;
    return true;
}
static_assert(sorted(), "table_entries must be sorted by name, without repeats");

} // namespace

void post_builtin(Builder& b, const ConstraintItem& c) {
    const auto* end = std::end(table_entries);
    const auto* it = std::lower_bound(std::begin(table_entries), end, std::string_view(c.name),
                                      [](const Entry& e, std::string_view n) { return e.name < n; });
    if (it == end || it->name != c.name)
        throw Unsupported("unknown constraint '" + c.name + "'", c.line, c.column);
    it->post(b, c);
}

std::vector<std::string_view> builtin_names() {
    std::vector<std::string_view> out;
    for (const Entry& e : table_entries) out.push_back(e.name);
    return out;
}

} // namespace propane::fzn
