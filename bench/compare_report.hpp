#ifndef PROPANE_BENCH_COMPARE_REPORT_HPP
#define PROPANE_BENCH_COMPARE_REPORT_HPP

// What the same-run comparisons with Gecode (golomb_compare,
// jobshop_compare, nqueens_compare) print their tables with. Included
// after Gecode's headers, when there are any, for GECODE_VERSION.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace compare_report {

inline double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.size() % 2 == 1 ? v[m] : (v[m - 1] + v[m]) / 2;
}

inline std::string seconds_text(double s, int decimals) {
    std::array<char, 32> buf{};
    std::snprintf(buf.data(), buf.size(), "%.*f s", decimals, s);
    return buf.data();
}

inline std::string engine_name(bool gecode) {
#ifdef PROPANE_HAVE_GECODE
    if (gecode) return "Gecode " GECODE_VERSION;
#endif
    return gecode ? "Gecode" : "propane";
}

// The command as typed, for the table's caption.
inline std::string command_line(int argc, char** argv) {
    std::string out;
    for (int i = 0; i < argc; ++i) {
        if (i > 0) out += ' ';
        out += argv[i];
    }
    return out;
}

} // namespace compare_report

#endif
