// The control: every spelling of logic over relations compiles.
#include <propane/engine/store.hpp>
#include <propane/model/logic.hpp>

void f(propane::Store<propane::BitDomain<1>>& s, propane::IntVar x, propane::IntVar y, propane::IntVar z) {
    const propane::IntVar b = s.bool_var(), c = s.bool_var();
    s.post((x > 2) >> (y < 3));
    s.post((x < y) || (y == z));
    s.post(!(x == z));
    s.post(b == ((x < y) && (z != 1)));
    s.post((x + y <= 4) >> ((x == 1) || (y >= 3)));
    s.post((x < y) == (y < z));
    s.post((x < y) != (b == (y < z)));
    s.post(b != (x < y));
    s.post((1 - b) >> ((x < y) || c));
    s.post(b || !c);
    s.post((b && c) >> (x * y == z));
    const propane::BoolExpr f = (x < y) && (b >> (y < z));
    s.post(c == f);
}
