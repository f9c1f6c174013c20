#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The README's "In CI" job, run: its script lines (all but scripts/setup,
which made the build this test runs from) in a scratch folder, the tree's
paths made absolute. The gate exits 0 or 1 (a verdict, never unusable
input), and the job's artifacts are what their consumers read: gate.xml a
JUnit report (xml.etree and junitparser) with a testcase per gated
benchmark, bench.bmf.json Bencher Metric Format with every measured row.
Usage: ci_example.py SOURCE_DIR BUILD_DIR"""
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

import yaml
from junitparser import JUnitXml
from testlib import check, fail, finish

src, build = (os.path.realpath(p) for p in sys.argv[1:])
readme = open(os.path.join(src, "README.md")).read()
m = re.search(r"## In CI\n.*?```yaml\n(.*?)```", readme, re.S)
if not m:
    fail("README.md has no yaml block under '## In CI'")
jobs = yaml.safe_load(m.group(1))
job = jobs["latency-gate"]
check(job["artifacts"]["reports"]["junit"] == "gate.xml", "the job does not hand GitLab gate.xml")
with tempfile.TemporaryDirectory(prefix="knotif-ci-example.") as tmp:
    for line in job["script"]:
        if line == "scripts/setup":
            continue
        # the tree's relative paths, from the scratch folder; ci-gate finds this build
        cmd = re.sub(r"(?<![\w/.])build/", build + "/", line)
        cmd = re.sub(r"(?<![\w/.])analysis/ci-gate", os.path.join(src, "analysis", "ci-gate") + " --build " + build, cmd)
        r = subprocess.run(["bash", "-c", cmd], cwd=tmp, capture_output=True, text=True, timeout=600)
        ok = r.returncode in (0, 1) if "ci-gate" in cmd else r.returncode == 0
        check(ok, f"'{line}' exited {r.returncode}: {r.stderr[-400:]}")
    for artifact in ["gate.xml"] + job["artifacts"]["paths"]:
        check(os.path.isfile(os.path.join(tmp, artifact)), f"artifact {artifact} was not made")
    root = ET.parse(os.path.join(tmp, "gate.xml")).getroot()
    names = {c.get("name") for c in root.iter("testcase")}
    check("unotif/sync/emulate/placement:same" in names, f"gate.xml testcases: {sorted(names)}")
    check(sum(1 for s in JUnitXml.fromfile(os.path.join(tmp, "gate.xml")) for _ in s) == len(names),
          "junitparser reads another set of testcases")
    bmf = json.load(open(os.path.join(tmp, "bench.bmf.json")))
    check({"null/placement:same", "unotif/sync/emulate/placement:same"} <= set(bmf),
          f"bench.bmf.json benchmarks: {sorted(bmf)}")
    for name, measures in bmf.items():
        lat = measures.get("latency", {})
        check(lat.get("lower_value", 1) <= lat.get("value", 0) <= lat.get("upper_value", -1),
              f"{name}: latency bounds out of order: {lat}")
finish()
