#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""placement-ratios.py on made-up runs: the guest's ratio is the median of
every boot's repetitions at cross over the same at same (a range beside
a median whose repetitions differ), cross - same beside it on both sides; the host's is the
median of the rounds' own ratios, with their range, and the last column
divides the two; a row missing from a group is named as left out; an empty
group is exit 2, an unreadable file 1.
Usage: placement_ratios.py SOURCE_DIR"""
import os
import subprocess
import sys
import tempfile

from testlib import check, finish, write_gb_runs as doc

script = os.path.join(sys.argv[1], "kernel", "scripts", "placement-ratios.py")


with tempfile.TemporaryDirectory() as tmp:
    j = lambda n: os.path.join(tmp, n)  # noqa: E731
    gs = [doc(j("gs1.json"), {"u/placement:same": [1000, 1000, 1000], "p/placement:same": [500, 500, 500]})]
    gc = [doc(j("gc1.json"), {"u/placement:cross": [2000, 2000, 2000], "p/placement:cross": [900, 900, 900]}),
          doc(j("gc2.json"), {"u/placement:cross": [2000, 2000, 2000], "p/placement:cross": [900, 1300, 900]})]
    # host rounds, ns: u's ratios 3.0, 4.0, 5.0 (median 4.0); p in one round only
    host = [doc(j("h1.json"), {"u/placement:same": [10000], "u/placement:cross": [30000],
                               "p/placement:same": [5000], "p/placement:cross": [6000]}),
            doc(j("h2.json"), {"u/placement:same": [10000], "u/placement:cross": [40000]}),
            doc(j("h3.json"), {"u/placement:same": [10000], "u/placement:cross": [50000],
                               "x/placement:same": [1], "x/placement:cross": [2]})]
    r = subprocess.run([script, "--guest-same"] + gs + ["--guest-cross"] + gc + ["--host"] + host,
                       capture_output=True, text=True)
    check(r.returncode == 0, f"exit {r.returncode}: {r.stderr}")
    check("| `u` | 1,000 | 2,000 | 2.00 | +1,000 | 10.00 | 40.00 | 4.00 (3.00–5.00) | +30.0 (+20.0–+40.0) | 2.00 |"
          in r.stdout, f"u: {r.stdout}")
    # p: one cross repetition of six differs, shown as a range beside the median
    check("| `p` | 500 | 900 (900–1,300) | 1.80 | +400 | 5.00 | 6.00 | 1.20 (1.20–1.20) | +1.0 (+1.0–+1.0) | 0.67 |"
          in r.stdout, f"p: {r.stdout}")
    check("Not in every group (left out): `x`." in r.stdout, f"x: {r.stdout}")
    check("1 boot(s) at placement same, 2 at cross" in r.stdout and "3 round(s)" in r.stdout, "the counts")
    r = subprocess.run([script, "--guest-same"] + gs + ["--host"] + host, capture_output=True, text=True)
    check(r.returncode == 2, f"no cross group: exit {r.returncode}")
    r = subprocess.run([script, "--guest-same", j("missing.json"), "--guest-cross"] + gc + ["--host"] + host,
                       capture_output=True, text=True)
    check(r.returncode == 1 and r.stderr.startswith("placement-ratios: "), f"a missing file: {r.returncode} {r.stderr}")
finish()
