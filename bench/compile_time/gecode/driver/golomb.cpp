// Golomb rulers through Gecode's driver: the model of ../golomb.cpp (marks
// over 0..n*n, the first at 0, increasing; one difference variable per pair,
// all different, the first below the last; branch and bound on the last
// mark, first unbound / min value), run by Script::run with the command line
// of Gecode's SizeOptions, as the Gecode counterpart of examples/golomb.cpp's
// command line, for bench/compile_time/run.py.
//
// Usage: golomb [driver options] [N]   (N marks, default 8; -help lists all)
//   examples/golomb.cpp      Gecode's driver
//   N                        N (the size, last on the line)
//   --consistency C          -ipl val|bnd|dom (default bnd)
//   --time-limit SECONDS     -time MILLISECONDS
//   --threads K              -threads K (0: all hardware threads)
//   --quiet                  -print-last 1 (only the final ruler)
//   --json                   none (-mode stat prints only the statistics)
#include <gecode/driver.hh>
#include <gecode/int.hh>
#include <gecode/minimodel.hh>

#include <iostream>

using namespace Gecode;

class Golomb : public IntMinimizeScript {
public:
    IntVarArray marks;

    explicit Golomb(const SizeOptions& opt)
        : IntMinimizeScript(opt), marks(*this, static_cast<int>(opt.size()), 0,
                                        static_cast<int>(opt.size() * opt.size())) {
        const int n = marks.size();
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
        if (n >= 2) distinct(*this, diffs, opt.ipl());
        if (n >= 3) rel(*this, diffs[0], IRT_LE, diffs[diffs.size() - 1]);
        branch(*this, marks, INT_VAR_NONE(), INT_VAL_MIN());
    }
    Golomb(Golomb& other) : IntMinimizeScript(other) { marks.update(*this, other.marks); }
    Space* copy() override { return new Golomb(*this); }
    IntVar cost() const override { return marks[marks.size() - 1]; }
    void print(std::ostream& os) const override {
        os << "length " << marks[marks.size() - 1].val() << ":";
        for (int i = 0; i < marks.size(); ++i) os << ' ' << marks[i].val();
        os << std::endl;
    }
};

int main(int argc, char* argv[]) {
    SizeOptions opt("golomb");
    opt.size(8);
    opt.ipl(IPL_BND);
    opt.solutions(0); // every improvement, down to the optimum
    opt.parse(argc, argv);
    if (opt.size() < 1 || opt.size() > 64) {
        std::cerr << "golomb: N must be a number of marks from 1 to 64 (try -help)" << std::endl;
        return 2;
    }
    IntMinimizeScript::run<Golomb, BAB, SizeOptions>(opt);
    return 0;
}
