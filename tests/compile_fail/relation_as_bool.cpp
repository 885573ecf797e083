// expect: is a constraint, not a bool
#include <propane/engine/store.hpp>
#include <propane/model/reified.hpp>

int f(propane::IntVar x, propane::IntVar y) {
    if (x < y) return 1;
    return 0;
}
