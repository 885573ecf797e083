#ifndef PROPANE_CONSTRAINTS_REGULAR_LAYERED_GRAPH_HPP
#define PROPANE_CONSTRAINTS_REGULAR_LAYERED_GRAPH_HPP

// regular()'s propagator: Pesant's layered graph (CP 2004), kept between
// runs and updated where the domains changed.
//
// The automaton unrolled over the n positions is a graph of n + 1 layers
// of states; an edge q --a--> q' joins layer i to layer i + 1 when the
// automaton has that transition and symbol a is in the domain of x_i.
// The propagator keeps, per layer, the set of its live states (those on
// a path from the start, in layer 0, to a final state, in layer n) and,
// per position, the symbols it last saw in x_i's domain. Both are bit
// rows in the store's cells, so the trail restores them on backtracking.
// At the fixpoint every live state has a live edge in and out, and every
// value of x_i labels a live edge between layers i and i + 1: domain
// consistency.
//
// A run learns which positions changed from its tagged subscriptions
// (one tag per position), and compares each one's domain with the
// symbols seen. From the leftmost position that lost a symbol it goes
// forward, removing from layer i + 1 the states no longer reached from
// layer i, as long as a layer changes or a changed position is ahead;
// then backward from the rightmost, removing from layer i the states that
// no longer reach layer i + 1. Forward first, then backward, leaves every
// live state with a live edge in and out: a state the backward pass
// removes has no live successor, so no live state loses its only
// predecessor by it. A position whose two layers kept their states keeps
// its symbols' edges, so only positions next to a changed layer are
// filtered. A run costs the transitions of the layers that changed, not
// n times the automaton: one removal usually changes a few layers.
//
// Views on one variable are read as independent positions, which is
// sound but not domain consistent; a value removed at one position leaves
// another position's domain behind its symbols seen, and its tag makes
// the run go round again until no position changed. With every view
// fixed the graph is one path, so the answer is then exact.

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "../../engine/propagator.hpp"
#include "../../engine/runs.hpp"
#include "../../engine/view.hpp"
#include "../../engine/words.hpp"
#include "../rel.hpp" // detail::filter_values
#include "automaton.hpp"

namespace propane::detail::automata {

template <class S, class X>
class LayeredGraph : public PropagatorBase<S, LayeredGraph<S, X>> {
public:
    LayeredGraph(S& s, std::shared_ptr<const Automaton> a, const std::vector<X>& xs, bool shared)
        : a_(std::move(a)), xs_(kept(xs)), shared_(shared), qw_(a_->state_words()), aw_(a_->symbol_words()),
          mark_(xs_.size(), 0), dirty_(xs_.size(), 0), changed_(xs_.size() + 1, 0) {
        // Before the first run nothing is seen: it builds the whole graph.
        primed_ = s.new_cell(0);
        const std::size_t n = xs_.size();
        layers_ = s.new_cell(0);
        for (std::size_t k = 1; k < (n + 1) * qw_; ++k) s.new_cell(0);
        seen_ = n * aw_ == 0 ? 0 : s.new_cell(0);
        for (std::size_t k = 1; k < n * aw_; ++k) s.new_cell(0);
        row_.resize(4 * std::max(qw_, aw_));
    }

    PropStatus propagate(S& s) override {
        std::vector<int>& pending = this->pending();
        if (s.cell(primed_) == 0) {
            pending.clear();
            if (!prime(s)) return PropStatus::failed;
            if (!shared_) pending.clear();
        }
        // The run's own removals append tags: for distinct variables they
        // are the positions just filtered, whose symbols seen are up to
        // date; for shared ones they may be other positions.
        while (!pending.empty()) {
            const bool ok = update(s, pending);
            if (!ok || !shared_) pending.clear();
            if (!ok) return PropStatus::failed;
        }
        return PropStatus::fix;
    }

private:
    // ---- the rows in cells -----------------------------------------------------

    int layer_cell(std::size_t i) const noexcept { return layers_ + static_cast<int>(i * qw_); }
    int seen_cell(std::size_t i) const noexcept { return seen_ + static_cast<int>(i * aw_); }
    static void load(const S& s, int cell, std::size_t words, word* out) noexcept {
        for (std::size_t w = 0; w < words; ++w) out[w] = std::bit_cast<word>(s.cell(cell + static_cast<int>(w)));
    }
    static void store(S& s, int cell, std::size_t words, const word* in) {
        for (std::size_t w = 0; w < words; ++w) s.set_cell(cell + static_cast<int>(w), std::bit_cast<std::int64_t>(in[w]));
    }
    static bool empty(const word* set, std::size_t words) noexcept {
        for (std::size_t w = 0; w < words; ++w)
            if (set[w] != 0) return false;
        return true;
    }
    static unsigned count(const word* set, std::size_t words) noexcept {
        unsigned c = 0;
        for (std::size_t w = 0; w < words; ++w) c += popcount(set[w]);
        return c;
    }
    // f(a) for each member a of a symbol set.
    template <class F>
    void each(const word* set, F&& f) const {
        for (std::size_t w = 0; w < aw_; ++w)
            for (word b = set[w]; b != 0; b &= b - 1)
                f(w * word_bits + static_cast<std::size_t>(std::countr_zero(b)));
    }

    // ---- the automaton over one position ----------------------------------------

    // The states reached from `from` on a symbol of `dom`.
    void image(const word* from, const word* dom, word* out) const {
        const Automaton& a = *a_;
        for (std::size_t w = 0; w < qw_; ++w) out[w] = 0;
        each(dom, [&](std::size_t sym) {
            for (std::uint32_t k = a.first(sym), end = a.first(sym + 1); k < end; ++k)
                if (has(from, a.from(k))) add(out, a.to(k));
        });
    }
    // The states that reach `to` on a symbol of `dom`.
    void preimage(const word* to, const word* dom, word* out) const {
        const Automaton& a = *a_;
        for (std::size_t w = 0; w < qw_; ++w) out[w] = 0;
        each(dom, [&](std::size_t sym) {
            for (std::uint32_t k = a.first(sym), end = a.first(sym + 1); k < end; ++k)
                if (has(to, a.to(k))) add(out, a.from(k));
        });
    }
    // The symbols of `dom` on an edge from `from` to `to`.
    void supported(const word* from, const word* dom, const word* to, word* out) const {
        const Automaton& a = *a_;
        for (std::size_t w = 0; w < aw_; ++w) out[w] = 0;
        each(dom, [&](std::size_t sym) {
            for (std::uint32_t k = a.first(sym), end = a.first(sym + 1); k < end; ++k)
                if (has(from, a.from(k)) && has(to, a.to(k))) {
                    add(out, static_cast<std::uint32_t>(sym));
                    return;
                }
        });
    }

    // ---- the first run: the whole graph --------------------------------------------

    bool prime(S& s) {
        const Automaton& a = *a_;
        const std::size_t n = xs_.size();
        dom_.assign(n * aw_, 0);
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t sym = 0; sym < a.symbols(); ++sym)
                if (xs_[i].contains(s, a.symbol(sym))) add(&dom_[i * aw_], static_cast<std::uint32_t>(sym));
        layer_.assign((n + 1) * qw_, 0);
        add(layer_.data(), a.start());
        for (std::size_t i = 0; i < n; ++i) image(&layer_[i * qw_], &dom_[i * aw_], &layer_[(i + 1) * qw_]);
        word* last = &layer_[n * qw_];
        for (std::size_t w = 0; w < qw_; ++w) last[w] &= a.finals()[w];
        word* pre = row_.data();
        for (std::size_t i = n; i-- > 0;) {
            preimage(&layer_[(i + 1) * qw_], &dom_[i * aw_], pre);
            for (std::size_t w = 0; w < qw_; ++w) layer_[i * qw_ + w] &= pre[w];
        }
        if (empty(layer_.data(), qw_)) return false;
        word* sup = row_.data();
        for (std::size_t i = 0; i < n; ++i) {
            supported(&layer_[i * qw_], &dom_[i * aw_], &layer_[(i + 1) * qw_], sup);
            const auto& x = xs_[i];
            // On distinct variables x_i still holds dom_'s symbols, so its
            // size says whether some are unsupported; on shared ones an
            // earlier position may have removed others meanwhile.
            if (shared_ || x.size(s) != count(sup, aw_)) {
                bool ok;
                if (wide(x, s)) {
                    values_.clear();
                    each(sup, [&](std::size_t sym) { values_.push_back(a.symbol(sym)); });
                    ok = keep_only(s, x, SortedValues{values_});
                } else {
                    ok = filter_values(s, x, [&](int v) {
                        const int r = a.rank(v);
                        return r >= 0 && has(sup, static_cast<std::uint32_t>(r));
                    });
                }
                if (!ok) return false;
            }
            store(s, seen_cell(i), aw_, sup);
        }
        for (std::size_t i = 0; i <= n; ++i) store(s, layer_cell(i), qw_, &layer_[i * qw_]);
        s.set_cell(primed_, 1);
        return true;
    }

    // ---- later runs: the layers around the positions that changed -----------------

    // Consumes the tags; false on failure.
    bool update(S& s, std::vector<int>& tags) {
        const Automaton& a = *a_;
        const std::size_t n = xs_.size();
        word* dom = row_.data();
        std::size_t lo = n, hi = 0;
        bool any = false;
        for (const int tag : tags) {
            const auto i = static_cast<std::size_t>(tag);
            if (mark_[i]) continue;
            mark_[i] = 1;
            touched_.push_back(i);
            load(s, seen_cell(i), aw_, dom);
            const auto& x = xs_[i];
            // The view holds only symbols seen, so its size tells whether
            // it lost some.
            if (x.size(s) == count(dom, aw_)) continue;
            each(dom, [&](std::size_t sym) {
                if (!x.contains(s, a.symbol(sym))) dom[sym / word_bits] &= ~(word{1} << (sym % word_bits));
            });
            store(s, seen_cell(i), aw_, dom);
            dirty_[i] = 1;
            lo = std::min(lo, i);
            hi = std::max(hi, i);
            any = true;
        }
        for (const std::size_t i : touched_) mark_[i] = 0;
        touched_.clear();
        tags.clear();
        if (!any) return true;
        std::size_t first = n + 1, last = 0; // the layers changed
        const bool ok = passes(s, lo, hi, first, last) && filter_around(s, first, last);
        for (std::size_t i = lo; i <= hi; ++i) dirty_[i] = 0;
        for (std::size_t i = first; i <= last && i <= n; ++i) changed_[i] = 0;
        return ok;
    }

    // The forward pass from lo, then the backward pass from hi; the layers
    // they changed are flagged in changed_, within first .. last.
    bool passes(S& s, std::size_t lo, std::size_t hi, std::size_t& first, std::size_t& last) {
        const std::size_t n = xs_.size();
        word* here = row_.data() + qw_;
        word* there = here + qw_;
        word* dom = there + qw_;
        word* reach = row_.data();
        const auto changed = [&](std::size_t layer) {
            changed_[layer] = 1;
            first = std::min(first, layer);
            last = std::max(last, layer);
        };
        // Keeps in layer `layer` (held in `set`) the states of `reach`;
        // true if it lost some, false too when it empties (then `failed`).
        bool failed = false;
        const auto narrow = [&](std::size_t layer, word* set) {
            bool lost = false, none = true;
            for (std::size_t w = 0; w < qw_; ++w) {
                const word kept = set[w] & reach[w];
                lost |= kept != set[w];
                none &= kept == 0;
                set[w] = kept;
            }
            if (!lost) return false;
            store(s, layer_cell(layer), qw_, set);
            changed(layer);
            failed = none;
            return true;
        };
        bool carry = false;
        for (std::size_t i = lo; i < n; ++i) {
            if (!dirty_[i] && !carry) {
                if (i > hi) break;
                continue;
            }
            load(s, layer_cell(i), qw_, here);
            load(s, seen_cell(i), aw_, dom);
            image(here, dom, reach);
            load(s, layer_cell(i + 1), qw_, there);
            carry = narrow(i + 1, there);
            if (failed) return false;
        }
        carry = false;
        for (std::size_t i = hi + 1; i-- > 0;) {
            if (!dirty_[i] && !carry) {
                if (i < lo) break;
                continue;
            }
            load(s, layer_cell(i + 1), qw_, there);
            load(s, seen_cell(i), aw_, dom);
            preimage(there, dom, reach);
            load(s, layer_cell(i), qw_, here);
            carry = narrow(i, here);
            if (failed) return false;
        }
        return true;
    }

    // Filters the positions next to a changed layer.
    bool filter_around(S& s, std::size_t first, std::size_t last) {
        const Automaton& a = *a_;
        const std::size_t n = xs_.size();
        if (first > last) return true;
        word* here = row_.data();
        word* there = here + qw_;
        word* dom = there + qw_;
        word* sup = dom + aw_;
        for (std::size_t i = first == 0 ? 0 : first - 1; i <= last && i < n; ++i) {
            if (!changed_[i] && !changed_[i + 1]) continue;
            load(s, layer_cell(i), qw_, here);
            load(s, layer_cell(i + 1), qw_, there);
            load(s, seen_cell(i), aw_, dom);
            supported(here, dom, there, sup);
            bool same = true;
            for (std::size_t w = 0; w < aw_; ++w) same &= sup[w] == dom[w];
            if (same) continue;
            const auto& x = xs_[i];
            for (std::size_t w = 0; w < aw_; ++w)
                for (word b = dom[w] & ~sup[w]; b != 0; b &= b - 1)
                    if (x.remove(s, a.symbol(w * word_bits + static_cast<std::size_t>(std::countr_zero(b)))) ==
                        Change::failed)
                        return false;
            store(s, seen_cell(i), aw_, sup);
        }
        return true;
    }

    std::shared_ptr<const Automaton> a_;
    std::vector<kept_t<X>> xs_;
    bool shared_;
    std::size_t qw_; // words of a set of states
    std::size_t aw_; // words of a set of symbols
    int primed_ = 0; // the cell: 1 once the graph is built
    int layers_ = 0; // the cell of layer 0's first word; layer i at layers_ + i * qw_
    int seen_ = 0;   // the cell of position 0's first word of symbols seen
    // Scratch, clear between runs.
    std::vector<char> mark_, dirty_, changed_;
    std::vector<std::size_t> touched_;
    std::vector<word> row_, dom_, layer_;
    std::vector<int> values_;
};

} // namespace propane::detail::automata

#endif
