#ifndef PROPANE_PROPANE_HPP
#define PROPANE_PROPANE_HPP

// The whole library: include this one header.

#include "all_different.hpp"
#include "domain.hpp"
#include "error.hpp"
#include "propagator.hpp"
#include "search.hpp"
#include "stats.hpp"
#include "store.hpp"
#include "trail.hpp"
#include "version.hpp"
#include "view.hpp"

#endif
