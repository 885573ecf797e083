#!/usr/bin/env bash
# The programs the README and the guide show whole (send_more, talks,
# custom_constraint) take no options: --help answers on stdout with exit 0,
# anything else is one line naming it plus the usage on stderr and exit 2,
# and output that cannot be written is an error, not exit 0.
# Usage: examples_cli_test.sh PROGRAM...
set -uo pipefail
[[ $# -ge 1 ]] || { echo "usage: examples_cli_test.sh PROGRAM..." >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
fail() { echo "FAIL: $*"; failed=1; }
for prog in "$@"; do
    name=$(basename "$prog")
    "$prog" --help >"$tmp/out" 2>"$tmp/err"; status=$?
    [[ $status -eq 0 ]] || fail "$name --help: exit $status"
    grep -q "^usage: $name " "$tmp/out" || fail "$name --help: no usage line on stdout"
    [[ ! -s $tmp/err ]] || fail "$name --help: wrote to stderr"

    "$prog" --bogus >"$tmp/out" 2>"$tmp/err"; status=$?
    [[ $status -eq 2 ]] || fail "$name --bogus: exit $status, expected 2"
    [[ $(wc -l <"$tmp/err") -eq 2 ]] || fail "$name --bogus: $(wc -l <"$tmp/err") lines on stderr, expected 2"
    grep -qF "$name: unknown argument '--bogus'" "$tmp/err" || fail "$name --bogus: the argument is not named"
    grep -q "^usage: $name .*(try --help)$" "$tmp/err" || fail "$name --bogus: no usage hint"
    [[ ! -s $tmp/out ]] || fail "$name --bogus: wrote to stdout"

    if [[ -w /dev/full ]]; then
        "$prog" >/dev/full 2>"$tmp/err"; status=$?
        [[ $status -eq 2 ]] || fail "$name >/dev/full: exit $status, expected 2"
        grep -qF "$name: writing the output: " "$tmp/err" || fail "$name >/dev/full: no error message"
    fi

    "$prog" >"$tmp/out" 2>"$tmp/err"; status=$?
    [[ $status -eq 0 && -s $tmp/out && ! -s $tmp/err ]] || fail "$name: plain run: exit $status"
done
[[ $failed -eq 0 ]] && echo "ok: $*"
exit $failed
