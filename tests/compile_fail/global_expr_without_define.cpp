// expect: a global constraint given an expression needs #include <propane/model/define.hpp>
#include <propane/constraints/all_different.hpp>
#include <propane/engine/store.hpp>
#include <propane/model/expr.hpp>

void f(propane::Store<propane::BitDomain<1>>& s, propane::IntVar x, propane::IntVar y, propane::IntVar z) {
    s.post(propane::all_different({x + y, y + z, x + z}));
}
