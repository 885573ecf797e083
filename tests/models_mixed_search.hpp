#ifndef PROPANE_TESTS_MODELS_MIXED_SEARCH_HPP
#define PROPANE_TESTS_MODELS_MIXED_SEARCH_HPP

// Posting and searching the random models of models_mixed.hpp, and the
// loop over seeds. A constraint whose views are all plain is posted over
// IntVar, any other over AffineView (literals and controls included).
//
// Each model is searched completely twice on one store, with two
// strategies. Each search must return exactly the solutions found by
// enumeration (none missing, none extra, none twice), every solution it
// reports must satisfy every constraint (checked one by one, so that a
// report names the broken one), branches == 2 * (failures + solutions - 1)
// over the complete tree when the root does not fail, and the store must be
// left at level 0 with the domains it had. Between the two, a search that
// its visitor stops halfway through the solutions must leave the store so
// too. The later searches run on what the earlier ones left behind, so a
// propagator whose reversible state (watches, live tuples, counters)
// backtracking did not restore shows there.
//
// Each model is then built again on Store<BitDomain<dynamic>>, twice: each
// variable drawn a bitset or an interval (Representation), then every
// variable in the other form. The two forms answer every query and take
// every update alike, so propagation must be identical, not merely sound:
// the same domains after the root propagation, and each search the same
// solutions in the same order with the same failures, branches and
// propagator runs as on BitDomain<1>. A difference there is a form that
// prunes differently, even where both still find the right solutions.

#include <doctest/doctest.h>

#include "models_mixed.hpp"

#include <propane/constraints/abs.hpp>
#include <propane/constraints/all_different.hpp>
#include <propane/constraints/bin_packing.hpp>
#include <propane/constraints/bool/clause.hpp>
#include <propane/constraints/bool/linear_reif.hpp>
#include <propane/constraints/bool/rel_reif.hpp>
#include <propane/constraints/circuit.hpp>
#include <propane/constraints/count.hpp>
#include <propane/constraints/cumulative.hpp>
#include <propane/constraints/div_mod.hpp>
#include <propane/constraints/element.hpp>
#include <propane/constraints/global_cardinality.hpp>
#include <propane/constraints/increasing.hpp>
#include <propane/constraints/nvalue.hpp>
#include <propane/constraints/inverse.hpp>
#include <propane/constraints/lex.hpp>
#include <propane/constraints/linear.hpp>
#include <propane/constraints/min_max.hpp>
#include <propane/constraints/rel.hpp>
#include <propane/constraints/table.hpp>
#include <propane/constraints/times.hpp>
#include <propane/constraints/unary.hpp>
#include <propane/engine/store.hpp>
#include <propane/engine/view.hpp>
#include <propane/search/search.hpp>
#include <propane/search/stats.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "instances.hpp"

namespace models {

using propane::IntVar;
using Store = propane::Store<propane::BitDomain<1>>;
using DynamicStore = propane::Store<propane::BitDomain<propane::dynamic>>;
using propane::Representation;
// The form of each variable, or none: the store's own default.
using Forms = std::vector<Representation>;

template <class V>
V make(const std::vector<IntVar>& xs, const ViewSpec& w) {
    if constexpr (std::is_same_v<V, IntVar>)
        return xs[u(w.var)];
    else
        return w.a * xs[u(w.var)] + w.b;
}

template <class V>
std::vector<V> make_all(const std::vector<IntVar>& xs, const std::vector<ViewSpec>& ws, std::size_t from,
                        std::size_t to) {
    std::vector<V> out;
    for (std::size_t i = from; i < to; ++i) out.push_back(make<V>(xs, ws[i]));
    return out;
}

template <class V, class S>
void post(S& s, const std::vector<IntVar>& xs, const Con& c) {
    const auto& w = c.views;
    const std::size_t n = w.size();
    auto view = [&](std::size_t i) { return make<V>(xs, w[i]); };
    auto all = [&](std::size_t from, std::size_t to) { return make_all<V>(xs, w, from, to); };
    const auto re = c.mode == ReifyMode::iff ? propane::iff(make<V>(xs, c.control)) : propane::implies(make<V>(xs, c.control));
    switch (c.type) {
    case Type::rel: s.post(propane::rel(view(0), c.r, view(1))); break;
    case Type::rel_const: s.post(propane::rel(view(0), c.r, c.c)); break;
    case Type::linear: s.post(propane::linear(c.k, all(0, n), c.r, c.c)); break;
    case Type::abs: s.post(propane::abs(view(0), view(1))); break;
    case Type::min: s.post(propane::min(all(0, n - 1), view(n - 1))); break;
    case Type::max: s.post(propane::max(all(0, n - 1), view(n - 1))); break;
    case Type::times: s.post(propane::times(view(0), view(1), view(2))); break;
    case Type::all_different: s.post(propane::all_different(all(0, n), c.strength)); break;
    case Type::clause: s.post(propane::clause(all(0, u(c.npos)), all(u(c.npos), n))); break;
    case Type::clause_reif: s.post(propane::clause(all(0, u(c.npos)), all(u(c.npos), n), re)); break;
    case Type::rel_reif: s.post(propane::rel(view(0), c.r, view(1), re)); break;
    case Type::rel_const_reif: s.post(propane::rel(view(0), c.r, c.c, re)); break;
    case Type::element_const: s.post(propane::element(c.k, view(0), view(1))); break;
    case Type::element_var: s.post(propane::element(all(0, n - 2), view(n - 2), view(n - 1))); break;
    case Type::count_const: s.post(propane::count(all(0, n), c.v, c.r, c.c)); break;
    case Type::count_view: s.post(propane::count(all(0, n - 1), c.v, c.r, view(n - 1))); break;
    case Type::div: s.post(propane::div(view(0), view(1), view(2))); break;
    case Type::mod: s.post(propane::mod(view(0), view(1), view(2))); break;
    case Type::table: s.post(propane::table(all(0, n), c.tuples)); break;
    case Type::table_forbidden: s.post(propane::table(all(0, n), c.tuples, propane::TableMode::forbidden)); break;
    case Type::linear_reif: s.post(propane::linear(c.k, all(0, n), c.r, c.c, re)); break;
    case Type::unary: s.post(propane::unary(all(0, n), c.k)); break;
    case Type::cumulative: s.post(propane::cumulative(all(0, n), c.k, c.tuples[0], c.c)); break;
    case Type::circuit: s.post(propane::circuit(all(0, n))); break;
    case Type::inverse: s.post(propane::inverse(all(0, n / 2), all(n / 2, n))); break;
    case Type::regular: s.post(propane::regular(all(0, n), c.dfa)); break;
    case Type::global_cardinality: s.post(propane::global_cardinality(all(0, u(c.npos)), c.k, all(u(c.npos), n))); break;
    case Type::lex:
        if (c.r == Rel::lt) s.post(propane::lex_less(all(0, n / 2), all(n / 2, n)));
        else s.post(propane::lex_lesseq(all(0, n / 2), all(n / 2, n)));
        break;
    case Type::bin_packing: s.post(propane::bin_packing(all(0, u(c.npos)), all(u(c.npos), n), c.k)); break;
    case Type::increasing:
        if (c.r == Rel::lt) s.post(propane::strictly_increasing(all(0, n)));
        else s.post(propane::increasing(all(0, n)));
        break;
    case Type::nvalue: s.post(propane::nvalue(view(n - 1), all(0, n - 1))); break;
    case Type::unary_optional: s.post(propane::unary(all(0, n / 2), c.k, all(n / 2, n))); break;
    case Type::cumulative_optional:
        s.post(propane::cumulative(all(0, n / 2), c.k, c.tuples[0], c.c, all(n / 2, n)));
        break;
    case Type::cumulative_var:
        s.post(propane::cumulative(all(0, n / 3), all(n / 3, 2 * n / 3), all(2 * n / 3, n - 1), view(n - 1)));
        break;
    }
}

template <class S>
std::vector<IntVar> build(S& s, const Model& m, const Forms& forms) {
    std::vector<IntVar> xs;
    for (int i = 0; i < m.n(); ++i) {
        if (forms.empty())
            xs.push_back(m.boolean(i) ? s.bool_var() : s.int_var(m.lo[u(i)], m.hi[u(i)]));
        else
            xs.push_back(m.boolean(i) ? s.int_var(0, 1, forms[u(i)]) : s.int_var(m.lo[u(i)], m.hi[u(i)], forms[u(i)]));
    }
    auto cut_holes = [&] {
        for (int i = 0; i < m.n(); ++i)
            for (int t = m.lo[u(i)]; t <= m.hi[u(i)]; ++t)
                if (!std::binary_search(m.values[u(i)].begin(), m.values[u(i)].end(), t))
                    (void)s.remove(xs[u(i)], t); // a failure is remembered by the store
    };
    if (!m.holes_after_posting) cut_holes();
    for (const Con& c : m.cons) {
        if (c.plain())
            post<IntVar>(s, xs, c);
        else
            post<propane::AffineView>(s, xs, c);
    }
    if (m.holes_after_posting) cut_holes();
    return xs;
}

// Each variable's values, in increasing order. Vectors, not sets: taken
// five times per store, a node per value was most of the allocations
// under AddressSanitizer.
using Domains = std::vector<std::vector<int>>;

template <class S>
Domains domains(const S& s) {
    Domains d;
    for (int i = 0; i < s.num_vars(); ++i) {
        std::vector<int>& vals = d.emplace_back();
        s.domain(i).for_each([&](int t) { vals.push_back(t); });
    }
    return d;
}

inline std::string solution_text(Code code, int n) {
    const std::vector<int> x = unpack(code, n);
    std::ostringstream o;
    o << '(';
    for (std::size_t i = 0; i < x.size(); ++i) o << (i ? "," : "") << x[i];
    return o.str() + ")";
}

inline std::string codes_text(const std::vector<Code>& cs, int n) {
    std::ostringstream o;
    for (std::size_t k = 0; k < cs.size() && k < 5; ++k) o << ' ' << solution_text(cs[k], n);
    if (cs.size() > 5) o << " ... " << cs.size() << " in all";
    return o.str();
}

struct Tally {
    std::uint64_t models = 0, solutions = 0, infeasible = 0, root_failures = 0, branches = 0, failures = 0;
    std::uint64_t form_runs = 0, intervals = 0; // the runs on BitDomain<dynamic>, and their interval variables
    std::array<std::uint64_t, types> constraints{};
};

// What one search did: its solutions in the order it found them, and its
// counts. Searches that propagate alike have equal traces.
struct Trace {
    std::vector<Code> found;
    std::uint64_t failures = 0, branches = 0, propagations = 0;
    bool operator==(const Trace&) const = default;
};

// What the searches of one store did, beside what went wrong.
struct Run {
    std::string why;
    bool root_fails = false;
    Domains root; // the domains after the root propagation
    std::vector<Trace> traces;       // first, stopped (when the model has solutions), second
};

// One complete search of s with the given strategy, checked against the
// enumeration `want` when `enumerated` (a run whose trace is compared with
// one so checked need not be); what went wrong goes to `why`.
template <class S>
Trace search_once(S& s, const Model& m, const std::vector<IntVar>& vars, const propane::Strategy& strategy,
                  const std::vector<Code>& want, bool enumerated, bool root_fails,
                  const Domains& before, const char* which, std::ostringstream& why, Tally& tally) {
    std::vector<Code> got;
    std::string broken;
    const propane::SearchStats st = propane::solve(s, vars, strategy, [&](const auto& sol) {
        std::array<int, max_vars> x{};
        for (std::size_t k = 0; k < sol.size(); ++k) x[u(m.order[k])] = sol[k];
        got.push_back(pack(x.data(), m.n()));
        if (enumerated)
            for (const Con& c : m.cons)
                if (broken.empty() && !satisfied(c, x.data()))
                    broken = solution_text(got.back(), m.n()) + " breaks " + m.con_text(c);
        return propane::next;
    });

    Trace trace{got, st.failures, st.branches, st.propagations};
    std::ostringstream w;
    if (enumerated) {
        if (!broken.empty()) w << "a reported solution " << broken << "\n";
        std::sort(got.begin(), got.end());
        std::vector<Code> twice, missing, extra;
        for (auto it = got.begin(); (it = std::adjacent_find(it, got.end())) != got.end(); ++it) twice.push_back(*it);
        got.erase(std::unique(got.begin(), got.end()), got.end());
        std::set_difference(want.begin(), want.end(), got.begin(), got.end(), std::back_inserter(missing));
        std::set_difference(got.begin(), got.end(), want.begin(), want.end(), std::back_inserter(extra));
        if (!twice.empty()) w << "solutions found twice:" << codes_text(twice, m.n()) << "\n";
        if (!missing.empty()) w << "solutions missing:" << codes_text(missing, m.n()) << "\n";
        if (!extra.empty()) w << "not solutions, yet reported:" << codes_text(extra, m.n()) << "\n";
        if (st.solutions != got.size() + twice.size())
            w << "stats.solutions " << st.solutions << ", visitor saw " << got.size() + twice.size() << "\n";
        if (root_fails && !want.empty()) w << "the root propagation fails, yet the model has solutions\n";
    }
    if (!st.complete()) w << "stats.complete() is false after an exhaustive search\n";
    if (!root_fails && st.branches != 2 * (st.failures + st.solutions - 1))
        w << "branches " << st.branches << " != 2 * (failures " << st.failures << " + solutions " << st.solutions
          << " - 1)\n";
    if (s.level() != 0) w << "the store is left at level " << s.level() << "\n";
    if (domains(s) != before) w << "the store's domains are not restored after the search\n";
    if (!w.str().empty()) why << which << " search:\n" << w.str();
    tally.branches += st.branches;
    tally.failures += st.failures;
    return trace;
}

// A search of s told to stop by its visitor at the solution `stop_at`
// (mid-tree): it must see solutions of the model only, stop there, and
// leave the store at level 0 with the domains it had.
template <class S>
Trace search_stopped(S& s, const Model& m, const std::vector<IntVar>& vars, std::size_t stop_at,
                     const std::vector<Code>& want, const Domains& before, std::ostringstream& why) {
    std::vector<Code> got;
    const propane::SearchStats st = propane::solve(s, vars, m.second, [&](const auto& sol) {
        std::array<int, max_vars> x{};
        for (std::size_t k = 0; k < sol.size(); ++k) x[u(m.order[k])] = sol[k];
        got.push_back(pack(x.data(), m.n()));
        return got.size() == stop_at ? propane::stop : propane::next;
    });
    std::ostringstream w;
    for (const Code c : got)
        if (!std::binary_search(want.begin(), want.end(), c)) {
            w << "not a solution, yet reported: " << solution_text(c, m.n()) << "\n";
            break;
        }
    if (got.size() != stop_at || st.outcome != propane::Outcome::stopped)
        w << "told to stop at solution " << stop_at << ", it saw " << got.size() << " and "
          << (st.outcome == propane::Outcome::stopped ? "stopped" : "did not report stopping") << "\n";
    if (s.level() != 0) w << "the store is left at level " << s.level() << "\n";
    if (domains(s) != before) w << "the store's domains are not restored after the search\n";
    if (!w.str().empty()) why << "stopped search:\n" << w.str();
    return {got, st.failures, st.branches, st.propagations};
}

// Searches the model on one store of type S, its variables in the given
// forms (none: the reference run, checked against enumeration): completely,
// then stopped halfway through its solutions, then completely with another
// strategy.
template <class S>
Run search_model(const Model& m, const std::vector<Code>& want, const Forms& forms, Tally& tally) {
    S s;
    const std::vector<IntVar> xs = build(s, m, forms);
    std::vector<IntVar> vars;
    for (int i : m.order) vars.push_back(xs[u(i)]);
    const auto before = domains(s);
    S probe = s;
    Run run;
    run.root_fails = !probe.propagate();
    if (!run.root_fails) run.root = domains(probe);

    std::ostringstream why;
    // A form asked for and not kept would leave the other form untested.
    for (std::size_t i = 0; i < forms.size(); ++i)
        if (s.domain(static_cast<int>(i)).representation() != forms[i]) {
            why << m.name(static_cast<int>(i)) << " was asked for as "
                << (forms[i] == Representation::interval ? "an interval" : "a bitset") << " and is not one\n";
            break;
        }
    const bool enumerated = forms.empty();
    run.traces.push_back(
        search_once(s, m, vars, m.strategy, want, enumerated, run.root_fails, before, "first", why, tally));
    if (!want.empty()) run.traces.push_back(search_stopped(s, m, vars, (want.size() + 1) / 2, want, before, why));
    run.traces.push_back(
        search_once(s, m, vars, m.second, want, enumerated, run.root_fails, before, "second", why, tally));
    run.why = why.str();
    return run;
}

inline std::string forms_text(const Model& m, const Forms& forms) {
    std::string t;
    for (int i = 0; i < m.n(); ++i)
        t += (i ? ", " : "") + m.name(i) + (forms[u(i)] == Representation::interval ? " interval" : " bitset");
    return t;
}

inline std::string trace_text(const Trace& t, int n) {
    std::ostringstream o;
    o << t.found.size() << " solutions (" << codes_text(t.found, n) << " ), " << t.failures << " failures, "
      << t.branches << " branches, " << t.propagations << " propagator runs";
    return o.str();
}

// How a run on BitDomain<dynamic> differs from the run on BitDomain<1>
// (`ref`), or "" when it propagated alike.
inline std::string compare_runs(const Model& m, const Run& ref, const Run& run) {
    std::ostringstream w;
    if (run.root_fails != ref.root_fails)
        w << "the root propagation " << (run.root_fails ? "fails" : "does not fail") << ", on BitDomain<1> it "
          << (ref.root_fails ? "does" : "does not") << "\n";
    else if (run.root != ref.root)
        for (std::size_t i = 0; i < ref.root.size(); ++i)
            if (run.root[i] != ref.root[i]) {
                w << "after the root propagation " << m.name(static_cast<int>(i)) << " is " << numbers(run.root[i])
                  << ", on BitDomain<1> " << numbers(ref.root[i]) << "\n";
            }
    static constexpr std::array<const char*, 3> with_solutions{"first", "stopped", "second"};
    static constexpr std::array<const char*, 2> without{"first", "second"};
    for (std::size_t k = 0; k < ref.traces.size() && k < run.traces.size(); ++k)
        if (run.traces[k] != ref.traces[k])
            w << (ref.traces.size() == 3 ? with_solutions[k] : without[k])
              << " search: " << trace_text(run.traces[k], m.n()) << "; on BitDomain<1> "
              << trace_text(ref.traces[k], m.n()) << "\n";
    return w.str();
}

// The forms of one run on BitDomain<dynamic>: each variable a bitset or an
// interval with even odds, from a generator of its own, so that the model
// drawn from the seed stays the one it always was.
inline Forms random_forms(std::uint64_t seed, const Model& m) {
    Rng rng(seed ^ 0x5eedf0f3a11dULL);
    Forms forms;
    for (int i = 0; i < m.n(); ++i)
        forms.push_back(rng.chance(50) ? Representation::interval : Representation::bitset);
    return forms;
}

inline Forms flipped(Forms forms) {
    for (Representation& r : forms)
        r = r == Representation::interval ? Representation::bitset : Representation::interval;
    return forms;
}

// The model searched on BitDomain<1>, then on BitDomain<dynamic> in drawn
// forms and in the opposite ones; what went wrong, or "" if nothing did.
inline std::string search_model(std::uint64_t seed, const Model& m, const std::vector<Code>& want, Tally& tally) {
    const Run ref = search_model<Store>(m, want, {}, tally);
    std::string why = ref.why;
    const Forms drawn = random_forms(seed, m);
    for (const Forms& forms : {drawn, flipped(drawn)}) {
        Tally ignored; // the counts are BitDomain<1>'s, the same when nothing is wrong
        const Run run = search_model<DynamicStore>(m, want, forms, ignored);
        std::string w = run.why + compare_runs(m, ref, run);
        if (!w.empty()) why += "on BitDomain<dynamic> with " + forms_text(m, forms) + ":\n" + w;
        ++tally.form_runs;
        tally.intervals += static_cast<std::uint64_t>(std::count(forms.begin(), forms.end(), Representation::interval));
    }

    ++tally.models;
    tally.solutions += want.size();
    tally.infeasible += want.empty() ? 1 : 0;
    tally.root_failures += ref.root_fails ? 1 : 0;
    for (const Con& c : m.cons) ++tally.constraints[static_cast<std::size_t>(c.type)];
    return why;
}

// PROPANE_MODEL_SEEDS: unset (1..3000), <count> or <first>..<last>; a
// malformed value is an error, so a long run cannot quietly become short.
inline bool seed_range(std::uint64_t& first, std::uint64_t& last, std::string& error) {
    first = 1;
    last = 3000;
    const char* env = std::getenv("PROPANE_MODEL_SEEDS");
    if (env == nullptr) return true;
    const std::string text = env;
    auto number = [](const std::string& t, std::uint64_t& out) {
        if (t.empty() || t.size() > 18 || !std::all_of(t.begin(), t.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
            return false;
        out = std::stoull(t);
        return true;
    };
    const auto dots = text.find("..");
    const bool ok = dots == std::string::npos ? number(text, last) && last >= 1
                                              : number(text.substr(0, dots), first) &&
                                                    number(text.substr(dots + 2), last) && first <= last;
    if (!ok) error = "PROPANE_MODEL_SEEDS='" + text + "': want a count (say 100000) or a range first..last (say 17..17)";
    return ok;
}

// The body of a test case: every seed's model, drawn with or without the
// families of part 2, searched and compared; a failure prints its seed and
// the model, the first five at most.
inline void run_seeds(Part part) {
    std::uint64_t first = 0, last = 0;
    std::string error;
    REQUIRE_MESSAGE(seed_range(first, last, error), error);
    Tally tally;
    std::uint64_t bad = 0;
    for (std::uint64_t seed = first; seed <= last; ++seed) {
        const Model m = random_model(seed, part);
        const std::vector<Code> want = brute_force(m);
        const std::string why = search_model(seed, m, want, tally);
        if (why.empty()) continue;
        if (++bad <= 5)
            FAIL_CHECK("seed " << seed << " (rerun alone: PROPANE_MODEL_SEEDS=" << seed << ".." << seed << "), "
                               << want.size() << " solutions by enumeration:\n"
                               << why << "the model:\n"
                               << m.text());
    }
    CHECK_MESSAGE(bad == 0, bad << " of " << (last - first + 1) << " seeds failed (the first five at most are shown)");
    std::ostringstream per;
    const int shown = part == Part::globals ? types : part == Part::logic ? part2_types : part1_types;
    for (std::size_t k = 0; k < u(shown); ++k)
        per << (k ? ", " : "") << tally.constraints[k] << " " << type_names[k];
    MESSAGE("seeds " << first << ".." << last << ": " << tally.models << " models (" << per.str() << "), "
                     << tally.solutions << " solutions checked; " << tally.infeasible << " models without solutions, "
                     << tally.root_failures << " of them failing at the root; " << tally.failures << " failures and "
                     << tally.branches << " branches in all (two searches each); each again on BitDomain<dynamic>, "
                     << tally.form_runs << " runs with " << tally.intervals << " interval variables in all");
}

} // namespace models

#endif
