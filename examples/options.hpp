#ifndef PROPANE_EXAMPLES_OPTIONS_HPP
#define PROPANE_EXAMPLES_OPTIONS_HPP

// What the command-line examples share: options that take a value, read the
// same way in every example ("--flag VALUE" or "--flag=VALUE"), the
// parsers of the values they have in common, the usage line and help shown
// the same way in each (Usage), and output whose every write is checked.
// Option errors go to the caller's usage_error(message), which reports them
// and exits, so each example keeps its own program name and usage line. The
// benchmarks read their options with the same parsers.

#include <cerrno>
#include <chrono>
#include <charconv>
#include <limits>
#include <csignal>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <sys/resource.h>
#include <system_error>
#include <unistd.h>

#include <propane/constraints/all_different.hpp>

#if defined(__GNUC__) || defined(__clang__)
#define PROPANE_EXAMPLES_PRINTF(format_index) __attribute__((format(printf, format_index, format_index + 1)))
#else
#define PROPANE_EXAMPLES_PRINTF(format_index)
#endif

namespace examples {

// ---- options ---------------------------------------------------------------------

// If argv[i] is `flag`, its value (advancing i past a separate value);
// otherwise nothing. A flag without a value calls
// usage_error("<flag> needs a value: <expected>").
template <class UsageError>
std::optional<std::string_view> option_value(int argc, char** argv, int& i, std::string_view flag,
                                             std::string_view expected, UsageError&& usage_error) {
    const std::string_view a = argv[i];
    if (a == flag) {
        if (i + 1 >= argc) usage_error(std::string(flag) + " needs a value: " + std::string(expected));
        return std::string_view(argv[++i]);
    }
    if (a.starts_with(flag) && a.size() > flag.size() && a[flag.size()] == '=') return a.substr(flag.size() + 1);
    return std::nullopt;
}

// Reads `flag` through parse(value) -> std::optional<...> into `out`; true if
// argv[i] was the flag. A value parse rejects calls
// usage_error("bad <flag> '<value>' (expected <expected>)").
template <class T, class Parse, class UsageError>
bool parsed_option(int argc, char** argv, int& i, std::string_view flag, std::string_view expected, Parse&& parse,
                   T& out, UsageError&& usage_error) {
    const auto v = option_value(argc, argv, i, flag, expected, usage_error);
    if (!v) return false;
    const auto parsed = parse(*v);
    if (!parsed)
        usage_error("bad " + std::string(flag) + " '" + std::string(*v) + "' (expected " + std::string(expected) +
                    ")");
    out = *parsed;
    return true;
}

// A whole decimal number without sign, or nothing.
inline std::optional<std::uint64_t> parse_count(std::string_view s) {
    std::uint64_t n = 0;
    const char* end = s.data() + s.size();
    if (s.empty() || s[0] < '0' || s[0] > '9') return std::nullopt;
    const auto [ptr, ec] = std::from_chars(s.data(), end, n);
    if (ec != std::errc{} || ptr != end) return std::nullopt;
    return n;
}

// A whole number in Lo..Hi, or nothing.
template <int Lo, int Hi>
std::optional<int> parse_between(std::string_view s) {
    const std::optional<std::uint64_t> k = parse_count(s);
    if (!k || *k < Lo || *k > Hi) return std::nullopt;
    return static_cast<int>(*k);
}

// A whole decimal number >= 1, or nothing.
inline std::optional<std::uint64_t> parse_positive(std::string_view s) {
    const std::optional<std::uint64_t> k = parse_count(s);
    return k && *k > 0 ? k : std::nullopt;
}

// A finite decimal number such as 2, 0.5 or 1e-3, without sign, or nothing.
inline std::optional<double> parse_decimal(std::string_view s) {
    double x = 0;
    const char* end = s.data() + s.size();
    if (s.empty() || !((s[0] >= '0' && s[0] <= '9') || s[0] == '.')) return std::nullopt;
    const auto [ptr, ec] = std::from_chars(s.data(), end, x);
    // A bound check, false for infinities and NaN, rather than std::isfinite,
    // whose <cmath> would cost every example 11 MB of g++'s memory.
    if (ec != std::errc{} || ptr != end || !(x <= std::numeric_limits<double>::max())) return std::nullopt;
    return x;
}

// Seconds > 0, as a duration a search can hold; longer than it can hold
// means no limit, and a positive time shorter than a nanosecond is one.
inline std::optional<std::chrono::nanoseconds> parse_seconds(std::string_view s) {
    const std::optional<double> x = parse_decimal(s);
    if (!x || *x <= 0) return std::nullopt;
    const double ns = *x * 1e9;
    if (ns >= static_cast<double>(std::chrono::nanoseconds::max().count())) return std::chrono::nanoseconds::max();
    return std::chrono::nanoseconds(static_cast<std::int64_t>(ns) > 0 ? static_cast<std::int64_t>(ns) : 1);
}

// 'text', in quotes (or in `quote`). Appended: "'" + std::string(text) is what g++ 12 at
// -O3 takes for an overlapping copy (-Wrestrict, GCC bug 105329) when it
// inlines enough of std::string.
inline std::string quoted(std::string_view text, char quote = '\'') {
    std::string out;
    out.reserve(text.size() + 2);
    out += quote;
    out += text;
    out += quote;
    return out;
}

// A whole number in Lo..Hi given alone on the command line (N, the order):
// stored in `out`, with `have` set. `a_what` names it with its article ("a
// number of marks", "an order") and `what` without ("number of marks").
template <int Lo, int Hi, class UsageError>
void number_argument(std::string_view arg, std::string_view a_what, std::string_view what, int& out, bool& have,
                     UsageError&& usage_error) {
    if (have) usage_error("more than one " + std::string(what) + " given (" + quoted(arg) + ")");
    const std::optional<int> n = parse_between<Lo, Hi>(arg);
    if (!n)
        usage_error(quoted(arg) + " is not " + std::string(a_what) + " (a whole number from " +
                    std::to_string(Lo) + " to " + std::to_string(Hi) + ")");
    out = *n;
    have = true;
}

// The benchmarks' command line: plain stdio, as their output is a report
// for a person, not results a failed write could silently lose.

// "<program>: <problem>" and the usage line on standard error, then exit
// status 2.
[[noreturn]] inline void bench_usage_error(const char* program, const char* usage_line, const std::string& problem) {
    std::fprintf(stderr, "%s: %s\n%s (try --help)\n", program, problem.c_str(), usage_line);
    std::exit(2);
}

// --help or -h anywhere prints the usage line and help and exits 0: it wins
// over a bad argument before it.
inline void bench_help(int argc, char** argv, const char* usage_line, const char* help_text) {
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a == "--help" || a == "-h") {
            std::printf("%s\n%s", usage_line, help_text);
            std::exit(0);
        }
    }
}

// Refuses an option that the others given leave nothing to do, as a bad
// argument: usage_error("<flag> does nothing <why>"), `why` saying with
// which options it would act ("without --val random", "with --json, which
// prints ...").
template <class UsageError>
void refuse_idle(bool given, bool idle, std::string_view flag, std::string_view why, UsageError&& usage_error) {
    if (given && idle) usage_error(std::string(flag) + " does nothing " + std::string(why));
}

// --quiet in the examples that print each improvement of a branch and bound
// (golomb, jobshop): --json prints none either.
template <class UsageError>
void refuse_quiet_json(bool quiet, bool json, UsageError&& usage_error) {
    refuse_idle(quiet, json, "--quiet", "with --json, which prints no improvements either", usage_error);
}

// The options both examples have, spelled and read the same way in each.

// --consistency value|bounds|domain.
template <class UsageError>
bool consistency_option(int argc, char** argv, int& i, propane::Consistency& out, UsageError&& usage_error) {
    return parsed_option(argc, argv, i, "--consistency", "value, bounds or domain",
                         [](std::string_view v) { return propane::consistency_from_string(v); }, out, usage_error);
}

// --limit K: stop after K solutions; 0 is refused, as a search that may
// find nothing is not a search.
template <class T, class UsageError>
bool limit_option(int argc, char** argv, int& i, T& out, UsageError&& usage_error) {
    return parsed_option(argc, argv, i, "--limit", "a whole number of solutions >= 1", parse_positive, out,
                         usage_error);
}

// --time-limit SECONDS: stop after this much search time.
template <class T, class UsageError>
bool time_limit_option(int argc, char** argv, int& i, T& out, UsageError&& usage_error) {
    return parsed_option(argc, argv, i, "--time-limit", "a number of seconds > 0, such as 2 or 0.5", parse_seconds,
                         out, usage_error);
}

// --threads K: search on K threads, 0 meaning one per hardware thread.
template <class UsageError>
bool threads_option(int argc, char** argv, int& i, unsigned& out, UsageError&& usage_error) {
    return parsed_option(argc, argv, i, "--threads", "a whole number of threads from 0 to 4096 (0: all)",
                         parse_between<0, 4096>, out, usage_error);
}

// The search options of the examples that count solutions (magic_square,
// sudoku), read the same way by search_option.
struct SearchOptions {
    bool count = false;
    bool json = false;
    std::optional<std::uint64_t> limit;
    std::chrono::nanoseconds time_limit = std::chrono::nanoseconds::max();
    propane::Consistency consistency = propane::domain;
};

// Reads argv[i] into `o` if it is --count, --json, --consistency, --limit or
// --time-limit; true if it was one of them.
template <class UsageError>
bool search_option(int argc, char** argv, int& i, SearchOptions& o, UsageError&& usage_error) {
    const std::string_view a = argv[i];
    if (a == "--count") {
        o.count = true;
        return true;
    }
    if (a == "--json") {
        o.json = true;
        return true;
    }
    return consistency_option(argc, argv, i, o.consistency, usage_error) ||
           limit_option(argc, argv, i, o.limit, usage_error) ||
           time_limit_option(argc, argv, i, o.time_limit, usage_error);
}

// ---- output ----------------------------------------------------------------------

// `s` with the bytes that would act on a terminal instead of showing
// written as escapes: \n, \t, \r, \\ and \xHH for the other bytes below
// 0x20, DEL, bytes that are not UTF-8 and the C1 controls U+0080..U+009F
// (a terminal may read U+009B as the start of a control sequence). An
// argument echoed in an error message so stays on one line and cannot
// clear the screen or retitle the window.
inline std::string escaped(std::string_view s) {
    static constexpr char hex[] = "0123456789abcdef";
    std::string out;
    out.reserve(s.size());
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const auto escape = [&](unsigned char b) {
        out += "\\x";
        out += hex[b >> 4];
        out += hex[b & 15];
    };
    // Whether s[k..] holds `count` continuation bytes, the first of them
    // in [lo, hi] (the lead byte's rule against overlong forms, surrogates
    // and code points above U+10FFFF).
    const auto continues = [&](std::size_t k, std::size_t count, unsigned char lo, unsigned char hi) {
        if (k + count > s.size() || byte(k) < lo || byte(k) > hi) return false;
        for (std::size_t j = k + 1; j < k + count; ++j)
            if ((byte(j) & 0xc0) != 0x80) return false;
        return true;
    };
    for (std::size_t k = 0; k < s.size();) {
        const unsigned char b = byte(k);
        std::size_t length = 0; // of a valid UTF-8 sequence starting at k, 0 if none
        if (b >= 0x20 && b < 0x7f) length = 1;
        else if (b >= 0xc2 && b <= 0xdf) length = continues(k + 1, 1, b == 0xc2 ? 0xa0 : 0x80, 0xbf) ? 2 : 0;
        else if (b >= 0xe0 && b <= 0xef)
            length = continues(k + 1, 2, b == 0xe0 ? 0xa0 : 0x80, b == 0xed ? 0x9f : 0xbf) ? 3 : 0;
        else if (b >= 0xf0 && b <= 0xf4)
            length = continues(k + 1, 3, b == 0xf0 ? 0x90 : 0x80, b == 0xf4 ? 0x8f : 0xbf) ? 4 : 0;
        if (b == '\\') {
            out += "\\\\";
        } else if (length > 0) {
            out.append(s.substr(k, length));
            k += length;
            continue;
        } else if (b == '\n') {
            out += "\\n";
        } else if (b == '\t') {
            out += "\\t";
        } else if (b == '\r') {
            out += "\\r";
        } else {
            escape(b);
        }
        ++k;
    }
    return out;
}

// Called first in each example's main: a write past the file size limit
// (ulimit -f) raises SIGXFSZ, whose default action kills the program
// (status 153) before Console can see the write fail. Ignored, the write
// fails with EFBIG and is reported as any other failed write. Not in the
// benchmarks: their writes are unchecked, so the signal is what tells.
inline void report_file_size_limit() {
#ifdef SIGXFSZ
    std::signal(SIGXFSZ, SIG_IGN);
#endif
}

// ---- running out of memory ---------------------------------------------------------

namespace detail {

inline const char*& memory_program() noexcept {
    static const char* name = "program";
    return name;
}

// One line on standard error and exit status 2, written without allocating:
// there may be nothing left to allocate.
[[noreturn]] inline void out_of_memory() noexcept {
    char line[256];
    int n = 0;
    rlimit limit{};
    char flag = 'v';
    bool limited = getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY;
    if (!limited) {
        flag = 'd';
        limited = getrlimit(RLIMIT_DATA, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY;
    }
    if (limited)
        n = std::snprintf(line, sizeof line, "%s: out of memory: this run needs more than the %llu MiB it may use (ulimit -%c)\n",
                          memory_program(), static_cast<unsigned long long>(limit.rlim_cur >> 20), flag);
    else
        n = std::snprintf(line, sizeof line, "%s: out of memory: the system has no more to give this run\n",
                          memory_program());
    if (n > 0 && write(STDERR_FILENO, line, std::strlen(line)) < 0) std::_Exit(2);
    std::_Exit(2);
}

} // namespace detail

// Called first in each example's main: an allocation that fails anywhere,
// on any thread, inside a function that may not throw too (the search's
// hot path), ends the program with one line "<program>: out of memory:
// ..." and exit status 2, not with std::terminate's abort (status 134).
// What standard output still buffered is lost, as in any failure.
inline void report_out_of_memory(const char* program) noexcept {
    detail::memory_program() = program;
    std::set_new_handler(detail::out_of_memory);
}

// Runs an example's work and returns its exit status. A thread the system
// cannot start (out of memory for its stack, or past a limit on processes)
// ends the program with one line and exit status 2, as running out of
// memory does.
template <class Body>
int run_guarded(const char* program, Body&& body) {
    try {
        return body();
    } catch (const std::bad_alloc&) {
        detail::out_of_memory();
    } catch (const std::system_error& e) {
        std::fprintf(stderr, "%s: cannot start the search's threads: %s\n", program, e.what());
        std::_Exit(2);
    }
}

// What messages call standard output: "standard output", or the file that
// Console::redirect sent it to.
inline std::string& output_name() {
    static std::string name = "standard output";
    return name;
}

// Standard output and error with every write checked. Results that could
// not be written (a full disk, a file size limit, a closed descriptor) must
// not end in exit status 0, and a long run must not go on for minutes after
// its output is lost: the first failed write ends the program with one line
// on standard error and exit status 2 (still 2 when that line cannot be
// written either). A broken pipe kills the program with SIGPIPE first, as
// for any filter, unless SIGPIPE is ignored; then it is one more failed
// write.
class Console {
public:
    explicit constexpr Console(const char* program) noexcept : program_(program) {}

    void out(std::string_view text) const {
        if (!text.empty() && std::fwrite(text.data(), 1, text.size(), stdout) != text.size())
            failed(output_name().c_str());
    }

    void outf(const char* format, ...) const PROPANE_EXAMPLES_PRINTF(2) {
        std::va_list args;
        va_start(args, format);
        const int written = std::vfprintf(stdout, format, args);
        va_end(args);
        if (written < 0) failed(output_name().c_str());
    }

    // Raw text on standard error (a progress line, a message with its own
    // prefix): exits with status 2 if it cannot be written.
    void err(std::string_view text) const {
        if ((!text.empty() && std::fwrite(text.data(), 1, text.size(), stderr) != text.size()) ||
            std::fflush(stderr) != 0)
            std::_Exit(2);
    }

    // "<program>: <message>" on standard error, the message escaped.
    void error(std::string_view message) const { err(std::string(program_) + ": " + escaped(message) + "\n"); }

    // Writes what standard output still buffers; before a message on
    // standard error, so that on a terminal the two come in order.
    void flush() const {
        if (std::fflush(stdout) != 0) failed(output_name().c_str());
    }

    // Flushes and closes standard output, which reports the errors a
    // buffered or delayed write left (close(2) may be the first to see a
    // full disk on a network file system). Call it before exit status 0.
    // A closed descriptor that was never written to lost nothing: EBADF
    // from close alone is no error, as in gnulib's close_stdout.
    void close() const {
        errno = 0;
        if (std::fflush(stdout) != 0 || std::ferror(stdout)) failed(output_name().c_str());
        if (std::fclose(stdout) != 0 && errno != EBADF) failed(output_name().c_str());
    }

    // Sends standard output to the file at `path`, created or emptied
    // (--output). An empty string if it could, else why not, as a message.
    std::string redirect(const char* path) const {
        if (!std::freopen(path, "w", stdout)) return std::string("cannot write ") + path + ": " + std::strerror(errno);
        output_name() = escaped(path);
        return {};
    }

    // Reports that `stream` could not be written, if standard error can
    // still take it, and exits with status 2. Takes errno as the failed
    // call left it.
    [[noreturn]] void failed(const char* stream, int error_number = errno) const {
        // stdio could not allocate its buffer: the write did not fail, memory did.
        if (error_number == ENOMEM) detail::out_of_memory();
        const std::string line = std::string(program_) + ": error writing to " + stream + ": " +
                                 (error_number != 0 ? std::strerror(error_number) : "unknown error") + "\n";
        std::fwrite(line.data(), 1, line.size(), stderr);
        std::_Exit(2);
    }

private:
    const char* program_;
};

// An example's usage line and help, shown as every example shows them: after
// a bad argument, as an error with exit status 2; on --help, in full.
class Usage {
public:
    constexpr Usage(const Console& console, const char* line, const char* help) noexcept
        : console_(console), line_(line), help_(help) {}

    // "<program>: <problem>" and the usage line on standard error, then exit
    // status 2.
    [[noreturn]] void error(const std::string& problem) const {
        console_.error(problem);
        hint();
        std::exit(2);
    }

    // The usage line and a hint to --help on standard error, as after a
    // problem.
    void hint() const { console_.err(std::string(line_) + " (try --help)\n"); }

    static bool asks_help(std::string_view arg) noexcept { return arg == "--help" || arg == "-h"; }

    // If `arg` is --help or -h, prints the usage line and help and exits 0.
    void help_if_asked(std::string_view arg) const {
        if (!asks_help(arg)) return;
        console_.out(std::string(line_) + "\n" + help_);
        console_.close();
        std::exit(0);
    }

private:
    Console console_;
    const char* line_;
    const char* help_;
};

} // namespace examples

#undef PROPANE_EXAMPLES_PRINTF

#endif
