// The control: every spelling of issue 35's point 1 compiles.
#include <propane/engine/store.hpp>
#include <propane/model/reified.hpp>

#include <vector>

void f(propane::Store<propane::BitDomain<1>>& s, const std::vector<propane::IntVar>& xs, propane::IntVar cap) {
    const propane::IntVar x = xs[0], y = xs[1], z = xs[2], b = s.bool_var();
    s.post(x + y <= z);
    s.post(2 * x - 3 * y + 4 != z - 1);
    s.post(propane::sum(xs) == 10);
    s.post(propane::sum(std::vector<int>{3, 5, 7}, xs) <= cap);
    s.post(x != y);
    s.post(x == y + 1);
    s.post(b == (x + y <= z));
    s.post(b >> (x != y));
    s.post((x < y) == 1 - b);
    const propane::IntVar d = s.int_var(propane::abs(x - y)), m = s.int_var(propane::max(xs)), p = s.int_var(x * y);
    s.post(d + m + p <= 100 + x % 3 - propane::min(y, z));
    // A LinearExpr (x + y) converts to Expr, and an Expr takes any term.
    propane::Expr e = x + y;
    e += propane::abs(z);
    s.post(e <= 4);
    const propane::LinearExpr l = 2 * (x - y) + 1;
    s.post(l != z);
    if (x.same(y)) s.post(x == 0);
}
