# SPDX-License-Identifier: GPL-2.0
"""What the report's tests share: the suite's check(), failures and skip()
(scripts/tests/testlib.py), the slug a page's ids are made of, and
knotif-report's bad-usage contract (exit 2, one 'knotif-report: ' line)."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from knotif_report.shown import slug  # noqa: E402,F401 (the page's own, not a copy)
from testlib import check, fail, failures, skip, soft_fail  # noqa: E402,F401


def expect_usage_error(report, args, what):
    res = subprocess.run([report] + args, capture_output=True, text=True, timeout=120)
    lines = res.stderr.strip().splitlines()
    check(res.returncode == 2, "%s: exit %d, expected 2" % (what, res.returncode))
    check(len(lines) == 1 and lines[0].startswith("knotif-report: "),
          "%s: stderr should be one 'knotif-report: ' line, got %r" % (what, res.stderr))
