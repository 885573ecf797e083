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

# The checks below add what they find wrong to the problems array, which
# verdict reports.
passed=0
failed=0
problems=()

# verdict NAME...: records the check named NAME as passed or failed, by
# whether the checks since the last call added to problems; a failure is
# printed with its problems and show_output.
verdict() {
    if ((${#problems[@]} == 0)); then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL: $*"
        printf '  - %s\n' "${problems[@]}"
        show_output
    fi
    problems=()
}

# The start of what the failed check's program wrote: $stdout_lines lines of
# standard output (20 unless the script sets it) and 10 of standard error.
# A script whose output needs another view defines its own.
show_output() {
    local lines=${stdout_lines:-20}
    echo "  --- stdout (first $lines lines) ---"
    head -n "$lines" "$out" | sed 's/^/  | /'
    echo "  --- stderr (first 10 lines) ---"
    head -n 10 "$err" | sed 's/^/  | /'
}

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
# $out and its files limited to KIB KiB; its standard error goes through a
# pipe to $err, so that the limit cannot stop its message. SIGXFSZ keeps its
# default action (to kill), as in a shell where a user set ulimit -f: the
# program must ignore it itself, so that the write past the limit fails with
# EFBIG and it can say so, rather than die of the signal (status 153). A
# shell started with the signal ignored cannot restore it; there this
# checks less.
run_file_limited() {
    local kib=$1
    shift
    (
        trap - XFSZ
        ulimit -f "$kib"
        exec timeout 60 "$exe" "$@" </dev/null 2>&1 >"$out"
    ) | cat >"$err"
    status=${PIPESTATUS[0]}
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

# run_memory_limited KIB ARGS...: runs $exe with ARGS, no stdin, its address
# space limited to KIB KiB (ulimit -v); standard output to $out, standard
# error to $err; sets $status.
run_memory_limited() {
    local kib=$1
    shift
    (
        ulimit -v "$kib"
        exec timeout 60 "$exe" "$@" </dev/null >"$out" 2>"$err"
    )
    status=$?
}

# memory_floor: the least limit, in KiB to within 64, under which "$exe
# --help" runs: what starting the program takes. Empty when 64 MiB is not
# enough: a sanitizer's shadow memory needs terabytes of address space, and
# no limit leaves it room.
memory_floor() {
    local lo=0 hi=65536 mid
    starts() { (ulimit -v "$1" && exec "$exe" --help </dev/null >/dev/null 2>&1); }
    starts "$hi" || return 0
    while ((hi - lo > 64)); do
        mid=$(((lo + hi) / 2))
        if starts "$mid"; then hi=$mid; else lo=$mid; fi
    done
    echo "$hi"
}

# expect_out_of_memory PROGRAM: exit status 2 and one line on standard
# error, "PROGRAM: out of memory: ...", or, for a thread the system could
# not start, "PROGRAM: cannot start the search's threads: ...".
expect_out_of_memory() {
    [[ $status -eq 2 ]] || problems+=("exit status $status, expected 2")
    [[ $(wc -l <"$err") -eq 1 ]] || problems+=("$(wc -l <"$err") lines on stderr, expected 1")
    grep -qE "^$1: (out of memory: .|cannot start the search's threads: .)" "$err" ||
        problems+=("stderr does not say '$1: out of memory: <why>'")
}

# memory_sweep PROGRAM ARGS...: runs ARGS under address-space limits from
# just above memory_floor up to 256 MiB above it, doubling the margin, until
# a run ends otherwise than with exit status 2. Every run that ends with 2
# must have run out of memory as expect_out_of_memory says, wherever the
# limit caught it (parsing, building the model, starting threads, the
# search, writing), and at least one must say "out of memory". Records one
# verdict; skipped (a note, no verdict) where memory_floor finds no floor.
memory_sweep() {
    local program=$1 floor margin said=0
    shift
    floor=$(memory_floor)
    if [[ -z $floor ]]; then
        echo "note: $program $* under ulimit -v not checked: the program does not start under 64 MiB"
        return
    fi
    for ((margin = 256; margin <= 262144; margin *= 2)); do
        run_memory_limited $((floor + margin)) "$@"
        ((status == 2)) || break
        expect_out_of_memory "$program"
        grep -q "^$program: out of memory: " "$err" && said=1
        ((${#problems[@]} == 0)) || {
            problems+=("under a limit of $((floor + margin)) KiB")
            break
        }
    done
    ((said == 1)) || problems+=("no run said '$program: out of memory: ...' (last exit status $status)")
    verdict "$program $* under ulimit -v"
}
