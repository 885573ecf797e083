// langford_compare: the search tree of Langford pairs L(2, N) in C++ (the
// modelling layer, s.post(second[k] == first[k] + k + 1)) and, optionally,
// through MiniZinc and fzn-propane on bench/fzn/models/langford.mzn, the
// same model and search. It prints each side's solutions, branches and
// failures, and checks the counts against OEIS A014552. See --help.

#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <propane/propane.hpp>

#include "options.hpp"

namespace {

constexpr const char* usage_line =
    "usage: langford_compare [N]... [--first] [--minizinc SOLVER.msc] [--model FILE.mzn] [--help]";

constexpr const char* help_text = R"(
Searches Langford pairs L(2, N): the numbers 1..N twice each in a row of
2N places, the two k's k places apart plus one. The model, in C++ and in
bench/fzn/models/langford.mzn alike: first[k] and second[k] over 1..2N,
second[k] = first[k] + k + 1, all_different(first ++ second) at domain
strength (fzn-propane's default for all_different_int); branch on first[1],
first[2], ... in order, least value first.

  N             the number of pairs, 1 to 16; repeat for several (default 8
                and 11); L(2, N) has solutions for N = 0 or 3 mod 4
  --first       stop at the first solution (default: every solution)
  --minizinc SOLVER.msc
                also run `minizinc --solver SOLVER.msc -s [-a] -D n=N` on the
                model (e.g. build/fzn/propane.msc) and report fzn-propane's
                nodes (its branches) and failures beside the C++ model's
  --model FILE.mzn
                the MiniZinc model (default bench/fzn/models/langford.mzn,
                relative to the working directory)
  --help        print this help

The trees are the same when the two sides propagate alike: the MiniZinc
side's branches and failures no more than the C++ side's is the target.
Exit status: 0 if every count is right (twice OEIS A014552, a solution and
its reversal, for every solution), 1 if one is not, 2 on bad arguments.
)";

[[noreturn]] void usage_error(const std::string& problem) {
    examples::bench_usage_error("langford_compare", usage_line, problem);
}

constexpr int max_n = 16;

// OEIS A014552: the Langford pairings of 1..N, a sequence and its reversal
// counted once.
constexpr std::array<std::uint64_t, max_n + 1> a014552 = {0,      0, 0, 1, 1, 0, 0, 26, 150, 0, 0, 17792, 108144, 0, 0,
                                                          39809640, 326721800};

struct Options {
    std::vector<int> sizes;
    bool first = false;
    std::string msc;
    std::string model = "bench/fzn/models/langford.mzn";
};

Options parse(int argc, char** argv) {
    examples::bench_help(argc, argv, usage_line, help_text);
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a == "--first") {
            o.first = true;
        } else if (const auto v = examples::option_value(argc, argv, i, "--minizinc", "a solver configuration file", usage_error)) {
            o.msc = std::string(*v);
        } else if (const auto m = examples::option_value(argc, argv, i, "--model", "a MiniZinc model", usage_error)) {
            o.model = std::string(*m);
        } else if (!a.starts_with("-")) {
            const std::optional<int> n = examples::parse_between<1, max_n>(a);
            if (!n) usage_error("bad N '" + std::string(a) + "' (expected a number of pairs from 1 to 16)");
            o.sizes.push_back(*n);
        } else {
            usage_error("unknown argument '" + std::string(a) + "'");
        }
    }
    if (o.sizes.empty()) o.sizes = {8, 11};
    return o;
}

struct Tree {
    bool ran = false;
    bool complete = false;
    std::uint64_t solutions = 0;
    std::uint64_t branches = 0;
    std::uint64_t failures = 0;
    double seconds = 0;
};

Tree cpp_search(int n, bool first) {
    const auto start = std::chrono::steady_clock::now();
    propane::Store<propane::BitDomain<1>> s;
    const std::vector<propane::IntVar> firsts = s.int_vars(n, 1, 2 * n), seconds = s.int_vars(n, 1, 2 * n);
    for (int k = 0; k < n; ++k) s.post(seconds[static_cast<std::size_t>(k)] == firsts[static_cast<std::size_t>(k)] + (k + 2));
    std::vector<propane::IntVar> all = firsts;
    all.insert(all.end(), seconds.begin(), seconds.end());
    s.post(propane::all_different(all, propane::domain));
    propane::Limits limits;
    if (first) limits.solutions = 1;
    const auto st = propane::solve(s, firsts, propane::Strategy{propane::first_unbound, propane::min_value}, limits,
                                   [](const auto&) { return propane::next; });
    Tree t{true, st.complete(), st.solutions, st.branches, st.failures, 0};
    t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return t;
}

std::string shell_quoted(std::string_view s) {
    std::string out = "'";
    for (const char c : s) {
        if (c == '\'') out += "'\\''";
        else out += c;
    }
    return out + "'";
}

// The last value of `%%%mzn-stat: name=value` in what MiniZinc printed.
std::optional<std::uint64_t> stat_of(const std::string& text, std::string_view name) {
    const std::string key = "%%%mzn-stat: " + std::string(name) + "=";
    const std::size_t at = text.rfind(key);
    if (at == std::string::npos) return std::nullopt;
    return std::strtoull(text.c_str() + at + key.size(), nullptr, 10);
}

Tree minizinc_search(int n, const Options& o, std::vector<std::string>& problems) {
    const std::string command = "minizinc --solver " + shell_quoted(o.msc) + " -s " + (o.first ? "" : "-a ") +
                                "-D n=" + std::to_string(n) + " " + shell_quoted(o.model) + " 2>&1";
    const auto start = std::chrono::steady_clock::now();
    std::FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) {
        problems.push_back("cannot run: " + command);
        return {};
    }
    std::string text;
    std::array<char, 4096> buf{};
    std::size_t got = 0;
    while ((got = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) text.append(buf.data(), got);
    const int status = pclose(pipe);
    Tree t;
    t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const auto nodes = stat_of(text, "nodes"), failures = stat_of(text, "failures");
    if (status != 0 || !nodes || !failures) {
        problems.push_back("N = " + std::to_string(n) + ": `" + command + "` exited with " + std::to_string(status) +
                           (nodes ? "" : ", no nodes statistic") + "; its output ends: " +
                           text.substr(text.size() > 400 ? text.size() - 400 : 0));
        return t;
    }
    t.ran = true;
    t.branches = *nodes;
    t.failures = *failures;
    for (std::size_t at = text.find("----------"); at != std::string::npos; at = text.find("----------", at + 1))
        ++t.solutions;
    t.complete = text.find("==========") != std::string::npos || text.find("=====UNSATISFIABLE=====") != std::string::npos;
    return t;
}

} // namespace

int main(int argc, char** argv) {
    const Options o = parse(argc, argv);
    std::vector<std::string> problems;
    std::printf("| N | side | solutions | complete | branches | failures | time |\n");
    std::printf("|--:|---|--:|---|--:|--:|--:|\n");
    const auto row = [](int n, const char* side, const Tree& t) {
        std::printf("| %d | %s | %llu | %s | %llu | %llu | %.3f s |\n", n, side,
                    static_cast<unsigned long long>(t.solutions), t.complete ? "yes" : "no",
                    static_cast<unsigned long long>(t.branches), static_cast<unsigned long long>(t.failures), t.seconds);
    };
    for (const int n : o.sizes) {
        const std::uint64_t expected = o.first ? (a014552[static_cast<std::size_t>(n)] > 0 ? 1 : 0)
                                               : 2 * a014552[static_cast<std::size_t>(n)];
        const Tree c = cpp_search(n, o.first);
        row(n, "C++", c);
        if (c.solutions != expected)
            problems.push_back("N = " + std::to_string(n) + ": C++ found " + std::to_string(c.solutions) +
                               " solutions, expected " + std::to_string(expected));
        if (o.msc.empty()) continue;
        const Tree m = minizinc_search(n, o, problems);
        if (!m.ran) continue;
        row(n, "MiniZinc", m);
        if (m.solutions != expected)
            problems.push_back("N = " + std::to_string(n) + ": MiniZinc found " + std::to_string(m.solutions) +
                               " solutions, expected " + std::to_string(expected));
    }
    if (problems.empty()) return 0;
    std::fflush(stdout);
    for (const std::string& p : problems) std::fprintf(stderr, "langford_compare: %s\n", p.c_str());
    return 1;
}
