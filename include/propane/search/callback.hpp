#ifndef PROPANE_SEARCH_CALLBACK_HPP
#define PROPANE_SEARCH_CALLBACK_HPP

// A callable held by value behind one virtual call: what Search keeps for
// on_progress. std::function would do, but <functional> costs every
// model's file about 15 MB and 0.2 s of g++ (it brings the hash tables
// with it), and a search calls this once a period, not per node.

#include <concepts>
#include <type_traits>
#include <utility>

#include "owned.hpp"

namespace propane::detail {

template <class Signature>
class Callback;

template <class R, class... A>
class Callback<R(A...)> {
public:
    Callback() noexcept = default;
    // An empty std::function, or a null function pointer, makes an empty
    // Callback, as it would have made an empty std::function.
    template <class F>
        requires(!std::same_as<std::remove_cvref_t<F>, Callback> && std::invocable<std::decay_t<F>&, A...>)
    Callback(F&& f) {
        using D = std::decay_t<F>;
        if constexpr (std::is_pointer_v<D> || std::is_member_pointer_v<D> ||
                      requires(const D& d) { d.target_type(); }) {
            if (!f) return;
        }
        held_ = Owned<Base>(new Held<D>(std::forward<F>(f)));
    }

    explicit operator bool() const noexcept { return static_cast<bool>(held_); }
    R operator()(A... a) const { return held_->call(static_cast<A&&>(a)...); }

private:
    struct Base {
        virtual ~Base() = default;
        virtual R call(A... a) = 0;
    };
    template <class F>
    struct Held final : Base {
        template <class G>
        explicit Held(G&& g) : f(std::forward<G>(g)) {}
        R call(A... a) override { return f(static_cast<A&&>(a)...); }
        F f;
    };
    Owned<Base> held_;
};

} // namespace propane::detail

#endif
