#!/usr/bin/env python3
# Differential fuzzer for fzn-propane's enumeration of all solutions (-a).
#
# Usage: differential.py FZN_PROPANE MSC_DIR [--seed S|random] [--models N]
#                        [--seconds T] [--only I]
#
#   FZN_PROPANE  the fzn-propane executable
#   MSC_DIR      a folder holding propane's solver configuration (solver id
#                org.propane.propane), as given to MZN_SOLVER_PATH
#                (build/fzn in a CMake build tree)
#   --seed S     the run's seed (default 1); "random" draws one and prints
#                it. Model I of seed S is the same model on every machine.
#   --models N   how many models to try (default 200)
#   --seconds T  start no model after T seconds, though always at least the
#                first four (default: no limit)
#   --only I     run model I of the seed alone: what a failure says to run
#
# CTest runs it as fzn_differential with a fixed seed and --seconds 60, so
# CI replays the same models every time and in bounded time; to hunt for
# new failures, run it by hand with --seed random and a larger --seconds.
#
# Each model is a small random MiniZinc model (int variables with ranges and
# holes, Booleans, sets, optional ints, arrays; linear and non-linear
# arithmetic with partial div, mod and element; reification and Boolean
# connectives; set and option operations; globals from globals.mzn; hidden
# variables as let-locals, :: no_output and defined variables; search and
# restart annotations; a fifth of them optimize, some a fixed objective),
# kept to at most 20,000 assignments so that this script can enumerate
# them all. Its brute force implements MiniZinc's semantics as the MiniZinc
# 2.6.4 library defines them (std/fzn_*.mzn, stdlib/*.mzn): div and mod
# truncate toward zero, and a partial function outside its domain (a zero
# divisor, an index out of range) makes the nearest enclosing Boolean
# expression false (the relational semantics); option comparisons are
# weak, option = strong, absent counts as 0 in a sum. The solutions it
# counts are the distinct values of the top-level variables, which is what
# MiniZinc prints.
#
# MiniZinc 2.6.4 itself departs from those semantics, or fails, in a few
# places, found by this script against Gecode; the generator keeps out of
# them (each is noted where it is avoided): a negation pushed into a weak
# option comparison, "o in S" for an optional o, "e in S" when S covers the
# bounds of an undefined e, an optional sum inside a larger linear sum, 0 in
# an optional's domain, card of a symdiff, an operation on {} and another
# constant set, a reified alldifferent_except_0 over fixed variables, a
# reified global_cardinality that requires a value which cannot occur,
# (with nosets.mzn, as propane's library has it) the reified negation of a
# set membership or subset and a set equal to an expression that reads it,
# and a defined variable in a search annotation.
#
# Per model:
#  1. Gecode (fzn-gecode -a through minizinc, with MiniZinc's standard
#     library and nosets.mzn, as propane's library has sets; see
#     gecode_config) must print exactly the brute force's solutions. When it
#     does not, the fault is this script's evaluator or MiniZinc's, not
#     propane's, and the report says so.
#  2. MZN_SOLVER_PATH=MSC_DIR minizinc --solver org.propane.propane
#     --output-mode json, with -a, with -a -p 2 and with -a -f: the brute
#     force's solutions, none twice, ending with ========== (or
#     =====UNSATISFIABLE===== when there is none); with -n K for a K below
#     the count: K real solutions, none twice, and no final marker (for a
#     count below 2, K is above it and the search must end complete). Under
#     optimization every run of -a prints real solutions, each better than
#     the one before, the last optimal, then ==========; a plain run, the
#     same, stands in for -n K.
#  3. The same four runs of FZN_PROPANE directly on the FlatZinc that
#     minizinc -c writes with propane's library, because minizinc drops a
#     solution printed twice: no two raw solutions may be the same text,
#     their number must be the brute force's count (K under -n), and the
#     final marker as above (under optimization: none twice, and at least
#     one when there is one). The count matches because the .ozn is
#     injective: every output variable of the FlatZinc is a top-level
#     variable, one of the Booleans nosets.mzn makes of a set, or the
#     occurrence or value of an optional int, whose value MiniZinc ties to
#     0 when absent.
#
# Needs python3 (standard library only), minizinc (2.6.4 was used) and
# fzn-gecode (Debian packages minizinc and flatzinc); when one is missing it
# says so and fails (exit 1), it never skips. Runs two models at a time and
# prints one line per model in order, then a summary; on a failure, the
# model, what differs and the command that replays it alone, with the model
# kept in a folder it names. A run that takes more than 20 s fails its
# model. Stops starting models after five failures.
# Exits 0 when all pass, 1 on a mismatch, 2 on wrong arguments (or an
# MSC_DIR in which minizinc finds no org.propane.propane, or one whose
# configuration runs another executable than FZN_PROPANE).

import argparse
import concurrent.futures
import json
import operator
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback

SOLVER = "org.propane.propane"
# The brute force's whole search space, hidden variables included: at most
# a few tenths of a second of Python per model.
MAX_ASSIGNMENTS = 20000
# More solutions mostly add printing; few are enough to miss one.
MAX_SOLUTIONS = 300
MIN_MODELS = 4
MAX_FAILURES = 5
# Any run of these models takes well under a second. A run that times out
# ends its model's runs, so that a hang costs one wait, well within CTest's
# timeout.
RUN_TIMEOUT = 20


class Undefined(Exception):
    """A partial function applied outside its domain."""


# Expressions: MiniZinc text, the enumerated variables they read, and an
# evaluator over an assignment (a dict from variable name to value). Int
# evaluators raise Undefined; every Boolean one catches it and is then
# false, which is the relational semantics. Ints also carry bounds,
# used only to pick constants that make comparisons meaningful.

class Int:
    """partial: whether the evaluator may raise Undefined."""
    __slots__ = ("text", "vars", "ev", "lo", "hi", "partial")

    def __init__(self, text, vars, ev, lo, hi, partial=False):
        self.text, self.vars, self.ev, self.lo, self.hi = text, frozenset(vars), ev, lo, hi
        self.partial = partial


class Bool:
    """set_relation: an "in", subset or superset of sets."""
    __slots__ = ("text", "vars", "ev", "set_relation")

    def __init__(self, text, vars, ev, set_relation=False):
        def guarded(env):
            try:
                return ev(env)
            except Undefined:
                return False
        self.text, self.vars, self.ev = text, frozenset(vars), guarded
        self.set_relation = set_relation


class SetE:
    __slots__ = ("text", "vars", "ev")

    def __init__(self, text, vars, ev):
        self.text, self.vars, self.ev = text, frozenset(vars), ev


class Opt:
    """A var opt int: its evaluator gives None when absent."""
    __slots__ = ("text", "vars", "ev", "lo", "hi")

    def __init__(self, text, vars, ev, lo, hi):
        self.text, self.vars, self.ev, self.lo, self.hi = text, frozenset(vars), ev, lo, hi


def union_vars(*exprs):
    out = set()
    for e in exprs:
        out |= e.vars
    return out


def tdiv(x, y):
    if y == 0:
        raise Undefined
    q = abs(x) // abs(y)
    return q if (x < 0) == (y < 0) else -q


def tmod(x, y):
    return x - y * tdiv(x, y)


def num(c):
    return str(c) if c >= 0 else f"({c})"


def const(c):
    return Int(num(c), (), lambda env: c, c, c)


def var_int(name, values):
    return Int(name, (name,), lambda env: env[name], min(values), max(values))


def dom_text(values):
    values = sorted(values)
    if values == list(range(values[0], values[-1] + 1)):
        return f"{values[0]}..{values[-1]}"
    return "{" + ",".join(map(str, values)) + "}"


def set_text(values):
    return "{" + ",".join(map(str, sorted(values))) + "}"


CMP = {"=": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
       ">": operator.gt, ">=": operator.ge}


def compare(a, op, b):
    f = CMP[op]
    return Bool(f"({a.text} {op} {b.text})", union_vars(a, b), lambda env: f(a.ev(env), b.ev(env)))


def linear(terms, c):
    parts = []
    for k, e in terms:
        parts.append(e.text if k == 1 else f"{num(k)}*{e.text}")
    text = " + ".join(parts)
    if c:
        text += f" + {c}" if c > 0 else f" - {-c}"
    lo = hi = c
    for k, e in terms:
        lo += min(k * e.lo, k * e.hi)
        hi += max(k * e.lo, k * e.hi)
    pairs = tuple(terms)
    return Int(f"({text})", union_vars(*(e for _, e in terms)),
               lambda env: sum(k * e.ev(env) for k, e in pairs) + c, lo, hi, any(e.partial for _, e in terms))


def product(a, b):
    corners = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi]
    return Int(f"({a.text} * {b.text})", union_vars(a, b),
               lambda env: a.ev(env) * b.ev(env), min(corners), max(corners), a.partial or b.partial)


def division(a, b, which):
    m = max(abs(a.lo), abs(a.hi))
    partial = a.partial or b.partial or b.lo <= 0 <= b.hi
    if which == "div":
        return Int(f"({a.text} div {b.text})", union_vars(a, b),
                   lambda env: tdiv(a.ev(env), b.ev(env)), -m, m, partial)
    d = max(abs(b.lo), abs(b.hi), 1) - 1
    lo = 0 if a.lo >= 0 else -min(m, d)
    hi = 0 if a.hi <= 0 else min(m, d)
    return Int(f"({a.text} mod {b.text})", union_vars(a, b),
               lambda env: tmod(a.ev(env), b.ev(env)), lo, hi, partial)


def absolute(a):
    lo = 0 if a.lo <= 0 <= a.hi else min(abs(a.lo), abs(a.hi))
    return Int(f"abs({a.text})", a.vars, lambda env: abs(a.ev(env)), lo, max(abs(a.lo), abs(a.hi)), a.partial)


def min_max(which, items):
    f = min if which == "min" else max
    items = tuple(items)
    if len(items) == 2:
        text = f"{which}({items[0].text}, {items[1].text})"
    else:
        text = f"{which}([{', '.join(e.text for e in items)}])"
    return Int(text, union_vars(*items), lambda env: f(e.ev(env) for e in items),
               f(e.lo for e in items), f(e.hi for e in items), any(e.partial for e in items))


def element(items, index, name=None):
    """items[index], the array's index set 1..n: an index outside it is
    undefined. name: the array's, when it is declared."""
    items = tuple(items)
    n = len(items)
    text = f"{name or array_text(items)}[{index.text}]"

    def ev(env):
        i = index.ev(env)
        if not 1 <= i <= n:
            raise Undefined
        return items[i - 1].ev(env)
    partial = index.partial or any(e.partial for e in items) or not 1 <= index.lo <= index.hi <= n
    return Int(text, union_vars(index, *items), ev, min(e.lo for e in items), max(e.hi for e in items), partial)


def array_text(items):
    return "[" + ", ".join(e.text for e in items) + "]"


def table_text(rows):
    return "[|" + " | ".join(", ".join(map(str, r)) for r in rows) + " |]"


class Model:
    def __init__(self):
        self.decls = []
        self.constraints = []   # Bool, posted at the root
        self.implied = []       # Bool, root conditions the text states otherwise (definitions)
        self.enum = []          # (name, values, is_output): what the brute force enumerates
        self.outputs = []       # (name, element names or None for a scalar, kind)
        self.features = []
        self.objective = None   # ("minimize" or "maximize", Int over printed variables)
        self.search = ""        # annotations of the solve item: search
        self.restart = ""       # and restarts

    def printed(self):
        """The printed variables, in the order of a solution's values."""
        return [name for name, _, is_output in self.enum if is_output]

    def text(self, annotated=True):
        lines = ['include "globals.mzn";', f"% exercises: {', '.join(self.features)}"]
        lines += self.decls
        lines += [f"constraint {c.text};" for c in self.constraints]
        goal = f"{self.objective[0]} {self.objective[1].text}" if self.objective else "satisfy"
        lines.append(f"solve {self.search + self.restart if annotated else ''}{goal};")
        return "\n".join(lines) + "\n"


class Generator:
    """Builds one random model. Every choice goes through self.rng, so a
    model depends on its seed alone."""

    def __init__(self, rng):
        self.rng = rng
        self.m = Model()
        self.budget = rng.choice([500, 2000, 6000, MAX_ASSIGNMENTS])
        self.space = 1
        self.counter = {}
        self.ints, self.bools, self.sets, self.opts = [], [], [], []
        self.arrays = []        # (name, element refs): declared int arrays, index set 1..n

    # ---- variables

    def fresh(self, prefix):
        self.counter[prefix] = self.counter.get(prefix, 0) + 1
        return f"{prefix}{self.counter[prefix]}"

    def fits(self, size, count=1):
        return self.space * size ** count <= self.budget

    def enumerate(self, name, values, output):
        self.m.enum.append((name, list(values), output))
        self.space *= len(values)

    def feature(self, name):
        if name not in self.m.features:
            self.m.features.append(name)

    def int_values(self, size=None, lo=None, holes=None):
        r = self.rng
        size = size or r.choice([2, 3, 3, 4, 4, 5])
        lo = r.randint(-2, 2) if lo is None else lo
        if holes is None:
            holes = r.random() < 0.3
        if holes:
            values = sorted(r.sample(range(lo, lo + size + r.randint(1, 3)), size))
            if values == list(range(values[0], values[0] + size)):
                values[-1] += 1
            return values
        return list(range(lo, lo + size))

    def values_of(self, e):
        """The values an int expression can take, as far as its declaration
        or its bounds say."""
        for name, values, _ in self.m.enum:
            if name == e.text:
                return set(values)
        return set(range(e.lo, e.hi + 1))

    def new_int(self, values=None, output=True):
        values = values or self.int_values()
        if not self.fits(len(values)):
            return None
        name = self.fresh("x" if output else "h")
        if output:
            self.m.decls.append(f"var {dom_text(values)}: {name};")
            self.m.outputs.append((name, None, "int"))
        else:
            self.m.decls.append(f"var {dom_text(values)}: {name} :: no_output;")
            self.feature("no_output")
        if any(b - a > 1 for a, b in zip(values, values[1:])):
            self.feature("holes")
        self.enumerate(name, values, output)
        ref = var_int(name, values)
        self.ints.append(ref)
        return ref

    def new_int_array(self, n, values, prefix="a"):
        if not self.fits(len(values), n):
            return None
        name = self.fresh(prefix)
        self.m.decls.append(f"array[1..{n}] of var {dom_text(values)}: {name};")
        refs = []
        for i in range(1, n + 1):
            element_name = f"{name}[{i}]"
            self.enumerate(element_name, values, True)
            refs.append(var_int(element_name, values))
        self.m.outputs.append((name, [e.text for e in refs], "int"))
        self.ints.extend(refs)
        self.arrays.append((name, refs))
        self.feature("arrays")
        return refs

    def new_bool(self):
        if not self.fits(2):
            return None
        name = self.fresh("b")
        self.m.decls.append(f"var bool: {name};")
        self.m.outputs.append((name, None, "bool"))
        self.enumerate(name, [False, True], True)
        ref = Bool(name, (name,), lambda env: env[name])
        self.bools.append(ref)
        self.feature("bool")
        return ref

    def new_set(self):
        lo = self.rng.choice([0, 1, 1])
        k = self.rng.choice([2, 3, 3])
        universe = list(range(lo, lo + k))
        subsets = [frozenset(v for j, v in enumerate(universe) if mask >> j & 1) for mask in range(1 << k)]
        if not self.fits(len(subsets)):
            return None
        name = self.fresh("s")
        self.m.decls.append(f"var set of {lo}..{lo + k - 1}: {name};")
        self.m.outputs.append((name, None, "set"))
        self.enumerate(name, subsets, True)
        ref = SetE(name, (name,), lambda env: env[name])
        self.sets.append(ref)
        self.feature("set")
        return ref

    def opt_values(self):
        # Never 0: with 0 in its domain, MiniZinc 2.6.4 can print an absent
        # optional as 0 (occurs(o) /\ deopt(o) != 0 has the solution o = 0).
        return self.rng.choice([[1, 2], [1, 2, 3], [1, 3], [2, 3], [-1, 1]])

    def new_opt(self, values=None):
        values = values or self.opt_values()
        if not self.fits(len(values) + 1):
            return None
        name = self.fresh("o")
        self.m.decls.append(f"var opt {dom_text(values)}: {name};")
        self.m.outputs.append((name, None, "opt"))
        self.enumerate(name, [None] + values, True)
        ref = Opt(name, (name,), lambda env: env[name], min(values), max(values))
        self.opts.append(ref)
        self.feature("opt")
        return ref

    def new_opt_array(self, n, values, prefix="p"):
        if not self.fits(len(values) + 1, n):
            return None
        name = self.fresh(prefix)
        self.m.decls.append(f"array[1..{n}] of var opt {dom_text(values)}: {name};")
        refs = []
        for i in range(1, n + 1):
            element_name = f"{name}[{i}]"
            self.enumerate(element_name, [None] + values, True)
            refs.append(Opt(element_name, (element_name,), lambda env, e=element_name: env[e],
                            min(values), max(values)))
        self.m.outputs.append((name, [e.text for e in refs], "opt"))
        self.opts.extend(refs)
        self.feature("opt")
        return refs

    def new_var(self):
        kind = self.rng.choice(["int", "int", "int", "bool", "bool", "set", "opt"])
        return {"int": self.new_int, "bool": self.new_bool, "set": self.new_set, "opt": self.new_opt}[kind]()

    def int_array(self, n, fresh_values=None, prefix="a"):
        """n int variables for a global: a new array when the budget allows,
        else n of the existing ones (None when there are not enough)."""
        r = self.rng
        if fresh_values is not None:
            refs = self.new_int_array(n, fresh_values, prefix)
            if refs is not None:
                return refs, self.arrays[-1][0]
        if len(self.ints) >= n:
            refs = r.sample(self.ints, n)
            return refs, array_text(refs)
        return None, None

    # ---- expressions

    def int_leaf(self):
        r = self.rng.random()
        if self.bools and r < 0.1:
            b = self.rng.choice(self.bools)
            return Int(f"bool2int({b.text})", b.vars, lambda env: int(b.ev(env)), 0, 1)
        if self.ints and r < 0.9:
            return self.rng.choice(self.ints)
        return const(self.rng.randint(-2, 3))

    def divisor(self):
        r = self.rng
        with_zero = [e for e in self.ints if e.lo <= 0 <= e.hi]
        x = r.random()
        if x < 0.1:
            self.feature("zero divisor")
            if r.random() < 0.5:
                # only 0 left once the root propagates, which MiniZinc
                # does not do for abs
                z = self.new_int([-1, 0, 1])
                if z is not None:
                    self.post(compare(absolute(z), "<=", const(0)))
                    return z
            return const(0)
        if with_zero and x < 0.6:
            return r.choice(with_zero)
        if x < 0.4:
            return const(r.choice([-3, -2, -1, 1, 2, 3]))
        return self.int_leaf()

    def int_expr(self, depth):
        r = self.rng
        if depth <= 0 or r.random() < 0.3:
            return self.int_leaf()
        kinds = ["lin", "lin", "abs", "mul", "div", "mod", "minmax", "elem", "elem", "ite", "count", "agg"]
        if self.sets:
            kinds += ["card", "card"]
        if self.opts:
            kinds += ["optsum", "optsum"]
        kind = r.choice(kinds)
        sub = lambda: self.int_expr(depth - 1)  # noqa: E731
        if kind == "lin":
            self.feature("linear")
            terms = [(r.choice([-2, -1, 1, 1, 2, 3]), sub()) for _ in range(r.randint(1, 3))]
            return linear(terms, r.randint(-2, 2))
        if kind == "abs":
            self.feature("abs")
            return absolute(sub())
        if kind == "mul":
            self.feature("times")
            return product(sub(), self.int_leaf())
        if kind in ("div", "mod"):
            self.feature(kind)
            return division(sub(), self.divisor(), kind)
        if kind == "minmax":
            self.feature("min/max")
            return min_max(r.choice(["min", "max"]), [sub() for _ in range(r.randint(2, 3))])
        if kind == "elem":
            return self.element_expr()
        if kind == "ite":
            self.feature("if-then-else")
            c, a, b = self.bool_expr(depth - 1), sub(), sub()
            return Int(f"(if {c.text} then {a.text} else {b.text} endif)", union_vars(c, a, b),
                       lambda env: a.ev(env) if c.ev(env) else b.ev(env), min(a.lo, b.lo), max(a.hi, b.hi),
                       a.partial or b.partial)
        if kind == "count" and len(self.ints) >= 2:
            self.feature("count")
            items = r.sample(self.ints, r.randint(2, min(4, len(self.ints))))
            y = self.int_leaf()
            return Int(f"count({array_text(items)}, {y.text})", union_vars(y, *items),
                       lambda env: sum(e.ev(env) == y.ev(env) for e in items), 0, len(items), y.partial)
        if kind == "agg" and self.arrays:
            name, refs = r.choice(self.arrays)
            which = r.choice(["sum", "min", "max"])
            self.feature(f"{which} of array")
            f = {"sum": sum, "min": min, "max": max}[which]
            lo = sum(e.lo for e in refs) if which == "sum" else f(e.lo for e in refs)
            hi = sum(e.hi for e in refs) if which == "sum" else f(e.hi for e in refs)
            return Int(f"{which}({name})", union_vars(*refs), lambda env: f(e.ev(env) for e in refs), lo, hi)
        if kind == "card":
            self.feature("card")
            s = self.set_expr(1, under_card=True)
            return Int(f"card({s.text})", s.vars, lambda env: len(s.ev(env)), 0, 4)
        if kind == "optsum":
            self.feature("opt sum")
            o, e = r.choice(self.opts), sub()
            # sum([o, e]), not o + e: MiniZinc 2.6.4 writes FlatZinc that
            # names o itself when o + e sits inside a larger linear sum.
            return Int(f"sum([{o.text}, {e.text}])", union_vars(o, e),
                       lambda env: (o.ev(env) or 0) + e.ev(env), min(0, o.lo) + e.lo, max(0, o.hi) + e.hi,
                       e.partial)
        return self.int_leaf()

    def element_expr(self):
        """a[i] with a variable index whose domain may stick out of a's index
        set: those values make the nearest Boolean false."""
        r = self.rng
        self.feature("element")
        index = self.index_var()
        if self.arrays and r.random() < 0.6:
            name, refs = r.choice(self.arrays)
            return element(refs, index, name)
        items = [self.int_leaf() if r.random() < 0.4 else const(r.randint(-2, 4)) for _ in range(r.randint(2, 4))]
        return element(items, index)

    def index_var(self):
        small = [e for e in self.ints if e.lo >= -1 and e.hi <= 5]
        if small and self.rng.random() < 0.7:
            return self.rng.choice(small)
        made = self.new_int(self.int_values(lo=self.rng.randint(0, 1)))
        return made or self.int_leaf()

    def set_expr(self, depth, under_card=False):
        r = self.rng
        if depth <= 0 or r.random() < 0.5 or not self.sets:
            if self.sets and r.random() < 0.85:
                return r.choice(self.sets)
            values = frozenset(v for v in range(0, 4) if r.random() < 0.4)
            return SetE(set_text(values), (), lambda env: values)
        a, b = self.set_expr(depth - 1, under_card), self.set_expr(depth - 1, under_card)
        if not a.vars and not b.vars:
            # an operation on {} and another constant does not type-check in
            # MiniZinc 2.6.4 ("ambiguous overloading")
            b = r.choice(self.sets)
        # MiniZinc 2.6.4 cannot take the card of a symdiff of variables
        # (ub() fails in stdlib_set.mzn's card).
        op = r.choice(["union", "intersect", "diff"] + ([] if under_card else ["symdiff"]))
        self.feature(f"set {op}")
        f = {"union": frozenset.union, "intersect": frozenset.intersection,
             "diff": frozenset.difference, "symdiff": frozenset.symmetric_difference}[op]
        return SetE(f"({a.text} {op} {b.text})", union_vars(a, b), lambda env: f(a.ev(env), b.ev(env)))

    def set_atom(self):
        r = self.rng
        kind = r.choice(["in", "in", "subset", "superset", "eq", "ne", "card"])
        if kind == "in":
            self.feature("set in")
            e, s = self.int_expr(r.randint(0, 1)), self.set_expr(1)
            return Bool(f"({e.text} in {s.text})", union_vars(e, s), lambda env: e.ev(env) in s.ev(env), True)
        if kind == "card":
            self.feature("card")
            s = self.set_expr(1, under_card=True)
            return compare(Int(f"card({s.text})", s.vars, lambda env: len(s.ev(env)), 0, 4),
                           r.choice(list(CMP)), self.int_leaf() if r.random() < 0.5 else const(r.randint(0, 3)))
        a, b = self.set_expr(1), self.set_expr(1)
        if kind == "eq" and a.vars & b.vars:
            # s = e where e reads s: with nosets.mzn (propane's library)
            # MiniZinc 2.6.4 writes an .ozn that defines s's Booleans in a
            # cycle, and crashes printing the first solution.
            kind = "ne"
        op, f = {"subset": ("subset", frozenset.issubset), "superset": ("superset", frozenset.issuperset),
                 "eq": ("=", operator.eq), "ne": ("!=", operator.ne)}[kind]
        self.feature(f"set {op}")
        return Bool(f"({a.text} {op} {b.text})", union_vars(a, b), lambda env: f(a.ev(env), b.ev(env)),
                    kind in ("subset", "superset"))

    def opt_atom(self, polarity):
        """polarity: +1 where the atom only has to hold, -1 where it only
        has to fail, 0 where both count (reified)."""
        r = self.rng
        o = r.choice(self.opts)
        # MiniZinc 2.6.4 pushes a negation into a comparison by flipping
        # its operator, which for a weak option comparison turns "absent
        # makes it true" into "absent makes its negation true": weak ones
        # only where they cannot be negated.
        # Nor "o in S": at the root MiniZinc 2.6.4 takes it as a domain
        # (absent allowed, stdlib_internal.mzn's set_in), elsewhere as
        # stdlib_set.mzn's "in" (absent excluded), and when that domain is
        # one value it prints the variable as occurring even when absent.
        kinds = ["occurs", "absent", "eq", "ne", "deopt"] + ["weak", "weak"] * (polarity > 0)
        kind = r.choice(kinds)
        if kind == "occurs":
            return Bool(f"occurs({o.text})", o.vars, lambda env: o.ev(env) is not None)
        if kind == "absent":
            if r.random() < 0.5:
                return Bool(f"({o.text} = <>)", o.vars, lambda env: o.ev(env) is None)
            return Bool(f"absent({o.text})", o.vars, lambda env: o.ev(env) is None)
        if kind == "deopt":
            # deopt of an absent value is MiniZinc's business: only read it
            # when the value occurs.
            op, k = r.choice(list(CMP)), r.randint(o.lo - 1, o.hi + 1)
            f = CMP[op]
            if r.random() < 0.5:
                return Bool(f"(occurs({o.text}) -> deopt({o.text}) {op} {num(k)})", o.vars,
                            lambda env: o.ev(env) is None or f(o.ev(env), k))
            return Bool(f"(occurs({o.text}) /\\ deopt({o.text}) {op} {num(k)})", o.vars,
                        lambda env: o.ev(env) is not None and f(o.ev(env), k))
        other = r.choice(self.opts + self.ints) if r.random() < 0.7 else const(r.randint(0, 3))
        if kind == "weak":
            self.feature("opt weak compare")
            op = r.choice(["<", "<=", ">", ">="])
            f = CMP[op]

            def weak(env):
                a, b = o.ev(env), other.ev(env)
                return a is None or b is None or f(a, b)
            return Bool(f"({o.text} {op} {other.text})", union_vars(o, other), weak)
        # = and != are strong: absent equals only absent.
        if kind == "eq":
            return Bool(f"({o.text} = {other.text})", union_vars(o, other), lambda env: o.ev(env) == other.ev(env))
        return Bool(f"({o.text} != {other.text})", union_vars(o, other), lambda env: o.ev(env) != other.ev(env))

    def bool_atom(self, depth, polarity):
        r = self.rng
        kinds = ["cmp", "cmp", "cmp", "in"]
        if self.bools:
            kinds += ["bvar", "bvar"]
        if self.sets:
            kinds += ["set", "set"]
        if self.opts:
            kinds += ["opt", "opt"]
        kind = r.choice(kinds)
        if kind == "bvar":
            return r.choice(self.bools)
        if kind == "set":
            return self.set_atom()
        if kind == "opt":
            return self.opt_atom(polarity)
        a = self.int_expr(depth)
        if kind == "in" and not a.partial:
            # Only a total expression: MiniZinc 2.6.4 simplifies "e in S" to
            # true when S covers e's bounds, though e may be undefined.
            values = frozenset(v for v in range(a.lo - 1, a.lo + 4) if r.random() < 0.5)
            return Bool(f"({a.text} in {set_text(values)})", a.vars, lambda env: a.ev(env) in values)
        op = r.choice(list(CMP))
        if r.random() < 0.6:
            b = const(r.randint(a.lo - 1, a.hi + 1) if a.hi - a.lo < 40 else r.randint(-3, 3))
        else:
            b = self.int_expr(depth - 1)
        return compare(a, op, b)

    def bool_expr(self, depth, polarity=0):
        r = self.rng
        if depth <= 0 or r.random() < 0.35:
            return self.bool_atom(depth, polarity)
        op = r.choice(["not", "/\\", "\\/", "\\/", "->", "<-", "<->", "xor"])
        left, right = {"not": (-polarity, 0), "->": (-polarity, polarity), "<-": (polarity, -polarity),
                       "<->": (0, 0), "xor": (0, 0)}.get(op, (polarity, polarity))
        a = self.bool_expr(depth - 1, left)
        if op == "not":
            if a.set_relation and polarity == 0:
                # With nosets.mzn, MiniZinc 2.6.4 flattens "b <-> not (x in
                # s)" (or "var bool: b = not ...") to no solution at all.
                return a
            return Bool(f"(not {a.text})", a.vars, lambda env: not a.ev(env))
        b = self.bool_expr(depth - 1, right)
        return self.connect(a, op, b)

    def connect(self, a, op, b):
        self.feature("reification" if op in ("<->", "->", "<-", "xor") else "connectives")
        f = {"/\\": lambda x, y: x and y, "\\/": lambda x, y: x or y, "->": lambda x, y: not x or y,
             "<-": lambda x, y: x or not y, "<->": operator.eq, "xor": operator.ne}[op]
        return Bool(f"({a.text} {op} {b.text})", union_vars(a, b), lambda env: f(a.ev(env), b.ev(env)))

    # ---- globals: each returns the constraint and whether MiniZinc can
    # reify it (std decomposes the reified form; circuit and regular abort,
    # table only takes 1 to 5 variables).

    def g_all_different(self):
        r = self.rng
        n = r.randint(2, 4)
        # Never a one-value domain: MiniZinc 2.6.4 aborts on a reified
        # alldifferent_except_0 over fixed variables.
        refs, text = self.int_array(n, self.int_values(size=max(2, r.randint(n - 1, n + 1))))
        if refs is None:
            return None
        if r.random() < 0.3:
            self.feature("alldifferent_except_0")
            return Bool(f"alldifferent_except_0({text})", union_vars(*refs),
                        lambda env: distinct([v for v in (e.ev(env) for e in refs) if v != 0])), True
        self.feature("all_different")
        return Bool(f"all_different({text})", union_vars(*refs),
                    lambda env: distinct([e.ev(env) for e in refs])), True

    def g_all_different_opt(self):
        n = self.rng.randint(2, 3)
        refs = [self.new_opt([1, 2, 3][:self.rng.randint(2, 3)]) for _ in range(n)]
        if any(o is None for o in refs):
            return None
        self.feature("all_different over opt")
        return Bool(f"all_different({array_text(refs)})", union_vars(*refs),
                    lambda env: distinct([v for v in (o.ev(env) for o in refs) if v is not None])), True

    def g_count(self):
        r = self.rng
        n = r.randint(2, 4)
        refs, text = self.int_array(n, self.int_values(size=r.randint(2, 3), lo=r.randint(0, 1)))
        if refs is None:
            return None
        y = r.choice([const(r.randint(0, 2))] + self.ints[:3])
        c = self.new_int(list(range(0, n + 1))) if r.random() < 0.6 else None
        c = c or const(r.randint(0, n))
        op, rel = r.choice([("eq", "="), ("geq", ">="), ("gt", ">"), ("leq", "<="), ("lt", "<"), ("neq", "!=")])
        name = "count" if op == "eq" and r.random() < 0.5 else f"count_{op}"
        self.feature(name)
        f = CMP[rel]
        return Bool(f"{name}({text}, {y.text}, {c.text})", union_vars(y, c, *refs),
                    lambda env: f(c.ev(env), sum(e.ev(env) == y.ev(env) for e in refs))), True

    def g_among(self):
        r = self.rng
        n = r.randint(2, 4)
        refs, text = self.int_array(n, self.int_values(size=3, lo=0))
        if refs is None:
            return None
        values = frozenset(r.sample(range(0, 4), r.randint(1, 2)))
        c = self.new_int(list(range(0, n + 1))) if r.random() < 0.5 else None
        c = c or const(r.randint(0, n))
        self.feature("among")
        return Bool(f"among({c.text}, {text}, {set_text(values)})", union_vars(c, *refs),
                    lambda env: c.ev(env) == sum(e.ev(env) in values for e in refs)), True

    def g_element(self):
        r = self.rng
        if not self.arrays:
            n = r.randint(2, 4)
            if self.new_int_array(n, self.int_values(size=r.randint(2, 3))) is None:
                return None
        a = self.element_expr()
        return compare(a, r.choice(["=", "=", "!=", "<="]), self.int_leaf()), True

    def g_table(self):
        r = self.rng
        n = r.randint(2, 3)
        values = self.int_values(size=r.randint(2, 3), lo=r.randint(0, 1), holes=False)
        refs, text = self.int_array(n, values)
        if refs is None:
            return None
        pool = range(min(e.lo for e in refs) - 1, max(e.hi for e in refs) + 2)
        rows = sorted({tuple(r.choice(pool) for _ in range(n)) for _ in range(r.randint(1, 6))})
        self.feature("table")
        rowset = frozenset(rows)
        return Bool(f"table({text}, {table_text(rows)})", union_vars(*refs),
                    lambda env: tuple(e.ev(env) for e in refs) in rowset), True

    def g_regular(self):
        r = self.rng
        n, S, Q = r.randint(2, 4), r.randint(2, 3), r.randint(2, 3)
        # Values outside 1..S are allowed in the domain: regular rules them out.
        refs = self.new_int_array(n, list(range(r.choice([0, 1]), S + 1)))
        if refs is None:
            return None
        d = [[r.choice([0] + list(range(1, Q + 1)) * 2) for _ in range(S)] for _ in range(Q)]
        finals = frozenset(q for q in range(1, Q + 1) if r.random() < 0.5) or frozenset([Q])
        self.feature("regular")
        name = self.arrays[-1][0]

        def ev(env):
            q = 1
            for e in refs:
                v = e.ev(env)
                if not 1 <= v <= S:
                    return False
                q = d[q - 1][v - 1]
                if q == 0:
                    return False
            return q in finals
        return Bool(f"regular({name}, {Q}, {S}, {table_text(d)}, 1, {set_text(finals)})",
                    union_vars(*refs), ev), False

    def g_global_cardinality(self):
        r = self.rng
        n = r.randint(2, 4)
        refs, text = self.int_array(n, self.int_values(size=3, lo=1))
        if refs is None:
            return None
        cover = sorted(r.sample(range(0, 5), r.randint(1, 3)))
        counts = self.new_int_array(len(cover), list(range(0, r.randint(1, n) + 1)), "c")
        if counts is None:
            counts = [const(r.randint(0, 2)) for _ in cover]
            counts_text = array_text(counts)
        else:
            counts_text = self.arrays[-1][0]
        closed = r.random() < 0.3
        name = "global_cardinality_closed" if closed else "global_cardinality"
        self.feature(name)
        cover_set = frozenset(cover)

        def ev(env):
            xs = [e.ev(env) for e in refs]
            cs = [c.ev(env) for c in counts]
            if closed and any(v not in cover_set for v in xs):
                return False
            return all(c == xs.count(v) for v, c in zip(cover, cs)) and len(xs) >= sum(cs)
        # Reified only when every value of the cover can occur: MiniZinc
        # 2.6.4 aborts (simplify_bool_constraint) flattening std's reified
        # global_cardinality when a value that cannot occur must.
        possible = set().union(*(self.values_of(e) for e in refs))
        return Bool(f"{name}({text}, {array_text(map(const, cover))}, {counts_text})",
                    union_vars(*refs, *counts), ev), cover_set <= possible

    def g_inverse(self):
        r = self.rng
        n = r.randint(2, 3)
        values = list(range(r.choice([0, 1, 1]), n + 1 + r.choice([0, 0, 1])))
        f = self.new_int_array(n, values, "f")
        if f is None:
            return None
        f_name = self.arrays[-1][0]
        g = self.new_int_array(n, values, "g")
        if g is None:
            return None
        g_name = self.arrays[-1][0]
        self.feature("inverse")

        def ev(env):
            fv = [e.ev(env) for e in f]
            gv = [e.ev(env) for e in g]
            return (all(1 <= v <= n and gv[v - 1] == i + 1 for i, v in enumerate(fv))
                    and all(1 <= v <= n and fv[v - 1] == j + 1 for j, v in enumerate(gv)))
        return Bool(f"inverse({f_name}, {g_name})", union_vars(*f, *g), ev), True

    def g_lex(self):
        r = self.rng
        n = r.randint(2, 3)
        values = self.int_values(size=r.randint(2, 3))
        x, x_text = self.int_array(n, values)
        y, y_text = self.int_array(n, values)
        if x is None or y is None:
            return None
        strict = r.random() < 0.4
        name = "lex_less" if strict else "lex_lesseq"
        self.feature(name)
        f = operator.lt if strict else operator.le
        return Bool(f"{name}({x_text}, {y_text})", union_vars(*x, *y),
                    lambda env: f(tuple(e.ev(env) for e in x), tuple(e.ev(env) for e in y))), True

    def g_increasing(self):
        r = self.rng
        n = r.randint(2, 4)
        refs, text = self.int_array(n, self.int_values(size=r.randint(2, 4)))
        if refs is None:
            return None
        name, f = r.choice([("increasing", operator.le), ("decreasing", operator.ge),
                            ("strictly_increasing", operator.lt)])
        self.feature(name)
        return Bool(f"{name}({text})", union_vars(*refs),
                    lambda env: all(f(refs[i].ev(env), refs[i + 1].ev(env)) for i in range(n - 1))), True

    def g_nvalue(self):
        r = self.rng
        n = r.randint(2, 4)
        refs, text = self.int_array(n, self.int_values(size=r.randint(2, 3)))
        if refs is None:
            return None
        c = self.new_int(list(range(0, n + 1))) if r.random() < 0.6 else None
        c = c or const(r.randint(1, n))
        self.feature("nvalue")
        return Bool(f"nvalue({c.text}, {text})", union_vars(c, *refs),
                    lambda env: c.ev(env) == len({e.ev(env) for e in refs})), True

    def g_circuit(self):
        n = self.rng.randint(2, 5)
        refs = self.new_int_array(n, list(range(1, n + 1)), "q")
        if refs is None:
            return None
        name = self.arrays[-1][0]
        self.feature("circuit")

        def ev(env):
            succ = [e.ev(env) for e in refs]
            seen, i = set(), 1
            for _ in range(n):
                if i in seen:
                    return False
                seen.add(i)
                i = succ[i - 1]
            return i == 1 and len(seen) == n
        return Bool(f"circuit({name})", union_vars(*refs), ev), False

    def task_array(self, n, values, prefix):
        """Durations or heights: fixed, or variables."""
        if self.rng.random() < 0.5:
            refs = self.new_int_array(n, values, prefix)
            if refs is not None:
                return refs, self.arrays[-1][0]
        refs = [const(self.rng.choice(values)) for _ in range(n)]
        return refs, array_text(refs)

    def g_cumulative(self):
        r = self.rng
        n = r.randint(2, 3)
        starts = self.new_int_array(n, list(range(0, r.randint(2, 4))), "st")
        if starts is None:
            return None
        s_name = self.arrays[-1][0]
        d, d_text = self.task_array(n, list(range(0, 3)), "du")
        h, h_text = self.task_array(n, list(range(0, 3)), "hr")
        # Never a negative capacity: of cumulative.mzn's two decompositions
        # only one requires b >= 0.
        b = self.new_int(list(range(0, 4))) if r.random() < 0.4 else None
        b = b or const(r.randint(1, 3))
        self.feature("cumulative")

        def ev(env):
            cap = b.ev(env)
            tasks = [(s.ev(env), du.ev(env), hr.ev(env)) for s, du, hr in zip(starts, d, h)]
            # The use peaks when a task starts.
            return all(sum(height for start, length, height in tasks if start <= t < start + length) <= cap
                       for t, length_t, _ in tasks if length_t > 0)
        return Bool(f"cumulative({s_name}, {d_text}, {h_text}, {b.text})",
                    union_vars(b, *starts, *d, *h), ev), True

    def g_disjunctive(self):
        r = self.rng
        n = r.randint(2, 3)
        starts = self.new_int_array(n, list(range(0, r.randint(2, 4))), "st")
        if starts is None:
            return None
        s_name = self.arrays[-1][0]
        d, d_text = self.task_array(n, list(range(0, 3)), "du")
        strict = r.random() < 0.4
        name = "disjunctive_strict" if strict else "disjunctive"
        self.feature(name)

        def ev(env):
            tasks = [(s.ev(env), du.ev(env)) for s, du in zip(starts, d)]
            for i in range(n):
                for j in range(i + 1, n):
                    (si, di), (sj, dj) = tasks[i], tasks[j]
                    if not (si + di <= sj or sj + dj <= si or (not strict and (di == 0 or dj == 0))):
                        return False
            return True
        return Bool(f"{name}({s_name}, {d_text})", union_vars(*starts, *d), ev), True

    def g_diffn(self):
        """Sometimes one dimension fixed, origins and sizes, which propane's
        library turns into unary resources."""
        r = self.rng
        n = r.randint(2, 3)
        x = self.new_int_array(n, list(range(0, r.randint(2, 3))), "rx")
        if x is None:
            return None
        x_name = self.arrays[-1][0]
        if r.random() < 0.5:
            y = [const(r.randint(0, 2)) for _ in range(n)]
            dy = [const(r.randint(1, 2)) for _ in range(n)]
            dx = [const(r.randint(0, 2)) for _ in range(n)]
            texts = [array_text(y), array_text(dx), array_text(dy)]
        else:
            y, y_text = self.task_array(n, list(range(0, 3)), "ry")
            dx, dx_text = self.task_array(n, list(range(0, 3)), "rw")
            dy, dy_text = self.task_array(n, list(range(0, 3)), "rh")
            texts = [y_text, dx_text, dy_text]
        self.feature("diffn")

        def ev(env):
            boxes = [(a.ev(env), b.ev(env), c.ev(env), e.ev(env)) for a, b, c, e in zip(x, y, dx, dy)]
            for i in range(n):
                for j in range(i + 1, n):
                    (xi, yi, wi, hi), (xj, yj, wj, hj) = boxes[i], boxes[j]
                    if not (xi + wi <= xj or xj + wj <= xi or yi + hi <= yj or yj + hj <= yi):
                        return False
            return True
        return Bool(f"diffn({x_name}, {texts[0]}, {texts[1]}, {texts[2]})", union_vars(*x, *y, *dx, *dy), ev), True

    def g_optional_tasks(self):
        """disjunctive, disjunctive_strict or cumulative over optional
        starts: an absent task takes no part. Fixed durations and heights
        now and then, which propane posts natively."""
        r = self.rng
        n = r.randint(2, 3)
        # Starts never 0: see opt_values.
        starts = self.new_opt_array(n, list(range(1, r.randint(3, 4))), "ost")
        if starts is None:
            return None
        s_name = self.m.outputs[-1][0]
        d, d_text = self.task_array(n, list(range(0, 3)), "du")
        kind = r.choice(["disjunctive", "disjunctive_strict", "cumulative"])
        self.feature(f"{kind} over opt")
        if kind == "cumulative":
            h, h_text = self.task_array(n, list(range(0, 3)), "hr")
            b = self.new_int(list(range(0, 4))) if r.random() < 0.4 else None
            b = b or const(r.randint(1, 3))

            def ev(env):
                cap = b.ev(env)
                tasks = [(s.ev(env), du.ev(env), hr.ev(env)) for s, du, hr in zip(starts, d, h)]
                tasks = [t for t in tasks if t[0] is not None]
                return all(sum(height for start, length, height in tasks if start <= t < start + length) <= cap
                           for t, length_t, _ in tasks if length_t > 0)
            return Bool(f"cumulative({s_name}, {d_text}, {h_text}, {b.text})",
                        union_vars(b, *starts, *d, *h), ev), True
        strict = kind == "disjunctive_strict"

        def ev(env):
            tasks = [(s.ev(env), du.ev(env)) for s, du in zip(starts, d)]
            tasks = [t for t in tasks if t[0] is not None]
            for i in range(len(tasks)):
                for j in range(i + 1, len(tasks)):
                    (si, di), (sj, dj) = tasks[i], tasks[j]
                    if not (si + di <= sj or sj + dj <= si or (not strict and (di == 0 or dj == 0))):
                        return False
            return True
        return Bool(f"{kind}({s_name}, {d_text})", union_vars(*starts, *d), ev), True

    def g_bin_packing(self):
        r = self.rng
        n, m = r.randint(2, 4), r.randint(2, 3)
        bins = self.new_int_array(n, list(range(r.choice([0, 1, 1]), m + 1 + r.choice([0, 0, 1]))), "bin")
        if bins is None:
            return None
        bin_name = self.arrays[-1][0]
        w = [r.randint(0, 3) for _ in range(n)]
        w_text = array_text(map(const, w))

        def loads(env):
            out = {}
            for e, wi in zip(bins, w):
                v = e.ev(env)
                out[v] = out.get(v, 0) + wi
            return out
        kind = r.choice(["plain", "capa", "load"])
        if kind == "plain":
            c = r.randint(0, 5)
            self.feature("bin_packing")
            return Bool(f"bin_packing({c}, {bin_name}, {w_text})", union_vars(*bins),
                        lambda env: all(v <= c for v in loads(env).values())), True
        if kind == "capa":
            caps = [r.randint(0, 4) for _ in range(m)]
            self.feature("bin_packing_capa")
            return Bool(f"bin_packing_capa({array_text(map(const, caps))}, {bin_name}, {w_text})",
                        union_vars(*bins),
                        lambda env: all(1 <= b <= m and v <= caps[b - 1] for b, v in loads(env).items())), True
        load = self.new_int_array(m, list(range(0, r.randint(2, 4))), "load")
        if load is None:
            load = [self.int_leaf() for _ in range(m)]
            load_text = array_text(load)
        else:
            load_text = self.arrays[-1][0]
        self.feature("bin_packing_load")

        def ev(env):
            got = loads(env)
            if any(not 1 <= b <= m for b in got):
                return False
            return all(e.ev(env) == got.get(b, 0) for b, e in enumerate(load, 1))
        return Bool(f"bin_packing_load({load_text}, {bin_name}, {w_text})", union_vars(*bins, *load), ev), True

    GLOBALS = ["g_all_different", "g_all_different_opt", "g_count", "g_among", "g_element", "g_table",
               "g_regular", "g_global_cardinality", "g_inverse", "g_lex", "g_increasing", "g_nvalue",
               "g_circuit", "g_cumulative", "g_disjunctive", "g_bin_packing", "g_diffn", "g_optional_tasks"]

    # ---- the model

    def post(self, c):
        self.m.constraints.append(c)

    def add_global(self):
        made = getattr(self, self.rng.choice(self.GLOBALS))()
        if made is None:
            return
        g, reifiable = made
        r = self.rng
        x = r.random()
        if reifiable and x < 0.25:
            self.feature("reified global")
            b = self.new_bool() if r.random() < 0.5 else None
            op = r.choice(["<->", "\\/", "->", "xor"])
            other = b or self.bool_expr(1, 1 if op in ("\\/", "->") else 0)
            self.post(self.connect(g, op, other))
        elif reifiable and x < 0.3:
            self.feature("negated global")
            self.post(Bool(f"(not {g.text})", g.vars, lambda env: not g.ev(env)))
        else:
            self.post(g)

    def add_let(self):
        """A let-local variable: existential, never printed."""
        r = self.rng
        values = self.int_values(size=r.randint(2, 3), lo=r.randint(-1, 1))
        if not self.fits(len(values)):
            return
        name = self.fresh("l")
        self.enumerate(name, values, False)
        self.feature("let")
        local = var_int(name, values)
        self.ints.append(local)
        body = compare(linear([(r.choice([1, 2, -1]), local), (1, self.int_expr(1))], 0),
                       r.choice(["=", "<=", "!=", ">"]), self.int_expr(1))
        if r.random() < 0.4:
            body = self.connect(body, r.choice(["/\\", "\\/"]), self.bool_expr(1, 1))
        self.ints.remove(local)
        self.post(Bool(f"let {{ var {dom_text(values)}: {name}; }} in {body.text}", body.vars, body.ev))

    def add_defined(self):
        """A defined variable: not printed, and its definition holds at the
        root, so an undefined right-hand side rules the assignment out."""
        r = self.rng
        name = self.fresh("d")
        self.feature("defined var")
        if r.random() < 0.7 or not self.ints:
            e = self.int_expr(2)
            if not e.vars and e.partial:
                # undefined without variables, MiniZinc 2.6.4 reports an
                # error instead
                e = const(r.randint(-2, 3))
            self.m.decls.append(f"var int: {name} = {e.text};")
            self.m.implied.append(Bool(name, e.vars, lambda env: e.ev(env) is not None))
            self.ints.append(Int(name, e.vars, e.ev, e.lo, e.hi))
        else:
            b = self.bool_expr(2)
            self.m.decls.append(f"var bool: {name} = {b.text};")
            self.bools.append(Bool(name, b.vars, b.ev))

    def build(self):
        r = self.rng
        for _ in range(r.randint(1, 3)):
            self.new_var()
        for _ in range(r.choice([0, 1, 1, 2, 2, 3])):
            self.add_global()
        for _ in range(r.randint(0, 2)):
            self.new_var()
        if r.random() < 0.2:
            self.new_int(self.int_values(size=r.randint(2, 3)), output=False)
        if r.random() < 0.3:
            self.add_defined()
        for _ in range(r.randint(1, 4)):
            self.post(self.bool_expr(r.randint(0, 2), 1))
        if r.random() < 0.3:
            self.add_let()
        if r.random() < 0.2:
            self.add_objective()
        if r.random() < 0.3:
            self.add_search()
        return self.m

    VAR_CHOICES = ["input_order", "first_fail", "anti_first_fail", "smallest", "largest", "occurrence",
                   "most_constrained", "max_regret", "dom_w_deg"]
    VALUE_CHOICES = ["indomain_min", "indomain", "indomain_max", "indomain_median", "indomain_middle",
                     "indomain_split", "indomain_reverse_split", "indomain_random"]

    def add_search(self):
        """Search annotations, which must not change what -a prints: phases
        over some of the variables (the rest come after them), and now and
        then restarts, which must neither lose a solution nor repeat one."""
        r = self.rng
        # Declared variables only: MiniZinc 2.6.4 can leave the name of a
        # defined variable it eliminated in the annotation, undeclared.
        declared = {name for name, _, _ in self.m.enum}
        bools = [b for b in self.bools if b.text in declared]
        pool = [e for e in self.ints if e.text in declared] + self.opts
        phases = []
        for _ in range(r.randint(1, 3)):
            if bools and r.random() < 0.3:
                vs = r.sample(bools, r.randint(1, min(3, len(bools))))
                phases.append(f"bool_search({array_text(vs)}, {r.choice(['input_order', 'first_fail'])}, "
                              f"{r.choice(['indomain_min', 'indomain_max'])}, complete)")
            elif pool:
                vs = r.sample(pool, r.randint(1, min(4, len(pool))))
                phases.append(f"int_search({array_text(vs)}, {r.choice(self.VAR_CHOICES)}, "
                              f"{r.choice(self.VALUE_CHOICES)}, complete)")
        if not phases:
            return
        self.feature("search annotation")
        search = phases[0] if len(phases) == 1 else f"seq_search([{', '.join(phases)}])"
        self.m.search = f":: {search} "
        if r.random() < 0.4:
            self.feature("restarts")
            scale = r.randint(1, 20)
            restart = r.choice([f"restart_luby({scale})", f"restart_geometric(1.5, {scale})",
                                f"restart_linear({scale})", f"restart_constant({scale})", "restart_none"])
            self.m.restart = f":: {restart} "

    def add_objective(self):
        """Optimization, for -a's improving solutions: an objective over
        printed variables only (so that each solution has one value), total
        (an undefined objective would rule the assignment out). Now and
        then a fixed one, of which -a prints a single solution."""
        r = self.rng
        sense = r.choice(["minimize", "maximize"])
        if r.random() < 0.25:
            self.feature("fixed objective")
            printed = set(self.m.printed())
            ints = [e for e in self.ints if e.text in printed]
            if ints and r.random() < 0.5:
                # fixed by a constraint, not by its declaration
                e = r.choice(ints)
                self.post(compare(e, "=", const(r.randint(e.lo, e.hi))))
            else:
                e = const(r.randint(-2, 3))
        else:
            for _ in range(10):
                e = self.int_expr(r.randint(0, 2))
                if e.vars and e.vars <= set(self.m.printed()) and not e.partial:
                    break
            else:
                return
        self.feature(sense)
        self.m.objective = (sense, e)


def distinct(values):
    return len(set(values)) == len(values)


def solve(model):
    """The distinct solutions, projected onto the printed variables: a
    depth-first search over the enumerated variables, printed ones first,
    each constraint checked once its last variable is set; the hidden ones
    only need one completion."""
    order = [v for v in model.enum if v[2]] + [v for v in model.enum if not v[2]]
    position = {name: i for i, (name, _, _) in enumerate(order)}
    checks = [[] for _ in order]
    always = []
    for c in model.constraints + model.implied:
        if c.vars:
            checks[max(position[v] for v in c.vars)].append(c.ev)
        else:
            always.append(c.ev)
    env = {}
    if not all(ev(env) for ev in always):
        return set()
    printed = sum(1 for v in order if v[2])
    found = set()

    def completes(i):
        if i == len(order):
            return True
        name, values, _ = order[i]
        for v in values:
            env[name] = v
            if all(ev(env) for ev in checks[i]) and completes(i + 1):
                return True
        return False

    def search(i):
        if i == printed:
            if completes(i):
                found.add(tuple(env[name] for name, _, _ in order[:printed]))
            return
        name, values, _ = order[i]
        for v in values:
            env[name] = v
            if all(ev(env) for ev in checks[i]):
                search(i + 1)
    search(0)
    return found


def make_model(seed, index):
    """Model number index of the seed: a few tries at one with some
    solutions but not too many; an unsatisfiable one is kept now and then."""
    rng = random.Random(f"{seed}/{index}")
    for attempt in range(20):
        model = Generator(rng).build()
        solutions = solve(model)
        if len(solutions) <= MAX_SOLUTIONS and (solutions or attempt >= 5 or rng.random() < 0.15):
            return model, solutions
    return model, solutions


# ---- reading the solvers' output

def json_value(value, kind):
    if kind == "set":
        out = set()
        for item in value["set"]:
            if isinstance(item, list):
                out.update(range(item[0], item[1] + 1))
            else:
                out.add(item)
        return frozenset(out)
    if kind == "bool":
        if not isinstance(value, bool):
            raise ValueError(f"not a Boolean: {value!r}")
        return value
    if value is None and kind == "opt":
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"not an integer: {value!r}")
    return value


def solution_from_json(model, text):
    data = json.loads(text)
    if set(data) != {name for name, _, _ in model.outputs}:
        raise ValueError(f"printed {sorted(data)}, expected {sorted(n for n, _, _ in model.outputs)}")
    out = []
    for name, elements, kind in model.outputs:
        if elements is None:
            out.append(json_value(data[name], kind))
        else:
            if len(data[name]) != len(elements):
                raise ValueError(f"{name} has {len(data[name])} elements, expected {len(elements)}")
            out.extend(json_value(v, kind) for v in data[name])
    return tuple(out)


FINALS = ("==========", "=====UNSATISFIABLE=====", "=====UNKNOWN=====", "=====ERROR=====",
          "=====UNBOUNDED=====", "=====UNSATorUNBOUNDED=====")


class Output:
    """A solver's output: the text of each solution, the final marker (or
    None), and what is malformed."""

    def __init__(self, text):
        self.solutions, self.final, self.bad = [], None, []
        chunk = []
        for line in text.splitlines():
            s = line.strip()
            if not s or s.startswith("%"):
                continue
            if s == "----------":
                if self.final:
                    self.bad.append(f"a solution after {self.final}")
                self.solutions.append("\n".join(chunk))
                chunk = []
            elif s in FINALS:
                if self.final:
                    self.bad.append(f"two final markers ({self.final}, {s})")
                if chunk:
                    self.bad.append(f"an unterminated solution before {s}")
                    chunk = []
                self.final = s
            else:
                if self.final:
                    self.bad.append(f"text after {self.final}: {s[:60]}")
                chunk.append(s)
        if chunk:
            self.bad.append("the last solution is not ended by ----------")


def show_value(value, kind):
    if kind == "bool":
        return "true" if value else "false"
    if kind == "set":
        return set_text(value)
    if kind == "opt" and value is None:
        return "<>"
    return str(value)


def show_solution(model, sol):
    parts, i = [], 0
    for name, elements, kind in model.outputs:
        if elements is None:
            parts.append(f"{name}={show_value(sol[i], kind)}")
            i += 1
        else:
            parts.append(f"{name}=[{','.join(show_value(v, kind) for v in sol[i:i + len(elements)])}]")
            i += len(elements)
    return " ".join(parts)


# ---- running one model

class Context:
    def __init__(self, propane, msc_dir, minizinc, seed, work, gecode_msc):
        self.propane, self.msc_dir, self.minizinc, self.seed, self.work = propane, msc_dir, minizinc, seed, work
        self.gecode_msc = gecode_msc
        self.env = dict(os.environ, MZN_SOLVER_PATH=msc_dir)


def run(cmd, env):
    """(exit status or None on a timeout, stdout, stderr). A process group
    of its own, so that a timeout also ends the solver minizinc started."""
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, env=env, start_new_session=True)
    try:
        out, err = p.communicate(timeout=RUN_TIMEOUT)
        return p.returncode, out, err
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        return None, out, err


def quote(cmd):
    return " ".join(c if c and all(ch.isalnum() or ch in "-_./=:" for ch in c) else repr(c) for c in cmd)


class Check:
    """One model's runs and what went wrong in them."""

    def __init__(self, ctx, index, model, solutions):
        self.ctx, self.index, self.model, self.solutions = ctx, index, model, solutions
        self.problems = []      # (who, what)
        self.listings = []      # (who, solution set) to print beside the brute force's
        self.timed_out = False
        self.dir = os.path.join(ctx.work, f"model-{index}")
        os.makedirs(self.dir)
        self.path = os.path.join(self.dir, "model.mzn")
        with open(self.path, "w") as f:
            f.write(model.text())
        # Gecode without the solve item's annotations, which change no
        # solution: fzn-gecode -a never ends under restarts, and throws on a
        # search over a variable MiniZinc fixed.
        self.gecode_path = os.path.join(self.dir, "gecode.mzn")
        with open(self.gecode_path, "w") as f:
            f.write(model.text(annotated=False))

    def fail(self, who, what):
        self.problems.append((who, what))

    def execute(self, who, cmd):
        if self.timed_out:
            return None
        rc, out, err = run(cmd, self.ctx.env)
        file_name = "".join(ch if ch.isalnum() else "_" for ch in who) + ".out"
        with open(os.path.join(self.dir, file_name), "w") as f:
            f.write(out)
        if rc is None:
            self.timed_out = True
            self.fail(who, f"no answer within {RUN_TIMEOUT} s (the model's later runs are skipped): {quote(cmd)}")
            return None
        if rc != 0:
            detail = err.strip().splitlines()[-3:] if err.strip() else []
            self.fail(who, f"exit status {rc}: {quote(cmd)}" + "".join(f"\n      {d}" for d in detail))
            return None
        return out

    def read_json(self, who, out):
        """The solutions of a minizinc JSON output (None when one is
        unreadable), and the output's parts."""
        o = Output(out)
        for b in o.bad:
            self.fail(who, b)
        sols = []
        for text in o.solutions:
            try:
                sols.append(solution_from_json(self.model, text))
            except (ValueError, KeyError, TypeError) as e:
                self.fail(who, f"unreadable solution ({e}): {text[:200]}")
                return None, o
        return sols, o

    def expect_final(self, who, o, k=None):
        """Complete (or unsatisfiable) unless -n k stopped it before the
        last solution."""
        count = len(self.solutions)
        if k is not None and k <= count:
            if o.final is not None:
                self.fail(who, f"ends with {o.final}, though -n {k} stops before the last of {count} solutions")
            return
        expected = "==========" if count else "=====UNSATISFIABLE====="
        if o.final != expected:
            self.fail(who, f"ends with {o.final or 'no final marker'}, expected {expected}")

    def expect_all(self, who, sols, o):
        """sols must be exactly the brute force's solutions, each once, and
        the output complete."""
        self.expect_final(who, o)
        want = self.solutions
        got = set(sols)
        if len(got) != len(sols):
            self.fail(who, f"{len(sols) - len(got)} solutions printed twice")
        if got != want:
            self.fail(who, f"{len(got)} distinct solutions, brute force has {len(want)}: "
                           f"{len(want - got)} missing, {len(got - want)} wrong")
            self.listings.append((who, got))

    def expect_some(self, who, sols, o, k):
        """-n k: min(k, count) real solutions, none twice."""
        self.expect_final(who, o, k)
        got = set(sols)
        if len(got) != len(sols):
            self.fail(who, f"{len(sols) - len(got)} solutions printed twice")
        if len(sols) != min(k, len(self.solutions)):
            self.fail(who, f"{len(sols)} solutions, expected {min(k, len(self.solutions))}")
        if not got <= self.solutions:
            self.fail(who, f"{len(got - self.solutions)} solutions that are none")
            self.listings.append((who, got))

    def expect_optimal(self, who, sols, o):
        """Real solutions, each better than the one before, the last one
        optimal, and the search complete."""
        self.expect_final(who, o)
        if not self.solutions:
            return
        sense, objective = self.model.objective
        names = self.model.printed()
        values = [objective.ev(dict(zip(names, s))) for s in sols]
        better = operator.lt if sense == "minimize" else operator.gt
        best = (min if sense == "minimize" else max)(objective.ev(dict(zip(names, s))) for s in self.solutions)
        if not set(sols) <= self.solutions:
            self.fail(who, f"{len(set(sols) - self.solutions)} solutions that are none")
            self.listings.append((who, set(sols)))
        if any(not better(b, a) for a, b in zip(values, values[1:])):
            shown = ", ".join(map(str, values[:12])) + (", ..." if len(values) > 12 else "")
            self.fail(who, f"the objectives ({shown}) do not strictly improve")
        if not values or values[-1] != best:
            self.fail(who, f"last objective {values[-1] if values else None}, the optimum is {best}")

    def expect_raw(self, who, o, k=None):
        """The raw FlatZinc output: no solution twice (minizinc would hide
        that), and as many as the brute force counts (under
        optimization, at least one when there is one)."""
        for b in o.bad:
            self.fail(who, b)
        self.expect_final(who, o, k)
        texts = ["\n".join(sorted(s.splitlines())) for s in o.solutions]
        if len(set(texts)) != len(texts):
            self.fail(who, f"{len(texts) - len(set(texts))} raw solutions printed twice")
        if self.model.objective:
            if self.solutions and not texts:
                self.fail(who, "no solution")
            return
        want = len(self.solutions) if k is None else min(k, len(self.solutions))
        if len(texts) != want:
            self.fail(who, f"{len(texts)} raw solutions, expected {want}")

    def expect(self, who, flags, sols, o, k):
        if self.model.objective:
            self.expect_optimal(who, sols, o)
        elif "-n" in flags:
            self.expect_some(who, sols, o, k)
        else:
            self.expect_all(who, sols, o)

    def gecode(self):
        ctx = self.ctx
        cmd = [ctx.minizinc, "--solver", ctx.gecode_msc, "-a", "--output-mode", "json", self.gecode_path]
        out = self.execute("gecode -a", cmd)
        if out is None:
            return False
        sols, o = self.read_json("gecode -a", out)
        before = len(self.problems)
        if sols is not None:
            self.expect("gecode -a", ["-a"], sols, o, None)
        return sols is not None and len(self.problems) == before

    def propane(self):
        ctx = self.ctx
        count = len(self.solutions)
        # -n k below the count when there are two solutions or more; above
        # it otherwise, where the search must end complete.
        k = random.Random(f"{ctx.seed}/{self.index}/k").randint(1, count - 1) if count >= 2 else count + 1
        # Under optimization, a plain run (the optimum, proved) in place of
        # -n k.
        last = [] if self.model.objective else ["-n", str(k)]
        variants = (["-a"], ["-a", "-p", "2"], ["-a", "-f"], last)
        for flags in variants:
            who = " ".join(["propane"] + flags)
            out = self.execute(who, [ctx.minizinc, "--solver", SOLVER] + flags + ["--output-mode", "json", self.path])
            if out is None:
                continue
            sols, o = self.read_json(who, out)
            if sols is None:
                continue
            self.expect(who, flags, sols, o, k)
        # The same runs on the FlatZinc, for what minizinc hides: a solution
        # printed twice. (Its output is not read back through the .ozn:
        # minizinc --ozn-file alone lacks builtins the .ozn of an optional
        # variable calls.)
        fzn, ozn = os.path.join(self.dir, "model.fzn"), os.path.join(self.dir, "model.ozn")
        if self.execute("flattening", [ctx.minizinc, "-c", "--solver", SOLVER, self.path,
                                       "--fzn", fzn, "--ozn", ozn]) is None:
            return
        for flags in variants:
            who = " ".join(["fzn-propane"] + flags)
            raw = self.execute(who, [ctx.propane] + flags + [fzn])
            if raw is not None:
                self.expect_raw(who, Output(raw), k if "-n" in flags else None)

    def report(self, only_reference):
        m = self.model
        lines = [f"FAIL model {self.index} (seed {self.ctx.seed}): "
                 + ("Gecode disagrees with the brute force: this script's evaluator (or MiniZinc) is wrong, "
                    "not propane" if only_reference else "propane's runs fail (Gecode agrees with the brute force)")]
        lines += [f"  {who}: {what}" for who, what in self.problems]
        lines.append(f"  model (kept in {self.path}, with each run's output beside it):")
        lines += ["    " + line for line in m.text().splitlines()]
        lines.append(f"  brute force: {len(self.solutions)} solutions")
        shown = sorted(self.solutions, key=repr)
        # runs that printed the same set, listed once
        same = {}
        for who, got in self.listings:
            same.setdefault(frozenset(got), []).append(who)
        for got, whos in same.items():
            who = ", ".join(whos)
            missing = sorted(self.solutions - got, key=repr)
            wrong = sorted(got - self.solutions, key=repr)
            for what, sols in (("missing from", missing), ("wrong in", wrong)):
                for s in sols[:10]:
                    lines.append(f"    {what} {who}: {show_solution(m, s)}")
                if len(sols) > 10:
                    lines.append(f"    ... and {len(sols) - 10} more {what} {who}")
        if not self.listings:
            for s in shown[:10]:
                lines.append(f"    {show_solution(m, s)}")
            if len(shown) > 10:
                lines.append(f"    ... and {len(shown) - 10} more")
        lines.append(f"  reproduce: python3 {os.path.abspath(__file__)} {quote([self.ctx.propane, self.ctx.msc_dir])} "
                     f"--seed {self.ctx.seed} --only {self.index}")
        return "\n".join(lines)


def check_model(ctx, index):
    """Returns (passed, one line or a failure report)."""
    try:
        return check_one(ctx, index)
    except Exception:
        return False, (f"FAIL model {index} (seed {ctx.seed}): this script failed\n{traceback.format_exc()}"
                       f"  reproduce: python3 {os.path.abspath(__file__)} {quote([ctx.propane, ctx.msc_dir])} "
                       f"--seed {ctx.seed} --only {index}")


def check_one(ctx, index):
    model, solutions = make_model(ctx.seed, index)
    check = Check(ctx, index, model, solutions)
    summary = f"{len(solutions)} solutions; {', '.join(model.features) or 'plain'}"
    if not check.gecode():
        return False, check.report(True)
    check.propane()
    if check.problems:
        return False, check.report(False)
    shutil.rmtree(check.dir)
    return True, f"ok {index}: {summary}"


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="differential.py",
        usage="differential.py FZN_PROPANE MSC_DIR [--seed S|random] [--models N] [--seconds T] [--only I]",
        description="Compares fzn-propane's -a enumeration with brute force on random MiniZinc models.")
    p.add_argument("fzn_propane", metavar="FZN_PROPANE")
    p.add_argument("msc_dir", metavar="MSC_DIR")
    p.add_argument("--seed", default="1", help='an integer, or "random" (default 1)')
    p.add_argument("--models", type=int, default=200, metavar="N")
    p.add_argument("--seconds", type=float, default=None, metavar="T")
    p.add_argument("--only", type=int, default=None, metavar="I")
    args = p.parse_args(argv)
    if args.seed == "random":
        args.seed = random.SystemRandom().randrange(1, 1 << 31)
    else:
        try:
            args.seed = int(args.seed)
        except ValueError:
            p.error(f'--seed must be an integer or "random", not {args.seed!r}')
    if args.models < 1:
        p.error("--models must be at least 1")
    if args.seconds is not None and args.seconds < 0:
        p.error("--seconds must not be negative")
    if args.only is not None and args.only < 0:
        p.error("--only must not be negative")
    propane = shutil.which(args.fzn_propane) if os.sep not in args.fzn_propane else args.fzn_propane
    if not propane or not os.path.isfile(propane) or not os.access(propane, os.X_OK):
        p.error(f"FZN_PROPANE {args.fzn_propane!r} is not an executable file")
    if not os.path.isdir(args.msc_dir):
        p.error(f"MSC_DIR {args.msc_dir!r} is not a folder")
    args.fzn_propane, args.msc_dir = os.path.realpath(propane), os.path.abspath(args.msc_dir)
    return p, args


def msc_executables(folder):
    """The executables the solver configurations for SOLVER in folder name."""
    out = set()
    for entry in os.listdir(folder):
        if entry.endswith(".msc"):
            try:
                with open(os.path.join(folder, entry)) as f:
                    config = json.load(f)
            except (OSError, ValueError):
                continue
            if config.get("id") == SOLVER and "executable" in config:
                out.add(os.path.realpath(os.path.join(folder, config["executable"])))
    return out


def gecode_config(work, gecode):
    """A solver configuration for fzn-gecode with MiniZinc's standard
    library and nosets.mzn, which propane's library includes too: sets then
    reach both solvers as the same Booleans, so that a fault of MiniZinc's
    there shows against Gecode and is not taken for propane's. (Not
    Gecode's own library: with MiniZinc 2.6.4 it breaks models with
    globals, see corpus_test.sh.)"""
    library = os.path.join(work, "gecode-nosets")
    os.makedirs(library)
    with open(os.path.join(library, "redefinitions.mzn"), "w") as f:
        f.write('include "nosets.mzn";\n')
    path = os.path.join(work, "gecode-nosets.msc")
    with open(path, "w") as f:
        json.dump({"id": "org.propane.differential.gecode", "name": "Gecode with std and nosets.mzn",
                   "version": "1", "mznlib": library, "executable": gecode, "stdFlags": ["-a"],
                   "supportsMzn": False, "supportsFzn": True, "needsSolns2Out": True}, f)
    return path


def main(argv):
    parser, args = parse_args(argv)
    minizinc = shutil.which("minizinc")
    if not minizinc:
        print("FAIL: minizinc is not installed (Debian package minizinc); it flattens the models", file=sys.stderr)
        return 1
    gecode = shutil.which("fzn-gecode")
    if not gecode:
        print("FAIL: fzn-gecode is not installed (Debian package flatzinc); it checks the brute force",
              file=sys.stderr)
        return 1
    rc, solvers, _ = run([minizinc, "--solvers"], dict(os.environ, MZN_SOLVER_PATH=args.msc_dir))
    if rc != 0 or SOLVER not in solvers:
        parser.print_usage(sys.stderr)
        print(f"differential.py: error: MiniZinc finds no solver {SOLVER} in MSC_DIR {args.msc_dir!r}",
              file=sys.stderr)
        return 2
    # The runs through minizinc must meet the same fzn-propane as the direct
    # ones.
    named = msc_executables(args.msc_dir)
    if named and args.fzn_propane not in named:
        parser.print_usage(sys.stderr)
        print(f"differential.py: error: {SOLVER} in MSC_DIR runs {', '.join(sorted(named))}, "
              f"not FZN_PROPANE {args.fzn_propane}", file=sys.stderr)
        return 2

    print(f"differential: seed {args.seed}", flush=True)
    work = tempfile.mkdtemp(prefix="propane-differential-")
    ctx = Context(args.fzn_propane, args.msc_dir, minizinc, args.seed, work, gecode_config(work, gecode))
    indices = [args.only] if args.only is not None else range(args.models)
    start = time.monotonic()
    passed = failed = 0
    # Two models at a time: each spends most of its time waiting for
    # minizinc. Results print in model order.
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        started, pending, results = [], {}, {}
        remaining = iter(indices)

        def submit():
            if failed >= MAX_FAILURES:
                return
            late = args.seconds is not None and time.monotonic() - start > args.seconds
            if late and len(started) >= MIN_MODELS:
                return
            for i in remaining:
                started.append(i)
                pending[pool.submit(check_model, ctx, i)] = i
                return
        submit()
        submit()
        while pending:
            finished, _ = concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
            for future in finished:
                results[pending.pop(future)] = future.result()
            while passed + failed < len(started) and started[passed + failed] in results:
                ok, text = results.pop(started[passed + failed])
                print(text, flush=True)
                passed += ok
                failed += not ok
            for _ in finished:
                submit()
    elapsed = time.monotonic() - start
    print(f"differential: {passed + failed} models in {elapsed:.0f} s, {passed} passed, {failed} failed"
          f" (seed {args.seed})", flush=True)
    if failed:
        print(f"differential: the failing models are kept under {work}")
        return 1
    shutil.rmtree(work)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
