// expect: to compare variable handles use x.same(y)
#include <propane/engine/store.hpp>
#include <propane/model/reified.hpp>

bool f(propane::IntVar x, propane::IntVar y) {
    const bool equal = x == y;
    return equal;
}
