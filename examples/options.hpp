#ifndef PROPANE_EXAMPLES_OPTIONS_HPP
#define PROPANE_EXAMPLES_OPTIONS_HPP

// Command-line options that take a value, read the same way in every
// example: "--flag VALUE" or "--flag=VALUE". Errors go to the caller's
// usage_error(message), which prints one line and exits, so each example
// keeps its own program name and usage line.

#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <propane/all_different.hpp>

namespace examples {

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

// A finite decimal number such as 2, 0.5 or 1e-3, without sign, or nothing.
inline std::optional<double> parse_decimal(std::string_view s) {
    double x = 0;
    const char* end = s.data() + s.size();
    if (s.empty() || !((s[0] >= '0' && s[0] <= '9') || s[0] == '.')) return std::nullopt;
    const auto [ptr, ec] = std::from_chars(s.data(), end, x);
    if (ec != std::errc{} || ptr != end || !std::isfinite(x)) return std::nullopt;
    return x;
}

// --consistency value|bounds|domain, as both examples spell it.
template <class UsageError>
bool consistency_option(int argc, char** argv, int& i, propane::Consistency& out, UsageError&& usage_error) {
    return parsed_option(argc, argv, i, "--consistency", "value, bounds or domain",
                         [](std::string_view v) { return propane::consistency_from_string(v); }, out, usage_error);
}

} // namespace examples

#endif
