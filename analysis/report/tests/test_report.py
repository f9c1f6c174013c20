#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""knotif-report end to end: a real (small) knotif-bench run becomes a report,
headless Chromium renders it, and the rendered DOM must hold every expected
figure: a CCDF line, a histogram and a floor bar per method that ran, the
workload bars, the trace stack; sections without input say "Not provided";
bad input exits 2 with one line.

usage: test_report.py KNOTIF_BENCH KNOTIF_RUN KNOTIF_REPORT [KNOTIF_STRESS [KNOTIF_TRACE]]
Every input is produced here by the real tool; knotif-trace needs root and BPF
tracepoints, and without them the trace section is checked for its note.
Exit 0 pass, 1 fail, 77 skip (with the reason).
"""
import html
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import chromium  # noqa: E402
from checks import check, expect_usage_error, fail, failures, skip, slug, soft_fail  # noqa: E402
BENCH, RUN, REPORT = sys.argv[1:4]
STRESS = sys.argv[4] if len(sys.argv) > 4 else None
TRACE = sys.argv[5] if len(sys.argv) > 5 else None
FILTER = r"^(null|sud|unotif/sync/emulate|ptrace-syscall|pingpong/(pipe|futex))/placement:same$"


def chromium_dom(page, tmp, screenshot=None):
    dom, error = chromium.dump_dom(page, tmp, screenshot)
    if error:
        soft_fail(error)
    return dom


def report(args, tmp, name):
    out = os.path.join(tmp, name)
    res = subprocess.run([REPORT] + args + ["-o", out], capture_output=True, text=True, timeout=300)
    if res.returncode != 0:
        soft_fail("knotif-report %s: exit %d: %s" % (" ".join(args), res.returncode, res.stderr.strip()))
        return None
    with open(out, encoding="utf-8") as f:
        text = f.read()
    check("<script" not in text.lower(), "%s contains a script" % name)
    return out


def main():
    if not shutil.which("chromium"):
        skip("chromium not installed (Debian package chromium)")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        skip("matplotlib missing for %s (Debian python3-matplotlib)" % sys.executable)
    tmp = tempfile.mkdtemp(prefix="knotif-report-test.")
    try:
        run_json, run_csv = os.path.join(tmp, "run.json"), os.path.join(tmp, "run.csv")
        res = subprocess.run([BENCH, "--benchmark_filter=" + FILTER, "--placement=same", "--samples=200",
                              "--benchmark_repetitions=2", "--benchmark_format=json", "--benchmark_out=" + run_json,
                              "--samples_out=" + run_csv], capture_output=True, text=True, timeout=300)
        if res.returncode != 0:
            fail("knotif-bench exit %d: %s" % (res.returncode, res.stderr.strip()))
        with open(run_json) as f:
            rows = json.load(f)["benchmarks"]
        ran = sorted({r["run_name"].split("/placement:")[0] for r in rows if not r.get("error_occurred")})
        unsupported = sorted({r["run_name"].split("/placement:")[0] for r in rows if r.get("error_occurred")})
        if "pingpong/futex" not in ran:
            skip("the ping-pong floor did not run: %s" % unsupported)

        # real workload numbers: hyperfine on a tiny command, bare and under knotif-run
        wl = os.path.join(tmp, "hyperfine.json")
        hf = subprocess.run(["hyperfine", "-N", "--style=none", "--runs", "3", "--export-json", wl,
                             "true", "%s --quiet -- true" % RUN], capture_output=True, text=True, timeout=120)
        if hf.returncode != 0:
            soft_fail("hyperfine: exit %d: %s" % (hf.returncode, hf.stderr.strip()))

        # knotif-stress: a short scaling curve and a pending curve
        stress_files = []
        if STRESS:
            for name, args in (("stress.json", ["--targets=1,2,4", "--strategy=epoll", "--requests=100"]),
                               ("pending.json", ["--pending=1,8", "--cycles=100"])):
                path = os.path.join(tmp, name)
                res = subprocess.run([STRESS, "--placement=same", "--benchmark_out=" + path] + args,
                                     capture_output=True, text=True, timeout=300)
                if res.returncode != 0:
                    soft_fail("knotif-stress %s: exit %d: %s" % (" ".join(args), res.returncode,
                                                                       res.stderr.strip()[-300:]))
                stress_files += ["--stress", path]
        # knotif-trace: phases of a short unotif benchmark, when BPF tracing is allowed
        trace_json, traced = os.path.join(tmp, "trace.json"), False
        if TRACE:
            res = subprocess.run([TRACE, "-q", "-j", trace_json, "--", BENCH,
                                  "--benchmark_filter=^unotif/sync/emulate/placement:same$", "--samples=200",
                                  "--benchmark_repetitions=1"], capture_output=True, text=True, timeout=300)
            traced = res.returncode == 0
            if not traced:
                print("note: knotif-trace exit %d (%s): trace figure not checked" %
                      (res.returncode, res.stderr.strip().splitlines()[-1:] or ""))

        # 1. everything: samples, workloads, stress, trace
        full = report([run_json, "--samples", run_csv, "--workloads", wl] + stress_files +
                      (["--trace", trace_json] if traced else []), tmp, "full.html")
        if full:
            dom = chromium_dom(full, tmp, screenshot=os.path.join(os.getcwd(), "report-test.png"))
            svgs, groups = dom.ids.get("svg", set()), dom.ids.get("g", set())
            check(not dom.external, "full.html reaches outside itself: %s" % dom.external[:5])
            check(not dom.dup_ids, "ids used twice: %s" % sorted(dom.dup_ids)[:5])
            check("ccdf-same" in svgs, "no CCDF figure for placement same")
            check("floor-same" in svgs, "no floor-ratio figure for placement same")
            for m in ran:
                check("ccdf-same-%s" % slug(m) in groups, "no CCDF line for %s" % m)
                check("hist-same-%s" % slug(m) in svgs, "no histogram for %s" % m)
                check("floor-same-%s" % slug(m) in groups, "no floor bar for %s" % m)
            for m in unsupported:
                check("ccdf-same-%s" % slug(m) not in groups, "a curve for %s, which did not run" % m)
            check("workload-hyperfine" in svgs, "no workload figure")
            check("workload-hyperfine-true" in groups, "no workload bar for 'true'")
            if STRESS:
                stress_lines = [g for g in groups if g.startswith("stress-placement-same-topology-shared-p50-")]
                check("stress-placement-same-topology-shared" in svgs and
                      any("epoll" in g for g in stress_lines), "no epoll stress curve: %s" % stress_lines)
                pending_lines = [g for g in groups if g.startswith("pending-placement-same-id-valid-p50-")]
                check("pending-placement-same" in svgs and any("async" in g for g in pending_lines),
                      "no pending-notification curve: %s" % pending_lines)
            if traced:
                check("trace-phases" in svgs and "trace-unotif-queue-wait" in groups, "no trace phase stack")
            for s in ["histograms", "workloads"] + (["stress"] if STRESS else []) + (["trace"] if traced else []):
                check("missing-" + s not in dom.ids.get("p", set()), "section %s says missing" % s)
            check("null" in dom.texts.get("summary", ""), "summary table lacks the null row")

        # an optional input in a schema we do not know is a note, not a crash
        odd = report([run_json, "--stress", run_csv.replace(".csv", ".json"), "--trace", run_json], tmp, "odd.html")
        if odd:
            with open(odd, encoding="utf-8") as f:
                text = html.unescape(f.read())
            check('id="missing-stress"' in text and "no knotif-stress rows" in text, "odd stress input: no note")
            check('id="missing-trace"' in text and "no 'phases' summaries" in text, "odd trace input: no note")

        # 2. only the JSON: quantile curves, and every optional section says so
        bare = report([run_json], tmp, "bare.html")
        if bare:
            dom = chromium_dom(bare, tmp)
            groups, paras = dom.ids.get("g", set()), dom.ids.get("p", set())
            for m in ran:
                check("ccdf-same-%s" % slug(m) in groups, "no quantile curve for %s without samples" % m)
            for s in ("histograms", "stress", "trace", "workloads"):
                check("missing-" + s in paras and "Not provided" in dom.texts.get(s, ""),
                      "section %s should say 'Not provided'" % s)
            check(not dom.ids.get("svg", set()) & {"hist-same-null", "trace-phases", "stress-scaling"},
                  "figures drawn for inputs that were not given")

        # 3. bad input: exit 2, one line
        bad_json = os.path.join(tmp, "bad.json")
        with open(bad_json, "w") as f:
            f.write("{ not json")
        no_rows = os.path.join(tmp, "norows.json")
        with open(no_rows, "w") as f:
            json.dump({"context": {}}, f)
        bad_csv = os.path.join(tmp, "bad.csv")
        with open(bad_csv, "w") as f:
            f.write("a,b\n1,2\n")
        expect_usage_error(REPORT, [os.path.join(tmp, "absent.json")], "missing file")
        expect_usage_error(REPORT, [bad_json], "not JSON")
        expect_usage_error(REPORT, [no_rows], "no benchmarks")
        expect_usage_error(REPORT, [run_json, "--samples", bad_csv], "bad samples header")
        expect_usage_error(REPORT, [run_json, "--workloads", run_json], "bench JSON as hyperfine JSON")
        expect_usage_error(REPORT, [run_json, "--bogus"], "unknown flag")
        expect_usage_error(REPORT, [], "no input")
        # -o a folder: refused before any work, and no FOLDER.tmp left beside it
        expect_usage_error(REPORT, [run_json, "-o", tmp], "-o a folder")
        check(not os.path.exists(tmp + ".tmp"), "-o DIR left %s.tmp" % tmp)
        expect_usage_error(REPORT, [run_json, "-o", os.path.join(tmp, "absent", "x.html")], "-o in a missing folder")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        return 1
    print("PASS (%d methods ran, %d unsupported: %s)" % (len(ran), len(unsupported), ", ".join(unsupported) or "none"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
