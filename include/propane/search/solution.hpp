#ifndef PROPANE_SEARCH_SOLUTION_HPP
#define PROPANE_SEARCH_SOLUTION_HPP

// What a solution visitor receives, and what it answers.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "../engine/error.hpp"

#if defined(__GNUC__)
#define PROPANE_SOLUTION_COLD [[noreturn, gnu::cold, gnu::noinline]]
#else
#define PROPANE_SOLUTION_COLD [[noreturn]]
#endif

namespace propane {

// What a visitor returns: go on to the next solution, or stop the search.
enum class Action : std::uint8_t { next, stop };
inline constexpr Action next = Action::next;
inline constexpr Action stop = Action::stop;

// A solution as the visitor sees it: the values of the search views (by
// position) and of any other view of the same store.
//
// Both reads are checked, and throw model_error rather than answer with a
// value the solution does not give: value(v) for a view of another store,
// or one that the search views do not fix (it would read the view's
// minimum), and either for a view that is not fixed, as when a Solution is
// read where the search is not at one (before the first next(), or after
// the last). A check is one test of a domain; a solution is read once per
// solution, rarely next to the nodes searched for it. To read a view that
// may be open, use store().domain(...) or the view's own min and max.
template <class Store, class View>
class Solution {
public:
    Solution(const Store& s, const std::vector<View>& vars) noexcept : s_(&s), vars_(&vars) {}
    std::size_t size() const noexcept { return vars_->size(); }
    int operator[](std::size_t i) const {
        if (i >= vars_->size()) [[unlikely]]
            out_of_range(i);
        return fixed_value((*vars_)[i], "Solution[]");
    }
    template <class V>
    int value(const V& v) const {
        s_->check(v.var(), "Solution::value");
        return fixed_value(v, "Solution::value");
    }
    const Store& store() const noexcept { return *s_; }

private:
    // The checks inline; their messages, built out of line, keep a read a
    // few instructions (a call to a read that throws inline cost nqueens 11
    // --count 0.5% more instructions, in 29,480 reads).
    template <class V>
    int fixed_value(const V& v, const char* who) const {
        if (!v.fixed(*s_)) [[unlikely]]
            not_fixed(v.var().index(), v.min(*s_), v.max(*s_), who);
        return v.value(*s_);
    }
    PROPANE_SOLUTION_COLD void out_of_range(std::size_t i) const {
        throw model_error(detail::formatted("Solution[%zu]: the search has %zu views", i, vars_->size()));
    }
    PROPANE_SOLUTION_COLD static void not_fixed(int var, int min, int max, const char* who) {
        throw model_error(detail::formatted("%s: the view of variable %d is not fixed here (%d..%d): not a search "
                                            "view, nor fixed by them, or not read at a solution",
                                            who, var, min, max));
    }

    const Store* s_;
    const std::vector<View>* vars_;
};

} // namespace propane

#undef PROPANE_SOLUTION_COLD

#endif
