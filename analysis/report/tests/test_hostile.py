#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""knotif-report on inputs whose strings are hostile: a real run (RUN.json)
with its benchmarks renamed to hold an escape sequence, a bell, U+202E, a
vertical tab, U+FFFE, a lone surrogate, a mathtext formula and 10,000
characters, and a host, kernel, CPU and command line with controls in them;
samples, stress, trace and workload inputs and a trend document alike.

Every page must be written (exit 0), hold no character XML 1.0 forbids and
no raw bidi control, every inline SVG must parse with a strict XML parser
(xml.etree), the escapes must be visible (\\x1b, \\u202e), no figure may be
drawn 10,000 characters wide, and the summary table keeps the whole name.

usage: test_hostile.py KNOTIF_REPORT RUN.json
No build and no browser: it needs /usr/bin/python3 with matplotlib.
Exit 0 pass, 1 fail, 77 skip (with the reason).
"""
import csv
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from checks import check, failures, skip  # noqa: E402

REPORT, RUN = sys.argv[1:3]

EVIL = "unotif\x1b[2J\x07/\u202eevil"
LONG = "L" + "0" * 5000 + "A" + "0" * 5000
ODD = "pipe\x0b\ufffe\ud800"       # json.dump writes the lone surrogate as "\ud800"
FORMULA = "null$\\frac$"             # two '$': mathtext, were it parsed
CONTROLS = {"unotif/sync/emulate": EVIL, "ptrace-seccomp/emulate": LONG}
# names an unguarded report does not get as far as writing: it crashes on them
CRASHERS = {"pingpong/pipe": ODD, "null": FORMULA}

# what XML 1.0 forbids, and the bidi controls (allowed by XML, but they reorder what a reader sees)
FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
SVG = re.compile(r"<svg\b.*?</svg>", re.S)
MAX_FIGURE_PT = 3000   # the widest figure of today is ~900 pt; a 10,000-character legend is ~40,000


def renamed(name, renames):
    for old, new in renames.items():
        if name.startswith(old + "/placement:"):
            return new + name[len(old):]
    return name


def write_json(path, doc):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f)
    return path


def hostile_run(tmp, renames, name):
    with open(RUN, encoding="utf-8") as f:
        run = json.load(f)
    for row in run["benchmarks"]:
        row["name"] = renamed(row["name"], renames)
        if "run_name" in row:
            row["run_name"] = renamed(row["run_name"], renames)
    ctx, k = run["context"], run["context"]["knotif"]
    ctx["host_name"] = "vm\x1b]0;owned\x07"
    k["kernel_release"] = "6.18\u202e\x1b[31m"
    k["kernel_version"] = "\x00#1"
    k["cpu_model"] = "\x08EPYC\u2066"
    k["command_line"] = k.get("command_line", []) + ["--x=\x1b\u202e\x85"]
    return write_json(os.path.join(tmp, name), run)


def inputs(tmp):
    bench = hostile_run(tmp, dict(CONTROLS, **CRASHERS), "run.json")

    samples = os.path.join(tmp, "run.csv")
    with open(samples, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["name", "repetition", "index", "ns"])
        for name in (EVIL, LONG):
            for i in range(200):
                w.writerow([name + "/placement:same", 0, i, 1000 + 7 * i])

    stress = write_json(os.path.join(tmp, "stress.json"), {"benchmarks": [
        {"name": "stress/\x1bepoll\u202e/targets:%d/placement:same" % n, "run_name":
         "stress/\x1bepoll\u202e/targets:%d/placement:same" % n, "run_type": "iteration",
         "p50": 1000.0 * n, "p99": 2000.0 * n, "items_per_second": 1e5 / n} for n in (1, 2, 4)]})
    trace = write_json(os.path.join(tmp, "trace.json"), {"kinds": {
        EVIL: {"phases": {"queue_wait": {"mean": 300.0}, "think\x07": {"mean": 100.0},
                          "round_trip": {"mean": 450.0}}},
        LONG: {"phases": {"queue_wait": {"mean": 200.0}}}}})
    workloads = write_json(os.path.join(tmp, "hyperfine.json"), {"results": [
        {"command": "true\x1b[31m", "mean": 0.001, "stddev": 0.0001, "median": 0.001, "min": 0.0009, "max": 0.0012},
        {"command": LONG + "\u202e", "mean": 0.002, "stddev": 0.0002, "median": 0.002, "min": 0.0018,
         "max": 0.0023}]})

    def runs(gate):
        return [{"id": i, "git_sha": "abc\x07\u202e%d" % i, "date": "d\x1b", "recorded_at": "r\u2066",
                 "gate": gate if i == 2 else "pass", "repetitions": 9, "floor_ratio": 1.0 + i / 10,
                 "p50_ns": 1000.0 + i} for i in (1, 2, 3)]
    trend = write_json(os.path.join(tmp, "trend.json"), {"trend_schema_version": 1, "classes": [
        {"machine_class": "\x1bAMD\u202e, 2 CPUs", "benchmarks": [
            {"name": EVIL + "/placement:same", "runs": runs("fail")},
            {"name": LONG + "/placement:same", "runs": runs("fail\x1b")},
            {"name": FORMULA, "runs": runs("pass")}]}]})
    return bench, samples, stress, trace, workloads, trend


def controls_only(tmp, trend):
    """The run and trend without CRASHERS: the page is written, and must be well-formed."""
    with open(trend, encoding="utf-8") as f:
        doc = json.load(f)
    doc["classes"][0]["benchmarks"] = [b for b in doc["classes"][0]["benchmarks"] if b["name"] != FORMULA]
    return hostile_run(tmp, CONTROLS, "controls.json"), write_json(os.path.join(tmp, "controls-trend.json"), doc)


def page(tmp, name, args):
    out = os.path.join(tmp, name)
    res = subprocess.run([REPORT] + args + ["-o", out], capture_output=True, timeout=300)
    check(res.returncode == 0, "%s: knotif-report exit %d: %s" % (
        name, res.returncode, res.stderr.decode("utf-8", "backslashreplace").strip()[-500:]))
    if res.returncode != 0:
        return None
    with open(out, encoding="utf-8") as f:   # strict: a lone surrogate cannot have been written
        return f.read()


def check_page(name, text):
    bad = sorted({"U+%04X" % ord(c) for c in FORBIDDEN.findall(text)})
    check(not bad, "%s: characters XML forbids reached the page: %s" % (name, bad))
    bidi = sorted({"U+%04X" % ord(c) for c in BIDI.findall(text)})
    check(not bidi, "%s: raw bidi controls reached the page: %s" % (name, bidi))
    check("\\x1b" in text and "\\u202e" in text, "%s: the escapes are not shown (\\x1b, \\u202e)" % name)
    svgs = SVG.findall(text)
    check(svgs, "%s: no figures" % name)
    for svg in svgs:
        sid = re.match(r'<svg id="([^"]*)"', svg)
        sid = sid.group(1)[:60] if sid else "?"
        try:
            root = ET.fromstring(svg)
        except ET.ParseError as e:
            check(False, "%s: figure %s is not well-formed XML: %s" % (name, sid, e))
            continue
        width = float(re.sub(r"[a-z]+$", "", root.get("width", "0")))
        check(width < MAX_FIGURE_PT, "%s: figure %s is %.0f pt wide" % (name, sid, width))
        longest = max((len("".join(t.itertext())) for t in root.iter("{http://www.w3.org/2000/svg}text")), default=0)
        check(longest <= 200, "%s: figure %s has a text of %d characters" % (name, sid, longest))


def main():
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        skip("matplotlib missing for %s (Debian python3-matplotlib)" % sys.executable)
    tmp = tempfile.mkdtemp(prefix="knotif-report-hostile.")
    try:
        bench, samples, stress, trace, workloads, trend = inputs(tmp)
        # control characters alone: well-formed pages (a report that copies them raw still writes these)
        controls, controls_trend = controls_only(tmp, trend)
        for name, args in (("controls.html", [controls]), ("controls-trend.html", ["--trend", controls_trend])):
            text = page(tmp, name, args)
            if text is not None:
                check_page(name, text)
        # and with the names that crash a report that trusts them, in every input
        text = page(tmp, "run.html", [bench, "--samples", samples, "--stress", stress, "--trace", trace,
                                      "--workloads", workloads])
        if text is not None:
            check_page("run.html", text)
            check(LONG in html.unescape(text), "run.html: the summary table lost the whole long name")
            check("null$\\frac$" in html.unescape(text), "run.html: the formula-like name not shown as written")
        text = page(tmp, "trend.html", ["--trend", trend])
        if text is not None:
            check_page("trend.html", text)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print("%d failures" % len(failures))
        return 1
    print("hostile strings: every page written, well-formed, escaped, figures bounded")
    return 0


if __name__ == "__main__":
    sys.exit(main())
