#!/usr/bin/env bash
# Checks the command-line behaviour of the nqueens example.
# Usage: cli_test.sh path/to/nqueens
set -uo pipefail

source "$(dirname "$0")/cli_common.sh"
cli_setup cli_test "$@"
nqueens=$exe

# Runs nqueens with the given arguments, no stdin and a time limit of
# $limit seconds; sets $status (124 when the limit was hit).
limit=60
run() {
    timeout "$limit" "$nqueens" "$@" </dev/null >"$out" 2>"$err"
    status=$?
}

# verdict's view of a failure: the end of a long print-out too.
show_output() { # (lines cut at 200 characters: boards can be wide)
    echo "  --- stdout (first 20 lines) ---"
    head -n 20 "$out" | cut -c 1-200 | sed 's/^/  | /'
    if (($(wc -l <"$out") > 20)); then
        echo "  --- last 10 lines of stdout ---"
        tail -n 10 "$out" | cut -c 1-200 | sed 's/^/  | /'
    fi
    echo "  --- stderr (first 20 lines) ---"
    head -n 20 "$err" | cut -c 1-200 | sed 's/^/  | /'
}


# (a) Bad arguments: status 2, one line naming the problem and a usage line
# on stderr, nothing on stdout. They must be rejected at once; a size that is
# tried instead would run out of memory.
limit=10
bad_arguments=(
    'abc'
    '-3'
    '0'
    '--bogus'
    '8 9'
    '--consistency nope'
    '--consistency'
    '99999999999999999999'
    '2000000000'
    '--var nope'
    '--var'
    '--val=sideways'
    '--seed -1'
    '--seed 1.5'
    '--seed 99999999999999999999'
    '--limit 0'
    '--limit many'
    '--time-limit 0'
    '--time-limit -2'
    '--time-limit soon'
    '--time-limit=nan'
    '--time-limit inf'
    '--restarts sometimes'
    '--restart-scale 10'
    '--restarts luby --restart-scale 0'
    '--first --limit 2'
    '--seed 5'
    '--first --val min --seed 5'
    '--quiet'
    '8 --json --quiet'
    '--restarts luby'
    '40 --first --val middle --restarts geometric'
)
for args in "${bad_arguments[@]}"; do
    read -ra argv <<<"$args"
    run "${argv[@]}"
    [[ $status -eq 2 ]] || problems+=("exit status $status, expected 2")
    lines=$(wc -l <"$err")
    [[ $lines -eq 2 ]] || problems+=("$lines lines on stderr, expected 2 (the problem, then usage)")
    head -n 1 "$err" | grep -q '^nqueens: ' || problems+=("the first stderr line does not start with 'nqueens: '")
    sed -n 2p "$err" | grep -q '^usage: ' || problems+=("the second stderr line does not start with 'usage: '")
    [[ ! -s $out ]] || problems+=("stdout is not empty")
    verdict "nqueens $args"
done

limit=60

# (b) --help: status 0, usage on stdout, nothing on stderr.
run --help
[[ $status -eq 0 ]] || problems+=("exit status $status, expected 0")
grep -qi 'usage' "$out" || problems+=("no line containing 'usage' on stdout")
[[ ! -s $err ]] || problems+=("stderr is not empty")
for option in --count --first --limit --unique --symmetry --var --val --seed --restarts --restart-scale \
    --consistency --time-limit --json --quiet; do
    grep -qF -- "$option" "$out" || problems+=("--help does not mention $option")
done
verdict "nqueens --help"

# (c) Counting with JSON output: one line holding the statistics of each
# strength (bounds: the guide's figures; domain: Gecode IPL_DOM's tree).
check_json() { # expected fields..., then -- and the arguments
    local fields=()
    while [[ $1 != -- ]]; do fields+=("$1"); shift; done
    shift
    run "$@"
    [[ $status -eq 0 ]] || problems+=("exit status $status, expected 0")
    [[ ! -s $err ]] || problems+=("stderr is not empty")
    lines=$(wc -l <"$out")
    [[ $lines -eq 1 ]] || problems+=("$lines lines on stdout, expected 1")
    for field in "${fields[@]}"; do
        grep -qF "$field" "$out" || problems+=("no $field in the JSON")
    done
    if command -v python3 >/dev/null 2>&1; then
        python3 -c 'import json, sys; json.load(sys.stdin)' <"$out" 2>/dev/null ||
            problems+=("stdout is not valid JSON")
    fi
    verdict "nqueens $*"
}
check_json '"solutions":92' '"failures":304' '"branches":790' '"consistency":"bounds"' '"var":"first"' '"val":"min"' \
    '"restarts":0' '"restart_policy":"none"' '"complete":true' '"outcome":"complete"' -- 8 --count --json
check_json '"solutions":92' '"failures":324' '"branches":830' '"consistency":"value"' -- 8 --count --json --consistency value
check_json '"solutions":92' '"failures":289' '"branches":760' '"consistency":"domain"' -- 8 --count --json --consistency domain

# (d) Default run: the 92 boards of 8-queens, then the statistics.
run
[[ $status -eq 0 ]] || problems+=("exit status $status, expected 0")
[[ ! -s $err ]] || problems+=("stderr is not empty")
for ((k = 0; k < 92; ++k)); do
    if ! grep -qE "^Solution $k([^0-9]|\$)" "$out"; then
        problems+=("no line 'Solution $k'")
        break
    fi
done
if grep -qE '^Solution 92([^0-9]|$)' "$out"; then
    problems+=("a 'Solution 92' line, expected only 92 solutions")
fi

# Row i of the first board has Q in column j iff q[j] == i.
first=(0 4 7 5 2 6 1 3)
expected_board=$work/expected_board
for ((i = 0; i < 8; ++i)); do
    row=()
    for ((j = 0; j < 8; ++j)); do
        if ((first[j] == i)); then row+=(Q); else row+=(_); fi
    done
    echo "${row[*]}"
done >"$expected_board"
# The board lines between 'Solution 0' and 'Solution 1'.
awk '/^Solution 0([^0-9]|$)/ { on = 1; next }
     /^Solution 1([^0-9]|$)/ { on = 0 }
     on && /^[Q_ ]+$/' "$out" >"$work/first_board"
if ! cmp -s "$expected_board" "$work/first_board"; then
    problems+=("first board differs; expected:
$(cat "$expected_board")
got:
$(cat "$work/first_board")")
fi

# The statistics come after the last board.
after_last=$work/after_last
awk '/^Solution 91([^0-9]|$)/ { on = 1; next } on' "$out" >"$after_last"
for line in '  failures: 304' '  branches: 790' '  Solutions found: 92'; do
    grep -qxF "$line" "$after_last" || problems+=("no line '$line' after the last solution")
done
grep -qxE '  wall time: [0-9]+ ms' "$after_last" ||
    problems+=("no line '  wall time: <int> ms' after the last solution")

verdict "nqueens (no arguments)"

# The boards on stdout, one line each: q[0] ... q[N-1], read off the
# picture (row i has Q in column j when q[j] == i). A board that does not
# have exactly one queen in each row and column prints "bad".
boards() {
    awk 'function flush(   j, line) {
             if (rows == 0) return
             ok = rows == n
             for (j = 1; j <= n; ++j) if (!(j in q)) ok = 0
             if (!ok) { print "bad"; rows = 0; delete q; return }
             line = q[1]
             for (j = 2; j <= n; ++j) line = line " " q[j]
             print line
             rows = 0; delete q
         }
         /^Solution [0-9]+$/ { flush(); next }
         /^[Q_]( [Q_])*$/ {
             n = NF; queens = 0
             for (j = 1; j <= NF; ++j) if ($j == "Q") { if (j in q) bad = 1; q[j] = rows + 0; ++queens }
             if (queens != 1) bad = 1
             ++rows; next
         }
         { flush() }
         END { flush(); if (bad) print "bad" }' "$out"
}

# Of the board lines on stdin (as boards prints them), prints those where
# two queens share a diagonal, or "bad" as is.
attacked() {
    awk '$0 == "bad" { print; next }
         { delete up; delete down
           for (c = 1; c <= NF; ++c) {
               if (($c + c) in up || ($c - c) in down) { print; next }
               up[$c + c] = 1; down[$c - c] = 1
           } }'
}

json_field() { # name: the value of a number field of the JSON on stdout
    grep -o "\"$1\":[0-9.]*" "$out" | head -n 1 | cut -d: -f2
}
expect_ok() {
    [[ $status -eq 0 ]] || problems+=("exit status $status, expected 0")
    [[ ! -s $err ]] || problems+=("stderr is not empty")
}
expect_line() { grep -qxF -- "$1" "$out" || problems+=("no line '$1'"); }
expect_no_line() { ! grep -qxF -- "$1" "$out" || problems+=("a line '$1'"); }
expect_field() { # name value
    local got
    got=$(json_field "$1")
    [[ $got == "$2" ]] || problems+=("\"$1\" is '$got', expected $2")
}

# OEIS A000170 (all solutions) and A002562 (solutions up to rotation and
# reflection), N = 1..12.
a000170=(1 0 0 2 10 4 40 92 352 724 2680 14200)
a002562=(1 0 0 1 2 1 6 12 46 92 341 1787)

# (e) Every strategy searches the whole tree: 92 solutions for N = 8.
for var in first smallest largest smallest-min dom-wdeg; do
    for val in min max middle split random; do
        run 8 --count --json --var "$var" --val "$val"
        expect_ok
        expect_field solutions 92
        grep -qF '"outcome":"complete"' "$out" || problems+=("the search did not complete")
        grep -qF "\"var\":\"$var\",\"val\":\"$val\"" "$out" || problems+=("the JSON does not echo the strategy")
        verdict "nqueens 8 --count --json --var $var --val $val"
    done
done
# Restarts stop at the first solution, so counting stays exact.
run 12 --count --json --val random --restarts luby --restart-scale 1
expect_ok
expect_field solutions 14200
(($(json_field restarts) > 0)) || problems+=("no restarts with a budget of 1 failure")
restarts=$(json_field restarts)
run 12 --count --val random --restarts luby --restart-scale 1
expect_line "  restarts: $restarts"
expect_line '  Solutions found: 14200'
verdict "nqueens 12 --count --val random --restarts luby --restart-scale 1"
# The same seed, the same search.
run 14 --count --json --val random --seed 7 --time-limit 0.3
sed 's/"wall_ms":[0-9.]*//; s/"failures".*//' "$out" >"$work/seeded"
run 14 --first --json --seed 7
sed 's/"wall_ms":[0-9.]*//' "$out" >"$work/first_a"
run 14 --first --json --seed 7
sed 's/"wall_ms":[0-9.]*//' "$out" | cmp -s - "$work/first_a" || problems+=("two runs with seed 7 differ")
verdict "nqueens 14 --first --seed 7, twice"

# (f) --first: a valid board, checked here, for boards of each domain width.
for n in 1 4 5 8 31 64 65 128 129 256 257 300 1000; do
    run "$n" --first
    expect_ok
    mapfile -t found < <(boards)
    if ((${#found[@]} != 1)); then
        problems+=("${#found[@]} boards, expected 1")
    else
        [[ $(wc -w <<<"${found[0]}") -eq $n ]] || problems+=("a board that is not $n x $n")
        [[ -z $(attacked <<<"${found[0]}") ]] || problems+=("two queens attack each other")
    fi
    expect_line '  Solutions found: 1'
    expect_line '  stopped by: solution_limit'
    verdict "nqueens $n --first"
done
for n in 2 3; do
    run "$n" --first
    expect_ok
    [[ -z $(boards) ]] || problems+=("a board printed")
    expect_line '  Solutions found: 0'
    grep -q 'stopped by' "$out" && problems+=("not reported as a complete search")
    verdict "nqueens $n --first"
done
run 40 --first --json
expect_ok
expect_field solutions 1
for field in '"consistency":"value"' '"var":"smallest"' '"val":"random"' '"restart_policy":"luby"' \
    '"complete":false' '"outcome":"solution_limit"'; do
    grep -qF "$field" "$out" || problems+=("no $field")
done
verdict "nqueens 40 --first --json"
# Restarting a deterministic search would take the same path again.
run 40 --first --json --val middle
grep -qF '"restart_policy":"none"' "$out" || problems+=("restarts although --val middle is deterministic")
verdict "nqueens 40 --first --json --val middle"
run 40 --first --json --var dom-wdeg --val middle --restarts geometric
grep -qF '"restart_policy":"geometric"' "$out" || problems+=("--restarts geometric not honoured")
verdict "nqueens 40 --first --json --var dom-wdeg --val middle --restarts geometric"

# An option that the others leave nothing to do is refused, saying why.
expect_refused() { # the start of the problem's line, then the arguments
    local said=$1
    shift
    run "$@"
    [[ $status -eq 2 ]] || problems+=("exit status $status, expected 2")
    head -n 1 "$err" | grep -qF -- "nqueens: $said" || problems+=("stderr does not say 'nqueens: $said'")
    verdict "nqueens $* refused"
}
expect_refused '--seed does nothing without --val random' 8 --seed 5
expect_refused '--seed does nothing without --val random' 8 --first --val max --seed 5
expect_refused '--restarts does nothing without --val random or --var dom-wdeg' 8 --first --val middle --restarts luby
expect_refused '--quiet does nothing without --count' 8 --quiet
run 12 --first --seed 3 --json
expect_ok
expect_field seed 3
verdict "nqueens 12 --first --seed 3 (--first's search draws on the seed)"

# (g) --limit K prints K boards, or all of them when there are fewer.
for k in 1 7 92 100; do
    run 8 --limit "$k"
    expect_ok
    expected=$((k < 92 ? k : 92))
    mapfile -t found < <(boards)
    ((${#found[@]} == expected)) || problems+=("${#found[@]} boards, expected $expected")
    expect_line "  Solutions found: $expected"
    if ((k <= 92)); then expect_line '  stopped by: solution_limit'; else expect_no_line '  stopped by: solution_limit'; fi
    verdict "nqueens 8 --limit $k"
done

# (h) --symmetry prints the same 92 boards as the plain search, --unique
# the 12 that are smallest in their class; both are valid.
run 8
boards | sort >"$work/plain"
run 8 --symmetry
expect_ok
boards | sort >"$work/symmetry"
cmp -s "$work/plain" "$work/symmetry" || problems+=("the boards differ from those of 'nqueens 8'")
[[ $(sort -u "$work/symmetry" | wc -l) -eq 92 ]] || problems+=("not 92 distinct boards")
[[ -z $(attacked <"$work/symmetry") ]] || problems+=("two queens attack each other")
verdict "nqueens 8 --symmetry"
for args in '--unique' '--unique --symmetry'; do
    read -ra argv <<<"$args"
    run 8 "${argv[@]}"
    expect_ok
    boards | sort >"$work/unique"
    [[ $(sort -u "$work/unique" | wc -l) -eq 12 ]] || problems+=("not 12 distinct boards")
    [[ -z $(comm -23 "$work/unique" "$work/plain") ]] || problems+=("a board that 'nqueens 8' does not print")
    verdict "nqueens 8 $args"
done
run 8 --symmetry --limit 5
mapfile -t found < <(boards)
((${#found[@]} == 5)) || problems+=("${#found[@]} boards, expected 5")
verdict "nqueens 8 --symmetry --limit 5"

# (i) Counts against OEIS.
for ((n = 1; n <= 12; ++n)); do
    for args in '--symmetry' '--unique' '--unique --symmetry'; do
        read -ra argv <<<"$args"
        run "$n" --count --json "${argv[@]}"
        expect_ok
        if [[ $args == --symmetry ]]; then expected=${a000170[n - 1]}; else expected=${a002562[n - 1]}; fi
        expect_field solutions "$expected"
        grep -qF '"outcome":"complete"' "$out" || problems+=("the search did not complete")
        verdict "nqueens $n --count --json $args"
    done
done

# (j) --time-limit stops a search that would run for hours, and says so.
run 30 --count --time-limit 0.2
expect_ok
expect_line '  stopped by: time_limit'
verdict "nqueens 30 --count --time-limit 0.2"
run 30 --count --json --time-limit 0.2
expect_ok
grep -qF '"complete":false,"outcome":"time_limit"' "$out" || problems+=("the JSON does not say time_limit")
verdict "nqueens 30 --count --json --time-limit 0.2"

# (k) The progress line: only on a terminal, and not with --quiet. script(1)
# gives the program a terminal; the search runs for 3 s, six progress
# periods.
if command -v script >/dev/null 2>&1; then
    script -qec "$nqueens 16 --count --time-limit 3" /dev/null </dev/null >"$out" 2>"$err"
    grep -q '% done, [0-9]* solutions, .* branches/s, about .* left' "$out" ||
        problems+=("no progress line on a terminal")
    grep -q 'stopped by: time_limit' "$out" || problems+=("no statistics after the progress line")
    verdict "nqueens 16 --count --time-limit 3 (on a terminal)"
    script -qec "$nqueens 16 --count --time-limit 3 --quiet" /dev/null </dev/null >"$out" 2>"$err"
    ! grep -q '% done' "$out" || problems+=("a progress line despite --quiet")
    verdict "nqueens 16 --count --time-limit 3 --quiet (on a terminal)"
fi
run 16 --count --time-limit 3
expect_ok
verdict "nqueens 16 --count --time-limit 3 (not on a terminal)"

# (l) Output that cannot be written: status 2 and one line on stderr, for
# boards, counts, JSON and --help alike; a full device, a closed standard
# output, and a file size limit reached halfway through 724 boards.
for args in '8' '8 --count' '8 --count --json' '--help' '10 --limit 3'; do
    read -ra argv <<<"$args"
    run_to /dev/full "${argv[@]}"
    expect_write_error nqueens
    verdict "nqueens $args >/dev/full"
    run_to closed "${argv[@]}"
    expect_write_error nqueens
    verdict "nqueens $args >&-"
done
run_file_limited 10 10
expect_write_error nqueens
(($(wc -c <"$out") <= 10240)) || problems+=("more than 10 KiB written despite the limit")
verdict "nqueens 10 with files limited to 10 KiB"
for args in '8' '8 --count --json'; do
    read -ra argv <<<"$args"
    run_file_limited 0 "${argv[@]}"
    expect_write_error nqueens
    verdict "nqueens $args with files limited to 0 KiB"
done
# --output FILE: the same output in the file, every write to it checked.
run 8
grep -v '^  wall time:' "$out" >"$work/one"
run 8 --output "$work/boards"
[[ $status -eq 0 ]] || problems+=("exit status $status, expected 0")
[[ ! -s $out && ! -s $err ]] || problems+=("output on stdout or stderr")
grep -v '^  wall time:' "$work/boards" | cmp -s "$work/one" - || problems+=("the file differs from the output of nqueens 8")
verdict "nqueens 8 --output FILE"
for args in '8' '8 --count --json'; do
    read -ra argv <<<"$args"
    run_to "$out" "${argv[@]}" --output /dev/full
    [[ $status -eq 2 ]] || problems+=("exit status $status, expected 2")
    [[ $(wc -l <"$err") -eq 1 ]] || problems+=("$(wc -l <"$err") lines on stderr, expected 1")
    grep -q '^nqueens: error writing to /dev/full: .' "$err" ||
        problems+=("stderr does not say 'nqueens: error writing to /dev/full: <reason>'")
    verdict "nqueens $args --output /dev/full"
done
run 8 --output "$work/no/such/dir"
[[ $status -eq 2 ]] || problems+=("exit status $status, expected 2")
[[ $(wc -l <"$err") -eq 1 ]] || problems+=("$(wc -l <"$err") lines on stderr, expected 1")
grep -qF "nqueens: cannot write $work/no/such/dir: " "$err" || problems+=("stderr does not say 'cannot write'")
verdict "nqueens 8 --output into a missing directory"

# When standard error cannot take the message either, the status still
# says that something went wrong.
timeout 60 "$nqueens" 8 </dev/null >/dev/full 2>/dev/full
status=$?
[[ $status -eq 2 ]] || problems+=("exit status $status, expected 2")
verdict "nqueens 8 >/dev/full 2>/dev/full"
timeout 60 "$nqueens" abc </dev/null >"$out" 2>/dev/full
status=$?
[[ $status -eq 2 ]] || problems+=("exit status $status, expected 2")
[[ ! -s $out ]] || problems+=("stdout is not empty")
verdict "nqueens abc 2>/dev/full"

# (m) --threads: the same boards in the same order, and the same
# solutions, failures and branches, on any number of threads; each
# statistics line but the time, the thread count and the subproblems alike.
same_search() { # what differs may only be these lines or fields
    sed -E 's/"(wall_ms|propagations|threads|subproblems|split_ms)":[0-9.]*,?//g; /^  (wall time|threads|subproblems):/d' "$1"
}
for args in "9" "8 --consistency domain --var smallest --val split" "7 --symmetry --val max" "8 --unique"; do
    # shellcheck disable=SC2086 # the arguments are words
    run $args
    same_search "$out" >"$work/one"
    for threads in 2 3; do
        # shellcheck disable=SC2086
        run $args --threads "$threads"
        expect_ok
        same_search "$out" >"$work/many"
        cmp -s "$work/one" "$work/many" || problems+=("the output differs from --threads 1")
        expect_line "  threads: $threads"
        verdict "nqueens $args --threads $threads"
    done
done
for consistency in value bounds domain; do
    run 11 --count --json --consistency "$consistency"
    same_search "$out" >"$work/one"
    run 11 --count --json --consistency "$consistency" --threads 4
    expect_ok
    same_search "$out" >"$work/many"
    cmp -s "$work/one" "$work/many" || problems+=("the JSON differs from --threads 1 beyond time and propagations")
    expect_field threads 4
    verdict "nqueens 11 --count --json --consistency $consistency --threads 4"
done
run 10 --limit 5 --threads 2
head -n 60 "$out" >"$work/many"
run 10 --limit 5
head -n 60 "$out" >"$work/one"
cmp -s "$work/one" "$work/many" || problems+=("the first five boards differ from --threads 1")
expect_line '  Solutions found: 5'
verdict "nqueens 10 --limit 5 --threads 2"
run 12 --first --var first --val min --threads 2 --json
expect_ok
expect_field solutions 1
expect_field threads 2
verdict "nqueens 12 --first --var first --val min --threads 2"
# --first's own search (random, restarts) depends on its history: one
# thread, so that the board is --threads 1's, and a line on stderr says so.
run 30 --first --threads 2 --json
[[ $status -eq 0 ]] || problems+=("exit status $status, expected 0")
expect_field solutions 1
expect_field threads 1
[[ $(wc -l <"$err") -eq 1 ]] || problems+=("$(wc -l <"$err") lines on stderr, expected 1")
grep -qF "nqueens: searching on one thread, not 2: with --val random and restarts (--first's search)" "$err" ||
    problems+=("stderr does not say why it searches on one thread")
verdict "nqueens 30 --first --threads 2"
for strategy in '--var dom-wdeg' '--val random' '--val random --restarts luby'; do
    read -ra argv <<<"$strategy"
    run 8 --count --json "${argv[@]}" --threads 2
    [[ $status -eq 0 ]] || problems+=("exit status $status, expected 0")
    expect_field solutions 92
    expect_field threads 1
    grep -qF "nqueens: searching on one thread, not 2: with $(sed 's/ --restarts luby/ and restarts/' <<<"$strategy") its choices" "$err" ||
        problems+=("stderr does not say why it searches on one thread")
    verdict "nqueens 8 --count $strategy --threads 2"
    run 8 --count --json "${argv[@]}" --threads 1
    expect_ok
    verdict "nqueens 8 --count $strategy --threads 1 (nothing to say)"
done
run 6 --count --json --threads 0
expect_ok
expect_field solutions 4
verdict "nqueens 6 --count --threads 0"
for bad in -1 x 4097 ''; do
    run 8 --threads "$bad"
    [[ $status -eq 2 ]] || problems+=("exit status $status, expected 2")
    [[ ! -s $out ]] || problems+=("stdout is not empty")
    grep -qF -- "--threads" "$err" || problems+=("stderr does not name --threads")
    verdict "nqueens 8 --threads '$bad'"
done

# (m2) Out of memory: one line and exit 2, not std::terminate's abort
# (status 134); the issue's case first, then every limit from the program's
# start up, and threads that cannot start.
floor=$(memory_floor)
if [[ -n $floor ]]; then
    run_memory_limited 400000 20000 --first
    expect_out_of_memory nqueens
    grep -qF 'nqueens: out of memory: this run needs more than the 390 MiB it may use (ulimit -v)' "$err" ||
        problems+=("stderr does not name the limit")
    verdict "nqueens 20000 --first under ulimit -v 400000"
fi
memory_sweep nqueens 20000 --first
memory_sweep nqueens 1000 --count --threads 2 --time-limit 0.2

# (n) Arguments are echoed in error messages with their control bytes
# escaped: the message stays two lines (the problem, then usage) and
# cannot act on the terminal. UTF-8 text is shown as it is.
check_escaped() { # shown, then the arguments
    local shown=$1
    shift
    run "$@"
    [[ $status -eq 2 ]] || problems+=("exit status $status, expected 2")
    lines=$(wc -l <"$err")
    [[ $lines -eq 2 ]] || problems+=("$lines lines on stderr, expected 2 (the problem, then usage)")
    expect_escaped "$shown"
    verdict "nqueens $(printf '%q ' "$@")"
}
check_escaped "'8\\x1b[2J'" $'8\e[2J'
check_escaped "'--bo\\ngus\\r\\t'" $'--bo\ngus\r\t'
check_escaped "'\\x1b]0;title\\x07'" --var $'\e]0;title\a'
check_escaped "'1\\x7f\\xff\\xc2\\x9b2'" --seed $'1\x7f\xff\xc2\x9b2'
check_escaped "'a\\\\x1b'" --val 'a\x1b'
check_escaped "'été'" --val 'été'

echo "$passed passed, $failed failed"
((failed == 0))
