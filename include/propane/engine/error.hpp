#ifndef PROPANE_ENGINE_ERROR_HPP
#define PROPANE_ENGINE_ERROR_HPP

#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace propane {

// Thrown while a model is being built (never during search) when the caller
// asks for something that cannot be represented: an empty or oversized
// domain, a view whose values overflow int, a handle from another store.
// Deriving from std::invalid_argument lets callers catch it generically.
class model_error : public std::invalid_argument {
public:
    explicit model_error(const std::string& what) : std::invalid_argument("propane: " + what) {}
};

namespace detail {

// A message from a printf format. One call where a chain of to_string and
// + puts a dozen string operations inline at each throw, in every file
// that posts the constraint: the messages of the store, views, sums and
// all_different took SEND + MORE nearly a tenth of its object code so.
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 1, 2)))
#endif
inline std::string formatted(const char* format, ...) {
    std::va_list args;
    va_start(args, format);
    std::va_list again;
    va_copy(again, args);
    char small[256];
    const int n = std::vsnprintf(small, sizeof small, format, args);
    va_end(args);
    std::string out;
    if (n < 0) {
        out = format;
    } else if (static_cast<std::size_t>(n) < sizeof small) {
        out.assign(small, static_cast<std::size_t>(n));
    } else {
        out.resize(static_cast<std::size_t>(n) + 1);
        std::vsnprintf(out.data(), out.size(), format, again);
        out.resize(static_cast<std::size_t>(n));
    }
    va_end(again);
    return out;
}

} // namespace detail

} // namespace propane

#endif
