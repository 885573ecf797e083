#!/usr/bin/env python3
"""Compile time of propane's example programs beside the same programs in Gecode.

Compiles each examples/*.cpp (and with --compiled once more with
<propane/compiled.hpp> force-included, the opt-in prebuilt instances) and
its counterparts in bench/compile_time/gecode/ to an object file at the
given flags, each --runs times, and prints a Markdown table of the medians
of CPU seconds (user + system, from /usr/bin/time: on a shared machine the
steadier figure) and peak memory (MB, the compiler's maximum resident set).

Gecode has two counterparts: gecode/NAME.cpp, the example's model and
search alone, and, for the examples with a command line, gecode/driver/NAME.cpp,
the same model run through Gecode's driver (its options, search engines and
printing), the way Gecode's own example programs are written. The ratios
(propane's last column against Gecode) are against the driver program where
there is one, as the example is a program too, and against the model
otherwise. Only compiling is timed: both sides link against a prebuilt
library (Gecode's, propane's compiled instances) that this does not build.
Run from anywhere; see docs/compile_time.md for the command and the figures.

--smoke FILE compiles one file once, propane only, and fails when it does
not compile: a quick figure on a machine without Gecode.
"""

import argparse
import os
import pathlib
import shlex
import statistics
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
GECODE = pathlib.Path(__file__).resolve().parent / "gecode"


def measure(cmd):
    """(CPU seconds, peak MB) of one compile; raises when it fails."""
    with tempfile.NamedTemporaryFile(mode="r", suffix=".time") as out:
        done = subprocess.run(["/usr/bin/time", "-o", out.name, "-f", "%U %S %M"] + cmd,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if done.returncode != 0:
            raise RuntimeError("failed: " + shlex.join(cmd) + "\n" + done.stderr[-4000:])
        user, system, kb = out.read().split()[-3:]
    return float(user) + float(system), int(kb) / 1024


def medians_of(cmds, runs):
    """The median (CPU seconds, peak MB) of each command, the commands run in
    turn, `runs` rounds: each round then sees about the same load on a
    shared machine, which the ratios need more than the absolute figures."""
    samples = [[] for _ in cmds]
    for _ in range(runs):
        for i, cmd in enumerate(cmds):
            samples[i].append(measure(cmd))
    return [tuple(statistics.median(column) for column in zip(*s)) for s in samples]


def cells(cpu, mb):
    return f" {cpu:.2f} | {mb:.0f} |"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cxx", default=os.environ.get("CXX", "g++"))
    ap.add_argument("--flags", default="-std=c++20 -O2", help="compile flags of both sides (default: %(default)s)")
    ap.add_argument("--runs", type=int, default=3, help="compiles per file, the median reported (default: 3)")
    ap.add_argument("--compiled", action="store_true",
                    help="also compile each example with <propane/compiled.hpp> force-included")
    ap.add_argument("--only", nargs="*", help="example names (default: every examples/*.cpp)")
    ap.add_argument("--smoke", metavar="FILE", help="compile this one file once, propane only, and stop")
    args = ap.parse_args()

    flags = shlex.split(args.flags)
    inc = ["-I", str(ROOT / "include"), "-I", str(ROOT / "examples")]
    obj = ["-c", "-o", os.devnull]
    if args.smoke:
        cpu, mb = measure([args.cxx] + flags + inc + [args.smoke] + obj)
        print(f"{args.smoke}: {cpu:.2f} s CPU, {mb:.0f} MB")
        return 0

    names = args.only or sorted(p.stem for p in (ROOT / "examples").glob("*.cpp"))
    head = "| program | propane CPU s | MB |"
    rule = "|---|---:|---:|"
    if args.compiled:
        head += " + compiled.hpp CPU s | MB |"
        rule += "---:|---:|"
    head += " Gecode model CPU s | MB | Gecode program CPU s | MB | ratio CPU s | ratio MB |"
    rule += "---:|---:|---:|---:|---:|---:|"
    print(f"{args.cxx} {args.flags}, median of {args.runs}")
    print()
    print(head)
    print(rule)
    for name in names:
        src = ROOT / "examples" / f"{name}.cpp"
        cmds = [[args.cxx] + flags + inc + [str(src)] + obj]
        if args.compiled:
            cmds.append([args.cxx] + flags + inc + ["-include", "propane/compiled.hpp", str(src)] + obj)
        gecode = (GECODE / f"{name}.cpp", GECODE / "driver" / f"{name}.cpp")
        cmds += [[args.cxx] + flags + ["-I", str(GECODE), str(g)] + obj for g in gecode if g.exists()]
        results = iter(medians_of(cmds, args.runs))
        ours = next(results)
        row = f"| {name} |" + cells(*ours)
        if args.compiled:
            ours = next(results)
            row += cells(*ours)
        theirs = None
        for g in gecode:
            if g.exists():
                theirs = next(results)
                row += cells(*theirs)
            else:
                row += " | |"
        if theirs:
            row += f" {ours[0] / theirs[0]:.2f} | {ours[1] / theirs[1]:.2f} |"
        else:
            row += " | |"
        print(row, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
