# Sourced by the command-line tests: cli_setup NAME "$@" checks that the
# one argument is an executable, sets $exe to it, and makes a scratch
# directory (removed on exit) with $out and $err for captured output.
cli_setup() {
    local name=$1
    shift
    if [[ $# -ne 1 ]]; then
        echo "usage: $name path/to/executable" >&2
        exit 2
    fi
    exe=$1
    if [[ ! -x $exe ]]; then
        echo "$name: $exe is not an executable" >&2
        exit 2
    fi
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    out=$work/stdout
    err=$work/stderr
}
