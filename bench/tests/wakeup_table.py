#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""
bench/scripts/wakeup-table.py on made-up rounds: per placement and reply the
async and sync p50 are the medians of the rounds' medians, sync ÷ async is
taken within each round (median and range), a mode is on one CPU in a round
when its p50 is at most 1.5× its placement-same p50 of that round (none
known: "—"), a sync row without its async twin is not shown; no file is
exit 2, an unreadable one 1.
"""
import json
import os
import subprocess
import sys
import tempfile

from testlib import check, finish

TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "wakeup-table.py")


def doc(path, rows):
    """rows: name -> p50 (ns); one-repetition rows, as a quick knotif-bench run writes them"""
    bench = [{"name": n, "run_name": n, "run_type": "iteration", "repetitions": 1, "p50": p,
              "ctx_switches_per_op": 2.0, "migrations_per_op": 0.0} for n, p in rows.items()]
    with open(path, "w") as f:
        json.dump({"context": {}, "benchmarks": bench}, f)
    return path


def name(mode, place):
    return f"unotif/{mode}/emulate/placement:{place}"


with tempfile.TemporaryDirectory() as tmp:
    rounds = [
        # round 1: async stays cross (10x), sync is pulled (1.2x)
        doc(os.path.join(tmp, "r1.json"), {name("async", "same"): 1000, name("sync", "same"): 1000,
                                           name("async", "free"): 10000, name("sync", "free"): 1200,
                                           "unotif/sync/continue/placement:free": 900}),
        # round 2: both on one CPU
        doc(os.path.join(tmp, "r2.json"), {name("async", "same"): 1000, name("sync", "same"): 1000,
                                           name("async", "free"): 1400, name("sync", "free"): 1100}),
        # round 3: no placement same
        doc(os.path.join(tmp, "r3.json"), {name("async", "free"): 9000, name("sync", "free"): 1000}),
    ]
    r = subprocess.run([TABLE] + rounds, capture_output=True, text=True)
    check(r.returncode == 0, f"exit {r.returncode}: {r.stderr}")
    # async p50s 10.0, 1.4, 9.0 -> 9.0; sync 1.2, 1.1, 1.0 -> 1.1; ratios 0.12, 0.79, 0.11 -> 0.12
    check("| free | emulate | 9.00 | 1.10 | 0.12 (0.11–0.79) | 3 of 3 | 1 of 2 | 2 of 2 | 2.00 | 2.00 | 0.00 | 0.00 |"
          in r.stdout, f"free row: {r.stdout}")
    check("| same | emulate | 1.00 | 1.00 | 1.00 (1.00–1.00) | 0 of 2 | 2 of 2 | 2 of 2 |" in r.stdout,
          f"same row: {r.stdout}")
    check("continue" not in r.stdout.split("\n", 3)[3], f"a sync row without its async twin is shown: {r.stdout}")
    check(r.stdout.startswith("3 round(s);"), "the round count")
    r = subprocess.run([TABLE, rounds[2]], capture_output=True, text=True)
    check(r.returncode == 0 and "| free | emulate | 9.00 | 1.00 | 0.11 (0.11–0.11) | 1 of 1 | — | — |" in r.stdout,
          f"no same placement: {r.returncode} {r.stdout}")
    r = subprocess.run([TABLE], capture_output=True, text=True)
    check(r.returncode == 2 and "usage" in r.stderr, f"no file: {r.returncode} {r.stderr}")
    r = subprocess.run([TABLE, os.path.join(tmp, "missing.json")], capture_output=True, text=True)
    check(r.returncode == 1 and r.stderr.startswith("wakeup-table: "), f"missing file: {r.returncode} {r.stderr}")
finish()
