#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""repeat-table.py, without booting anything: on two made-up boots, a row
whose every repetition has one p50 is "yes", one that moved in one
repetition is "no" with its range, a row that did not run shows its error,
and one a boot lacks is "(absent)"; the same boots inside vm-bench A/B
files compare as AB.json:patched, and a plain file named as one is exit 1;
usage is exit 2, an unreadable file 1.
Usage: repeat_table.py SOURCE_DIR"""
import json
import os
import subprocess
import sys
import tempfile

from testlib import check, finish, write_gb_runs as boot

script = os.path.join(sys.argv[1], "kernel", "scripts", "repeat-table.py")


with tempfile.TemporaryDirectory() as tmp:
    a, b = os.path.join(tmp, "a.json"), os.path.join(tmp, "b.json")
    boot(a, {"x/placement:cross": [100, 100, 100], "y/placement:cross": [7, 7, 7],
             "z/placement:cross": "unsupported: no", "w/placement:cross": [5, 5],
             "v/placement:cross": [3, 3]})
    boot(b, {"x/placement:cross": [100, 100, 100], "y/placement:cross": [7, 9, 7],
             "z/placement:cross": "unsupported: no", "v/placement:cross": "failed: x"})
    r = subprocess.run([script, a, b], capture_output=True, text=True)
    check(r.returncode == 0, f"exit {r.returncode}: {r.stderr}")
    lines = {l.split("|")[1].strip(): [c.strip() for c in l.split("|")[2:-1]] for l in r.stdout.splitlines()[2:]}
    check(lines.get("`x/placement:cross`") == ["100, 100, 100", "100, 100, 100", "yes"], f"x: {lines}")
    check(lines.get("`y/placement:cross`") == ["7, 7, 7", "7, 9, 7", "no: 7–9"], f"y: {lines}")
    check(lines.get("`z/placement:cross`") == ["unsupported: no", "unsupported: no", "—"], f"z: {lines}")
    check(lines.get("`w/placement:cross`") == ["5, 5", "(absent)", "—"], f"w: {lines}")
    # a row that failed in one boot is not "the same" on the other boot's repetitions alone
    check(lines.get("`v/placement:cross`") == ["3, 3", "failed: x", "—"], f"v: {lines}")
    # the same boots inside vm-bench A/B files, compared kernel by kernel
    ab = []
    for i, path in enumerate((a, b)):
        with open(path) as f:
            doc = json.load(f)
        ab.append(os.path.join(tmp, f"ab{i}.json"))
        with open(ab[-1], "w") as f:
            json.dump({"stock": {"meta": {}, "results": {"knotif-bench.json": {"context": {}, "benchmarks": []}}},
                       "patched": {"meta": {}, "results": {"knotif-bench.json": doc}}, "table": []}, f)
    r = subprocess.run([script, ab[0] + ":patched", ab[1] + ":patched"], capture_output=True, text=True)
    check(r.returncode == 0 and "| `y/placement:cross` | 7, 7, 7 | 7, 9, 7 | no: 7–9 |" in r.stdout,
          f"A/B files, patched: {r.returncode} {r.stdout} {r.stderr}")
    r = subprocess.run([script, a + ":stock", ab[1] + ":stock"], capture_output=True, text=True)
    check(r.returncode == 1 and "no knotif-bench run of the stock kernel" in r.stderr,
          f"a plain file as an A/B file: {r.returncode} {r.stderr}")
    r = subprocess.run([script, a], capture_output=True, text=True)
    check(r.returncode == 2, f"one file: exit {r.returncode}")
    r = subprocess.run([script, a, os.path.join(tmp, "missing.json")], capture_output=True, text=True)
    check(r.returncode == 1 and r.stderr.startswith("repeat-table: "), f"a missing file: {r.returncode} {r.stderr}")
finish()
