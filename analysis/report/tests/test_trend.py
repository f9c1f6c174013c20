#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The trend page end to end: real knotif-history records (in SQLite or
PostgreSQL: the page is drawn from `trend --format json`, which both stores
give alike) of two runs, one the gate failed, one it passed, and a run of
another machine class become `knotif-report --trend`; headless Chromium
renders it and the DOM must hold, per class and benchmark, a figure with its
floor-ratio and p50 lines, a red cross for the failed run in its class only,
each class's table of runs, nothing that reaches outside the file; bad
input exits 2 with one line.

usage: test_trend.py KNOTIF_HISTORY KNOTIF_REPORT RUN_A.json RUN_B.json
Exit 0 pass, 1 fail, 77 skip (with the reason).
"""
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import chromium  # noqa: E402
from checks import check, expect_usage_error, failures, skip, slug  # noqa: E402

HISTORY, REPORT, RUN_A, RUN_B = sys.argv[1:5]


def history(*args):
    res = subprocess.run([HISTORY] + list(args), capture_output=True, text=True, timeout=60)
    check(res.returncode == 0, "knotif-history %s: exit %d: %s" % (" ".join(args), res.returncode, res.stderr.strip()))
    return res.stdout


def main():
    if not shutil.which("chromium"):
        skip("chromium not installed (Debian package chromium)")
    tmp = tempfile.mkdtemp(prefix="knotif-trend-test.")
    try:
        db = os.path.join(tmp, "h.sqlite")
        with open(RUN_B, encoding="utf-8") as f:
            other = json.load(f)
        other["context"]["num_cpus"] = 64
        with open(os.path.join(tmp, "other.json"), "w", encoding="utf-8") as f:
            json.dump(other, f)
        history("record", RUN_A, "--db", db)                              # 1
        history("record", RUN_B, "--db", db, "--gate", "fail")            # 2
        again = json.load(open(RUN_A, encoding="utf-8"))
        again["context"]["date"] = "a later run of the same build"    # a run is stored once
        with open(os.path.join(tmp, "again.json"), "w", encoding="utf-8") as f:
            json.dump(again, f)
        history("record", os.path.join(tmp, "again.json"), "--db", db, "--gate", "pass")   # 3
        history("record", os.path.join(tmp, "other.json"), "--db", db)    # 4: another class
        trend_json = os.path.join(tmp, "trend.json")
        history("trend", "--format", "json", "--db", db, "-o", trend_json)
        with open(trend_json, encoding="utf-8") as f:
            trend = json.load(f)
        page = os.path.join(tmp, "trend.html")
        res = subprocess.run([REPORT, "--trend", trend_json, "-o", page], capture_output=True, text=True, timeout=300)
        check(res.returncode == 0, "knotif-report --trend: exit %d: %s" % (res.returncode, res.stderr.strip()))
        if res.returncode == 0:
            dom, error = chromium.dump_dom(page, tmp)
            check(not error, error or "")
            svgs, groups = dom.ids.get("svg", set()), dom.ids.get("g", set())
            check(len(trend["classes"]) == 2, "expected 2 classes, got %d" % len(trend["classes"]))
            for k, c in enumerate(trend["classes"], 1):
                failed_class = any(r.get("gate") == "fail" for b in c["benchmarks"] for r in b["runs"])
                check(c["benchmarks"], "class %d has no benchmarks" % k)
                for b in c["benchmarks"]:
                    fid = "trend-c%d-%s" % (k, slug(b["name"]))
                    check(fid in svgs, "no figure %s" % fid)
                    for line in ("floor", "p50"):
                        check("%s-%s" % (fid, line) in groups, "no %s line in %s" % (line, fid))
                        marked = "%s-failed-%s" % (fid, line) in groups
                        check(marked == failed_class, "%s: failed-run marker %s, expected %s" %
                              (fid, "present" if marked else "absent", "present" if failed_class else "absent"))
                check("trend-c%d-runs" % k in dom.ids.get("table", set()), "no table of runs for class %d" % k)
                check(c["machine_class"] in dom.texts.get("class-%d" % k, ""), "class %d's heading missing" % k)
            check("failed" in dom.texts.get("class-1", ""), "class 1's table does not say a run failed")
            check(not dom.external, "the page reaches outside itself: %s" % dom.external)
            check(not dom.dup_ids, "duplicate ids: %s" % sorted(dom.dup_ids)[:5])
        # -o a FIFO: the page goes through it, and it stays a FIFO (a rename over it
        # would have put a file there: as root, -o /dev/null would replace the device)
        fifo = os.path.join(tmp, "fifo")
        os.mkfifo(fifo)
        got = []
        reader = threading.Thread(target=lambda: got.append(open(fifo, encoding="utf-8").read()), daemon=True)
        reader.start()
        res = subprocess.run([REPORT, "--trend", trend_json, "-o", fifo], capture_output=True, text=True, timeout=300)
        if reader.is_alive():   # the report never opened it: end the reader
            with open(fifo, "w", encoding="utf-8"):
                pass
        reader.join(timeout=10)
        check(res.returncode == 0, "-o FIFO: exit %d: %s" % (res.returncode, res.stderr.strip()))
        check(stat.S_ISFIFO(os.stat(fifo).st_mode), "-o FIFO: no longer a FIFO")
        check(bool(got) and "<svg" in got[0], "-o FIFO: the page did not come through it")
        # bad input: one line, exit 2
        bad = os.path.join(tmp, "bad.json")
        with open(bad, "w", encoding="utf-8") as f:
            f.write('{"classes": 3}')
        expect_usage_error(REPORT, ["--trend", bad], "--trend with a file that is not trend JSON")
        expect_usage_error(REPORT, ["--trend", os.path.join(tmp, "none.json")], "--trend with a missing file")
        expect_usage_error(REPORT, ["--trend", trend_json, RUN_A], "--trend and BENCH.json")
        expect_usage_error(REPORT, [], "neither BENCH.json nor --trend")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print("%d failures" % len(failures))
        sys.exit(1)
    print("trend page: every figure, line and failed-run marker rendered")


if __name__ == "__main__":
    main()
