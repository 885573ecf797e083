// The program every consumer test builds, whichever way it found propane.
// It prints the version its headers declare, for run.sh to compare with the
// version the build system reported, and solves a model whose answer is
// known, so a package that compiles but hands out broken headers fails too.
#include <propane/parallel.hpp>

#include <cstdio>
#include <vector>

int main() {
    const int n = 6;
    propane::Store<propane::BitDomain<1>> s;
    auto q = s.int_vars(n, 0, n - 1);
    std::vector<propane::OffsetView> up, down;
    for (int c = 0; c < n; ++c) {
        up.push_back(q[c] + c);
        down.push_back(q[c] - c);
    }
    s.post(propane::all_different(q, propane::bounds));
    s.post(propane::all_different(up, propane::bounds));
    s.post(propane::all_different(down, propane::bounds));

    std::vector<int> first;
    auto stats = propane::solve(s, q, {.var = propane::first_unbound, .val = propane::min_value},
                                [&](const auto& solution) {
                                    if (first.empty()) {
                                        for (int c = 0; c < n; ++c) first.push_back(solution[c]);
                                    }
                                    return propane::next;
                                });

    // On two threads too, which needs the thread library the package
    // declares (Threads in CMake, -pthread in propane.pc).
    const auto parallel = propane::solve(s, q, {.var = propane::first_unbound, .val = propane::min_value}, {},
                                         propane::Parallel{.threads = 2}, [](const auto&) {});

    std::printf("propane %d.%d.%d\n", PROPANE_VERSION_MAJOR, PROPANE_VERSION_MINOR, PROPANE_VERSION_PATCH);
    std::printf("%d-queens: %llu solutions, first", n, static_cast<unsigned long long>(stats.solutions));
    for (int row : first) std::printf(" %d", row);
    std::printf(", %llu on 2 threads\n", static_cast<unsigned long long>(parallel.solutions));
}
