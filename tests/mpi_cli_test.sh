#!/usr/bin/env bash
# nqueens_mpi against nqueens: over 1, 2 and 3 ranks, with one or two
# threads each, the same boards in the same order and the same solutions,
# failures and branches as one thread; options it cannot honour are a usage
# error, reported once; ranks given different command lines, or one that
# cannot start, end the run with one line and status 2, never a wrong count
# or a hang; --output is written by rank 0 and checked. Given mpi_mismatch
# (tests/mpi_mismatch.cpp), runs it too: propane::mpi::solve given
# different problems on different ranks.
#
#   tests/mpi_cli_test.sh path/to/nqueens_mpi path/to/nqueens path/to/mpirun [path/to/mpi_mismatch]
set -uo pipefail
if [[ $# -ne 3 && $# -ne 4 ]]; then
    echo "usage: mpi_cli_test.sh path/to/nqueens_mpi path/to/nqueens path/to/mpirun [path/to/mpi_mismatch]" >&2
    exit 2
fi
mpi_exe=$1 nqueens=$2 mpirun=$3 mismatch=${4:-}
source "$(dirname "$0")/cli_common.sh"
cli_setup mpi_cli_test.sh "$mpi_exe"

# Open MPI refuses to start more ranks than cores, and to run as root,
# unless told; CI runs as root on two cores.
launcher=("$mpirun")
open_mpi=false
if "$mpirun" --version 2>&1 | grep -Eqi "open mpi|open-mpi|openrte"; then
    open_mpi=true
    launcher+=(--oversubscribe)
    [[ $(id -u) -ne 0 ]] || launcher+=(--allow-run-as-root)
    # A run that ends in an error otherwise waits a second or two between
    # its SIGTERM and SIGKILL to the ranks left: 30 s of this test's 45.
    launcher+=(--mca odls_base_sigkill_timeout 0)
fi

# Every run is timed out: a regression to a hang fails instead of hanging.
mpi_run() { # ranks, then the arguments
    local ranks=$1
    shift
    timeout 120 "${launcher[@]}" -np "$ranks" "$mpi_exe" "$@" </dev/null >"$out" 2>"$err"
    status=$?
}
# The launcher with its arguments as given, for runs whose ranks differ
# (-np 1 A : -np 2 B); those that end in an error are quick.
mpi_launch() {
    timeout 60 "${launcher[@]}" "$@" </dev/null >"$out" 2>"$err"
    status=$?
}
# expect_one_line TEXT: the run failed with status 2 (not 124, a hang), wrote
# nothing on stdout, and nqueens_mpi wrote one line on stderr, holding TEXT
# (mpirun may add its own report of the exit status).
expect_one_line() {
    [[ $status -eq 2 ]] || problems+=("exit status $status, expected 2")
    [[ ! -s $out ]] || problems+=("stdout is not empty")
    mine=$(grep -c '^nqueens_mpi: ' "$err")
    [[ $mine -eq 1 ]] || problems+=("$mine lines from nqueens_mpi on stderr, expected 1")
    grep -q "^nqueens_mpi: .*$1" "$err" || problems+=("stderr does not say '$1'")
}
# Everything but the time, the thread and rank counts, the subproblems and propagations,
# which replaying each subproblem's path adds to.
same_search() {
    sed -E 's/"(wall_ms|propagations|threads|ranks|subproblems|split_ms)":[0-9.]*,?//g; /^  (wall time|threads|ranks|subproblems):/d' "$1"
}

for args in "8" "9 --consistency value" "7 --symmetry --val max --var smallest" \
    "10 --count --json --consistency domain" "11 --count --json --val split" "9 --count --symmetry --json"; do
    # shellcheck disable=SC2086 # the arguments are words
    timeout 120 "$nqueens" $args </dev/null >"$out" 2>"$err"
    same_search "$out" >"$work/one"
    for shape in "1 1" "2 1" "3 1" "2 2"; do
        read -r ranks threads <<<"$shape"
        # shellcheck disable=SC2086
        mpi_run "$ranks" $args --threads "$threads"
        [[ $status -eq 0 ]] || problems+=("exit status $status, expected 0")
        [[ ! -s $err ]] || problems+=("stderr is not empty")
        same_search "$out" >"$work/many"
        cmp -s "$work/one" "$work/many" || problems+=("the output differs from nqueens $args")
        [[ $args == *--json* ]] && ! grep -qF "\"ranks\":$ranks" "$out" && problems+=("no \"ranks\":$ranks")
        verdict "mpirun -np $ranks nqueens_mpi $args --threads $threads"
    done
done

for bad in --first "--limit 3" --unique "--time-limit 1" "--restarts luby" "--val random" "--var dom-wdeg" \
    "--threads x" "--count --quiet"; do
    # shellcheck disable=SC2086
    mpi_run 2 8 $bad
    [[ $status -eq 2 ]] || problems+=("exit status $status, expected 2")
    [[ ! -s $out ]] || problems+=("stdout is not empty")
    # Rank 0 alone reports it: one line and the usage line (mpirun may add
    # its own report of the exit status after them).
    mine=$(grep -c '^nqueens_mpi: ' "$err")
    [[ $mine -eq 1 ]] || problems+=("$mine lines from nqueens_mpi on stderr, expected 1")
    grep -q '^usage: mpirun' "$err" || problems+=("no usage line")
    verdict "mpirun -np 2 nqueens_mpi 8 $bad"
done

# Ranks launched with different problems: the first mismatch counted 94,
# 98 or 83 solutions instead of 92 and said "complete"; most others hung.
x=$mpi_exe
for mismatch_args in "8 --count --json|8 --count --json --val middle" "8 --count|9 --count" \
    "8 --count|8 --count --consistency value" "8 --count|8" "8 --count|8 --count --symmetry" \
    "8|8 --var smallest"; do
    first=${mismatch_args%%|*} second=${mismatch_args#*|}
    # shellcheck disable=SC2086 # the arguments are words
    mpi_launch -np 1 "$x" $first : -np 2 "$x" $second
    expect_one_line "the ranks' command lines disagree: .*differ in"
    verdict "mpirun -np 1 nqueens_mpi $first : -np 2 nqueens_mpi $second"
done
# The thread counts may differ.
timeout 120 "$nqueens" 9 --count --json </dev/null >"$out" 2>"$err"
same_search "$out" >"$work/one"
mpi_launch -np 1 "$x" 9 --count --json --threads 1 : -np 1 "$x" 9 --count --json --threads 2
[[ $status -eq 0 ]] || problems+=("exit status $status, expected 0")
same_search "$out" >"$work/many"
cmp -s "$work/one" "$work/many" || problems+=("the output differs from nqueens 9 --count --json")
verdict "mpirun -np 1 nqueens_mpi 9 --threads 1 : -np 1 nqueens_mpi 9 --threads 2"

# A rank that cannot start says why, through rank 0, and the run ends: a
# bad argument on rank 1 alone used to hang, its message sent to /dev/null.
mpi_launch -np 1 "$x" 8 : -np 1 "$x" 8 --bogus
expect_one_line "rank 1: unknown option '--bogus'"
grep -q '^usage: mpirun' "$err" || problems+=("no usage line")
verdict "mpirun -np 1 nqueens_mpi 8 : -np 1 nqueens_mpi 8 --bogus"
mpi_launch -np 1 "$x" 8 : -np 2 "$x" 8 --val nope
expect_one_line "ranks 1 and 2: bad --val 'nope'"
verdict "mpirun -np 1 nqueens_mpi 8 : -np 2 nqueens_mpi 8 --val nope"
mpi_launch -np 1 "$x" 8 --bogus : -np 1 "$x" 8
expect_one_line "unknown option '--bogus'"
grep -qx "nqueens_mpi: unknown option '--bogus'" "$err" || problems+=("the line names a rank, not only rank 0")
verdict "mpirun -np 1 nqueens_mpi 8 --bogus : -np 1 nqueens_mpi 8"
mpi_launch -np 1 "$x" 8 : -np 1 "$x" --help
[[ $status -eq 0 ]] || problems+=("exit status $status, expected 0")
grep -q '^usage: mpirun' "$out" || problems+=("no usage line on stdout")
verdict "mpirun -np 1 nqueens_mpi 8 : -np 1 nqueens_mpi --help"

# --output: rank 0 writes the file and checks every write. Through mpirun's
# pipe a full disk went unseen: mpirun -np 2 nqueens_mpi 10 >/dev/full
# exited 0.
timeout 120 "$nqueens" 10 </dev/null >"$out" 2>"$err"
same_search "$out" >"$work/one"
mpi_run 2 10 --output "$work/boards"
[[ $status -eq 0 ]] || problems+=("exit status $status, expected 0")
[[ ! -s $out && ! -s $err ]] || problems+=("output on stdout or stderr")
same_search "$work/boards" >"$work/many"
cmp -s "$work/one" "$work/many" || problems+=("the file differs from the output of nqueens 10")
verdict "mpirun -np 2 nqueens_mpi 10 --output FILE"
for args in "10" "10 --count --json"; do
    # shellcheck disable=SC2086
    mpi_run 2 $args --output /dev/full
    expect_one_line "error writing to /dev/full: ."
    verdict "mpirun -np 2 nqueens_mpi $args --output /dev/full"
done
mpi_run 2 10 --output "$work/no/such/dir"
expect_one_line "cannot write $work/no/such/dir: ."
verdict "mpirun -np 2 nqueens_mpi 10 --output $work/no/such/dir"
# A file size limit on the ranks (not on mpirun, whose own files it would
# break; nor on Open MPI's shared memory, hence TCP): a write past it fails
# with EFBIG, not SIGXFSZ.
if $open_mpi; then
    limited=(bash -c 'trap - XFSZ; ulimit -f 10; exec "$0" "$@"' "$x")
    mpi_launch --mca btl self,tcp -np 2 "${limited[@]}" 10 --output "$work/limited"
    expect_one_line "error writing to $work/limited: ."
    (($(wc -c <"$work/limited") <= 10240)) || problems+=("more than 10 KiB written despite the limit")
    verdict "mpirun -np 2 nqueens_mpi 10 --output FILE with files limited to 10 KiB"
fi

if [[ -n $mismatch ]]; then
    for ranks in 1 2 3; do
        timeout 120 "${launcher[@]}" -np "$ranks" "$mismatch" </dev/null >"$out" 2>"$err"
        status=$?
        [[ $status -eq 0 ]] || problems+=("exit status $status, expected 0")
        verdict "mpirun -np $ranks mpi_mismatch"
    done
fi

echo "$passed passed, $failed failed"
((failed == 0))
