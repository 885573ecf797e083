// expect: `r1 == r2` compares two relations
#include <propane/engine/store.hpp>
#include <propane/model/reified.hpp>

void f(propane::Store<propane::BitDomain<1>>& s, propane::IntVar x, propane::IntVar y, propane::IntVar z) {
    s.post((x < y) == (y < z));
}
