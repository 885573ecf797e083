#!/usr/bin/env bash
# Checks the command-line behaviour of the nqueens example.
# Usage: cli_test.sh path/to/nqueens
set -uo pipefail

if [[ $# -ne 1 ]]; then
    echo "usage: $0 path/to/nqueens" >&2
    exit 2
fi
nqueens=$1
if [[ ! -x $nqueens ]]; then
    echo "cli_test: $nqueens is not an executable" >&2
    exit 2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=$work/stdout
err=$work/stderr

passed=0
failed=0
pass() { passed=$((passed + 1)); }
fail() {
    failed=$((failed + 1))
    echo "FAIL: $*"
}

# Runs nqueens with the given arguments, no stdin and a time limit of
# $limit seconds; sets $status (124 when the limit was hit).
limit=60
run() {
    timeout "$limit" "$nqueens" "$@" </dev/null >"$out" 2>"$err"
    status=$?
}

joined() { # the elements of problems, separated by "; "
    local s
    s=$(printf '%s; ' "${problems[@]}")
    echo "${s%; }"
}

show_output() {
    echo "  --- stdout (first 20 lines) ---"
    head -n 20 "$out" | sed 's/^/  | /'
    echo "  --- stderr (first 20 lines) ---"
    head -n 20 "$err" | sed 's/^/  | /'
}

# (a) Bad arguments: status 2, usage on stderr, nothing on stdout. They must
# be rejected at once; a size that is tried instead would run out of memory.
limit=10
bad_arguments=(
    'abc'
    '-3'
    '0'
    '--bogus'
    '8 9'
    '--consistency nope'
    '99999999999999999999'
    '2000000000'
)
for args in "${bad_arguments[@]}"; do
    read -ra argv <<<"$args"
    run "${argv[@]}"
    problems=()
    [[ $status -eq 2 ]] || problems+=("exit status $status, expected 2")
    grep -qi 'usage' "$err" || problems+=("no line containing 'usage' on stderr")
    [[ ! -s $out ]] || problems+=("stdout is not empty")
    if ((${#problems[@]} == 0)); then
        pass
    else
        fail "nqueens $args: $(joined)"
        show_output
    fi
done

limit=60

# (b) --help: status 0, usage on stdout, nothing on stderr.
run --help
problems=()
[[ $status -eq 0 ]] || problems+=("exit status $status, expected 0")
grep -qi 'usage' "$out" || problems+=("no line containing 'usage' on stdout")
[[ ! -s $err ]] || problems+=("stderr is not empty")
if ((${#problems[@]} == 0)); then
    pass
else
    fail "nqueens --help: $(joined)"
    show_output
fi

# (c) Counting with JSON output: one line holding the statistics of each
# strength (bounds: the guide's figures; domain: Gecode IPL_DOM's tree).
check_json() { # expected fields..., then -- and the arguments
    local fields=()
    while [[ $1 != -- ]]; do fields+=("$1"); shift; done
    shift
    run "$@"
    problems=()
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
    if ((${#problems[@]} == 0)); then
        pass
    else
        fail "nqueens $*: $(joined)"
        show_output
    fi
}
check_json '"solutions":92' '"failures":304' '"branches":790' '"consistency":"bounds"' -- 8 --count --json
check_json '"solutions":92' '"failures":324' '"branches":830' '"consistency":"value"' -- 8 --count --json --consistency value
check_json '"solutions":92' '"failures":289' '"branches":760' '"consistency":"domain"' -- 8 --count --json --consistency domain

# (d) Default run: the 92 boards of 8-queens, then the statistics.
run
problems=()
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

if ((${#problems[@]} == 0)); then
    pass
else
    fail "nqueens (no arguments):"
    printf '  - %s\n' "${problems[@]}"
    show_output
    echo "  --- last 10 lines of stdout ---"
    tail -n 10 "$out" | sed 's/^/  | /'
fi

echo "$passed passed, $failed failed"
((failed == 0))
