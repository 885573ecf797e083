#ifndef PROPANE_CONSTRAINTS_LINEAR_HPP
#define PROPANE_CONSTRAINTS_LINEAR_HPP

// linear(a, x, r, c): a[0]*x[0] + ... + a[n-1]*x[n-1] r c over any views x
// (a range of one view type, AffineView holding any mix, or a braced
// list), r a Rel, and linear(x, r, c) for the plain sum (every coefficient
// 1). a and c are integers of any type (arguments.hpp).
//
// Strength:
//   eq le ge lt gt  bounds(R) consistent: after propagation the least and
//           the greatest value of every view have a support in which the
//           other views take real values between their bounds. lt is le
//           c - 1 and gt is ge c + 1. A bound is rounded inward to a value
//           the view can take (the views' remove_below / remove_above), and
//           the cuts repeat until none moves, so the result is the greatest
//           such box. Woken by bounds changes.
//   ne      once one term is left open, the value that would make the sum
//           equal c leaves it (when c minus the rest is a multiple of its
//           coefficient); once none is, a sum equal to c fails. Woken when a
//           view becomes fixed.
//
// Two or three terms with coefficients +-1 over distinct variables (x = y
// + z, x - y <= c) get a propagator of their own: the same box, without
// the multiplications and the bookkeeping below, which cost more than
// they save at that size.
//
// Otherwise incremental, as MiniCP's Sum: the terms are kept open ones first, and the
// number of open terms and the sum of the fixed ones are reversible cells.
// A run moves the terms fixed since the last one behind the open part (a
// swap, undone by restoring the count, never by moving terms back), so it
// costs O(open terms), not O(n).
//
// Arithmetic is in 64 bits. At post, the sum of |a_i| * max(|lo_i|, |hi_i|)
// over the views' whole ranges (lo(), hi()), plus |c| and one for lt and gt,
// must stay below 2^62; otherwise model_error. Then no partial sum, bound or
// difference computed while propagating can overflow.
//
// Terms with a zero coefficient are dropped; no term left means 0 r c, which
// the first propagation decides. A variable may occur in several terms:
// the terms are treated as independent, which is sound, and the cuts still
// repeat until nothing moves, but the box is then the greatest one for the
// relaxation, not for the variables.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <memory>
#include <optional>
#include <ranges>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "../engine/error.hpp"
#include "../engine/inline.hpp"
#include "../engine/propagator.hpp"
#include "../engine/view.hpp"
#include "arguments.hpp"
#include "rel.hpp"

namespace propane {

namespace detail {

template <class View>
struct Term {
    View v;
    std::int64_t a;

    // The least and greatest values of a*v.
    template <class S>
    std::pair<std::int64_t, std::int64_t> range(const S& s) const noexcept {
        const std::int64_t lo = a * v.min(s), hi = a * v.max(s);
        return a > 0 ? std::pair{lo, hi} : std::pair{hi, lo};
    }
};

// The terms of a sum, open ones first, with the reversible count of open
// terms and sum of fixed ones. Shared by the bounds and the ne propagators.
template <class View>
class SumTerms {
public:
    template <class S>
    SumTerms(S& s, std::vector<Term<View>> terms)
        : terms_(std::move(terms)), open_cell_(s.new_cell(static_cast<std::int64_t>(terms_.size()))),
          fixed_cell_(s.new_cell(0)) {}

    // Moves the terms fixed since the last call behind the open part, adding
    // their values to the fixed sum, and returns that sum. The terms swap
    // places only within the open part, so restoring the count on
    // backtracking restores the set of open terms.
    template <class S>
    std::int64_t settle(S& s) {
        auto open = static_cast<std::size_t>(s.cell(open_cell_));
        std::int64_t fixed = s.cell(fixed_cell_);
        const std::size_t was_open = open;
        for (std::size_t k = 0; k < open;) {
            if (terms_[k].v.fixed(s)) {
                fixed += terms_[k].a * terms_[k].v.value(s);
                std::swap(terms_[k], terms_[--open]);
            } else {
                ++k;
            }
        }
        if (open != was_open) {
            s.set_cell(open_cell_, static_cast<std::int64_t>(open));
            s.set_cell(fixed_cell_, fixed);
        }
        return fixed;
    }

    // settle() and the sum of the open terms' ranges in one pass, each
    // range kept in ranges[k] for open term k: a term is fixed exactly when
    // its range is one value, so the read that the sum needs anyway doubles
    // as the fixed() test. Returns the fixed sum.
    template <class S>
    std::int64_t settle(S& s, std::vector<std::pair<std::int64_t, std::int64_t>>& ranges, std::int64_t& least,
                        std::int64_t& most) {
        auto open = static_cast<std::size_t>(s.cell(open_cell_));
        std::int64_t fixed = s.cell(fixed_cell_);
        const std::size_t was_open = open;
        least = most = 0;
        for (std::size_t k = 0; k < open;) {
            const auto r = terms_[k].range(s);
            if (r.first == r.second) {
                fixed += r.first;
                std::swap(terms_[k], terms_[--open]);
            } else {
                ranges[k] = r;
                least += r.first;
                most += r.second;
                ++k;
            }
        }
        if (open != was_open) {
            s.set_cell(open_cell_, static_cast<std::int64_t>(open));
            s.set_cell(fixed_cell_, fixed);
        }
        return fixed;
    }

    // The open terms as of the last settle().
    template <class S>
    std::span<const Term<View>> open(const S& s) const noexcept {
        return {terms_.data(), static_cast<std::size_t>(s.cell(open_cell_))};
    }

private:
    std::vector<Term<View>> terms_;
    int open_cell_;
    int fixed_cell_;
};

template <class View>
bool shares_variable(const std::vector<Term<View>>& terms) {
    std::vector<int> vars;
    vars.reserve(terms.size());
    for (const Term<View>& t : terms) vars.push_back(t.v.var().index());
    return repeats_variable(vars);
}

// The cuts of sum <= upper and/or sum >= lower to the greatest bounds(R)
// box, over the terms it owns: LinearBounds runs them with the bounds it
// was posted with, the reified linear (bool/linear_reif.hpp) with those of
// the relation or of its negation, whichever b asks for (set_bounds). The
// bounds are members, read in the loop as LinearBounds read its own before
// this class was taken out of it, and run() is left to the compiler to
// inline or not: forced inline, or given the bounds as arguments, the loop
// compiled to 0.8 % more instructions (g++ -O2, callgrind, magic_square 4
// --count --limit 300); as it is, run() executes exactly the instructions
// LinearBounds::propagate did, plus the call (0.2 % of the program).
template <class View>
class BoundsCuts {
public:
    template <class S>
    BoundsCuts(S& s, std::vector<Term<View>> terms, std::optional<std::int64_t> lower = std::nullopt,
               std::optional<std::int64_t> upper = std::nullopt)
        : shared_(shares_variable(terms)), ranges_(terms.size()), terms_(s, std::move(terms)), lower_(lower),
          upper_(upper) {}

    void set_bounds(std::optional<std::int64_t> lower, std::optional<std::int64_t> upper) noexcept {
        lower_ = lower;
        upper_ = upper;
    }

    // A cut for sum <= u changes only the terms' greatest values, so the sum
    // of least values it used stays exact and it leaves nothing for itself
    // to cut; it does change the sum of greatest values, which the cut for
    // sum >= l reads next (kept exact as it goes). Only a cut for >= l that
    // moved something can give <= u more to cut, so only then does the loop
    // go round again. Views sharing a variable move each other's bounds
    // behind these sums' backs: then any change goes round again.
    template <class S>
    PropStatus run(S& s) {
        for (;;) {
            std::int64_t least = 0, most = 0; // of the open terms' sum
            const std::int64_t fixed = terms_.settle(s, ranges_, least, most);
            if ((upper_ && least > *upper_ - fixed) || (lower_ && most < *lower_ - fixed)) return PropStatus::failed;
            Cut below = Cut::none, above = Cut::none;
            if (upper_ && most > *upper_ - fixed) {
                above = cut<1>(s, *upper_ - fixed, least, most);
                if (above == Cut::failed) return PropStatus::failed;
            }
            if (lower_ && least < *lower_ - fixed) {
                // sum >= l as -sum <= -l: -sum ranges over -most .. -least.
                // Nothing reads the greatest value after this cut (a new
                // pass sums afresh), but the cut keeps it up to date anyway.
                std::int64_t neg_least = -least;
                below = cut<-1>(s, fixed - *lower_, -most, neg_least);
                if (below == Cut::failed) return PropStatus::failed;
            }
            const bool moved = above == Cut::some || below == Cut::some;
            if (!(upper_ && below == Cut::some) && !(shared_ && moved)) return PropStatus::fix;
        }
    }

    // The least and greatest values of the whole sum (settling the terms).
    template <class S>
    std::pair<std::int64_t, std::int64_t> range(S& s) {
        std::int64_t least = 0, most = 0;
        const std::int64_t fixed = terms_.settle(s, ranges_, least, most);
        return {fixed + least, fixed + most};
    }

    SumTerms<View>& terms() noexcept { return terms_; }

private:
    enum class Cut : std::uint8_t { none, some, failed };

    // Cuts each open term t of Sign * sum <= u to what it can take when the
    // others take their least: Sign*t <= u - (least - least(Sign*t)).
    // `most`, the greatest value of Sign * sum, follows the cuts. The terms'
    // ranges come from ranges_, kept up to date by each cut: a cut moves
    // only the bound it cuts, read again after the update. Views sharing a
    // variable can leave a range stale (wider than the view's): a cut from
    // it is weaker, never wrong, and the pass that follows reads afresh.
    template <int Sign, class S>
    Cut cut(S& s, std::int64_t u, std::int64_t least, std::int64_t& most) {
        Cut done = Cut::none;
        const auto open = terms_.open(s);
        for (std::size_t k = 0; k < open.size(); ++k) {
            const Term<View>& t = open[k];
            auto& [t_lo, t_hi] = ranges_[k];
            const std::int64_t lo = Sign > 0 ? t_lo : -t_hi, hi = Sign > 0 ? t_hi : -t_lo;
            const std::int64_t cap = u - least + lo;
            if (hi <= cap) continue;
            const std::int64_t a = Sign * t.a;
            const Change c = a > 0 ? keep_at_most(t.v, s, floor_div(cap, a)) : keep_at_least(t.v, s, ceil_div(cap, a));
            if (c == Change::failed) return Cut::failed;
            std::tie(t_lo, t_hi) = t.range(s);
            most += (Sign > 0 ? t_hi : -t_lo) - hi;
            done = Cut::some;
        }
        return done;
    }

    bool shared_;
    // The open terms' ranges, open term k's at k: scratch for one run.
    std::vector<std::pair<std::int64_t, std::int64_t>> ranges_;
    SumTerms<View> terms_;
    std::optional<std::int64_t> lower_;
    std::optional<std::int64_t> upper_;
};

// sum <= upper and/or sum >= lower, to the greatest bounds(R) box.
template <class S, class View>
class LinearBounds : public PropagatorBase<S, LinearBounds<S, View>> {
public:
    LinearBounds(S& s, std::vector<Term<View>> terms, std::optional<std::int64_t> lower,
                 std::optional<std::int64_t> upper)
        : cuts_(s, std::move(terms), lower, upper) {}

    PropStatus propagate(S& s) override { return cuts_.run(s); }

private:
    BoundsCuts<View> cuts_;
};

// sum <= upper and/or sum >= lower when every coefficient is +1 or -1 and
// there are two or three terms over distinct variables: Golomb's m[j] -
// m[i] - d = 0 and the like, which post in the thousands and run millions
// of times. The first P views count +1, the last M count -1 (linear_unit
// negates the whole constraint when that makes P >= M, so four instances
// cover every sign pattern). The box and the failures are LinearBounds' own;
// what goes is its cost: no multiplication, no reversible cells (with
// three terms, skipping the fixed ones saves less than keeping track of
// them), and both cuts of every term taken in one pass from one reading of
// the bounds (see propagate()).
//
// Which of the two bounds the sum has is part of the type, like the signs:
// a run tests them a dozen times, and most of those tests then vanish.
template <class S, class View, int P, int M, bool Lower, bool Upper>
class LinearUnit : public PropagatorBase<S, LinearUnit<S, View, P, M, Lower, Upper>> {
    static constexpr int n = P + M;
    static constexpr bool has_lower_ = Lower;
    static constexpr bool has_upper_ = Upper;

public:
    // x: the +1 views, then the -1 ones.
    LinearUnit(const std::vector<View>& x, std::int64_t k)
        : x_([&]<std::size_t... I>(std::index_sequence<I...>) {
              return std::array<kept_t<View>, sizeof...(I)>{kept(x[I])...};
          }(std::make_index_sequence<static_cast<std::size_t>(n)>{})),
          k_(k) {}

    // Over intervals, the terms' sum takes every integer from least to
    // most, so the values term K takes in some solution of the relaxation
    // (the views' bounds, holes ignored) are exactly
    //   max(lo[K], hi[K] - (most - k)) .. min(hi[K], lo[K] + (k - least)),
    // both ends computed from the same box. Cutting every term to these in
    // one pass leaves the box of those solutions, which no second pass can
    // cut. Only a cut that lands past its target (on a hole, or a value a
    // view cannot take) shrinks the box below that, so only then does the
    // other kind of cut go round again. The variables are distinct (post
    // sees to that), so nothing else moves the bounds during the pass.
    // (A pass of upper cuts then one of lower cuts, each reading the sums
    // the other left, reached the same box with a second round in nearly
    // half the runs: Golomb 10, 9 % more instructions in all.)
    PropStatus propagate(S& s) override {
        for (;;) {
            std::array<std::int64_t, static_cast<std::size_t>(n)> lo, hi; // of each term, not view
            std::int64_t least = 0, most = 0;
            each([&]<int K>() PROPANE_INLINE {
                lo[K] = low<K>(s);
                hi[K] = high<K>(s);
                least += lo[K];
                most += hi[K];
                return true;
            });
            if ((has_upper_ && least > k_) || (has_lower_ && most < k_)) return PropStatus::failed;
            // How far each term may rise above its least value and fall below
            // its greatest.
            const std::int64_t rise = has_upper_ ? k_ - least : 0, fall = has_lower_ ? most - k_ : 0;
            // A term cut at both ends is cut in one update.
            bool again = false;
            const bool ok = each([&]<int K>() PROPANE_INLINE {
                if constexpr (has_upper_ && has_lower_) {
                    if (hi[K] - lo[K] > rise && hi[K] - lo[K] > fall) {
                        const std::int64_t cap = lo[K] + rise, floor = hi[K] - fall;
                        if (set_term<K>(s, floor, cap) == Change::failed) return false;
                        again |= (static_cast<unsigned>(low<K>(s) != floor) | static_cast<unsigned>(high<K>(s) != cap)) != 0;
                        return true;
                    }
                }
                if (has_upper_ && hi[K] - lo[K] > rise) {
                    const std::int64_t cap = lo[K] + rise;
                    if (top_of<K>(s, cap) == Change::failed) return false;
                    if (has_lower_) again |= high<K>(s) != cap;
                }
                if (has_lower_ && hi[K] - lo[K] > fall) {
                    const std::int64_t floor = hi[K] - fall;
                    if (bottom_of<K>(s, floor) == Change::failed) return false;
                    if (has_upper_) again |= low<K>(s) != floor;
                }
                return true;
            });
            if (!ok) return PropStatus::failed;
            if (!again) return PropStatus::fix;
        }
    }

private:
    // f<K>() for each term K in order, unrolled, while it returns true.
    template <class F>
    PROPANE_INLINE static bool each(F&& f) {
        return [&]<int... K>(std::integer_sequence<int, K...>) PROPANE_INLINE {
            return (f.template operator()<K>() && ...);
        }(std::make_integer_sequence<int, n>{});
    }

    // Term K's greatest value down to b, its least up to a, or both: the
    // view's bound, or for a -1 term the opposite one, negated. A cut lies
    // within the term's range, so within int.
    template <int K>
    PROPANE_INLINE Change top_of(S& s, std::int64_t b) const {
        if constexpr (K < P) return x_[K].remove_above(s, static_cast<int>(b));
        else return x_[K].remove_below(s, static_cast<int>(-b));
    }
    template <int K>
    PROPANE_INLINE Change bottom_of(S& s, std::int64_t a) const {
        if constexpr (K < P) return x_[K].remove_below(s, static_cast<int>(a));
        else return x_[K].remove_above(s, static_cast<int>(-a));
    }
    template <int K>
    Change set_term(S& s, std::int64_t a, std::int64_t b) const {
        if constexpr (K < P) return keep_between(x_[K], s, static_cast<int>(a), static_cast<int>(b));
        else return keep_between(x_[K], s, static_cast<int>(-b), static_cast<int>(-a));
    }

    // The least and greatest values of term K: its view's, or for a -1
    // term their negations swapped.
    template <int K>
    std::int64_t low(const S& s) const noexcept {
        if constexpr (K < P) return x_[K].min(s);
        else return -std::int64_t{x_[K].max(s)};
    }
    template <int K>
    std::int64_t high(const S& s) const noexcept {
        if constexpr (K < P) return x_[K].max(s);
        else return -std::int64_t{x_[K].min(s)};
    }

    std::array<kept_t<View>, static_cast<std::size_t>(n)> x_;
    std::int64_t k_;
};

// sum != c on the last open term: once one term is left open, the value
// that would make the sum c leaves it; with none open, a sum of c fails.
// After a removal the last term is fixed to a value that keeps the sum off
// c, so the run that follows would find nothing: a fixpoint.
template <class S, class View>
PROPANE_INLINE inline PropStatus not_equal(S& s, SumTerms<View>& terms, std::int64_t c) {
    const std::int64_t rest = c - terms.settle(s);
    const auto open = terms.open(s);
    if (open.empty()) return rest == 0 ? PropStatus::failed : PropStatus::fix;
    if (open.size() == 1 && rest % open[0].a == 0) {
        const std::int64_t v = rest / open[0].a;
        if (v >= int_min && v <= int_max && open[0].v.remove(s, static_cast<int>(v)) == Change::failed)
            return PropStatus::failed;
    }
    return PropStatus::fix;
}

template <class S, class View>
class LinearNe : public PropagatorBase<S, LinearNe<S, View>> {
public:
    LinearNe(S& s, std::vector<Term<View>> terms, std::int64_t c) : terms_(s, std::move(terms)), c_(c) {}

    PropStatus propagate(S& s) override { return not_equal(s, terms_, c_); }

private:
    SumTerms<View> terms_;
    std::int64_t c_;
};

// Which LinearUnit shapes a post of a sum prepares for: those of two and
// three terms (linear(), whose terms are counted at run time), of three
// alone (a sum of three operands, expr.hpp's LinearSum<3>), or none. Each
// shape is a propagator class for every file that posts such a sum.
enum class UnitShapes : std::uint8_t { none, three, two_and_three };

// A LinearUnit for two or three terms of coefficient +-1 over distinct
// variables: +1 terms first, and the whole constraint negated (bounds
// swapped, k negated) when -1 terms are the majority, so that P >= M.
// RelOf: the relation (rel.hpp's may_be), never ne.
template <UnitShapes U, class S, class View, class RelOf>
std::unique_ptr<Propagator<S>> linear_unit(const std::vector<Term<View>>& terms, bool lower, bool upper,
                                           std::int64_t k) {
    const auto minus = std::ranges::count_if(terms, [](const Term<View>& t) { return t.a < 0; });
    const bool flip = 2 * static_cast<std::size_t>(minus) > terms.size();
    std::vector<View> views, rest;
    for (const Term<View>& t : terms) ((t.a > 0) != flip ? views : rest).push_back(t.v);
    const std::size_t plus = views.size();
    views.insert(views.end(), rest.begin(), rest.end());
    const bool has_lower = flip ? upper : lower, has_upper = flip ? lower : upper;
    constexpr bool one_sided =
        may_be<RelOf>(Rel::lt) || may_be<RelOf>(Rel::le) || may_be<RelOf>(Rel::gt) || may_be<RelOf>(Rel::ge);
    const auto make = [&]<int P, int M>() -> std::unique_ptr<Propagator<S>> {
        const std::int64_t c = flip ? -k : k;
        if constexpr (!one_sided) {
            return std::make_unique<LinearUnit<S, View, P, M, true, true>>(views, c);
        } else {
            if constexpr (may_be<RelOf>(Rel::eq))
                if (has_lower && has_upper) return std::make_unique<LinearUnit<S, View, P, M, true, true>>(views, c);
            if (has_lower) return std::make_unique<LinearUnit<S, View, P, M, true, false>>(views, c);
            return std::make_unique<LinearUnit<S, View, P, M, false, true>>(views, c);
        }
    };
    if constexpr (U == UnitShapes::two_and_three)
        if (terms.size() == 2) return plus == 2 ? make.template operator()<2, 0>() : make.template operator()<1, 1>();
    return plus == 3 ? make.template operator()<3, 0>() : make.template operator()<2, 1>();
}

// Below this, sums of terms, the constant and one more never overflow
// int64, whatever order they are added in (see the header comment).
inline constexpr std::int64_t linear_limit = std::int64_t{1} << 62;

inline void check_sizes(std::size_t coeffs, std::size_t views) {
    if (coeffs != views)
        throw model_error(formatted("linear: %zu coefficients for %zu views; each view needs one coefficient",
                                    coeffs, views));
}

// The terms of sum(coeffs[i] * views[i]) r c with a nonzero coefficient,
// after refusing (model_error) a constant or coefficient beyond +-2^62 and
// views whose sum could reach it (see the header comment).
template <class View>
std::vector<Term<View>> linear_terms(const std::vector<std::int64_t>& coeffs, const std::vector<View>& views,
                                     std::int64_t c) {
    std::vector<Term<View>> terms;
    if (c <= -linear_limit || c >= linear_limit)
        throw model_error(formatted("linear: the constant %lld is beyond +-2^62", static_cast<long long>(c)));
    std::int64_t reach = (c < 0 ? -c : c) + 1;
    for (std::size_t i = 0; i < views.size(); ++i) {
        const std::int64_t a = coeffs[i];
        if (a == 0) continue;
        if (a <= -linear_limit || a >= linear_limit)
            throw model_error(formatted("linear: coefficient %lld (term %zu) is beyond +-2^62",
                                        static_cast<long long>(a), i));
        const std::int64_t span = std::max(std::abs(std::int64_t{views[i].lo()}), std::abs(std::int64_t{views[i].hi()}));
        // Both factors below 2^62 and 2^31 + 1; compared by division, so the
        // test itself cannot overflow.
        if (span != 0 && (a < 0 ? -a : a) > (linear_limit - reach) / span)
            throw model_error(formatted("linear: the sum could overflow 64-bit arithmetic: with term %zu "
                                        "(coefficient %lld, view range %d..%d) the sum of |coefficient| * "
                                        "|value| and |c| reaches 2^62",
                                        i, static_cast<long long>(a), views[i].lo(), views[i].hi()));
        reach += (a < 0 ? -a : a) * span;
        terms.push_back({views[i], a});
    }
    return terms;
}

} // namespace detail

// The constraint sum(coeffs[i] * views[i]) r c, as linear() returns it.
template <class View>
struct Linear {
    std::vector<std::int64_t> coeffs;
    std::vector<View> views;
    Rel r = Rel::eq;
    std::int64_t c = 0;

    // Defined below, out of the class and not inline, so that an explicit
    // instantiation declaration (propane/compiled.hpp) keeps a model's file
    // from instantiating the propagators it chooses from.
    template <class S>
    void post(S& s) const;

};

namespace detail {

// sum(terms) r c, the terms linear_terms()'s: the propagator for r (a Rel,
// or one relation: rel.hpp's may_be) and the terms' count, U saying which
// unit-coefficient shapes are prepared for. Only the propagators r can
// need are instantiated.
template <UnitShapes U, class S, class View, class RelOf>
void post_terms(S& s, const std::vector<Term<View>>& terms, RelOf rel, std::int64_t c) {
    const Rel r = rel;
    std::unique_ptr<Propagator<S>> p;
    const std::int64_t k = c + (r == Rel::lt ? -1 : r == Rel::gt ? 1 : 0);
    const bool upper = r == Rel::eq || r == Rel::le || r == Rel::lt;
    const bool lower = r == Rel::eq || r == Rel::ge || r == Rel::gt;
    constexpr bool sums = may_be<RelOf>(Rel::eq) || may_be<RelOf>(Rel::lt) || may_be<RelOf>(Rel::le) ||
                          may_be<RelOf>(Rel::gt) || may_be<RelOf>(Rel::ge);
    if (r == Rel::ne) {
        if constexpr (may_be<RelOf>(Rel::ne)) p = std::make_unique<LinearNe<S, View>>(s, terms, c);
    } else if constexpr (sums) {
        if constexpr (U != UnitShapes::none) {
            const bool count = terms.size() == 3 || (U == UnitShapes::two_and_three && terms.size() == 2);
            if (count && std::ranges::all_of(terms, [](const Term<View>& t) { return t.a == 1 || t.a == -1; }) &&
                !shares_variable(terms))
                p = linear_unit<U, S, View, RelOf>(terms, lower, upper, k);
        }
        if (!p)
            p = std::make_unique<LinearBounds<S, View>>(s, terms, lower ? std::optional{k} : std::nullopt,
                                                        upper ? std::optional{k} : std::nullopt);
    }
    const int id = s.add_propagator(std::move(p));
    // A sum bounded on one side reads one end of each term: its least
    // value under an upper bound, its greatest under a lower one.
    for (const Term<View>& t : terms) {
        const bool least = (t.a > 0) == upper;
        const Event e = r == Rel::ne ? Event::fixed
                        : upper && lower ? Event::bounds
                        : least          ? min_event(t.v)
                                         : max_event(t.v);
        s.subscribe(t.v.var(), id, e);
    }
}

} // namespace detail

template <class View>
template <class S>
void Linear<View>::post(S& s) const {
    // Again here: the struct can be built without linear().
    detail::check_rel(r, "linear");
    detail::check_sizes(coeffs.size(), views.size());
    for (const View& v : views) s.check(v.var(), "linear");
    detail::post_terms<detail::UnitShapes::two_and_three>(s, detail::linear_terms(coeffs, views, c), r, c);
}

namespace detail {

template <class View>
Linear<View> make_linear(const Numbers& coeffs, std::vector<View> views, Rel r, const Number& c) {
    check_rel(r, "linear");
    check_sizes(coeffs.size(), views.size());
    return {coeffs.as_int64s("linear", "coeffs"), std::move(views), r, c.get_int64("linear", "the constant")};
}

inline Numbers ones(std::size_t n) { return std::vector<int>(n, 1); }

} // namespace detail

// The views in any of the forms arguments.hpp describes, the coefficients
// and c of any integral type.
template <detail::ViewRange R>
Linear<std::ranges::range_value_t<R>> linear(const detail::Numbers& coeffs, const R& views, Rel r, detail::Number c) {
    return detail::make_linear(coeffs, detail::views_of(views), r, c);
}
template <detail::ViewHandle V>
Linear<V> linear(const detail::Numbers& coeffs, std::initializer_list<V> views, Rel r, detail::Number c) {
    return detail::make_linear(coeffs, detail::views_of(views), r, c);
}
inline Linear<AffineView> linear(const detail::Numbers& coeffs, std::initializer_list<AffineView> views, Rel r,
                          detail::Number c) {
    return detail::make_linear(coeffs, detail::views_of(views), r, c);
}

// The plain sum: every coefficient 1.
template <detail::ViewRange R>
Linear<std::ranges::range_value_t<R>> linear(const R& views, Rel r, detail::Number c) {
    auto vs = detail::views_of(views);
    const detail::Numbers ones = detail::ones(vs.size());
    return detail::make_linear(ones, std::move(vs), r, c);
}
template <detail::ViewHandle V>
Linear<V> linear(std::initializer_list<V> views, Rel r, detail::Number c) {
    return detail::make_linear(detail::ones(views.size()), detail::views_of(views), r, c);
}
inline Linear<AffineView> linear(std::initializer_list<AffineView> views, Rel r, detail::Number c) {
    return detail::make_linear(detail::ones(views.size()), detail::views_of(views), r, c);
}

} // namespace propane

#endif
