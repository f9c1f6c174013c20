#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""
bench/scripts/agent-table.py on two made-up runs: each row's p50 is the
median of the runs' medians, the ratios are to agent/mknod-root and to
agent/read-vm/id-valid + agent/native-mknodat, the floor line (context
taken per call) says what it adds and the pool against it, mknod-fork's steps are the
median of the runs' step means with their shares, a failed row is listed
with its error, and runs at two placements are refused.
"""
import json
import os
import subprocess
import sys
import tempfile

from testlib import check, finish

TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "agent-table.py")


def row(name, p50, mean, agg="median", **extra):
    r = {"name": f"{name}_{agg}", "run_name": name, "run_type": "aggregate", "aggregate_name": agg,
         "repetitions": 3, "p50": p50, "real_time": mean}
    r.update(extra)
    return r


def run_doc(scale, place="same", fail=False):
    steps = {"step:take_ns": 10000.0 * scale, "step:fork_ns": 30000.0 * scale}
    rows = [row(f"agent/read-vm/id-valid/placement:{place}", 8000 * scale, 8500),
            row(f"agent/native-mknodat/placement:{place}", 12000 * scale, 13000),
            row(f"agent/mknod-root/placement:{place}", 25000 * scale, 26000),
            row(f"agent/mknod-root/context/placement:{place}", 50000 * scale, 51000),
            row(f"agent/mknod-pool/placement:{place}", 75000 * scale, 76000),
            row(f"agent/mknod-fork/placement:{place}", 400000 * scale, 410000 * scale, **steps)]
    if fail:
        rows.append({"name": f"agent/mknod-exec/placement:{place}", "run_name": f"agent/mknod-exec/placement:{place}",
                     "error_occurred": True, "error_message": "unsupported: no root"})
    return {"context": {}, "benchmarks": rows}


def table(*docs):
    with tempfile.TemporaryDirectory() as d:
        paths = []
        for i, doc in enumerate(docs):
            paths.append(os.path.join(d, f"r{i}.json"))
            with open(paths[-1], "w") as f:
                json.dump(doc, f)
        return subprocess.run([sys.executable, TABLE] + paths, capture_output=True, text=True)


r = table(run_doc(1.0), run_doc(2.0, fail=True), run_doc(1.5))
out = r.stdout
check(r.returncode == 0, f"exit {r.returncode}: {r.stderr}")
check("3 run(s)" in out, "the run count")
# medians of 1x, 2x, 1.5x: 1.5x; ratios are scale-free
check("| `agent/mknod-fork` | 600.0 | 16.00 | 20.00 |" in out, f"the fork row: {out}")
check("| `agent/mknod-root` | 37.5 | 1.00 | 1.25 |" in out, "the root row")
check("adds 37.5 µs to the limit: a way that checks it per call costs at least 2.00× the limit; "
      "`agent/mknod-pool` is 1.50× that floor." in out, f"the floor line: {out}")
check("| `agent/mknod-exec` | unsupported: no root | | |" in out, "the failed row")
check("| take | 15.0 | 25.0% |" in out and "| fork | 45.0 | 75.0% |" in out, "the steps and their shares")
check("| **the steps** | **60.0** | 100% |" in out, "the steps' sum")
check("| the row's mean round trip | 615.0 | |" in out, "the fork row's mean round trip")
r = table(run_doc(1.0), run_doc(1.0, place="cross"))
check(r.returncode != 0 and "several placements" in r.stderr, f"two placements: exit {r.returncode}, {r.stderr}")
r = subprocess.run([sys.executable, TABLE], capture_output=True, text=True)
check(r.returncode == 2, f"no argument: exit {r.returncode}")
finish()
