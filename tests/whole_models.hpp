#ifndef PROPANE_TESTS_WHOLE_MODELS_HPP
#define PROPANE_TESTS_WHOLE_MODELS_HPP

// Small random models searched over some of their variables only, for the
// promise that a solution is a whole assignment (Strategy::assign_all):
// every solution a search reports fixes every variable and satisfies every
// constraint, and each one comes once. Brute force gives the whole
// solutions; test_search, test_optimize and test_parallel compare each
// form of the search with it.
//
// Variables 0..n-1 over random subsets of 0..3 under all_different and
// linear constraints on random subsets of them, and, when `defined` is
// asked for, one more variable y = sum of a random subset of them (every
// value it can take in its domain), which the views then fix by
// propagation: the model where assign_all = false is safe.

#include <propane/constraints/all_different.hpp>
#include <propane/constraints/linear.hpp>
#include <propane/engine/store.hpp>
#include <propane/engine/view.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace whole_models {

using Assignment = std::vector<int>; // every variable's value, by index

struct Con {
    bool linear = false;            // else all_different
    std::vector<int> vars;
    std::vector<int> coeffs;        // linear only
    propane::Rel rel = propane::Rel::le;
    int rhs = 0;
};

struct Model {
    int n = 0;                        // variables, y (if any) last
    std::vector<std::uint32_t> dom;   // bit v: value v present
    std::vector<Con> cons;
    std::vector<int> views;           // the variables searched, in order; the others are outside

    std::string text() const {
        std::ostringstream o;
        for (int i = 0; i < n; ++i) o << "x" << i << " in mask " << dom[static_cast<std::size_t>(i)] << "; ";
        for (const Con& c : cons) {
            o << (c.linear ? "linear(" : "all_different(");
            for (std::size_t k = 0; k < c.vars.size(); ++k)
                o << (c.linear ? std::to_string(c.coeffs[k]) + "*" : "") << "x" << c.vars[k] << ' ';
            if (c.linear) o << "rel " << static_cast<int>(c.rel) << ' ' << c.rhs;
            o << "); ";
        }
        o << "views (";
        for (int v : views) o << "x" << v << ' ';
        return o.str() + ")";
    }
};

inline constexpr int top = 3; // values 0..top

inline Model random_model(unsigned seed, bool defined) {
    std::mt19937 rng(seed);
    auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    Model m;
    m.n = uniform(3, 5);
    for (int i = 0; i < m.n; ++i) m.dom.push_back(static_cast<std::uint32_t>(uniform(1, (1 << (top + 1)) - 1)));
    std::vector<int> all(static_cast<std::size_t>(m.n));
    for (int i = 0; i < m.n; ++i) all[static_cast<std::size_t>(i)] = i;
    const auto some = [&](int at_least) {
        std::vector<int> vs = all;
        std::shuffle(vs.begin(), vs.end(), rng);
        vs.resize(static_cast<std::size_t>(uniform(at_least, m.n)));
        return vs;
    };
    const int ncons = uniform(1, 3);
    for (int c = 0; c < ncons; ++c) {
        Con con;
        con.linear = uniform(0, 1) == 1;
        con.vars = some(2);
        if (con.linear) {
            for (std::size_t k = 0; k < con.vars.size(); ++k) con.coeffs.push_back(uniform(0, 1) ? uniform(1, 3) : -uniform(1, 3));
            con.rel = static_cast<propane::Rel>(uniform(0, 5));
            con.rhs = uniform(-3, 6);
        }
        m.cons.push_back(std::move(con));
    }
    if (defined) {
        // y = sum of some x: coefficients 1 and -1 on y, relation eq.
        Con sum;
        sum.linear = true;
        sum.vars = some(1);
        sum.coeffs.assign(sum.vars.size(), 1);
        sum.vars.push_back(m.n);
        sum.coeffs.push_back(-1);
        sum.rel = propane::Rel::eq;
        sum.rhs = 0;
        m.cons.push_back(std::move(sum));
        m.dom.push_back(0); // y: 0..4 * top, set in build
        ++m.n;
        // Every x in the views, y outside.
        m.views.assign(all.begin(), all.end());
        std::shuffle(m.views.begin(), m.views.end(), rng);
    } else {
        // Any subset in any order, the empty one included.
        m.views = all;
        std::shuffle(m.views.begin(), m.views.end(), rng);
        m.views.resize(static_cast<std::size_t>(uniform(0, m.n)));
    }
    return m;
}

inline bool holds(propane::Rel r, long lhs, long rhs) {
    switch (r) {
    case propane::Rel::eq: return lhs == rhs;
    case propane::Rel::ne: return lhs != rhs;
    case propane::Rel::le: return lhs <= rhs;
    case propane::Rel::lt: return lhs < rhs;
    case propane::Rel::ge: return lhs >= rhs;
    case propane::Rel::gt: return lhs > rhs;
    }
    return false;
}

inline int y_top(const Model& m) { return (m.n - 1) * top; }

inline bool in_domain(const Model& m, int i, int v) {
    if (m.dom[static_cast<std::size_t>(i)] == 0) return v >= 0 && v <= y_top(m); // y
    return v >= 0 && v <= top && ((m.dom[static_cast<std::size_t>(i)] >> v) & 1U);
}

// Every whole solution, sorted.
inline std::vector<Assignment> brute_force(const Model& m) {
    std::vector<Assignment> out;
    Assignment x(static_cast<std::size_t>(m.n), 0);
    const auto at = [&](int i) { return x[static_cast<std::size_t>(i)]; };
    const auto hi = [&](int i) { return m.dom[static_cast<std::size_t>(i)] == 0 ? y_top(m) : top; };
    for (;;) {
        bool ok = true;
        for (int i = 0; i < m.n && ok; ++i) ok = in_domain(m, i, at(i));
        for (const Con& c : m.cons) {
            if (!ok) break;
            if (c.linear) {
                long sum = 0;
                for (std::size_t k = 0; k < c.vars.size(); ++k) sum += long{c.coeffs[k]} * at(c.vars[k]);
                ok = holds(c.rel, sum, c.rhs);
            } else {
                for (std::size_t a = 0; a < c.vars.size() && ok; ++a)
                    for (std::size_t b = 0; b < a && ok; ++b) ok = at(c.vars[a]) != at(c.vars[b]);
            }
        }
        if (ok) out.push_back(x);
        int i = 0;
        while (i < m.n && ++x[static_cast<std::size_t>(i)] > hi(i)) x[static_cast<std::size_t>(i++)] = 0;
        if (i == m.n) break;
    }
    return out; // lexicographic in reversed variable order; callers sort
}

// The projections of `whole` onto the views, without repeats, sorted.
inline std::vector<Assignment> projections(const Model& m, const std::vector<Assignment>& whole) {
    std::vector<Assignment> out;
    for (const Assignment& a : whole) {
        Assignment p;
        for (int v : m.views) p.push_back(a[static_cast<std::size_t>(v)]);
        out.push_back(p);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

// The model on s, unpropagated; returns every variable by index.
template <class Store>
std::vector<propane::IntVar> build(Store& s, const Model& m) {
    std::vector<propane::IntVar> xs;
    for (int i = 0; i < m.n; ++i) {
        const bool y = m.dom[static_cast<std::size_t>(i)] == 0;
        xs.push_back(s.int_var(0, y ? y_top(m) : top));
        if (!y)
            for (int v = 0; v <= top; ++v)
                if (!in_domain(m, i, v)) (void)s.remove(xs.back(), v);
    }
    for (const Con& c : m.cons) {
        std::vector<propane::IntVar> vs;
        for (int v : c.vars) vs.push_back(xs[static_cast<std::size_t>(v)]);
        if (c.linear) s.post(propane::linear(c.coeffs, vs, c.rel, c.rhs));
        else s.post(propane::all_different(vs));
    }
    return xs;
}

inline std::vector<propane::IntVar> views_of(const Model& m, const std::vector<propane::IntVar>& xs) {
    std::vector<propane::IntVar> out;
    for (int v : m.views) out.push_back(xs[static_cast<std::size_t>(v)]);
    return out;
}

// Every variable's value at a solution; -1 for one left open.
template <class Store>
Assignment read_all(const Store& s) {
    Assignment a;
    for (int i = 0; i < s.num_vars(); ++i) a.push_back(s.domain(i).fixed() ? s.domain(i).value() : -1);
    return a;
}

} // namespace whole_models

#endif
