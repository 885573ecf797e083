// SEND + MORE = MONEY: each letter a different digit, no leading zero.
#include <propane/propane.hpp>
#include <cstdio>
#include <string_view>
#include <vector>

int main(int argc, char** argv) {
    if (argc > 1) { // no options: --help says so, anything else is refused
        const bool help = std::string_view(argv[1]) == "--help";
        if (!help) std::fprintf(stderr, "send_more: unknown argument '%s'\n", argv[1]);
        std::fprintf(help ? stdout : stderr, "usage: send_more (takes no options)%s\n",
                     help ? "" : " (try --help)");
        return help ? 0 : 2;
    }
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
    if (std::fflush(stdout) != 0) {
        std::perror("send_more: writing the output");
        return 2;
    }
    return stats.solutions == 1 ? 0 : 1;
}
