#ifndef PROPANE_ENGINE_ERROR_HPP
#define PROPANE_ENGINE_ERROR_HPP

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

} // namespace propane

#endif
