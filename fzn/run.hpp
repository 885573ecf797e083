#ifndef PROPANE_FZN_RUN_HPP
#define PROPANE_FZN_RUN_HPP

// The search of a built FlatZinc model and the printing of its answers in
// the standard form: each output item as `x = 3;` or `x = array1d(...);`,
// `----------` after each solution, `==========` when the search is
// complete, `=====UNSATISFIABLE=====` or `=====UNKNOWN=====` when nothing
// was found, and with -s `%%%mzn-stat: name=value` lines. Each solution is
// formatted whole and written with one call, so a stopped search never
// leaves half of one.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "builder.hpp"

namespace propane::fzn {

struct RunOptions {
    bool all = false;              // -a
    std::uint64_t solutions = 0;   // -n (0: the default, one or the optimum)
    bool statistics = false;       // -s
    std::optional<std::int64_t> time_ms; // -t
    std::uint64_t seed = 0;        // -r
    bool free = false;             // -f
    unsigned threads = 1;          // -p
};

// Where the answers go, from any thread, one whole solution at a time. With
// a deadline it also keeps the time limit when the search cannot: a
// propagation at the root of a huge model runs to its end before the
// search looks at the clock. A second past the deadline a watchdog thread
// prints what the search has found (the best solution, if it kept one
// back) and =====UNKNOWN===== if nothing, and ends the process.
class Printer {
public:
    Printer(std::FILE* out, std::optional<std::chrono::steady_clock::time_point> deadline);
    Printer(const Printer&) = delete;
    Printer& operator=(const Printer&) = delete;
    ~Printer();

    // A solution's text: written now, or, with keep_last, kept until
    // finish() (an optimization without -a prints only its best).
    void solution(std::string text, bool keep_last);
    // Writes what was kept and then `tail`; false when a write failed.
    bool finish(const std::string& tail);

private:
    bool write(const std::string& text);
    void watch(std::chrono::steady_clock::time_point deadline);

    std::FILE* out_;
    std::mutex mutex_;
    std::condition_variable done_cv_;
    bool done_ = false;
    bool ok_ = true;
    bool any_ = false;
    std::string kept_;
    std::thread watchdog_;
};

// Searches and prints through `printer`; returns false when writing the
// output failed.
bool run(FznStore& s, const Program& p, const RunOptions& o, Printer& printer, double init_seconds);

} // namespace propane::fzn

#endif
