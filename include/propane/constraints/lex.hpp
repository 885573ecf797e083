#ifndef PROPANE_CONSTRAINTS_LEX_HPP
#define PROPANE_CONSTRAINTS_LEX_HPP

// lex_lesseq(xs, ys): xs is lexicographically at most ys; lex_less(xs,
// ys): strictly less. xs and ys are ranges of views of one type (AffineView
// holds any mix) or braced lists, of the same length; they may hold
// expressions (x + y, abs(x - y): each gets its view or auxiliary variable
// when posted, arguments.hpp's Listing).
//
// Strength: domain consistent, for views on distinct variables. Let α be
// the first position whose pair is not fixed to one value. Everything
// before α is equal, so the order is decided from α on, and only the pair
// at α can lose values: if x_α < y_α can hold, that settles the order and
// every value after α has a support. So x_α keeps v when some y_α value w
// has v < w, or v == w with the rest still able to come out in order
// (least xs against greatest ys from α + 1 on, compared lexicographically;
// an empty rest is in order for lex_lesseq, not for lex_less); y_α
// symmetrically. When that forces x_α == y_α, α moves on. (Frisch, Hnich,
// Kiziltan, Miguel and Walsh's GAC algorithm prunes the same way, keeping
// α and its partner index β between runs; here each run finds them again,
// O(n).) Views that share a variable are read as independent: sound.

#include <concepts>
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <ranges>
#include <string>
#include <utility>
#include <vector>

#include "../engine/error.hpp"
#include "../engine/propagator.hpp"
#include "../engine/view.hpp"
#include "arguments.hpp"

namespace propane {

namespace detail {

template <class S, class X>
class Lex : public PropagatorBase<S, Lex<S, X>> {
public:
    Lex(const std::vector<X>& xs, const std::vector<X>& ys, bool strict)
        : xs_(kept(xs)), ys_(kept(ys)), strict_(strict) {}

    PropStatus propagate(S& s) override {
        const std::size_t n = xs_.size();
        std::size_t a = 0;
        for (;;) {
            for (; a < n && xs_[a].fixed(s) && ys_[a].fixed(s) && xs_[a].value(s) == ys_[a].value(s); ++a) {}
            if (a == n) return strict_ ? PropStatus::failed : PropStatus::subsumed;
            const auto& x = xs_[a];
            const auto& y = ys_[a];
            if (x.max(s) < y.min(s)) return PropStatus::subsumed;
            const int slack = rest_in_order(s, a + 1) ? 0 : 1;
            const Change cx = x.remove_above(s, y.max(s) - slack);
            if (cx == Change::failed) return PropStatus::failed;
            const Change cy = y.remove_below(s, x.min(s) + slack);
            if (cy == Change::failed) return PropStatus::failed;
            // Both fixed: to one value (α moves on) or in order (entailed,
            // found next time round). Else x_α < y_α can still hold, and
            // the pruning is complete, unless it changed a variable that a
            // later position shares: then the rest reads otherwise, and it
            // goes round again.
            if (!(x.fixed(s) && y.fixed(s)) && cx == Change::none && cy == Change::none) return PropStatus::fix;
        }
    }

private:
    // Whether xs[from..] <= ys[from..] (< for lex_less) can hold, each
    // position free of the others: the least xs against the greatest ys.
    bool rest_in_order(const S& s, std::size_t from) const {
        for (std::size_t i = from; i < xs_.size(); ++i) {
            const int lo = xs_[i].min(s), hi = ys_[i].max(s);
            if (lo != hi) return lo < hi;
        }
        return !strict_;
    }

    std::vector<kept_t<X>> xs_, ys_;
    bool strict_;
};

inline void check_lex_lengths(std::size_t xs, std::size_t ys, bool strict) {
    if (xs != ys)
        throw model_error(std::string(strict ? "lex_less" : "lex_lesseq") + ": xs has " + std::to_string(xs) +
                          " views, ys " + std::to_string(ys));
}

} // namespace detail

// The constraint, as lex_lesseq() and lex_less() return it.
template <class X>
    requires std::convertible_to<X, AffineView>
struct LexConstraint {
    std::vector<X> xs;
    std::vector<X> ys;
    bool strict = false;

    template <class S>
    void post(S& s) const {
        const char* who = strict ? "lex_less" : "lex_lesseq";
        detail::check_lex_lengths(xs.size(), ys.size(), strict);
        for (const X& x : xs) s.check(x.var(), who);
        for (const X& y : ys) s.check(y.var(), who);
        const int id = s.add_propagator(std::make_unique<detail::Lex<S, X>>(xs, ys, strict));
        // Only bounds are read; a fixing moves α.
        for (const X& x : xs) s.subscribe(x.var(), id, Event::bounds);
        for (const X& y : ys) s.subscribe(y.var(), id, Event::bounds);
    }
};

namespace detail {

template <class X>
LexConstraint<X> make_lex(std::vector<X> xs, std::vector<X> ys, bool strict) {
    check_lex_lengths(xs.size(), ys.size(), strict);
    return {std::move(xs), std::move(ys), strict};
}

} // namespace detail

// xs and ys as ranges of one view type, or braced lists. Two ranges of
// different view types meet as AffineView.
template <detail::ViewRange R1, detail::ViewRange R2>
    requires std::convertible_to<std::ranges::range_value_t<R1>, AffineView> &&
             std::convertible_to<std::ranges::range_value_t<R2>, AffineView>
auto lex_lesseq(const R1& xs, const R2& ys) {
    using X = detail::common_view_t<R1, R2>;
    return detail::make_lex(detail::views_of<X>(xs), detail::views_of<X>(ys), false);
}
template <detail::ViewRange R1, detail::ViewRange R2>
    requires std::convertible_to<std::ranges::range_value_t<R1>, AffineView> &&
             std::convertible_to<std::ranges::range_value_t<R2>, AffineView>
auto lex_less(const R1& xs, const R2& ys) {
    using X = detail::common_view_t<R1, R2>;
    return detail::make_lex(detail::views_of<X>(xs), detail::views_of<X>(ys), true);
}
inline LexConstraint<AffineView> lex_lesseq(std::initializer_list<AffineView> xs, std::initializer_list<AffineView> ys) {
    return detail::make_lex(detail::views_of(xs), detail::views_of(ys), false);
}
inline LexConstraint<AffineView> lex_less(std::initializer_list<AffineView> xs, std::initializer_list<AffineView> ys) {
    return detail::make_lex(detail::views_of(xs), detail::views_of(ys), true);
}

// lex_lesseq or lex_less over expressions, as they return it when xs or ys
// holds an Expr (or when a range meets a braced list): posted as the
// LexConstraint over AffineView that the braced-list form posts,
// auxiliary variables first.
struct LexOfExprs {
    detail::Listing xs;
    detail::Listing ys;
    bool strict = false;

    template <class S>
    void post(S& s) const {
        const char* who = strict ? "lex_less" : "lex_lesseq";
        LexConstraint<AffineView>{xs.views(s, who), ys.views(s, who), strict}.post(s);
    }
};

// xs and ys as braced lists or ranges of views and expressions, {x + y,
// y * z, x}; lists or ranges of views alone take the overloads above.
inline LexOfExprs lex_lesseq(detail::Listing xs, detail::Listing ys) {
    detail::check_lex_lengths(xs.size(), ys.size(), false);
    return {std::move(xs), std::move(ys), false};
}
inline LexOfExprs lex_less(detail::Listing xs, detail::Listing ys) {
    detail::check_lex_lengths(xs.size(), ys.size(), true);
    return {std::move(xs), std::move(ys), true};
}

} // namespace propane

#endif
