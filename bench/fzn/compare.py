#!/usr/bin/env python3
"""Run MiniZinc models with fzn-propane and with Gecode, side by side, and
print a markdown table of statuses, objectives and solver times, plus a
summary, and check that the two solvers agree.

Usage
-----
    python3 bench/fzn/compare.py [options] PATH...
    python3 bench/fzn/compare.py [options] --mzn-benchmarks [DIR]

PATH is one of
  model.mzn            a self-contained model, run alone;
  model.mzn a.dzn ...  data files (.dzn or .json) given right after a model
                       make one instance each with that model;
  DIR                  a directory: each .mzn in it (not one that another
                       .mzn there includes) is run alone if it needs no
                       data, else with each .dzn/.json beside it that
                       assigns all of its parameters.
--mzn-benchmarks [DIR] takes the MiniZinc benchmark library (default: the
  bare git snapshot /work/.mirror/MiniZinc+minizinc-benchmarks/repo, which
  is extracted once to /tmp/fzn-compare-mzb-<commit>/ and reused; a plain
  directory is used as it is).  Every top-level directory is a family; the
  K smallest instances of each family (by the size of the data file, or of
  the model if it needs none) are run, K = --per-family (default 2 here,
  all for directory PATHs).  --families a,b,c restricts to those families.

Options
  --time-limit SEC   solver time limit, passed as -t (default 60);
                     the process is killed at SEC + max(5, SEC/5)
  --flatten-timeout SEC   per flattening (default 120)
  --propane PATH     default build/fzn-propane of this checkout
  --gecode PATH      default: fzn-gecode on PATH
  --propane-msc FILE flatten propane's side with this solver config
                     (default build/fzn/propane.msc of this checkout when it
                     exists and --propane-lib is not given)
  --propane-lib DIR  flatten propane's side with this library instead
                     (fallback default fzn/mznlib of this checkout); "std":
                     MiniZinc's std library alone
  --propane-args / --gecode-args "..."   extra solver options (e.g. "-p 2")
  --jobs N           run N instances at once (default 1; the two solvers
                     of an instance always run one after the other)
  --out FILE.md      also write the report there
  --keep             keep the work directory (flattened models, outputs)

To try the script without fzn-propane, let Gecode stand in for it:
    python3 bench/fzn/compare.py --propane "$(command -v fzn-gecode)" \\
        --propane-lib std --mzn-benchmarks --per-family 1 --time-limit 10

How it runs an instance
  * Flattens it twice with `minizinc -c --solver X.msc` (timed separately,
    not counted in the solver times): for Gecode with a repaired copy of
    Gecode's MiniZinc library (below), for propane with its library.
  * Makes the objective visible by adding `:: output_var` to the variable
    named in the .fzn's solve item, so both solvers print it with the
    solution.  (MiniZinc's --output-objective only adds `_objective` to the
    .ozn, which solns2out would have to compute; it does not make the solver
    print anything.)
  * Runs each solver as `SOLVER [-a] -s -t MS file.fzn`: -a only for
    optimisation, so that every improving solution is printed; satisfaction
    stops at the first solution.  Time = wall time of the solver process.
  * Status: OPT (optimum proven), SAT (a solution; complete for
    satisfaction, an incumbent for optimisation), ALL (search complete for
    satisfaction), UNSAT, UNKNOWN, ERROR (crash or nonzero exit: code and
    stderr tail in the note), UNSUPPORTED (=====UNSUPPORTED=====, or
    =====ERROR===== with "unsupported:" on stderr, or the solver's library
    called abort() while flattening), FLAT-ERR
    (flattening failed otherwise, or timed out).
  * Agreement: UNSAT against a solution is a disagreement; two proven optima
    must be equal; a proven optimum must not be beaten by the other's
    incumbent.  Disagreements are listed after the table and the script
    exits 1 (2 for a usage or setup error, 130 when interrupted).
  * p/g = propane time / Gecode time when both are complete and agree;
    ">x" when only Gecode finished (propane at least x times slower),
    "<x" when only propane did.  When propane is over 2x slower, the note
    shows the top entries of its `%%%mzn-stat: profile=...` statistic.
  * Ctrl-C kills all children (each runs in its own process group) and
    removes the work directory.

Gecode's library
  MiniZinc 2.6.4's std/inverse_fn.mzn (and nvalue_fn.mzn, ...) call
  overloads that Debian's Gecode 6.2 library (/usr/share/minizinc/gecode)
  lacks, so every model including globals.mzn fails to type-check with
  --solver gecode.  At run time this script copies that library, removes
  its old files that shadow std globals with narrower signatures (so the
  std wrappers and their overloads are used), and adds fzn_*.mzn files that
  route std's hooks to the constraints fzn-gecode 6.2 implements natively
  (all_different_int, count, cumulatives, gecode_table_int, inverse_offsets,
  ...).  If even that fails to flatten a probe model, Gecode's side falls
  back to MiniZinc's std library and the report header says so.
"""
import argparse
import concurrent.futures
import json
import math
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

# The checkout this script is in: bench/fzn/compare.py.
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_PROPANE = os.path.join(ROOT, "build", "fzn-propane")
DEFAULT_PROPANE_MSC = os.path.join(ROOT, "build", "fzn", "propane.msc")
DEFAULT_PROPANE_LIB = os.path.join(ROOT, "fzn", "mznlib")
DEFAULT_BENCHMARKS = "/work/.mirror/MiniZinc+minizinc-benchmarks/repo"

COMPLETE = {"OPT", "ALL", "UNSAT"}      # plus SAT for satisfaction problems

# ----------------------------------------------------------------------------
# Repaired Gecode library
# ----------------------------------------------------------------------------

# Files of the Gecode copy that stay: the native builtin declarations,
# annotations, and the three globals whose native FlatZinc name has exactly
# the signature of a std predicate (declaring it again would clash).
GECODE_KEEP = {
    "redefinitions.mzn", "redefinitions-2.0.mzn", "gecode.mzn",
    "maximum_int.mzn", "minimum_int.mzn",
    "all_different_int.mzn", "member_bool.mzn", "sort.mzn",
}

GECODE_NATIVES_FILE = "fzn_compare_gecode_natives.mzn"
GECODE_NATIVES = """\
% Constraints that fzn-gecode 6.2 implements natively, under their FlatZinc
% names (declarations only).  Written by bench/fzn/compare.py.
predicate all_equal_int(array[int] of var int: x);
predicate among(var int: n, array[int] of var int: x, set of int: v);
predicate at_least_int(int: n, array[int] of var int: x, int: v);
predicate at_most_int(int: n, array[int] of var int: x, int: v);
predicate count(array[int] of var int: x, var int: y, var int: c);
predicate count_reif(array[int] of var int: x, var int: y, var int: c, var bool: b);
predicate cumulatives(array[int] of var int: s, array[int] of var int: d,
                      array[int] of var int: r, var int: b);
predicate increasing_int(array[int] of var int: x);
predicate decreasing_int(array[int] of var int: x);
predicate increasing_bool(array[int] of var bool: x);
predicate decreasing_bool(array[int] of var bool: x);
predicate global_cardinality_low_up(array[int] of var int: x, array[int] of int: cover,
                                    array[int] of int: lbound, array[int] of int: ubound);
predicate global_cardinality_low_up_closed(array[int] of var int: x, array[int] of int: cover,
                                           array[int] of int: lbound, array[int] of int: ubound);
predicate inverse_offsets(array[int] of var int: f, int: foff,
                          array[int] of var int: invf, int: invfoff);
predicate array_int_lt(array[int] of var int: x, array[int] of var int: y);
predicate array_int_lq(array[int] of var int: x, array[int] of var int: y);
predicate array_bool_lt(array[int] of var bool: x, array[int] of var bool: y);
predicate array_bool_lq(array[int] of var bool: x, array[int] of var bool: y);
predicate member_int(array[int] of var int: x, var int: y);
predicate nvalue(var int: n, array[int] of var int: x);
predicate gecode_member_int_reif(array[int] of var int: x, var int: y, var bool: b);
predicate gecode_member_bool_reif(array[int] of var bool: x, var bool: y, var bool: b);
predicate gecode_maximum_arg_int_offset(array[int] of var int: x, int: offset, var int: i);
predicate gecode_minimum_arg_int_offset(array[int] of var int: x, int: offset, var int: i);
predicate gecode_maximum_arg_bool_offset(array[int] of var bool: x, int: offset, var int: i);
predicate gecode_minimum_arg_bool_offset(array[int] of var bool: x, int: offset, var int: i);
predicate gecode_circuit(int: offset, array[int] of var int: x);
predicate gecode_nooverlap(array[int] of var int: x, array[int] of var int: w,
                           array[int] of var int: y, array[int] of var int: h);
predicate gecode_global_cardinality(array[int] of var int: x, array[int] of int: cover,
                                    array[int] of var int: counts);
predicate gecode_global_cardinality_closed(array[int] of var int: x, array[int] of int: cover,
                                           array[int] of var int: counts);
predicate gecode_regular(array[int] of var int: x, int: Q, int: S,
                         array[int] of int: d, int: q0, set of int: F);
predicate gecode_table_int(array[int] of var int: x, array[int] of int: t);
predicate gecode_table_int_reif(array[int] of var int: x, array[int] of int: t, var bool: b);
predicate gecode_table_int_imp(array[int] of var int: x, array[int] of int: t, var bool: b);
predicate gecode_table_bool(array[int] of var bool: x, array[int] of bool: t);
predicate gecode_table_bool_reif(array[int] of var bool: x, array[int] of bool: t, var bool: b);
predicate gecode_table_bool_imp(array[int] of var bool: x, array[int] of bool: t, var bool: b);
predicate gecode_precede(array[int] of var int: x, int: s, int: t);
predicate gecode_bin_packing_load(array[int] of var int: l, array[int] of var int: bin,
                                  array[int] of int: w, int: minIndex);
"""

# std hook file -> its replacement (after an include of GECODE_NATIVES_FILE).
# Each was checked against std's decomposition by enumerating all solutions
# of small models (same solution sets).
GECODE_HOOKS = {
    "fzn_all_different_int": """\
include "all_different_int.mzn";
predicate fzn_all_different_int(array[int] of var int: x) = all_different_int(x);""",
    "fzn_all_equal_int": """\
predicate fzn_all_equal_int(array[int] of var int: x) = all_equal_int(x);""",
    "fzn_among": """\
predicate fzn_among(var int: n, array[int] of var int: x, set of int: v) = among(n, x, v);""",
    "fzn_at_least_int": """\
predicate fzn_at_least_int(int: n, array[int] of var int: x, int: v) = at_least_int(n, x, v);""",
    "fzn_at_most_int": """\
predicate fzn_at_most_int(int: n, array[int] of var int: x, int: v) = at_most_int(n, x, v);""",
    "fzn_exactly_int": """\
predicate fzn_exactly_int(int: n, array[int] of var int: x, int: v) = count(x, v, n);""",
    "fzn_count_eq": """\
predicate fzn_count_eq(array[int] of var int: x, var int: y, var int: c) = count(x, y, c);""",
    "fzn_count_eq_reif": """\
predicate fzn_count_eq_reif(array[int] of var int: x, var int: y, var int: c, var bool: b) =
    count_reif(x, y, c, b);""",
    "fzn_increasing_int": """\
predicate fzn_increasing_int(array[int] of var int: x) = increasing_int(x);""",
    "fzn_decreasing_int": """\
predicate fzn_decreasing_int(array[int] of var int: x) = decreasing_int(x);""",
    "fzn_increasing_bool": """\
predicate fzn_increasing_bool(array[int] of var bool: x) = increasing_bool(x);""",
    "fzn_decreasing_bool": """\
predicate fzn_decreasing_bool(array[int] of var bool: x) = decreasing_bool(x);""",
    "fzn_arg_max_int": """\
predicate fzn_maximum_arg_int(array[int] of var int: x, var int: z) =
    gecode_maximum_arg_int_offset(x, min(index_set(x)), z);""",
    "fzn_arg_min_int": """\
predicate fzn_minimum_arg_int(array[int] of var int: x, var int: z) =
    gecode_minimum_arg_int_offset(x, min(index_set(x)), z);""",
    "fzn_arg_max_bool": """\
predicate fzn_maximum_arg_bool(array[int] of var bool: x, var int: z) =
    gecode_maximum_arg_bool_offset(x, min(index_set(x)), z);""",
    "fzn_arg_min_bool": """\
predicate fzn_minimum_arg_bool(array[int] of var bool: x, var int: z) =
    gecode_minimum_arg_bool_offset(x, min(index_set(x)), z);""",
    "fzn_circuit": """\
predicate fzn_circuit(array[int] of var int: x) =
    let { int: lo = min(index_set(x)) } in
    if lo >= 0 then gecode_circuit(lo, x)
    else gecode_circuit(0, [x[i] - lo | i in index_set(x)]) endif;""",
    # Gecode's cumulative does not let a zero-duration task sit inside a
    # busy interval, while MiniZinc's cumulative and (non-strict)
    # disjunctive ignore such tasks: the native propagator is used when
    # no remaining duration can be zero, else a task decomposition.
    "fzn_cumulative": """\
predicate fzn_cumulative(array[int] of var int: s, array[int] of var int: d,
                         array[int] of var int: r, var int: b) =
    let { set of int: T = {i | i in index_set(s) where ub(r[i]) > 0 /\\ ub(d[i]) > 0} } in
    if card(T) = 0 then length(s) = 0 \\/ b >= 0
    elseif forall (i in T) (lb(d[i]) >= 1) then
        cumulatives([s[i] | i in T], [d[i] | i in T], [r[i] | i in T], b)
    else
        forall (j in T) ((d[j] > 0 /\\ r[j] > 0) ->
            r[j] + sum (i in T where i != j) (
                bool2int(d[i] > 0 /\\ s[i] <= s[j] /\\ s[j] < s[i] + d[i]) * r[i]) <= b)
    endif;""",
    "fzn_disjunctive": """\
predicate fzn_disjunctive(array[int] of var int: s, array[int] of var int: d) =
    forall (i in index_set(d)) (d[i] >= 0) /\\
    let { set of int: T = {i | i in index_set(s) where ub(d[i]) > 0} } in
    if forall (i in T) (lb(d[i]) >= 1) then
        cumulatives([s[i] | i in T], [d[i] | i in T], [1 | i in T], 1)
    else
        forall (i, j in T where i < j) (
            d[i] = 0 \\/ d[j] = 0 \\/ s[i] + d[i] <= s[j] \\/ s[j] + d[j] <= s[i])
    endif;""",
    "fzn_disjunctive_strict": """\
predicate fzn_disjunctive_strict(array[int] of var int: s, array[int] of var int: d) =
    forall (i in index_set(d)) (d[i] >= 0) /\\
    if forall (i in index_set(d)) (lb(d[i]) >= 1) then
        cumulatives(s, d, [1 | i in index_set(s)], 1)
    else
        forall (i, j in index_set(d) where i < j) (s[i] + d[i] <= s[j] \\/ s[j] + d[j] <= s[i])
    endif;""",
    # Likewise Gecode's nooverlap lets empty rectangles go anywhere, which
    # MiniZinc's (strict) diffn does not.
    "fzn_diffn": """\
predicate fzn_diffn(array[int] of var int: x, array[int] of var int: y,
                    array[int] of var int: dx, array[int] of var int: dy) =
    if forall (i in index_set(x)) (lb(dx[i]) >= 1 /\\ lb(dy[i]) >= 1) then
        gecode_nooverlap(x, dx, y, dy)
    else
        forall (i, j in index_set(x) where i < j) (
            x[i] + dx[i] <= x[j] \\/ y[i] + dy[i] <= y[j] \\/
            x[j] + dx[j] <= x[i] \\/ y[j] + dy[j] <= y[i])
    endif;""",
    "fzn_global_cardinality": """\
predicate fzn_global_cardinality(array[int] of var int: x, array[int] of int: cover,
                                 array[int] of var int: counts) =
    gecode_global_cardinality(x, cover, counts);""",
    "fzn_global_cardinality_closed": """\
predicate fzn_global_cardinality_closed(array[int] of var int: x, array[int] of int: cover,
                                        array[int] of var int: counts) =
    gecode_global_cardinality_closed(x, cover, counts);""",
    "fzn_global_cardinality_low_up": """\
predicate fzn_global_cardinality_low_up(array[int] of var int: x, array[int] of int: cover,
        array[int] of int: lbound, array[int] of int: ubound) =
    global_cardinality_low_up(x, cover, lbound, ubound);""",
    "fzn_global_cardinality_low_up_closed": """\
predicate fzn_global_cardinality_low_up_closed(array[int] of var int: x, array[int] of int: cover,
        array[int] of int: lbound, array[int] of int: ubound) =
    global_cardinality_low_up_closed(x, cover, lbound, ubound);""",
    "fzn_inverse": """\
predicate fzn_inverse(array[int] of var int: f, array[int] of var int: invf) =
    inverse_offsets(f, min(index_set(invf)), invf, min(index_set(f)));""",
    "fzn_lex_less_int": """\
predicate fzn_lex_less_int(array[int] of var int: x, array[int] of var int: y) = array_int_lt(x, y);""",
    "fzn_lex_lesseq_int": """\
predicate fzn_lex_lesseq_int(array[int] of var int: x, array[int] of var int: y) = array_int_lq(x, y);""",
    "fzn_lex_less_bool": """\
predicate fzn_lex_less_bool(array[int] of var bool: x, array[int] of var bool: y) = array_bool_lt(x, y);""",
    "fzn_lex_lesseq_bool": """\
predicate fzn_lex_lesseq_bool(array[int] of var bool: x, array[int] of var bool: y) = array_bool_lq(x, y);""",
    "fzn_member_int": """\
predicate fzn_member_int(array[int] of var int: x, var int: y) = member_int(x, y);""",
    "fzn_member_int_reif": """\
predicate fzn_member_int_reif(array[int] of var int: x, var int: y, var bool: b) =
    gecode_member_int_reif(x, y, b);""",
    "fzn_member_bool": """\
include "member_bool.mzn";
predicate fzn_member_bool(array[int] of var bool: x, var bool: y) = member_bool(x, y);""",
    "fzn_member_bool_reif": """\
predicate fzn_member_bool_reif(array[int] of var bool: x, var bool: y, var bool: b) =
    gecode_member_bool_reif(x, y, b);""",
    "fzn_nvalue": """\
predicate fzn_nvalue(var int: n, array[int] of var int: x) = nvalue(n, x);""",
    "fzn_regular": """\
predicate fzn_regular(array[int] of var int: x, int: Q, int: S,
                      array[int,int] of int: d, int: q0, set of int: F) =
    gecode_regular(x, Q, S, array1d(d), q0, F);""",
    "fzn_table_int": """\
predicate fzn_table_int(array[int] of var int: x, array[int,int] of int: t) =
    gecode_table_int(x, array1d(t));""",
    "fzn_table_int_reif": """\
predicate fzn_table_int_reif(array[int] of var int: x, array[int,int] of int: t, var bool: b) =
    gecode_table_int_reif(x, array1d(t), b);""",
    "fzn_table_int_imp": """\
predicate fzn_table_int_imp(array[int] of var int: x, array[int,int] of int: t, var bool: b) =
    gecode_table_int_imp(x, array1d(t), b);""",
    "fzn_table_bool": """\
predicate fzn_table_bool(array[int] of var bool: x, array[int,int] of bool: t) =
    gecode_table_bool(x, array1d(t));""",
    "fzn_table_bool_reif": """\
predicate fzn_table_bool_reif(array[int] of var bool: x, array[int,int] of bool: t, var bool: b) =
    gecode_table_bool_reif(x, array1d(t), b);""",
    "fzn_table_bool_imp": """\
predicate fzn_table_bool_imp(array[int] of var bool: x, array[int,int] of bool: t, var bool: b) =
    gecode_table_bool_imp(x, array1d(t), b);""",
    "fzn_value_precede_int": """\
predicate fzn_value_precede_int(int: s, int: t, array[int] of var int: x) = gecode_precede(x, s, t);""",
    "fzn_bin_packing_load": """\
predicate fzn_bin_packing_load(array[int] of var int: load, array[int] of var int: bin,
                               array[int] of int: w) =
    gecode_bin_packing_load(load, bin, w, min(index_set(load)));""",
    "fzn_bin_packing_capa": """\
predicate fzn_bin_packing_capa(array[int] of int: c, array[int] of var int: bin,
                               array[int] of int: w) =
    gecode_bin_packing_load(array1d(index_set(c), [let { var 0..c[b]: l } in l | b in index_set(c)]),
                            bin, w, min(index_set(c)));""",
    "fzn_bin_packing": """\
predicate fzn_bin_packing(int: c, array[int] of var int: bin, array[int] of int: w) =
    if length(bin) = 0 then true else
    let { int: lo = lb_array(bin), int: hi = ub_array(bin) } in
    gecode_bin_packing_load([let { var 0..c: l } in l | b in lo..hi], bin, w, lo)
    endif;""",
}

# Exercises the std overloads that break with the unrepaired library.
PROBE_MODEL = """\
include "globals.mzn";
array[1..4] of var 1..4: f;
array[1..4] of var 1..4: g = inverse(f);
var 1..4: n = nvalue(f);
constraint all_different(f);
constraint count(f, 2) = 1;
solve minimize n + g[1];
"""


def die(msg):
    print(f"compare.py: {msg}", file=sys.stderr)
    sys.exit(2)


def minizinc_share_dir():
    try:
        out = subprocess.run(["minizinc", "--config-dirs"], capture_output=True,
                             text=True, timeout=30).stdout
        return json.loads(out)["mznStdlibDir"]
    except Exception:
        return "/usr/share/minizinc"


def build_gecode_library(dest):
    """The repaired copy of Gecode's MiniZinc library, in dest."""
    share = minizinc_share_dir()
    src, std = os.path.join(share, "gecode"), os.path.join(share, "std")
    shutil.copytree(src, dest)
    for name in os.listdir(dest):
        if name not in GECODE_KEEP and os.path.exists(os.path.join(std, name)):
            os.remove(os.path.join(dest, name))
    with open(os.path.join(dest, GECODE_NATIVES_FILE), "w") as f:
        f.write(GECODE_NATIVES)
    for hook, body in GECODE_HOOKS.items():
        with open(os.path.join(dest, hook + ".mzn"), "w") as f:
            f.write(f'include "{GECODE_NATIVES_FILE}";\n{body}\n')


def write_msc(path, ident, executable, mznlib):
    """A solver configuration; used only to flatten (mznlib None: std only)."""
    conf = {
        "id": ident, "name": ident, "version": "0", "executable": executable,
        "tags": ["cp", "int"], "stdFlags": ["-a", "-f", "-n", "-p", "-r", "-s", "-t"],
        "supportsMzn": False, "supportsFzn": True, "needsSolns2Out": True,
    }
    if mznlib:
        conf["mznlib"] = mznlib
    with open(path, "w") as f:
        json.dump(conf, f, indent=1)


# ----------------------------------------------------------------------------
# Child processes: every one in its own process group, killed on Ctrl-C
# ----------------------------------------------------------------------------

class Children:
    def __init__(self):
        self.lock = threading.Lock()
        self.procs = set()
        self.stopping = False

    def run(self, cmd, timeout, stdout, stderr, env=None):
        """Runs cmd; returns (returncode, wall seconds, killed by timeout)."""
        with self.lock:
            if self.stopping:
                raise KeyboardInterrupt
            start = time.perf_counter()
            proc = subprocess.Popen(cmd, stdout=stdout, stderr=stderr,
                                    stdin=subprocess.DEVNULL, env=env,
                                    start_new_session=True)
            self.procs.add(proc)
        killed = False
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            killed = True
            self.kill(proc)
        wall = time.perf_counter() - start
        with self.lock:
            self.procs.discard(proc)
            if self.stopping:
                raise KeyboardInterrupt
        return proc.returncode, wall, killed

    @staticmethod
    def kill(proc):
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(proc.pid, sig)
            except (ProcessLookupError, PermissionError):
                pass
            try:
                proc.wait(timeout=3)
                return
            except subprocess.TimeoutExpired:
                continue

    def kill_all(self):
        with self.lock:
            self.stopping = True
            procs = list(self.procs)
        for proc in procs:
            self.kill(proc)


CHILDREN = Children()

# ----------------------------------------------------------------------------
# Instances
# ----------------------------------------------------------------------------


class Instance:
    def __init__(self, name, model, data=None, size=0):
        self.name, self.model, self.data, self.size = name, model, data, size


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"%[^\n]*", "", text)


def data_names(path):
    """Names a .dzn or .json data file assigns."""
    try:
        with open(path, errors="replace") as f:
            text = f.read()
    except OSError:
        return set()
    if path.endswith(".json"):
        try:
            obj = json.loads(text)
            return set(obj) if isinstance(obj, dict) else set()
        except ValueError:
            return set()
    text = strip_comments(text)
    return set(re.findall(r"(?:\A|;)\s*([A-Za-z_]\w*)\s*=(?!=)", text))


def model_inputs(model, mscs):
    """The parameters a model needs from data, or None if MiniZinc can't tell."""
    for msc in mscs:
        try:
            r = subprocess.run(["minizinc", "--model-interface-only", "--solver", msc, model],
                               capture_output=True, text=True, timeout=60)
            if r.returncode == 0:
                return set(json.loads(r.stdout)["input"])
        except (subprocess.TimeoutExpired, ValueError, KeyError):
            pass
    return None


def included_names(models):
    names = set()
    for m in models:
        try:
            with open(m, errors="replace") as f:
                text = strip_comments(f.read())
        except OSError:
            continue
        names.update(os.path.basename(x) for x in re.findall(r'\binclude\s+"([^"]+)"', text))
    return names


def pair_models_and_data(models, datas, mscs, label, per_family, base):
    """Instances from the models and data files of one family/directory."""
    included = included_names(models)
    models = [m for m in sorted(models) if os.path.basename(m) not in included]
    names_of = {d: data_names(d) for d in datas}
    cands = []
    for m in models:
        # without data files around, every model has to be self-contained
        inputs = model_inputs(m, mscs) if datas else set()
        rel_m = os.path.relpath(m, base)
        if inputs is None or not inputs:
            # self-contained (or MiniZinc can't read it: its flattening
            # error will show in the table)
            cands.append(Instance(f"{label}/{rel_m}", m, None, os.path.getsize(m)))
            continue
        for d in sorted(datas):
            if inputs <= names_of[d]:
                rel_d = os.path.relpath(d, base)
                cands.append(Instance(f"{label}/{rel_m}+{rel_d}", m, d, os.path.getsize(d)))
    cands.sort(key=lambda i: (i.size, i.name))
    if per_family:
        cands = cands[:per_family]
    return sorted(cands, key=lambda i: i.name)


def scan_dir(path):
    models, datas = [], []
    for root, dirs, files in os.walk(path):
        dirs.sort()
        for f in sorted(files):
            p = os.path.join(root, f)
            if f.endswith(".mzn"):
                models.append(p)
            elif f.endswith(".dzn") or f.endswith(".json"):
                datas.append(p)
    return models, datas


def extract_benchmarks(src):
    """A work tree of the benchmark library (extracting a bare git dir once)."""
    if not os.path.exists(os.path.join(src, "HEAD")) or not os.path.isdir(os.path.join(src, "objects")):
        return src, 0
    git = ["git", f"--git-dir={src}"]
    commit = subprocess.run(git + ["rev-parse", "HEAD"], capture_output=True, text=True,
                            check=True).stdout.strip()
    dest = f"/tmp/fzn-compare-mzb-{commit[:12]}"
    marker = os.path.join(dest, ".fzn-compare-complete")
    if os.path.exists(marker):
        with open(marker) as f:
            return dest, int(f.read().strip() or 0)
    print(f"extracting {src} to {dest} ...", file=sys.stderr)
    tmp = dest + f".part{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    listing = subprocess.run(git + ["ls-tree", "-r", "-z", "HEAD"], capture_output=True,
                             check=True).stdout.split(b"\0")
    entries = []
    for e in listing:
        if not e:
            continue
        meta, path = e.split(b"\t", 1)
        mode, kind, sha = meta.split()
        if kind == b"blob":
            entries.append((sha.decode(), path.decode(errors="replace")))
    # stream all blobs through one cat-file process; missing ones are skipped
    proc = subprocess.Popen(git + ["cat-file", "--batch"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE)
    feeder = threading.Thread(target=lambda: (proc.stdin.write(
        "".join(sha + "\n" for sha, _ in entries).encode()), proc.stdin.close()))
    feeder.start()
    missing = 0
    try:
        missing = write_blobs(proc, entries, tmp)
    except BaseException:
        proc.kill()
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    feeder.join()
    proc.wait()
    with open(os.path.join(tmp, ".fzn-compare-complete"), "w") as f:
        f.write(str(missing))
    try:
        os.rename(tmp, dest)
    except OSError:  # another run got there first
        shutil.rmtree(tmp, ignore_errors=True)
    return dest, missing


def write_blobs(proc, entries, tmp):
    missing = 0
    for sha, path in entries:
        header = proc.stdout.readline().split()
        if len(header) < 2 or header[1] == b"missing":
            missing += 1
            continue
        size = int(header[2])
        blob = proc.stdout.read(size)
        proc.stdout.read(1)
        out = os.path.join(tmp, path)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(out, "wb") as f:
            f.write(blob)
    return missing


def collect_instances(args, mscs):
    instances, notes = [], []
    last_model = None
    for p in args.paths:
        if os.path.isdir(p):
            models, datas = scan_dir(p)
            label = os.path.basename(os.path.normpath(p))
            instances += pair_models_and_data(models, datas, mscs, label, args.per_family,
                                              os.path.normpath(p))
            last_model = None
        elif p.endswith(".mzn"):
            instances.append(Instance(os.path.basename(p), os.path.abspath(p), None,
                                      os.path.getsize(p)))
            last_model = instances[-1]
        elif p.endswith(".dzn") or p.endswith(".json"):
            if last_model is None:
                die(f"data file {p} must follow a .mzn file")
            if last_model.data is None and instances[-1] is last_model:
                instances.pop()  # the model alone was only a placeholder
            instances.append(Instance(f"{os.path.basename(last_model.model)}+{os.path.basename(p)}",
                                      last_model.model, os.path.abspath(p), os.path.getsize(p)))
        else:
            die(f"don't know what to do with {p}")
    if args.mzn_benchmarks:
        root, missing = extract_benchmarks(args.mzn_benchmarks)
        k = args.per_family if args.per_family is not None else 2
        wanted = set(args.families.split(",")) if args.families else None
        fams = sorted(d for d in os.listdir(root)
                      if os.path.isdir(os.path.join(root, d)) and not d.startswith("."))
        if wanted:
            unknown = wanted - set(fams)
            if unknown:
                die(f"no such families: {', '.join(sorted(unknown))}")
            fams = [f for f in fams if f in wanted]
        notes.append(f"benchmark library: {args.mzn_benchmarks} -> {root}"
                     + (f" ({missing} files missing from the snapshot)" if missing else "")
                     + f"; {len(fams)} families, {k} smallest instance(s) each")
        empty = []
        for fam in fams:
            models, datas = scan_dir(os.path.join(root, fam))
            got = pair_models_and_data(models, datas, mscs, fam, k, os.path.join(root, fam))
            if not got:
                empty.append(fam)
            instances += got
        if empty:
            notes.append(f"families without a runnable instance: {', '.join(empty)}")
    return instances, notes

# ----------------------------------------------------------------------------
# Flattening and solving
# ----------------------------------------------------------------------------


class Side:
    """What happened to one solver on one instance."""

    def __init__(self):
        self.status = "FLAT-ERR"
        self.kind = None          # 'sat', 'min' or 'max'
        self.objective = None
        self.solutions = 0
        self.time = None
        self.flatten_time = None
        self.note = ""
        self.stats = {}
        self.objective_name = None
        self.flattened = False

    def complete(self):
        return self.status in COMPLETE or (self.status == "SAT" and self.kind == "sat")

    def has_solution(self):
        return self.status in ("SAT", "OPT", "ALL") and self.solutions > 0


def first_error_line(text):
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    for i, l in enumerate(lines):
        if "Error" in l or "error:" in l:
            return l + (" " + lines[i + 1] if i + 1 < len(lines) and len(l) < 40 else "")
    return lines[-1] if lines else ""


def tail(path, n=2):
    try:
        with open(path, errors="replace") as f:
            f.seek(max(0, os.path.getsize(path) - 4000))
            lines = [l.strip() for l in f.read().splitlines() if l.strip()]
        lines = [l for l in lines if not l.startswith("Warning")]
        return " / ".join(lines[-n:])
    except OSError:
        return ""


SOLVE_RE = re.compile(r"\b(minimize|maximize)\s+([A-Za-z_][A-Za-z0-9_]*|-?[0-9][0-9.eE+-]*)\s*;\s*$")


def expose_objective(fzn):
    """Reads the solve item; marks the objective variable :: output_var.
    Returns (kind, objective name or literal)."""
    with open(fzn, errors="replace") as f:
        lines = f.readlines()
    kind, obj = None, None
    for line in reversed(lines):
        if line.startswith("solve"):
            m = SOLVE_RE.search(line)
            if m:
                kind, obj = ("min" if m.group(1) == "minimize" else "max"), m.group(2)
            elif re.search(r"\bsatisfy\s*;", line):
                kind = "sat"
            break
    if kind in ("min", "max") and re.match(r"[A-Za-z_]", obj):
        decl = re.compile(r"^(var\b[^:]*:\s*" + re.escape(obj) + r")(?=\s*(::|=|;))")
        for i, line in enumerate(lines):
            if line.startswith("var") and decl.match(line):
                if "output_var" not in line:
                    lines[i] = decl.sub(r"\1 :: output_var", line, count=1)
                    with open(fzn, "w") as f:
                        f.writelines(lines)
                break
    return kind, obj


def flatten(inst, msc, fzn, timeout, log):
    side = Side()
    cmd = ["minizinc", "-c", "--solver", msc, inst.model] + ([inst.data] if inst.data else [])
    cmd += ["--fzn", fzn, "--ozn", fzn[:-4] + ".ozn"]
    with open(log, "w") as err:
        rc, wall, killed = CHILDREN.run(cmd, timeout, subprocess.DEVNULL, err)
    side.flatten_time = wall
    if killed:
        side.note = f"flattening timed out after {timeout:.0f} s"
    elif rc != 0 or not os.path.exists(fzn):
        with open(log, errors="replace") as f:
            text = f.read()
        side.note = "flatten: " + first_error_line(text)
        # a solver library refusing a construct calls abort(): unsupported
        if "Abort:" in text:
            side.status = "UNSUPPORTED"
    else:
        side.status, side.flattened = None, True
        side.kind, side.objective_name = expose_objective(fzn)
        if side.kind is None:
            side.status, side.note = "FLAT-ERR", "no solve item found in the .fzn"
    return side


def parse_value(text):
    text = text.strip()
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return text


def better(a, b, kind):
    """Is objective a strictly better than b?"""
    if not isinstance(a, (int, float)) or not isinstance(b, (int, float)):
        return False
    tol = 1e-6 * max(1.0, abs(a), abs(b)) if isinstance(a, float) or isinstance(b, float) else 0
    return a < b - tol if kind == "min" else a > b + tol


def same(a, b):
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return abs(a - b) <= (1e-6 * max(1.0, abs(a), abs(b)) if isinstance(a, float) or isinstance(b, float) else 0)
    return a == b


def solve(side, exe, extra, fzn, time_limit, out, err):
    if side.status is not None:
        return side
    cmd = [exe] + (["-a"] if side.kind in ("min", "max") else []) + extra
    cmd += ["-s", "-t", str(int(time_limit * 1000)), fzn]
    hard = time_limit + max(5.0, time_limit / 5)
    with open(out, "w") as o, open(err, "w") as e:
        rc, wall, killed = CHILDREN.run(cmd, hard, o, e)
    side.time = wall
    objname = side.objective_name
    obj_re = re.compile(r"^" + re.escape(objname) + r"\s*=\s*(.*?);\s*$") if (
        objname and re.match(r"[A-Za-z_]", objname)) else None
    current, status_line, finished = None, None, False
    with open(out, errors="replace") as f:
        for line in f:
            s = line.strip()
            if s == "----------":
                side.solutions += 1
                if side.kind in ("min", "max") and obj_re is None and objname is not None:
                    current = parse_value(objname)  # constant objective
                if current is not None and (side.objective is None or side.kind == "sat"
                                            or not better(side.objective, current, side.kind)):
                    side.objective = current
                current = None
            elif s == "==========":
                finished = True
            elif s.startswith("=====") and s.endswith("=====") and len(s) > 10:
                status_line = s.strip("=")
            elif s.startswith("%%%mzn-stat:"):
                k, _, v = s[len("%%%mzn-stat:"):].strip().partition("=")
                side.stats[k.strip()] = v.strip()
            elif obj_re is not None:
                m = obj_re.match(s)
                if m:
                    current = parse_value(m.group(1))
    if side.kind == "sat":
        side.objective = None
    if status_line == "UNSUPPORTED" or (status_line == "ERROR" and "unsupported:" in (tail(err) or "")):
        # fzn-propane prints =====ERROR===== and says "unsupported: ..." on
        # stderr for a model it cannot run (a float or set variable).
        side.status = "UNSUPPORTED"
        side.note = tail(err, 1) or "unsupported"
    elif killed:
        side.status = "SAT" if side.solutions else "UNKNOWN"
        side.note = f"killed at the hard limit ({hard:.0f} s)"
    elif rc != 0:
        side.status = "ERROR"
        code = (f"signal {signal.Signals(-rc).name}" if rc < 0 and -rc in signal.valid_signals()
                else f"exit {rc}")
        side.note = f"{code}: {tail(err) or tail(out)}"
    elif status_line in ("UNSATISFIABLE", "UNSATorUNBOUNDED"):
        side.status = "UNSAT"
        if status_line != "UNSATISFIABLE":
            side.note = status_line
    elif status_line == "UNBOUNDED":
        side.status, side.note = "UNKNOWN", "UNBOUNDED"
    elif status_line == "ERROR":
        side.status, side.note = "ERROR", tail(err) or "=====ERROR====="
    elif side.solutions:
        side.status = ("OPT" if side.kind in ("min", "max") else "ALL") if finished else "SAT"
    else:
        side.status = "UNKNOWN"
    return side


def agreement(p, g):
    """(compared, disagreement text or None)."""
    usable = {"SAT", "OPT", "ALL", "UNSAT"}
    if p.status not in usable or g.status not in usable:
        return False, None
    if p.status == "UNSAT" and g.has_solution():
        return True, "propane says UNSAT, Gecode found a solution"
    if g.status == "UNSAT" and p.has_solution():
        return True, "Gecode says UNSAT, propane found a solution"
    if p.status == "UNSAT" or g.status == "UNSAT":
        return True, None
    if p.kind != g.kind:
        return True, f"solve items differ (propane {p.kind}, Gecode {g.kind})"
    if p.kind == "sat":
        return True, None
    if p.status == "OPT" and g.status == "OPT":
        if not same(p.objective, g.objective):
            return True, f"optima differ: propane {p.objective}, Gecode {g.objective}"
        return True, None
    if p.status == "OPT" and better(g.objective, p.objective, p.kind):
        return True, f"Gecode's {g.objective} beats propane's proven optimum {p.objective}"
    if g.status == "OPT" and better(p.objective, g.objective, g.kind):
        return True, f"propane's {p.objective} beats Gecode's proven optimum {g.objective}"
    return p.status == "OPT" or g.status == "OPT", None


def top_profile(stats, n=2):
    prof = stats.get("profile", "").strip().strip('"')
    items = []
    for part in prof.split(","):
        name, _, runs = part.rpartition(":")
        if name:
            try:
                items.append((int(float(runs)), name.strip()))
            except ValueError:
                items.append((0, name.strip()))
    items.sort(key=lambda x: -x[0])
    return ", ".join(f"{name}:{runs}" for runs, name in items[:n])


class Result:
    def __init__(self, inst):
        self.inst = inst
        self.p = self.g = None
        self.ratio = None
        self.compared = False
        self.disagreement = None
        self.note = ""


def run_instance(idx, inst, cfg):
    wdir = os.path.join(cfg.workdir, f"{idx:04d}")
    os.makedirs(wdir, exist_ok=True)
    res = Result(inst)
    try:
        res.g = flatten(inst, cfg.gecode_msc, os.path.join(wdir, "g.fzn"), cfg.flatten_timeout,
                        os.path.join(wdir, "g.flat.log"))
        res.p = flatten(inst, cfg.propane_msc, os.path.join(wdir, "p.fzn"), cfg.flatten_timeout,
                        os.path.join(wdir, "p.flat.log"))
        # the two solvers one right after the other, never together
        solve(res.p, cfg.propane, cfg.propane_args, os.path.join(wdir, "p.fzn"), cfg.time_limit,
              os.path.join(wdir, "p.out"), os.path.join(wdir, "p.err"))
        solve(res.g, cfg.gecode, cfg.gecode_args, os.path.join(wdir, "g.fzn"), cfg.time_limit,
              os.path.join(wdir, "g.out"), os.path.join(wdir, "g.err"))
    finally:
        if not cfg.keep:
            shutil.rmtree(wdir, ignore_errors=True)
    p, g = res.p, res.g
    res.compared, res.disagreement = agreement(p, g)
    notes = []
    if res.disagreement:
        notes.append(f"**DISAGREEMENT: {res.disagreement}**")
    slower = None
    if p.complete() and g.complete() and p.time and g.time and not res.disagreement:
        res.ratio = p.time / g.time
        slower = res.ratio > 2
    elif g.complete() and p.status in ("SAT", "UNKNOWN") and p.time and g.time:
        slower = True   # propane ran out of time where Gecode finished
    if slower:
        prof = top_profile(p.stats)
        if prof:
            notes.append(f"propane top: {prof}")
    for who, side in (("propane", p), ("gecode", g)):
        if side.note:
            notes.append(f"{who}: {side.note}")
    res.note = "; ".join(notes)
    return res

# ----------------------------------------------------------------------------
# Report
# ----------------------------------------------------------------------------


def cell(text, limit=220):
    text = " ".join(str(text).split())
    if len(text) > limit:
        text = text[:limit - 3] + "..."
    return text.replace("|", "\\|")


def fmt_obj(side):
    if side.objective is None:
        return ""
    if isinstance(side.objective, float):
        return f"{side.objective:.6g}"
    return str(side.objective)


def fmt_time(t):
    return "" if t is None else f"{t:.2f}"


def fmt_ratio(res, limit):
    if res.ratio is not None:
        return f"{res.ratio:.2f}"
    if res.disagreement:
        return ""
    p, g = res.p, res.g
    if g.complete() and not p.complete() and p.status in ("SAT", "UNKNOWN") and g.time:
        return f">{p.time / g.time:.1f}"
    if p.complete() and not g.complete() and g.status in ("SAT", "UNKNOWN") and p.time:
        return f"<{p.time / g.time:.2f}" if g.time else ""
    return ""


def brief(side):
    parts = [side.status, fmt_obj(side), f"{side.time:.2f}s" if side.time is not None else ""]
    return " ".join(x for x in parts if x)


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def report(results, header_lines, cfg, elapsed):
    out = []
    out.append("# fzn-propane vs Gecode")
    out.append("")
    for h in header_lines:
        out.append(f"- {h}")
    out.append("")
    out.append("| # | instance | kind | propane | obj | time s | gecode | obj | time s | p/g | flatten s p/g | note |")
    out.append("|---|---|---|---|---|---:|---|---|---:|---:|---|---|")
    for i, r in enumerate(results, 1):
        p, g = r.p, r.g
        kind = p.kind or g.kind or ""
        flat = f"{fmt_time(p.flatten_time)}/{fmt_time(g.flatten_time)}"
        out.append(f"| {i} | {cell(r.inst.name, 90)} | {kind} | {p.status} | {fmt_obj(p)} | "
                   f"{fmt_time(p.time)} | {g.status} | {fmt_obj(g)} | {fmt_time(g.time)} | "
                   f"{fmt_ratio(r, cfg.time_limit)} | {flat} | {cell(r.note)} |")
    out.append("")
    n = len(results)
    both = [r for r in results if r.p.complete() and r.g.complete()]
    timed = [r for r in results if r.ratio is not None]
    ratios = [r.ratio for r in timed]
    dis = [r for r in results if r.disagreement]
    compared = [r for r in results if r.compared]
    flat_p = sum(1 for r in results if r.p.flattened)
    flat_g = sum(1 for r in results if r.g.flattened)
    solved_p = sum(1 for r in results if r.p.complete())
    solved_g = sum(1 for r in results if r.g.complete())
    faster = sum(1 for r in timed if r.ratio < 1)
    near = sum(1 for r in timed if 1 / 1.05 < r.ratio < 1.05)
    unsup = sum(1 for r in results if r.p.status == "UNSUPPORTED")
    unsup_flat = sum(1 for r in results if r.p.status == "UNSUPPORTED" and not r.p.flattened)
    err_p = sum(1 for r in results if r.p.status == "ERROR")
    err_g = sum(1 for r in results if r.g.status == "ERROR")
    only_p = sum(1 for r in results if r.p.complete() and not r.g.complete())
    only_g = sum(1 for r in results if r.g.complete() and not r.p.complete())
    out.append("## Summary")
    out.append("")
    out.append(f"- instances: {n}")
    out.append(f"- flattened: propane {flat_p}/{n}, gecode {flat_g}/{n}")
    out.append(f"- solved (complete: SAT for satisfaction, OPT, ALL, UNSAT): propane {solved_p}, "
               f"gecode {solved_g}; only propane {only_p}, only gecode {only_g}")
    out.append(f"- both complete: {len(both)}")
    out.append(f"- compared: {len(compared)}, agreements: {len(compared) - len(dis)}, "
               f"disagreements: {len(dis)}")
    out.append(f"- propane UNSUPPORTED: {unsup} ({unsup_flat} refused by its library at "
               f"flattening); ERROR: propane {err_p}, gecode {err_g}")
    if timed:
        out.append(f"- propane faster on: {faster} of {len(timed)} (both complete and agreeing; "
                   f"{near} of the {len(timed)} within 5%)")
        out.append(f"- time ratio propane/gecode over those: median "
                   f"{statistics.median(ratios):.2f}, geometric mean {geomean(ratios):.2f}")
    else:
        out.append("- propane faster on: - (no instance complete for both)")
    tp = sum(r.p.time or 0 for r in results)
    tg = sum(r.g.time or 0 for r in results)
    fp = sum(r.p.flatten_time or 0 for r in results)
    fg = sum(r.g.flatten_time or 0 for r in results)
    out.append(f"- total solver time: propane {tp:.1f} s, gecode {tg:.1f} s; "
               f"flattening: propane {fp:.1f} s, gecode {fg:.1f} s; wall {elapsed:.0f} s")
    if dis:
        out.append("")
        out.append(f"## !!! {len(dis)} DISAGREEMENT(S) !!!")
        out.append("")
        for r in dis:
            out.append(f"- **{r.inst.name}**: {r.disagreement} (propane {r.p.status}"
                       f"{' ' + fmt_obj(r.p) if fmt_obj(r.p) else ''}, gecode {r.g.status}"
                       f"{' ' + fmt_obj(r.g) if fmt_obj(r.g) else ''})")
    return "\n".join(out) + "\n"

# ----------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="*", metavar="PATH")
    ap.add_argument("--time-limit", type=float, default=60.0, metavar="SEC")
    ap.add_argument("--flatten-timeout", type=float, default=120.0, metavar="SEC")
    ap.add_argument("--propane", default=DEFAULT_PROPANE)
    ap.add_argument("--gecode", default=shutil.which("fzn-gecode") or "fzn-gecode")
    ap.add_argument("--propane-msc", default=None, metavar="FILE")
    ap.add_argument("--propane-lib", default=None, metavar="DIR")
    ap.add_argument("--propane-args", default="")
    ap.add_argument("--gecode-args", default="")
    ap.add_argument("--per-family", type=int, default=None, metavar="K")
    ap.add_argument("--families", default=None, help="comma-separated benchmark families")
    ap.add_argument("--mzn-benchmarks", nargs="?", const=DEFAULT_BENCHMARKS, default=None,
                    metavar="DIR")
    ap.add_argument("--jobs", type=int, default=1, metavar="N")
    ap.add_argument("--out", default=None, metavar="FILE.md")
    ap.add_argument("--keep", action="store_true")
    args = ap.parse_args()
    if not args.paths and not args.mzn_benchmarks:
        ap.error("give a PATH or --mzn-benchmarks")
    for name, exe in (("propane", args.propane), ("gecode", args.gecode)):
        if not (os.path.isfile(exe) and os.access(exe, os.X_OK)):
            found = shutil.which(exe)
            if not found:
                die(f"{name} solver {exe} not found"
                         + (" (let Gecode stand in: --propane \"$(command -v fzn-gecode)\" "
                            "--propane-lib std)" if name == "propane" else ""))
            setattr(args, name, found)
        setattr(args, name, os.path.abspath(getattr(args, name)))

    workdir = tempfile.mkdtemp(prefix="fzn-compare-")

    def on_signal(signum, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, on_signal)

    header = []
    t0 = time.time()
    try:
        # Gecode's side: the repaired library, checked on a probe model
        glib = os.path.join(workdir, "gecode_fixed")
        gmsc = os.path.join(workdir, "gecode.msc")
        stdmsc = os.path.join(workdir, "std.msc")
        write_msc(stdmsc, "org.fzncompare.std", args.gecode, None)
        probe = os.path.join(workdir, "probe.mzn")
        with open(probe, "w") as f:
            f.write(PROBE_MODEL)
        fix_ok, why = False, ""
        try:
            build_gecode_library(glib)
            write_msc(gmsc, "org.fzncompare.gecode", args.gecode, glib)
            r = subprocess.run(["minizinc", "-c", "--solver", gmsc, probe, "--fzn",
                                os.path.join(workdir, "probe.fzn"), "--ozn",
                                os.path.join(workdir, "probe.ozn")],
                               capture_output=True, text=True, timeout=120)
            fix_ok = r.returncode == 0
            why = first_error_line(r.stderr)
        except (OSError, subprocess.SubprocessError) as e:
            why = str(e)
        if fix_ok:
            header.append(f"Gecode: {args.gecode}, flattened with a repaired copy of "
                          f"{minizinc_share_dir()}/gecode ({len(GECODE_HOOKS)} std fzn_* hooks "
                          f"routed to Gecode's native constraints)")
        else:
            gmsc = stdmsc
            header.append(f"Gecode: {args.gecode}, **flattened with MiniZinc's std library "
                          f"(-G std)**: repairing Gecode's library failed ({cell(why, 150)})")
        # propane's side
        pmsc_file = args.propane_msc or (DEFAULT_PROPANE_MSC if args.propane_lib is None else None)
        plib = args.propane_lib or DEFAULT_PROPANE_LIB
        if pmsc_file and os.path.exists(pmsc_file):
            pmsc = os.path.abspath(pmsc_file)
            try:
                with open(pmsc) as f:
                    lib = json.load(f).get("mznlib", "std")
            except (OSError, ValueError):
                lib = "?"
            header.append(f"propane: {args.propane}, flattened with solver config {pmsc} "
                          f"(mznlib {lib})")
        elif plib != "std" and os.path.isdir(plib):
            pmsc = os.path.join(workdir, "propane.msc")
            write_msc(pmsc, "org.fzncompare.propane", args.propane, os.path.abspath(plib))
            header.append(f"propane: {args.propane}, flattened with library {os.path.abspath(plib)}")
        else:
            if args.propane_msc:
                die(f"{args.propane_msc} not found")
            pmsc = stdmsc
            header.append(f"propane: {args.propane}, **flattened with MiniZinc's std library** "
                          f"({'as asked' if plib == 'std' else plib + ' not found'})")
        if os.path.realpath(args.propane) == os.path.realpath(args.gecode):
            header.append("**the propane column runs Gecode (stand-in)**")
        header.append(f"time limit {args.time_limit:g} s per solver run (`-t`), flattening "
                      f"timed separately (limit {args.flatten_timeout:g} s); jobs {args.jobs}; "
                      f"{os.cpu_count()} cores; {time.strftime('%Y-%m-%d %H:%M')}")
        try:
            v = subprocess.run(["minizinc", "--version"], capture_output=True, text=True).stdout
            header.append(cell(v.splitlines()[0]))
        except (OSError, IndexError):
            pass

        instances, notes = collect_instances(args, [gmsc, stdmsc])
        header += notes
        if not instances:
            die("no instances")
        print(f"{len(instances)} instances, work dir {workdir}", file=sys.stderr)

        class Cfg:
            pass
        cfg = Cfg()
        cfg.workdir, cfg.keep = workdir, args.keep
        cfg.gecode_msc, cfg.propane_msc = gmsc, pmsc
        cfg.gecode, cfg.propane = args.gecode, args.propane
        cfg.gecode_args, cfg.propane_args = args.gecode_args.split(), args.propane_args.split()
        cfg.time_limit, cfg.flatten_timeout = args.time_limit, args.flatten_timeout

        results = [None] * len(instances)
        done = 0
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            futs = {pool.submit(run_instance, i, inst, cfg): i for i, inst in enumerate(instances)}
            try:
                for fut in concurrent.futures.as_completed(futs):
                    i = futs[fut]
                    results[i] = fut.result()
                    done += 1
                    r = results[i]
                    print(f"[{done}/{len(instances)}] {r.inst.name}: "
                          f"propane {brief(r.p)} | gecode {brief(r.g)}"
                          + (f"  DISAGREEMENT: {r.disagreement}" if r.disagreement else ""),
                          file=sys.stderr)
            except BaseException:
                pool.shutdown(wait=False, cancel_futures=True)
                CHILDREN.kill_all()
                raise
        text = report(results, header, args, time.time() - t0)
        sys.stdout.write(text)
        if args.out:
            with open(args.out, "w") as f:
                f.write(text)
        if any(r.disagreement for r in results):
            print(f"\n!!! {sum(1 for r in results if r.disagreement)} DISAGREEMENT(S) between "
                  f"propane and Gecode; see the report !!!", file=sys.stderr)
            return 1
        return 0
    except KeyboardInterrupt:
        CHILDREN.kill_all()
        print("\ninterrupted; children killed", file=sys.stderr)
        return 130
    finally:
        CHILDREN.kill_all()
        if args.keep:
            print(f"work dir kept: {workdir}", file=sys.stderr)
        else:
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
