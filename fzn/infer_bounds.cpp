// Bounds reasoning over the constraints before any variable exists.
// MiniZinc leaves sums, products and objectives as `var int`; a variable
// the constraints bound starts narrow, often small enough for a bitset,
// rather than over the whole 32-bit range (create_vars). It also decides
// what create_vars refuses: a declared domain past 32 bits is fine when the
// constraints bring it back within. Interval reasoning only removes values
// no solution takes, so it is sound to apply to every variable. Open sides
// count as unbounded here, not as the 32-bit range they get later: a
// variable the constraints then put wholly past that range is one whose
// solutions need more than 32 bits, and is refused rather than found
// without solutions. A bound of +-far is no bound; arithmetic saturates
// there.

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "builder.hpp"

namespace propane::fzn {

namespace {

struct Iv {
    std::int64_t lo = -far, hi = far;
    bool lo_known() const noexcept { return lo > -far; }
    bool hi_known() const noexcept { return hi < far; }
};

Iv add(Iv a, Iv b) {
    return {(a.lo <= -far || b.lo <= -far) ? -far : clamp_far(a.lo + b.lo),
            (a.hi >= far || b.hi >= far) ? far : clamp_far(a.hi + b.hi)};
}

Iv neg(Iv a) { return {a.hi >= far ? -far : -a.hi, a.lo <= -far ? far : -a.lo}; }

// c * a for a constant c (any c, -2^63 included: nothing is negated).
Iv scale(Iv a, std::int64_t c) {
    if (c == 0) return {0, 0};
    // A product within +-far is exact in long double (64-bit significand);
    // beyond it only its side of +-far matters.
    auto mul = [c](std::int64_t v) -> std::int64_t {
        const long double x = v <= -far ? -INFINITY : v >= far ? INFINITY : static_cast<long double>(v);
        const long double p = x * static_cast<long double>(c);
        return p <= -static_cast<long double>(far) ? -far
               : p >= static_cast<long double>(far) ? far
                                                     : static_cast<std::int64_t>(p);
    };
    return c > 0 ? Iv{mul(a.lo), mul(a.hi)} : Iv{mul(a.hi), mul(a.lo)};
}

// a * b over intervals, with 0 * (no bound) taken as 0.
Iv times(Iv a, Iv b) {
    auto val = [](std::int64_t v) -> long double {
        if (v <= -far) return -INFINITY;
        if (v >= far) return INFINITY;
        return static_cast<long double>(v);
    };
    auto prod = [](long double x, long double y) -> long double { return (x == 0 || y == 0) ? 0 : x * y; };
    const long double c[] = {prod(val(a.lo), val(b.lo)), prod(val(a.lo), val(b.hi)), prod(val(a.hi), val(b.lo)),
                             prod(val(a.hi), val(b.hi))};
    const long double lo = *std::min_element(c, c + 4), hi = *std::max_element(c, c + 4);
    auto back = [](long double v) -> std::int64_t {
        return v <= -static_cast<long double>(far) ? -far
               : v >= static_cast<long double>(far) ? far
                                                     : static_cast<std::int64_t>(v);
    };
    return {back(lo), back(hi)};
}

Iv hull(Iv a, Iv b) { return {std::min(a.lo, b.lo), std::max(a.hi, b.hi)}; }

// The largest magnitude a value of a can have (far when unbounded).
std::int64_t magnitude(Iv a) {
    if (!a.lo_known() || !a.hi_known()) return far;
    return std::max(a.lo < 0 ? -a.lo : a.lo, a.hi < 0 ? -a.hi : a.hi);
}

} // namespace

void Builder::infer_bounds() {
    auto iv = [&](const Node& n) -> Iv {
        const Node& r = resolve(n);
        // A constant past +-far is as good as no bound, and would overflow.
        if (r.kind == Node::Kind::integer || r.kind == Node::Kind::boolean) return {clamp_far(r.value), clamp_far(r.value)};
        const int v = var_index(r);
        if (v < 0) return {};
        const VarInfo& info = vars_[static_cast<std::size_t>(v)];
        if (info.constant) return {clamp_far(*info.constant), clamp_far(*info.constant)};
        return {info.lo, info.hi};
    };
    auto items = [&](const Node& n) -> const std::vector<Node>* {
        const Node& r = resolve(n);
        if (r.kind == Node::Kind::array) return &r.items;
        if (r.kind == Node::Kind::ident) return array_of(r);
        return nullptr;
    };
    // A worklist of constraints: each is looked at first in file order,
    // then again only when a variable among its arguments narrows, so that
    // a long chain (road-cons: 700,000 constraints, each bounding the next
    // variable) costs one look per link, not a sweep over all of them per
    // link. Bounds can creep by one per look for ever (x < y and y < x,
    // both open), so the looks are capped at 20 per constraint on average.
    std::vector<std::vector<int>> watchers(vars_.size()); // by variable: the constraints over it
    std::vector<int> queue;
    std::vector<char> queued(m_.constraints.size(), 1);
    // Intersects a variable's bounds with b; an empty intersection is left
    // for the store to find (the model has no solution).
    auto narrow = [&](const Node& n, Iv b) {
        const int v = var_index(resolve(n));
        if (v < 0) return;
        VarInfo& info = vars_[static_cast<std::size_t>(v)];
        if (info.constant) return;
        const std::int64_t lo = std::max(info.lo, b.lo), hi = std::min(info.hi, b.hi);
        if (lo > hi || (lo == info.lo && hi == info.hi)) return;
        info.lo = lo;
        info.hi = hi;
        for (const int c : watchers[static_cast<std::size_t>(v)])
            if (!queued[static_cast<std::size_t>(c)]) {
                queued[static_cast<std::size_t>(c)] = 1;
                queue.push_back(c);
            }
    };
    // sum coeffs[k] * xs[k] <= rhs (and >= rhs when `eq`): each term is at
    // most rhs minus the least the others can be.
    // The others' least (greatest) sum is the whole sum minus the term's
    // own end: one pass for the sums, not one per term. Sums are exact in
    // long double (64-bit significand) while the magnitudes add up to
    // less than 2^62; past that, or with an unbounded other, no bound.
    auto linear = [&](const std::vector<std::int64_t>& coeffs, const std::vector<Node>& xs, Iv rhs, bool eq) {
        std::vector<Iv> terms;
        long double sum_lo = 0, sum_hi = 0, magnitudes = 0;
        int open_lo = 0, open_hi = 0;
        for (std::size_t k = 0; k < xs.size(); ++k) {
            const Iv term = scale(iv(xs[k]), coeffs[k]);
            terms.push_back(term);
            if (term.lo_known()) sum_lo += static_cast<long double>(term.lo);
            else ++open_lo;
            if (term.hi_known()) sum_hi += static_cast<long double>(term.hi);
            else ++open_hi;
            magnitudes += static_cast<long double>(magnitude(term));
        }
        if (magnitudes >= static_cast<long double>(std::int64_t{1} << 62)) return;
        auto others = [](long double sum, int open, bool own_known, std::int64_t own, std::int64_t none) {
            if (open - (own_known ? 0 : 1) > 0) return none;
            return clamp_far(static_cast<std::int64_t>(sum - (own_known ? static_cast<long double>(own) : 0)));
        };
        for (std::size_t k = 0; k < xs.size(); ++k) {
            if (coeffs[k] == 0) continue;
            const std::int64_t others_lo = others(sum_lo, open_lo, terms[k].lo_known(), terms[k].lo, -far);
            const std::int64_t others_hi = others(sum_hi, open_hi, terms[k].hi_known(), terms[k].hi, far);
            // term_k <= rhs.hi - others_lo; with eq, term_k >= rhs.lo - others_hi.
            Iv t{-far, far};
            if (rhs.hi_known() && others_lo > -far) t.hi = clamp_far(rhs.hi - others_lo);
            if (eq && rhs.lo_known() && others_hi < far) t.lo = clamp_far(rhs.lo - others_hi);
            const std::int64_t a = coeffs[k];
            Iv x{-far, far};
            if (a > 0) {
                if (t.hi_known()) x.hi = detail::floor_div(t.hi, a);
                if (t.lo_known()) x.lo = detail::ceil_div(t.lo, a);
            } else {
                if (t.hi_known()) x.lo = detail::ceil_div(t.hi, a);
                if (t.lo_known()) x.hi = detail::floor_div(t.lo, a);
            }
            narrow(xs[k], x);
        }
    };
    auto constants = [&](const Node& n, std::vector<std::int64_t>& out) {
        const Node& r = resolve(n);
        if (r.kind != Node::Kind::array) return false;
        out.clear();
        for (const Node& item : r.items) {
            const Node& ri = resolve(item);
            if (ri.kind != Node::Kind::integer) return false;
            out.push_back(ri.value);
        }
        return true;
    };
    // Every variable an argument names, directly or through an array.
    const auto watch = [&](int c) {
        const auto add = [&](const Node& n) {
            const int v = var_index(resolve(n));
            if (v < 0) return;
            auto& w = watchers[static_cast<std::size_t>(v)];
            if (w.empty() || w.back() != c) w.push_back(c);
        };
        for (const Node& arg : m_.constraints[static_cast<std::size_t>(c)].args) {
            if (const std::vector<Node>* xs = items(arg)) {
                for (const Node& x : *xs) add(x);
            } else {
                add(arg);
            }
        }
    };
    const int n_constraints = static_cast<int>(m_.constraints.size());
    for (int c = 0; c < n_constraints; ++c) watch(c);
    queue.reserve(m_.constraints.size());
    for (int c = n_constraints - 1; c >= 0; --c) queue.push_back(c); // popped from the back: file order
    std::vector<std::int64_t> coeffs;
    for (std::int64_t looks = 0, budget = std::int64_t{20} * n_constraints; !queue.empty() && looks < budget; ++looks) {
        const int at = queue.back();
        queue.pop_back();
        queued[static_cast<std::size_t>(at)] = 0;
        {
            const ConstraintItem& c = m_.constraints[static_cast<std::size_t>(at)];
            const auto& a = c.args;
            const std::string& n = c.name;
            if ((n == "int_lin_eq" || n == "int_lin_le" || n == "bool_lin_eq" || n == "bool_lin_le") &&
                a.size() == 3) {
                const auto* xs = items(a[1]);
                if (!constants(a[0], coeffs) || !xs || xs->size() != coeffs.size()) continue;
                const bool eq = n.ends_with("_eq");
                if (n.starts_with("bool")) { // the right-hand side may be a variable: move it left
                    std::vector<Node> all = *xs;
                    all.push_back(a[2]);
                    coeffs.push_back(-1);
                    linear(coeffs, all, {0, 0}, eq);
                } else {
                    linear(coeffs, *xs, iv(a[2]), eq);
                }
            } else if ((n == "int_le" || n == "int_lt") && a.size() == 2) {
                const std::int64_t gap = n == "int_lt" ? 1 : 0;
                const Iv x = iv(a[0]), y = iv(a[1]);
                if (x.lo_known()) narrow(a[1], {x.lo + gap, far});
                if (y.hi_known()) narrow(a[0], {-far, y.hi - gap});
            } else if ((n == "int_eq" || n == "bool2int" || n == "bool_eq") && a.size() == 2) {
                narrow(a[0], iv(a[1]));
                narrow(a[1], iv(a[0]));
                if (n == "bool2int") narrow(a[1], {0, 1});
            } else if (n == "int_plus" && a.size() == 3) {
                narrow(a[2], add(iv(a[0]), iv(a[1])));
                narrow(a[0], add(iv(a[2]), neg(iv(a[1]))));
                narrow(a[1], add(iv(a[2]), neg(iv(a[0]))));
            } else if (n == "int_times" && a.size() == 3) {
                narrow(a[2], times(iv(a[0]), iv(a[1])));
                // A product that cannot be 0 has no factor larger than itself.
                const Iv z = iv(a[2]);
                if (z.lo > 0 || z.hi < 0) {
                    const std::int64_t m = magnitude(z);
                    narrow(a[0], {-m, m});
                    narrow(a[1], {-m, m});
                }
            } else if (n == "int_abs" && a.size() == 2) {
                const Iv x = iv(a[0]);
                const std::int64_t m = magnitude(x);
                narrow(a[1], {x.lo >= 0 ? x.lo : (x.hi <= 0 ? -x.hi : 0), m});
                const Iv y = iv(a[1]);
                if (y.hi_known()) narrow(a[0], {-y.hi, y.hi});
            } else if ((n == "int_min" || n == "int_max") && a.size() == 3) {
                const Iv x = iv(a[0]), y = iv(a[1]);
                if (n == "int_min") narrow(a[2], {std::min(x.lo, y.lo), std::min(x.hi, y.hi)});
                else narrow(a[2], {std::max(x.lo, y.lo), std::max(x.hi, y.hi)});
            } else if (n == "int_div" && a.size() == 3) {
                const std::int64_t m = magnitude(iv(a[0]));
                narrow(a[2], {-m, m});
            } else if (n == "int_mod" && a.size() == 3) {
                const Iv x = iv(a[0]);
                const std::int64_t k = std::min(magnitude(x), std::max<std::int64_t>(0, magnitude(iv(a[1])) - 1));
                narrow(a[2], {x.lo >= 0 ? 0 : -k, x.hi <= 0 ? 0 : k});
            } else if (n == "array_int_element" && a.size() == 3) {
                const Node& arr = resolve(a[1]);
                if (arr.kind != Node::Kind::array || arr.items.empty()) continue;
                Iv h{far, -far};
                for (const Node& item : arr.items) h = hull(h, iv(item));
                narrow(a[2], h);
                narrow(a[0], {1, static_cast<std::int64_t>(arr.items.size())});
            } else if ((n == "array_var_int_element" || n == "array_int_maximum" || n == "array_int_minimum") &&
                       a.size() >= 2) {
                const bool element = n == "array_var_int_element";
                const auto* xs = items(a[1]);
                if (!xs || xs->empty()) continue;
                if (element) {
                    if (a.size() != 3) continue;
                    Iv h{far, -far};
                    for (const Node& item : *xs) h = hull(h, iv(item));
                    narrow(a[2], h);
                    narrow(a[0], {1, static_cast<std::int64_t>(xs->size())});
                } else {
                    Iv h = iv(xs->front());
                    for (const Node& item : *xs) {
                        const Iv x = iv(item);
                        h = n == "array_int_maximum" ? Iv{std::max(h.lo, x.lo), std::max(h.hi, x.hi)}
                                                     : Iv{std::min(h.lo, x.lo), std::min(h.hi, x.hi)};
                    }
                    narrow(a[0], h);
                }
            } else if (n == "int_pow" && a.size() == 3) {
                const Iv x = iv(a[0]), y = iv(a[1]);
                if (!y.hi_known() || y.hi > 62) continue;
                const std::int64_t m = magnitude(x);
                if (m >= far) continue;
                long double p = 1;
                for (std::int64_t k = 0; k < std::max<std::int64_t>(y.hi, 0); ++k) {
                    p *= static_cast<long double>(std::max<std::int64_t>(m, 1));
                    if (p >= static_cast<long double>(far)) break;
                }
                if (p >= static_cast<long double>(far)) continue;
                const auto b = static_cast<std::int64_t>(p);
                narrow(a[2], {-b, b});
            }
        }
    }
    for (VarInfo& v : vars_) v.bounded = v.lo > -far && v.hi < far;
}

} // namespace propane::fzn
