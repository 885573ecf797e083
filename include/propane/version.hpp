#ifndef PROPANE_VERSION_HPP
#define PROPANE_VERSION_HPP

// Kept equal to the CMake and Meson project versions: both builds refuse to
// configure when they differ.
#define PROPANE_VERSION_MAJOR 0
#define PROPANE_VERSION_MINOR 1
#define PROPANE_VERSION_PATCH 0

#endif
