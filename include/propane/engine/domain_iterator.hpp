#ifndef PROPANE_ENGINE_DOMAIN_ITERATOR_HPP
#define PROPANE_ENGINE_DOMAIN_ITERATOR_HPP

// DomainIterator<D>: the values of a domain in increasing order, for
// range-for (`for (int v : store.domain(x))`), over any form of domain:
// it asks the domain for the value after the current one, so it needs
// nothing but min(), max() and next(). A domain must not change while it
// is walked.

#include <cstddef>
#include <cstdint>
#include <limits>

namespace propane::detail {

template <class D>
class DomainIterator {
public:
    using value_type = int;
    using difference_type = std::ptrdiff_t;

    DomainIterator() = default;
    // At value v of d.
    DomainIterator(const D* d, int v) noexcept : d_(d), v_(v) {}
    // Past d's last value.
    explicit DomainIterator(const D* d) noexcept : d_(d), v_(past) {}

    int operator*() const noexcept { return static_cast<int>(v_); }
    DomainIterator& operator++() noexcept {
        v_ = v_ >= d_->max() ? past : d_->next(v_);
        return *this;
    }
    DomainIterator operator++(int) noexcept {
        DomainIterator old = *this;
        ++*this;
        return old;
    }
    bool operator==(const DomainIterator& o) const noexcept { return v_ == o.v_; }

private:
    // Beyond every int, so no value is mistaken for the end.
    static constexpr std::int64_t past = std::numeric_limits<std::int64_t>::max();
    const D* d_ = nullptr;
    std::int64_t v_ = past;
};

} // namespace propane::detail

#endif
