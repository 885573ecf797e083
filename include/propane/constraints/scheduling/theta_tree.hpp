#ifndef PROPANE_CONSTRAINTS_SCHEDULING_THETA_TREE_HPP
#define PROPANE_CONSTRAINTS_SCHEDULING_THETA_TREE_HPP

// The Θ-Λ-tree (Vilím, "Θ-Λ-tree", 2008; the Θ-tree alone is from his
// 2004 paper): a balanced binary tree over a unary resource's tasks, one
// leaf per task in order of earliest start, each task either out, in Θ
// (white) or in Λ (gray). Every node keeps, for the tasks below it,
//   sum    the processing time of its Θ tasks;
//   ect    the earliest completion time of its Θ tasks, taken as a set
//          processed without overlap: max over its leaves j in Θ of
//          est_j + the processing of the Θ leaves from j on;
//   sum_g, ect_g  the same with at most one gray task counted as white,
//          the one that makes them greatest;
//   gray_sum, gray_ect  that gray task's leaf, or -1 when none helps.
// A change of one leaf recomputes its path to the root, O(log n); the
// root answers ECT(Θ) and the greatest ECT(Θ ∪ {i}) over gray i, with that
// i. The tree is an array: node k has children 2k and 2k + 1, the leaves
// are nodes size .. size + n - 1.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace propane::detail::scheduling {

// An ECT of no task: far enough below any time that adding every
// processing time to it stays below any time, and far from overflow.
inline constexpr std::int64_t no_time = std::numeric_limits<std::int64_t>::min() / 4;

// A template on nothing: see Timetable (timetable.hpp).
template <class = void>
class ThetaLambdaTree {
public:
    // Empties the tree and sizes it for n leaves; every leaf starts out.
    void reset(int n) {
        size_ = 1;
        while (size_ < n) size_ *= 2;
        nodes_.assign(2 * static_cast<std::size_t>(size_), Node{});
    }

    // Leaf `leaf` (a task's rank by earliest start) into Θ, into Λ, or out.
    void add(int leaf, std::int64_t est, std::int64_t p) {
        set(leaf, {p, est + p, p, est + p, -1, -1});
    }
    void make_gray(int leaf) {
        Node& n = at(leaf);
        set(leaf, {0, no_time, n.sum_g, n.ect_g, leaf, leaf});
    }
    void remove(int leaf) { set(leaf, Node{}); }

    std::int64_t ect() const noexcept { return nodes_[1].ect; }
    std::int64_t ect_gray() const noexcept { return nodes_[1].ect_g; }
    // The gray leaf ect_gray() counts, or -1.
    int responsible() const noexcept { return nodes_[1].gray_ect; }

private:
    struct Node {
        std::int64_t sum = 0;
        std::int64_t ect = no_time;
        std::int64_t sum_g = 0;
        std::int64_t ect_g = no_time;
        int gray_sum = -1;
        int gray_ect = -1;
    };

    Node& at(int leaf) { return nodes_[static_cast<std::size_t>(size_ + leaf)]; }

    void set(int leaf, const Node& value) {
        std::size_t k = static_cast<std::size_t>(size_ + leaf);
        nodes_[k] = value;
        for (k /= 2; k >= 1; k /= 2) combine(nodes_[k], nodes_[2 * k], nodes_[2 * k + 1]);
    }

    // The right child's tasks come after the left's in est order, so they
    // are processed after them: the left's completion is pushed by the
    // right's whole sum. One gray task at most: on the left or on the right.
    static void combine(Node& n, const Node& l, const Node& r) {
        n.sum = l.sum + r.sum;
        n.ect = std::max(r.ect, l.ect + r.sum);
        if (l.sum_g + r.sum >= l.sum + r.sum_g) {
            n.sum_g = l.sum_g + r.sum;
            n.gray_sum = l.gray_sum;
        } else {
            n.sum_g = l.sum + r.sum_g;
            n.gray_sum = r.gray_sum;
        }
        n.ect_g = r.ect_g;
        n.gray_ect = r.gray_ect;
        if (l.ect + r.sum_g > n.ect_g) {
            n.ect_g = l.ect + r.sum_g;
            n.gray_ect = r.gray_sum;
        }
        if (l.ect_g + r.sum > n.ect_g) {
            n.ect_g = l.ect_g + r.sum;
            n.gray_ect = l.gray_ect;
        }
    }

    int size_ = 1;
    std::vector<Node> nodes_;
};

} // namespace propane::detail::scheduling

#endif
