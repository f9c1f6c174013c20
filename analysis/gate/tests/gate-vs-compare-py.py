#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""knotif-compare against Google Benchmark's compare.py on the same two
files: for every benchmark both report, our U-test p-value over real_time
must equal compare.py's time_pvalue, and our verdict must be the one
compare.py's own numbers imply under the gate's rule (median real_time
change beyond the threshold AND p < alpha).
Usage: gate-vs-compare-py.py KNOTIF_COMPARE RUN_A RUN_B   Exit 0/1/77."""
import json
import os
import statistics
import subprocess
import sys
import tempfile

from testlib import check, fail, finish, skip, soft_fail

COMPARE_PY = "/usr/share/benchmark/compare.py"
THRESHOLD, ALPHA = 0.5, 0.05
TIMES = ["real_time", "cpu_time", "min", "p50", "p90", "p99", "p999", "max", "stddev"]


def scaled(doc, name, factor):
    """a copy of doc whose benchmark `name` is factor times slower"""
    doc = json.loads(json.dumps(doc))
    for row in doc["benchmarks"]:
        if row.get("run_name") == name:
            for k in TIMES + ["floor_ratio"]:
                if k in row and row.get("aggregate_name") != "cv":
                    row[k] *= factor
    return doc


def compare_py(a, b, tmp):
    dump = os.path.join(tmp, "cp.json")
    subprocess.run(["/usr/bin/python3", COMPARE_PY, "--no-color", "--dump_to_json", dump,
                    "benchmarks", a, b], check=True, capture_output=True)
    with open(dump) as f:
        return {r["name"]: r for r in json.load(f)}


def ours(tool, a, b):
    p = subprocess.run([tool, "--metric=real_time", "--floor=gate", "--format=json", a, b],
                       capture_output=True, text=True)
    if p.returncode not in (0, 1):
        fail(f"knotif-compare exited {p.returncode}: {p.stderr}")
    return p.returncode, {r["name"]: r for r in json.loads(p.stdout)["benchmarks"]}


def expected_verdict(cp):
    old = statistics.median(m["real_time"] for m in cp["measurements"])
    new = statistics.median(m["real_time_other"] for m in cp["measurements"])
    change = new / old - 1
    p = cp["utest"]["time_pvalue"]
    if change > THRESHOLD:
        return "REGRESSION" if p < ALPHA else "unsure"
    if change < 1 / (1 + THRESHOLD) - 1:
        return "improved" if p < ALPHA else "unsure"
    return "pass"


def check_pair(tool, a, b, label, tmp):
    cp = compare_py(a, b, tmp)
    rc, mine = ours(tool, a, b)
    seen = 0
    for name, row in mine.items():
        if name not in cp or not cp[name]["utest"]:
            continue
        seen += 1
        theirs = cp[name]["utest"]["time_pvalue"]
        want = expected_verdict(cp[name])
        check(abs(row["pvalue"] - theirs) <= 1e-9 * theirs + 1e-15 and row["verdict"] == want,
              f"{label} {name}: ours p={row['pvalue']!r} {row['verdict']}; "
              f"compare.py p={theirs!r} -> {want}")
    if not seen:
        soft_fail(f"{label}: compare.py ran no U test")
    else:
        print(f"{label}: {seen} benchmarks compared with compare.py (exit {rc})")
    return rc


def main():
    tool, a, b = sys.argv[1:4]
    if not os.path.exists(COMPARE_PY):
        skip(f"{COMPARE_PY} not installed (Debian package libbenchmark-tools)")
    try:
        import scipy  # noqa: F401  compare.py needs it
    except ImportError:
        skip("/usr/bin/python3 has no scipy, which compare.py needs")
    with open(a) as f:
        doc_a = json.load(f)
    with tempfile.TemporaryDirectory() as tmp:
        slow = os.path.join(tmp, "slow.json")
        with open(slow, "w") as f:
            json.dump(scaled(doc_a, "unotif/sync/emulate/placement:same", 2.0), f)
        fast = os.path.join(tmp, "fast.json")
        with open(fast, "w") as f:
            json.dump(scaled(doc_a, "ptrace-seccomp/emulate/placement:same", 0.4), f)
        for x, y, label, want_rc in [(a, b, "two real runs", None), (a, a, "a run and itself", 0),
                                     (a, slow, "unotif x2", 1), (a, fast, "ptrace x0.4", 0)]:
            rc = check_pair(tool, x, y, label, tmp)
            check(want_rc is None or rc == want_rc, f"{label}: knotif-compare exited {rc}, expected {want_rc}")
    finish()


if __name__ == "__main__":
    main()
