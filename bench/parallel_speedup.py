#!/usr/bin/env python3
"""Speed-up of nqueens --threads 2 over --threads 1, or of mpirun -np 2
nqueens_mpi over -np 1, for an N-queens count at each strength, beside the
machine's own ceiling measured in the same rounds: the speed-up two
independent copies of the one-worker command get from running side by
side instead of one after the other.

    bench/parallel_speedup.py threads build/nqueens [--n 14] [--rounds 9]
    bench/parallel_speedup.py mpi build/nqueens_mpi [--n 14] [--rounds 7]

Each round times three whole commands by wall clock: one worker, two
workers, and two copies of the one-worker command side by side. The order
rotates from round to round, so that drift in a shared machine's speed
falls on all three alike. The speed-up of a round is one / two, its
ceiling 2 * one / side by side, its efficiency the first over the second.
Prints the medians over the rounds, and stops if any run's solutions,
failures or branches differ.
"""
import argparse
import json
import statistics
import subprocess
import sys
import time


def timed(cmd):
    start = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return time.perf_counter() - start, out


def timed_side_by_side(cmd):
    """Two copies of cmd at once; the time until both have ended."""
    start = time.perf_counter()
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True) for _ in range(2)]
    outs = [proc.communicate()[0] for proc in procs]
    if any(proc.returncode != 0 for proc in procs):
        sys.exit(f"{cmd} failed")
    return time.perf_counter() - start, outs[0]


def counts(out):
    j = json.loads(out.strip().splitlines()[-1])
    return j["solutions"], j["failures"], j["branches"]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("mode", choices=["threads", "mpi"])
    p.add_argument("program")
    p.add_argument("--n", default="14")
    p.add_argument("--rounds", type=int, default=9)
    p.add_argument("--mpirun", default="mpirun", help="with Open MPI as root: 'mpirun --allow-run-as-root'")
    a = p.parse_args()
    for strength in ["value", "bounds", "domain"]:
        base = [a.n, "--count", "--json", "--consistency", strength]
        if a.mode == "threads":
            one, two = [a.program] + base + ["--threads", "1"], [a.program] + base + ["--threads", "2"]
        else:
            launcher = a.mpirun.split() + ["--oversubscribe"]
            one, two = launcher + ["-np", "1", a.program] + base, launcher + ["-np", "2", a.program] + base
        runs = [lambda: timed(one), lambda: timed(two), lambda: timed_side_by_side(one)]
        times = [[], [], []]
        expected = None
        for k in range(a.rounds):
            for r in range(3):
                which = (r + k) % 3
                t, out = runs[which]()
                if expected is None:
                    expected = counts(out)
                elif counts(out) != expected:
                    sys.exit(f"{strength}: runs differ: {expected} and {counts(out)}")
                times[which].append(t)
        speedup = [x / y for x, y in zip(times[0], times[1])]
        ceiling = [2 * x / z for x, z in zip(times[0], times[2])]
        efficiency = [s / c for s, c in zip(speedup, ceiling)]
        med = statistics.median
        print(f"N = {a.n}, {strength}: one {med(times[0]):.3f} s, two {med(times[1]):.3f} s, "
              f"speed-up {med(speedup):.3f}x (rounds {min(speedup):.3f} to {max(speedup):.3f}), "
              f"ceiling {med(ceiling):.3f}x, efficiency {med(efficiency):.3f}; "
              f"solutions, failures, branches {expected}", flush=True)


if __name__ == "__main__":
    main()
