#ifndef PROPANE_SEARCH_SOLUTION_HPP
#define PROPANE_SEARCH_SOLUTION_HPP

// What a solution visitor receives, and what it answers.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace propane {

// What a visitor returns: go on to the next solution, or stop the search.
enum class Action : std::uint8_t { next, stop };
inline constexpr Action next = Action::next;
inline constexpr Action stop = Action::stop;

// A solution as the visitor sees it: the values of the search views (by
// position) and of any other view of the same store.
template <class Store, class View>
class Solution {
public:
    Solution(const Store& s, const std::vector<View>& vars) noexcept : s_(&s), vars_(&vars) {}
    std::size_t size() const noexcept { return vars_->size(); }
    int operator[](std::size_t i) const noexcept { return (*vars_)[i].value(*s_); }
    template <class V>
    int value(const V& v) const noexcept {
        return v.value(*s_);
    }
    const Store& store() const noexcept { return *s_; }

private:
    const Store* s_;
    const std::vector<View>* vars_;
};

} // namespace propane

#endif
