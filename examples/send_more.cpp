// SEND + MORE = MONEY: each letter a different digit, no leading zero.
#include <propane/propane.hpp>
#include "program.hpp"
#include <cstdio>
#include <vector>

int main(int argc, char** argv) {
    if (argc > 1) return examples::no_options(argv, "send_more");
    propane::Store<propane::BitDomain<1>> s;          // domains of up to 64 values
    const std::vector<propane::IntVar> letters = s.int_vars(8, 0, 9);
    const propane::IntVar S = letters[0], E = letters[1], N = letters[2], D = letters[3],
                          M = letters[4], O = letters[5], R = letters[6], Y = letters[7];

    s.post(propane::all_different(letters, propane::domain));
    s.post(S != 0);
    s.post(M != 0);
    s.post(1000 * S + 100 * E + 10 * N + D + 1000 * M + 100 * O + 10 * R + E ==
           10000 * M + 1000 * O + 100 * N + 10 * E + Y);

    const auto stats = propane::solve(s, letters, propane::Strategy{propane::smallest_domain, propane::min_value},
                                      [&](const auto& sol) {
                                          std::printf("  %d%d%d%d\n+ %d%d%d%d\n= %d%d%d%d%d\n",
                                                      sol.value(S), sol.value(E), sol.value(N), sol.value(D),
                                                      sol.value(M), sol.value(O), sol.value(R), sol.value(E),
                                                      sol.value(M), sol.value(O), sol.value(N), sol.value(E),
                                                      sol.value(Y));
                                      });
    std::printf("%llu solution(s), %llu failures, %llu branches\n", (unsigned long long)stats.solutions,
                (unsigned long long)stats.failures, (unsigned long long)stats.branches);
    return examples::written("send_more", stats.solutions == 1 ? 0 : 1);
}
