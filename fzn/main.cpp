// fzn-propane: runs a FlatZinc model on propane and prints its answers in
// the standard form, for MiniZinc (through propane.msc) or by hand.
//
// Exit codes: 0 when the search ran (whatever it found), 1 when the model
// could not be run (a syntax error, an unsupported feature), 2 for a
// command-line mistake or output that could not be written (as the
// examples).

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <csignal>
#include <cstring>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <limits>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>

#include <propane/version.hpp>

#include "builder.hpp"
#include "builtins.hpp"
#include "parser.hpp"
#include "run.hpp"

namespace {

constexpr const char* usage =
    "usage: fzn-propane [-a] [-n N] [-s] [-t MS] [-r SEED] [-f] [-p THREADS] FILE.fzn";

[[noreturn]] void usage_error(const std::string& message) {
    std::fprintf(stderr, "fzn-propane: %s\n%s (try --help)\n", message.c_str(), usage);
    std::exit(2);
}

template <class T>
T number(std::string_view flag, const char* text, T least) {
    const std::string_view s(text);
    T v{};
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc{} || end != s.data() + s.size() || v < least)
        usage_error("bad " + std::string(flag) + " '" + std::string(s) + "' (expected an integer >= " +
                    std::to_string(least) + ")");
    return v;
}

void help() {
    std::printf("%s\n\n"
                "Runs a FlatZinc model on propane %d.%d.%d and prints its solutions in the standard form.\n\n"
                "  -a          all solutions (satisfaction), every improving one (optimization)\n"
                "  -n N        stop after N solutions\n"
                "  -s          statistics, as %%%%%%mzn-stat: lines\n"
                "  -t MS       time limit in milliseconds\n"
                "  -r SEED     seed of indomain_random and of -f's neighbourhoods\n"
                "  -f          free search: ignore the search annotations (an\n"
                "              optimization runs large-neighbourhood search,\n"
                "              with proving rounds)\n"
                "  -p THREADS  search on THREADS threads (at most 4 per hardware\n"
                "              thread, or 64)\n"
                "  --builtins  list the FlatZinc constraints fzn-propane posts\n"
                "  --help, --version\n",
                usage, PROPANE_VERSION_MAJOR, PROPANE_VERSION_MINOR, PROPANE_VERSION_PATCH);
}

// More threads than this gain nothing and only cost memory (a store copy
// each), and tens of thousands exhaust the system: 4 per hardware thread,
// and never fewer than 64, so that a count up to 64 means the same run on
// every machine.
unsigned thread_cap() {
    const unsigned hardware = std::thread::hardware_concurrency();
    return std::max(64u, 4 * std::max(hardware, 1u));
}

// One line for MiniZinc to show and, on stdout, the marker it reads.
int failed(propane::fzn::Printer& printer, const std::string& kind, const std::string& message) {
    std::fprintf(stderr, "fzn-propane: %s%s\n", kind.c_str(), message.c_str());
    (void)printer.finish("=====ERROR=====\n");
    return 1;
}

} // namespace

int main(int argc, char** argv) {
    // A full file must fail a write, which is then reported, rather than
    // kill the process unannounced.
#ifdef SIGXFSZ
    std::signal(SIGXFSZ, SIG_IGN);
#endif
    propane::fzn::RunOptions o;
    const char* file = nullptr;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        auto value = [&]() -> const char* {
            if (i + 1 >= argc) usage_error(std::string(a) + " needs a value");
            return argv[++i];
        };
        if (a == "-a") o.all = true;
        else if (a == "-n") o.solutions = number<std::uint64_t>(a, value(), 1);
        else if (a == "-s") o.statistics = true;
        else if (a == "-t") o.time_ms = number<std::int64_t>(a, value(), 0);
        else if (a == "-r") o.seed = number<std::uint64_t>(a, value(), 0);
        else if (a == "-f") o.free = true;
        else if (a == "-p") o.threads = number<unsigned>(a, value(), 1);
        else if (a == "--help" || a == "-h") {
            help();
            return std::fflush(stdout) == 0 ? 0 : 1;
        } else if (a == "--version") {
            std::printf("fzn-propane %d.%d.%d\n", PROPANE_VERSION_MAJOR, PROPANE_VERSION_MINOR,
                        PROPANE_VERSION_PATCH);
            return std::fflush(stdout) == 0 ? 0 : 1;
        } else if (a == "--builtins") {
            for (const std::string_view n : propane::fzn::builtin_names())
                std::printf("%.*s\n", static_cast<int>(n.size()), n.data());
            return std::fflush(stdout) == 0 ? 0 : 1;
        } else if (a.size() > 1 && a[0] == '-') usage_error("unknown option '" + std::string(a) + "'");
        else if (file) usage_error("more than one file: '" + std::string(file) + "' and '" + std::string(a) + "'");
        else file = argv[i];
    }
    if (!file) usage_error("no FlatZinc file given");
    if (const unsigned cap = thread_cap(); o.threads > cap) {
        std::fprintf(stderr, "fzn-propane: warning: -p %u is more than this machine can use; searching on %u threads\n",
                     o.threads, cap);
        o.threads = cap;
    }

    std::string text;
    {
        std::FILE* in = std::fopen(file, "rb");
        if (!in) usage_error("cannot read '" + std::string(file) + "': " + std::strerror(errno));
        char buffer[1 << 16];
        std::size_t n;
        while ((n = std::fread(buffer, 1, sizeof buffer, in)) > 0) text.append(buffer, n);
        const bool failed_read = std::ferror(in) != 0;
        std::fclose(in);
        if (failed_read) usage_error("cannot read '" + std::string(file) + "'");
    }

    const auto start = std::chrono::steady_clock::now();
    std::optional<std::chrono::steady_clock::time_point> deadline;
    if (o.time_ms) deadline = start + std::chrono::milliseconds(*o.time_ms);
    propane::fzn::Printer printer(stdout, deadline);
    try {
        const propane::fzn::Model model = propane::fzn::parse(text);
        propane::fzn::FznStore store;
        propane::fzn::Builder builder(model, store);
        const propane::fzn::Program program = builder.build();
        const double init = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (!propane::fzn::run(store, program, o, printer, init)) {
            std::fprintf(stderr, "fzn-propane: error writing to standard output: %s\n", std::strerror(errno));
            return 2;
        }
        return 0;
    } catch (const propane::fzn::SyntaxError& e) {
        return failed(printer, std::string(file) + ":", e.what());
    } catch (const propane::fzn::Unsupported& e) {
        const std::string where = e.line() > 0 ? ":" + std::to_string(e.line()) + ":" + std::to_string(e.column()) : "";
        return failed(printer, std::string(file) + where + ": unsupported: ", e.what());
    } catch (const propane::model_error& e) {
        return failed(printer, "", e.what());
    } catch (const std::bad_alloc&) {
        return failed(printer, "", "out of memory");
    } catch (const std::system_error& e) { // threads the system would not start
        return failed(printer, "", std::string("the system refused: ") + e.what());
    }
}
