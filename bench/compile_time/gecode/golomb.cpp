// Golomb rulers in Gecode: the model and search of examples/golomb.cpp
// (marks over 0..n*n, the first at 0, increasing; one difference variable
// per pair, all different, the first below the last; branch and bound on
// the last mark, first unbound / min value), for bench/compile_time/run.sh.
// Usage: golomb [N] [value|bounds|domain]
#include <gecode/int.hh>
#include <gecode/search.hh>

#include "arguments.hpp"

#include <cstdio>

using namespace Gecode;

class Golomb : public Space {
public:
    IntVarArray marks;

    Golomb(int n, IntPropLevel ipl) : marks(*this, n, 0, n * n) {
        const int top = n * n;
        rel(*this, marks[0], IRT_EQ, 0);
        for (int i = 0; i + 1 < n; ++i) rel(*this, marks[i], IRT_LE, marks[i + 1]);
        IntVarArgs diffs;
        for (int i = 0; i < n; ++i)
            for (int j = i + 1; j < n; ++j) {
                const IntVar d(*this, 1, top);
                linear(*this, IntArgs({1, -1, -1}), IntVarArgs({marks[j], marks[i], d}), IRT_EQ, 0);
                diffs << d;
            }
        if (n >= 2) distinct(*this, diffs, ipl);
        if (n >= 3) rel(*this, diffs[0], IRT_LE, diffs[diffs.size() - 1]);
        branch(*this, marks, INT_VAR_NONE(), INT_VAL_MIN());
    }
    Golomb(Golomb& other) : Space(other) { marks.update(*this, other.marks); }
    Space* copy() override { return new Golomb(*this); }
    void constrain(const Space& best) override {
        const Golomb& b = static_cast<const Golomb&>(best);
        rel(*this, marks[marks.size() - 1], IRT_LE, b.marks[b.marks.size() - 1].val());
    }
};

int main(int argc, char** argv) {
    const Arguments a = parse_arguments(argc, argv, 8, IPL_BND);
    const int n = a.n;
    if (n < 1 || n > 64 || a.file != nullptr || a.first) {
        std::fprintf(stderr, "usage: golomb [N] [value|bounds|domain]\n");
        return 2;
    }
    Golomb root(n, a.ipl);
    BAB<Golomb> search(&root);
    while (Golomb* s = search.next()) {
        std::printf("length %d:", s->marks[n - 1].val());
        for (int i = 0; i < n; ++i) std::printf(" %d", s->marks[i].val());
        std::printf("\n");
        delete s;
    }
    const Search::Statistics st = search.statistics();
    std::printf("failures=%lu nodes=%lu\n", st.fail, st.node);
    return 0;
}
