#!/usr/bin/env bash
# Takes propane up every way README.md's "Use it in your project" shows, as
# a user's project would, and runs the result: installs by CMake and by
# Meson, find_package, add_subdirectory, FetchContent, a Meson subproject,
# pkg-config, and the compiler alone. Every check that matters is one that a
# broken package (a header left out of an install, a wrong version, a stray
# test target in a parent project) makes fail.
#
#   tests/consumers/run.sh [WORKDIR]
#
# Works in WORKDIR, which must be empty or absent and is kept for a look
# afterwards; without it, in a temporary folder removed at the end.
# Needs cmake, meson, ninja, pkg-config, python3 (Meson's own), g++, clang++.
set -Eeuo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
if (($#)); then
    if [[ -e $1 && -n $(ls -A "$1") ]]; then
        echo "run.sh: $1 is not empty" >&2
        exit 2
    fi
    mkdir -p "$1"
    work=$(cd "$1" && pwd)
else
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
fi
trap 'echo "FAILED: run.sh line $LINENO: ${BASH_COMMAND:0:160}" >&2' ERR

# The caller's search paths must not lead to another propane.
unset CMAKE_PREFIX_PATH PKG_CONFIG_PATH
export CMAKE_GENERATOR=Ninja CMAKE_BUILD_PARALLEL_LEVEL=2
# The consumers' own flags: propane's headers must not warn in their builds.
export CXXFLAGS='-Wall -Wextra -Wpedantic -Werror'

section() { printf '\n---------- %s\n' "$*"; }
fail() { echo "FAILED: $*" >&2; exit 1; }

# The version each build system declares; include/propane/version.hpp must
# state the same, and app.cpp prints what it states.
version=$(meson introspect --projectinfo "$root/meson.build" |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["version"])')
echo "Meson project version: $version"

# Makes folder $1 for a consumer, with app.cpp and the files of the
# project tests/consumers/$2, if given, and goes there.
consumer() { # name [project]
    mkdir "$work/$1"
    cp "$here/app.cpp" "$work/$1/"
    if (($# > 1)); then cp -R "$here/$2/." "$work/$1/"; fi
    cd "$work/$1"
}

# Runs a consumer's program and checks what it prints: the version its
# headers declare, and the answer of its model.
check_app() { # program [version the build system reported]
    local expected got
    expected="propane ${2:-$version}
6-queens: 4 solutions, first 1 3 5 0 2 4, 4 on 2 threads"
    got=$("$1")
    if [[ $got != "$expected" ]]; then
        printf 'expected:\n%s\ngot:\n%s\n' "$expected" "$got" >&2
        fail "$1 printed the wrong output"
    fi
    echo "ok: $1 prints version ${2:-$version} and solves 6-queens"
}

# A parent project gets propane's library target and nothing else: no tests,
# examples or benchmarks, whose dependencies the parent may not have.
check_only_app() { # cmake build folder
    local targets
    targets=$(python3 - "$1/.cmake/api/v1/reply" <<'EOF'
import glob, json, sys
reply = sys.argv[1]
index = json.load(open(sorted(glob.glob(reply + "/index-*.json"))[-1]))
model = json.load(open(reply + "/" + index["reply"]["codemodel-v2"]["jsonFile"]))
print(" ".join(sorted(t["name"] for c in model["configurations"] for t in c["targets"])))
EOF
    )
    [[ $targets == app ]] || fail "$1 builds more than app: $targets"
    echo "ok: the parent builds app and nothing of propane's"
}
query_targets() { # cmake build folder, before configuring it
    mkdir -p "$1/.cmake/api/v1/query"
    touch "$1/.cmake/api/v1/query/codemodel-v2"
}

section "Install with CMake"
mkdir "$work/install-cmake" && cd "$work/install-cmake"
ln -s "$root" propane
PREFIX=$work/prefix-cmake
cmake -S propane -B propane-build -DPROPANE_BUILD_TESTS=OFF -DPROPANE_BUILD_FZN=OFF
cmake --install propane-build --prefix "$PREFIX"

section "Install with Meson"
mkdir "$work/install-meson" && cd "$work/install-meson"
ln -s "$root" propane
PREFIX=$work/prefix-meson
meson setup propane-build propane --prefix "$PREFIX" -Dtests=false -Dexamples=false -Dbench=disabled -Dfzn=false
meson install -C propane-build

# Each install's propane.pc works on its own, states the version and C++20,
# and refuses a version propane is not. The compile is README's line, which
# splits pkg-config's output into words on purpose:
# shellcheck disable=SC2046
pkgconfig_consumer() { # prefix
    (
        PREFIX=$1
        export PKG_CONFIG_PATH="$PREFIX/share/pkgconfig"
        g++ -O2 $(pkg-config --cflags --libs propane) app.cpp -o app
        check_app ./app
        [[ $(pkg-config --modversion propane) == "$version" ]] ||
            fail "$PREFIX: propane.pc says version $(pkg-config --modversion propane), not $version"
        local flags
        flags=$(pkg-config --cflags propane | xargs)
        [[ $flags == "-I$PREFIX/include -std=c++20 -pthread" ]] || fail "$PREFIX: propane.pc gives the flags $flags"
        flags=$(pkg-config --libs propane | xargs)
        [[ $flags == "-pthread" ]] || fail "$PREFIX: propane.pc gives the libraries $flags"
        pkg-config --exists "propane >= $version" || fail "$PREFIX: propane.pc is not >= $version"
        ! pkg-config --exists 'propane >= 99' || fail "$PREFIX: propane.pc accepts a request for version 99"
    )
}
section "pkg-config and g++, CMake's install"
consumer pkgconfig-cmake
pkgconfig_consumer "$work/prefix-cmake"
section "pkg-config and g++, Meson's install"
consumer pkgconfig-meson
pkgconfig_consumer "$work/prefix-meson"

section "The compiler alone, with -I"
consumer compiler
ln -s "$root" propane
g++ -std=c++20 -O2 -pthread -I propane/include app.cpp -o app
check_app ./app

section "CMake find_package from an install prefix, g++ and clang++"
consumer find_package find_package
PREFIX=$work/prefix-cmake
cmake -S . -B build -DCMAKE_PREFIX_PATH="$PREFIX" | tee configure.log
cmake --build build
cmake_version=$(sed -n 's/^-- Found propane \([^ ]*\) in .*/\1/p' configure.log)
found_in=$(sed -n 's/^-- Found propane [^ ]* in //p' configure.log)
[[ $found_in == "$PREFIX/share/cmake/propane" ]] || fail "find_package found propane in '$found_in', not in $PREFIX"
echo "CMake project version: $cmake_version"
check_app build/app "$cmake_version"
CXX=clang++ cmake -S . -B build-clang -DCMAKE_PREFIX_PATH="$PREFIX"
cmake --build build-clang
check_app build-clang/app

section "CMake find_package of a version propane is not must fail"
consumer find_package_too_new find_package_too_new
if cmake -S . -B build -DCMAKE_PREFIX_PATH="$work/prefix-cmake" >configure.log 2>&1; then
    cat configure.log
    fail "find_package(propane 99) succeeded"
fi
# For the version, not for want of a package: that would pass a broken one.
grep -F "propane/propaneConfig.cmake, version: $version" configure.log ||
    { cat configure.log; fail "find_package(propane 99) failed, but not by refusing version $version"; }
echo "ok: find_package(propane 99) refuses propane $version"

section "CMake add_subdirectory"
consumer add_subdirectory add_subdirectory
ln -s "$root" propane
query_targets build
cmake -S . -B build
check_only_app build
# A subproject leaves the parent's build type, and its installs, alone.
grep -qx 'CMAKE_BUILD_TYPE:STRING=' build/CMakeCache.txt || fail "propane set the parent's CMAKE_BUILD_TYPE"
cmake --build build
check_app build/app
cmake --install build --prefix "$work/add_subdirectory-prefix"
[[ ! -e $work/add_subdirectory-prefix/include ]] || fail "a parent's install installed propane's headers"
echo "ok: the parent's install leaves propane out"
# ... until the parent asks for more. Configuring is proof enough.
query_targets build-examples
cmake -S . -B build-examples -DPROPANE_BUILD_EXAMPLES=ON >/dev/null
[[ -n $(find build-examples/.cmake/api/v1/reply -name 'target-nqueens-*.json') ]] ||
    fail "-DPROPANE_BUILD_EXAMPLES=ON gave the parent no nqueens target"
echo "ok: -DPROPANE_BUILD_EXAMPLES=ON adds the examples"

section "CMake FetchContent, from an archive"
consumer fetchcontent fetchcontent
# Only what propane's build reads as a subproject: one that reached for its
# tests or examples would fail to configure.
tar -C "$root" -czf propane.tar.gz --transform 's,^,propane/,' \
    CMakeLists.txt meson.build meson_options.txt cmake include
query_targets build
cmake -S . -B build
check_only_app build
cmake --build build
check_app build/app

section "Meson subproject"
consumer meson_subproject meson
mkdir subprojects
ln -s "$root" subprojects/propane
# Forced, so that a propane.pc elsewhere on this machine cannot stand in.
meson setup build --force-fallback-for=propane
subproject_version=$(meson introspect --projectinfo build | python3 -c '
import json, sys
print(*(p["version"] for p in json.load(sys.stdin)["subprojects"] if p["name"] == "propane"))')
[[ $subproject_version == "$version" ]] || fail "the propane subproject has version '$subproject_version'"
targets=$(meson introspect --targets build | python3 -c '
import json, sys
print(*sorted(t["name"] for t in json.load(sys.stdin)))')
[[ $targets == app ]] || fail "the Meson parent builds more than app: $targets"
echo "ok: the parent builds app and nothing of propane's"
meson compile -C build
check_app build/app

section "Meson and pkg-config, Meson's install"
consumer meson_pkgconfig meson
PKG_CONFIG_PATH=$work/prefix-meson/share/pkgconfig meson setup build | tee configure.log
grep -qx "Run-time dependency propane found: YES $version" configure.log ||
    fail "Meson did not find propane $version through pkg-config"
meson compile -C build
check_app build/app

# The consumers above build with what they use; this catches what they
# do not, such as a header that propane.hpp does not include.
section "Both installs hold the same headers, those of include/"
cd "$work"
# Names only against the source, which may have been edited since.
diff <(cd "$root/include" && find . -type f | sort) <(cd prefix-cmake/include && find . -type f | sort)
diff -r prefix-cmake/include prefix-meson/include
echo "ok: same header tree in $(find prefix-cmake/include -type f | wc -l) files"
# Nothing else: propane is headers only, so nothing may land under lib/.
others() { (cd "$1" && find . -path ./include -prune -o -type f -print | sort | tr '\n' ' '); }
[[ $(others prefix-cmake) == "./share/cmake/propane/propaneConfig.cmake ./share/cmake/propane/propaneConfigVersion.cmake ./share/cmake/propane/propaneTargets.cmake ./share/pkgconfig/propane.pc " ]] ||
    fail "CMake installed other files than expected: $(others prefix-cmake)"
[[ $(others prefix-meson) == "./share/pkgconfig/propane.pc " ]] ||
    fail "Meson installed other files than expected: $(others prefix-meson)"
echo "ok: besides the headers, the CMake package files and propane.pc"

# fzn-propane installed, each way, is a solver MiniZinc finds and runs:
# 6-queens has 4 solutions. Unoptimised (CMake takes its build type from
# the environment): this checks the install, not speed. The CMake lines
# are README.md's.
queens6() {
    printf '%s\n' 'include "globals.mzn";' 'array[1..6] of var 1..6: q;' 'constraint all_different(q);' \
        'constraint all_different([q[i] + i | i in 1..6]);' 'constraint all_different([q[i] - i | i in 1..6]);' \
        'solve satisfy;' >model.mzn
}
check_minizinc() { # prefix
    local solutions
    solutions=$(MZN_SOLVER_PATH="$1/share/minizinc/solvers" minizinc --solver propane -a model.mzn | grep -c -- '^----------$')
    [[ $solutions == 4 ]] || fail "$1: minizinc --solver propane found $solutions solutions of 6-queens, not 4"
    [[ -x $1/bin/fzn-propane && -f $1/share/minizinc/propane/fzn_all_different_int.mzn ]] ||
        fail "$1: fzn-propane or its library folder is missing"
    echo "ok: $1: minizinc --solver propane counts 4 solutions of 6-queens"
}
section "fzn-propane installed with CMake, run by MiniZinc"
mkdir "$work/install-fzn-cmake" && cd "$work/install-fzn-cmake"
ln -s "$root" propane
queens6
PREFIX=$work/prefix-fzn-cmake
export CMAKE_BUILD_TYPE=Debug
cmake -S propane -B propane-build -DPROPANE_BUILD_TESTS=OFF
cmake --build propane-build --target fzn-propane
cmake --install propane-build --prefix "$PREFIX"
MZN_SOLVER_PATH="$PREFIX/share/minizinc/solvers" minizinc --solver propane model.mzn
check_minizinc "$PREFIX"
unset CMAKE_BUILD_TYPE
section "fzn-propane installed with Meson, run by MiniZinc"
mkdir "$work/install-fzn-meson" && cd "$work/install-fzn-meson"
ln -s "$root" propane
queens6
PREFIX=$work/prefix-fzn-meson
meson setup propane-build propane --prefix "$PREFIX" --buildtype=plain -Dtests=false -Dexamples=false -Dbench=disabled
meson install -C propane-build
check_minizinc "$PREFIX"

section "README.md's snippets are the ones tested here"
python3 - "$root/README.md" "$here" <<'EOF'
import pathlib, re, sys
readme, here = pathlib.Path(sys.argv[1]).read_text(), pathlib.Path(sys.argv[2])
section = re.search(r"^## Use it in your project\n(.*?)(?=^## |\Z)", readme, re.M | re.S)
if not section:
    sys.exit("README.md has no section 'Use it in your project'")
blocks = re.findall(r"^```[a-z]*\n(.*?)^```$", section.group(1), re.M | re.S)
tested = {p: [l.strip() for l in p.read_text().splitlines()] for p in here.rglob("*") if p.is_file()}
def found_in(block):
    lines = [l.strip() for l in block.splitlines()]
    return [p for p, text in tested.items()
            if any(text[i:i + len(lines)] == lines for i in range(len(text)))]
missing = [b for b in blocks if not found_in(b)]
for b in missing:
    print("not in tests/consumers:\n" + b)
if not blocks or missing:
    sys.exit(1)
print(f"ok: all {len(blocks)} snippets")
EOF

section "All consumers passed"
