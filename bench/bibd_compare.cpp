// bibd_compare: searches a balanced incomplete block design (BIBD) with
// propane and, when the build found it, with Gecode on the same model and
// search, in one process. It checks that both walk the same tree (the same
// solutions, branches and failures), then prints a Markdown table of times
// and the ratio Gecode / propane. See --help.

#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <propane/propane.hpp>

#include "options.hpp"

#ifdef PROPANE_HAVE_GECODE
#include <memory>

#include <gecode/int.hh>
#include <gecode/minimodel.hh>
#include <gecode/search.hh>
#endif

#include "compare_report.hpp"

namespace {

using compare_report::median;

constexpr const char* usage_line =
    "usage: bibd_compare [V B R K LAMBDA] [--first] [--rounds R] [--only ENGINE] [--no-gecode] [--help]";

constexpr const char* help_text = R"(
Searches the (V, B, R, K, LAMBDA) balanced incomplete block designs: a 0/1
matrix of V rows and B columns, each row summing to R, each column to K,
and any two rows having the scalar product LAMBDA. Both engines get the
model a user writes over integer variables:
  - propane: x over 0..1, s.post(sum(row) == R), s.post(sum(col) == K),
    and for each pair of rows i < i2, s.post(sum(x[i][j] * x[i2][j] for
    each column j) == LAMBDA), each product an expression (x * y), lowered
    to times(x, y, p) over a fresh p; symmetry broken by lex_less(row i+1,
    row i) (distinct rows: two equal rows would have the product R, more
    than LAMBDA) and lex_lesseq(col j+1, col j);
  - Gecode (IntVar, mult), when the build found it: the same over IntVars:
    linear IRT_EQ for the sums, mult(x, y, p) over a fresh p in 0..1 for
    each product and linear IRT_EQ over them, rel(row i+1, IRT_LE, row i)
    and rel(col j+1, IRT_LQ, col j);
  - Gecode (BoolVar, and): the same over BoolVars, rel(x, BOT_AND, y, p)
    for the products, Gecode's Boolean linear and lex; Gecode's fastest
    spelling of this model (its examples/bibd.cpp is written so).
All three branch on the matrix row by row, the first unfixed cell, its
greatest value first (INT_VAR_NONE / INT_VAL_MAX, BOOL_VAR_NONE /
BOOL_VAL_MAX), by depth-first search on one thread. Over 0/1 a bound is
the whole domain, and both engines' sums, products and lex prune alike on
these models, so the trees must be the same: the program checks it.

Each round runs every engine once, in table order, so that they share the
machine's state; a time is the median over the rounds, a ratio the median
of the per-round ratios Gecode / propane. Times include building the model.

  V B R K LAMBDA  the design (default 10 18 9 5 4: 8,031 solutions,
                  about a second for propane; 9 18 8 4 3 takes a fifth
                  of that; 7 7 3 3 1, the Fano plane, has one)
  --first         stop at the first solution
  --rounds R      rounds, 1 to 100 (default 3)
  --only ENGINE   run one engine: propane, gecode-int or gecode-bool (for
                  valgrind --tool=callgrind, whose instruction counts a
                  shared machine does not disturb)
  --no-gecode     propane's row only
  --help          print this help

Exit status: 0 if every engine walks the same tree, 1 if not (the
differences go to standard error after the table), 2 on bad arguments.
)";

[[noreturn]] void usage_error(const std::string& problem) {
    examples::bench_usage_error("bibd_compare", usage_line, problem);
}

struct Design {
    int v = 10, b = 18, r = 9, k = 5, lambda = 4;
};

struct Options {
    Design d;
    bool first = false;
    int rounds = 3;
    bool gecode = true;
    std::string only;
};

Options parse(int argc, char** argv) {
    examples::bench_help(argc, argv, usage_line, help_text);
    Options o;
    std::vector<int> numbers;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a == "--no-gecode") {
            o.gecode = false;
        } else if (a == "--first") {
            o.first = true;
        } else if (examples::parsed_option(argc, argv, i, "--rounds", "a whole number from 1 to 100",
                                           examples::parse_between<1, 100>, o.rounds, usage_error)) {
        } else if (a == "--only") {
            if (i + 1 >= argc) usage_error("--only needs an engine");
            o.only = argv[++i];
            if (o.only != "propane" && o.only != "gecode-int" && o.only != "gecode-bool")
                usage_error("unknown engine '" + o.only + "' (expected propane, gecode-int or gecode-bool)");
        } else if (!a.starts_with("-")) {
            const std::optional<int> n = examples::parse_between<1, 60>(a);
            if (!n) usage_error("bad design parameter '" + std::string(a) + "' (expected a number from 1 to 60)");
            numbers.push_back(*n);
        } else {
            usage_error("unknown argument '" + std::string(a) + "'");
        }
    }
    if (!numbers.empty() && numbers.size() != 5)
        usage_error("a design takes five numbers, V B R K LAMBDA; " + std::to_string(numbers.size()) + " given");
    if (numbers.size() == 5) o.d = {numbers[0], numbers[1], numbers[2], numbers[3], numbers[4]};
    if (o.d.v * o.d.r != o.d.b * o.d.k) usage_error("V * R must equal B * K");
    return o;
}

// A search in propane's terms, which are OR-Tools': each left and each
// right branch is one branch, each branch (or root) whose propagation fails
// one failure.
struct Counts {
    std::uint64_t solutions = 0;
    std::uint64_t branches = 0;
    std::uint64_t failures = 0;
    bool operator==(const Counts&) const = default;
};

Counts propane_search(const Design& d, bool first) {
    propane::Store<propane::BitDomain<1>> s;
    const std::vector<propane::IntVar> x = s.int_vars(d.v * d.b, 0, 1);
    const auto at = [&](int i, int j) { return x[static_cast<std::size_t>(i * d.b + j)]; };
    std::vector<std::vector<propane::IntVar>> rows(static_cast<std::size_t>(d.v)), cols(static_cast<std::size_t>(d.b));
    for (int i = 0; i < d.v; ++i)
        for (int j = 0; j < d.b; ++j) {
            rows[static_cast<std::size_t>(i)].push_back(at(i, j));
            cols[static_cast<std::size_t>(j)].push_back(at(i, j));
        }
    for (const auto& row : rows) s.post(propane::sum(row) == d.r);
    for (const auto& col : cols) s.post(propane::sum(col) == d.k);
    for (int i = 0; i < d.v; ++i)
        for (int i2 = i + 1; i2 < d.v; ++i2) {
            std::vector<propane::Expr> products;
            for (int j = 0; j < d.b; ++j) products.push_back(at(i, j) * at(i2, j));
            s.post(propane::sum(products) == d.lambda);
        }
    for (std::size_t i = 0; i + 1 < rows.size(); ++i) s.post(propane::lex_less(rows[i + 1], rows[i]));
    for (std::size_t j = 0; j + 1 < cols.size(); ++j) s.post(propane::lex_lesseq(cols[j + 1], cols[j]));
    const propane::SearchStats st =
        propane::solve(s, x, {propane::first_unbound, propane::max_value},
                       [&](const auto&) { return first ? propane::stop : propane::next; });
    return {st.solutions, st.branches, st.failures};
}

#ifdef PROPANE_HAVE_GECODE

// Over IntVars with mult (Boolean = false) or over BoolVars with and.
template <bool Boolean>
class GecodeBibd final : public Gecode::Space {
    using Array = std::conditional_t<Boolean, Gecode::BoolVarArray, Gecode::IntVarArray>;
    using Args = std::conditional_t<Boolean, Gecode::BoolVarArgs, Gecode::IntVarArgs>;
    using Var = std::conditional_t<Boolean, Gecode::BoolVar, Gecode::IntVar>;

public:
    explicit GecodeBibd(const Design& d) : x_(*this, d.v * d.b, 0, 1) {
        const Gecode::Matrix<Array> m(x_, d.b, d.v); // columns, rows: m(j, i) is row i's cell j
        for (int i = 0; i < d.v; ++i) Gecode::linear(*this, m.row(i), Gecode::IRT_EQ, d.r);
        for (int j = 0; j < d.b; ++j) Gecode::linear(*this, m.col(j), Gecode::IRT_EQ, d.k);
        for (int i = 0; i < d.v; ++i)
            for (int i2 = i + 1; i2 < d.v; ++i2) {
                Args products;
                for (int j = 0; j < d.b; ++j) {
                    const Var p(*this, 0, 1);
                    if constexpr (Boolean)
                        Gecode::rel(*this, m(j, i), Gecode::BOT_AND, m(j, i2), p);
                    else
                        Gecode::mult(*this, m(j, i), m(j, i2), p);
                    products << p;
                }
                Gecode::linear(*this, products, Gecode::IRT_EQ, d.lambda);
            }
        for (int i = 0; i + 1 < d.v; ++i) Gecode::rel(*this, m.row(i + 1), Gecode::IRT_LE, m.row(i));
        for (int j = 0; j + 1 < d.b; ++j) Gecode::rel(*this, m.col(j + 1), Gecode::IRT_LQ, m.col(j));
        if constexpr (Boolean)
            Gecode::branch(*this, x_, Gecode::BOOL_VAR_NONE(), Gecode::BOOL_VAL_MAX());
        else
            Gecode::branch(*this, x_, Gecode::INT_VAR_NONE(), Gecode::INT_VAL_MAX());
    }
    GecodeBibd(GecodeBibd& other) : Gecode::Space(other) { x_.update(*this, other.x_); }
    Gecode::Space* copy() override { return new GecodeBibd(*this); }

private:
    Array x_;
};

// Gecode counts nodes, the root included; propane counts branches, the
// edges below the root, so branches = nodes - 1 over the same tree. A
// failed node is a failure in both.
template <bool Boolean>
Counts gecode_search(const Design& d, bool first) {
    auto root = std::make_unique<GecodeBibd<Boolean>>(d);
    Gecode::Search::Options options;
    options.threads = 1;
    Gecode::DFS<GecodeBibd<Boolean>> search(root.get(), options);
    Counts c;
    while (const std::unique_ptr<GecodeBibd<Boolean>> sol{search.next()}) {
        ++c.solutions;
        if (first) break;
    }
    const Gecode::Search::Statistics st = search.statistics();
    c.branches = st.node == 0 ? 0 : st.node - 1;
    c.failures = st.fail;
    return c;
}

#endif

// Wall clock and this process's processor time (both engines run on this
// one thread): the second stays steadier on a shared machine.
struct Times {
    double wall = 0;
    double cpu = 0;
};

template <class F>
Counts timed(F&& search, Times& t) {
    const std::clock_t cpu_start = std::clock();
    const auto start = std::chrono::steady_clock::now();
    const Counts c = search();
    t.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    t.cpu = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
    return c;
}

enum class Engine : std::uint8_t { propane, gecode_int, gecode_bool };

const char* engine_text(Engine e) {
    switch (e) {
    case Engine::propane: return "propane";
    case Engine::gecode_int: return "Gecode (IntVar, mult)";
    case Engine::gecode_bool: return "Gecode (BoolVar, and)";
    }
    return "?";
}

struct Row {
    Engine engine = Engine::propane;
    Counts counts;
    std::vector<Times> times; // one per round
};

Counts run(Engine e, const Options& o) {
    switch (e) {
    case Engine::propane: return propane_search(o.d, o.first);
#ifdef PROPANE_HAVE_GECODE
    case Engine::gecode_int: return gecode_search<false>(o.d, o.first);
    case Engine::gecode_bool: return gecode_search<true>(o.d, o.first);
#else
    case Engine::gecode_int:
    case Engine::gecode_bool: break;
#endif
    }
    return {};
}

std::string grouped(std::uint64_t n) {
    std::string digits = std::to_string(n), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

} // namespace

int main(int argc, char** argv) {
    const Options o = parse(argc, argv);
    if (!o.only.empty()) {
        const Engine e = o.only == "propane" ? Engine::propane
                         : o.only == "gecode-int" ? Engine::gecode_int
                                                  : Engine::gecode_bool;
#ifndef PROPANE_HAVE_GECODE
        if (e != Engine::propane) usage_error("Gecode was not found when this program was built");
#endif
        const Counts c = run(e, o);
        std::printf("%s: %s solutions, %s branches, %s failures\n", engine_text(e), grouped(c.solutions).c_str(),
                    grouped(c.branches).c_str(), grouped(c.failures).c_str());
        return 0;
    }
    std::vector<Row> rows{{Engine::propane, {}, {}}};
#ifdef PROPANE_HAVE_GECODE
    if (o.gecode) {
        rows.push_back({Engine::gecode_int, {}, {}});
        rows.push_back({Engine::gecode_bool, {}, {}});
    }
#endif
    std::vector<std::string> problems;
    for (int round = 0; round < o.rounds; ++round)
        for (Row& row : rows) {
            Times t;
            const Counts c = timed([&] { return run(row.engine, o); }, t);
            if (round > 0 && c != row.counts)
                problems.push_back(std::string(engine_text(row.engine)) + " answered differently in round " +
                                   std::to_string(round + 1));
            row.counts = c;
            row.times.push_back(t);
            std::fprintf(stderr, "round %d: %s: %.3f s (processor %.3f s)\n", round + 1, engine_text(row.engine),
                         t.wall, t.cpu);
        }

    const Counts& ours = rows.front().counts;
    if (!o.first && ours.solutions + ours.failures >= 1 &&
        ours.branches != 2 * (ours.failures + ours.solutions - 1))
        problems.push_back("propane has " + std::to_string(ours.branches) +
                           " branches, not 2 * (failures + solutions - 1)");
    for (const Row& row : rows)
        if (row.engine != Engine::propane && row.counts != ours)
            problems.push_back(std::string(engine_text(row.engine)) + " walks another tree: " +
                               std::to_string(row.counts.solutions) + " solutions, " +
                               std::to_string(row.counts.branches) + " branches, " +
                               std::to_string(row.counts.failures) + " failures");

    std::printf("`%s`\n\n", compare_report::command_line(argc, argv).c_str());
    std::printf("BIBD (%d, %d, %d, %d, %d), %s; %d round%s; a time is the median over the rounds of one whole "
                "search, model building included, on the wall clock and in processor time; a ratio is the median "
                "of the per-round ratios Gecode / propane. Gecode's branches are its nodes minus the root; its "
                "failures, its fails.\n\n",
                o.d.v, o.d.b, o.d.r, o.d.k, o.d.lambda, o.first ? "first solution" : "all solutions", o.rounds,
                o.rounds == 1 ? "" : "s");
    std::printf("| engine | solutions | branches | failures | time | processor | Gecode / propane, time | "
                "processor |\n");
    std::printf("|---|--:|--:|--:|--:|--:|--:|--:|\n");
    for (const Row& row : rows) {
        std::vector<double> wall, cpu, by_wall, by_cpu;
        for (std::size_t i = 0; i < row.times.size(); ++i) {
            wall.push_back(row.times[i].wall);
            cpu.push_back(row.times[i].cpu);
            by_wall.push_back(row.times[i].wall / rows.front().times[i].wall);
            by_cpu.push_back(row.times[i].cpu / rows.front().times[i].cpu);
        }
        std::array<char, 64> ratios{};
        if (row.engine != Engine::propane)
            std::snprintf(ratios.data(), ratios.size(), "%.2f | %.2f", median(by_wall), median(by_cpu));
        else
            std::snprintf(ratios.data(), ratios.size(), " | ");
        std::printf("| %s | %s | %s | %s | %s | %s | %s |\n", engine_text(row.engine),
                    grouped(row.counts.solutions).c_str(), grouped(row.counts.branches).c_str(),
                    grouped(row.counts.failures).c_str(), compare_report::seconds_text(median(wall), 3).c_str(),
                    compare_report::seconds_text(median(cpu), 3).c_str(), ratios.data());
    }
#ifndef PROPANE_HAVE_GECODE
    std::printf("\nGecode was not found when this program was built, so it has no rows.\n");
#endif
    if (problems.empty()) return 0;
    std::fflush(stdout);
    for (const std::string& p : problems) std::fprintf(stderr, "bibd_compare: %s\n", p.c_str());
    return 1;
}
