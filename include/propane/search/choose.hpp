#ifndef PROPANE_SEARCH_CHOOSE_HPP
#define PROPANE_SEARCH_CHOOSE_HPP

// A strategy applied at a node (strategy.hpp): which view to branch on and
// which decision to take on it. Search (search.hpp) holds one; its choices
// are the search's, and Search::decide() hands them to the split
// (split.hpp), so the parallel searches make them too. A built-in choice is
// a switch on an enum; a callable is called, and what it returns checked.

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "../engine/error.hpp"
#include "../engine/view.hpp"
#include "strategy.hpp"

namespace propane::detail {

// The orders best() compares by (std::less would need <functional>).
struct Below {
    template <class T>
    constexpr bool operator()(const T& a, const T& b) const noexcept {
        return a < b;
    }
};
struct Above {
    template <class T>
    constexpr bool operator()(const T& a, const T& b) const noexcept {
        return b < a;
    }
};

template <class Store, class View, class VarSel, class ValSel>
class Chooser {
public:
    using strategy_type = BasicStrategy<VarSel, ValSel>;

    explicit Chooser(strategy_type strategy) : strategy_(std::move(strategy)), rng_{strategy_.seed} {}

    const strategy_type& strategy() const noexcept { return strategy_; }

    // At the start of a search: dom_wdeg weighs the failures from here on.
    void start(const Store& s) {
        if constexpr (std::is_same_v<VarSel, VarChoice>) {
            if (strategy_.var == dom_wdeg) {
                failures0_.resize(static_cast<std::size_t>(s.num_propagators()));
                for (int p = 0; p < s.num_propagators(); ++p)
                    failures0_[static_cast<std::size_t>(p)] = s.failures_of(p);
            }
        }
    }

    // Position in `vars` of the view to branch on, or -1 when every view is
    // fixed. No view before `first` is open: it moves past the fixed ones.
    // A callable that returns anything but an open view's position is a
    // model_error.
    int var(const Store& s, const std::vector<View>& vars, int& first) {
        const int n = static_cast<int>(vars.size());
        while (first < n && at(vars, first).fixed(s)) ++first;
        if (first == n) return -1;
        if constexpr (std::is_same_v<VarSel, VarChoice>) {
            switch (strategy_.var) {
            case VarChoice::first_unbound: return first;
            case VarChoice::smallest_domain:
                return best(s, vars, first, [&](const View& x) { return x.size(s); }, detail::Below{});
            case VarChoice::largest_domain:
                return best(s, vars, first, [&](const View& x) { return x.size(s); }, detail::Above{});
            case VarChoice::smallest_min:
                return best(s, vars, first, [&](const View& x) { return x.min(s); }, detail::Below{});
            case VarChoice::dom_wdeg:
                return best(s, vars, first, [&](const View& x) { return dom_over_wdeg(s, x); }, detail::Below{});
            }
            return first;
        } else {
            const int i = strategy_.var(s, std::span<const View>(vars));
            if (i < 0 || i >= n || at(vars, i).fixed(s))
                throw model_error(detail::formatted("variable chooser returned position %d, which is not an "
                                                    "unfixed view of the search",
                                                    i));
            return i;
        }
    }

    // The decision on x, an open view. A callable's that leaves a side of
    // the branch empty, or is of no known kind, is a model_error.
    Decision value(const Store& s, const View& x) {
        if constexpr (std::is_same_v<ValSel, ValChoice>) {
            switch (strategy_.val) {
            case ValChoice::min_value: return {Branch::assign, x.min(s)};
            case ValChoice::max_value: return {Branch::assign, x.max(s)};
            case ValChoice::middle_value: return {Branch::assign, nth_value(s, x, (x.size(s) - 1) / 2)};
            case ValChoice::split_value:
                return {Branch::split, static_cast<int>(floor_div(std::int64_t{x.min(s)} + x.max(s), 2))};
            case ValChoice::random_value:
                return {Branch::assign, nth_value(s, x, static_cast<unsigned>(rng_() % x.size(s)))};
            }
            return {Branch::assign, x.min(s)};
        } else {
            using R = std::invoke_result_t<ValSel&, const Store&, const View&>;
            Decision d;
            if constexpr (std::same_as<R, Decision>) d = strategy_.val(s, x);
            else d = {Branch::assign, static_cast<int>(strategy_.val(s, x))};
            if (d.branch != Branch::assign && d.branch != Branch::split && d.branch != Branch::split_high)
                throw model_error(detail::formatted("value chooser returned branch kind %u, not a Branch",
                                                    static_cast<unsigned>(d.branch)));
            const bool valid = d.branch == Branch::assign ? x.contains(s, d.value)
                                                          : x.min(s) <= d.value && d.value < x.max(s);
            if (!valid)
                throw model_error(std::string("value chooser returned ") +
                                  (d.branch == Branch::assign ? "x = " : d.branch == Branch::split ? "x <= " : "x > ") +
                                  std::to_string(d.value) +
                                  ", which leaves one side of the branch empty");
            return d;
        }
    }

private:
    static const View& at(const std::vector<View>& vars, int i) noexcept {
        return vars[static_cast<std::size_t>(i)];
    }

    // The open view from `first` on whose key is best under `better`; the
    // first such view on ties.
    template <class Key, class Better>
    static int best(const Store& s, const std::vector<View>& vars, int first, Key key, Better better) {
        const int n = static_cast<int>(vars.size());
        int best_pos = first;
        auto best_key = key(at(vars, first));
        for (int i = first + 1; i < n; ++i) {
            const View& x = at(vars, i);
            if (x.fixed(s)) continue;
            const auto k = key(x);
            if (better(k, best_key)) {
                best_pos = i;
                best_key = k;
            }
        }
        return best_pos;
    }

    // Exact division would need 128 bits; doubles round equal ratios equally,
    // so ties still go to the lowest position.
    double dom_over_wdeg(const Store& s, const View& x) const {
        double w = 0;
        for (int p : s.propagators_of(x.var().index())) {
            const auto pi = static_cast<std::size_t>(p);
            const std::uint64_t base = pi < failures0_.size() ? failures0_[pi] : 0;
            w += 1.0 + static_cast<double>(s.failures_of(p) - base);
        }
        const double size = x.size(s);
        return w > 0 ? size / w : std::numeric_limits<double>::infinity();
    }

    // The k-th smallest value of x: its variable's k-th from whichever end
    // the view maps to x's least.
    static int nth_value(const Store& s, const View& x, unsigned k) {
        const auto& d = s.domain(x.var().index());
        const bool rising = x.of(d.min()) <= x.of(d.max());
        return x.of(d.nth(rising ? k : d.size() - 1 - k));
    }

    strategy_type strategy_;
    SplitMix64 rng_;
    std::vector<std::uint64_t> failures0_; // propagator failures before the search, for dom_wdeg
};

} // namespace propane::detail

#endif
