// Magic squares through Gecode's driver: the model of ../magic_square.cpp
// (n*n cells over 1..n*n, all different, each row, column and diagonal
// summing to n(n*n+1)/2, smallest domain / min value), run by Script::run
// with the command line of Gecode's SizeOptions, as the Gecode counterpart
// of examples/magic_square.cpp's command line, for bench/compile_time/run.py.
//
// Usage: magic_square [driver options] [N]   (order N, default 4; -help lists all)
//   examples/magic_square.cpp  Gecode's driver
//   N                          N (the size, last on the line)
//   --count                    -solutions 0 -mode stat
//   --limit K                  -solutions K (default 1)
//   --time-limit SECONDS       -time MILLISECONDS
//   --consistency C            -ipl val|bnd|dom (default bnd, as ../magic_square.cpp;
//                              the example's default is domain)
//   --threads K                -threads K (0: all hardware threads)
//   --json                     none
#include <gecode/driver.hh>
#include <gecode/int.hh>
#include <gecode/minimodel.hh>

#include <iomanip>
#include <iostream>

using namespace Gecode;

class MagicSquare : public Script {
public:
    int n;
    IntVarArray cells;

    explicit MagicSquare(const SizeOptions& opt)
        : Script(opt), n(static_cast<int>(opt.size())), cells(*this, n * n, 1, n * n) {
        const int sum = n * (n * n + 1) / 2;
        const Matrix<IntVarArray> m(cells, n, n);
        distinct(*this, cells, opt.ipl());
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
    MagicSquare(MagicSquare& other) : Script(other), n(other.n) { cells.update(*this, other.cells); }
    Space* copy() override { return new MagicSquare(*this); }
    void print(std::ostream& os) const override {
        for (int r = 0; r < n; ++r) {
            for (int c = 0; c < n; ++c) os << ' ' << std::setw(3) << cells[r * n + c].val();
            os << std::endl;
        }
        os << std::endl;
    }
};

int main(int argc, char* argv[]) {
    SizeOptions opt("magic_square");
    opt.size(4);
    opt.ipl(IPL_BND);
    opt.solutions(1);
    opt.parse(argc, argv);
    if (opt.size() < 1 || opt.size() > 30) {
        std::cerr << "magic_square: N must be an order from 1 to 30 (try -help)" << std::endl;
        return 2;
    }
    Script::run<MagicSquare, DFS, SizeOptions>(opt);
    return 0;
}
