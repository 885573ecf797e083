// element over numbers and over views through the checker (checker.hpp).
//
// Claims checked, in view space, for views on distinct variables:
//   element(array, i, y)  domain consistent on i and y (exact). i and y on
//               one variable are filtered exactly too, which the shared
//               sweep holds it to.
//   element(xs, i, y)     the closure below (exact): i keeps k when xs[k]
//               and y share a value; with one index k left, xs[k] and y
//               keep their common values; y is cut to the least and
//               greatest value it shares with the xs[k] left.
//   element(array, i, c), element(xs, i, c)  c a number: domain
//               consistent on i (and on every xs[k]).
//   element(matrix, i, j, r)  domain consistent on i, j and r, and on i
//               and j with r a number.
// Where views share a variable element(xs, i, y), element(xs, i, c) and
// the matrix form are checked for soundness and the fixed-assignment rule
// only.
//
// Configurations: element over numbers with random arrays of 1 to 6
// values in -4..4, every pair of subsets of -1..4 per array and view kind,
// samples over -3..3, shared variables and random walks; element over two
// views with every 4-tuple of subsets of -1..2, over three sampled over
// -1..3, then shared variables and walks; the constant results and the
// matrix likewise, the matrices of 1 to 3 rows of 1 to 3 columns over
// -3..3 with the indices over -1..3, so that each goes past the matrix.

#include <doctest/doctest.h>

#include "checker.hpp"

#include <propane/constraints/element.hpp>
#include <propane/constraints/element2d.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "instances_store.hpp"

namespace {

using checker::Case;
using checker::Doms;
using checker::Kind;
using checker::Mask;
using checker::Spec;
using checker::Store;
using checker::restrict_view;
using checker::u;
using checker::view;
using propane::IntVar;
using Affine = propane::AffineView;
using Offset = propane::OffsetView;

const std::vector<Kind> all_kinds(checker::kinds.begin(), checker::kinds.end());

std::string array_string(const std::vector<int>& a) {
    std::string s = "{";
    for (std::size_t k = 0; k < a.size(); ++k) s += (k ? "," : "") + std::to_string(a[k]);
    return s + "}";
}

Spec element_const_spec(const std::vector<int>& array) {
    Spec spec;
    spec.name = "element(" + array_string(array) + ", i, y)";
    spec.claim = checker::Claim::domain;
    spec.exact_when_shared = true;
    spec.holds = [array](const int* v) {
        return v[0] >= 0 && v[0] < static_cast<int>(array.size()) && array[u(v[0])] == v[1];
    };
    spec.post = [array](Store& s, const std::vector<IntVar>& xs, const Case& c) {
        auto post = [&](auto i, auto y) { s.post(propane::element(array, i, y)); };
        switch (c.kind) {
        case Kind::var: post(view<IntVar>(xs, c, 0), view<IntVar>(xs, c, 1)); break;
        case Kind::offset: post(view<Offset>(xs, c, 0), view<Offset>(xs, c, 1)); break;
        case Kind::affine: post(view<Affine>(xs, c, 0), view<Affine>(xs, c, 1)); break;
        case Kind::mixed: post(view<IntVar>(xs, c, 0), view<Affine>(xs, c, 1)); break;
        }
    };
    return spec;
}

// Whether view i (on its own variable) holds the view value w in d.
bool has(const Case& c, const Doms& d, int i, int w) {
    for (int t = 0; t < c.range; ++t)
        if (((d[u(c.v[u(i)].var)] >> t) & 1U) && c.value(i, t) == w) return true;
    return false;
}

template <class F>
void each_value(const Case& c, const Doms& d, int i, F&& f) {
    for (int t = 0; t < c.range; ++t)
        if ((d[u(c.v[u(i)].var)] >> t) & 1U) f(c.value(i, t));
}

// element(xs, i, y)'s promise, written from its statement: views 0 .. n-1
// are xs, view n is i, view n + 1 is y.
bool element_var_closure(int n, const Case& c, Doms& d) {
    const int iv = n, yv = n + 1;
    auto meets = [&](int k) {
        bool any = false;
        each_value(c, d, k, [&](int w) { any = any || has(c, d, yv, w); });
        return any;
    };
    restrict_view(c, d, iv, [&](int k) { return k >= 0 && k < n && meets(k); });
    if (d[u(c.v[u(iv)].var)] == 0) return false;
    int left = 0, only = 0;
    each_value(c, d, iv, [&](int k) { ++left, only = k; });
    if (left == 1) {
        const Doms before = d;
        restrict_view(c, d, only, [&](int w) { return has(c, before, yv, w); });
        restrict_view(c, d, yv, [&](int w) { return has(c, before, only, w); });
    }
    bool first = true;
    int lo = 0, hi = 0;
    each_value(c, d, iv, [&](int k) {
        each_value(c, d, k, [&](int w) {
            if (!has(c, d, yv, w)) return;
            if (first || w < lo) lo = w;
            if (first || w > hi) hi = w;
            first = false;
        });
    });
    restrict_view(c, d, yv, [&](int w) { return w >= lo && w <= hi; });
    return true;
}

Spec element_var_spec(int n) {
    Spec spec;
    spec.name = "element(" + std::to_string(n) + " xs, i, y)";
    spec.claim = checker::Claim::custom;
    spec.holds = [n](const int* v) { return v[n] >= 0 && v[n] < n && v[v[n]] == v[n + 1]; };
    spec.closure = [n](const Case& c, Doms& d) { return element_var_closure(n, c, d); };
    spec.post = [n](Store& s, const std::vector<IntVar>& xs, const Case& c) {
        switch (c.kind) {
        case Kind::var:
            s.post(propane::element(checker::views<IntVar>(xs, c, 0, n), view<IntVar>(xs, c, n), view<IntVar>(xs, c, n + 1)));
            break;
        case Kind::offset:
            s.post(propane::element(checker::views<Offset>(xs, c, 0, n), view<Offset>(xs, c, n), view<Offset>(xs, c, n + 1)));
            break;
        case Kind::affine:
            s.post(propane::element(checker::views<Affine>(xs, c, 0, n), view<Affine>(xs, c, n), view<Affine>(xs, c, n + 1)));
            break;
        case Kind::mixed:
            // Positions n and n + 1 get the kinds mixed_at gives them.
            if (n == 2)
                s.post(propane::element(checker::views<Affine>(xs, c, 0, n), view<Offset>(xs, c, n), view<IntVar>(xs, c, n + 1)));
            else
                s.post(propane::element(checker::views<Affine>(xs, c, 0, n), view<IntVar>(xs, c, n), view<Affine>(xs, c, n + 1)));
            break;
        }
    };
    return spec;
}

// c == array[i]: one view.
Spec element_const_value_spec(const std::vector<int>& array, int value) {
    Spec spec;
    spec.name = "element(" + array_string(array) + ", i, " + std::to_string(value) + ")";
    spec.claim = checker::Claim::domain;
    spec.holds = [array, value](const int* v) {
        return v[0] >= 0 && v[0] < static_cast<int>(array.size()) && array[u(v[0])] == value;
    };
    spec.post = [array, value](Store& s, const std::vector<IntVar>& xs, const Case& c) {
        switch (c.kind) {
        case Kind::var:
        case Kind::mixed: s.post(propane::element(array, view<IntVar>(xs, c, 0), value)); break;
        case Kind::offset: s.post(propane::element(array, view<Offset>(xs, c, 0), value)); break;
        case Kind::affine: s.post(propane::element(array, view<Affine>(xs, c, 0), value)); break;
        }
    };
    return spec;
}

// c == xs[i]: views 0 .. n-1 are xs, view n is i.
Spec element_var_value_spec(int n, int value) {
    Spec spec;
    spec.name = "element(" + std::to_string(n) + " xs, i, " + std::to_string(value) + ")";
    spec.claim = checker::Claim::domain;
    spec.holds = [n, value](const int* v) { return v[n] >= 0 && v[n] < n && v[v[n]] == value; };
    spec.post = [n, value](Store& s, const std::vector<IntVar>& xs, const Case& c) {
        switch (c.kind) {
        case Kind::var: s.post(propane::element(checker::views<IntVar>(xs, c, 0, n), view<IntVar>(xs, c, n), value)); break;
        case Kind::offset: s.post(propane::element(checker::views<Offset>(xs, c, 0, n), view<Offset>(xs, c, n), value)); break;
        case Kind::affine: s.post(propane::element(checker::views<Affine>(xs, c, 0, n), view<Affine>(xs, c, n), value)); break;
        case Kind::mixed:
            // Position n gets the kind mixed_at gives it.
            if (n == 2)
                s.post(propane::element(checker::views<Affine>(xs, c, 0, n), view<Offset>(xs, c, n), value));
            else
                s.post(propane::element(checker::views<Affine>(xs, c, 0, n), view<IntVar>(xs, c, n), value));
            break;
        }
    };
    return spec;
}

std::string matrix_string(const std::vector<std::vector<int>>& m) {
    std::string s = "{";
    for (std::size_t k = 0; k < m.size(); ++k) s += (k ? "," : "") + array_string(m[k]);
    return s + "}";
}

// r == matrix[i][j]: views i, j, r; with `value`, r is that number and
// the views are i and j.
Spec element2d_spec(const std::vector<std::vector<int>>& m, std::optional<int> value = std::nullopt) {
    Spec spec;
    spec.name = "element(" + matrix_string(m) + ", i, j, " + (value ? std::to_string(*value) : "r") + ")";
    spec.claim = checker::Claim::domain;
    spec.holds = [m, value](const int* v) {
        const int rows = static_cast<int>(m.size()), cols = static_cast<int>(m[0].size());
        return v[0] >= 0 && v[0] < rows && v[1] >= 0 && v[1] < cols && m[u(v[0])][u(v[1])] == (value ? *value : v[2]);
    };
    spec.post = [m, value](Store& s, const std::vector<IntVar>& xs, const Case& c) {
        // Mixed: positions 0, 1, 2 are var, affine, offset (mixed_at).
        if (value) {
            switch (c.kind) {
            case Kind::var: s.post(propane::element(m, view<IntVar>(xs, c, 0), view<IntVar>(xs, c, 1), *value)); break;
            case Kind::offset: s.post(propane::element(m, view<Offset>(xs, c, 0), view<Offset>(xs, c, 1), *value)); break;
            case Kind::affine: s.post(propane::element(m, view<Affine>(xs, c, 0), view<Affine>(xs, c, 1), *value)); break;
            case Kind::mixed: s.post(propane::element(m, view<IntVar>(xs, c, 0), view<Affine>(xs, c, 1), *value)); break;
            }
            return;
        }
        auto post = [&](auto i, auto j, auto r) { s.post(propane::element(m, i, j, r)); };
        switch (c.kind) {
        case Kind::var: post(view<IntVar>(xs, c, 0), view<IntVar>(xs, c, 1), view<IntVar>(xs, c, 2)); break;
        case Kind::offset: post(view<Offset>(xs, c, 0), view<Offset>(xs, c, 1), view<Offset>(xs, c, 2)); break;
        case Kind::affine: post(view<Affine>(xs, c, 0), view<Affine>(xs, c, 1), view<Affine>(xs, c, 2)); break;
        case Kind::mixed: post(view<IntVar>(xs, c, 0), view<Affine>(xs, c, 1), view<Offset>(xs, c, 2)); break;
        }
    };
    return spec;
}

std::vector<std::vector<std::vector<int>>> random_matrices(int count, unsigned seed) {
    std::mt19937 rng(seed);
    std::vector<std::vector<std::vector<int>>> out;
    for (int a = 0; a < count; ++a) {
        std::vector<std::vector<int>> m(1 + rng() % 3, std::vector<int>(1 + rng() % 3));
        for (auto& row : m)
            for (int& w : row) w = static_cast<int>(rng() % 7) - 3;
        out.push_back(m);
    }
    // One of full size, so that both indices can go past the matrix on
    // either side and every cell is met.
    out.push_back({{0, 1, -1}, {2, 0, 1}, {-2, 2, 0}});
    return out;
}

std::vector<std::vector<int>> random_arrays(int count, unsigned seed) {
    std::mt19937 rng(seed);
    std::vector<std::vector<int>> out;
    for (int a = 0; a < count; ++a) {
        std::vector<int> array(1 + rng() % 6);
        for (int& w : array) w = static_cast<int>(rng() % 9) - 4;
        out.push_back(array);
    }
    return out;
}

} // namespace

TEST_CASE("element(array, i, y): domain consistent on i and y") {
    checker::Outcome all, sampled, shared, walked;
    for (const std::vector<int>& array : random_arrays(6, 11)) {
        const Spec spec = element_const_spec(array);
        for (const Kind k : all_kinds) {
            all += checker::sweep(spec, k, {.n = 2, .lo = -1, .range = 6, .posted_every = 2});
            sampled += checker::sweep(spec, k, {.n = 2, .lo = -3, .range = 7, .samples = 400, .posted_every = 2, .seed = 13});
            shared += checker::shared_sweep(spec, k, 2, 1, -3, 7, 80, 17);
            walked += checker::walks(spec, k, 2, -3, 7, 4, 120, 19);
        }
    }
    checker::report("element(array, i, y), 6 arrays x 4 kinds, every pair of subsets of -1..4", all);
    checker::report("element(array, i, y), 6 arrays x 4 kinds, sampled over -3..3", sampled);
    checker::report("element(array, i, y), 6 arrays x 4 kinds, one variable", shared);
    checker::report("element(array, i, y), 6 arrays x 4 kinds, walks", walked);
}

TEST_CASE("element(array, i, y): a model error for an empty array") {
    Store s;
    const IntVar i = s.int_var(0, 3), y = s.int_var(0, 3);
    CHECK_THROWS_AS(propane::element(std::vector<int>{}, i, y), propane::model_error);
    CHECK_THROWS_AS(s.post(propane::ElementConstant<IntVar, IntVar>{{}, i, y}), propane::model_error);
    CHECK_THROWS_AS(propane::element(std::vector<IntVar>{}, i, y), propane::model_error);
}

TEST_CASE("element(xs, i, y): domain on i, bounds on y, equality once i is fixed") {
    for (const Kind k : all_kinds) {
        checker::report("element(2 xs, i, y) x " + checker::name_of(k) + ", every 4-tuple of subsets of -1..2",
                        checker::sweep(element_var_spec(2), k, {.n = 4, .lo = -1, .range = 4, .posted_every = 4}));
        checker::report("element(3 xs, i, y) x " + checker::name_of(k) + ", sampled over -1..3",
                        checker::sweep(element_var_spec(3), k,
                                       {.n = 5, .lo = -1, .range = 5, .samples = 6000, .posted_every = 2, .seed = 23}));
        checker::Outcome shared;
        shared += checker::shared_sweep(element_var_spec(2), k, 4, 2, -1, 4, 400, 29);
        shared += checker::shared_sweep(element_var_spec(2), k, 4, 3, -1, 4, 400, 31);
        checker::report("element(2 xs, i, y) x " + checker::name_of(k) + ", shared variables", shared);
        checker::report("element(3 xs, i, y) x " + checker::name_of(k) + ", walks",
                        checker::walks(element_var_spec(3), k, 5, -1, 5, 12, 150, 37));
    }
}

TEST_CASE("element(array, i, c) and element(xs, i, c): domain consistent with a number for y") {
    checker::Outcome all, walked;
    for (const std::vector<int>& array : random_arrays(6, 41))
        for (const int value : {array[0], 1, 5}) {
            const Spec spec = element_const_value_spec(array, value);
            for (const Kind k : all_kinds) {
                all += checker::sweep(spec, k, {.n = 1, .lo = -2, .range = 8, .posted_every = 1});
                walked += checker::walks(spec, k, 1, -2, 8, 2, 60, 43);
            }
        }
    checker::report("element(array, i, c), 6 arrays x 3 values x 4 kinds, every subset of -2..5", all);
    checker::report("element(array, i, c), walks", walked);
    for (const Kind k : all_kinds)
        for (const int value : {0, 2}) {
            const std::string what = "x " + checker::name_of(k) + ", c = " + std::to_string(value);
            checker::report("element(2 xs, i, c) " + what + ", every triple of subsets of -1..2",
                            checker::sweep(element_var_value_spec(2, value), k, {.n = 3, .lo = -1, .range = 4}));
            checker::report("element(3 xs, i, c) " + what + ", sampled over -1..3",
                            checker::sweep(element_var_value_spec(3, value), k,
                                           {.n = 4, .lo = -1, .range = 5, .samples = 4000, .posted_every = 2, .seed = 47}));
            checker::Outcome shared;
            shared += checker::shared_sweep(element_var_value_spec(2, value), k, 3, 2, -1, 4, 400, 53);
            shared += checker::shared_sweep(element_var_value_spec(3, value), k, 4, 2, -1, 4, 400, 59);
            checker::report("element(xs, i, c) " + what + ", shared variables", shared);
            checker::report("element(3 xs, i, c) " + what + ", walks",
                            checker::walks(element_var_value_spec(3, value), k, 4, -1, 5, 8, 150, 61));
        }
}

TEST_CASE("element(matrix, i, j, r): domain consistent on i, j and r") {
    for (const auto& m : random_matrices(3, 67)) {
        checker::Outcome all, sampled, shared, walked, fixed_r;
        const Spec spec = element2d_spec(m);
        for (const Kind k : all_kinds) {
            all += checker::sweep(spec, k, {.n = 3, .lo = -1, .range = 5, .posted_every = 3});
            sampled += checker::sweep(spec, k, {.n = 3, .lo = -3, .range = 7, .samples = 3000, .posted_every = 2, .seed = 71});
            shared += checker::shared_sweep(spec, k, 3, 1, -2, 6, 200, 73);
            shared += checker::shared_sweep(spec, k, 3, 2, -2, 6, 400, 79);
            walked += checker::walks(spec, k, 3, -2, 6, 8, 150, 83);
            for (const int value : {m[0][0], 2})
                fixed_r += checker::sweep(element2d_spec(m, value), k, {.n = 2, .lo = -1, .range = 5});
        }
        const std::string name = "element(" + matrix_string(m) + ", i, j, r) x 4 kinds";
        checker::report(name + ", every triple of subsets of -1..3", all);
        checker::report(name + ", sampled over -3..3", sampled);
        checker::report(name + ", shared variables", shared);
        checker::report(name + ", walks", walked);
        checker::report(name + ", r a number, every pair of subsets of -1..3", fixed_r);
    }
}

TEST_CASE("element(matrix, i, j, r): model errors name the row") {
    Store s;
    const IntVar i = s.int_var(0, 3), j = s.int_var(0, 3), r = s.int_var(0, 3);
    const auto message = [&](const std::vector<std::vector<int>>& m) {
        try {
            s.post(propane::element(m, i, j, r));
        } catch (const propane::model_error& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK(message({}) == "propane: element: the matrix has no rows, so no index i can be chosen");
    CHECK(message({{1, 2}, {3}}) ==
          "propane: element: matrix row 1 has 1 entries, row 0 has 2; every row of a matrix must have the same length");
    CHECK(message({{1, 2}, {3, 4}, {}}) == "propane: element: matrix row 2 is empty, so no index j can be chosen");
    CHECK(message({{}}) == "propane: element: matrix row 0 is empty, so no index j can be chosen");
    CHECK_THROWS_WITH_AS(propane::element(std::vector<std::vector<long>>{{1, 2}, {3, 1L << 40}}, i, j, r),
                         "propane: element: matrix[1][1] is 1099511627776, beyond -2147483648..2147483647",
                         propane::model_error);
    CHECK_THROWS_AS(propane::element({{1, 2}, {3, 4}}, i, j, 1L << 40), propane::model_error);
    // The constraint built by hand is checked when posted.
    CHECK_THROWS_AS(s.post(propane::Element2DConstraint<IntVar, IntVar, IntVar>{{{1}, {2, 3}}, i, j, r}),
                    propane::model_error);
}

TEST_CASE("element with a number for y or i: out of int is a model error") {
    Store s;
    const IntVar i = s.int_var(0, 3), y = s.int_var(0, 3);
    CHECK_THROWS_WITH_AS(propane::element(std::vector<int>{1, 2}, i, 1LL << 33),
                         "propane: element: y is 8589934592, beyond -2147483648..2147483647", propane::model_error);
    CHECK_THROWS_AS(propane::element(std::vector<IntVar>{i, y}, i, std::uint64_t{1} << 63), propane::model_error);
    CHECK_THROWS_WITH_AS(propane::element(std::vector<int>{1, 2}, -(1LL << 40), y),
                         "propane: element: the index i is -1099511627776, beyond -2147483648..2147483647",
                         propane::model_error);
}
