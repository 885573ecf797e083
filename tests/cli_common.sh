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

# The checks below add what they find wrong to the calling script's
# problems array, which its verdict reports.

# run_to TARGET ARGS...: runs $exe with ARGS, no stdin, standard output
# sent to the file TARGET (or closed when TARGET is "closed") and standard
# error to $err; sets $status.
run_to() {
    local target=$1
    shift
    if [[ $target == closed ]]; then
        timeout 60 "$exe" "$@" </dev/null >&- 2>"$err"
    else
        timeout 60 "$exe" "$@" </dev/null >"$target" 2>"$err"
    fi
    status=$?
}

# run_file_limited KIB ARGS...: runs $exe with ARGS, standard output to
# $out and its files limited to KIB KiB. SIGXFSZ is ignored, so the write
# past the limit fails with EFBIG instead of killing the program, and the
# program must notice.
run_file_limited() {
    local kib=$1
    shift
    (
        trap '' XFSZ
        ulimit -f "$kib"
        exec timeout 60 "$exe" "$@" </dev/null >"$out" 2>"$err"
    )
    status=$?
}

# expect_write_error PROGRAM: exit status 2, and exactly one line on
# standard error, saying that standard output could not be written.
expect_write_error() {
    local lines
    [[ $status -eq 2 ]] || problems+=("exit status $status, expected 2")
    lines=$(wc -l <"$err")
    [[ $lines -eq 1 ]] || problems+=("$lines lines on stderr, expected 1")
    grep -q "^$1: error writing to standard output: ." "$err" ||
        problems+=("stderr does not say '$1: error writing to standard output: <reason>'")
}

# expect_escaped TEXT: standard error shows an argument as TEXT, and holds
# no control byte but its line ends.
expect_escaped() {
    grep -qF -- "$1" "$err" || problems+=("stderr does not show the argument as '$1'")
    ! grep -qF $'\e' "$err" || problems+=("a raw ESC byte on stderr")
    ! LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]' "$err" || problems+=("a raw control byte on stderr")
}
