// Sudoku in Gecode: the model and search of examples/sudoku.cpp (81 cells
// over 1..9, distinct over each row, column and box, smallest domain / min
// value), puzzles read one per line as that program reads them, for
// bench/compile_time/run.sh. Usage: sudoku [FILE] [value|bounds|domain]
#include <gecode/int.hh>
#include <gecode/minimodel.hh>
#include <gecode/search.hh>

#include "arguments.hpp"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

using namespace Gecode;

class Sudoku : public Space {
public:
    IntVarArray cell;

    Sudoku(const std::string& givens, IntPropLevel ipl) : cell(*this, 81, 1, 9) {
        const Matrix<IntVarArray> m(cell, 9, 9);
        for (int i = 0; i < 9; ++i) {
            distinct(*this, m.row(i), ipl);
            distinct(*this, m.col(i), ipl);
            distinct(*this, m.slice(3 * (i % 3), 3 * (i % 3) + 3, 3 * (i / 3), 3 * (i / 3) + 3), ipl);
        }
        for (int i = 0; i < 81; ++i)
            if (givens[static_cast<std::size_t>(i)] >= '1' && givens[static_cast<std::size_t>(i)] <= '9')
                rel(*this, cell[i], IRT_EQ, givens[static_cast<std::size_t>(i)] - '0');
        branch(*this, cell, INT_VAR_SIZE_MIN(), INT_VAL_MIN());
    }
    Sudoku(Sudoku& other) : Space(other) { cell.update(*this, other.cell); }
    Space* copy() override { return new Sudoku(*this); }
};

int main(int argc, char** argv) {
    const Arguments a = parse_arguments(argc, argv, 0, IPL_DOM);
    const char* file = a.file;
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
            std::fprintf(stderr, "line %d: not 81 characters\n", number);
            return 2;
        }
        Sudoku root(line, a.ipl);
        DFS<Sudoku> search(&root);
        unsigned long solutions = 0;
        std::printf("Puzzle %d\n", number);
        while (Sudoku* s = search.next()) {
            if (solutions++ == 0)
                for (int r = 0; r < 9; ++r) {
                    for (int c = 0; c < 9; ++c) std::printf("%d", s->cell[9 * r + c].val());
                    std::printf("\n");
                }
            delete s;
            if (solutions == 2) break; // one more than needed: is it unique?
        }
        const Search::Statistics st = search.statistics();
        std::printf("Solutions found: %lu, failures %lu, nodes %lu\n", solutions, st.fail, st.node);
    }
    return 0;
}
