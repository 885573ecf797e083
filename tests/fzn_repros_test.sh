#!/usr/bin/env bash
# The FlatZinc and MiniZinc files of tests/fzn/repros/, each of which once
# lost solutions, hung, crashed, reached undefined behaviour or answered a
# broken model: each must now give its answer or a placed error. Run on
# the sanitizer build too, where undefined behaviour aborts the program.
# Usage: fzn_repros_test.sh path/to/fzn-propane path/to/mznlib
#   mznlib  propane's MiniZinc library folder (fzn/mznlib in the sources):
#           the .mzn files run through minizinc with a solver configuration
#           written here, naming this fzn-propane and that folder.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
source "$here/cli_common.sh"
if [[ $# -ne 2 || ! -x $1 || ! -d $2 ]]; then
    echo "usage: fzn_repros_test.sh path/to/fzn-propane path/to/mznlib" >&2
    exit 2
fi
exe=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
mznlib=$(cd "$2" && pwd)
command -v minizinc >/dev/null || { echo "fzn_repros_test: minizinc is not on the PATH (Debian package minizinc)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=$work/stdout
err=$work/stderr
repros=$here/fzn/repros
sed -e "s|@PROPANE_VERSION@|0|; s|@PROPANE_MZNLIB@|$mznlib|; s|@PROPANE_FZN_EXECUTABLE@|$exe|" \
    "$here/../fzn/propane.msc.in" >"$work/propane.msc"

run() { run_to "$out" "$@"; }
# mzn FLAGS... FILE: the model through minizinc and this fzn-propane.
mzn() {
    MZN_SOLVER_PATH=$work timeout 120 minizinc --solver org.propane.propane "$@" </dev/null >"$out" 2>"$err"
    status=$?
}
expect_status() { [[ $status -eq $1 ]] || problems+=("exit status $status, expected $1"); }
solutions() { grep -cxF -- ---------- "$out"; }
# expect_all N: N solutions, none twice, and the search said it saw all.
expect_all() {
    expect_status 0
    [[ $(solutions) -eq $1 ]] || problems+=("$(solutions) solutions, expected $1")
    local distinct
    distinct=$(awk '/^----------$/ { print s; s = ""; next } /^[^%=]/ { s = s $0 "|" }' "$out" | sort -u | wc -l)
    [[ $distinct -eq $(solutions) ]] || problems+=("$distinct distinct solutions among $(solutions)")
    [[ $(tail -n 1 "$out") == ========== ]] || problems+=("the last line is not ==========")
}
expect_last() { [[ $(tail -n 1 "$out") == "$1" ]] || problems+=("the last line is not $1"); }
expect_unsat() {
    expect_status 0
    [[ $(cat "$out") == =====UNSATISFIABLE===== ]] || problems+=("stdout is not =====UNSATISFIABLE=====")
}
# expect_error_at FILE LINE:COLUMN: exit 1, =====ERROR=====, and one line on
# stderr placing the error in the file.
expect_error_at() {
    expect_status 1
    expect_last =====ERROR=====
    grep -qF -- "fzn-propane: $1:$2: " "$err" || problems+=("stderr does not place the error at $1:$2")
    [[ $(wc -l <"$err") -eq 1 ]] || problems+=("$(wc -l <"$err") lines on stderr, expected 1")
}

# 1. Every assignment of the output variables, whatever marks them: the
# Booleans behind a set variable and the parts of an option variable are
# introduced by MiniZinc. The counts are those of the models by hand: the
# subsets of 1..3 with at most 2 elements, 1..3 or absent, two of those of
# 1..2.
for flags in "-a" "-a -p 2" "-a -f" "-a -f -p 2" "-n 100"; do
    for model in set_var:7 opt_var:4 opt_array:9; do
        mzn $flags "$repros/lost_solutions_${model%:*}_a.mzn"
        expect_all "${model#*:}"
        verdict "minizinc $flags lost_solutions_${model%:*}_a.mzn"
    done
    run $flags "$repros/lost_solutions_introduced_output_var.fzn"
    expect_all 3 # x < y over 0..2
    verdict "fzn-propane $flags lost_solutions_introduced_output_var.fzn"
done
mzn -n 5 "$repros/lost_solutions_set_var_a.mzn"
expect_status 0
[[ $(solutions) -eq 5 ]] || problems+=("$(solutions) solutions, expected 5")
expect_last ----------
verdict "minizinc -n 5 lost_solutions_set_var_a.mzn: 5 of the 7, not said to be all"

# 2. A divisor that can only be 0 leaves no solution. 3. Sets reaching
# 2^63 - 1, clipped to what the variables can take: none of their values
# is in reach, so no solution either.
for f in error_on_valid_unsat_div_by_fixed_zero error_on_valid_unsat_mod_alias error_on_valid_unsat_mod_x_y_eq_y \
    hang_set_range_int64max hang_set_in_reif_int64max hang_regular_finals_int64max; do
    run "$repros/$f.fzn"
    expect_unsat
    verdict "fzn-propane $f.fzn"
done
mzn "$repros/error_on_valid_unsat_mod_x_y_eq_y.mzn"
expect_unsat
verdict "minizinc error_on_valid_unsat_mod_x_y_eq_y.mzn"

# 3. A coefficient of -2^63: an error placed at its constraint.
run "$repros/ub_int_lin_coef_int64min.fzn"
expect_error_at "$repros/ub_int_lin_coef_int64min.fzn" 2:1
verdict "fzn-propane ub_int_lin_coef_int64min.fzn"

# 4. Absurd thread counts are capped, with a warning.
for p in 40000 100000; do
    run -p "$p" "$repros/crash_many_threads.fzn"
    expect_status 0
    [[ $(solutions) -eq 1 ]] || problems+=("$(solutions) solutions, expected 1")
    grep -q "^fzn-propane: warning: -p $p " "$err" || problems+=("no warning about -p $p on stderr")
    verdict "fzn-propane -p $p crash_many_threads.fzn"
done

# 5. int_pow over exponents near 2^31: x^y for x in -1..1 is -1, 0 or 1 for
# each of the 48 exponents, 144 solutions, at once.
run -a "$repros/hang_int_pow_large_exponent.fzn"
expect_all 144
verdict "fzn-propane -a hang_int_pow_large_exponent.fzn"

# 6. -a on an optimization prints improving solutions only: with a
# constant objective, one.
run -a "$repros/minor_fixed_objective_a_prints_nonimproving.fzn"
expect_all 1
verdict "fzn-propane -a minor_fixed_objective_a_prints_nonimproving.fzn"

# 7, 8. Errors placed in the file: a constant beyond 32 bits, an index set
# at 2^63 - 1, a Boolean set to 3, output_array's dimensions over too few
# elements.
for case in unclear_error_no_location_constant:3:1 unclear_error_no_location_index_set:3:1 \
    broken_model_bool_eq_3_reports_unsat:1:29 broken_model_output_array_dims_printed:2:27; do
    f=${case%%:*}
    run "$repros/$f.fzn"
    expect_error_at "$repros/$f.fzn" "${case#*:}"
    verdict "fzn-propane $f.fzn"
done

echo "fzn_repros_test: $passed passed, $failed failed"
((failed == 0))
