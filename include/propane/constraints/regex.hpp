#ifndef PROPANE_CONSTRAINTS_REGEX_HPP
#define PROPANE_CONSTRAINTS_REGEX_HPP

// regex(pattern): the minimal deterministic automaton of a regular
// expression over integer symbols, for regular(xs, dfa), in MiniZinc's
// syntax for regular(x, r):
//
//   s.post(propane::regular(row, propane::regex("0* 1{3} 0+ 1{2} 0*")));
//
//   12 34        12 then 34 (a number is a run of digits: blanks split them)
//   7|11         7 or 11
//   7(6|8)       a group
//   [3-6 8]      a class: 3, 4, 5, 6 or 8
//   12*  5?  4+  zero or more, zero or one, one or more
//   1{3}  9{5,}  7{3,5}   exactly 3, at least 5, 3 to 5
//   .  [^3 5]    any symbol of the alphabet, any but 3 or 5: these need
//                regex(pattern, lo, hi), the alphabet lo..hi (MiniZinc
//                takes it from the domain of x)
//
// The grammar in full is regex/parse.hpp's. Symbols are 0 .. INT_MAX (no
// sign, as MiniZinc). A pattern that does not parse is a model_error naming
// what was expected and the position, counted from 0 in bytes:
// `regex("0* (1 | 2"): expected ')' at position 9, found the end`.
//
// The automaton: Thompson's construction (a counted repetition copies what
// it repeats), the subset construction over the symbol ranges the pattern
// tells apart, and minimization (regex/minimize.hpp). The result has no
// state that rejects everything after it (a missing transition rejects),
// is numbered from its start, 0, in breadth-first order by symbol, and
// lists its transitions by state and symbol: equal languages give equal
// Dfa values. A pattern that matches nothing gives one state and no final.
// Sizes past regex_limit (regex/parse.hpp) are refused with a model_error:
// "[0-9]{2000000}", or "(0|1)* 1 (0|1){40}", whose deterministic automaton
// needs 2^40 states.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../engine/error.hpp"
#include "regex/minimize.hpp"
#include "regex/parse.hpp"
#include "regular.hpp"

namespace propane {

// regex() and everything it calls are templates on nothing: g++ compiles
// the std templates (sorts, vectors of vectors) a non-template inline
// function uses in every file that includes it, so a model that never calls
// regex() would pay for compiling it.

namespace detail::re {

inline std::size_t at(int i) { return static_cast<std::size_t>(i); }

// Thompson's automaton: a state reads one symbol of a set and goes to
// `out`, or moves without reading to `out` and (when set) `out1`, or is the
// accepting state.
struct Nfa {
    static constexpr int split = -1;
    static constexpr int match = -2;
    struct State {
        int set = split; // a Tree::sets index, split or match
        int out = -1;
        int out1 = -1;
    };
    std::vector<State> states;
    int start = 0;
};

template <class = void>
class Thompson {
public:
    explicit Thompson(const Tree& tree) : tree_(tree) {}

    Nfa build() {
        nfa_.states.reserve(static_cast<std::size_t>(tree_.nodes[at(tree_.root)].size) + 1);
        Fragment f = fragment(tree_.root);
        patch(f.outs, add(Nfa::match));
        nfa_.start = f.start;
        return std::move(nfa_);
    }

private:
    // A piece of automaton with one way in and loose ends: each 2*q + slot
    // names state q's out (slot 0) or out1 (slot 1), to be tied to what
    // follows.
    struct Fragment {
        int start = -1;
        std::vector<int> outs;
    };

    const Tree& tree_;
    Nfa nfa_;

    int add(int set, int out = -1) {
        nfa_.states.push_back({set, out, -1});
        return static_cast<int>(nfa_.states.size()) - 1;
    }

    void patch(const std::vector<int>& outs, int to) {
        for (const int o : outs) (o % 2 == 0 ? nfa_.states[at(o / 2)].out : nfa_.states[at(o / 2)].out1) = to;
    }

    void then(std::optional<Fragment>& whole, Fragment next) {
        if (!whole) {
            whole = std::move(next);
            return;
        }
        patch(whole->outs, next.start);
        whole->outs = std::move(next.outs);
    }

    Fragment fragment(int n) {
        const Node& node = tree_.nodes[at(n)];
        switch (node.kind) {
        case Node::Kind::symbols: {
            const int q = add(node.set);
            return {q, {2 * q}};
        }
        case Node::Kind::concat: {
            std::optional<Fragment> whole;
            for (const int kid : node.kids) then(whole, fragment(kid));
            return std::move(*whole);
        }
        case Node::Kind::alt: {
            Fragment whole = fragment(node.kids[0]);
            for (std::size_t k = 1; k < node.kids.size(); ++k) {
                Fragment other = fragment(node.kids[k]);
                const int q = add(Nfa::split, whole.start);
                nfa_.states[at(q)].out1 = other.start;
                whole.start = q;
                whole.outs.insert(whole.outs.end(), other.outs.begin(), other.outs.end());
            }
            return whole;
        }
        case Node::Kind::repeat: break;
        }
        return repeat(node); // the one kind left
    }

    // r{n} r*, as r{n-1} r+ when n > 0; r{n,m} as r{n} (r (r ...)?)?, whose
    // nesting keeps one way out of each optional copy instead of m - n.
    Fragment repeat(const Node& node) {
        const int kid = node.kids[0];
        std::optional<Fragment> whole;
        const int copies = node.max == unbounded && node.min > 0 ? node.min - 1 : node.min;
        for (int i = 0; i < copies; ++i) then(whole, fragment(kid));
        if (node.max == unbounded) {
            Fragment body = fragment(kid);
            const int loop = add(Nfa::split, body.start);
            patch(body.outs, loop);
            then(whole, Fragment{node.min == 0 ? loop : body.start, {2 * loop + 1}});
        } else if (node.max > node.min) {
            std::optional<Fragment> tail;
            for (int i = node.min; i < node.max; ++i) {
                Fragment f = fragment(kid);
                if (tail) {
                    patch(f.outs, tail->start);
                    f.outs = std::move(tail->outs);
                }
                const int skip = add(Nfa::split, f.start);
                f.outs.push_back(2 * skip + 1);
                f.start = skip;
                tail = std::move(f);
            }
            then(whole, std::move(*tail));
        } else if (!whole) { // r{0}: the empty word
            const int q = add(Nfa::split);
            then(whole, Fragment{q, {2 * q}});
        }
        return std::move(*whole);
    }
};

// The symbols the pattern tells apart: the ranges between consecutive
// bounds of its sets that some set holds. Each set is a run of consecutive
// segments per interval, so the subset construction reads segments, not
// symbols: "[0-999999]" is one.
struct Segments {
    std::vector<Interval> ranges;
    std::vector<std::vector<Interval>> of_set; // per set, runs of segment indices
};

template <class = void>
Segments segments(const Tree& tree) {
    std::vector<std::int64_t> bounds;
    for (const SymbolSet& set : tree.sets)
        for (const Interval& i : set) bounds.push_back(i.lo), bounds.push_back(std::int64_t{i.hi} + 1);
    std::sort(bounds.begin(), bounds.end());
    bounds.erase(std::unique(bounds.begin(), bounds.end()), bounds.end());
    const auto index = [&](std::int64_t v) {
        return static_cast<std::size_t>(std::lower_bound(bounds.begin(), bounds.end(), v) - bounds.begin());
    };
    std::vector<int> cover(bounds.size() + 1, 0);
    for (const SymbolSet& set : tree.sets)
        for (const Interval& i : set) ++cover[index(i.lo)], --cover[index(std::int64_t{i.hi} + 1)];
    Segments out;
    std::vector<int> kept(bounds.size(), -1);
    int depth = 0; // how many sets' intervals cover the range from bounds[k]
    for (std::size_t k = 0; k + 1 < bounds.size(); ++k) {
        depth += cover[k];
        if (depth == 0) continue;
        kept[k] = static_cast<int>(out.ranges.size());
        out.ranges.push_back({static_cast<int>(bounds[k]), static_cast<int>(bounds[k + 1] - 1)});
    }
    for (const SymbolSet& set : tree.sets) {
        std::vector<Interval> runs;
        for (const Interval& i : set) runs.push_back({kept[index(i.lo)], kept[index(std::int64_t{i.hi} + 1) - 1]});
        out.of_set.push_back(std::move(runs));
    }
    return out;
}

// The deterministic states' keys, numbered in the order found, and an
// open-addressing table (linear probing, at most half full) from key to
// number. std::unordered_map would do, but its header alone adds about 8%
// to the compile of every file that includes propane.hpp.
template <class = void>
class KeyIds {
public:
    // The number of `key`, and whether it is new (it is then the last).
    std::pair<int, bool> insert(std::vector<int>&& key) {
        const std::uint64_t h = hash(key);
        std::size_t i = slot(h);
        for (; slots_[i] >= 0; i = (i + 1) & (slots_.size() - 1)) {
            const int id = slots_[i];
            if (hashes_[at(id)] == h && keys_[at(id)] == key) return {id, false};
        }
        const int id = static_cast<int>(keys_.size());
        slots_[i] = id;
        keys_.push_back(std::move(key));
        hashes_.push_back(h);
        if (2 * keys_.size() > slots_.size()) grow();
        return {id, true};
    }

    std::size_t size() const { return keys_.size(); }
    const std::vector<int>& key(std::size_t id) const { return keys_[id]; }

private:
    std::vector<std::vector<int>> keys_;
    std::vector<std::uint64_t> hashes_;
    std::vector<int> slots_ = std::vector<int>(64, -1);

    // FNV-1a, then a mix so that the low bits the table uses depend on
    // every bit of every state.
    static std::uint64_t hash(const std::vector<int>& key) {
        std::uint64_t h = 0xcbf29ce484222325ULL;
        for (const int q : key) h = (h ^ static_cast<std::uint32_t>(q)) * 0x100000001b3ULL;
        h ^= h >> 32;
        h *= 0xd6e8feb86659fd93ULL;
        return h ^ (h >> 32);
    }

    std::size_t slot(std::uint64_t h) const { return static_cast<std::size_t>(h) & (slots_.size() - 1); }

    void grow() {
        slots_.assign(2 * slots_.size(), -1);
        for (std::size_t id = 0; id < keys_.size(); ++id) {
            std::size_t i = slot(hashes_[id]);
            while (slots_[i] >= 0) i = (i + 1) & (slots_.size() - 1);
            slots_[i] = static_cast<int>(id);
        }
    }
};

// The subset construction. A deterministic state is the set of NFA states
// the words leading to it reach, closed under the moves that read nothing;
// only the states that read (and the accepting one) tell two such sets
// apart, so they alone make its key.
template <class = void>
Automaton determinized(const Nfa& nfa, const Segments& seg, std::string_view pattern) {
    std::vector<int> seen(nfa.states.size(), 0);
    int round = 0;
    std::vector<int> stack;
    const auto closure = [&](std::vector<int>& key) {
        ++round;
        stack.assign(key.begin(), key.end());
        key.clear();
        while (!stack.empty()) {
            const int q = stack.back();
            stack.pop_back();
            if (seen[at(q)] == round) continue;
            seen[at(q)] = round;
            const Nfa::State& s = nfa.states[at(q)];
            if (s.set != Nfa::split) {
                key.push_back(q);
                continue;
            }
            stack.push_back(s.out);
            if (s.out1 >= 0) stack.push_back(s.out1);
        }
        std::sort(key.begin(), key.end());
    };
    const auto too_large = [&](const std::string& what) {
        throw model_error(describe(pattern) + ": the deterministic automaton grows past propane::regex_limit (" +
                          std::to_string(regex_limit) + "): " + what +
                          " (a choice repeated, as in \"(0|1)* 1 (0|1){40}\", can need 2^40 states)");
    };

    Automaton a;
    KeyIds<> keys;
    std::int64_t held = 0; // the NFA states the keys hold in all
    const auto state_of = [&](std::vector<int>&& key) {
        const auto [id, fresh] = keys.insert(std::move(key));
        if (fresh) {
            const std::vector<int>& added = keys.key(at(id));
            held += static_cast<std::int64_t>(added.size());
            if (held > 10 * regex_limit)
                too_large("its states are sets of more than " + std::to_string(10 * regex_limit) +
                          " NFA states in all");
            bool accepts = false;
            for (const int q : added) accepts = accepts || nfa.states[at(q)].set == Nfa::match;
            a.final.push_back(accepts ? 1 : 0);
        }
        return id;
    };

    std::vector<int> first{nfa.start};
    closure(first);
    a.start = state_of(std::move(first));
    std::vector<std::vector<int>> moves(seg.ranges.size()); // per segment, the states it leads to
    std::vector<int> touched;
    for (std::size_t d = 0; d < keys.size(); ++d) {
        for (const int q : keys.key(d)) {
            const Nfa::State& s = nfa.states[at(q)];
            if (s.set < 0) continue;
            for (const Interval& run : seg.of_set[at(s.set)])
                for (int k = run.lo; k <= run.hi; ++k) {
                    if (moves[at(k)].empty()) touched.push_back(k);
                    moves[at(k)].push_back(s.out);
                }
        }
        std::sort(touched.begin(), touched.end());
        for (const int k : touched) {
            std::vector<int> key = std::move(moves[at(k)]);
            moves[at(k)].clear();
            closure(key);
            const int to = state_of(std::move(key));
            a.tail.push_back(static_cast<int>(d));
            a.label.push_back(k);
            a.head.push_back(to);
            if (static_cast<std::int64_t>(a.tail.size()) > regex_limit)
                too_large("more than " + std::to_string(regex_limit) + " transitions over " +
                          std::to_string(seg.ranges.size()) + " ranges of symbols");
        }
        touched.clear();
    }
    a.states = static_cast<int>(keys.size());
    return a;
}

// The minimal automaton as a Dfa: states renumbered breadth-first from the
// start, symbol by symbol, each segment's transition one per symbol.
template <class = void>
Dfa as_dfa(const Automaton& m, const Segments& seg, std::string_view pattern) {
    if (m.states == 0) return Dfa{.states = 1, .start = 0, .finals = {}, .transitions = {}};
    std::int64_t count = 0;
    for (const int l : m.label) count += std::int64_t{seg.ranges[at(l)].hi} - seg.ranges[at(l)].lo + 1;
    if (count > regex_limit)
        throw model_error(describe(pattern) + ": the automaton has " + std::to_string(count) +
                          " transitions, past propane::regex_limit (" + std::to_string(regex_limit) + ")");
    std::vector<std::vector<std::pair<int, int>>> out(at(m.states)); // (segment, head) per state
    for (std::size_t k = 0; k < m.tail.size(); ++k) out[at(m.tail[k])].push_back({m.label[k], m.head[k]});
    for (auto& o : out) std::sort(o.begin(), o.end());
    std::vector<int> order{m.start}; // old numbers, by new
    std::vector<int> renamed(at(m.states), -1);
    renamed[at(m.start)] = 0;
    for (std::size_t i = 0; i < order.size(); ++i)
        for (const auto& [l, to] : out[at(order[i])])
            if (renamed[at(to)] < 0) {
                renamed[at(to)] = static_cast<int>(order.size());
                order.push_back(to);
            }
    Dfa dfa{.states = m.states, .start = 0, .finals = {}, .transitions = {}};
    dfa.transitions.reserve(static_cast<std::size_t>(count));
    for (int q = 0; q < m.states; ++q) {
        const int old = order[at(q)];
        if (m.final[at(old)]) dfa.finals.push_back(q);
        for (const auto& [l, to] : out[at(old)])
            for (std::int64_t v = seg.ranges[at(l)].lo; v <= seg.ranges[at(l)].hi; ++v)
                dfa.transitions.push_back({q, static_cast<int>(v), renamed[at(to)]});
    }
    return dfa;
}

template <class = void>
Dfa compile(std::string_view pattern, std::optional<Interval> alphabet) {
    const Tree tree = Parser<>(pattern, alphabet).parse();
    const Segments seg = segments(tree);
    const Nfa nfa = Thompson<>(tree).build();
    return as_dfa(minimized(determinized(nfa, seg, pattern)), seg, pattern);
}

} // namespace detail::re

// Templates only so that a file that never calls them does not compile them.
template <class = void>
Dfa regex(std::string_view pattern) { return detail::re::compile(pattern, std::nullopt); }

// '.' is any of lo..hi and "[^ ...]" those of lo..hi it does not list.
template <class = void>
Dfa regex(std::string_view pattern, int lo, int hi) {
    if (lo > hi)
        throw model_error(detail::re::describe(pattern) + ": the alphabet " + std::to_string(lo) + ".." +
                          std::to_string(hi) + " is empty");
    return detail::re::compile(pattern, detail::re::Interval{lo, hi});
}

} // namespace propane

#endif
