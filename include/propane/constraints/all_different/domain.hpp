#ifndef PROPANE_CONSTRAINTS_ALL_DIFFERENT_DOMAIN_HPP
#define PROPANE_CONSTRAINTS_ALL_DIFFERENT_DOMAIN_HPP

// AllDifferent at domain strength: the value stage, then Régin's matching
// and residual graph (../all_different.hpp describes the strengths).

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "dense.hpp"
#include "value.hpp"
#include "../../engine/error.hpp"
#include "../../engine/propagator.hpp"
#include "../../engine/view.hpp"

namespace propane::detail {

template <class Store, class View>
class AllDifferentDomain : public PropagatorBase<Store, AllDifferentDomain<Store, View>> {
public:
    // Values are indexed densely over the union of the views' possible
    // ranges, with arrays over it; a wider union is refused at post (see
    // ../all_different.hpp) rather than cost memory for values that cannot
    // occur.
    static constexpr std::int64_t max_values = std::int64_t{1} << 22;

    AllDifferentDomain(Store& s, std::vector<View> views)
        : views_(std::move(views)), open_(s, views_.size()), n_(views_.size()), shared_(shares_variables(views_)) {
        std::int64_t lo = 0, hi = -1;
        for (std::size_t i = 0; i < n_; ++i) {
            lo = i == 0 ? views_[i].lo() : std::min<std::int64_t>(lo, views_[i].lo());
            hi = i == 0 ? views_[i].hi() : std::max<std::int64_t>(hi, views_[i].hi());
        }
        if (hi - lo + 1 > max_values)
            throw model_error(formatted("domain-consistent all_different over values %lld..%lld: that range is "
                                        "wider than %lld values, the most domain strength numbers (value and "
                                        "bounds strength take any range)",
                                        static_cast<long long>(lo), static_cast<long long>(hi),
                                        static_cast<long long>(max_values)));
        lo_ = static_cast<int>(n_ == 0 ? 0 : lo);
        m_ = static_cast<std::size_t>(hi - lo + 1);
        match_.assign(n_, -1);
        owner_.assign(m_, -1);
        from_.assign(m_, 0);
        seen_.assign(m_, 0);
        const std::size_t nodes = m_ + 1;
        open_list_.assign(n_, 0);
        index_.assign(nodes, 0);
        low_.assign(nodes, 0);
        cursor_.assign(nodes, 0);
        comp_.assign(nodes, 0);
        on_stack_.assign(nodes, 0);
        bfs_.reserve(n_);
        unmatched_.resize(n_);
        stack_.assign(nodes, 0);
        calls_.assign(nodes, 0);
        opened_.assign(nodes, 0);
        degree_.assign(m_, 0);
        start_.assign(m_, 0);
        fill_.assign(m_, 0);
        held_.assign(m_, 0);
        holders_.assign(m_, 0);
        local_.assign(n_, 0);
        reach_.assign(std::min(n_, word_views), 0);
        rest_.assign(std::min(n_, word_views), 0);
        dom_.assign(std::min(n_, word_views), 0);
        mine_.assign(std::min(n_, word_views), 0);
    }

    PropStatus propagate(Store& s) override {
        for (;;) {
            if (!open_.propagate(views_, this->pending(), s)) return PropStatus::failed;
            // Régin's stage waits while other propagators are queued, as
            // the bounds stage does.
            if (s.queued() > 0) return PropStatus::defer;
            if (!repair_matching(s)) return PropStatus::failed;
            bool removed = false;
            if (!prune_unsupported(s, removed)) return PropStatus::failed;
            if (!removed || !shared_) break;
        }
        // What remains is domain consistent, hence also value consistent:
        // the tags of views fixed by the pruning need no further work.
        this->pending().clear();
        return PropStatus::fix;
    }

private:
    // Calls f(value index) for each value of view x while f returns true.
    template <class F>
    bool each_value(const Store& s, const View& x, F&& f) const {
        const int last = x.max(s);
        for (int v = x.min(s);; v = x.next(s, v)) {
            if (!f(static_cast<std::size_t>(v - lo_))) return false;
            if (v == last) return true;
        }
    }

    // The matching is kept between runs and not trailed: backtracking only
    // gives values back to domains, so a matching valid deeper in the tree
    // is still valid above it. Each run drops the edges whose value left its
    // domain and re-matches those views by augmenting paths.
    bool repair_matching(const Store& s) {
        std::size_t unmatched = 0;
        for (std::size_t i = 0; i < n_; ++i) {
            const int j = match_[i];
            if (j < 0 || !views_[i].contains(s, lo_ + j)) {
                if (j >= 0) {
                    owner_[static_cast<std::size_t>(j)] = -1;
                    match_[i] = -1;
                }
                unmatched_[unmatched++] = static_cast<int>(i);
            }
        }
        for (std::size_t k = 0; k < unmatched; ++k)
            if (!augment(s, unmatched_[k])) return false;
        return true;
    }

    // Breadth-first search for an alternating path from view `start` to a
    // free value; flips it so `start` is matched. False if there is none,
    // which means fewer values than views: failure.
    bool augment(const Store& s, int start) {
        ++stamp_;
        bfs_.clear();
        bfs_.push_back(start);
        for (std::size_t head = 0; head < bfs_.size(); ++head) {
            const int x = bfs_[head];
            int free_value = -1;
            each_value(s, views_[static_cast<std::size_t>(x)], [&](std::size_t j) {
                if (seen_[j] == stamp_) return true;
                seen_[j] = stamp_;
                from_[j] = x;
                if (owner_[j] < 0) {
                    free_value = static_cast<int>(j);
                    return false;
                }
                bfs_.push_back(owner_[j]);
                return true;
            });
            if (free_value < 0) continue;
            for (int j = free_value;;) {
                const int y = from_[static_cast<std::size_t>(j)];
                const int previous = match_[static_cast<std::size_t>(y)];
                match_[static_cast<std::size_t>(y)] = j;
                owner_[static_cast<std::size_t>(j)] = y;
                if (y == start) return true;
                j = previous;
            }
        }
        return false;
    }

    // Régin's residual graph has a node per view and per value: a view
    // points to its matched value, a value to every other view whose domain
    // holds it. A view has no other way out than its matched value, so the
    // walk here skips view nodes: value j points straight to the matched
    // value of each view that holds j. A view then shares the component of
    // its matched value, and its edge to j survives exactly when j is in
    // that component too. A sink, node m, completes the graph: every matched
    // value points to it and it points to every free value some view holds,
    // which puts each even alternating path from a free value on a cycle,
    // so one SCC test covers both kinds of edges Régin keeps.
    //
    // Fixed views are left out. The value stage has already removed a fixed
    // view's value from every other view, so the view and its value are
    // components of their own whose only edge is the matched one, which
    // stays: walking them would only cost time, and deep in the tree most
    // views are fixed.
    //
    // The edges are gathered once per run into one array (to_[start_[j] ..
    // start_[j] + degree_[j]) for value j): asking each view whether it
    // holds each value would cost n*m membership tests per run, this costs
    // one walk over the domains. Only values some open view holds are
    // touched, and the next run clears only those, so a run costs nothing
    // for the many values of the range no open view holds any more.
    void gather_edges(const Store& s) {
        held_count_ = 0;
        for_each_open_edge(s, [&](std::size_t j, int) {
            if (degree_[j]++ == 0) held_[held_count_++] = static_cast<int>(j);
        });
        std::size_t at = 0;
        for (std::size_t k = 0; k < held_count_; ++k) {
            const auto j = static_cast<std::size_t>(held_[k]);
            start_[j] = fill_[j] = at;
            at += degree_[j];
        }
        // Domains only shrink below the level the propagator was posted at,
        // so after the first runs this never grows.
        if (to_.size() < at) to_.resize(at);
        for_each_open_edge(s, [&](std::size_t j, int target) { to_[fill_[j]++] = target; });
    }

    // f(value, matched value of the view) for each unmatched edge of an
    // open view.
    template <class F>
    void for_each_open_edge(const Store& s, F&& f) const {
        for (std::size_t k = 0; k < open_count_; ++k) {
            const auto y = static_cast<std::size_t>(open_list_[k]);
            const int mine = match_[y];
            views_[y].for_each(s, [&](int v) {
                const auto j = static_cast<std::size_t>(v - lo_);
                if (static_cast<int>(j) != mine) f(j, mine);
            });
        }
    }

    // The next successor of node u not yet visited by Tarjan's walk, or -1.
    int successor(std::size_t u) {
        const std::size_t k = cursor_[u]++;
        if (u < m_) {
            if (k < degree_[u]) return to_[start_[u] + k];
            return k == degree_[u] && owner_[u] >= 0 ? static_cast<int>(m_) : -1;
        }
        for (std::size_t h = k; h < held_count_; h = cursor_[u]++) {
            const auto j = static_cast<std::size_t>(held_[h]);
            if (owner_[j] < 0) return static_cast<int>(j);
        }
        return -1;
    }

    // Tarjan's algorithm with an explicit call stack (no recursion, so no
    // limit on the number of views). Both stacks hold each node at most
    // once, so they are plain arrays sized once.
    void components(const Store& s) {
        gather_edges(s);
        for (std::size_t k = 0; k < opened_count_; ++k) {
            const auto u = static_cast<std::size_t>(opened_[k]);
            index_[u] = 0;
            cursor_[u] = 0;
        }
        opened_count_ = 0;
        int counter = 0, ncomp = 0;
        std::size_t stack_top = 0, calls_top = 0;
        auto open = [&](std::size_t u) {
            opened_[opened_count_++] = static_cast<int>(u);
            index_[u] = low_[u] = ++counter;
            stack_[stack_top++] = static_cast<int>(u);
            on_stack_[u] = 1;
            calls_[calls_top++] = static_cast<int>(u);
        };
        // Every value an open view holds is its matched value or reached
        // from it, or free and reached from the sink: roots enough.
        for (std::size_t k = 0; k <= open_count_; ++k) {
            const std::size_t r =
                k < open_count_ ? static_cast<std::size_t>(match_[static_cast<std::size_t>(open_list_[k])]) : m_;
            if (index_[r] != 0) continue;
            open(r);
            while (calls_top > 0) {
                const auto u = static_cast<std::size_t>(calls_[calls_top - 1]);
                const int w = successor(u);
                if (w >= 0) {
                    const auto wu = static_cast<std::size_t>(w);
                    if (index_[wu] == 0)
                        open(wu);
                    else if (on_stack_[wu])
                        low_[u] = std::min(low_[u], index_[wu]);
                    continue;
                }
                if (--calls_top > 0) {
                    const auto parent = static_cast<std::size_t>(calls_[calls_top - 1]);
                    low_[parent] = std::min(low_[parent], low_[u]);
                }
                if (low_[u] == index_[u]) {
                    for (;;) {
                        const auto t = static_cast<std::size_t>(stack_[--stack_top]);
                        on_stack_[t] = 0;
                        comp_[t] = ncomp;
                        if (t == u) break;
                    }
                    ++ncomp;
                }
            }
        }
        for (std::size_t k = 0; k < held_count_; ++k) degree_[static_cast<std::size_t>(held_[k])] = 0;
    }

    // Up to 64 open views, reachability in Régin's graph fits in one word
    // per view and a bitwise transitive closure finds it with a few hundred
    // word operations and hardly a branch: well below what Tarjan's walk
    // costs on graphs that small. Views are numbered 0..k-1 in open_list_
    // order here. View a reaches view b when b can take a's matched value
    // (so a could move on); then an unmatched edge (a, j) lies on an
    // alternating cycle when a reaches j's owner, and on an even
    // alternating path from a free value when j's owner is reached from a
    // view that holds a free value (or holds one itself). j free: the edge
    // can always replace a's matched one.
    static constexpr std::size_t word_views = 64;

    void reach_by_words(const Store& s) {
        const std::size_t k = open_count_;
        held_count_ = 0;
        for (std::size_t a = 0; a < k; ++a) {
            const auto y = static_cast<std::size_t>(open_list_[a]);
            local_[y] = static_cast<int>(a);
            views_[y].for_each(s, [&](int v) {
                const auto j = static_cast<std::size_t>(v - lo_);
                if (holders_[j] == 0) held_[held_count_++] = static_cast<int>(j);
                holders_[j] |= std::uint64_t{1} << a;
            });
        }
        for (std::size_t a = 0; a < k; ++a) {
            const auto mine = static_cast<std::size_t>(match_[static_cast<std::size_t>(open_list_[a])]);
            reach_[a] = holders_[mine] & ~(std::uint64_t{1} << a);
        }
        std::uint64_t free_holders = 0;
        for (std::size_t h = 0; h < held_count_; ++h) {
            const auto j = static_cast<std::size_t>(held_[h]);
            if (owner_[j] < 0) free_holders |= holders_[j];
            holders_[j] = 0;
        }
        close_reach(free_holders);
    }

    // When the values fit in one word too, each open view's domain is one
    // word (bit j for value index j), and so is the set of values it may
    // keep: its matched value, the free values, and the matched values of
    // the views it reaches or that a free value's holders reach. Then
    // nothing is done value by value except the removals themselves.
    bool prune_by_masks(Store& s, bool& removed) {
        const std::size_t k = open_count_;
        std::uint64_t held = 0, matched = 0;
        for (std::size_t a = 0; a < k; ++a) {
            const auto y = static_cast<std::size_t>(open_list_[a]);
            dom_[a] = views_[y].bits(s, lo_);
            mine_[a] = std::uint64_t{1} << match_[y];
            held |= dom_[a];
            matched |= mine_[a];
        }
        const std::uint64_t free_values = held & ~matched;
        // The views that free values reach, found in rounds: first their
        // holders, then the holders of those views' matched values, and so
        // on. A view keeps the matched values of all these, and of the
        // views it reaches itself.
        std::uint64_t reached = 0, from_free = 0;
        for (;;) {
            std::uint64_t next = 0;
            for (std::size_t a = 0; a < k; ++a)
                next |= static_cast<std::uint64_t>((dom_[a] & (free_values | from_free)) != 0) << a;
            if (next == reached) break;
            reached = next;
            for (std::size_t a = 0; a < k; ++a) from_free |= mine_[a] & (std::uint64_t{0} - ((reached >> a) & 1U));
        }
        // What free values reach, a reached view reaches no further, and a
        // path to an unreached view never passes through a reached one: so
        // only the unreached views need the closure, and in N-queens, with
        // values to spare, those are few (N = 11: 331.8M to 303.0M
        // instructions in all).
        //
        // reach_[a] holds the matched values of the views a reaches, not
        // the views: a view is named by its matched value, so the closure
        // works as well on those, and the values a view keeps are then a
        // few ORs instead of a gather over the views it reaches (N = 11:
        // 380M to 331M instructions in all). Branch-free, k * k word tests:
        // scattering each domain's few values instead takes fewer
        // instructions but mispredicts (N = 10, domain: 7 % fewer
        // instructions, a fifth more mispredictions, slower).
        std::size_t r = 0;
        for (std::size_t a = 0; a < k; ++a) {
            rest_[r] = static_cast<int>(a);
            r += ((reached >> a) & 1U) ^ 1U;
            reach_[a] = 0;
        }
        for (std::size_t i = 0; i < r; ++i) {
            const auto a = static_cast<std::size_t>(rest_[i]);
            std::uint64_t takers = 0;
            for (std::size_t j = 0; j < r; ++j) {
                const auto b = static_cast<std::size_t>(rest_[j]);
                takers |= mine_[b] & (std::uint64_t{0} - ((dom_[b] & mine_[a]) != 0));
            }
            reach_[a] = takers;
        }
        for (std::size_t i = 0; i < r; ++i) {
            const auto z = static_cast<std::size_t>(rest_[i]);
            for (std::size_t j = 0; j < r; ++j) {
                const auto a = static_cast<std::size_t>(rest_[j]);
                reach_[a] |= reach_[z] & (std::uint64_t{0} - ((reach_[a] & mine_[z]) != 0));
            }
        }
        for (std::size_t a = 0; a < k; ++a) {
            const std::uint64_t keep = mine_[a] | free_values | reach_[a] | from_free;
            const View& x = views_[static_cast<std::size_t>(open_list_[a])];
            for (std::uint64_t doomed = dom_[a] & ~keep; doomed != 0; doomed &= doomed - 1) {
                if (x.remove(s, lo_ + std::countr_zero(doomed)) == Change::failed) return false;
                removed = true;
            }
        }
        return true;
    }

    // Warshall's closure of reach_ over the open views, then what the
    // holders of free values reach, themselves included.
    void close_reach(std::uint64_t free_holders) {
        const std::size_t k = open_count_;
        // Branch-free: whether a reaches z is as good as random to a
        // branch predictor.
        for (std::size_t z = 0; z < k; ++z)
            for (std::size_t a = 0; a < k; ++a) reach_[a] |= reach_[z] & (std::uint64_t{0} - ((reach_[a] >> z) & 1U));
        free_reach_ = free_holders;
        for (std::uint64_t rest = free_holders; rest != 0; rest &= rest - 1)
            free_reach_ |= reach_[static_cast<std::size_t>(std::countr_zero(rest))];
    }

    // Finds the open views, works out which edges Régin keeps (in words or
    // by SCCs, by size), and removes the others.
    bool prune_unsupported(Store& s, bool& removed) {
        // Right after the value stage, its open views are the unfixed ones.
        const std::span<const int> open = open_.views(s);
        std::copy(open.begin(), open.end(), open_list_.begin());
        open_count_ = open.size();
        if (open_count_ <= word_views && m_ <= word_views) return prune_by_masks(s, removed);
        if (open_count_ <= word_views) {
            reach_by_words(s);
            return prune(s, removed, [this](std::size_t a, std::size_t j) {
                const int owner = owner_[j];
                if (owner < 0) return true;
                const auto b = static_cast<std::size_t>(local_[static_cast<std::size_t>(owner)]);
                return (((reach_[a] | free_reach_) >> b) & 1U) != 0;
            });
        }
        return prune_many(s, removed);
    }

    // More than 64 open views: rows and columns of bits over dense
    // domains, Tarjan's walk over sparse ones.
    bool prune_many(Store& s, bool& removed) {
        if (dense_pays(s)) return prune_dense(s, removed);
        components(s);
        return prune(s, removed, [this](std::size_t a, std::size_t j) {
            const auto mine = static_cast<std::size_t>(match_[static_cast<std::size_t>(open_list_[a])]);
            return comp_[j] == comp_[mine];
        });
    }

    // Whether DenseResidual's word operations cost less than a walk over
    // the edges: when the open views hold, on average, one value or more
    // in every other word of their hull. Sets dense_first_ and
    // dense_words_ to that hull, in words of value indices.
    bool dense_pays(const Store& s) {
        std::int64_t lo = views_[static_cast<std::size_t>(open_list_[0])].min(s), hi = lo, edges = 0;
        for (std::size_t a = 0; a < open_count_; ++a) {
            const View& x = views_[static_cast<std::size_t>(open_list_[a])];
            lo = std::min<std::int64_t>(lo, x.min(s));
            hi = std::max<std::int64_t>(hi, x.max(s));
            edges += x.size(s);
        }
        dense_first_ = static_cast<std::size_t>((lo - lo_) >> 6);
        dense_words_ = static_cast<std::size_t>((hi - lo_) >> 6) + 1 - dense_first_;
        return 2 * edges >= static_cast<std::int64_t>(open_count_ * dense_words_);
    }

    bool prune_dense(Store& s, bool& removed) {
        const std::size_t k = open_count_, words = dense_words_;
        const std::int64_t base = lo_ + 64 * static_cast<std::int64_t>(dense_first_);
        dense_.reset(k, words);
        for (std::size_t a = 0; a < k; ++a) {
            const auto y = static_cast<std::size_t>(open_list_[a]);
            std::uint64_t* row = dense_.row(a);
            // A scaled view has no word of its own to copy: its bits() gathers
            // value by value, each call over the whole domain.
            if constexpr (std::is_same_v<View, AffineView>) {
                std::fill_n(row, words, 0);
                views_[y].for_each(s, [&](int v) {
                    const auto j = static_cast<std::size_t>(v - base);
                    row[j >> 6] |= std::uint64_t{1} << (j & 63);
                });
            } else {
                for (std::size_t w = 0; w < words; ++w) row[w] = views_[y].bits(s, base + 64 * static_cast<std::int64_t>(w));
            }
            dense_.set_match(a, static_cast<std::size_t>(match_[y]) - 64 * dense_first_);
        }
        return dense_.prune([&](std::size_t a, std::size_t w, std::uint64_t gone) {
            const View& x = views_[static_cast<std::size_t>(open_list_[a])];
            for (; gone != 0; gone &= gone - 1) {
                if (x.remove(s, static_cast<int>(base + 64 * static_cast<std::int64_t>(w) + std::countr_zero(gone))) ==
                    Change::failed)
                    return false;
                removed = true;
            }
            return true;
        });
    }

    // Removes every unmatched edge (a, j) of the a-th open view that
    // keep(a, j) refuses; `removed` says whether there were any. The
    // matched edge stays, so a view only empties through another view of
    // its variable: then false (failure).
    template <class Keep>
    bool prune(Store& s, bool& removed, Keep keep) {
        for (std::size_t a = 0; a < open_count_; ++a) {
            const auto y = static_cast<std::size_t>(open_list_[a]);
            const View& x = views_[y];
            const int mine = match_[y];
            bool ok = true;
            x.for_each(s, [&](int v) {
                const auto j = static_cast<std::size_t>(v - lo_);
                if (ok && static_cast<int>(j) != mine && !keep(a, j)) {
                    ok = x.remove(s, v) != Change::failed;
                    removed = true;
                }
            });
            if (!ok) return false;
        }
        return true;
    }

    std::vector<View> views_;
    OpenViews open_;
    std::size_t n_;
    bool shared_;
    int lo_ = 0;         // the value with index 0
    std::size_t m_ = 0;  // number of value indices
    std::vector<int> match_;  // view -> value index, or -1
    std::vector<int> owner_;  // value index -> view, or -1
    // Scratch space, sized once: no allocation during search.
    std::vector<int> from_;
    std::vector<std::uint64_t> seen_;
    std::uint64_t stamp_ = 0;
    std::vector<int> bfs_;
    std::vector<int> unmatched_; // views repair_matching must match again
    std::vector<int> index_, low_, comp_;
    std::vector<std::size_t> cursor_;
    std::vector<std::uint8_t> on_stack_;
    std::vector<int> stack_, calls_;
    std::vector<std::size_t> degree_, start_, fill_;
    std::vector<int> to_;
    std::vector<int> held_; // values some open view holds, in the order first met
    std::size_t held_count_ = 0;
    std::vector<int> opened_; // nodes the last walk visited
    std::size_t opened_count_ = 0;
    // reach_by_words: the open views holding each value, each open view's
    // number in open_list_, and what each reaches.
    std::vector<std::uint64_t> holders_;
    std::vector<int> local_;
    std::vector<std::uint64_t> reach_;
    std::uint64_t free_reach_ = 0;
    // prune_by_masks: each open view's domain and matched value, as bits.
    std::vector<std::uint64_t> dom_, mine_;
    std::vector<int> rest_; // the open views that free values do not reach
    // prune_dense: the graph as words, over the value words dense_first_ ..
    // dense_first_ + dense_words_ - 1.
    DenseResidual dense_;
    std::size_t dense_first_ = 0, dense_words_ = 0;
    std::vector<int> open_list_; // views not fixed at this run
    std::size_t open_count_ = 0;
};

} // namespace propane::detail

#endif
