#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""tools/run/scripts/bystander-table.py on made-up rounds, as results/run/regen
writes them (a condition, then emulate_load's bystander line, interleaved):
each figure the median over rounds, p50 and p99 against idle's, the flood's
thread count, the kernel and commit in the line above the table; a condition
with no round and a line that is not a bystander's are one line and exit 1,
a wrong argument count a usage line and exit 2.
Usage: bystander_table.py SOURCE_DIR"""
import os
import subprocess
import sys
import tempfile

from testlib import check, finish

table = [sys.executable, os.path.join(sys.argv[1], "tools", "run", "scripts", "bystander-table.py")]
ARGS = ["300", "256", "6.18.44-test", "0123456789ab"]


def run(tmp, lines):
    path = os.path.join(tmp, "rounds")
    with open(path, "w") as f:
        f.write("".join(line + "\n" for line in lines))
    return path, subprocess.run(table + [path] + ARGS, capture_output=True, text=True)


with tempfile.TemporaryDirectory() as tmp:
    # round by round: idle, flood, stuck (p50, p99, max in ns)
    figures = [((130000, 330000, 13593000), (200000, 480000, 575000), (150000, 390000, 1291000)),
               ((140000, 350000, 900000), (210000, 500000, 600000), (160000, 380000, 1200000)),
               ((120000, 340000, 1100000), (190000, 470000, 550000), (156000, 400000, 1400000))]
    lines = [f"{cond} calls 300 p50_ns {p50} p99_ns {p99} max_ns {mx}"
             for rnd in figures for cond, (p50, p99, mx) in zip(("idle", "flood", "stuck"), rnd)]
    _, r = run(tmp, lines)
    # medians: idle 130 / 340 / 1,100; flood 200 / 480 / 575; stuck 156 / 390 / 1,291
    check(r.returncode == 0 and r.stdout.split("\n") == [
        "# One process's emulated mknod beside another's",
        "",
        "`results/run/regen` on 6.18.44-test, knotif 0123456789ab: a bystander's 300 calls under one knotif-run "
        "--emulate=mknod, 3 interleaved rounds (median over rounds).",
        "",
        "| beside | p50 µs | p99 µs | max µs | p50 × idle | p99 × idle |",
        "|---|---:|---:|---:|---:|---:|",
        "| nothing (idle) | 130 | 340 | 1,100 | 1.00 | 1.00 |",
        "| a 256-thread flood | 200 | 480 | 575 | 1.54 | 1.41 |",
        "| an act held by a FUSE server | 156 | 390 | 1,291 | 1.20 | 1.15 |",
        ""], f"exit {r.returncode}: {r.stderr} {r.stdout!r}")
    path, r = run(tmp, [line for line in lines if not line.startswith("stuck")])
    check(r.returncode == 1 and r.stderr == f"bystander-table: {path}: no stuck round\n",
          f"no stuck round: exit {r.returncode}, {r.stderr!r}")
    # emulate_load's bystander failed: the condition alone on its line
    path, r = run(tmp, lines[:4] + ["flood"] + lines[5:])
    check(r.returncode == 1 and r.stderr == f"bystander-table: {path}:5: not a 'COND calls N p50_ns P p99_ns Q max_ns M' line\n",
          f"a condition without figures: exit {r.returncode}, {r.stderr!r}")
    r = subprocess.run(table + [path] + ARGS[:-1], capture_output=True, text=True)
    check(r.returncode == 2 and r.stderr == "usage: bystander-table.py ROUNDS N THREADS KERNEL SHA\n" and not r.stdout,
          f"four arguments: exit {r.returncode}, {r.stderr!r}")
finish()
