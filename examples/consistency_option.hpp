#ifndef PROPANE_EXAMPLES_CONSISTENCY_OPTION_HPP
#define PROPANE_EXAMPLES_CONSISTENCY_OPTION_HPP

// The --consistency option, as both examples spell it: "--consistency X" or
// "--consistency=X", X one of value, bounds, domain.

#include <string>
#include <string_view>

#include <propane/all_different.hpp>

namespace examples {

// True if argv[i] is the option; then reads its value (advancing i past a
// separate value) into `out`. On a missing or unknown value, calls
// usage_error(message), which does not return.
template <class UsageError>
bool consistency_option(int argc, char** argv, int& i, propane::Consistency& out, UsageError&& usage_error) {
    constexpr std::string_view flag = "--consistency";
    const std::string_view a = argv[i];
    if (a != flag && !(a.starts_with(flag) && a.size() > flag.size() && a[flag.size()] == '=')) return false;
    std::string_view v;
    if (a == flag) {
        if (i + 1 >= argc) usage_error("--consistency needs a value: value, bounds or domain");
        v = argv[++i];
    } else {
        v = a.substr(flag.size() + 1);
    }
    const auto c = propane::consistency_from_string(v);
    if (!c) usage_error("unknown consistency '" + std::string(v) + "' (expected value, bounds or domain)");
    out = *c;
    return true;
}

} // namespace examples

#endif
