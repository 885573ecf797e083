#!/usr/bin/env bash
# Checks fzn-propane's command line and its output on small FlatZinc files
# written here: the standard output form, the markers, the flags, and what
# a bad file or a bad option gets.
# Usage: fzn_cli_test.sh path/to/fzn-propane
set -uo pipefail

source "$(dirname "$0")/cli_common.sh"
cli_setup fzn_cli_test "$@"

run() { run_to "$out" "$@"; }
expect_status() { [[ $status -eq $1 ]] || problems+=("exit status $status, expected $1"); }
expect_line() { grep -qxF -- "$1" "$out" || problems+=("no line '$1' on stdout"); }
expect_no_line() { ! grep -qxF -- "$1" "$out" || problems+=("a line '$1' on stdout"); }
count_of() { grep -cxF -- "$1" "$out"; }
expect_stdout() { [[ $(cat "$out") == "$1" ]] || problems+=("stdout is not: ${1//$'\n'/ | }"); }
model() { # name text
    printf '%s\n' "$2" >"$work/$1.fzn"
    echo "$work/$1.fzn"
}

# Four queens, every solution: two, each printed whole, then the end marker.
queens=$(model queens '
array [1..2] of int: X_1 = [1,-1];
var 1..4: q1 :: output_var;
var 1..4: q2 :: output_var;
var 1..4: q3 :: output_var;
var 1..4: q4 :: output_var;
array [1..4] of var int: qs :: output_array([1..2, 1..2]) = [q1, q2, q3, q4];
constraint int_ne(q1, q2); constraint int_ne(q1, q3); constraint int_ne(q1, q4);
constraint int_ne(q2, q3); constraint int_ne(q2, q4); constraint int_ne(q3, q4);
constraint int_lin_ne(X_1, [q1, q2], 1); constraint int_lin_ne(X_1, [q1, q2], -1);
constraint int_lin_ne(X_1, [q1, q3], 2); constraint int_lin_ne(X_1, [q1, q3], -2);
constraint int_lin_ne(X_1, [q1, q4], 3); constraint int_lin_ne(X_1, [q1, q4], -3);
constraint int_lin_ne(X_1, [q2, q3], 1); constraint int_lin_ne(X_1, [q2, q3], -1);
constraint int_lin_ne(X_1, [q2, q4], 2); constraint int_lin_ne(X_1, [q2, q4], -2);
constraint int_lin_ne(X_1, [q3, q4], 1); constraint int_lin_ne(X_1, [q3, q4], -1);
solve satisfy;')
run -a "$queens"
expect_status 0
[[ $(count_of ----------) -eq 2 ]] || problems+=("$(count_of ----------) solutions, expected 2")
expect_line "=========="
expect_line "q1 = 2;"
expect_line "q1 = 3;"
expect_line "qs = array2d(1..2, 1..2, [2, 4, 1, 3]);"
expect_line "qs = array2d(1..2, 1..2, [3, 1, 4, 2]);"
[[ $(tail -n 1 "$out") == "==========" ]] || problems+=("the last line is not ==========")
verdict "-a prints every solution and ends with =========="

for p in 1 2; do
    run -a -p $p "$queens"
    expect_status 0
    [[ $(count_of ----------) -eq 2 ]] || problems+=("$(count_of ----------) solutions, expected 2")
    expect_line "=========="
    verdict "-a -p $p counts two solutions"
done

run "$queens"
expect_status 0
[[ $(count_of ----------) -eq 1 ]] || problems+=("$(count_of ----------) solutions, expected 1")
expect_no_line "=========="
verdict "one solution by default, and no claim that the search is complete"

run -n 1 -s "$queens"
expect_status 0
grep -q '^%%%mzn-stat: solutions=1$' "$out" || problems+=("no %%%mzn-stat: solutions=1")
grep -q '^%%%mzn-stat: nodes=[0-9]*$' "$out" || problems+=("no %%%mzn-stat: nodes=N")
expect_line "%%%mzn-stat-end"
verdict "-s prints statistics"

# Unsatisfiable: x < y < x.
unsat=$(model unsat '
var 1..9: x :: output_var;
var 1..9: y;
constraint int_lt(x, y);
constraint int_lt(y, x);
solve satisfy;')
run "$unsat"
expect_status 0
expect_stdout "=====UNSATISFIABLE====="
verdict "an unsatisfiable model"

# Optimization: maximize 3a + 2b with a + b <= 4, a, b in 0..3; the optimum
# is a = 3, b = 1 (11). Without -a only the best is printed.
opt=$(model opt '
array [1..2] of int: c = [3, 2];
array [1..2] of int: one = [1, 1];
var 0..3: a :: output_var;
var 0..3: b :: output_var;
var bool: big :: output_var;
var int: obj :: output_var :: is_defined_var;
constraint int_lin_le(one, [a, b], 4);
constraint int_lin_eq([3, 2, -1], [a, b, obj], 0) :: defines_var(obj);
constraint int_le_reif(3, a, big);
solve :: int_search([a, b], input_order, indomain_min, complete) maximize obj;')
run "$opt"
expect_status 0
[[ $(count_of ----------) -eq 1 ]] || problems+=("$(count_of ----------) solutions, expected 1")
expect_line "obj = 11;"
expect_line "big = true;"
expect_line "=========="
verdict "maximize prints the optimum, proven"

run -a "$opt"
expect_status 0
objs=$(sed -n 's/^obj = \([0-9]*\);$/\1/p' "$out" | tr '\n' ' ')
[[ $(count_of ----------) -ge 2 ]] || problems+=("only $(count_of ----------) solution(s) with -a")
prev=-1
for v in $objs; do ((v > prev)) || problems+=("objectives not increasing: $objs"); prev=$v; done
[[ $prev -eq 11 ]] || problems+=("last objective $prev, expected 11")
verdict "-a prints each improving solution"

# Wide domains are whole: a `var int` takes what its constraints allow, or
# the whole 32-bit range (-2147483647..2147483647) on a side they leave
# open, and a search that ends says so. Here x + y = 1000248 bounds x to
# 248..1000248 and obj = 1000 * x to 248000..1000248000: a billion values,
# none cut, so both optima are proven.
for sense in minimize:248000 maximize:1000248000; do
    big_sum=$(model big_sum "
var int: x :: output_var;
var 0..1000000: y :: output_var;
var int: obj :: output_var;
constraint int_lin_eq([1, 1], [x, y], 1000248);
constraint int_lin_eq([1000, -1], [x, obj], 0);
solve ${sense%:*} obj;")
    run "$big_sum"
    expect_status 0
    expect_line "obj = ${sense#*:};"
    expect_line "=========="
    verdict "an optimum over a billion values is proven: ${sense%:*}"
done

# A side nothing bounds reaches the end of the 32-bit range, and the
# optimum there is proven as any other.
for sense in minimize:-2147483647 maximize:7; do
    open_side=$(model open_side "
var int: x :: output_var;
constraint int_le(x, 7);
solve ${sense%:*} x;")
    run "$open_side"
    expect_status 0
    expect_stdout "x = ${sense#*:};"$'\n'----------$'\n'==========
    verdict "an open side spans the 32-bit range: ${sense%:*}"
done

# Two unbounded variables fixed by their constraints far from zero, by
# propagation (the bounds inferred before the search know no set_in): all
# solutions is one, and the enumeration says it is all.
fixed_far=$(model fixed_far '
var int: x :: output_var;
var int: y :: output_var;
constraint int_lin_eq([1, -1], [x, y], 4000000);
constraint set_in(y, {-1999995});
solve satisfy;')
for flags in "-a" "-a -p 2"; do
    run $flags "$fixed_far"
    expect_status 0
    expect_stdout $'x = 2000005;\ny = -1999995;\n----------\n=========='
    verdict "$flags over unbounded variables fixed far from zero: one solution, all of them"
done

# No solution over wide domains is a proof: x + y = 10 with x <= -5 and
# y <= 5; 2x = 7 with x in +-2e9.
wide_unsat=$(model wide_unsat '
var int: x :: output_var;
var int: y :: output_var;
constraint int_lin_eq([1, 1], [x, y], 10);
constraint int_le(x, -5);
constraint int_le(y, 5);
solve satisfy;')
wide_parity=$(model wide_parity '
var -2000000000..2000000000: x :: output_var;
constraint int_lin_eq([2], [x], 7);
solve satisfy;')
for f in "$wide_unsat" "$wide_parity"; do
    for flags in "" "-a"; do
        run $flags "$f"
        expect_status 0
        expect_stdout "=====UNSATISFIABLE====="
        verdict "no solution over wide domains: $(basename "$f") $flags"
    done
done

# A domain declared past 32 bits is refused, placed at its declaration,
# unless the constraints bring it back within: a cut could lose the
# solutions, and then claim none or a worse optimum.
past32=$(model past32 '
var -10000000000..10000000000: x :: output_var;
constraint int_le(x, 5);
solve satisfy;')
run "$past32"
expect_status 1
[[ $(tail -n 1 "$out") == =====ERROR===== ]] || problems+=("the last line is not =====ERROR=====")
grep -qF "fzn-propane: $past32:2:32: unsupported: the domain of 'x', -10000000000..10000000000, reaches past" "$err" ||
    problems+=("stderr does not place the refused domain at 2:32")
verdict "a declared domain past 32 bits is refused"

back32=$(model back32 '
var -10000000000..10000000000: x :: output_var;
constraint int_le(x, 5);
constraint int_le(-5, x);
solve satisfy;')
run -a "$back32"
expect_status 0
[[ $(count_of ----------) -eq 11 ]] || problems+=("$(count_of ----------) solutions, expected 11")
[[ $(tail -n 1 "$out") == ========== ]] || problems+=("the last line is not ==========")
verdict "a declared domain past 32 bits that the constraints bring back"

# So is an unbounded variable whose constraints leave it only values past
# 32 bits: its solutions need more than fzn-propane's integers hold.
needs64=$(model needs64 '
var int: x :: output_var;
var 0..10: y :: output_var;
constraint int_lin_eq([1, 1], [x, y], 5000000000);
solve satisfy;')
run "$needs64"
expect_status 1
grep -qF "fzn-propane: $needs64:2:10: unsupported: the constraints on 'x' leave it only values of at least 4999999990" "$err" ||
    problems+=("stderr does not place the variable at 2:10")
verdict "a variable its constraints put past 32 bits is refused"

# Globals over open indexes: circuit over successors from 5, each a bare
# `var int` (whose offset from 5 would pass int), has the two tours of
# three nodes.
open_circuit=$(model open_circuit '
var int: a :: output_var;
var int: b :: output_var;
var int: c :: output_var;
constraint propane_circuit([a, b, c], 5);
solve satisfy;')
run -a "$open_circuit"
expect_status 0
[[ $(count_of ----------) -eq 2 ]] || problems+=("$(count_of ----------) solutions, expected 2")
expect_line "a = 6;"
expect_line "a = 7;"
[[ $(tail -n 1 "$out") == ========== ]] || problems+=("the last line is not ==========")
verdict "circuit over unbounded successors"

# Bounds that follow from the constraints are found: x * x == 2 has no
# integer solution, and |x| <= 2 makes that provable.
square=$(model square '
var int: x :: output_var;
constraint int_times(x, x, 2);
solve satisfy;')
run -a "$square"
expect_status 0
expect_stdout "=====UNSATISFIABLE====="
verdict "bounds inferred from a product prove unsatisfiability"

# Solutions count on the model's own variables: x's three values, however
# many ways the introduced a, b, c complete them; x = 2 forces a, b, c
# pairwise different over two values, which only a search of a, b, c finds
# impossible, so x = 2 is no solution.
helpers=$(model helpers '
var 1..3: x :: output_var;
var bool: r :: var_is_introduced :: is_defined_var;
var 1..2: a :: var_is_introduced;
var 1..2: b :: var_is_introduced;
var 1..2: c :: var_is_introduced;
constraint int_eq_reif(x, 2, r) :: defines_var(r);
constraint int_ne_imp(a, b, r);
constraint int_ne_imp(a, c, r);
constraint int_ne_imp(b, c, r);
solve satisfy;')
for p in 1 2; do
    run -a -p $p "$helpers"
    expect_status 0
    [[ $(count_of ----------) -eq 2 ]] || problems+=("$(count_of ----------) solutions, expected 2")
    expect_line "x = 1;"
    expect_line "x = 3;"
    expect_no_line "x = 2;"
    expect_line "=========="
    verdict "-a -p $p counts solutions on the model's own variables"
done
run -n 1 "$helpers"
[[ $(count_of ----------) -eq 1 ]] || problems+=("$(count_of ----------) solutions, expected 1")
expect_no_line "x = 2;"
verdict "-n 1 prints one solution"

# Search annotations: indomain_max over x gives x = 9 first, indomain_reverse_split too.
for ann in "indomain_max" "indomain_reverse_split"; do
    f=$(model ann '
var 1..9: x :: output_var;
var 1..9: y :: output_var;
constraint int_lt(y, x);
solve :: int_search([x, y], input_order, '"$ann"', complete) satisfy;')
    run "$f"
    expect_line "x = 9;"
    verdict "int_search with $ann"
done

# Bad input: a syntax error names its file, line and column; an unknown
# builtin names itself; floats are unsupported. Nothing is printed as a
# solution.
bad=$(model bad '
var 1..3: x;
constraint int_le(x, 2)
solve satisfy;')
run "$bad"
expect_status 1
grep -q "^fzn-propane: $bad:4:1: expected ';'" "$err" || problems+=("stderr does not say '$bad:4:1: expected ;'")
expect_line "=====ERROR====="
expect_no_line "----------"
verdict "a syntax error is reported with its line and column"

unknown=$(model unknown '
var 1..3: x;
constraint my_global(x);
solve satisfy;')
run "$unknown"
expect_status 1
grep -q "unknown constraint 'my_global'" "$err" || problems+=("stderr does not name my_global")
verdict "an unknown builtin names itself"

float=$(model float '
var 0.0..1.0: f;
solve satisfy;')
run "$float"
expect_status 1
grep -q "unsupported: float variables" "$err" || problems+=("stderr does not say float variables are unsupported")
verdict "float variables are refused"

# The command line.
for args in "" "-x $queens" "-n" "-n 0 $queens" "-t abc $queens" "$queens $queens" "$work/missing.fzn"; do
    # shellcheck disable=SC2086 # the words are the arguments
    run $args
    expect_status 2
    [[ $(wc -l <"$err") -eq 2 ]] || problems+=("$(wc -l <"$err") lines on stderr, expected the message and the usage")
    grep -q "^usage: fzn-propane" "$err" || problems+=("no usage line on stderr")
    verdict "fzn-propane $args is refused with a usage hint"
done

run --builtins
expect_status 0
expect_line "int_lin_eq"
expect_line "propane_all_different_int"
verdict "--builtins lists the table"

# Output that cannot be written is an error.
timeout 60 "$exe" -a "$queens" </dev/null >/dev/full 2>"$err"
status=$?
expect_write_error fzn-propane
verdict "a failed write is an error"

# Restart annotations: five pigeons in four holes under restart_constant(2)
# restart (the statistics say so) and still prove there is no solution;
# four queens under restart_luby(1) with random values still count 2.
pairs() { # the int_ne of every two of the names given
    local i j names=("$@")
    for ((i = 0; i < ${#names[@]}; ++i)); do
        for ((j = i + 1; j < ${#names[@]}; ++j)); do echo "constraint int_ne(${names[i]}, ${names[j]});"; done
    done
}
pigeons=$(model pigeons "
var 1..4: p1; var 1..4: p2; var 1..4: p3; var 1..4: p4; var 1..4: p5;
$(pairs p1 p2 p3 p4 p5)
solve :: int_search([p1, p2, p3, p4, p5], input_order, indomain_random, complete) :: restart_constant(2) satisfy;")
run -s -r 3 "$pigeons"
expect_status 0
expect_line "=====UNSATISFIABLE====="
grep -q '^%%%mzn-stat: restarts=[1-9][0-9]*$' "$out" || problems+=("no restarts in the statistics")
verdict "restart_constant restarts, and the search stays complete"
lucky=$(sed 's/^solve satisfy;$/solve :: int_search([q1, q2, q3, q4], input_order, indomain_random, complete) :: restart_luby(1) satisfy;/' "$queens")
printf '%s\n' "$lucky" >"$work/lucky.fzn"
run -a -r 5 "$work/lucky.fzn"
expect_status 0
[[ $(count_of ----------) -eq 2 ]] || problems+=("$(count_of ----------) solutions, expected 2")
expect_line "=========="
verdict "restart_luby counts every solution once"
geometric=$(model geometric '
var 1..3: x;
solve :: restart_geometric(1.0, 10) satisfy;')
run "$geometric"
expect_status 1
grep -q "^fzn-propane: $geometric:3:28: restart_geometric: a base of 1.0" "$err" ||
    problems+=("stderr does not place the base of restart_geometric")
expect_line "=====ERROR====="
verdict "a restart_geometric base of 1 is refused with its place"

# relax_and_reconstruct under -t: LNS rounds (counted as restarts), each
# solution better than the last, down to the optimum (the least x + 2y
# with x + y >= 3 and x != y: 3, at x = 3, y = 0). A proof is claimed only
# by a round that fixed nothing and exhausted the tree, which may happen.
relax=$(model relax '
var 0..9: x :: output_var;
var 0..9: y :: output_var;
var 0..30: cost :: output_var;
array [1..2] of int: ones = [1, 1];
array [1..3] of int: weights = [1, 2, -1];
constraint int_lin_le([-1, -1], [x, y], -3);
constraint int_ne(x, y);
constraint int_lin_eq(weights, [x, y, cost], 0);
solve :: int_search([x, y], input_order, indomain_max, complete) :: restart_constant(5) :: relax_and_reconstruct([x, y], 50) minimize cost;')
run -s -t 300 "$relax"
expect_status 0
costs=$(grep -o '^cost = [0-9]*' "$out" | cut -d' ' -f3 | tr '\n' ' ')
[[ $costs == *" 3 " || $costs == "3 " ]] || problems+=("costs '$costs' do not end at the optimum 3")
sorted=$(tr ' ' '\n' <<<"$costs" | sed '/^$/d' | sort -rnu | tr '\n' ' ')
[[ $sorted == "$costs" ]] || problems+=("costs '$costs' are not strictly decreasing")
grep -q '^%%%mzn-stat: restarts=[1-9][0-9]*$' "$out" || problems+=("no LNS rounds in the statistics")
verdict "relax_and_reconstruct runs LNS under -t, improving to the optimum"

# Two-term sums are relations between views, as the C++ modelling layer
# posts them (y == x + 3 as rel(y, eq, x + 3)): domain consistent for ==,
# so an offset or scaled variable keeps the holes of the one it follows and
# a test of a value it lost is decided before the search. Each model below
# takes the Boolean first, true first (indomain_max): a bounds-only sum
# would leave b open and fail on b = true; here the search meets no failure.
root_settled() { # name, the constraints tying y (or z) to x, and b's test
    local f
    f=$(model "$1" "
var {0,2,4,6}: x :: output_var;
var -20..20: y :: output_var;
var bool: b :: output_var;
$2
$3
solve :: seq_search([bool_search([b], input_order, indomain_max, complete), int_search([x, y], input_order, indomain_min, complete)]) satisfy;")
    run -a -s "$f"
    expect_status 0
    [[ $(count_of ----------) -eq 4 ]] || problems+=("$(count_of ----------) solutions, expected 4")
    expect_line "b = false;"
    expect_no_line "b = true;"
    grep -q '^%%%mzn-stat: failures=0$' "$out" || problems+=("the search failed: $(grep failures= "$out")")
    expect_line "=========="
    verdict "$1: settled at the root"
}
root_settled offset 'constraint int_lin_eq([1, -1], [y, x], 3);' 'constraint int_eq_reif(y, 4, b);'
root_settled negated 'constraint int_lin_eq([1, 1], [x, y], 10);' 'constraint int_eq_reif(y, 5, b);'
root_settled scaled 'constraint int_lin_eq([2, -1], [x, y], 1);' 'constraint int_eq_reif(y, 4, b);'
root_settled reified_offset 'constraint int_lin_eq([1, -1], [y, x], 3);' 'constraint int_lin_eq_reif([1, -1], [y, x], 2, b);'
root_settled times_constant 'constraint int_times(x, 3, y);' 'constraint int_eq_reif(y, 9, b);'
root_settled set_singletons 'constraint int_lin_eq([1, -1], [y, x], 0);' 'constraint set_in_reif(y, {1, 3, 8}, b);'

# The same, counted: every two-term form of int_lin_eq, _ne, _le, plain,
# _reif and _imp, over domains with holes, has as many solutions as brute
# force finds; and the one-term forms (a zero coefficient), which are a
# bound or a value applied at once.
brute() { # coefficient a, b, rel, c, mode: the solutions of a*x + b*y rel c (under r)
    local a=$1 bb=$2 rel=$3 c=$4 mode=$5 x y r n=0 holds
    for x in -3 -1 0 2 5; do
        for y in -2 1 2 4; do
            local sum=$((a * x + bb * y))
            case $rel in
            eq) holds=$((sum == c)) ;;
            ne) holds=$((sum != c)) ;;
            le) holds=$((sum <= c)) ;;
            esac
            case $mode in
            plain) n=$((n + holds)) ;;
            reif) n=$((n + 1)) ;;
            imp) n=$((n + 1 + holds)) ;;
            esac
        done
    done
    echo "$n"
}
for coeffs in "1 -1" "1 1" "-1 -1" "-1 1" "2 -1" "1 -3" "-2 2" "0 2" "-3 0"; do
    read -r a bb <<<"$coeffs"
    for rel in eq ne le; do
        for c in -1 0 3; do
            for mode in plain reif imp; do
                case $mode in
                plain) call="int_lin_$rel([$a, $bb], [x, y], $c)" ;;
                reif) call="int_lin_${rel}_reif([$a, $bb], [x, y], $c, r)" ;;
                imp) call="int_lin_${rel}_imp([$a, $bb], [x, y], $c, r)" ;;
                esac
                f=$(model two_terms "
var {-3,-1,0,2,5}: x :: output_var;
var {-2,1,2,4}: y :: output_var;
var bool: r :: output_var;
constraint $call;
solve satisfy;")
                run -a "$f"
                expect_status 0
                want=$(brute "$a" "$bb" "$rel" "$c" "$mode")
                # A plain relation leaves r free: each solution twice.
                [[ $mode != plain ]] || want=$((2 * want))
                got=$(count_of ----------)
                [[ $got -eq $want ]] || problems+=("$call: $got solutions, brute force $want")
                if [[ $want -eq 0 ]]; then expect_line "=====UNSATISFIABLE====="; else expect_line "=========="; fi
            done
        done
    done
done
verdict "two-term int_lin_eq, _ne, _le (plain, _reif, _imp) count as brute force"

echo "fzn_cli_test: $passed passed, $failed failed"
((failed == 0))
