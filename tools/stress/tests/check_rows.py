#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Hold every row of a knotif-stress JSON file to each expression given.

usage: check_rows.py FILE EXPR...   (r is the row, ctx the context)
Exit 0 when every row passes every check, 77 when a row is unsupported
(the reason printed), 1 otherwise.
"""
import json
import sys

doc = json.load(open(sys.argv[1]))
ctx = doc["context"]
rows = doc["benchmarks"]
if not rows:
    print("not ok: no rows")
    sys.exit(1)
if ctx["knotif"].get("tool") != "knotif-stress":
    print("not ok: context.knotif.tool is", ctx["knotif"].get("tool"))
    sys.exit(1)
bad = 0
for r in rows:
    if r.get("error_occurred"):
        msg = r.get("error_message", "")
        if msg.startswith("unsupported:"):
            print("skip:", r["name"], msg)
            sys.exit(77)
        print("not ok:", r["name"], msg)
        bad += 1
        continue
    for key in ("name", "run_name", "run_type", "iterations", "real_time", "cpu_time", "time_unit"):
        if key not in r:
            print("not ok:", r["name"], "lacks the Google Benchmark key", key)
            bad += 1
    for expr in sys.argv[2:]:
        if not eval(expr, {"r": r, "ctx": ctx, "rows": rows}):
            shown = {k: v for k, v in r.items() if isinstance(v, (int, float))}
            print("not ok:", r["name"], "fails", expr, shown)
            bad += 1
if not bad:
    print("ok: %d rows pass %d checks" % (len(rows), len(sys.argv) - 2))
sys.exit(1 if bad else 0)
