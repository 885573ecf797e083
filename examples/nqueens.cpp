// nqueens: the N-queens example of the OR-Tools constraint-programming guide
// (same model, same search, same board print-out and statistics), built on
// propane. See the README for the options.

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <unistd.h>

#include "consistency_option.hpp"
#include "nqueens_model.hpp"

namespace {

constexpr const char* usage_line =
    "usage: nqueens [N] [--count] [--first] [--consistency value|bounds|domain] [--json] [--help]";

constexpr const char* help_text = R"(
Places N queens on an N x N board so that none attacks another, and prints
every solution (or counts them) followed by search statistics, as the
OR-Tools N-queens guide does. q[c] is the row of the queen in column c.

  N                       board size (default 8)
  --count                 count solutions without printing the boards
  --first                 stop at the first solution
  --consistency value|bounds|domain
                          AllDifferent strength: value, bounds (the default,
                          as OR-Tools) or domain (prunes the most)
  --json                  print one JSON object with the statistics instead
  --help                  print this help

Exit status: 0 on success, 2 on bad arguments.
)";

struct Options {
    int n = 8;
    bool count = false;
    bool first = false;
    bool json = false;
    propane::Consistency consistency = propane::bounds;
};

[[noreturn]] void usage_error(const std::string& problem) {
    std::fprintf(stderr, "nqueens: %s\n%s (try --help)\n", problem.c_str(), usage_line);
    std::exit(2);
}

// A rough upper bound on the bytes a board of size n needs: each variable's
// domain is stored once and may be saved on the trail and stamped per word;
// add the per-variable bookkeeping of three AllDifferents.
double bytes_needed(std::int64_t n) {
    const double words = static_cast<double>((n + 63) / 64);
    return static_cast<double>(n) * (words * 8.0 * 3.0 + 512.0);
}

double physical_memory() {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && page > 0 ? static_cast<double>(pages) * static_cast<double>(page) : 0.0;
}

int parse_size(std::string_view arg) {
    std::int64_t n = 0;
    const char* end = arg.data() + arg.size();
    const auto [ptr, ec] = std::from_chars(arg.data(), end, n);
    if (arg.empty() || arg[0] == '-' || arg[0] == '+' || ptr != end) {
        if (!arg.empty() && arg[0] == '-' && ec == std::errc{} && ptr == end)
            usage_error("board size must be positive, got '" + std::string(arg) + "'");
        usage_error("'" + std::string(arg) + "' is not a board size (a positive integer)");
    }
    if (ec == std::errc::result_out_of_range || n > std::numeric_limits<int>::max())
        usage_error("board size '" + std::string(arg) + "' is too large");
    if (n <= 0) usage_error("board size must be positive, got '" + std::string(arg) + "'");
    const double need = bytes_needed(n), have = physical_memory();
    if (have > 0 && need > have)
        usage_error("board size " + std::to_string(n) + " needs about " + std::to_string(static_cast<long long>(need / (1 << 30))) +
                    " GiB, more than this machine's " + std::to_string(static_cast<long long>(have / (1 << 30))) + " GiB");
    return static_cast<int>(n);
}

Options parse(int argc, char** argv) {
    Options o;
    bool have_n = false;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a == "--help" || a == "-h") {
            std::printf("%s\n%s", usage_line, help_text);
            std::exit(0);
        } else if (a == "--count") {
            o.count = true;
        } else if (a == "--first") {
            o.first = true;
        } else if (a == "--json") {
            o.json = true;
        } else if (examples::consistency_option(argc, argv, i, o.consistency, usage_error)) {
            // read into o.consistency
        } else if (a.size() > 1 && a[0] == '-' && !(a[1] >= '0' && a[1] <= '9')) {
            usage_error("unknown option '" + std::string(a) + "'");
        } else if (have_n) {
            usage_error("more than one board size given ('" + std::string(a) + "')");
        } else {
            o.n = parse_size(a);
            have_n = true;
        }
    }
    return o;
}

// Boards go through one buffer per solution: printing, not search, would
// otherwise dominate for small N.
template <class Solution>
void print_board(std::uint64_t index, const Solution& sol, int n, std::string& buf) {
    buf.clear();
    buf += "Solution " + std::to_string(index) + "\n";
    for (int row = 0; row < n; ++row) {
        for (int col = 0; col < n; ++col) {
            buf += sol[static_cast<std::size_t>(col)] == row ? 'Q' : '_';
            buf += col + 1 < n ? ' ' : '\n';
        }
    }
    buf += '\n';
    std::fwrite(buf.data(), 1, buf.size(), stdout);
}

template <class Domain>
int run(const Options& o) {
    nqueens::Model<Domain> m(o.n, o.consistency);
    const bool boards = !o.count && !o.json;
    std::string buf;
    std::uint64_t found = 0;
    const propane::SearchStats st =
        propane::solve(m.store, m.q, nqueens::guide_strategy, [&](const auto& sol) {
            if (boards) print_board(found, sol, o.n, buf);
            ++found;
            return o.first ? propane::stop : propane::next;
        });
    if (o.json) {
        std::printf("{\"n\":%d,\"consistency\":\"%s\",\"solutions\":%llu,\"failures\":%llu,\"branches\":%llu,"
                    "\"propagations\":%llu,\"max_depth\":%llu,\"wall_ms\":%.3f,\"complete\":%s}\n",
                    o.n, propane::to_string(o.consistency).data(), static_cast<unsigned long long>(st.solutions),
                    static_cast<unsigned long long>(st.failures), static_cast<unsigned long long>(st.branches),
                    static_cast<unsigned long long>(st.propagations),
                    static_cast<unsigned long long>(st.max_depth), st.wall_ms(), st.complete() ? "true" : "false");
    } else {
        std::printf("Statistics\n  failures: %llu\n  branches: %llu\n  wall time: %lld ms\n  Solutions found: %llu\n",
                    static_cast<unsigned long long>(st.failures), static_cast<unsigned long long>(st.branches),
                    static_cast<long long>(st.wall_ms()), static_cast<unsigned long long>(st.solutions));
    }
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    const Options o = parse(argc, argv);
    return nqueens::with_domain_for(o.n, [&](auto tag) { return run<typename decltype(tag)::type>(o); });
}
