#!/usr/bin/env bash
# Checks the command-line behaviour of the sudoku example on the puzzles of
# tests/data/sudoku_*.txt and on input made up here.
# Usage: sudoku_cli_test.sh path/to/sudoku
set -uo pipefail

source "$(dirname "$0")/cli_common.sh"
cli_setup sudoku_cli_test "$@"
sudoku=$exe
data=$(cd "$(dirname "$0")/data" && pwd)
unique=$data/sudoku_unique.txt
several=$data/sudoku_several.txt
none=$data/sudoku_none.txt
slow_none=$data/sudoku_slow_none.txt
for f in "$unique" "$several" "$none" "$slow_none"; do
    [[ -r $f ]] || { echo "sudoku_cli_test: cannot read $f" >&2; exit 2; }
done

# A failed check shows a whole grid and its statistics.
stdout_lines=30

# run [--stdin FILE] ARGS...: runs sudoku with a time limit, its standard
# input FILE (or nothing); sets $status (124 when the limit was hit).
run() {
    local input=/dev/null
    if [[ ${1-} == --stdin ]]; then
        input=$2
        shift 2
    fi
    timeout 60 "$sudoku" "$@" <"$input" >"$out" 2>"$err"
    status=$?
}

expect_status() { [[ $status -eq $1 ]] || problems+=("exit status $status, expected $1"); }
expect_quiet_stderr() { [[ ! -s $err ]] || problems+=("stderr is not empty"); }
expect_line() { grep -qxF -- "$1" "$out" || problems+=("no line '$1' on stdout"); }

# "line solution" for each puzzle of a data file: its line number and the
# 81 digits of the '# solution' comment above it.
solutions_of() {
    # mawk, Debian's awk, knows no {81}: the length is checked apart.
    awk '/^# solution / { s = $3; next } /^[0-9.]+$/ && length($0) == 81 { print NR, s; s = "" }' "$1"
}

# The grid the text output prints for 81 digits.
grid_of() {
    local d=$1 r
    for ((r = 0; r < 9; ++r)); do
        ((r == 3 || r == 6)) && echo "------+-------+------"
        local row=${d:9*r:9}
        echo "${row:0:1} ${row:1:1} ${row:2:1} | ${row:3:1} ${row:4:1} ${row:5:1} | ${row:6:1} ${row:7:1} ${row:8:1}"
    done
}

# The value of "key" in a one-line JSON object (numbers, null or a string's
# contents).
json_field() { # line key
    sed -nE "s/.*\"$2\":\"?([^\",}]*)\"?[,}].*/\1/p" <<<"$1"
}

have_python=false
command -v python3 >/dev/null 2>&1 && have_python=true

# (a) Bad arguments, a missing file, a directory: status 2, the problem and
# a usage line on stderr, nothing on stdout.
check_bad() {
    run "$@"
    expect_status 2
    grep -q '^sudoku: ' "$err" || problems+=("no line starting 'sudoku: ' on stderr")
    grep -qi 'usage' "$err" || problems+=("no line containing 'usage' on stderr")
    [[ ! -s $out ]] || problems+=("stdout is not empty")
    verdict "sudoku $*"
}
check_bad --bogus
check_bad -x "$unique"
check_bad --consistency
check_bad --consistency nope
check_bad --consistency=Domain "$unique"
check_bad "$unique" "$several"
check_bad "$work/no-such-file.txt"
check_bad "$data"

# (b) --help: status 0, usage on stdout, nothing on stderr.
run --help
expect_status 0
grep -qi 'usage' "$out" || problems+=("no line containing 'usage' on stdout")
for word in --count --limit --time-limit --consistency --json domain solution_limit time_limit; do
    grep -qF -- "$word" "$out" || problems+=("the help does not mention $word")
done
expect_quiet_stderr
verdict "sudoku --help"

# (c) The proper puzzles at each strength (and by default): each solution
# printed as its grid, said to be unique.
mapfile -t expected < <(solutions_of "$unique")
((${#expected[@]} == 5)) || problems+=("${#expected[@]} puzzles with solutions in $unique, expected 5")
verdict "the data file $unique"
for strength in '' value bounds domain; do
    args=("$unique")
    [[ -n $strength ]] && args+=(--consistency "$strength")
    run "${args[@]}"
    expect_status 0
    expect_quiet_stderr
    for entry in "${expected[@]}"; do
        read -r line solution <<<"$entry"
        # The grid is the 9 lines (11 with separators) after "Puzzle <line>".
        awk -v want="Puzzle $line" '$0 == want { on = 12; next } on && --on > 0' "$out" >"$work/grid"
        grid_of "$solution" >"$work/want"
        cmp -s "$work/grid" "$work/want" ||
            problems+=("puzzle of line $line: expected the grid
$(cat "$work/want")
after 'Puzzle $line', got
$(cat "$work/grid")")
    done
    count=$(grep -c '^Puzzle ' "$out")
    [[ $count -eq 5 ]] || problems+=("$count 'Puzzle' lines, expected 5")
    count=$(grep -cxF '  Solutions found: 1 (unique)' "$out")
    [[ $count -eq 5 ]] || problems+=("$count lines '  Solutions found: 1 (unique)', expected 5")
    for stat in failures branches; do
        count=$(grep -cxE "  $stat: [0-9]+" "$out")
        [[ $count -eq 5 ]] || problems+=("$count lines '  $stat: <int>', expected 5")
    done
    count=$(grep -cxE '  wall time: [0-9]+(\.[0-9]+)? ms' "$out")
    [[ $count -eq 5 ]] || problems+=("$count lines '  wall time: <number> ms', expected 5")
    verdict "sudoku ${args[*]}"
done

# (d) --json at each strength: one object per puzzle, with exactly the keys
# line, solutions, solution, failures, branches, wall_ms, complete, outcome.
for strength in value bounds domain; do
    run "$unique" --json --consistency "$strength"
    expect_status 0
    expect_quiet_stderr
    lines=$(wc -l <"$out")
    [[ $lines -eq 5 ]] || problems+=("$lines lines on stdout, expected 5")
    k=0
    while IFS= read -r object; do
        read -r line solution <<<"${expected[k]-}"
        k=$((k + 1))
        [[ $(json_field "$object" line) == "$line" ]] || problems+=("object $k: line is not $line: $object")
        [[ $(json_field "$object" solutions) == 1 ]] || problems+=("object $k: solutions is not 1: $object")
        [[ $(json_field "$object" solution) == "$solution" ]] ||
            problems+=("object $k: solution is not $solution: $object")
        [[ $object =~ \"failures\":[0-9]+[,}] ]] || problems+=("object $k: no integer failures: $object")
        [[ $object =~ \"branches\":[0-9]+[,}] ]] || problems+=("object $k: no integer branches: $object")
        [[ $object =~ \"wall_ms\":[0-9]+(\.[0-9]+)?[,}] ]] || problems+=("object $k: no number wall_ms: $object")
        [[ $object == *'"complete":true,"outcome":"complete"}' ]] ||
            problems+=("object $k: not a complete search: $object")
    done <"$out"
    if $have_python; then
        python3 -c '
import json, sys
for n, text in enumerate(sys.stdin, 1):
    keys = sorted(json.loads(text))
    if keys != sorted(["line", "solutions", "solution", "failures", "branches", "wall_ms", "complete", "outcome"]):
        sys.exit("object %d has the keys %s" % (n, keys))
' <"$out" 2>"$work/python" || problems+=("stdout is not one JSON object per line with the eight keys: $(cat "$work/python")")
    fi
    verdict "sudoku $unique --json --consistency $strength"
done

# (e) The same statistics on every run, and from a file, '-' and standard
# input alike (wall_ms aside).
for strength in value bounds domain; do
    run "$unique" --json --consistency "$strength"
    sed -E 's/"wall_ms":[0-9.]+/"wall_ms":_/' "$out" >"$work/first"
    run "$unique" --json --consistency "$strength"
    sed -E 's/"wall_ms":[0-9.]+/"wall_ms":_/' "$out" >"$work/again"
    cmp -s "$work/first" "$work/again" || problems+=("a second run of the file differs")
    run --stdin "$unique" --json --consistency "$strength"
    sed -E 's/"wall_ms":[0-9.]+/"wall_ms":_/' "$out" >"$work/again"
    cmp -s "$work/first" "$work/again" || problems+=("reading standard input differs from reading the file")
    run --stdin "$unique" - --json --consistency "$strength"
    sed -E 's/"wall_ms":[0-9.]+/"wall_ms":_/' "$out" >"$work/again"
    cmp -s "$work/first" "$work/again" || problems+=("reading '-' differs from reading the file")
    verdict "deterministic --json --consistency $strength"
done

# (f) Puzzles with several solutions: --count counts them all; by default
# the search stops at the second and says the solution is not unique.
mapfile -t counts < <(awk '/^# solutions / { c = $3; next } /^[0-9.]+$/ && length($0) == 81 { print NR, c }' "$several")
((${#counts[@]} == 2)) || problems+=("${#counts[@]} puzzles with counts in $several, expected 2")
verdict "the data file $several"
for strength in value bounds domain; do
    run "$several" --count --json --consistency "$strength"
    expect_status 0
    expect_quiet_stderr
    k=0
    while IFS= read -r object; do
        read -r line count <<<"${counts[k]-}"
        k=$((k + 1))
        [[ $(json_field "$object" line) == "$line" ]] || problems+=("object $k: line is not $line: $object")
        [[ $(json_field "$object" solutions) == "$count" ]] ||
            problems+=("object $k: solutions is not $count: $object")
        [[ $(json_field "$object" solution) =~ ^[1-9]{81}$ ]] || problems+=("object $k: no solution: $object")
    done <"$out"
    ((k == 2)) || problems+=("$k objects, expected 2")
    verdict "sudoku $several --count --json --consistency $strength"

    run "$several" --consistency "$strength"
    expect_status 0
    expect_quiet_stderr
    count=$(grep -cxF '  Solutions found: 2 (not unique; the search stopped at the second)' "$out")
    [[ $count -eq 2 ]] || problems+=("$count lines saying 2 solutions and not unique, expected 2")
    count=$(grep -cxF '  stopped by: solution_limit' "$out")
    [[ $count -eq 2 ]] || problems+=("$count lines '  stopped by: solution_limit', expected 2")
    verdict "sudoku $several --consistency $strength"
done
run "$several" --count
expect_status 0
for entry in "${counts[@]}"; do
    read -r line count <<<"$entry"
    expect_line "Puzzle $line"
    expect_line "  Solutions found: $count"
done
verdict "sudoku $several --count"

# (g) Puzzles with no solution are puzzles: status 0, 'No solution'.
for strength in value bounds domain; do
    run "$none" --consistency "$strength"
    expect_status 0
    expect_quiet_stderr
    count=$(grep -cxF 'No solution' "$out")
    [[ $count -eq 2 ]] || problems+=("$count lines 'No solution', expected 2")
    count=$(grep -cxF '  Solutions found: 0' "$out")
    [[ $count -eq 2 ]] || problems+=("$count lines '  Solutions found: 0', expected 2")
    verdict "sudoku $none --consistency $strength"

    run "$none" --json --consistency "$strength"
    expect_status 0
    count=$(grep -cE '"solutions":0,"solution":null,' "$out")
    [[ $count -eq 2 ]] || problems+=("$count objects with solutions 0 and solution null, expected 2")
    verdict "sudoku $none --json --consistency $strength"
done

# (h) Lines that are not puzzles, among comments, blank lines, \r\n line
# ends and good puzzles: each bad line reported on stderr with its number,
# the good puzzles all solved, status 1.
wiki=$(sed -n '/^53\.\.7/p' "$unique")
escargot=$(sed -n '/^1\.\.\.\.7/p' "$unique")
clash_row=11${wiki:2}
clash_box=${wiki:0:10}8${wiki:11}
{
    printf '# a comment\n'                         # 1
    printf '%s\r\n' "$wiki"                        # 2
    printf '\n'                                    # 3
    printf '%s\n' "${wiki:1}"                      # 4: 80 characters
    printf '%sx\n' "${wiki:0:80}"                  # 5
    printf '%s\n' "$clash_row"                     # 6
    printf '   \t\r\n'                             # 7: blank
    printf '%s\n' "$clash_box"                     # 8
    printf '%s \n' "$wiki"                         # 9: trailing space
    printf '#%s\n' "$wiki"                         # 10: a comment
    printf '%s' "$escargot"                        # 11: no final newline
} >"$work/mixed.txt"
want_err=$work/want_err
cat >"$want_err" <<'EOF'
line 4: expected 81 characters, got 80
line 5: character 81 is 'x', expected 1-9, '.' or '0'
line 6: givens clash: 1 appears twice in row 1 (r1c1 and r1c2)
line 8: givens clash: 8 appears twice in box 1 (r2c2 and r3c3)
line 9: expected 81 characters, got 82
EOF
for mode in text json; do
    args=("$work/mixed.txt")
    [[ $mode == json ]] && args+=(--json)
    run "${args[@]}"
    expect_status 1
    cmp -s "$err" "$want_err" || problems+=("stderr differs from
$(cat "$want_err")")
    if [[ $mode == json ]]; then
        got=$(sed -nE 's/^\{"line":([0-9]+),.*/\1/p' "$out" | tr '\n' ' ')
        [[ $got == '2 11 ' ]] || problems+=("objects for lines '$got', expected '2 11 '")
        grep -qF '"solution":"534678912' "$out" || problems+=("line 2 not solved")
        grep -qF '"solution":"162857493' "$out" || problems+=("line 11 not solved")
    else
        got=$(sed -n 's/^Puzzle //p' "$out" | tr '\n' ' ')
        [[ $got == '2 11 ' ]] || problems+=("puzzles of lines '$got', expected '2 11 '")
        count=$(grep -cxF '  Solutions found: 1 (unique)' "$out")
        [[ $count -eq 2 ]] || problems+=("$count unique solutions, expected 2")
    fi
    verdict "sudoku on bad lines ($mode)"
done

# (i) No puzzles at all is not an error.
run --stdin /dev/null
expect_status 0
expect_quiet_stderr
[[ ! -s $out ]] || problems+=("stdout is not empty")
verdict "sudoku on empty input"

# (j) --limit K stops each puzzle's search after K solutions, and says so
# when the puzzle has more; a puzzle with fewer is searched to its end.
# The puzzles of $several have 10 and 329 solutions.
check_limit() { # limit, then the expected "solutions outcome" of each puzzle, then -- and more arguments
    local k=$1 want=() object got
    shift
    while [[ $1 != -- ]]; do want+=("$1"); shift; done
    shift
    run "$several" --json --limit "$k" "$@"
    expect_status 0
    expect_quiet_stderr
    got=()
    while IFS= read -r object; do
        got+=("$(json_field "$object" solutions) $(json_field "$object" outcome) $(json_field "$object" complete)")
    done <"$out"
    [[ ${got[*]} == "${want[*]}" ]] || problems+=("solutions, outcome and complete: '${got[*]}', expected '${want[*]}'")
    verdict "sudoku $several --json --limit $k $*"
}
check_limit 1 '1 solution_limit false' '1 solution_limit false' --
check_limit 3 '3 solution_limit false' '3 solution_limit false' --
check_limit 3 '3 solution_limit false' '3 solution_limit false' -- --count
check_limit 10 '10 solution_limit false' '10 solution_limit false' -- --consistency value
check_limit 11 '10 complete true' '11 solution_limit false' -- --consistency bounds
check_limit 1000 '10 complete true' '329 complete true' -- --count
run "$several" --limit=3
expect_status 0
count=$(grep -cxF '  Solutions found: 3 (not unique)' "$out")
[[ $count -eq 2 ]] || problems+=("$count lines '  Solutions found: 3 (not unique)', expected 2")
count=$(grep -cxF '  stopped by: solution_limit' "$out")
[[ $count -eq 2 ]] || problems+=("$count lines '  stopped by: solution_limit', expected 2")
verdict "sudoku $several --limit=3"
# One solution found under --limit 1 does not show it is the only one.
run "$unique" --limit 1
expect_status 0
count=$(grep -cxF '  Solutions found: 1' "$out")
[[ $count -eq 5 ]] || problems+=("$count lines '  Solutions found: 1', expected 5")
count=$(grep -cxF '  stopped by: solution_limit' "$out")
[[ $count -eq 5 ]] || problems+=("$count lines '  stopped by: solution_limit', expected 5")
! grep -qF '(unique)' "$out" || problems+=("a solution called unique although the search stopped at it")
verdict "sudoku $unique --limit 1"

# (k) --time-limit stops the search of a puzzle without solution that takes
# seconds to refute at the value and bounds strengths: no solution found,
# and the output says the search stopped, instead of 'No solution'. The
# domain strength refutes it at once, and says so.
for strength in value bounds; do
    run "$slow_none" --consistency "$strength" --time-limit 0.2
    expect_status 0
    expect_quiet_stderr
    expect_line 'No solution found'
    expect_line '  Solutions found: 0'
    expect_line '  stopped by: time_limit'
    ! grep -qxF 'No solution' "$out" || problems+=("'No solution' although the search stopped")
    verdict "sudoku $slow_none --consistency $strength --time-limit 0.2"
    run "$slow_none" --json --consistency "$strength" --time-limit=0.2
    expect_status 0
    grep -qE '"solutions":0,"solution":null,.*"complete":false,"outcome":"time_limit"\}$' "$out" ||
        problems+=("the JSON does not say 0 solutions, stopped by time_limit")
    verdict "sudoku $slow_none --json --consistency $strength --time-limit=0.2"
done
run "$slow_none" --json --consistency domain --time-limit 0.2
expect_status 0
grep -qE '"solutions":0,"solution":null,.*"complete":true,"outcome":"complete"\}$' "$out" ||
    problems+=("the JSON does not say 0 solutions, complete")
verdict "sudoku $slow_none --json --consistency domain --time-limit 0.2"
# A time limit that leaves the search enough time changes nothing.
run "$unique" --json --time-limit 60
sed -E 's/"wall_ms":[0-9.]+/"wall_ms":_/' "$out" >"$work/timed"
run "$unique" --json
sed -E 's/"wall_ms":[0-9.]+/"wall_ms":_/' "$out" | cmp -s - "$work/timed" ||
    problems+=("--time-limit 60 changed the output")
verdict "sudoku $unique --json --time-limit 60"

# (l) Bad values for --limit and --time-limit, spelled and read as nqueens
# reads them: status 2, one line naming the problem and a usage line on
# stderr, nothing on stdout.
for args in '--limit 0' '--limit -1' '--limit 1.5' '--limit many' '--limit' '--limit=' \
    '--limit 99999999999999999999' '--time-limit 0' '--time-limit -2' '--time-limit soon' \
    '--time-limit=nan' '--time-limit inf' '--time-limit'; do
    read -ra argv <<<"$args"
    run "$unique" "${argv[@]}"
    expect_status 2
    lines=$(wc -l <"$err")
    [[ $lines -eq 2 ]] || problems+=("$lines lines on stderr, expected 2 (the problem, then usage)")
    head -n 1 "$err" |
        grep -qE "^sudoku: (bad --(time-)?limit '.*' \(expected .*\)|--(time-)?limit needs a value: .*)\$" ||
        problems+=("the first stderr line is not 'sudoku: bad <flag> '<value>' (expected ...)' or '<flag> needs a value'")
    sed -n 2p "$err" | grep -q '^usage: ' || problems+=("the second stderr line does not start with 'usage: '")
    [[ ! -s $out ]] || problems+=("stdout is not empty")
    verdict "sudoku $unique $args"
done

# (m) Output that cannot be written: status 2 and one line on stderr, for
# grids, JSON, counts and --help alike; a full device, a closed standard
# output, and a file size limit reached halfway through 2,000 puzzles.
for args in "$unique" "$unique --json" "$several --count" '--help'; do
    read -ra argv <<<"$args"
    run_to /dev/full "${argv[@]}"
    expect_write_error sudoku
    verdict "sudoku $args >/dev/full"
    run_to closed "${argv[@]}"
    expect_write_error sudoku
    verdict "sudoku $args >&-"
done
for ((k = 0; k < 2000; ++k)); do echo "$wiki"; done >"$work/many.txt"
for mode in text json; do
    args=("$work/many.txt")
    [[ $mode == json ]] && args+=(--json)
    run_file_limited 10 "${args[@]}"
    expect_write_error sudoku
    (($(wc -c <"$out") <= 10240)) || problems+=("more than 10 KiB written despite the limit")
    verdict "sudoku on 2,000 puzzles ($mode) with files limited to 10 KiB"
done
# With nothing to write, a closed standard output loses nothing.
run_to closed -
expect_status 0
expect_quiet_stderr
verdict "sudoku on empty input >&-"
# A bad line whose message cannot be written: status 2, not 1.
timeout 60 "$sudoku" "$work/mixed.txt" </dev/null >"$out" 2>/dev/full
status=$?
expect_status 2
verdict "sudoku on bad lines 2>/dev/full"
timeout 60 "$sudoku" "$unique" </dev/null >/dev/full 2>/dev/full
status=$?
expect_status 2
verdict "sudoku $unique >/dev/full 2>/dev/full"

# (n) Arguments are echoed in error messages with their control bytes
# escaped: the message stays on its lines and cannot act on the terminal.
check_escaped() { # shown, then the arguments
    local shown=$1
    shift
    run "$@"
    expect_status 2
    lines=$(wc -l <"$err")
    [[ $lines -eq 2 ]] || problems+=("$lines lines on stderr, expected 2 (the problem, then usage)")
    expect_escaped "$shown"
    verdict "sudoku $(printf '%q ' "$@")"
}
check_escaped "'--x\\x1b[2J'" $'--x\e[2J'
check_escaped "'\\x1b[31m'" --limit $'\e[31m'
check_escaped "'1\\n2'" --time-limit $'1\n2'
check_escaped "cannot read $work/no\\x1b]0;title\\x07file" "$work/no"$'\e]0;title\afile'
check_escaped "'$unique' and 'b\\rc'" "$unique" $'b\rc'

# Out of memory: one line and exit 2, not end of file (a line longer than
# memory allows once ended the input in silence, with exit status 0), from
# the program's start up to 256 MiB above it.
head -c 50000000 /dev/zero | tr '\0' 1 >"$work/long_line"
memory_sweep sudoku "$work/long_line"

echo "$passed passed, $failed failed"
((failed == 0))
