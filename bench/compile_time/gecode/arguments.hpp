#ifndef PROPANE_BENCH_GECODE_ARGUMENTS_HPP
#define PROPANE_BENCH_GECODE_ARGUMENTS_HPP

// The few options the Gecode counterparts take, in any order: a number
// (the size), a propagation strength (value, bounds or domain, as the
// examples' --consistency), --first, and anything else as a file name.
// The counterparts mirror the examples' models and searches, not their
// whole command lines.

#include <gecode/int.hh>

#include <cstdlib>
#include <cstring>

struct Arguments {
    int n = 0;
    Gecode::IntPropLevel ipl = Gecode::IPL_BND;
    bool first = false;
    const char* file = nullptr;
};

inline Arguments parse_arguments(int argc, char** argv, int n, Gecode::IntPropLevel ipl) {
    Arguments a{n, ipl, false, nullptr};
    for (int i = 1; i < argc; ++i) {
        const char* arg = argv[i];
        if (std::strcmp(arg, "--first") == 0) a.first = true;
        else if (std::strcmp(arg, "value") == 0) a.ipl = Gecode::IPL_VAL;
        else if (std::strcmp(arg, "bounds") == 0) a.ipl = Gecode::IPL_BND;
        else if (std::strcmp(arg, "domain") == 0) a.ipl = Gecode::IPL_DOM;
        else if (arg[0] >= '0' && arg[0] <= '9') a.n = std::atoi(arg);
        else a.file = arg;
    }
    return a;
}

#endif
