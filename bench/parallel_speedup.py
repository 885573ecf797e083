#!/usr/bin/env python3
"""Speed-up of nqueens --threads 2 over --threads 1, or of mpirun -np 2
nqueens_mpi over -np 1, for an N-queens count at each strength; or the
machine's own ceiling for both, the speed-up two independent one-thread
counts get from running side by side instead of one after the other.

    bench/parallel_speedup.py threads build/nqueens [--n 14] [--pairs 7]
    bench/parallel_speedup.py mpi build/nqueens_mpi [--n 14] [--pairs 5]
    bench/parallel_speedup.py ceiling build/nqueens [--n 14] [--pairs 7]

Runs alternate, the order flipping from pair to pair (one, two, two, one,
...), so that drift in a shared machine's speed falls on both alike; each
time is the whole command's wall clock. Prints the median of each side and the median of the per-pair
ratios, and stops if a pair's solutions, failures or branches differ.
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
    p.add_argument("mode", choices=["threads", "mpi", "ceiling"])
    p.add_argument("program")
    p.add_argument("--n", default="14")
    p.add_argument("--pairs", type=int, default=7)
    p.add_argument("--mpirun", default="mpirun", help="with Open MPI as root: 'mpirun --allow-run-as-root'")
    a = p.parse_args()
    for strength in ["value", "bounds", "domain"]:
        base = [a.n, "--count", "--json", "--consistency", strength]
        if a.mode == "threads":
            one, two = [a.program] + base + ["--threads", "1"], [a.program] + base + ["--threads", "2"]
        elif a.mode == "ceiling":
            one = two = [a.program] + base + ["--threads", "1"]
        else:
            launcher = a.mpirun.split() + ["--oversubscribe"]
            one, two = launcher + ["-np", "1", a.program] + base, launcher + ["-np", "2", a.program] + base
        t1, t2, ratios = [], [], []
        # In ceiling mode "two" is two one-thread counts side by side, and
        # "one" one count, taken twice for the time of doing both in turn.
        run_two = timed_side_by_side if a.mode == "ceiling" else timed
        for k in range(a.pairs):
            if k % 2 == 0:
                x, out1 = timed(one)
                y, out2 = run_two(two)
            else:
                y, out2 = run_two(two)
                x, out1 = timed(one)
            if a.mode == "ceiling":
                x *= 2
            if counts(out1) != counts(out2):
                sys.exit(f"{strength}: the two runs differ: {counts(out1)} and {counts(out2)}")
            t1.append(x)
            t2.append(y)
            ratios.append(x / y)
        first, second = ("in turn", "side by side") if a.mode == "ceiling" else ("one", "two")
        print(f"N = {a.n}, {strength}: {first} {statistics.median(t1):.3f} s, {second} {statistics.median(t2):.3f} s, "
              f"speed-up {statistics.median(ratios):.3f}x (pairs {min(ratios):.3f} to {max(ratios):.3f}); "
              f"solutions, failures, branches {counts(out1)}", flush=True)


if __name__ == "__main__":
    main()
