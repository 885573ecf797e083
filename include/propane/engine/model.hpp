#ifndef PROPANE_ENGINE_MODEL_HPP
#define PROPANE_ENGINE_MODEL_HPP

// What ties handles to a store's model: the tag they carry, and which tags
// a store accepts (see store.hpp and the "Rules of use" in the README).
//
// A handle works in the store that made it and in every copy made after
// it, since the copy holds that variable too; nowhere else. In particular
// not in a sibling: two copies of one store each make their next variable
// with the same index and bounds, and one copy taking the other's handle
// would silently mean its own variable (x != y read as y != y). So each
// store, copies included, has a tag of its own, and a copy's tag remembers
// the tag it was copied from and how many of that store's variables the
// copy received. A handle is the store's when its tag is the store's own,
// or an ancestor's from which the handle's variable was inherited.

#include <algorithm>
#include <cstddef>
#include <memory>

namespace propane {

namespace detail {

// What a store's handles point at. Its address is unique among live
// stores; an IntVar that carries none (default-built) belongs to no store.
struct ModelTag {
    std::shared_ptr<const ModelTag> parent; // the tag of the store this one was copied from
    std::size_t inherited = 0;              // the variables the copy received from it
};

// A store's tag and its number of variables. Copying gives the copy a tag
// of its own, descended from this one; moving hands the tag over, and the
// store moved from starts a new model on its next variable.
// Model is ModelOf<>, compiled where used (see Cells, cells.hpp).
template <class = void>
class ModelOf {
public:
    ModelOf() = default;
    ModelOf(const ModelOf& o)
        : tag_(std::make_shared<const ModelTag>(ModelTag{o.tag_, o.vars_})), vars_(o.vars_) {}
    ModelOf(ModelOf&& o) noexcept : tag_(std::move(o.tag_)), vars_(o.vars_) { o.vars_ = 0; }
    ModelOf& operator=(const ModelOf& o) {
        if (this != &o) *this = ModelOf(o);
        return *this;
    }
    ModelOf& operator=(ModelOf&& o) noexcept {
        if (this != &o) {
            tag_ = std::move(o.tag_);
            vars_ = o.vars_;
            o.vars_ = 0;
        }
        return *this;
    }
    ~ModelOf() = default;

    // Counts a new variable; returns the tag its handle carries.
    const void* add() {
        if (!tag_) tag_ = std::make_shared<const ModelTag>();
        ++vars_;
        return tag_.get();
    }

    // The tag of the variables this store makes from now on; every
    // variable it has is its own under this tag (owns()).
    const void* tag() const noexcept { return tag_.get(); }

    // Whether variable `index` of the store tagged `tag` is one of ours.
    // A walk up the copies this store descends from: short, and only at
    // modelling time (posts and the start of a search).
    bool owns(const void* tag, int index) const noexcept {
        if (tag == nullptr || index < 0) return false;
        std::size_t limit = vars_;
        for (const ModelTag* t = tag_.get(); t != nullptr; t = t->parent.get()) {
            if (t == tag) return static_cast<std::size_t>(index) < limit;
            limit = std::min(limit, t->inherited);
        }
        return false;
    }

private:
    std::shared_ptr<const ModelTag> tag_;
    std::size_t vars_ = 0;
};
using Model = ModelOf<>;

} // namespace detail

} // namespace propane

#endif
