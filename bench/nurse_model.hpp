#ifndef PROPANE_BENCH_NURSE_MODEL_HPP
#define PROPANE_BENCH_NURSE_MODEL_HPP

// A textbook nurse roster, the model nurse_compare builds in propane and in
// Gecode (and bench/fzn/models/nurse.mzn in MiniZinc): x[n][d] is nurse n's
// shift on day d, 0 off, 1 day, 2 evening, 3 night.
//   - each nurse's row is a word of one automaton (regular): no day or
//     evening shift right after a night, no day shift right after an
//     evening, at most `max_nights` nights in a row, at most `max_work`
//     working days in a row (so, with max_work <= 6, a day off in every 7);
//   - each day, exactly demand[d][s - 1] nurses work shift s, s = 1, 2, 3
//     (count, ==);
//   - each nurse has at least `min_off` days off (count, >=);
//   - search: the variables day by day, nurse by nurse within a day
//     (input order), smallest shift first; the first solution.
// Every propagator is domain consistent in both engines (regular; count
// with a fixed value and a fixed count), so their common fixpoint is
// unique and the two search the same tree.

#include <algorithm>
#include <array>
#include <cstddef>
#include <vector>

#include <propane/propane.hpp>

namespace nurse {

struct Instance {
    int nurses = 0;
    int days = 0;
    int max_work = 5;
    int max_nights = 3;
    int min_off = 0;
    std::vector<std::array<int, 3>> demand; // per day: day, evening, night
};

// The instance nurse_compare runs by default and nurse.dzn holds: 11
// nurses over four weeks, at most 4 working days in a row, at least 11 days
// off each; two day, two evening and one night shift on weekdays, one
// fewer day shift at the weekend. Its first solution is found after some
// 14,000 failures: hard enough to time, not so hard as the instances next
// to it, whose first solutions lie behind millions.
inline Instance standard(int nurses = 11, int days = 28, int max_work = 4, int min_off = 11) {
    Instance in;
    in.nurses = nurses;
    in.days = days;
    in.max_work = max_work;
    in.min_off = min_off;
    for (int d = 0; d < days; ++d) in.demand.push_back(d % 7 >= 5 ? std::array<int, 3>{1, 2, 1} : std::array<int, 3>{2, 2, 1});
    return in;
}

// The rules of one row as an automaton. State 0 is "off" (and the start);
// a working state says how many days in a row the nurse has worked (1 ..
// max_work), the shift of the last one, and, after a night, how many
// nights in a row. Every state is final.
inline propane::Dfa rules(const Instance& in) {
    struct Key {
        int work, shift, nights; // shift 1..3; nights > 0 only when shift is 3
    };
    std::vector<Key> keys{{0, 0, 0}};
    for (int c = 1; c <= in.max_work; ++c) {
        keys.push_back({c, 1, 0});
        keys.push_back({c, 2, 0});
        for (int r = 1; r <= std::min(c, in.max_nights); ++r) keys.push_back({c, 3, r});
    }
    const auto find = [&](Key k) {
        for (std::size_t i = 0; i < keys.size(); ++i)
            if (keys[i].work == k.work && keys[i].shift == k.shift && keys[i].nights == k.nights) return static_cast<int>(i);
        return -1;
    };
    propane::Dfa dfa{.states = static_cast<int>(keys.size()), .start = 0, .finals = {}, .transitions = {}};
    for (std::size_t q = 0; q < keys.size(); ++q) {
        const Key k = keys[q];
        const int from = static_cast<int>(q);
        dfa.finals.push_back(from);
        dfa.transitions.push_back({from, 0, 0});
        if (k.work == in.max_work) continue;
        if (k.shift != 2 && k.shift != 3) dfa.transitions.push_back({from, 1, find({k.work + 1, 1, 0})});
        if (k.shift != 3) dfa.transitions.push_back({from, 2, find({k.work + 1, 2, 0})});
        if (k.shift != 3 || k.nights < in.max_nights)
            dfa.transitions.push_back({from, 3, find({k.work + 1, 3, k.shift == 3 ? k.nights + 1 : 1})});
    }
    return dfa;
}

using Store = propane::Store<propane::BitDomain<1>>;

struct Model {
    Store store;
    std::vector<propane::IntVar> order; // the branching order: day by day
};

inline Model make_model(const Instance& in) {
    Model m;
    const auto n = static_cast<std::size_t>(in.nurses), days = static_cast<std::size_t>(in.days);
    std::vector<std::vector<propane::IntVar>> x(n);
    for (auto& row : x) row = m.store.int_vars(in.days, 0, 3);
    const propane::Dfa dfa = rules(in);
    for (const auto& row : x) m.store.post(propane::regular(row, dfa));
    for (std::size_t d = 0; d < days; ++d) {
        std::vector<propane::IntVar> column;
        for (std::size_t k = 0; k < n; ++k) column.push_back(x[k][d]);
        for (int s = 1; s <= 3; ++s)
            m.store.post(propane::count(column, s, propane::Rel::eq, in.demand[d][static_cast<std::size_t>(s - 1)]));
        m.order.insert(m.order.end(), column.begin(), column.end());
    }
    for (const auto& row : x) m.store.post(propane::count(row, 0, propane::Rel::ge, in.min_off));
    return m;
}

// The first solution (in `roster`, day by day as `order`), and the search's
// statistics.
inline propane::SearchStats solve(const Instance& in, std::vector<int>& roster) {
    Model m = make_model(in);
    roster.clear();
    return propane::solve(m.store, m.order, propane::Strategy{propane::first_unbound, propane::min_value},
                          [&](const auto& sol) {
                              for (std::size_t i = 0; i < m.order.size(); ++i) roster.push_back(sol[i]);
                              return propane::stop;
                          });
}

} // namespace nurse

#endif
