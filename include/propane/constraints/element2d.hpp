#ifndef PROPANE_CONSTRAINTS_ELEMENT2D_HPP
#define PROPANE_CONSTRAINTS_ELEMENT2D_HPP

// element(matrix, i, j, r): r == matrix[i][j], the matrix a range of rows
// (std::vector<std::vector<int>>, a braced list of braced lists, any range
// of ranges of numbers of any integral type, each within int), every row
// of one length; a ragged or empty one is a model_error naming the row.
// Indices are 0-based, as element()'s (element.hpp): i picks the row, j
// the column, and an index outside the matrix supports nothing. i, j and r
// may be views of any kind; r may be a number of any integral type.
//
// Strength: domain consistent on i, j and r, for views on distinct
// variables: i keeps a row k when some column l left to j has
// matrix[k][l] left to r; j keeps l likewise; r keeps w when some cell of
// a row and a column left holds w. Views that share a variable (the
// diagonal, element(m, i, i, r)) are read as independent positions, which
// is sound, and propagation repeats until nothing changes.
//
// Why a propagator of its own rather than table() over (i, j, r), which
// would be as strong: compact-table keeps a bitset of the n*m cells per
// value of each position, so a 200 x 200 matrix of distinct costs would
// hold 40,000 bitsets of 40,000 bits (200 MB) for r alone; and Gecode's
// way, an auxiliary cell index i*m + j, needs a domain of n*m values,
// past what BitDomain<1> holds from a 9 x 8 matrix on. Here the matrix,
// its distinct values and the cells of each value are stored once (O(n*m)
// ints, shared by the copies of a store), and a run checks each value by a
// residual support (a cell that supported it last time, Lecoutre's
// residues): O(|i| + |j| + |r|) tests while the residues hold, a walk of
// the row, column or value's cells when one is lost; rows are not checked
// when only i changed (their supports lie in j and r), and so on. Residues
// are hints, not state: nothing is trailed, and any residue is correct
// after any backtrack because it is checked before it is used. Where the
// table's bitsets are small it is faster: counting the paths of 4 steps
// through a random 50 x 50 matrix of values 0..99 under a bound on their
// sum (the same tree either way), 0.24 s here against 0.18 s of user time.

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <ranges>
#include <string>
#include <utility>
#include <vector>

#include "../engine/error.hpp"
#include "../engine/propagator.hpp"
#include "../engine/runs.hpp"
#include "../engine/view.hpp"
#include "arguments.hpp"
#include "rel.hpp" // detail::filter_values

namespace propane {

namespace detail::element2d {

// The matrix, read-only once posted and shared by every copy of the
// propagator: the cells row by row, their distinct values in increasing
// order, and per value the cells holding it.
struct Matrix {
    int rows = 0;
    int cols = 0;
    std::vector<int> cells;    // cells[k * cols + l]
    std::vector<int> values;   // distinct, increasing
    std::vector<int> first;    // the cells of values[v]: at[first[v] .. first[v + 1])
    std::vector<int> at;
    // rank[w - values.front()], -1 for a value no cell holds, when the
    // values span no more than a few times their count: a run asks for the
    // rank of every value of r, and the binary search was a seventh of it.
    std::vector<int> dense_rank;

    explicit Matrix(const std::vector<std::vector<int>>& m)
        : rows(static_cast<int>(m.size())), cols(static_cast<int>(m.front().size())) {
        cells.reserve(std::size_t(rows) * std::size_t(cols));
        for (const auto& row : m) cells.insert(cells.end(), row.begin(), row.end());
        values = cells;
        std::sort(values.begin(), values.end());
        values.erase(std::unique(values.begin(), values.end()), values.end());
        const std::int64_t span = std::int64_t{values.back()} - values.front() + 1;
        if (span <= 4 * static_cast<std::int64_t>(values.size()) + 64) {
            dense_rank.assign(static_cast<std::size_t>(span), -1);
            for (std::size_t v = 0; v < values.size(); ++v)
                dense_rank[static_cast<std::size_t>(values[v] - values.front())] = static_cast<int>(v);
        }
        std::vector<int> rank(cells.size());
        first.assign(values.size() + 1, 0);
        for (std::size_t c = 0; c < cells.size(); ++c) {
            rank[c] = rank_of(cells[c]);
            ++first[std::size_t(rank[c]) + 1];
        }
        for (std::size_t v = 0; v < values.size(); ++v) first[v + 1] += first[v];
        at.resize(cells.size());
        std::vector<int> fill(first.begin(), first.end() - 1);
        for (std::size_t c = 0; c < cells.size(); ++c) at[std::size_t(fill[std::size_t(rank[c])]++)] = static_cast<int>(c);
    }

    int cell(int k, int l) const noexcept { return cells[std::size_t(k) * std::size_t(cols) + std::size_t(l)]; }
    // The rank of w among the values, or -1 when no cell holds it.
    int rank_of(int w) const noexcept {
        if (!dense_rank.empty()) {
            const std::int64_t at_w = std::int64_t{w} - values.front();
            return at_w >= 0 && at_w < static_cast<std::int64_t>(dense_rank.size()) ? dense_rank[std::size_t(at_w)] : -1;
        }
        const auto it = std::lower_bound(values.begin(), values.end(), w);
        return it != values.end() && *it == w ? static_cast<int>(it - values.begin()) : -1;
    }
};

// The matrix checked: a row, none empty, all of one length, cells that
// int can index; the messages name the row.
inline void check_shape(const std::vector<std::vector<int>>& m) {
    if (m.empty()) throw model_error("element: the matrix has no rows, so no index i can be chosen");
    for (std::size_t k = 0; k < m.size(); ++k) {
        if (m[k].empty())
            throw model_error("element: matrix row " + std::to_string(k) + " is empty, so no index j can be chosen");
        if (m[k].size() != m.front().size())
            throw model_error("element: matrix row " + std::to_string(k) + " has " + std::to_string(m[k].size()) +
                              " entries, row 0 has " + std::to_string(m.front().size()) +
                              "; every row of a matrix must have the same length");
    }
    if (m.size() > static_cast<std::size_t>(int_max) / m.front().size())
        throw model_error("element: the matrix has more cells than int can index");
}

// The rows as ints (a value beyond int is a model_error naming its cell),
// checked as above.
inline std::vector<std::vector<int>> rows_of(const std::vector<Numbers>& rows) {
    std::vector<std::vector<int>> out;
    out.reserve(rows.size());
    for (std::size_t k = 0; k < rows.size(); ++k) {
        const std::string name = "matrix[" + std::to_string(k) + "]";
        out.push_back(rows[k].as_ints("element", name.c_str()));
    }
    check_shape(out);
    return out;
}

// r as a number: what the propagator asks of r, answered for one value.
struct Fixed {
    int c;
    template <class S> bool contains(const S&, int w) const noexcept { return w == c; }
};

} // namespace detail::element2d

namespace detail {

// r == matrix[i][j]; R is a view or element2d::Fixed. See the header
// comment for the algorithm.
template <class S, class I, class J, class R>
class Element2D : public PropagatorBase<S, Element2D<S, I, J, R>> {
    static constexpr bool fixed_r = std::same_as<R, element2d::Fixed>;
    using KeptR = std::conditional_t<fixed_r, element2d::Fixed, kept_t<R>>;

public:
    Element2D(std::shared_ptr<const element2d::Matrix> m, I i, J j, R r, bool shared)
        : m_(std::move(m)), i_(kept(i)), j_(kept(j)), r_(keep_r(r)), shared_(shared),
          row_res_(std::size_t(m_->rows), 0), col_res_(std::size_t(m_->cols), 0),
          val_res_(fixed_r ? 0 : m_->values.size(), 0) {}

    PropStatus propagate(S& s) override {
        // Which of i, j, r changed since the last run (the tags): a row's
        // supports lie in j and r, so rows are checked again only when one
        // of those changed, and so on. All of them over shared variables,
        // and on a run that no change called for (the first).
        unsigned changed = shared_ || this->pending().empty() ? 7U : 0U;
        for (const int tag : this->pending()) changed |= 1U << tag;
        this->pending().clear();
        // Over distinct variables one pass is a fixpoint: every value kept
        // has a supporting cell whose row, column and value are all kept.
        for (;;) {
            const std::uint64_t before = shared_ ? total(s) : 0;
            if (!pass(s, changed)) return PropStatus::failed;
            if (!shared_ || total(s) == before) break;
        }
        // The run's own removals leave nothing to do.
        this->pending().clear();
        // With i and j fixed, r is the one value of their cell.
        return i_.fixed(s) && j_.fixed(s) ? PropStatus::subsumed : PropStatus::fix;
    }

private:
    static KeptR keep_r(const R& r) {
        if constexpr (fixed_r)
            return r;
        else
            return kept(r);
    }

    // changed: bit 0 i, bit 1 j, bit 2 r.
    bool pass(S& s, unsigned changed) {
        const element2d::Matrix& m = *m_;
        const auto in_r = [&](int w) { return r_.contains(s, w); };
        const std::uint64_t i_before = i_.size(s), j_before = j_.size(s);
        const bool rows_ok = (changed & 6U) == 0 || filter_values(s, i_, [&](int k) {
            if (k < 0 || k >= m.rows) return false;
            int& res = row_res_[std::size_t(k)];
            if (j_.contains(s, res) && in_r(m.cell(k, res))) return true;
            for (int l = j_.min(s);; l = j_.next(s, l)) {
                if (l >= 0 && l < m.cols && in_r(m.cell(k, l))) {
                    res = l;
                    return true;
                }
                if (l == j_.max(s)) return false;
            }
        });
        if (!rows_ok) return false;
        if (i_.size(s) != i_before) changed |= 1U;
        const bool cols_ok = (changed & 5U) == 0 || filter_values(s, j_, [&](int l) {
            if (l < 0 || l >= m.cols) return false;
            int& res = col_res_[std::size_t(l)];
            if (i_.contains(s, res) && in_r(m.cell(res, l))) return true;
            for (int k = i_.min(s);; k = i_.next(s, k)) {
                if (k >= 0 && k < m.rows && in_r(m.cell(k, l))) {
                    res = k;
                    return true;
                }
                if (k == i_.max(s)) return false;
            }
        });
        if (!cols_ok) return false;
        if (j_.size(s) != j_before) changed |= 2U;
        if constexpr (fixed_r) {
            return true;
        } else {
            const auto supported = [&](int v) {
                int& res = val_res_[std::size_t(v)];
                const auto holds = [&](int p) {
                    const int c = m.at[std::size_t(p)];
                    return i_.contains(s, c / m.cols) && j_.contains(s, c % m.cols);
                };
                if (holds(m.first[std::size_t(v)] + res)) return true;
                for (int p = m.first[std::size_t(v)]; p < m.first[std::size_t(v) + 1]; ++p)
                    if (holds(p)) {
                        res = p - m.first[std::size_t(v)];
                        return true;
                    }
                return false;
            };
            if ((changed & 3U) == 0) return true;
            if (wide(r_, s)) {
                // r is walked by runs, never value by value: the values kept
                // are gathered from the matrix's side.
                kept_values_.clear();
                for (std::size_t v = 0; v < m.values.size(); ++v)
                    if (r_.contains(s, m.values[v]) && supported(static_cast<int>(v))) kept_values_.push_back(m.values[v]);
                return keep_only(s, r_, SortedValues{kept_values_});
            }
            return filter_values(s, r_, [&](int w) {
                const int v = m.rank_of(w);
                return v >= 0 && supported(v);
            });
        }
    }

    std::uint64_t total(const S& s) const {
        std::uint64_t n = std::uint64_t{i_.size(s)} + j_.size(s);
        if constexpr (!fixed_r) n += r_.size(s);
        return n;
    }

    std::shared_ptr<const element2d::Matrix> m_;
    kept_t<I> i_;
    kept_t<J> j_;
    KeptR r_;
    bool shared_;
    std::vector<int> row_res_; // per row, a column that supported it
    std::vector<int> col_res_; // per column, a row
    std::vector<int> val_res_; // per value, the offset of a cell among its cells
    std::vector<int> kept_values_; // for a wide r, scratch of one run
};

} // namespace detail

// The constraint r == matrix[i][j], as element() returns it; R is a view
// or int (a number r).
template <class I, class J, class R>
    requires std::convertible_to<I, AffineView> && std::convertible_to<J, AffineView> &&
             (std::convertible_to<R, AffineView> || std::same_as<R, int>)
struct Element2DConstraint {
    std::vector<std::vector<int>> matrix;
    I i;
    J j;
    R r;

    template <class S>
    void post(S& s) const {
        detail::element2d::check_shape(matrix);
        auto m = std::make_shared<const detail::element2d::Matrix>(matrix);
        s.check(i.var(), "element");
        s.check(j.var(), "element");
        std::vector<int> vars{i.var().index(), j.var().index()};
        if constexpr (!std::same_as<R, int>) {
            s.check(r.var(), "element");
            vars.push_back(r.var().index());
        }
        std::sort(vars.begin(), vars.end());
        const bool shared = std::adjacent_find(vars.begin(), vars.end()) != vars.end();
        // Once, here: propagation then walks no index outside the matrix
        // and no value of r outside it. A failure is the store's to remember.
        if (detail::keep_within(i, s, 0, m->rows - 1) == Change::failed ||
            detail::keep_within(j, s, 0, m->cols - 1) == Change::failed)
            return;
        int id = 0;
        if constexpr (std::same_as<R, int>) {
            id = s.add_propagator(std::make_unique<detail::Element2D<S, I, J, detail::element2d::Fixed>>(
                std::move(m), i, j, detail::element2d::Fixed{r}, shared));
        } else {
            if (!detail::keep_only(s, r, detail::SortedValues{m->values})) return;
            id = s.add_propagator(std::make_unique<detail::Element2D<S, I, J, R>>(std::move(m), i, j, r, shared));
            s.subscribe(r.var(), id, Event::domain, 2);
        }
        s.subscribe(i.var(), id, Event::domain, 0);
        s.subscribe(j.var(), id, Event::domain, 1);
    }
};

namespace detail::element2d {

template <class R>
auto result(const R& r) {
    if constexpr (std::integral<R>)
        return Number(r).get_int("element", "r");
    else
        return r;
}

template <class I, class J, class R>
auto make(const std::vector<Numbers>& rows, I i, J j, const R& r) {
    using Value = decltype(result(r));
    return Element2DConstraint<I, J, Value>{rows_of(rows), i, j, result(r)};
}

template <class T>
concept Result = std::convertible_to<T, AffineView> || std::integral<T>;

} // namespace detail::element2d

// The matrix as a range of ranges of numbers of any integral type, or a
// braced list of braced lists; i and j views, r a view or a number.
template <std::ranges::input_range M, class I, class J, detail::element2d::Result R>
    requires detail::IntegerRange<std::ranges::range_value_t<M>> && std::convertible_to<I, AffineView> &&
             std::convertible_to<J, AffineView>
auto element(const M& matrix, I i, J j, R r) {
    const std::vector<detail::Numbers> rows(std::ranges::begin(matrix), std::ranges::end(matrix));
    return detail::element2d::make(rows, i, j, r);
}
template <class I, class J, detail::element2d::Result R>
    requires std::convertible_to<I, AffineView> && std::convertible_to<J, AffineView>
auto element(std::initializer_list<detail::Numbers> matrix, I i, J j, R r) {
    return detail::element2d::make(std::vector<detail::Numbers>(matrix), i, j, r);
}

} // namespace propane

#endif
