#!/usr/bin/env bash
# Checks the command-line behaviour of the jobshop example: ft06 solved to
# its known optimum 55 and proven (one and two threads, both models), every schedule
# printed checked against the instance by an independent checker, the JSON
# fields, the time limit, malformed files (one line naming the file and the
# line, exit 2), bad arguments and lost output (exit 2). Instances:
# tests/data/ft06.txt, tests/data/la01.txt, bench/data/ft10.txt and files
# made up here.
# Usage: jobshop_cli_test.sh path/to/jobshop
set -uo pipefail

source "$(dirname "$0")/cli_common.sh"
cli_setup jobshop_cli_test "$@"
data=$(cd "$(dirname "$0")/data" && pwd)
ft06=$data/ft06.txt
la01=$data/la01.txt
ft10=$(cd "$(dirname "$0")/../bench/data" && pwd)/ft10.txt

# The checker, in one Python program per run (each start of Python costs
# more than the run it checks):
#   checker json FILE INSTANCE MAKESPAN OPTIMAL THREADS AT_LEAST
#       FILE is jobshop --json's output for INSTANCE: the fields are there,
#       the makespan is MAKESPAN (any when empty, but not below AT_LEAST
#       when given), optimal is OPTIMAL, threads THREADS (any when empty),
#       and the starts are a valid schedule ending at the makespan;
#   checker text FILE INSTANCE MAKESPAN
#       FILE is jobshop's text output: improvements strictly better down
#       to MAKESPAN, the per-job schedule valid and ending there, the
#       per-machine listing the same schedule, the statistics lines.
# A valid schedule starts every operation at 0 or later, after the one
# before it in its job has ended, with no two overlapping on a machine. It
# prints each problem on a line of its own, and nothing when all is well.
checker_py='
import json, re, sys

def instance(path):
    rows = [[int(x) for x in l.split()] for l in open(path) if l.split() and not l.split()[0].startswith("#")]
    jobs, machines = rows[0]
    return jobs, machines, [[(r[2 * k], r[2 * k + 1]) for k in range(machines)] for r in rows[1:]]

def schedule_problems(inst, s, makespan):
    jobs, machines, ops = inst
    if not isinstance(s, list) or len(s) != jobs or any(len(r) != machines for r in s):
        return ["the starts have the wrong shape: %r" % (s,)]
    out = []
    for j in range(jobs):
        for k in range(machines):
            if s[j][k] < 0:
                out.append("job %d operation %d starts before 0" % (j, k))
            if k > 0 and s[j][k - 1] + ops[j][k - 1][1] > s[j][k]:
                out.append("job %d operation %d starts before operation %d ends" % (j, k, k - 1))
    on = {}
    for j in range(jobs):
        for k in range(machines):
            on.setdefault(ops[j][k][0], []).append((s[j][k], s[j][k] + ops[j][k][1], j))
    for m, spans in on.items():
        spans.sort()
        for a, b in zip(spans, spans[1:]):
            if a[1] > b[0]:
                out.append("jobs %d and %d overlap on machine %d" % (a[2], b[2], m))
    end = max(s[j][-1] + ops[j][-1][1] for j in range(jobs))
    if end != makespan:
        out.append("the schedule ends at %d, not at the makespan %s" % (end, makespan))
    return out

def check_json(path, inst_path, makespan, optimal, threads, at_least):
    try:
        r = json.load(open(path))
    except Exception as e:
        return ["no JSON object: %s" % e]
    out = []
    for f in ["makespan", "optimal", "starts", "jobs", "machines", "threads", "failures", "branches", "wall_ms"]:
        if f not in r:
            out.append("no field " + f)
    if out:
        return out
    inst = instance(inst_path)
    if makespan and r["makespan"] != int(makespan):
        out.append("makespan %s, expected %s" % (r["makespan"], makespan))
    if at_least and r["makespan"] < int(at_least):
        out.append("makespan %s below %s" % (r["makespan"], at_least))
    if json.dumps(r["optimal"]) != optimal:
        out.append("optimal is %s, expected %s" % (json.dumps(r["optimal"]), optimal))
    if threads and r["threads"] != int(threads):
        out.append("threads is %s, expected %s" % (r["threads"], threads))
    if (r["jobs"], r["machines"]) != inst[:2]:
        out.append("jobs and machines %s, %s" % (r["jobs"], r["machines"]))
    for f in ["failures", "branches", "wall_ms"]:
        if not isinstance(r[f], (int, float)) or r[f] < 0:
            out.append("field %s is %r" % (f, r[f]))
    return out + schedule_problems(inst, r["starts"], r["makespan"])

def check_text(path, inst_path, makespan):
    text = open(path).read()
    inst = instance(inst_path)
    jobs, machines, ops = inst
    out = []
    if not re.search(r"^Makespan: %s \(optimal\)$" % makespan, text, re.M):
        out.append("no line Makespan: %s (optimal)" % makespan)
    v = [int(x) for x in re.findall(r"^makespan (\d+)$", text, re.M)]
    if not v or any(a <= b for a, b in zip(v, v[1:])) or v[-1] != int(makespan):
        out.append("improvements not strictly better, ending at %s: %s" % (makespan, v))
    rows = [[int(x) for x in m.split()] for m in re.findall(r"^  job \d+: (.*)$", text, re.M)]
    out += schedule_problems(inst, rows, int(makespan))
    if len(rows) == jobs:
        for m in range(machines):
            want = sorted((rows[j][k], j) for j in range(jobs) for k in range(machines) if ops[j][k][0] == m)
            line = re.search(r"^  machine %d: (.*)$" % m, text, re.M)
            got = [(int(s), int(j)) for j, s in (w.split("@") for w in line.group(1).split())] if line else None
            if got != want:
                out.append("machine %d lists %s, the schedule says %s" % (m, got, want))
    for line in ["  failures: ", "  branches: ", "  wall time: "]:
        if not re.search("^" + line, text, re.M):
            out.append("no line " + line.strip())
    return out

problems = check_json(*sys.argv[2:8]) if sys.argv[1] == "json" else check_text(*sys.argv[2:5])
print("\n".join(problems))
'

# add_problems OUTPUT: each line of OUTPUT becomes a problem.
add_problems() {
    local line
    while IFS= read -r line; do
        [[ -n $line ]] && problems+=("$line")
    done <<<"$1"
}

# expect_schedule INSTANCE MAKESPAN OPTIMAL [THREADS [AT_LEAST]]: a
# successful --json run on INSTANCE (see the checker).
expect_schedule() {
    [[ $status -eq 0 ]] || problems+=("exit status $status")
    [[ ! -s $err ]] || problems+=("output on stderr")
    add_problems "$(python3 -c "$checker_py" json "$out" "$1" "$2" "$3" "${4:-}" "${5:-}" 2>&1)"
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
    expect_schedule "$ft06" 55 true "$threads"
    verdict "ft06 --json --threads $threads"
done

# Both models find and prove it, each with a valid schedule.
for model in decomposition unary; do
    run_to "$out" "$ft06" --json --model "$model"
    expect_schedule "$ft06" 55 true 1
    verdict "ft06 --json --model $model"
done

# Large-neighbourhood search: valid schedules, improving, not proven
# optimal within half a second.
run_to "$out" "$ft10" --json --lns --time-limit 0.5
expect_schedule "$ft10" "" false "" 930
verdict "ft10 --lns --time-limit 0.5"
run_to "$out" "$ft10" --json --lns --time-limit 0.5 --threads 2
expect_schedule "$ft10" "" false 2 930
verdict "ft10 --lns --time-limit 0.5 --threads 2"

# The least-slack search (jobshop_branching.hpp) proves la01 in a few
# thousand failures.
run_to "$out" "$la01" --json
expect_schedule "$la01" 666 true
verdict "la01 proven at 666"

# The text output: each improvement, then the schedule per job, which must
# be the same valid schedule as the per-machine listing, and the
# statistics.
run_to "$out" "$ft06"
[[ $status -eq 0 ]] || problems+=("exit status $status")
add_problems "$(python3 -c "$checker_py" text "$out" "$ft06" 55 2>&1)"
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

# ft10 (optimum 930) is not proven within a short limit: the best schedule
# found is still a schedule, no better than the optimum.
run_to "$out" "$ft10" --json --time-limit 0.3
expect_schedule "$ft10" "" false "" 930
verdict "ft10 --time-limit 0.3"
run_to "$out" "$ft10" --time-limit 0.3
grep -q "^Makespan: [0-9]* (best found, not proven optimal)$" "$out" || problems+=("no 'best found' makespan")
grep -q "^  stopped by: time_limit$" "$out" || problems+=("no 'stopped by: time_limit'")
verdict "ft10 --time-limit 0.3, text"

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
run_to "$out" "$ft06" --model both
expect_usage_error "--model takes decomposition or unary, not 'both'"
verdict "--model both"
run_to "$out" "$ft06" --lns
expect_usage_error "--lns needs --time-limit"
verdict "--lns without --time-limit"

run_to "$out" "$ft06" --time-limit 0
expect_usage_error "bad --time-limit '0'"
verdict "--time-limit 0"
run_to "$out" "$ft06" --json --quiet
expect_usage_error "--quiet does nothing with --json"
verdict "--json --quiet"
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
add_problems "$(python3 -c "$checker_py" json "$work/result.json" "$ft06" 55 true "" "" 2>&1)"
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

# Out of memory: one line and exit 2, not std::terminate's abort (status
# 134), from the program's start up to 256 MiB above it. 100 jobs on 100
# machines: about 1 GB, beyond every limit tried.
awk 'BEGIN { print "100 100"
             for (j = 0; j < 100; ++j) {
                 line = ""
                 for (m = 0; m < 100; ++m) line = line " " (m + j) % 100 " " 1 + (7 * j + 13 * m) % 50
                 print line
             } }' >"$work/large"
memory_sweep jobshop "$work/large" --time-limit 0.2

echo "jobshop_cli_test: $passed passed, $failed failed"
((failed == 0))
