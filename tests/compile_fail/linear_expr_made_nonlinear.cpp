// expect: this expression is a LinearExpr (auto e = x + y makes one)
#include <propane/engine/store.hpp>
#include <propane/model/expr.hpp>

propane::Expr f(propane::IntVar x, propane::IntVar y, propane::IntVar z) {
    auto e = x + y;
    e += propane::abs(z);
    return e;
}
