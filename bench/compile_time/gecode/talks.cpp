// examples/talks.cpp in Gecode: four talks in one room, no two overlapping
// (one order Boolean per pair, reified), the keynotes early unless talk 1
// precedes talk 3, at least two talks ending by slot 6; the end of the
// morning minimised, for bench/compile_time/run.sh.
#include <gecode/int.hh>
#include <gecode/search.hh>

#include <cstdio>

using namespace Gecode;

class Talks : public Space {
public:
    static constexpr int n = 4;
    IntVarArray start;
    IntVar last;

    Talks() : start(*this, n, 0, 11), last(*this, 0, 12) {
        const int length[n] = {3, 2, 4, 2};
        BoolVarArgs by6;
        BoolVar first13;
        for (int i = 0; i < n; ++i) {
            linear(*this, IntArgs({1, -1}), IntVarArgs({start[i], last}), IRT_LQ, -length[i]);
            for (int j = i + 1; j < n; ++j) {
                const BoolVar first(*this, 0, 1);
                linear(*this, IntArgs({1, -1}), IntVarArgs({start[i], start[j]}), IRT_LQ, -length[i],
                       Reify(first, RM_EQV));
                linear(*this, IntArgs({1, -1}), IntVarArgs({start[j], start[i]}), IRT_LQ, -length[j],
                       Reify(expr_not(first), RM_IMP));
                if (i == 1 && j == 3) first13 = first;
            }
            const BoolVar early(*this, 0, 1);
            rel(*this, start[i], IRT_LQ, 6 - length[i], Reify(early, RM_EQV));
            by6 << early;
        }
        const BoolVar keynotes_early(*this, 0, 1);
        linear(*this, IntVarArgs({start[0], start[2]}), IRT_LQ, 6, Reify(keynotes_early, RM_EQV));
        clause(*this, BOT_OR, BoolVarArgs({keynotes_early, first13}), BoolVarArgs(), 1);
        linear(*this, by6, IRT_GQ, 2);
        IntVarArgs decisions(start);
        decisions << last;
        branch(*this, decisions, INT_VAR_NONE(), INT_VAL_MIN());
    }
    Talks(Talks& other) : Space(other) {
        start.update(*this, other.start);
        last.update(*this, other.last);
    }
    Space* copy() override { return new Talks(*this); }
    void constrain(const Space& best) override { rel(*this, last, IRT_LE, static_cast<const Talks&>(best).last.val()); }

private:
    BoolVar expr_not(BoolVar b) {
        const BoolVar nb(*this, 0, 1);
        rel(*this, b, IRT_NQ, nb);
        return nb;
    }
};

int main() {
    Talks root;
    BAB<Talks> search(&root);
    bool found = false;
    while (Talks* s = search.next()) {
        std::printf("the morning ends at slot %d; starts:", s->last.val());
        for (int i = 0; i < Talks::n; ++i) std::printf(" %d", s->start[i].val());
        std::printf("\n");
        found = true;
        delete s;
    }
    std::printf("optimal after %lu failures\n", search.statistics().fail);
    return found ? 0 : 1;
}
