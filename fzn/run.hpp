#ifndef PROPANE_FZN_RUN_HPP
#define PROPANE_FZN_RUN_HPP

// The search of a built FlatZinc model and the printing of its answers in
// the standard form: each output item as `x = 3;` or `x = array1d(...);`,
// `----------` after each solution, `==========` when the search is
// complete, `=====UNSATISFIABLE=====` or `=====UNKNOWN=====` when nothing
// was found, and with -s `%%%mzn-stat: name=value` lines. Each solution is
// formatted whole and written with one call, so a stopped search never
// leaves half of one.

#include <cstdint>
#include <cstdio>
#include <optional>

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

// Searches and prints; returns false when writing the output failed.
bool run(FznStore& s, const Program& p, const RunOptions& o, std::FILE* out, double init_seconds);

} // namespace propane::fzn

#endif
