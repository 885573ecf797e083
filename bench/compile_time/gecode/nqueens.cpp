// N-queens in Gecode: the model and search of examples/nqueens.cpp (one
// variable per column, three distinct constraints at a chosen strength,
// first unbound / min value), counting or printing solutions, for
// bench/compile_time/run.sh. Usage: nqueens [N] [value|bounds|domain] [--first]
#include <gecode/int.hh>
#include <gecode/search.hh>

#include "arguments.hpp"

#include <cstdio>

using namespace Gecode;

class Queens : public Space {
public:
    IntVarArray q;

    Queens(int n, IntPropLevel ipl) : q(*this, n, 0, n - 1) {
        distinct(*this, q, ipl);
        distinct(*this, IntArgs::create(n, 0, 1), q, ipl);
        distinct(*this, IntArgs::create(n, 0, -1), q, ipl);
        branch(*this, q, INT_VAR_NONE(), INT_VAL_MIN());
    }
    Queens(Queens& other) : Space(other) { q.update(*this, other.q); }
    Space* copy() override { return new Queens(*this); }
};

int main(int argc, char** argv) {
    const Arguments a = parse_arguments(argc, argv, 8, IPL_BND);
    const int n = a.n;
    const bool first = a.first;
    if (n < 1 || a.file != nullptr) {
        std::fprintf(stderr, "usage: nqueens [N] [value|bounds|domain] [--first]\n");
        return 2;
    }
    Queens root(n, a.ipl);
    DFS<Queens> search(&root);
    unsigned long solutions = 0;
    while (Queens* s = search.next()) {
        if (first) {
            for (int c = 0; c < n; ++c) std::printf("%d ", s->q[c].val());
            std::printf("\n");
        }
        ++solutions;
        delete s;
        if (first) break;
    }
    const Search::Statistics st = search.statistics();
    std::printf("solutions=%lu failures=%lu nodes=%lu\n", solutions, st.fail, st.node);
    return 0;
}
