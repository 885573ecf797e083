#ifndef PROPANE_ENGINE_MODEL_HPP
#define PROPANE_ENGINE_MODEL_HPP

// What ties handles to a store's model: the tag they carry (see store.hpp
// and the "Rules of use" in the README).

namespace propane {

namespace detail {

// What a model's handles point at to name it. Copies of a store share it,
// so handles work in copies; its address is unique among live models, and
// an IntVar that carries none (default-built) belongs to no store.
struct ModelTag {
    char unused = 0;
};

} // namespace detail

} // namespace propane

#endif
