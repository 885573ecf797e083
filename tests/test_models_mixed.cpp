// Whole random models mixing every constraint family against brute force:
// rel (two views, or a view and a constant), linear (any relation), abs,
// min, max, times and all_different, over IntVar and a*x + b views, on
// small domains with holes. Each model is searched once with a random
// strategy; the search must return exactly the solutions found by
// enumerating every assignment (none missing, none extra, none twice), obey
// branches == 2 * (failures + solutions - 1) over the complete tree when
// the root does not fail, and leave the store as it found it.
//
// A model: 2..7 variables with values inside -3..4; 1..6 constraints, each
// over random variables (now and then one variable twice: times(x, x, z),
// x < 2*x + 1); views plain when a constraint draws only plain ones, else
// std::vector<AffineView> or AffineView; holes cut before or after posting.
// Domains are redrawn until there are at most max_assignments assignments,
// so that enumeration stays cheap. Most constraints are drawn until a
// planted assignment satisfies them, the others at random, so that models
// with solutions and models without both come often.
//
// Seeds 1..3000 run by default; PROPANE_MODEL_SEEDS=<count> runs 1..count,
// PROPANE_MODEL_SEEDS=<first>..<last> just those (as test_models does).
// A failure prints its seed and the model.

#include <doctest/doctest.h>

#include "checker.hpp"

#include <propane/constraints/abs.hpp>
#include <propane/constraints/all_different.hpp>
#include <propane/constraints/linear.hpp>
#include <propane/constraints/min_max.hpp>
#include <propane/constraints/rel.hpp>
#include <propane/constraints/times.hpp>
#include <propane/engine/store.hpp>
#include <propane/engine/view.hpp>
#include <propane/search/search.hpp>
#include <propane/search/stats.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "instances.hpp"

namespace {

using checker::compare;
using propane::IntVar;
using propane::Rel;
using Store = propane::Store<propane::BitDomain<1>>;

constexpr int lowest = -3, highest = 4;
constexpr int max_vars = 7;
constexpr std::uint64_t max_assignments = 50000;

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

std::size_t u(int i) { return static_cast<std::size_t>(i); }

struct ViewSpec { // a * x_var + b
    int var, a, b;
    std::int64_t at(const int* x) const { return std::int64_t{a} * x[var] + b; }
};

enum class Type { rel, rel_const, linear, abs, min, max, times, all_different };
constexpr int types = 8;

struct Con {
    Type type = Type::rel;
    Rel r = Rel::eq;
    int c = 0;                     // rel_const's and linear's constant
    std::vector<int> k;            // linear's coefficients
    std::vector<ViewSpec> views;   // min/max: xs then y; times: x, y, z
    propane::Consistency strength = propane::bounds;

    bool plain() const {
        return std::all_of(views.begin(), views.end(), [](const ViewSpec& v) { return v.a == 1 && v.b == 0; });
    }
};

// The constraint's meaning, written from its definition.
bool satisfied(const Con& c, const int* x) {
    const auto& v = c.views;
    switch (c.type) {
    case Type::rel: return compare(c.r, v[0].at(x), v[1].at(x));
    case Type::rel_const: return compare(c.r, v[0].at(x), c.c);
    case Type::linear: {
        std::int64_t sum = 0;
        for (std::size_t i = 0; i < v.size(); ++i) sum += c.k[i] * v[i].at(x);
        return compare(c.r, sum, c.c);
    }
    case Type::abs: return v[1].at(x) == (v[0].at(x) < 0 ? -v[0].at(x) : v[0].at(x));
    case Type::min:
    case Type::max: {
        std::int64_t e = v[0].at(x);
        for (std::size_t i = 1; i + 1 < v.size(); ++i) e = c.type == Type::min ? std::min(e, v[i].at(x)) : std::max(e, v[i].at(x));
        return v.back().at(x) == e;
    }
    case Type::times: return v[0].at(x) * v[1].at(x) == v[2].at(x);
    case Type::all_different:
        for (std::size_t i = 0; i < v.size(); ++i)
            for (std::size_t j = 0; j < i; ++j)
                if (v[i].at(x) == v[j].at(x)) return false;
        return true;
    }
    return false;
}

struct Model {
    std::vector<int> lo, hi;
    std::vector<std::vector<int>> values;
    bool holes_after_posting = false;
    std::vector<Con> cons;
    std::vector<int> order;
    propane::Strategy strategy;

    int n() const { return static_cast<int>(values.size()); }
    std::uint64_t assignments() const {
        std::uint64_t p = 1;
        for (const auto& v : values) p *= v.size();
        return p;
    }
    std::string text() const;
};

std::string view_text(const ViewSpec& v) {
    std::ostringstream o;
    if (v.a != 1) o << v.a << '*';
    o << 'x' << v.var;
    if (v.b != 0) o << (v.b < 0 ? " - " : " + ") << (v.b < 0 ? -v.b : v.b);
    return o.str();
}

std::string Model::text() const {
    std::ostringstream o;
    for (int i = 0; i < n(); ++i) {
        o << "x" << i << " in {";
        for (std::size_t k = 0; k < values[u(i)].size(); ++k) o << (k ? "," : "") << values[u(i)][k];
        o << "} (created " << lo[u(i)] << ".." << hi[u(i)] << ")\n";
    }
    static constexpr std::array<const char*, types> names{"rel", "rel", "linear", "abs", "min", "max", "times",
                                                          "all_different"};
    for (const Con& c : cons) {
        o << names[static_cast<std::size_t>(c.type)] << "(";
        for (std::size_t i = 0; i < c.views.size(); ++i) {
            if (c.type == Type::linear) o << (i ? " + " : "") << c.k[i] << "*(" << view_text(c.views[i]) << ")";
            else o << (i ? ", " : "") << view_text(c.views[i]);
        }
        if (c.type == Type::rel || c.type == Type::rel_const || c.type == Type::linear)
            o << " " << propane::to_string(c.r);
        if (c.type == Type::rel_const || c.type == Type::linear) o << " " << c.c;
        if (c.type == Type::all_different) o << "; " << propane::to_string(c.strength);
        o << ")\n";
    }
    o << (holes_after_posting ? "holes cut after posting" : "holes cut before posting") << "; search order";
    for (int i : order) o << " x" << i;
    o << ", " << (strategy.var == propane::first_unbound ? "first_unbound" : "smallest_domain") << " / "
      << (strategy.val == propane::min_value ? "min_value" : "max_value") << "\n";
    return o.str();
}

ViewSpec random_view(Rng& rng, int var) {
    if (rng.chance(50)) return {var, 1, 0};
    constexpr std::array<int, 5> scales{-2, -1, 1, 2, 3};
    return {var, scales[u(rng.between(0, 4))], rng.between(-2, 2)};
}

// `count` variables, distinct but for a 15 % chance of a repeat each.
std::vector<int> pick_vars(Rng& rng, int n, int count) {
    std::vector<int> out;
    for (int k = 0; k < count; ++k) {
        int v = rng.between(0, n - 1);
        for (int tries = 0; tries < 8 && !rng.chance(15) && std::find(out.begin(), out.end(), v) != out.end(); ++tries)
            v = rng.between(0, n - 1);
        out.push_back(v);
    }
    return out;
}

constexpr std::array<Rel, 6> relations{Rel::eq, Rel::ne, Rel::lt, Rel::le, Rel::gt, Rel::ge};

// A constraint of the given type over random views of the model's n
// variables.
Con random_constraint(Rng& rng, const Model& m, int n, Type type) {
    Con c;
    c.type = type;
    c.r = relations[u(rng.between(0, 5))];
    int arity = 2;
    switch (c.type) {
    case Type::rel: arity = 2; break;
    case Type::rel_const: arity = 1; break;
    case Type::linear: arity = rng.between(1, 4); break;
    case Type::abs: arity = 2; break;
    case Type::min:
    case Type::max: arity = rng.between(2, 4); break;
    case Type::times: arity = 3; break;
    case Type::all_different: arity = rng.between(2, n); break;
    }
    for (const int v : pick_vars(rng, n, arity)) c.views.push_back(random_view(rng, v));
    if (c.type == Type::linear) {
        // The constant is the sum at some assignment, give or take one,
        // so that the equation has solutions about as often as not.
        std::int64_t sum = 0;
        for (const ViewSpec& v : c.views) {
            c.k.push_back(rng.chance(10) ? 0 : rng.between(1, 3) * (rng.chance(50) ? 1 : -1));
            const auto& vals = m.values[u(v.var)];
            sum += c.k.back() * (std::int64_t{v.a} * vals[u(rng.between(0, static_cast<int>(vals.size()) - 1))] + v.b);
        }
        c.c = static_cast<int>(sum) + rng.between(-1, 1);
    }
    if (c.type == Type::rel_const) c.c = rng.between(-5, 6);
    constexpr std::array<propane::Consistency, 3> strengths{propane::value, propane::bounds, propane::domain};
    c.strength = strengths[u(rng.between(0, 2))];
    // Two views that are the same function in one all_different make
    // it unsatisfiable outright: the later one is shifted by one.
    if (c.type == Type::all_different)
        for (std::size_t i = 0; i < c.views.size(); ++i)
            for (std::size_t j = 0; j < i; ++j)
                if (c.views[i].var == c.views[j].var && c.views[i].a == c.views[j].a && c.views[i].b == c.views[j].b)
                    c.views[i].b += 1;
    return c;
}

Model random_model(std::uint64_t seed) {
    Rng rng(seed);
    Model m;
    const int n = rng.between(2, max_vars);
    m.lo.resize(u(n));
    m.hi.resize(u(n));
    m.values.resize(u(n));
    for (bool first = true; first || m.assignments() > max_assignments; first = false)
        for (int i = 0; i < n; ++i) {
            m.lo[u(i)] = rng.between(lowest, 1);
            m.hi[u(i)] = rng.between(m.lo[u(i)], highest);
            const int density = rng.between(50, 100);
            m.values[u(i)].clear();
            for (int v = m.lo[u(i)]; v <= m.hi[u(i)]; ++v)
                if (rng.chance(density)) m.values[u(i)].push_back(v);
            if (m.values[u(i)].empty()) m.values[u(i)].push_back(rng.between(m.lo[u(i)], m.hi[u(i)]));
        }
    m.holes_after_posting = rng.chance(30);

    // A planted assignment: most constraints are redrawn until it
    // satisfies them, so that most models have solutions, and the search
    // more to find than a root failure.
    std::array<int, max_vars> planted{};
    for (int i = 0; i < n; ++i)
        planted[u(i)] = m.values[u(i)][u(rng.between(0, static_cast<int>(m.values[u(i)].size()) - 1))];
    const int ncons = rng.between(1, 6);
    for (int k = 0; k < ncons; ++k) {
        const auto type = static_cast<Type>(rng.between(0, types - 1));
        const int tries = rng.chance(80) ? 30 : 1;
        for (int attempt = 0; attempt < tries; ++attempt) {
            Con c = random_constraint(rng, m, n, type);
            if (attempt + 1 < tries && !satisfied(c, planted.data())) continue;
            m.cons.push_back(std::move(c));
            break;
        }
    }
    for (int i = 0; i < n; ++i) m.order.push_back(i);
    for (int i = n - 1; i > 0; --i) std::swap(m.order[u(i)], m.order[u(rng.between(0, i))]);
    m.strategy = {.var = rng.chance(50) ? propane::first_unbound : propane::smallest_domain,
                  .val = rng.chance(50) ? propane::min_value : propane::max_value};
    return m;
}

// A solution as one integer, four bits per variable, the first variable
// the most significant: codes sort as the solutions do.
using Code = std::uint32_t;
static_assert(highest - lowest < 16 && 4 * max_vars <= 32);

Code pack(const int* x, int n) {
    Code c = 0;
    for (int i = 0; i < n; ++i) c = c << 4 | static_cast<Code>(x[i] - lowest);
    return c;
}

std::string unpack(Code c, int n) {
    std::ostringstream o;
    o << '(';
    for (int i = n - 1; i >= 0; --i) o << (i < n - 1 ? "," : "") << static_cast<int>(c >> (4 * i) & 15) + lowest;
    return o.str() + ")";
}

std::vector<Code> brute_force(const Model& m) {
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

// ---- posting -------------------------------------------------------------------

template <class V>
V make(const std::vector<IntVar>& xs, const ViewSpec& v) {
    if constexpr (std::is_same_v<V, IntVar>)
        return xs[u(v.var)];
    else
        return v.a * xs[u(v.var)] + v.b;
}

template <class V>
std::vector<V> make_all(const std::vector<IntVar>& xs, const std::vector<ViewSpec>& vs, std::size_t count) {
    std::vector<V> out;
    for (std::size_t i = 0; i < count; ++i) out.push_back(make<V>(xs, vs[i]));
    return out;
}

template <class V>
void post(Store& s, const std::vector<IntVar>& xs, const Con& c) {
    const auto& v = c.views;
    switch (c.type) {
    case Type::rel: s.post(propane::rel(make<V>(xs, v[0]), c.r, make<V>(xs, v[1]))); break;
    case Type::rel_const: s.post(propane::rel(make<V>(xs, v[0]), c.r, c.c)); break;
    case Type::linear: s.post(propane::linear(c.k, make_all<V>(xs, v, v.size()), c.r, c.c)); break;
    case Type::abs: s.post(propane::abs(make<V>(xs, v[0]), make<V>(xs, v[1]))); break;
    case Type::min: s.post(propane::min(make_all<V>(xs, v, v.size() - 1), make<V>(xs, v.back()))); break;
    case Type::max: s.post(propane::max(make_all<V>(xs, v, v.size() - 1), make<V>(xs, v.back()))); break;
    case Type::times: s.post(propane::times(make<V>(xs, v[0]), make<V>(xs, v[1]), make<V>(xs, v[2]))); break;
    case Type::all_different: s.post(propane::all_different(make_all<V>(xs, v, v.size()), c.strength)); break;
    }
}

std::vector<IntVar> build(Store& s, const Model& m) {
    std::vector<IntVar> xs;
    for (int i = 0; i < m.n(); ++i) xs.push_back(s.int_var(m.lo[u(i)], m.hi[u(i)]));
    auto cut_holes = [&] {
        for (int i = 0; i < m.n(); ++i)
            for (int v = m.lo[u(i)]; v <= m.hi[u(i)]; ++v)
                if (!std::binary_search(m.values[u(i)].begin(), m.values[u(i)].end(), v))
                    (void)s.remove(xs[u(i)], v); // a failure is remembered by the store
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

std::vector<std::set<int>> domains(const Store& s) {
    std::vector<std::set<int>> d;
    for (int i = 0; i < s.num_vars(); ++i) {
        std::set<int> vals;
        s.domain(i).for_each([&](int v) { vals.insert(v); });
        d.push_back(vals);
    }
    return d;
}

std::string codes_text(const std::vector<Code>& cs, int n) {
    std::ostringstream o;
    for (std::size_t k = 0; k < cs.size() && k < 5; ++k) o << ' ' << unpack(cs[k], n);
    if (cs.size() > 5) o << " ... " << cs.size() << " in all";
    return o.str();
}

struct Tally {
    std::uint64_t models = 0, solutions = 0, infeasible = 0, root_failures = 0, branches = 0, failures = 0;
    std::array<std::uint64_t, types> constraints{};
};

// Searches the model once; what went wrong, or "" if nothing did.
std::string search_model(const Model& m, const std::vector<Code>& want, Tally& tally) {
    Store s;
    const std::vector<IntVar> xs = build(s, m);
    std::vector<IntVar> vars;
    for (int i : m.order) vars.push_back(xs[u(i)]);
    const auto before = domains(s);
    Store probe = s;
    const bool root_fails = !probe.propagate();

    std::vector<Code> got;
    const propane::SearchStats st = propane::solve(s, vars, m.strategy, [&](const auto& sol) {
        std::array<int, max_vars> x{};
        for (std::size_t k = 0; k < sol.size(); ++k) x[u(m.order[k])] = sol[k];
        got.push_back(pack(x.data(), m.n()));
        return propane::next;
    });

    std::ostringstream why;
    std::sort(got.begin(), got.end());
    std::vector<Code> twice, missing, extra;
    for (auto it = got.begin(); (it = std::adjacent_find(it, got.end())) != got.end(); ++it) twice.push_back(*it);
    got.erase(std::unique(got.begin(), got.end()), got.end());
    std::set_difference(want.begin(), want.end(), got.begin(), got.end(), std::back_inserter(missing));
    std::set_difference(got.begin(), got.end(), want.begin(), want.end(), std::back_inserter(extra));
    if (!twice.empty()) why << "solutions found twice:" << codes_text(twice, m.n()) << "\n";
    if (!missing.empty()) why << "solutions missing:" << codes_text(missing, m.n()) << "\n";
    if (!extra.empty()) why << "not solutions, yet reported:" << codes_text(extra, m.n()) << "\n";
    if (st.solutions != got.size() + twice.size())
        why << "stats.solutions " << st.solutions << ", visitor saw " << got.size() + twice.size() << "\n";
    if (!st.complete()) why << "stats.complete() is false after an exhaustive search\n";
    if (root_fails && !want.empty()) why << "the root propagation fails, yet the model has solutions\n";
    if (!root_fails && st.branches != 2 * (st.failures + st.solutions - 1))
        why << "branches " << st.branches << " != 2 * (failures " << st.failures << " + solutions " << st.solutions
            << " - 1)\n";
    if (s.level() != 0) why << "the store is left at level " << s.level() << "\n";
    if (domains(s) != before) why << "the store's domains are not restored after the search\n";

    ++tally.models;
    tally.solutions += want.size();
    tally.infeasible += want.empty() ? 1 : 0;
    tally.root_failures += root_fails ? 1 : 0;
    tally.branches += st.branches;
    tally.failures += st.failures;
    for (const Con& c : m.cons) ++tally.constraints[static_cast<std::size_t>(c.type)];
    return why.str();
}

// PROPANE_MODEL_SEEDS: unset (1..3000), <count> or <first>..<last>; a
// malformed value is an error, so a long run cannot quietly become short.
bool seed_range(std::uint64_t& first, std::uint64_t& last, std::string& error) {
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

} // namespace

TEST_CASE("random models mixing rel, linear, abs, min, max, times and all_different: exactly the brute-force solutions") {
    std::uint64_t first = 0, last = 0;
    std::string error;
    REQUIRE_MESSAGE(seed_range(first, last, error), error);
    Tally tally;
    std::uint64_t bad = 0;
    for (std::uint64_t seed = first; seed <= last; ++seed) {
        const Model m = random_model(seed);
        const std::vector<Code> want = brute_force(m);
        const std::string why = search_model(m, want, tally);
        if (why.empty()) continue;
        if (++bad <= 5)
            FAIL_CHECK("seed " << seed << " (rerun alone: PROPANE_MODEL_SEEDS=" << seed << ".." << seed << "), "
                               << want.size() << " solutions by brute force:\n"
                               << why << "the model:\n"
                               << m.text());
    }
    CHECK_MESSAGE(bad == 0, bad << " of " << (last - first + 1) << " seeds failed (the first five at most are shown)");
    std::ostringstream per;
    static constexpr std::array<const char*, types> names{"rel", "rel with a constant", "linear", "abs", "min",
                                                          "max", "times", "all_different"};
    for (std::size_t k = 0; k < u(types); ++k) per << (k ? ", " : "") << tally.constraints[k] << " " << names[k];
    MESSAGE("seeds " << first << ".." << last << ": " << tally.models << " models (" << per.str() << "), "
                     << tally.solutions << " solutions checked; " << tally.infeasible << " models without solutions, "
                     << tally.root_failures << " of them failing at the root; " << tally.failures << " failures and "
                     << tally.branches << " branches in all");
}
