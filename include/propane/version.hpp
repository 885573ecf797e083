#ifndef PROPANE_VERSION_HPP
#define PROPANE_VERSION_HPP

// Kept equal to the CMake and Meson project versions; a test checks that.
#define PROPANE_VERSION_MAJOR 0
#define PROPANE_VERSION_MINOR 1
#define PROPANE_VERSION_PATCH 0

#endif
