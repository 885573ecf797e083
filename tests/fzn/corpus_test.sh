#!/usr/bin/env bash
# Checks fzn-propane against Gecode on the MiniZinc models of corpus/.
#
# Usage: corpus_test.sh [--no-native] FZN_PROPANE MSC_DIR [model.mzn ...]
#
#   FZN_PROPANE  the fzn-propane executable
#   MSC_DIR      a folder holding propane's solver configuration (solver id
#                org.propane.propane), as given to MZN_SOLVER_PATH
#   model.mzn    the models to check; all of corpus/*.mzn when none is given
#   --no-native  skip the end-to-end run through propane's own MiniZinc
#                library. Only for trying this script with fzn-gecode
#                standing in for fzn-propane (MSC_DIR is then not used); the
#                real test never passes it.
#
# Needs minizinc (2.6.4 was used) and fzn-gecode (Debian packages minizinc
# and flatzinc) on the PATH; when either is missing it says so and fails
# (exit 1), it never skips. It exits 2 on wrong arguments (or an MSC_DIR in
# which minizinc finds no org.propane.propane), 1 when a model fails, 0 when
# all pass. It reads no standard input, runs two models at a time, and
# prints one line per model in the order given ("ok NAME (MODE): ..." or
# "FAIL NAME (MODE): reason", then any further reasons and the outputs
# involved), then a summary.
#
# Each model starts with a comment line saying what it exercises and has a
# "% mode:" line (which must fit its solve item):
#   all  every solution (-a); the solutions themselves are compared;
#   opt  the optimum (a plain run): both must prove it (==========) and
#        agree on the objective value;
#   sat  satisfiability, and any one solution.
# Optional lines, checked on Gecode's answer (and so, through agreement, on
# propane's): "% count: N" (all: N solutions; 0 for unsatisfiable),
# "% optimum: V" (opt), "% expect: sat|unsat". A file NAME.dzn beside
# NAME.mzn is passed along as data when there is one.
#
# Per model:
#  1. Flatten once, into a scratch folder, with MiniZinc's standard library
#     (std), to X.fzn and X.ozn, with --output-mode dzn --output-objective:
#     the ozn then prints every top-level decision variable and, for
#     optimisation, "_objective = V;" (the objective is often not an output
#     variable of X.fzn, so this is the way to see it). Not with Gecode's
#     own library (-Ggecode, i.e. --solver gecode): with MiniZinc 2.6.4 and
#     Debian's Gecode that breaks every model including globals.mzn (a type
#     error in std/inverse_fn.mzn). Not with propane's library either: it
#     declares native builtins (fzn_all_different_int, fzn_table_int,
#     fzn_count_*, half-reified *_imp) that fzn-gecode cannot read. The std
#     flattening goes through a solver configuration written to the scratch
#     folder, whose library folder holds one file, redefinitions.mzn, that
#     decomposes int_pow (x to a variable power) into an element over fixed
#     powers: fzn-gecode has no int_pow, which std leaves to the solver,
#     and includes MiniZinc's nosets.mzn, which turns set variables into
#     arrays of Booleans as propane's library does.
#     All else is std's, as with "minizinc -c --solver gecode -G std M.mzn
#     --fzn X.fzn --ozn X.ozn" (-c takes --fzn/--ozn; --ozn-file is for
#     reading solutions and is refused there). So propane meets int_pow only
#     in the end-to-end run, 3.
#  2. Run fzn-gecode on X.fzn (-a for "all"; -t 20000, and an outer timeout
#     of 60 s). Its output must be well formed, complete for "all" and "opt",
#     and agree with the model's count/optimum/expect lines; for "all" no
#     solution may come twice (Gecode branches on the output variables only,
#     so a repeat would mean the output variables do not fix the solution).
#     Otherwise the model or the reference is at fault, and it says so.
#     Then run FZN_PROPANE on the same X.fzn with the same flags. It must
#     exit with status 0, and its raw output is parsed as Gecode's: "%"
#     lines are skipped, every other line of a solution must read
#     "name = value;", each solution ends with "----------", and the output
#     ends with at most one of "==========", "=====UNSATISFIABLE=====",
#     "=====UNKNOWN=====". A solution is normalised to its statements with
#     all white space removed, sorted (the order of the output variables
#     does not matter). Compared with Gecode's:
#       all  the status, and the sorted lists of solutions: the same
#            multiset, so a solution printed twice is a failure too;
#       opt  the status (both proved, or both unsatisfiable), and, with the
#            output read back through X.ozn (minizinc --ozn-file, which must
#            accept it), the objective of the last solution; the objectives
#            of successive solutions, if several are printed, must strictly
#            improve;
#       sat  satisfiable or not, and exactly one solution printed (propane
#            may then print "==========", knowing there is no other;
#            Gecode does not).
#  3. Run the model end to end with propane's library: MZN_SOLVER_PATH=
#     MSC_DIR minizinc --solver org.propane.propane [-a] -t 20000
#     --output-mode dzn --output-objective M.mzn, and compare it as in 2
#     with Gecode's output of 2 read back through X.ozn (dzn too). Here
#     minizinc has dropped repeated solutions, so for "all" the sets are
#     compared.
#  4. For "opt" and "sat", propane's last solution is checked to be one:
#     its statements, less _objective, make a .dzn that fixes every
#     top-level decision variable, and the model is solved again with
#     Gecode (std library, as in 1) with that data. It must have a
#     solution, with the same objective value for "opt". (A value outside a
#     variable's domain makes minizinc call the model unsatisfiable, so that
#     fails too.) Done for the run of 2 (read back through X.ozn) and for
#     the run of 3, unless that ended on the same solution. For "all",
#     equality with Gecode's solutions does this already.
#
# Suggested CMake test (in tests/CMakeLists.txt):
#   if(TARGET fzn-propane)
#     add_test(NAME fzn_corpus COMMAND bash
#       ${CMAKE_CURRENT_SOURCE_DIR}/fzn/corpus_test.sh
#       $<TARGET_FILE:fzn-propane> ${CMAKE_BINARY_DIR}/fzn)
#     set_tests_properties(fzn_corpus PROPERTIES TIMEOUT 600)
#   endif()
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
usage="usage: corpus_test.sh [--no-native] FZN_PROPANE MSC_DIR [model.mzn ...]"

native=1
if [[ ${1-} == --no-native ]]; then
    native=0
    shift
fi
if [[ $# -lt 2 ]]; then
    echo "$usage" >&2
    exit 2
fi
propane=$1
propane_arg=$1
msc_dir=$2
shift 2
if [[ $propane != */* ]]; then
    propane=$(command -v -- "$propane" || true)
fi
if [[ -z $propane || ! -f $propane || ! -x $propane ]]; then
    echo "corpus_test: FZN_PROPANE '$propane_arg' is not an executable file" >&2
    echo "$usage" >&2
    exit 2
fi
propane=$(cd "$(dirname "$propane")" && pwd)/$(basename "$propane")
if ((native)); then
    if [[ ! -d $msc_dir ]]; then
        echo "corpus_test: MSC_DIR '$msc_dir' is not a folder" >&2
        echo "$usage" >&2
        exit 2
    fi
    msc_dir=$(cd "$msc_dir" && pwd)
fi

models=()
if [[ $# -eq 0 ]]; then
    for m in "$here"/corpus/*.mzn; do
        if [[ -e $m ]]; then
            models+=("$m")
        fi
    done
    if [[ ${#models[@]} -eq 0 ]]; then
        echo "FAIL: no models in $here/corpus" >&2
        exit 1
    fi
else
    for m in "$@"; do
        if [[ $m != *.mzn || ! -f $m ]]; then
            echo "corpus_test: '$m' is not a .mzn file" >&2
            echo "$usage" >&2
            exit 2
        fi
        models+=("$(cd "$(dirname "$m")" && pwd)/$(basename "$m")")
    done
fi

# The tools this needs are part of the test: missing, they fail it.
minizinc=$(command -v minizinc || true)
gecode=$(command -v fzn-gecode || true)
if [[ -z $minizinc ]]; then
    echo "FAIL: minizinc is not installed (Debian package minizinc); it is needed to flatten the models" >&2
    exit 1
fi
if [[ -z $gecode ]]; then
    echo "FAIL: fzn-gecode is not installed (Debian package flatzinc); it gives the answers propane is checked against" >&2
    exit 1
fi

work=$(mktemp -d)
cleanup() {
    local pids
    pids=$(jobs -p)
    if [[ -n $pids ]]; then
        # shellcheck disable=SC2086 # one word per job id
        kill $pids 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# Everything runs in the scratch folder: no file lands beside the models,
# and no file there shadows a library one.
cd "$work"

if ((native)); then
    solvers=$(MZN_SOLVER_PATH=$msc_dir "$minizinc" --solvers </dev/null 2>&1 || true)
    if [[ $solvers != *org.propane.propane* ]]; then
        echo "corpus_test: MiniZinc finds no solver org.propane.propane in MSC_DIR '$msc_dir'" >&2
        echo "$usage" >&2
        exit 2
    fi
fi

# The Gecode side's library: std, plus int_pow for fzn-gecode and nosets.mzn
# (see above).
mkdir -p "$work/gecode-std"
cat >"$work/gecode-std/redefinitions.mzn" <<'EOF'
% fzn-gecode has no int_pow: x ^ y as an element over x ^ i for each i in
% y's domain (x ^ i for fixed i is what std's int_pow_fixed gives).
predicate int_pow(var int: x, var int: y, var int: z) =
  let {
    array[lb(y)..ub(y)] of var int: p = array1d(lb(y)..ub(y),
      [pow(if y = i then x else 1 endif, i) | i in lb(y)..ub(y)]);
  } in z = p[y];
% Set variables as arrays of Booleans, as propane's library has them, so
% that fzn-propane can read the FlatZinc of a model with sets.
include "nosets.mzn";
EOF
cat >"$work/gecode-std.msc" <<EOF
{
  "id": "org.propane.corpus.gecode_std",
  "name": "Gecode with the standard library (corpus_test.sh)",
  "version": "1",
  "mznlib": "$work/gecode-std",
  "executable": "$gecode",
  "stdFlags": ["-a", "-n", "-t"],
  "supportsMzn": false,
  "supportsFzn": true,
  "needsSolns2Out": true
}
EOF
gecode_msc=$work/gecode-std.msc
limit_ms=20000

# parse RUN STRICT SENSE: reads a solver's output RUN (a file) and writes
# RUN.sols, one line per solution in order, each the solution's statements
# with white space removed, sorted and joined by ";". Sets:
#   R_status  UNSAT, COMPLETE (==========), FOUND (solutions, no final
#             marker), UNKNOWN, ERROR, or NONE (no solution and no marker)
#   R_n       the number of solutions
#   R_obj     the _objective of the last solution (empty when none)
#   R_better  1 when the objectives of the solutions strictly improve in the
#             direction SENSE (minimize/maximize; 1 when SENSE is empty)
#   R_dups    the number of solutions equal to an earlier one
#   R_bad     what is malformed in the output (empty when nothing)
# STRICT=1 wants each line of a solution to be one "name = value;" (raw
# FlatZinc output); STRICT=0 takes minizinc's dzn output, where an array
# may span lines. One process: this runs a few times per model, and
# starting one costs.
parse() {
    awk -v strict="$2" -v sense="$3" -v sols="$1.sols" '
        function flush(   n, parts, i, j, t, out) {
            n = split(text, parts, ";")
            # the statements end with ";", so the last piece is empty
            if (parts[n] != "") bad = bad "a solution does not end with \";\"; "
            else n--
            for (i = 2; i <= n; i++) {
                t = parts[i]
                for (j = i - 1; j >= 1 && parts[j] > t; j--) parts[j + 1] = parts[j]
                parts[j + 1] = t
            }
            out = ""
            has_obj = 0
            for (i = 1; i <= n; i++) {
                out = out parts[i] ";"
                if (parts[i] ~ /^_objective=-?[0-9]+$/) {
                    o = substr(parts[i], 12) + 0
                    if (count > 1 && ((sense == "minimize" && o >= obj) || (sense == "maximize" && o <= obj)))
                        worse = 1
                    obj = o; has_obj = 1
                }
            }
            print out > sols
            if (out in seen) dups++
            seen[out] = 1
            text = ""; lines = 0
        }
        BEGIN { printf "" > sols }
        /^%/ { next }
        {
            line = $0
            gsub(/[ \t\r]/, "", line)
            if (line == "") next
            if (line == "----------") {
                if (final != "") bad = bad "a solution after " final "; "
                count++; flush(); next
            }
            if (line ~ /^=====.*=====$/ || line == "==========") {
                if (final != "") bad = bad "two final markers; "
                if (lines > 0) bad = bad "an unterminated solution before " line "; "
                final = line; next
            }
            if (final != "") bad = bad "text after " final "; "
            if (strict && $0 !~ /^[ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]*=.*;[ \t\r]*$/)
                bad = bad "not \"name = value;\": " substr($0, 1, 60) "; "
            text = text line; lines++
        }
        END {
            if (lines > 0) bad = bad "the last solution is not ended by ----------; "
            if (final == "==========") status = "COMPLETE"
            else if (final == "=====UNSATISFIABLE=====") status = "UNSAT"
            else if (final == "=====UNKNOWN=====") status = "UNKNOWN"
            else if (final == "=====ERROR=====") status = "ERROR"
            else if (final != "") { status = "ERROR"; bad = bad "an unexpected marker " final "; " }
            else if (count > 0) status = "FOUND"
            else status = "NONE"
            if (status == "UNSAT" && count > 0) bad = bad "solutions and =====UNSATISFIABLE=====; "
            if (status == "COMPLETE" && count == 0) bad = bad "========== without a solution; "
            if (status == "UNKNOWN" && count > 0) bad = bad "solutions and =====UNKNOWN=====; "
            print status
            print count + 0
            print (has_obj ? obj : "")
            print (worse ? 0 : 1)
            print dups + 0
            print bad
        }' "$1" >"$1.sum"
    {
        read -r R_status
        read -r R_n
        read -r R_obj
        read -r R_better
        read -r R_dups
        IFS= read -r R_bad
    } <"$1.sum"
}

# is_sat STATUS: whether STATUS says a solution was found.
is_sat() {
    [[ $1 == COMPLETE || $1 == FOUND ]]
}

# compare WHAT MODE SENSE RUN REF [OBJ]: checks the run RUN just parsed
# (R_*) against Gecode's run REF (its output file, parsed before into the
# variables REF_status, REF_n, REF_obj and, for "all", the file
# REF.sorted); adds what is wrong to the array found. OBJ=1 (the default)
# checks the objectives too, for output read through the ozn; raw FlatZinc
# output (OBJ=0) has none.
compare() {
    local what=$1 mode=$2 sense=$3 run=$4 ref=$5 obj=${6:-1}
    [[ -z $R_bad ]] || found+=("$what: malformed output: $R_bad")
    case $R_status in
        UNKNOWN) found+=("$what: gave up (=====UNKNOWN=====)") ;;
        ERROR) found+=("$what: reported an error") ;;
        NONE) found+=("$what: printed neither a solution nor a status") ;;
    esac
    case $mode in
        all)
            [[ $R_status == "$REF_status" ]] || found+=("$what: status $R_status, Gecode $REF_status")
            if ((R_dups > 0)); then
                found+=("$what: $R_dups of its $R_n solutions repeat an earlier one (with -a, solutions are to differ on the output variables, as fzn-gecode prints them)")
            fi
            LC_ALL=C sort -o "$run.sorted" "$run.sols"
            if ! cmp -s "$ref.sorted" "$run.sorted"; then
                found+=("$what: $R_n solutions, not the same as Gecode's $REF_n (missing: $(LC_ALL=C comm -23 "$ref.sorted" "$run.sorted" | head -n 2 | tr '\n' ' ') extra or repeated: $(LC_ALL=C comm -13 "$ref.sorted" "$run.sorted" | head -n 2 | tr '\n' ' '))")
            fi
            ;;
        opt)
            [[ $R_status == "$REF_status" ]] ||
                found+=("$what: status $R_status, Gecode $REF_status (both must prove the optimum, or unsatisfiability)")
            if ((obj)) && [[ $REF_status == COMPLETE ]] && is_sat "$R_status"; then
                if [[ -z $R_obj ]]; then
                    found+=("$what: no _objective in its last solution")
                elif [[ $R_obj != "$REF_obj" ]]; then
                    found+=("$what: objective $R_obj, Gecode's optimum $REF_obj")
                fi
                ((R_better)) || found+=("$what: the objectives of its solutions do not strictly improve ($sense)")
            fi
            ;;
        sat)
            if { is_sat "$R_status" && ! is_sat "$REF_status"; } || { ! is_sat "$R_status" && is_sat "$REF_status"; }; then
                found+=("$what: status $R_status, Gecode $REF_status")
            fi
            if is_sat "$R_status" && ((R_n != 1)); then
                found+=("$what: $R_n solutions printed without -a, expected 1")
            fi
            ;;
    esac
}

# check_solution RUN WHAT MODEL DATA: re-solves MODEL (with DATA when not
# empty) with Gecode, every top-level variable fixed as in the last
# solution of RUN.sols; adds to found when that is not a solution, or when
# its objective is not the one claimed (R_obj of RUN, still set).
check_solution() {
    local run=$1 what_run=$2 model=$3 data=$4 want=$R_obj
    awk 'END {
            n = split($0, parts, ";")
            for (i = 1; i <= n; i++)
                if (parts[i] != "" && parts[i] !~ /^_objective=/) print parts[i] ";"
        }' "$run.sols" >"$run.fix.dzn"
    local args=(--solver "$gecode_msc" --output-mode dzn --output-objective "$model")
    [[ -n $data ]] && args+=("$data")
    if ! timeout -k 5 60 "$minizinc" "${args[@]}" "$run.fix.dzn" \
        </dev/null >"$run.fix" 2>"$run.fix.err"; then
        found+=("$what_run, last solution: re-solving with it fixed failed: $(head -c 300 "$run.fix.err" | tr '\n' ' ')")
        return 0
    fi
    parse "$run.fix" 0 ""
    if ! is_sat "$R_status"; then
        found+=("$what_run, last solution: not a solution: fixed to it, the model is $R_status ($(head -c 200 "$run.fix.err" | tr '\n' ' '))")
    elif [[ $R_obj != "$want" ]]; then
        found+=("$what_run, last solution: its objective is ${R_obj:-none}, not the ${want:-none} claimed")
    fi
}

# show TITLE FILE: up to 25 lines of FILE, indented, for a failure report.
show() {
    echo "  --- $1 ---"
    if [[ -s $2 ]]; then
        head -n 25 "$2" | sed 's/^/  | /'
        local n
        n=$(wc -l <"$2")
        ((n <= 25)) || echo "  | ... ($n lines)"
    else
        echo "  | (empty)"
    fi
}

# check_model DIR MODEL: all the checks of one model; writes DIR/verdict
# (a verdict line and reasons) and DIR/report (the outputs, on failure).
check_model() {
    local dir=$1 model=$2
    local name=${model##*/} mode count optimum expect data="" flags=() sense="" line rc
    name=${name%.mzn}
    local verdict=$dir/verdict report=$dir/report
    found=()

    # the header lines; "-" stands for one that is missing
    awk '
        function value(key,   v) {
            if (!(key in got) && index($0, "% " key ":") == 1) {
                v = substr($0, length(key) + 4)
                sub(/^[ \t]*/, "", v)
                sub(/[ \t(].*/, "", v)
                if (v != "") got[key] = v
            }
        }
        { value("mode"); value("count"); value("optimum"); value("expect") }
        END {
            n = split("mode count optimum expect", keys, " ")
            for (i = 1; i <= n; i++) print ((keys[i] in got) ? got[keys[i]] : "-")
        }' "$model" >"$dir/header"
    {
        read -r mode
        read -r count
        read -r optimum
        read -r expect
    } <"$dir/header"
    [[ $count == - || $count =~ ^[0-9]+$ ]] || mode=bad
    [[ $optimum == - || $optimum =~ ^-?[0-9]+$ ]] || mode=bad
    [[ $expect == - || $expect == unsat || $expect == sat ]] || mode=bad
    [[ $count != - ]] || count=""
    [[ $optimum != - ]] || optimum=""
    [[ $expect != - ]] || expect=""
    [[ ! -f ${model%.mzn}.dzn ]] || data=${model%.mzn}.dzn
    case $mode in
        all) flags=(-a) ;;
        opt | sat) ;;
        *)
            echo "FAIL $name: a bad header: it needs '% mode: all|opt|sat', and takes '% count: N', '% optimum: V', '% expect: sat|unsat'" >"$verdict"
            return 0
            ;;
    esac

    # 1. flatten with the standard library
    local fargs=(-c --solver "$gecode_msc" --output-mode dzn --output-objective "$model")
    [[ -z $data ]] || fargs+=("$data")
    if ! timeout -k 5 120 "$minizinc" "${fargs[@]}" --fzn "$dir/model.fzn" --ozn "$dir/model.ozn" \
        </dev/null >"$dir/flatten.out" 2>"$dir/flatten.err"; then
        echo "FAIL $name ($mode): minizinc could not flatten it" >"$verdict"
        show "minizinc stderr" "$dir/flatten.err" >"$report"
        return 0
    fi
    line=$(grep -m 1 '^solve' "$dir/model.fzn" || true)
    if [[ $line =~ (minimize|maximize)[[:space:]]+[^[:space:]]+[[:space:]]*\;[[:space:]]*$ ]]; then
        sense=${BASH_REMATCH[1]}
    fi
    if [[ $mode == opt && -z $sense ]] || [[ $mode != opt && -n $sense ]]; then
        echo "FAIL $name ($mode): the mode does not fit the solve item: $line" >"$verdict"
        return 0
    fi

    # 2. Gecode on the std FlatZinc, and what the corpus says of its answer
    local g=$dir/gecode
    rc=0
    timeout -k 5 60 "$gecode" "${flags[@]}" -t "$limit_ms" "$dir/model.fzn" \
        </dev/null >"$g" 2>"$g.err" || rc=$?
    parse "$g" 1 "$sense"
    if ((rc != 0)) || [[ -n $R_bad ]] || ! [[ $R_status == COMPLETE || $R_status == FOUND || $R_status == UNSAT ]]; then
        echo "FAIL $name ($mode): the reference, fzn-gecode, failed (exit $rc, $R_status, ${R_bad:-output well formed})" >"$verdict"
        {
            show "fzn-gecode stdout" "$g"
            show "fzn-gecode stderr" "$g.err"
        } >"$report"
        return 0
    fi
    [[ $mode != all ]] || LC_ALL=C sort -o "$g.sorted" "$g.sols"
    local G_status=$R_status G_n=$R_n G_dups=$R_dups
    if ! "$minizinc" --ozn-file "$dir/model.ozn" <"$g" >"$g.dzn" 2>"$g.dzn.err"; then
        echo "FAIL $name ($mode): minizinc could not read fzn-gecode's output back" >"$verdict"
        show "minizinc stderr" "$g.dzn.err" >"$report"
        return 0
    fi
    parse "$g.dzn" 0 "$sense"
    [[ $mode != all ]] || LC_ALL=C sort -o "$g.dzn.sorted" "$g.dzn.sols"
    local GD_status=$R_status GD_n=$R_n GD_obj=$R_obj
    if [[ $mode == all && $G_status != COMPLETE && $G_status != UNSAT ]]; then
        found+=("Gecode did not complete the enumeration ($G_status)")
    fi
    if [[ $mode == opt && $G_status != COMPLETE && $G_status != UNSAT ]]; then
        found+=("Gecode did not prove the optimum ($G_status)")
    fi
    if [[ $mode == all ]] && ((G_dups > 0)); then
        found+=("Gecode printed a solution twice: are there output variables missing?")
    fi
    if [[ -n $count && $G_n != "$count" ]]; then
        found+=("Gecode finds $G_n solutions, the model says $count")
    fi
    if [[ $expect == unsat && $G_status != UNSAT ]] || [[ $expect == sat && $G_status == UNSAT ]]; then
        found+=("Gecode finds it $G_status, the model says $expect")
    fi
    if [[ -n $optimum && $GD_obj != "$optimum" ]]; then
        found+=("Gecode's optimum is ${GD_obj:-none}, the model says $optimum")
    fi
    if [[ ${#found[@]} -gt 0 ]]; then
        {
            echo "FAIL $name ($mode): the corpus or the reference is wrong: ${found[0]}"
            for line in "${found[@]:1}"; do
                echo "  - $line"
            done
        } >"$verdict"
        show "fzn-gecode stdout" "$g" >"$report"
        return 0
    fi

    # 3. propane on the same FlatZinc
    local run=$dir/propane what_run=fzn-propane REF_status REF_n REF_obj std_failed=0
    rc=0
    timeout -k 5 60 "$propane" "${flags[@]}" -t "$limit_ms" "$dir/model.fzn" \
        </dev/null >"$run" 2>"$run.err" || rc=$?
    if ((rc == 124 || rc == 137)); then
        found+=("fzn-propane: still running after 60 s (killed)")
    elif ((rc != 0)); then
        found+=("fzn-propane: exit status $rc")
    fi
    parse "$run" 1 "$sense"
    REF_status=$G_status REF_n=$G_n REF_obj=""
    compare fzn-propane "$mode" "$sense" "$run" "$g" 0
    # its output read back through the ozn: that must work, and gives the
    # objective values. (For "all", equal to Gecode's it reads back as well.)
    if [[ $mode == all ]]; then
        :
    elif ! "$minizinc" --ozn-file "$dir/model.ozn" <"$run" >"$run.dzn" 2>"$run.dzn.err"; then
        found+=("fzn-propane: minizinc cannot read its output back: $(head -c 200 "$run.dzn.err" | tr '\n' ' ')")
    elif [[ ${#found[@]} -eq 0 ]]; then
        parse "$run.dzn" 0 "$sense"
        REF_status=$GD_status REF_n=$GD_n REF_obj=$GD_obj
        what_run="fzn-propane (read back)"
        compare "$what_run" "$mode" "$sense" "$run.dzn" "$g.dzn"
        if [[ ${#found[@]} -eq 0 ]] && is_sat "$R_status"; then
            check_solution "$run.dzn" "$what_run" "$model" "$data"
        fi
    fi
    # 3b. an optimization again under -f: propane's own search, which is
    # LNS with proving rounds; it must prove the same optimum.
    if [[ $mode == opt && ${#found[@]} -eq 0 ]]; then
        run=$dir/free
        what_run="fzn-propane -f"
        rc=0
        timeout -k 5 60 "$propane" "${flags[@]}" -f -t "$limit_ms" "$dir/model.fzn" \
            </dev/null >"$run" 2>"$run.err" || rc=$?
        ((rc == 0)) || found+=("fzn-propane -f: exit status $rc")
        parse "$run" 1 "$sense"
        REF_status=$G_status REF_n=$G_n REF_obj=""
        compare "$what_run" "$mode" "$sense" "$run" "$g" 0
        if [[ ${#found[@]} -eq 0 ]] && "$minizinc" --ozn-file "$dir/model.ozn" <"$run" >"$run.dzn" 2>"$run.dzn.err"; then
            parse "$run.dzn" 0 "$sense"
            REF_status=$GD_status REF_n=$GD_n REF_obj=$GD_obj
            compare "$what_run (read back)" "$mode" "$sense" "$run.dzn" "$g.dzn"
        elif [[ ${#found[@]} -eq 0 ]]; then
            found+=("fzn-propane -f: minizinc cannot read its output back")
        fi
    fi
    [[ ${#found[@]} -eq 0 ]] || std_failed=1

    # 4. end to end with propane's library
    local native_failed=0 before=${#found[@]}
    if ((native)); then
        run=$dir/native
        what_run="propane via minizinc"
        local eargs=(--solver org.propane.propane "${flags[@]}" -t "$limit_ms"
            --output-mode dzn --output-objective "$model")
        [[ -z $data ]] || eargs+=("$data")
        rc=0
        MZN_SOLVER_PATH=$msc_dir timeout -k 5 90 "$minizinc" "${eargs[@]}" \
            </dev/null >"$run" 2>"$run.err" || rc=$?
        if ((rc == 124 || rc == 137)); then
            found+=("$what_run: still running after 90 s (killed)")
        elif ((rc != 0)); then
            found+=("$what_run: exit status $rc: $(grep -v '^Warning' "$run.err" | head -c 300 | tr '\n' ' ')")
        fi
        parse "$run" 0 "$sense"
        REF_status=$GD_status REF_n=$GD_n REF_obj=$GD_obj
        compare "$what_run" "$mode" "$sense" "$run" "$g.dzn"
        # (a last solution already checked in 3 needs no second check)
        if [[ ${#found[@]} -eq $before && $mode != all ]] && is_sat "$R_status" &&
            ! { [[ -s $dir/propane.dzn.fix ]] && cmp -s <(tail -n 1 "$run.sols") <(tail -n 1 "$dir/propane.dzn.sols"); }; then
            check_solution "$run" "$what_run" "$model" "$data"
        fi
        [[ ${#found[@]} -eq $before ]] || native_failed=1
    fi

    # 5. verdict
    local summary
    if [[ $G_status == UNSAT ]]; then
        summary="unsatisfiable"
    else
        case $mode in
            all) summary="$G_n solutions" ;;
            opt) summary="optimum $GD_obj" ;;
            sat) summary="satisfiable" ;;
        esac
    fi
    if ((native)); then
        summary+=", as Gecode, on the std FlatZinc and end to end"
    else
        summary+=", as Gecode, on the std FlatZinc (end-to-end run skipped)"
    fi
    if [[ ${#found[@]} -eq 0 ]]; then
        echo "ok $name ($mode): $summary" >"$verdict"
        return 0
    fi
    {
        echo "FAIL $name ($mode): ${found[0]}"
        for line in "${found[@]:1}"; do
            echo "  - $line"
        done
    } >"$verdict"
    {
        if ((std_failed)); then
            show "fzn-propane stdout (std FlatZinc)" "$dir/propane"
            show "fzn-propane stderr" "$dir/propane.err"
            show "fzn-gecode stdout (same FlatZinc)" "$g"
        fi
        if ((native_failed)); then
            show "propane via minizinc (its own library): stdout" "$dir/native"
            show "propane via minizinc: stderr" "$dir/native.err"
            show "Gecode, read back through the ozn" "$g.dzn"
        fi
    } >"$report"
}

# Run the models two at a time; print their reports in order as they come.
start=$SECONDS
total=${#models[@]}
next_print=0
failed=0
print_ready() {
    local dir
    while ((next_print < total)) && [[ -e $work/done.$next_print ]]; do
        dir=$work/m$next_print
        if [[ -s $dir/verdict ]]; then
            cat "$dir/verdict"
            [[ ! -s $dir/report ]] || cat "$dir/report"
            [[ $(<"$dir/verdict") == ok\ * ]] || failed=$((failed + 1))
        else
            echo "FAIL $(basename "${models[$next_print]}" .mzn): the check stopped early (a bug in corpus_test.sh)"
            failed=$((failed + 1))
        fi
        next_print=$((next_print + 1))
    done
}
for ((i = 0; i < total; i++)); do
    mkdir "$work/m$i"
done
running=0
for ((i = 0; i < total; i++)); do
    if ((running >= 2)); then
        wait -n || true
        running=$((running - 1))
        print_ready
    fi
    (
        check_model "$work/m$i" "${models[$i]}" || true
        : >"$work/done.$i"
    ) &
    running=$((running + 1))
done
wait || true
print_ready

passed=$((total - failed))
echo "corpus_test: $total models, $passed ok, $failed failed ($((SECONDS - start)) s)"
if ((failed > 0)); then
    exit 1
fi
