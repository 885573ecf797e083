#ifndef PROPANE_EXAMPLES_NQUEENS_MODEL_HPP
#define PROPANE_EXAMPLES_NQUEENS_MODEL_HPP

// The N-queens model of the OR-Tools constraint-programming guide, shared by
// the nqueens example, the tests and the benchmarks so all three run the
// same model: q[c] is the row of the queen in column c, and AllDifferent
// holds on q, on q[c] + c and on q[c] - c (rows, and both diagonals).

#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include <propane/propane.hpp>

namespace nqueens {

template <class Domain>
struct Model {
    propane::Store<Domain> store;
    std::vector<propane::IntVar> q;

    Model(int n, propane::Consistency strength) : q(store.int_vars(n, 0, n - 1)) {
        std::vector<propane::OffsetView> up, down;
        up.reserve(q.size());
        down.reserve(q.size());
        for (int c = 0; c < n; ++c) {
            up.push_back(q[static_cast<std::size_t>(c)] + c);
            down.push_back(q[static_cast<std::size_t>(c)] - c);
        }
        store.post(propane::all_different(q, strength));
        store.post(propane::all_different(up, strength));
        store.post(propane::all_different(down, strength));
    }
};

// The guide's search: first unbound column, lowest row first.
inline constexpr propane::Strategy guide_strategy{.var = propane::first_unbound, .val = propane::min_value};

// Calls f(std::type_identity<Domain>{}) with the narrowest domain type that
// holds n values: one word up to 64, two up to 128, four up to 256, then the
// run-time sized form.
template <class F>
decltype(auto) with_domain_for(int n, F&& f) {
    if (n <= 64) return std::forward<F>(f)(std::type_identity<propane::BitDomain<1>>{});
    if (n <= 128) return std::forward<F>(f)(std::type_identity<propane::BitDomain<2>>{});
    if (n <= 256) return std::forward<F>(f)(std::type_identity<propane::BitDomain<4>>{});
    return std::forward<F>(f)(std::type_identity<propane::BitDomain<propane::dynamic>>{});
}

// Counts all solutions with the guide's strategy.
template <class Domain>
propane::SearchStats count(int n, propane::Consistency strength) {
    Model<Domain> m(n, strength);
    return propane::solve(m.store, m.q, guide_strategy, [](const auto&) { return propane::next; });
}

} // namespace nqueens

#endif
