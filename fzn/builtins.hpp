#ifndef PROPANE_FZN_BUILTINS_HPP
#define PROPANE_FZN_BUILTINS_HPP

// The FlatZinc builtins and native globals fzn-propane posts (one table,
// builtins.cpp).

#include <string_view>
#include <vector>

#include "parser.hpp"

namespace propane::fzn {

class Builder;

// Posts one constraint item through the builtin table; Unsupported for a
// name the table does not hold.
void post_builtin(Builder& b, const ConstraintItem& c);

// The names the table holds, sorted.
std::vector<std::string_view> builtin_names();

} // namespace propane::fzn

#endif
