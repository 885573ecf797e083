#ifndef PROPANE_SEARCH_CLAIM_HPP
#define PROPANE_SEARCH_CLAIM_HPP

// A store held as searched while no one Search of it runs: for the
// searches whose workers search copies of it (parallel.hpp, optimize.hpp,
// mpi.hpp).

#include <string>
#include <string_view>

#include "../engine/error.hpp"
#include "search.hpp"

namespace propane {

namespace detail {

// Holds a store as running without searching it, as a running search
// does: for the parallel solves (parallel.hpp, optimize.hpp), whose
// workers search copies of the store and whose visitor must not search or
// post to it meanwhile (model_error, as for any search started while one
// runs). Taken by the constructor (model_error if a search runs), given
// back by release() or the destructor.
template <class Store, class View>
class StoreClaim {
public:
    StoreClaim(Store& s, std::string_view who) : s_(&s) {
        SearchRegistry& r = Search<Store, View>::registry(s);
        r.attach(&tie_);
        if (!r.try_start(&tie_)) {
            r.detach(&tie_);
            throw model_error(std::string(who) +
                              ": another search is running on this store; one search at a time (stop() the "
                              "other or let it finish first, or search a copy of the store)");
        }
    }
    StoreClaim(const StoreClaim&) = delete;
    StoreClaim& operator=(const StoreClaim&) = delete;
    ~StoreClaim() {
        if (tie_.attached) Search<Store, View>::registry(*s_).detach(&tie_);
    }
    void release() noexcept {
        if (tie_.attached) Search<Store, View>::registry(*s_).end(&tie_);
    }

private:
    Store* s_;
    SearchTie tie_;
};

} // namespace detail

} // namespace propane

#endif
