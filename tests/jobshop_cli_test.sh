#!/usr/bin/env bash
# Checks the command-line behaviour of the jobshop example: ft06 solved to
# its known optimum 55 and proven (one and two threads), every schedule
# printed checked against the instance by an independent checker, the JSON
# fields, the time limit, malformed files (one line naming the file and the
# line, exit 2), bad arguments and lost output (exit 2). Instances:
# tests/data/ft06.txt, tests/data/la01.txt and files made up here.
# Usage: jobshop_cli_test.sh path/to/jobshop
set -uo pipefail

source "$(dirname "$0")/cli_common.sh"
cli_setup jobshop_cli_test "$@"
data=$(cd "$(dirname "$0")/data" && pwd)
ft06=$data/ft06.txt
la01=$data/la01.txt

# json_field NAME: the value of a top-level JSON field of $out (one object).
json_field() {
    python3 -c 'import json, sys; v = json.load(open(sys.argv[1]))[sys.argv[2]]; print(json.dumps(v))' "$out" "$1" 2>/dev/null
}

# valid_schedule INSTANCE STARTS MAKESPAN: STARTS (JSON, per job the start
# of each operation) is a schedule of the instance file that ends at
# MAKESPAN: every operation starts at 0 or later, after the one before it
# in its job has ended, no two overlap on a machine, and the last ends at
# MAKESPAN. Prints what is wrong, if anything.
valid_schedule() {
    python3 -c '
import json, sys
rows = []
for line in open(sys.argv[1]):
    w = line.split()
    if w and not w[0].startswith("#"):
        rows.append([int(x) for x in w])
jobs, machines = rows[0]
ops = [[(r[2 * k], r[2 * k + 1]) for k in range(machines)] for r in rows[1:]]
s = json.loads(sys.argv[2])
makespan = int(sys.argv[3])
if len(s) != jobs or any(len(r) != machines for r in s):
    sys.exit("starts have the wrong shape")
for j in range(jobs):
    for k in range(machines):
        if s[j][k] < 0:
            sys.exit("job %d operation %d starts before 0" % (j, k))
        if k > 0 and s[j][k - 1] + ops[j][k - 1][1] > s[j][k]:
            sys.exit("job %d operation %d starts before operation %d ends" % (j, k, k - 1))
on = {}
for j in range(jobs):
    for k in range(machines):
        on.setdefault(ops[j][k][0], []).append((s[j][k], s[j][k] + ops[j][k][1], j))
for m, spans in on.items():
    spans.sort()
    for a, b in zip(spans, spans[1:]):
        if a[1] > b[0]:
            sys.exit("jobs %d and %d overlap on machine %d" % (a[2], b[2], m))
end = max(s[j][-1] + ops[j][-1][1] for j in range(jobs))
if end != makespan:
    sys.exit("the schedule ends at %d, not at the makespan %d" % (end, makespan))
' "$1" "$2" "$3" 2>&1
}

# expect_schedule INSTANCE MAKESPAN OPTIMAL: a successful --json run on
# INSTANCE with that makespan (any when empty) and optimal flag, its
# starts a valid schedule.
expect_schedule() {
    local makespan why
    [[ $status -eq 0 ]] || problems+=("exit status $status")
    [[ ! -s $err ]] || problems+=("output on stderr")
    makespan=$(json_field makespan)
    [[ -z $2 || $makespan == "$2" ]] || problems+=("makespan $makespan, expected $2")
    [[ $(json_field optimal) == "$3" ]] || problems+=("optimal is $(json_field optimal), expected $3")
    why=$(valid_schedule "$1" "$(json_field starts)" "$makespan") || problems+=("not a schedule: $why")
}

# expect_usage_error TEXT: exit 2, one line naming the problem and one
# usage line on stderr, nothing on stdout.
expect_usage_error() {
    [[ $status -eq 2 ]] || problems+=("exit status $status, expected 2")
    [[ $(wc -l <"$err") -eq 2 ]] || problems+=("$(wc -l <"$err") lines on stderr, expected 2")
    grep -qF -- "jobshop: $1" "$err" || problems+=("stderr does not say 'jobshop: $1'")
    grep -q "^usage: jobshop .*(try --help)$" "$err" || problems+=("no usage line with a hint to --help")
    [[ ! -s $out ]] || problems+=("output on stdout")
}

# expect_file_error TEXT: exit 2, exactly one line on stderr, which is
# TEXT, and nothing on stdout.
expect_file_error() {
    [[ $status -eq 2 ]] || problems+=("exit status $status, expected 2")
    [[ $(wc -l <"$err") -eq 1 ]] || problems+=("$(wc -l <"$err") lines on stderr, expected 1")
    [[ $(cat "$err") == "$1" ]] || problems+=("stderr is not '$1'")
    [[ ! -s $out ]] || problems+=("output on stdout")
}

run_to "$out" --help
[[ $status -eq 0 ]] || problems+=("--help exit status $status")
grep -q "^usage: jobshop FILE" "$out" || problems+=("--help has no usage line")
grep -q "'#'" "$out" || problems+=("--help does not say that '#' lines are skipped")
[[ ! -s $err ]] || problems+=("--help wrote to stderr")
verdict "--help"

# ft06: the optimum, proven, with a valid schedule, on one and two threads.
for threads in 1 2; do
    run_to "$out" "$ft06" --json --threads "$threads"
    expect_schedule "$ft06" 55 true
    [[ $(json_field threads) == "$threads" ]] || problems+=("threads is $(json_field threads)")
    [[ $(json_field jobs) == 6 && $(json_field machines) == 6 ]] || problems+=("jobs or machines not 6")
    for field in failures branches wall_ms; do
        [[ $(json_field $field) =~ ^[0-9.]+$ ]] || problems+=("field $field is '$(json_field $field)'")
    done
    verdict "ft06 --json --threads $threads"
done

# The text output: each improvement, then the schedule per job, which must
# be the same valid schedule as the per-machine listing, and the
# statistics.
run_to "$out" "$ft06"
[[ $status -eq 0 ]] || problems+=("exit status $status")
grep -q "^Makespan: 55 (optimal)$" "$out" || problems+=("no 'Makespan: 55 (optimal)'")
improvements=$(sed -n 's/^makespan \([0-9]*\)$/\1/p' "$out" | tr '\n' ' ')
python3 -c 'import sys; v = [int(x) for x in sys.argv[1:]]; sys.exit(0 if v and all(a > b for a, b in zip(v, v[1:])) and v[-1] == 55 else 1)' \
    $improvements || problems+=("improvements not strictly better, ending at 55: $improvements")
starts=$(python3 -c '
import re, sys
text = open(sys.argv[1]).read()
rows = [[int(x) for x in m.split()] for m in re.findall(r"^  job \d+: (.*)$", text, re.M)]
print(rows)' "$out")
why=$(valid_schedule "$ft06" "$starts" 55) || problems+=("the printed schedule is not one: $why")
python3 -c '
import re, sys
text = open(sys.argv[1]).read()
rows = [[int(x) for x in m.split()] for m in re.findall(r"^  job \d+: (.*)$", text, re.M)]
ops = [[int(x) for x in l.split()] for l in open(sys.argv[2]) if l.strip() and not l.startswith("#")][1:]
for m in range(6):
    want = sorted((rows[j][k], j) for j in range(6) for k in range(6) if ops[j][2 * k] == m)
    line = re.search(r"^  machine %d: (.*)$" % m, text, re.M).group(1)
    got = [(int(s), int(j)) for j, s in (w.split("@") for w in line.split())]
    if got != want:
        sys.exit(1)' "$out" "$ft06" || problems+=("the per-machine listing does not match the per-job schedule")
for line in "  failures: " "  branches: " "  wall time: "; do
    grep -q "^$line" "$out" || problems+=("no '$line' line")
done
verdict "ft06 text output"

run_to "$out" "$ft06" --quiet
[[ $status -eq 0 ]] || problems+=("exit status $status")
grep -q "^Makespan: 55 (optimal)$" "$out" || problems+=("no 'Makespan: 55 (optimal)'")
! grep -q "^makespan " "$out" || problems+=("--quiet printed improvements")
verdict "ft06 --quiet"

timeout 60 "$exe" - --json <"$ft06" >"$out" 2>"$err"
status=$?
expect_schedule "$ft06" 55 true
verdict "ft06 from standard input"

# la01 (optimum 666) is not proven within a short limit: the best schedule
# found is still a schedule, no better than the optimum.
run_to "$out" "$la01" --json --time-limit 0.3
expect_schedule "$la01" "" false
[[ $(json_field makespan) -ge 666 ]] || problems+=("makespan $(json_field makespan) below the optimum 666")
verdict "la01 --time-limit 0.3"
run_to "$out" "$la01" --time-limit 0.3
grep -q "^Makespan: [0-9]* (best found, not proven optimal)$" "$out" || problems+=("no 'best found' makespan")
grep -q "^  stopped by: time_limit$" "$out" || problems+=("no 'stopped by: time_limit'")
verdict "la01 --time-limit 0.3, text"

# Comments, blank lines, CRLF line ends, spaces and tabs; a job of one
# operation; durations 0.
printf '# a comment\r\n\r\n  3 2\t\r\n# between jobs\n0 3 1 0\n\n1 2 0 4\n   # indented comment\n1 5 0 1\n' >"$work/small.txt"
run_to "$out" "$work/small.txt" --json
# Machine 0 carries 3 + 4 + 1 and can start at 0: 8 is a lower bound, and
# job 1 first on machine 1 reaches it.
expect_schedule "$work/small.txt" 8 true
verdict "comments, blank lines, CRLF, durations 0"

printf '1 1\n0 7\n' >"$work/one.txt"
run_to "$out" "$work/one.txt" --json
expect_schedule "$work/one.txt" 7 true
verdict "one job of one operation"

# Malformed files: FILE:LINE: what is wrong, exit 2.
bad=$work/bad.txt
check_bad() {
    local line=$1 message=$2
    run_to "$out" "$bad"
    expect_file_error "jobshop: $bad:$line: $message"
    verdict "malformed: $message"
}
printf '2 3\n0 1 1 2 2 3\n0 1 1 2 2\n' >"$bad"
check_bad 3 "job 1 has 5 numbers, expected 6 (3 pairs of machine and duration)"
printf '# header next\n2 2\n0 1 1 -4\n1 1 0 1\n' >"$bad"
check_bad 3 "job 0: negative duration -4"
printf '2 2\n0 1 1 4\n\n1 1 2 1\n' >"$bad"
check_bad 4 "job 1: machine 2 is out of range 0 to 1"
printf '2 3\n0 1 1 4 2 2\n1 1 0 1 1 3\n' >"$bad"
check_bad 3 "job 1: machine 1 appears twice"
printf '2 2\n0 1 1 4\n1 1 0 1\n1 1 0 1\n' >"$bad"
check_bad 4 "more lines than the 2 jobs the first line announced"
printf '2 2\n0 1 1 4 # note\n1 1 0 1\n' >"$bad"
check_bad 2 "'#' is not a whole number"
printf '2 2\n0 1 1 4x\n' >"$bad"
check_bad 2 "'4x' is not a whole number"
printf '3 2\n0 1 1 4\n1 1 0 1\n\n# the end\n' >"$bad"
check_bad 5 "the file ends after 2 of the 3 jobs"
printf '6 6 1\n' >"$bad"
check_bad 1 "expected the numbers of jobs and machines, found 3 numbers"
printf '0 3\n' >"$bad"
check_bad 1 "the number of jobs must be 1 to 1000, not 0"
printf '' >"$bad"
check_bad 1 "no line with the numbers of jobs and machines"
printf '# only a comment\n\n' >"$bad"
check_bad 2 "no line with the numbers of jobs and machines"

run_to "$out" "$work/missing.txt"
expect_file_error "jobshop: cannot read $work/missing.txt: No such file or directory"
verdict "a missing file"
run_to "$out" "$work"
expect_file_error "jobshop: cannot read $work: Is a directory"
verdict "a directory"

# Bad arguments.
run_to "$out"
expect_usage_error "missing FILE"
verdict "without FILE"
run_to "$out" "$ft06" --bogus
expect_usage_error "unknown option '--bogus'"
verdict "unknown option"
run_to "$out" "$ft06" "$la01"
expect_usage_error "more than one file given"
verdict "two files"
run_to "$out" "$ft06" --threads 4097
expect_usage_error "bad --threads '4097'"
verdict "--threads 4097"
run_to "$out" "$ft06" --time-limit 0
expect_usage_error "bad --time-limit '0'"
verdict "--time-limit 0"
run_to "$out" "$ft06" --time-limit
expect_usage_error "--time-limit needs a value"
verdict "--time-limit without a value"
run_to "$out" $'x\e[2J'
[[ $status -eq 2 ]] || problems+=("exit status $status, expected 2")
expect_escaped "x\\x1b[2J"
verdict "a file name is escaped"

# Output: --output FILE, and writes that fail.
run_to "$out" "$ft06" --json --output "$work/result.json"
[[ $status -eq 0 ]] || problems+=("exit status $status")
[[ ! -s $out ]] || problems+=("output on stdout with --output")
python3 -c 'import json, sys; sys.exit(0 if json.load(open(sys.argv[1]))["makespan"] == 55 else 1)' \
    "$work/result.json" 2>/dev/null || problems+=("the --output file does not hold makespan 55")
verdict "--output FILE"
run_to "$out" "$ft06" --output "$work/no/such/dir/x"
[[ $status -eq 2 ]] || problems+=("exit status $status, expected 2")
grep -q "^jobshop: cannot write $work/no/such/dir/x: " "$err" || problems+=("stderr does not say it cannot write")
verdict "--output into a missing directory"
run_to "$out" "$ft06" --output /dev/full
[[ $status -eq 2 ]] || problems+=("exit status $status, expected 2")
[[ $(wc -l <"$err") -eq 1 ]] || problems+=("$(wc -l <"$err") lines on stderr, expected 1")
grep -q "^jobshop: error writing to /dev/full: ." "$err" || problems+=("stderr does not say 'jobshop: error writing to /dev/full: <reason>'")
verdict "--output /dev/full"
run_to /dev/full "$ft06"
expect_write_error jobshop
verdict "> /dev/full"
run_to closed "$ft06"
expect_write_error jobshop
verdict ">&-"
run_file_limited 0 "$ft06"
expect_write_error jobshop
verdict "files limited to 0 KiB"

echo "jobshop_cli_test: $passed passed, $failed failed"
((failed == 0))
