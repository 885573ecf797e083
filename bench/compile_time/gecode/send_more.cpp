// SEND + MORE = MONEY in Gecode: the model and search of
// examples/send_more.cpp, for bench/compile_time/run.sh.
#include <gecode/int.hh>
#include <gecode/search.hh>

#include <cstdio>

using namespace Gecode;

class SendMore : public Space {
public:
    IntVarArray l; // S E N D M O R Y

    SendMore() : l(*this, 8, 0, 9) {
        distinct(*this, l, IPL_DOM);
        rel(*this, l[0], IRT_NQ, 0);
        rel(*this, l[4], IRT_NQ, 0);
        linear(*this, IntArgs({1000, 91, -90, 1, -9000, -900, 10, -1}), l, IRT_EQ, 0);
        branch(*this, l, INT_VAR_SIZE_MIN(), INT_VAL_MIN());
    }
    SendMore(SendMore& other) : Space(other) { l.update(*this, other.l); }
    Space* copy() override { return new SendMore(*this); }
};

int main() {
    SendMore root;
    DFS<SendMore> search(&root);
    unsigned long solutions = 0;
    while (SendMore* s = search.next()) {
        const IntVarArray& l = s->l;
        std::printf("  %d%d%d%d\n+ %d%d%d%d\n= %d%d%d%d%d\n", l[0].val(), l[1].val(), l[2].val(), l[3].val(),
                    l[4].val(), l[5].val(), l[6].val(), l[1].val(), l[4].val(), l[5].val(), l[2].val(), l[1].val(),
                    l[7].val());
        ++solutions;
        delete s;
    }
    const Search::Statistics st = search.statistics();
    std::printf("%lu solution(s), %lu failures, %lu nodes\n", solutions, st.fail, st.node);
    return solutions == 1 ? 0 : 1;
}
