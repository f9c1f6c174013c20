#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""overhead.py --rewrite, without measuring anything: from copies of the
committed results/trace/*.json, every .md beside them comes out byte for
byte as committed (the writers read nothing but the .json); a bad option is
exit 2, and a folder with no result in it a one-line error, exit 1.
Usage: overhead_rewrite.py SOURCE_DIR"""
import glob
import os
import shutil
import subprocess
import sys
import tempfile

# on PYTHONPATH under ctest; found the same way when run by hand
sys.path.insert(0, os.path.join(sys.argv[1], "scripts", "tests"))
from testlib import check, fail, finish  # noqa: E402

script = os.path.join(sys.argv[1], "trace", "scripts", "overhead.py")
results = os.path.join(sys.argv[1], "results", "trace")


def rewrite(out):
    return subprocess.run([script, "--rewrite", "--out", out], capture_output=True, text=True)


with tempfile.TemporaryDirectory() as tmp:
    jsons = sorted(glob.glob(os.path.join(results, "*.json")))
    if not jsons:
        fail(f"no .json in {results}")
    for j in jsons:
        shutil.copy(j, tmp)
    r = rewrite(tmp)
    check(r.returncode == 0, f"--rewrite: exit {r.returncode}: {r.stderr}")
    for j in jsons:
        name = os.path.basename(j)[:-len(".json")] + ".md"
        with open(os.path.join(results, name), "rb") as f:
            want = f.read()
        new = os.path.join(tmp, name)
        got = open(new, "rb").read() if os.path.exists(new) else b""
        if not check(got == want, f"{name} differs from the committed one"):
            subprocess.run(["diff", os.path.join(results, name), new])

    empty = os.path.join(tmp, "empty")
    os.mkdir(empty)
    r = rewrite(empty)
    check(r.returncode == 1 and len(r.stderr.splitlines()) == 1 and "Traceback" not in r.stderr,
          f"an empty folder: exit {r.returncode}, not one line: {r.stderr}")
    check(os.listdir(empty) == [], "an empty folder: nothing written in it")

    r = subprocess.run([script, "--rewrite", "--out", tmp, "--rounds", "x"], capture_output=True, text=True)
    check(r.returncode == 2, f"--rounds x: exit {r.returncode}, not 2")
    r = subprocess.run([script, "--rewrite"], capture_output=True, text=True)
    check(r.returncode == 2, f"no --out: exit {r.returncode}, not 2")
finish()
