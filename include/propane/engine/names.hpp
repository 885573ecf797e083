#ifndef PROPANE_ENGINE_NAMES_HPP
#define PROPANE_ENGINE_NAMES_HPP

// The reverse of the to_string() each named enum (Consistency, Rel, the
// search choices) has: one loop for all, so a name and its parse cannot
// disagree.

#include <initializer_list>
#include <optional>
#include <string_view>

namespace propane::detail {

// The choice among `all` whose to_string is `name` (found by ADL next to E).
template <class E>
constexpr std::optional<E> from_name(std::string_view name, std::initializer_list<E> all) noexcept {
    for (E e : all)
        if (to_string(e) == name) return e;
    return std::nullopt;
}

} // namespace propane::detail

#endif
