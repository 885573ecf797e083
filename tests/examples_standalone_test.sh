#!/bin/bash
# Each example as the README's first command builds it: on its own, without
# the prebuilt instances. A build with propane_compiled compiles the
# examples with <propane/compiled.hpp> and <propane/parallel.hpp> forced in
# (CMakeLists.txt, meson.build), which would hide an #include an example
# forgot; so each is compiled here without them, warnings as errors. Syntax
# only: the templates are instantiated and checked, no code is generated.
# Usage: examples_standalone_test.sh SOURCE_ROOT CXX... (the compiler's
# command, which may be more than one word: ccache g++)
set -u
root=$1
shift
cxx=("$@")
flags=(-std=c++20 -fsyntax-only -Wall -Wextra -Wpedantic -Werror -I"$root/include" -I"$root/examples")
status=0
for f in "$root"/examples/*.cpp; do
    if out=$("${cxx[@]}" "${flags[@]}" "$f" 2>&1); then
        echo "ok   $(basename "$f")"
    else
        echo "FAIL $(basename "$f"):"
        echo "$out" | head -20
        status=1
    fi
done
exit $status
