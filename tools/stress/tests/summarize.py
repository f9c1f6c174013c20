#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""tools/stress/scripts/summarize.py on the committed results/stress JSON
gives results/stress/summary.md and headline.md byte for byte (the committed
tables are what the committed data and this script make: never edited by
hand); a wrong argument count is a one-line usage and exit 2, a missing file
one line and exit 1.
Usage: summarize.py SOURCE_DIR"""
import os
import subprocess
import sys
import tempfile

from testlib import check, finish, first_difference

root = sys.argv[1]
script = [sys.executable, os.path.join(root, "tools", "stress", "scripts", "summarize.py")]
results = os.path.join(root, "results", "stress")
data = [os.path.join(results, n + ".json") for n in ("matrix", "variants", "pending")]


def differs(path, want_path):
    """'' when path holds want_path's bytes, else where they first part"""
    return first_difference(open(path, "rb").read(), open(want_path, "rb").read())


with tempfile.TemporaryDirectory() as tmp:
    summary, headline = os.path.join(tmp, "summary.md"), os.path.join(tmp, "headline.md")
    with open(summary, "w") as out:
        r = subprocess.run(script + data + [headline], stdout=out, stderr=subprocess.PIPE, text=True)
    if check(r.returncode == 0 and os.path.exists(headline), f"exit {r.returncode}: {r.stderr}"):
        for got, name in ((summary, "summary.md"), (headline, "headline.md")):
            d = differs(got, os.path.join(results, name))
            check(not d, f"results/stress/{name} is not what its data regenerates: {d}")
    # without HEADLINE.md: the same summary, no headline written
    r = subprocess.run(script + data, capture_output=True, text=True)
    check(r.returncode == 0 and r.stdout == open(summary).read(), f"no headline: exit {r.returncode}: {r.stderr}")
    for args in ([], data[:2], data + [headline, headline]):
        r = subprocess.run(script + args, capture_output=True, text=True)
        check(r.returncode == 2 and r.stderr.startswith("usage: ") and r.stderr.count("\n") == 1 and not r.stdout,
              f"{len(args)} arguments: exit {r.returncode}, {r.stderr!r}")
    r = subprocess.run(script + [os.path.join(tmp, "missing.json")] + data[1:], capture_output=True, text=True)
    check(r.returncode == 1 and r.stderr.startswith("summarize: ") and r.stderr.count("\n") == 1,
          f"a missing file: exit {r.returncode}, {r.stderr!r}")
finish()
