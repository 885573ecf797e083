#!/usr/bin/env bash
# Checks the command-line behaviour of the golomb and magic_square examples:
# help, JSON fields and values, threads, bad arguments and options the
# others leave nothing to do (one escaped line on stderr, a usage hint, exit
# 2), lost output and running out of memory (one line, exit 2).
# Usage: models_cli_test.sh path/to/golomb path/to/magic_square
set -uo pipefail

source "$(dirname "$0")/cli_common.sh"
if [[ $# -ne 2 ]]; then
    echo "usage: models_cli_test.sh path/to/golomb path/to/magic_square" >&2
    exit 2
fi
golomb=$1
magic=$2
cli_setup models_cli_test "$golomb"

# json_field NAME: the value of a top-level JSON field of $out (one object),
# as JSON. One python3 start per output, not per field (a start costs about
# half a second on the CI machine, and the fields were most of this test's
# time): the first call on a new $out checks that it is one JSON object and
# writes all its fields, and same_search's form of it, to a cache file
# that later calls (each in a subshell of its own) read.
json_cache=$work/json_fields
json_cache_of=$work/json_of
json_parse() {
    cmp -s "$out" "$json_cache_of" && return
    python3 -c '
import json, sys
try:
    v = json.load(open(sys.argv[1]))
except ValueError:
    sys.exit(0)
for k, x in v.items():
    print(k + "\t" + json.dumps(x))
# same_search: the JSON without what may differ between thread counts
# (the time, the thread count, and the counts of a search cut short).
for k in ("wall_ms", "threads") + (() if v.get("complete") else ("failures", "branches")):
    v.pop(k, None)
print("\t" + json.dumps(v, sort_keys=True))' "$out" >"$json_cache" 2>/dev/null
    cp "$out" "$json_cache_of"
}
json_field() {
    json_parse
    awk -F '\t' -v k="$1" '$1 == k { print $2; exit }' "$json_cache"
}

# expect_usage_error PROGRAM TEXT: exit 2, one line naming the problem and
# one usage line on stderr, nothing on stdout.
expect_usage_error() {
    [[ $status -eq 2 ]] || problems+=("exit status $status, expected 2")
    [[ $(wc -l <"$err") -eq 2 ]] || problems+=("$(wc -l <"$err") lines on stderr, expected 2")
    grep -qF -- "$1: $2" "$err" || problems+=("stderr does not say '$1: $2'")
    grep -q "^usage: $1 .*(try --help)$" "$err" || problems+=("no usage line with a hint to --help")
    [[ ! -s $out ]] || problems+=("output on stdout")
}

for program in golomb magic_square; do
    if [[ $program == golomb ]]; then exe=$golomb; else exe=$magic; fi

    run_to "$out" --help
    [[ $status -eq 0 ]] || problems+=("--help exit status $status")
    grep -q "^usage: $program N" "$out" || problems+=("--help has no usage line")
    [[ ! -s $err ]] || problems+=("--help wrote to stderr")
    verdict "$program --help"

    run_to "$out"
    expect_usage_error "$program" "missing N"
    verdict "$program without N"

    for bad in 0 -3 abc 99999 1.5 ''; do
        run_to "$out" "$bad"
        [[ $status -eq 2 ]] || problems+=("exit status $status, expected 2")
        [[ $(wc -l <"$err") -eq 2 ]] || problems+=("$(wc -l <"$err") lines on stderr, expected 2")
        verdict "$program '$bad'"
    done

    run_to "$out" 3 --bogus
    expect_usage_error "$program" "unknown option '--bogus'"
    verdict "$program unknown option"

    run_to "$out" 3 4
    [[ $status -eq 2 ]] || problems+=("exit status $status, expected 2")
    verdict "$program two numbers"

    run_to "$out" 3 --consistency strong
    expect_usage_error "$program" "bad --consistency 'strong'"
    verdict "$program bad consistency"

    run_to "$out" $'3\e[2J'
    [[ $status -eq 2 ]] || problems+=("exit status $status, expected 2")
    expect_escaped "'3\\x1b[2J'"
    verdict "$program escapes its argument"

    run_to /dev/full 3
    expect_write_error "$program"
    verdict "$program > /dev/full"

    run_to closed 3
    expect_write_error "$program"
    verdict "$program >&-"

    run_to /dev/full --help
    expect_write_error "$program"
    verdict "$program --help > /dev/full"

    run_file_limited 0 3
    expect_write_error "$program"
    verdict "$program 3 with files limited to 0 KiB"

    # The largest size under a memory limit: one line and exit 2, never
    # std::terminate's abort (status 134).
    if [[ $program == golomb ]]; then big=64; else big=30; fi
    memory_sweep "$program" "$big" --time-limit 0.2

    run_to "$out" 3 --threads 4097
    expect_usage_error "$program" "bad --threads '4097'"
    verdict "$program --threads 4097"
done

# An option that the others leave nothing to do is refused, with the reason.
exe=$golomb
run_to "$out" 5 --json --quiet
expect_usage_error golomb "--quiet does nothing with --json"
verdict "golomb 5 --json --quiet"

# golomb_ruler MARKS N LENGTH: MARKS (JSON) is a Golomb ruler with N marks
# and that length.
golomb_ruler() {
    local marks=${1//[][ ]/} n=$2 length=$3 i j d
    local -a m
    local -A seen=()
    IFS=, read -r -a m <<<"$marks"
    ((${#m[@]} == n && n > 0)) || return 1
    ((m[0] == 0 && m[n - 1] == length)) || return 1
    for ((i = 0; i < n; ++i)); do
        [[ ${m[i]} =~ ^[0-9]+$ ]] || return 1
        ((i == 0 || m[i - 1] < m[i])) || return 1
        for ((j = 0; j < i; ++j)); do
            d=$((m[i] - m[j]))
            [[ -z ${seen[$d]:-} ]] || return 1
            seen[$d]=1
        done
    done
}

# golomb: lengths and JSON fields, every strength.
exe=$golomb
for consistency in value bounds domain; do
    for n_len in 1:0 2:1 4:6 6:17; do
        n=${n_len%%:*}
        want=${n_len##*:}
        run_to "$out" "$n" --json --consistency "$consistency"
        [[ $status -eq 0 ]] || problems+=("exit status $status")
        [[ $(json_field length) == "$want" ]] || problems+=("length $(json_field length), expected $want")
        [[ $(json_field optimal) == true ]] || problems+=("optimal is $(json_field optimal)")
        marks=$(json_field marks)
        golomb_ruler "$marks" "$n" "$want" || problems+=("marks $marks are not a Golomb ruler of length $want with $n marks")
        for field in failures branches wall_ms; do
            [[ -n $(json_field $field) ]] || problems+=("no field $field")
        done
        verdict "golomb $n --json --consistency $consistency"
    done
done
run_to "$out" 5 --quiet
[[ $status -eq 0 ]] || problems+=("exit status $status")
grep -q "^Ruler: 0 1 4 9 11$\|^Ruler: 0 2 7 8 11$" "$out" || problems+=("no optimal 5-mark ruler printed")
grep -q "^Length: 11 (optimal)$" "$out" || problems+=("no 'Length: 11 (optimal)'")
! grep -q "^length " "$out" || problems+=("--quiet printed improvements")
verdict "golomb 5 --quiet"
# Branch and bound on threads: the same optimum (OEIS A003022), a valid
# ruler, each improvement shorter than the last, the thread count reported.
for threads in 2 3; do
    for n_len in 1:0 3:3 5:11 7:25 8:34; do
        n=${n_len%%:*}
        want=${n_len##*:}
        run_to "$out" "$n" --json --threads "$threads"
        [[ $status -eq 0 ]] || problems+=("exit status $status")
        [[ $(json_field length) == "$want" ]] || problems+=("length $(json_field length), expected $want")
        [[ $(json_field optimal) == true ]] || problems+=("optimal is $(json_field optimal)")
        [[ $(json_field threads) == "$threads" ]] || problems+=("threads is $(json_field threads)")
        golomb_ruler "$(json_field marks)" "$n" "$want" || problems+=("marks $(json_field marks) are not a Golomb ruler of length $want")
        verdict "golomb $n --json --threads $threads"
    done
    run_to "$out" 8 --threads "$threads"
    lengths=$(sed -n 's/^length \([0-9]*\):.*/\1/p' "$out" | tr '\n' ' ')
    python3 -c 'import sys; v = [int(x) for x in sys.argv[1:]]; sys.exit(0 if v and all(a > b for a, b in zip(v, v[1:])) and v[-1] == 34 else 1)' \
        $lengths || problems+=("improvements not strictly shorter, ending at 34: $lengths")
    grep -q "^  threads: $threads$" "$out" || problems+=("no 'threads: $threads' line")
    verdict "golomb 8 --threads $threads improves step by step"
done

run_to "$out" 12 --time-limit 0.05 --json
[[ $status -eq 0 ]] || problems+=("exit status $status")
[[ $(json_field optimal) == false ]] || problems+=("optimal is $(json_field optimal) after a 50 ms limit on 12 marks")
verdict "golomb 12 --time-limit 0.05"

# magic_square: counts and the printed square.
exe=$magic
for n_count in 1:1 2:0 3:8; do
    n=${n_count%%:*}
    want=${n_count##*:}
    run_to "$out" "$n" --count --json
    [[ $status -eq 0 ]] || problems+=("exit status $status")
    [[ $(json_field solutions) == "$want" ]] || problems+=("solutions $(json_field solutions), expected $want")
    [[ $(json_field complete) == true ]] || problems+=("complete is $(json_field complete)")
    verdict "magic_square $n --count --json"
done
run_to "$out" 3 --json
python3 -c '
import json, sys
sq = json.load(open(sys.argv[1]))["square"]
rows = sq; cols = list(zip(*sq))
ok = sorted(v for r in sq for v in r) == list(range(1, 10)) and all(sum(r) == 15 for r in rows) and all(sum(c) == 15 for c in cols)
ok = ok and sum(sq[i][i] for i in range(3)) == 15 and sum(sq[i][2 - i] for i in range(3)) == 15
sys.exit(0 if ok else 1)
' "$out" || problems+=("the square is not magic: $(cat "$out")")
verdict "magic_square 3 --json prints a magic square"
run_to "$out" 4 --count --limit 5 --json
[[ $(json_field solutions) == 5 ]] || problems+=("solutions $(json_field solutions), expected 5")
[[ $(json_field complete) == false ]] || problems+=("complete after a limit")
verdict "magic_square 4 --count --limit 5"
# --threads: for a search run to its end, the squares, the solutions, the
# failures and the branches of one thread, exactly; the first square of a
# search stopped at it is one thread's too.
same_search() { # $out as json_parse gives it, without what may differ between thread counts
    json_parse
    awk -F '\t' '$1 == "" { print $2; exit }' "$json_cache"
}
for consistency in value bounds domain; do
    for args in "3 --count" "3" "4 --limit 3" "5"; do
        # shellcheck disable=SC2086 # the arguments are words
        run_to "$out" $args --json --consistency "$consistency"
        one=$(same_search)
        for threads in 2 3; do
            # shellcheck disable=SC2086
            run_to "$out" $args --json --consistency "$consistency" --threads "$threads"
            [[ $status -eq 0 ]] || problems+=("exit status $status")
            [[ $(json_field threads) == "$threads" ]] || problems+=("threads is $(json_field threads)")
            many=$(same_search)
            [[ -n $one && $many == "$one" ]] || problems+=("differs from --threads 1: $many against $one")
            verdict "magic_square $args --json --consistency $consistency --threads $threads"
        done
    done
done
run_to "$out" 3 --count --threads 2
grep -q "^  Solutions found: 8$" "$out" || problems+=("no 'Solutions found: 8'")
grep -q "^  threads: 2$" "$out" || problems+=("no 'threads: 2' line")
verdict "magic_square 3 --count --threads 2"

echo "models_cli_test: $passed passed, $failed failed"
((failed == 0))
