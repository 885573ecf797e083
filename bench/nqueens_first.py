#!/usr/bin/env python3
"""Times `nqueens N --first [flags]` over board sizes and checks each board
independently: one queen per column (by construction of the print-out), per
row, and per diagonal.

usage: bench/nqueens_first.py NQUEENS "FLAGS" N...   (N may be a range a..b)
prints one line per N: N elapsed_ms search_ms failures, then a summary."""
import re, statistics, subprocess, sys, time

def sizes(args):
    for a in args:
        if '..' in a:
            lo, hi = a.split('..')
            yield from range(int(lo), int(hi) + 1)
        else:
            yield int(a)

def check(n, text):
    rows = [l.split() for l in text.splitlines() if re.fullmatch(r'[Q_]( [Q_])*', l)]
    assert len(rows) == n, f'{len(rows)} board rows, expected {n}'
    q = [None] * n
    for r, cells in enumerate(rows):
        assert len(cells) == n and cells.count('Q') == 1, f'row {r} has not exactly one queen'
        q[cells.index('Q')] = r
    assert None not in q, 'a column without a queen'
    assert len({q[c] + c for c in range(n)}) == n and len({q[c] - c for c in range(n)}) == n, 'diagonal attack'

exe, flags, rest = sys.argv[1], sys.argv[2].split(), sys.argv[3:]
limit = float(__import__("os").environ.get("LIMIT", "10"))  # seconds per board
times = []
for n in sizes(rest):
    t0 = time.perf_counter()
    try:
        p = subprocess.run([exe, str(n), '--first', *flags], capture_output=True, text=True, timeout=limit)
    except subprocess.TimeoutExpired:
        print(f'{n} timeout', flush=True)
        times.append((limit * 1000, n))
        continue
    elapsed = (time.perf_counter() - t0) * 1000
    assert p.returncode == 0, p.stderr
    check(n, p.stdout)
    failures = int(re.search(r'failures: (\d+)', p.stdout).group(1))
    search = int(re.search(r'wall time: (\d+) ms', p.stdout).group(1))
    times.append((elapsed, n))
    print(f'{n} {elapsed:.1f} {search} {failures}', flush=True)
el = sorted(t for t, _ in times)
print(f'# {len(times)} boards verified; elapsed ms: median {statistics.median(el):.1f}, max {max(times)[0]:.1f} (N = {max(times)[1]})')
