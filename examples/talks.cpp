// Four talks share one room in a morning of slots 0..11. No two overlap;
// the keynotes (talks 0 and 2) start early, their starts summing to at most
// 6, unless talk 1 comes before talk 3; at least two talks end by slot 6.
// Which schedule ends the morning soonest?
#include <propane/propane.hpp>
#include "program.hpp"
#include <cstdio>
#include <vector>

int main(int argc, char** argv) {
    if (argc > 1) return examples::no_options(argv, "talks");
    using propane::IntVar;
    propane::Store<propane::BitDomain<1>> s;
    const std::vector<int> length{3, 2, 4, 2};
    const int n = 4;
    const std::vector<IntVar> start = s.int_vars(n, 0, 11);
    const IntVar last = s.int_var(0, 12);

    // first[i][j], i < j: 1 when talk i ends before talk j starts. Its
    // negation 1 - first[i][j] then puts talk j first.
    std::vector<std::vector<IntVar>> first(n, std::vector<IntVar>(n));
    std::vector<IntVar> by6;
    for (int i = 0; i < n; ++i) {
        s.post(start[i] + length[i] <= last);
        for (int j = i + 1; j < n; ++j) {
            first[i][j] = s.bool_var();
            s.post(first[i][j] == (start[i] + length[i] <= start[j]));
            s.post((1 - first[i][j]) >> (start[j] + length[j] <= start[i]));
        }
        by6.push_back(s.bool_var());
        s.post(by6.back() == (start[i] + length[i] <= 6));
    }
    const IntVar keynotes_early = s.bool_var();
    s.post(keynotes_early == (start[0] + start[2] <= 6));
    s.post(propane::clause(std::vector<IntVar>{keynotes_early, first[1][3]}, std::vector<IntVar>{}));
    s.post(propane::sum(by6) >= 2);

    std::vector<IntVar> decisions = start;
    decisions.push_back(last);
    const auto st = propane::minimize(s, decisions, propane::Strategy{}, propane::Limits{}, last,
                                      [&](const auto& sol) {
                                          std::printf("the morning ends at slot %d; starts:", sol.value(last));
                                          for (int i = 0; i < n; ++i) std::printf(" %d", sol.value(start[i]));
                                          std::printf("\n");
                                      });
    std::printf("%s after %llu failures\n", st.complete() ? "optimal" : "not proven",
                (unsigned long long)st.failures);
    return examples::written("talks", st.objective && st.complete() ? 0 : 1);
}
