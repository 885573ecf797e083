#ifndef PROPANE_EXAMPLES_PROGRAM_HPP
#define PROPANE_EXAMPLES_PROGRAM_HPP

// What the programs shown whole in the README and the guide (send_more,
// talks, custom_constraint) do around their model, kept here so that the
// page shows the model: they take no options, and output that cannot be
// written is an error, not exit 0. The examples with options read them
// with options.hpp.

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string_view>

namespace examples {

// For a program given arguments, which it takes none of: --help prints the
// usage line on stdout (exit 0); anything else is named on stderr with
// the usage and a hint (exit 2). Returns the exit status.
inline int no_options(char** argv, const char* program) {
    const bool help = std::string_view(argv[1]) == "--help";
    if (!help) std::fprintf(stderr, "%s: unknown argument '%s'\n", program, argv[1]);
    std::fprintf(help ? stdout : stderr, "usage: %s (takes no options)%s\n", program, help ? "" : " (try --help)");
    return help ? 0 : 2;
}

// status, once standard output has been written out; 2, with a message,
// when it could not be.
inline int written(const char* program, int status) {
    if (std::fflush(stdout) == 0) return status;
    const int error = errno; // before anything else can set it
    std::fprintf(stderr, "%s: writing the output: %s\n", program, std::strerror(error));
    return 2;
}

} // namespace examples

#endif
