#ifndef PROPANE_SEARCH_CLOCK_HPP
#define PROPANE_SEARCH_CLOCK_HPP

// std::chrono's durations and clocks, which the search's limits and
// statistics are written in. Under C++20, libstdc++'s <chrono> also reads
// <sstream> for the calendar and the formatting of durations, none of which
// propane uses: 8 MB of the 247 MB g++ 12 allocates for SEND + MORE
// (docs/compile_time.md). libstdc++ since GCC 11 defines what propane uses
// in <bits/chrono.h>, which <chrono>, <thread> and <mutex> include; with
// any other standard library, or without that file, this is <chrono>.
// A program that prints durations includes <chrono> itself, as it would
// anyway.

#if defined(__GLIBCXX__) && __has_include(<bits/chrono.h>)
#include <bits/chrono.h>
#else
#include <chrono>
#endif

#endif
