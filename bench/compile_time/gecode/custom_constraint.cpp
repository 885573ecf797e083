// examples/custom_constraint.cpp in Gecode: increasing(xs) written as a
// propagator outside the library (a forward pass raising lower bounds, a
// backward pass lowering upper bounds), posted with x[1] != 1 and searched
// to the 9 solutions, for bench/compile_time/run.sh.
#include <gecode/int.hh>
#include <gecode/search.hh>

#include <cstdio>

using namespace Gecode;

class Increasing : public NaryPropagator<Int::IntView, Int::PC_INT_BND> {
    using Base = NaryPropagator<Int::IntView, Int::PC_INT_BND>;

public:
    Increasing(Home home, ViewArray<Int::IntView>& xs) : Base(home, xs) {}
    Increasing(Space& home, Increasing& other) : Base(home, other) {}
    Propagator* copy(Space& home) override { return new (home) Increasing(home, *this); }
    ExecStatus propagate(Space& home, const ModEventDelta&) override {
        for (int i = 1; i < x.size(); ++i)
            GECODE_ME_CHECK(x[i].gq(home, x[i - 1].min() + 1));
        for (int i = x.size() - 1; i > 0; --i)
            GECODE_ME_CHECK(x[i - 1].lq(home, x[i].max() - 1));
        return ES_FIX;
    }
    static ExecStatus post(Home home, ViewArray<Int::IntView>& xs) {
        (void)new (home) Increasing(home, xs);
        return ES_OK;
    }
};

void increasing(Home home, const IntVarArgs& xs) {
    GECODE_POST;
    ViewArray<Int::IntView> views(home, xs);
    GECODE_ES_FAIL(Increasing::post(home, views));
}

class Model : public Space {
public:
    IntVarArray x;

    Model() : x(*this, 4, 0, 5) {
        increasing(*this, x);
        rel(*this, x[1], IRT_NQ, 1);
        branch(*this, x, INT_VAR_NONE(), INT_VAL_MIN());
    }
    Model(Model& other) : Space(other) { x.update(*this, other.x); }
    Space* copy() override { return new Model(*this); }
};

int main() {
    Model root;
    if (root.status() == SS_FAILED) return 1;
    for (int i = 0; i < 4; ++i) std::printf("%d..%d ", root.x[i].min(), root.x[i].max());
    std::printf("\n");
    DFS<Model> search(&root);
    unsigned long solutions = 0;
    while (Model* s = search.next()) {
        std::printf("%d %d %d %d\n", s->x[0].val(), s->x[1].val(), s->x[2].val(), s->x[3].val());
        ++solutions;
        delete s;
    }
    return solutions == 9 ? 0 : 1;
}
