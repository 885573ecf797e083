#!/usr/bin/env bash
# nqueens_mpi against nqueens: over 1, 2 and 3 ranks, with one or two
# threads each, the same boards in the same order and the same solutions,
# failures and branches as one thread; options it cannot honour are a usage
# error, reported once.
#
#   tests/mpi_cli_test.sh path/to/nqueens_mpi path/to/nqueens path/to/mpirun
set -uo pipefail
if [[ $# -ne 3 ]]; then
    echo "usage: mpi_cli_test.sh path/to/nqueens_mpi path/to/nqueens path/to/mpirun" >&2
    exit 2
fi
mpi_exe=$1 nqueens=$2 mpirun=$3
source "$(dirname "$0")/cli_common.sh"
cli_setup mpi_cli_test.sh "$mpi_exe"

# Open MPI refuses to start more ranks than cores, and to run as root,
# unless told; CI runs as root on two cores.
launcher=("$mpirun")
if "$mpirun" --version 2>&1 | grep -Eqi "open mpi|open-mpi|openrte"; then
    launcher+=(--oversubscribe)
    [[ $(id -u) -ne 0 ]] || launcher+=(--allow-run-as-root)
fi

mpi_run() { # ranks, then the arguments
    local ranks=$1
    shift
    timeout 120 "${launcher[@]}" -np "$ranks" "$mpi_exe" "$@" </dev/null >"$out" 2>"$err"
    status=$?
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
    "--threads x"; do
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

echo "$passed passed, $failed failed"
((failed == 0))
