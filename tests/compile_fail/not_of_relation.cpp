// expect: `!r` is not a constraint
#include <propane/engine/store.hpp>
#include <propane/model/reified.hpp>

void f(propane::Store<propane::BitDomain<1>>& s, propane::IntVar x, propane::IntVar y) {
    s.post(!(x < y));
}
