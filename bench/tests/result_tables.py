#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The tables results/bench/regen writes from its runs:

  - bench/scripts/standalone-table.py on the committed results/bench/standalone.txt
    and standalone-bench-*.json gives results/bench/standalone.md byte for byte
    (never edited by hand); a line it cannot read is one line and exit 1;
  - bench/scripts/counters-table.py on made-up procfs and perf_event runs: each
    row's p50 per source is the median of its rounds, perf / procfs their ratio,
    the rows in the runs' order; a row with no perf_event run is one line and
    exit 1.

Both: no file is a usage line and exit 2.
Usage: result_tables.py SOURCE_DIR"""
import glob
import os
import subprocess
import sys
import tempfile

from testlib import check, finish, first_difference, write_gb_runs

root = sys.argv[1]
standalone = [sys.executable, os.path.join(root, "bench", "scripts", "standalone-table.py")]
counters = [sys.executable, os.path.join(root, "bench", "scripts", "counters-table.py")]
results = os.path.join(root, "results", "bench")


def counters_run(path, src, p50s):
    """a knotif-bench --counters run of one repetition per row: context.knotif.counters names the source"""
    return write_gb_runs(path, {n: [p] for n, p in p50s.items()}, {"knotif": {"counters": src}})


with tempfile.TemporaryDirectory() as tmp:
    bench_runs = sorted(glob.glob(os.path.join(results, "standalone-bench-*.json")))
    check(len(bench_runs) == 3, f"{len(bench_runs)} results/bench/standalone-bench-*.json, not 3")
    r = subprocess.run(standalone + [os.path.join(results, "standalone.txt")] + bench_runs,
                       capture_output=True, text=True)
    want = open(os.path.join(results, "standalone.md"), encoding="utf-8").read()
    if check(r.returncode == 0, f"standalone-table: exit {r.returncode}: {r.stderr}"):
        where = first_difference(r.stdout, want)
        check(not where, f"results/bench/standalone.md is not what its data regenerates: {where}")
    bad = os.path.join(tmp, "standalone.txt")
    with open(bad, "w") as f:
        f.write("unotif/async/emulate same-CPU: median 7000 ns\nsegfault\n")
    r = subprocess.run(standalone + [bad] + bench_runs, capture_output=True, text=True)
    check(r.returncode == 1 and r.stderr == f"standalone-table: {bad}:2: not a 'NAME same-CPU: median|mean N ns' line\n",
          f"an unreadable line: exit {r.returncode}, {r.stderr!r}")
    r = subprocess.run(standalone + [os.path.join(results, "standalone.txt")], capture_output=True, text=True)
    check(r.returncode == 2 and r.stderr.startswith("usage: "), f"standalone-table, no run: exit {r.returncode}")

    asy, syn, fut = (f"{m}/placement:same" for m in ("unotif/async/emulate", "unotif/sync/emulate", "pingpong/futex"))
    runs = [counters_run(os.path.join(tmp, "procfs-1.json"), "procfs", {asy: 5000, syn: 6000, fut: 4000}),
            counters_run(os.path.join(tmp, "perf-1.json"), "perf_event", {asy: 10000, syn: 9000, fut: 6000}),
            counters_run(os.path.join(tmp, "procfs-2.json"), "procfs", {asy: 7000, syn: 6200, fut: 4400}),
            counters_run(os.path.join(tmp, "perf-2.json"), "perf_event", {asy: 12000, syn: 9100, fut: 6600}),
            counters_run(os.path.join(tmp, "procfs-3.json"), "procfs", {asy: 6000, syn: 5800, fut: 4200}),
            counters_run(os.path.join(tmp, "perf-3.json"), "perf_event", {asy: 11000, syn: 12000, fut: 6300})]
    r = subprocess.run(counters + runs, capture_output=True, text=True)
    # medians: async 6.00 / 11.00, sync 6.00 / 9.10, futex 4.20 / 6.30
    check(r.returncode == 0 and r.stdout.split("\n") == [
        "Same-CPU p50 with each counter source (median of 3 interleaved runs, µs); perf / procfs is",
        "what perf_event software counters on target and supervisor add to the round trip they count.",
        "",
        "| benchmark | procfs p50 µs | perf p50 µs | perf / procfs |",
        "|---|---:|---:|---:|",
        "| `unotif/async/emulate` | 6.00 | 11.00 | 1.833 |",
        "| `unotif/sync/emulate` | 6.00 | 9.10 | 1.517 |",
        "| `pingpong/futex` | 4.20 | 6.30 | 1.500 |",
        ""], f"counters-table: exit {r.returncode}: {r.stderr} {r.stdout!r}")
    r = subprocess.run(counters + runs[::2], capture_output=True, text=True)
    check(r.returncode == 1 and r.stderr == f"counters-table: {asy}: no run with counters perf_event\n",
          f"no perf_event run: exit {r.returncode}, {r.stderr!r}")
    r = subprocess.run(counters, capture_output=True, text=True)
    check(r.returncode == 2 and r.stderr.startswith("usage: "), f"counters-table, no run: exit {r.returncode}")
finish()
