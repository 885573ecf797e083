#!/bin/bash
# Spellings that must not compile (tests/compile_fail/*.cpp): each snippet
# must fail AND print the message its first line names (// expect: ...),
# so that the user reads what to write instead. ok_*.cpp are controls that
# must compile warning-free, so a snippet cannot fail for a reason of its
# own (a broken include, a typo) unnoticed.
# Usage: compile_fail_test.sh SOURCE_ROOT CXX... (the compiler's command,
# which may be more than one word: ccache g++)
set -u
root=$1
shift
cxx=("$@")
flags=(-std=c++20 -fsyntax-only -Wall -Wextra -Wpedantic -I"$root/include")
status=0
for f in "$root"/tests/compile_fail/*.cpp; do
    name=$(basename "$f")
    out=$("${cxx[@]}" "${flags[@]}" "$f" 2>&1)
    code=$?
    if [[ $name == ok_* ]]; then
        if [[ $code -ne 0 || -n $out ]]; then
            echo "FAIL $name: the control does not compile cleanly:"
            echo "$out" | head -20
            status=1
        fi
        continue
    fi
    expect=$(sed -n '1s|^// expect: ||p' "$f")
    if [[ -z $expect ]]; then
        echo "FAIL $name: no '// expect: <message>' first line"
        status=1
    elif [[ $code -eq 0 ]]; then
        echo "FAIL $name: compiled, and must not"
        status=1
    elif ! grep -qF -- "$expect" <<<"$out"; then
        echo "FAIL $name: failed without the message '$expect':"
        echo "$out" | grep -m5 error
        status=1
    else
        echo "ok   $name"
    fi
done
exit $status
