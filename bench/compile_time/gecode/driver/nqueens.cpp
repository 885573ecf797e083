// N-queens through Gecode's driver: the model of ../nqueens.cpp (one
// variable per column, three distinct constraints at a chosen strength,
// first unbound / min value by default), run by Script::run with the command
// line of Gecode's SizeOptions plus a -val option, as the Gecode counterpart
// of examples/nqueens.cpp's command line, for bench/compile_time/run.py.
//
// Usage: nqueens [driver options] [N]   (N queens, default 8; -help lists all)
//   examples/nqueens.cpp     Gecode's driver
//   N                        N (the size, last on the line)
//   (every solution printed) -solutions 0, the default here
//   --count                  -mode stat
//   --first                  -solutions 1 (with --first's search: -branching
//                            smallest -val random -restart luby
//                            -restart-scale 100 -ipl val)
//   --limit K                -solutions K
//   --var V                  -branching first|smallest|largest|smallest-min|dom-wdeg
//                            (dom-wdeg: Gecode's accumulated failure count
//                            over domain size, decayed by -decay)
//   --val V                  -val min|max|middle|split|random
//   --seed S                 -seed S
//   --restarts luby|geometric|none, --restart-scale K
//                            -restart luby|geometric|none, -restart-scale K
//   --consistency C          -ipl val|bnd|dom (default bnd)
//   --time-limit SECONDS     -time MILLISECONDS
//   --threads K              -threads K (0: all hardware threads)
//   --output FILE            -file-sol FILE (-file-stat FILE: the statistics)
//   --unique, --symmetry, --json, --quiet
//                            none
#include <gecode/driver.hh>
#include <gecode/int.hh>
#include <gecode/minimodel.hh>

#include <iostream>

using namespace Gecode;

// Which column to branch on (-branching) and which row to try (-val).
enum { VAR_FIRST, VAR_SMALLEST, VAR_LARGEST, VAR_SMALLEST_MIN, VAR_DOM_WDEG };
enum { VAL_MIN, VAL_MAX, VAL_MIDDLE, VAL_SPLIT, VAL_RANDOM };

class QueensOptions : public SizeOptions {
    Driver::StringOption _val;

public:
    explicit QueensOptions(const char* name) : SizeOptions(name), _val("val", "which row to try", VAL_MIN) {
        _val.add(VAL_MIN, "min", "the lowest");
        _val.add(VAL_MAX, "max", "the highest");
        _val.add(VAL_MIDDLE, "middle", "the middle one");
        _val.add(VAL_SPLIT, "split", "the lower half first");
        _val.add(VAL_RANDOM, "random", "a random one (-seed)");
        add(_val);
    }
    int val() const { return _val.value(); }
};

class Queens : public Script {
public:
    IntVarArray q;

    explicit Queens(const QueensOptions& opt) : Script(opt), q(*this, static_cast<int>(opt.size()), 0,
                                                               static_cast<int>(opt.size()) - 1) {
        const int n = q.size();
        distinct(*this, q, opt.ipl());
        distinct(*this, IntArgs::create(n, 0, 1), q, opt.ipl());
        distinct(*this, IntArgs::create(n, 0, -1), q, opt.ipl());
        branch(*this, q, variable(opt), value(opt));
    }
    Queens(Queens& other) : Script(other) { q.update(*this, other.q); }
    Space* copy() override { return new Queens(*this); }
    // The board, a row per line, Q for a queen and _ for an empty square.
    void print(std::ostream& os) const override {
        const int n = q.size();
        for (int row = 0; row < n; ++row)
            for (int col = 0; col < n; ++col) os << (q[col].val() == row ? 'Q' : '_') << (col + 1 < n ? ' ' : '\n');
        os << std::endl;
    }

private:
    static IntVarBranch variable(const QueensOptions& opt) {
        switch (opt.branching()) {
        case VAR_SMALLEST: return INT_VAR_SIZE_MIN();
        case VAR_LARGEST: return INT_VAR_SIZE_MAX();
        case VAR_SMALLEST_MIN: return INT_VAR_MIN_MIN();
        case VAR_DOM_WDEG: return INT_VAR_AFC_SIZE_MAX(opt.decay());
        default: return INT_VAR_NONE();
        }
    }
    static IntValBranch value(const QueensOptions& opt) {
        switch (opt.val()) {
        case VAL_MAX: return INT_VAL_MAX();
        case VAL_MIDDLE: return INT_VAL_MED();
        case VAL_SPLIT: return INT_VAL_SPLIT_MIN();
        case VAL_RANDOM: return INT_VAL_RND(Rnd(opt.seed()));
        default: return INT_VAL_MIN();
        }
    }
};

int main(int argc, char* argv[]) {
    QueensOptions opt("nqueens");
    opt.size(8);
    opt.ipl(IPL_BND);
    opt.solutions(0); // every solution, as the example prints them all
    opt.branching(VAR_FIRST);
    opt.branching(VAR_FIRST, "first", "the first unplaced column");
    opt.branching(VAR_SMALLEST, "smallest", "the column with the fewest rows left");
    opt.branching(VAR_LARGEST, "largest", "the column with the most rows left");
    opt.branching(VAR_SMALLEST_MIN, "smallest-min", "the column with the lowest row left");
    opt.branching(VAR_DOM_WDEG, "dom-wdeg", "the most failures per row left");
    opt.parse(argc, argv);
    if (opt.size() < 1) {
        std::cerr << "nqueens: N must be a board size of 1 or more (try -help)" << std::endl;
        return 2;
    }
    Script::run<Queens, DFS, QueensOptions>(opt);
    return 0;
}
