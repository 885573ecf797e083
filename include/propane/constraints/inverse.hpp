#ifndef PROPANE_CONSTRAINTS_INVERSE_HPP
#define PROPANE_CONSTRAINTS_INVERSE_HPP

// inverse(f, g): f[i] == j exactly when g[j] == i, for i, j in 0 .. n-1;
// so f and g are permutations, each the other's inverse. f and g are
// ranges of views of one type (AffineView holds any mix; MiniZinc's
// 1-based arrays are f[i] - 1) or braced lists, of the same length.
//
// Posted as f[i] and g[j] within 0 .. n-1, a channel (j stays in f[i]
// while i is in g[j], and the other way) and all_different(f, domain).
// Strength: domain consistent, for views on distinct variables. Once the
// channel is at its fixpoint, f and g describe one bipartite graph (edge
// i-j when f[i] may be j), whose perfect matchings are the solutions;
// all_different at domain strength removes from f every edge on no
// perfect matching (Régin), and the channel removes the same from g.
// The channel runs on the views that changed (tagged subscriptions),
// O(n) each. Views that share a variable are sound.

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
#include "all_different.hpp"
#include "arguments.hpp"

namespace propane {

namespace detail {

// Tags 0 .. n-1 are f's views, n .. 2n-1 g's.
template <class S, class X>
class Channel : public PropagatorBase<S, Channel<S, X>> {
public:
    Channel(const std::vector<X>& f, const std::vector<X>& g) : f_(kept(f)), g_(kept(g)) {}

    PropStatus propagate(S& s) override {
        const int n = static_cast<int>(f_.size());
        std::vector<int>& pending = this->pending();
        // Updates below append tags to pending while it is read.
        while (!pending.empty()) {
            const int tag = pending.back();
            pending.pop_back();
            const bool in_f = tag < n;
            const auto& x = in_f ? f_[u(tag)] : g_[u(tag - n)];
            const std::vector<kept_t<X>>& other = in_f ? g_ : f_;
            const int i = in_f ? tag : tag - n;
            for (int j = 0; j < n; ++j)
                if (!x.contains(s, j) && other[u(j)].contains(s, i) &&
                    other[u(j)].remove(s, i) == Change::failed) {
                    pending.clear();
                    return PropStatus::failed;
                }
        }
        return PropStatus::fix;
    }

private:
    static std::size_t u(int i) noexcept { return static_cast<std::size_t>(i); }

    std::vector<kept_t<X>> f_, g_;
};

inline void check_inverse_lengths(std::size_t f, std::size_t g) {
    if (f != g) throw model_error("inverse: f has " + std::to_string(f) + " views, g " + std::to_string(g));
}

} // namespace detail

// The constraint, as inverse() returns it.
template <class X>
    requires std::convertible_to<X, AffineView>
struct InverseConstraint {
    std::vector<X> f;
    std::vector<X> g;

    template <class S>
    void post(S& s) const {
        detail::check_inverse_lengths(f.size(), g.size());
        for (const X& x : f) s.check(x.var(), "inverse");
        for (const X& x : g) s.check(x.var(), "inverse");
        const int n = static_cast<int>(f.size());
        for (const std::vector<X>* side : {&f, &g})
            for (const X& x : *side)
                if (x.remove_below(s, 0) == Change::failed || x.remove_above(s, n - 1) == Change::failed) return;
        auto channel = std::make_unique<detail::Channel<S, X>>(f, g);
        for (int k = 2 * n - 1; k >= 0; --k) channel->pending().push_back(k);
        const int id = s.add_propagator(std::move(channel));
        for (int i = 0; i < n; ++i) {
            s.subscribe(f[static_cast<std::size_t>(i)].var(), id, Event::domain, i);
            s.subscribe(g[static_cast<std::size_t>(i)].var(), id, Event::domain, n + i);
        }
        all_different(f, domain).post(s);
    }
};

namespace detail {

template <class X>
InverseConstraint<X> make_inverse(std::vector<X> f, std::vector<X> g) {
    check_inverse_lengths(f.size(), g.size());
    return {std::move(f), std::move(g)};
}

} // namespace detail

// f and g as ranges of one view type, or braced lists. Two ranges of
// different view types meet as AffineView.
template <detail::ViewRange R1, detail::ViewRange R2>
    requires std::convertible_to<std::ranges::range_value_t<R1>, AffineView> &&
             std::convertible_to<std::ranges::range_value_t<R2>, AffineView>
auto inverse(const R1& f, const R2& g) {
    using X = detail::common_view_t<R1, R2>;
    return detail::make_inverse(detail::views_of<X>(f), detail::views_of<X>(g));
}
inline InverseConstraint<AffineView> inverse(std::initializer_list<AffineView> f, std::initializer_list<AffineView> g) {
    return detail::make_inverse(detail::views_of(f), detail::views_of(g));
}

} // namespace propane

#endif
