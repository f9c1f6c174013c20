#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""
knotif-compare --junit, read back by the parsers CI reports are read with
(Python's xml.etree, and junitparser, the JUnit reader Debian packages), and
valid against the JUnit shape in junit.xsd (lxml):
- a doubled row is a testcase with a failure whose message is the verdict;
- an unsupported row (an error on both sides) and a row only in NEW are
  skipped; every other row passes; the counts on testsuites and testsuite
  are the testcases';
- a hostile name (ESC, U+202E; a byte that is not UTF-8 is refused with the
  file, as the JSON readers refuse it) leaves the
  document well-formed, escaped as the console escapes it;
- the same file against itself: no failure, exit 0;
- an unwritable --junit is exit 2 before anything is compared, and an
  earlier report at the path is replaced whole.
Usage: gate-junit.py KNOTIF_COMPARE RUN_A.json
"""
import copy
import json
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

from junitparser import Failure, JUnitXml, Skipped
from lxml import etree
from testlib import check, fail, finish

cmp, run_a = sys.argv[1:]
tmp_dir = tempfile.TemporaryDirectory(prefix="knotif-gate-junit.")
tmp = tmp_dir.name
DOUBLED = "unotif/sync/emulate/placement:same"
UNSUPPORTED = "unotif/rw/emulate/placement:same"
EVIL = "evil\x1b[2J\u202e/placement:same"

base = json.load(open(run_a))
new = copy.deepcopy(base)
for row in new["benchmarks"]:
    if row["run_name"] == DOUBLED and row.get("aggregate_name") != "cv":
        for k in ("real_time", "cpu_time", "min", "p50", "p90", "p99", "p999", "max", "floor_ratio"):
            if k in row:
                row[k] *= 2
error_row = {"name": UNSUPPORTED, "run_name": UNSUPPORTED, "run_type": "iteration", "error_occurred": True,
             "error_message": "unsupported: listener read()/write() needs the knotif kernel series\x1b[2J",
             "family_index": 99, "per_family_instance_index": 0, "repetitions": 1, "repetition_index": 0,
             "threads": 1, "iterations": 0, "real_time": 0, "cpu_time": 0, "time_unit": "ns"}
base["benchmarks"].append(error_row)
new["benchmarks"].append(error_row)
evil = dict(next(r for r in new["benchmarks"] if r["run_name"] == DOUBLED and r["run_type"] == "iteration"))
evil.update(name=EVIL, run_name=EVIL, family_index=98)
new["benchmarks"].append(evil)
paths = {}
for name, doc in (("base", base), ("new", new)):
    paths[name] = os.path.join(tmp, name + ".json")
    with open(paths[name], "w") as f:
        json.dump(doc, f)

report = os.path.join(tmp, "report.xml")
with open(report, "w") as f:
    f.write("<old>" + "x" * 100000 + "</old>")	# an earlier, longer report: replaced whole
r = subprocess.run([cmp, "--junit", report, paths["base"], paths["new"]], capture_output=True, text=True,
                   errors="replace", timeout=60)
if r.returncode != 1:
    fail(f"a doubled row: exit {r.returncode}, stderr {r.stderr[-300:]}")

schema = etree.XMLSchema(etree.parse(os.path.join(os.path.dirname(os.path.abspath(__file__)), "junit.xsd")))


def valid(path, what):
    doc = etree.parse(path)
    check(schema.validate(doc), f"{what}: not valid JUnit: {schema.error_log.last_error}")


valid(report, "the doubled row's report")
root = ET.parse(report).getroot()
check(root.tag == "testsuites", f"root element {root.tag}")
suites = root.findall("testsuite")
check(len(suites) == 1, f"{len(suites)} testsuites")
cases = {c.get("name"): c for c in suites[0].findall("testcase")}
for el in (root, suites[0]):
    check(int(el.get("tests")) == len(cases), f"{el.tag} tests={el.get('tests')}, {len(cases)} testcases")
    check(int(el.get("failures")) == 1, f"{el.tag} failures={el.get('failures')}")
    check(int(el.get("errors")) == 0, f"{el.tag} errors={el.get('errors')}")
    check(int(el.get("skipped")) == 2, f"{el.tag} skipped={el.get('skipped')}")
names = {r["run_name"] for r in base["benchmarks"]} | {UNSUPPORTED}
check(names <= set(cases), f"missing testcases: {names - set(cases)}")
evil_names = [n for n in cases if n.startswith("ev")]
check(len(evil_names) == 1 and "\\x1b" in evil_names[0] and "\x1b" not in evil_names[0]
      and "\u202e" not in evil_names[0], f"the hostile name as written: {evil_names!r}")

xml = JUnitXml.fromfile(report)
results = {}
for suite in xml:
    for case in suite:
        results[case.name] = case.result
for name, res in results.items():
    kinds = {type(x) for x in res}
    if name == DOUBLED:
        failures = [x for x in res if isinstance(x, Failure)]
        check(len(failures) == 1 and failures[0].message.startswith("REGRESSION: floor_ratio"),
              f"the doubled row: {[(type(x).__name__, x.message) for x in res]}")
    elif name == UNSUPPORTED or name in evil_names:
        check(kinds == {Skipped}, f"{name!r} is not skipped: {kinds}")
        if name == UNSUPPORTED:	# escaped once, as in system-out: the escape visible, not doubled
            said = [x.message for x in res][0]
            check(said.endswith("kernel series\\x1b[2J") and said in (cases[name].findtext("system-out") or ""),
                  f"the unsupported row's message: {said!r}, system-out {cases[name].findtext('system-out')!r}")
    else:
        check(not res, f"{name} did not pass: {[(type(x).__name__, x.message) for x in res]}")
check(results.get(DOUBLED) is not None and cases[DOUBLED].get("classname") == "unotif",
      f"classname of {DOUBLED}: {cases.get(DOUBLED, ET.Element('x')).get('classname')}")

# the same file against itself: nothing fails
r = subprocess.run([cmp, "--junit", report, run_a, run_a], capture_output=True, text=True, timeout=60)
check(r.returncode == 0, f"a file against itself: exit {r.returncode}")
valid(report, "a file against itself")
same = JUnitXml.fromfile(report)
check(all(not case.result or all(isinstance(x, Skipped) for x in case.result) for suite in same for case in suite)
      and sum(1 for suite in same for case in suite) > 0, "a file against itself has a failure")

# an unwritable path: a usage error, one line, before comparing
r = subprocess.run([cmp, "--junit", "/nonexistent-knotif/report.xml", run_a, run_a], capture_output=True,
                   text=True, timeout=60)
check(r.returncode == 2 and r.stdout == "" and r.stderr.count("\n") == 1
      and "cannot write --junit=/nonexistent-knotif/report.xml" in r.stderr,
      f"unwritable --junit: exit {r.returncode}, stdout {r.stdout[:100]!r}, stderr {r.stderr!r}")
finish()
