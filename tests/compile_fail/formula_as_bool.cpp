// expect: a formula such as (x < y) && (y < z) is a constraint, not a bool
#include <propane/engine/store.hpp>
#include <propane/model/logic.hpp>

int f(propane::IntVar x, propane::IntVar y, propane::IntVar z) {
    if ((x < y) && (y < z)) return 1;
    return 0;
}
