// Sudoku through Gecode's driver: the model of ../sudoku.cpp (81 cells over
// 1..9, distinct over each row, column and box, smallest domain / min
// value), puzzles read one per line as that program reads them, each run by
// Script::run with the command line of Gecode's InstanceOptions, as the
// Gecode counterpart of examples/sudoku.cpp's command line, for
// bench/compile_time/run.py.
//
// Usage: sudoku [driver options] [FILE]   (standard input without FILE; -help lists all)
//   examples/sudoku.cpp      Gecode's driver
//   FILE                     FILE (the puzzles, last on the line)
//   (is it unique?)          -solutions 2, the default here: both printed
//   --count                  -solutions 0 -mode stat
//   --limit K                -solutions K
//   --time-limit SECONDS     -time MILLISECONDS (per puzzle)
//   --consistency C          -ipl val|bnd|dom (default dom)
//   --json                   none
#include <gecode/driver.hh>
#include <gecode/int.hh>
#include <gecode/minimodel.hh>

#include <cstddef>
#include <fstream>
#include <iostream>
#include <string>

using namespace Gecode;

// The driver's options with the puzzle to solve: the script is built from
// its options alone.
class SudokuOptions : public InstanceOptions {
public:
    std::string givens; // 81 characters, '1'..'9' for a given
    explicit SudokuOptions(const char* name) : InstanceOptions(name) {}
};

class Sudoku : public Script {
public:
    IntVarArray cell;

    explicit Sudoku(const SudokuOptions& opt) : Script(opt), cell(*this, 81, 1, 9) {
        const Matrix<IntVarArray> m(cell, 9, 9);
        for (int i = 0; i < 9; ++i) {
            distinct(*this, m.row(i), opt.ipl());
            distinct(*this, m.col(i), opt.ipl());
            distinct(*this, m.slice(3 * (i % 3), 3 * (i % 3) + 3, 3 * (i / 3), 3 * (i / 3) + 3), opt.ipl());
        }
        const std::string& givens = opt.givens;
        for (int i = 0; i < 81; ++i)
            if (givens[static_cast<std::size_t>(i)] >= '1' && givens[static_cast<std::size_t>(i)] <= '9')
                rel(*this, cell[i], IRT_EQ, givens[static_cast<std::size_t>(i)] - '0');
        branch(*this, cell, INT_VAR_SIZE_MIN(), INT_VAL_MIN());
    }
    Sudoku(Sudoku& other) : Script(other) { cell.update(*this, other.cell); }
    Space* copy() override { return new Sudoku(*this); }
    void print(std::ostream& os) const override {
        for (int r = 0; r < 9; ++r) {
            for (int c = 0; c < 9; ++c) os << cell[9 * r + c].val();
            os << std::endl;
        }
        os << std::endl;
    }
};

int main(int argc, char* argv[]) {
    SudokuOptions opt("sudoku");
    opt.ipl(IPL_DOM);
    opt.solutions(2); // one more than needed: is it unique?
    opt.parse(argc, argv);
    const char* file = opt.instance();
    std::ifstream in;
    if (file != nullptr) in.open(file);
    std::istream& input = file != nullptr ? in : std::cin;
    std::string line;
    int number = 0;
    while (std::getline(input, line)) {
        ++number;
        if (line.empty() || line[0] == '#') continue;
        if (line.back() == '\r') line.pop_back();
        if (line.size() != 81) {
            std::cerr << "line " << number << ": not 81 characters" << std::endl;
            return 2;
        }
        opt.givens = line;
        const std::string title = "Puzzle " + std::to_string(number);
        opt.name(title.c_str()); // the driver's heading of each run
        Script::run<Sudoku, DFS, SudokuOptions>(opt);
    }
    return 0;
}
