#ifndef PROPANE_CONSTRAINTS_REGEX_MINIMIZE_HPP
#define PROPANE_CONSTRAINTS_REGEX_MINIMIZE_HPP

// The minimal automaton of a deterministic one whose transition function
// is partial (a missing transition rejects), as regex() (constraints/
// regex.hpp) needs it: Valmari and Lehtinen, "Efficient minimization of
// DFAs with partial transition functions" (STACS 2008), O(m log n) for m
// transitions and n states. Hopcroft's algorithm needs a complete function,
// that is a sink state with a transition from every state on every label,
// which for a pattern over thousands of symbols is most of the work.
//
// First the states that no word leads to, or that lead to no final state,
// are dropped with their transitions. Then two partitions refine each
// other: the states into blocks (first the finals and the others) and the
// transitions into cords (first by label). Every cord splits the blocks
// into the states with a transition in it and those without; every new
// block splits the cords into the transitions that enter it and those that
// do not. As in Hopcroft's, a set that splits is used again only through
// its smaller part, and one initial block is never used at all (cords that
// enter every block but it already tell it apart). At the end two states
// share a block exactly when they accept the same words.
//
// The code is templates on nothing, as the rest of regex(): g++ compiles the
// std templates a non-template inline function uses in every file that
// includes it, called or not.

#include <algorithm>
#include <cstddef>
#include <vector>

namespace propane::detail::re {

// States 0 .. states-1; transition k reads label[k] from tail[k] to
// head[k], at most one per state and label.
struct Automaton {
    int states = 0;
    int start = 0;
    std::vector<char> final;
    std::vector<int> tail, label, head;
};

// A partition of 0 .. n-1 that can split every set into its marked and
// unmarked elements in time proportional to the marked ones. The elements
// of a set are a contiguous slice of one array, the marked ones at its
// front.
template <class = void>
class Refinable {
public:
    explicit Refinable(int n)
        : elems_(at(n)), index_(at(n)), set_(at(n), 0), first_(at(n), 0), past_(at(n), 0), marked_(at(n), 0) {
        for (int e = 0; e < n; ++e) elems_[at(e)] = index_[at(e)] = e;
        if (n > 0) {
            sets_ = 1;
            past_[0] = n;
        }
    }

    int sets() const { return sets_; }
    int set_of(int e) const { return set_[at(e)]; }
    int first(int s) const { return first_[at(s)]; }
    int past(int s) const { return past_[at(s)]; }
    int element(int i) const { return elems_[at(i)]; }
    bool leads(int e) const { return index_[at(e)] == first(set_of(e)); }

    void mark(int e) {
        const int s = set_of(e);
        const int i = index_[at(e)];
        const int j = first_[at(s)] + marked_[at(s)];
        if (i < j) return; // marked already
        elems_[at(i)] = elems_[at(j)];
        index_[at(elems_[at(i)])] = i;
        elems_[at(j)] = e;
        index_[at(e)] = j;
        if (marked_[at(s)]++ == 0) touched_.push_back(s);
    }

    // The part that leaves a set is its smaller one, so an element changes
    // sets O(log n) times in all.
    void split() {
        while (!touched_.empty()) {
            const int s = touched_.back();
            touched_.pop_back();
            const int cut = first_[at(s)] + marked_[at(s)];
            marked_[at(s)] = 0;
            if (cut == past_[at(s)]) continue; // all marked: nothing to split
            const int z = sets_++;
            if (cut - first_[at(s)] <= past_[at(s)] - cut) {
                first_[at(z)] = first_[at(s)];
                past_[at(z)] = cut;
                first_[at(s)] = cut;
            } else {
                first_[at(z)] = cut;
                past_[at(z)] = past_[at(s)];
                past_[at(s)] = cut;
            }
            for (int i = first_[at(z)]; i < past_[at(z)]; ++i) set_[at(elems_[at(i)])] = z;
        }
    }

private:
    static std::size_t at(int i) { return static_cast<std::size_t>(i); }

    std::vector<int> elems_, index_, set_, first_, past_, marked_;
    std::vector<int> touched_;
    int sets_ = 0;
};

// The states reached from those in `seed`, following each transition k
// from along[k] to to[k] (forward: tails to heads; backward: heads to tails).
template <class = void>
std::vector<char> reached(const Automaton& a, const std::vector<int>& seed, const std::vector<int>& along,
                                 const std::vector<int>& to) {
    const auto u = [](int i) { return static_cast<std::size_t>(i); };
    std::vector<int> offset(u(a.states) + 1, 0); // transitions grouped by `along`
    for (const int q : along) ++offset[u(q) + 1];
    for (int q = 0; q < a.states; ++q) offset[u(q) + 1] += offset[u(q)];
    std::vector<int> by(along.size());
    std::vector<int> fill(offset.begin(), offset.end() - 1);
    for (std::size_t k = 0; k < along.size(); ++k) by[u(fill[u(along[k])]++)] = static_cast<int>(k);
    std::vector<char> seen(u(a.states), 0);
    std::vector<int> stack;
    for (const int q : seed)
        if (!seen[u(q)]) seen[u(q)] = 1, stack.push_back(q);
    while (!stack.empty()) {
        const int q = stack.back();
        stack.pop_back();
        for (int i = offset[u(q)]; i < offset[u(q) + 1]; ++i) {
            const int r = to[u(by[u(i)])];
            if (!seen[u(r)]) seen[u(r)] = 1, stack.push_back(r);
        }
    }
    return seen;
}

// The minimal automaton accepting what `a` accepts, every state reachable
// and leading to a final state; with no word accepted, no state at all.
template <class = void>
Automaton minimized(const Automaton& a) {
    const auto u = [](int i) { return static_cast<std::size_t>(i); };
    std::vector<int> finals;
    for (int q = 0; q < a.states; ++q)
        if (a.final[u(q)]) finals.push_back(q);
    const std::vector<char> forward = reached(a, {a.start}, a.tail, a.head);
    const std::vector<char> backward = reached(a, finals, a.head, a.tail);
    if (!forward[u(a.start)] || !backward[u(a.start)]) return Automaton{};

    // The useful states, renumbered, and the transitions between them.
    std::vector<int> id(u(a.states), -1);
    int n = 0;
    for (int q = 0; q < a.states; ++q)
        if (forward[u(q)] && backward[u(q)]) id[u(q)] = n++;
    std::vector<int> tail, label, head;
    for (std::size_t k = 0; k < a.tail.size(); ++k) {
        const int from = id[u(a.tail[k])];
        const int to = id[u(a.head[k])];
        if (from < 0 || to < 0) continue;
        tail.push_back(from);
        label.push_back(a.label[k]);
        head.push_back(to);
    }
    const int m = static_cast<int>(tail.size());

    Refinable<> blocks(n);
    for (const int q : finals)
        if (id[u(q)] >= 0) blocks.mark(id[u(q)]);
    blocks.split();

    Refinable<> cords(m);
    {
        int labels = 0;
        for (const int l : label) labels = std::max(labels, l + 1);
        std::vector<std::vector<int>> with(u(labels));
        for (int k = 0; k < m; ++k) with[u(label[u(k)])].push_back(k);
        for (const std::vector<int>& ks : with) {
            for (const int k : ks) cords.mark(k);
            cords.split();
        }
    }

    std::vector<int> offset(u(n) + 1, 0); // the transitions entering each state
    for (const int q : head) ++offset[u(q) + 1];
    for (int q = 0; q < n; ++q) offset[u(q) + 1] += offset[u(q)];
    std::vector<int> entering(u(m));
    {
        std::vector<int> fill(offset.begin(), offset.end() - 1);
        for (int k = 0; k < m; ++k) entering[u(fill[u(head[u(k)])]++)] = k;
    }

    int b = 1; // block 0 never splits cords; see the top of this file
    for (int c = 0; c < cords.sets(); ++c) {
        for (int i = cords.first(c); i < cords.past(c); ++i) blocks.mark(tail[u(cords.element(i))]);
        blocks.split();
        for (; b < blocks.sets(); ++b) {
            for (int i = blocks.first(b); i < blocks.past(b); ++i) {
                const int q = blocks.element(i);
                for (int j = offset[u(q)]; j < offset[u(q) + 1]; ++j) cords.mark(entering[u(j)]);
            }
            cords.split();
        }
    }

    Automaton out;
    out.states = blocks.sets();
    out.start = blocks.set_of(id[u(a.start)]);
    out.final.assign(u(out.states), 0);
    for (const int q : finals)
        if (id[u(q)] >= 0) out.final[u(blocks.set_of(id[u(q)]))] = 1;
    for (int k = 0; k < m; ++k) {
        if (!blocks.leads(tail[u(k)])) continue; // the block's first state speaks for it
        out.tail.push_back(blocks.set_of(tail[u(k)]));
        out.label.push_back(label[u(k)]);
        out.head.push_back(blocks.set_of(head[u(k)]));
    }
    return out;
}

} // namespace propane::detail::re

#endif
