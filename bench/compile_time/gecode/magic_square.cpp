// Magic squares in Gecode: the model and search of examples/magic_square.cpp
// (n*n cells over 1..n*n, all different, each row, column and diagonal
// summing to n(n*n+1)/2, smallest domain / min value), for
// bench/compile_time/run.sh. Usage: magic_square [N] [value|bounds|domain]
#include <gecode/int.hh>
#include <gecode/minimodel.hh>
#include <gecode/search.hh>

#include "arguments.hpp"

#include <cstdio>

using namespace Gecode;

class MagicSquare : public Space {
public:
    IntVarArray cells;

    MagicSquare(int n, IntPropLevel ipl) : cells(*this, n * n, 1, n * n) {
        const int sum = n * (n * n + 1) / 2;
        const Matrix<IntVarArray> m(cells, n, n);
        distinct(*this, cells, ipl);
        IntVarArgs diagonal, anti_diagonal;
        for (int i = 0; i < n; ++i) {
            linear(*this, m.row(i), IRT_EQ, sum);
            linear(*this, m.col(i), IRT_EQ, sum);
            diagonal << m(i, i);
            anti_diagonal << m(n - 1 - i, i);
        }
        linear(*this, diagonal, IRT_EQ, sum);
        linear(*this, anti_diagonal, IRT_EQ, sum);
        branch(*this, cells, INT_VAR_SIZE_MIN(), INT_VAL_MIN());
    }
    MagicSquare(MagicSquare& other) : Space(other) { cells.update(*this, other.cells); }
    Space* copy() override { return new MagicSquare(*this); }
};

int main(int argc, char** argv) {
    const Arguments a = parse_arguments(argc, argv, 4, IPL_BND);
    const int n = a.n;
    if (n < 1 || n > 30 || a.file != nullptr || a.first) {
        std::fprintf(stderr, "usage: magic_square [N] [value|bounds|domain]\n");
        return 2;
    }
    MagicSquare root(n, a.ipl);
    DFS<MagicSquare> search(&root);
    if (MagicSquare* s = search.next()) {
        for (int r = 0; r < n; ++r) {
            for (int c = 0; c < n; ++c) std::printf(" %3d", s->cells[r * n + c].val());
            std::printf("\n");
        }
        delete s;
    }
    const Search::Statistics st = search.statistics();
    std::printf("failures=%lu nodes=%lu\n", st.fail, st.node);
    return 0;
}
