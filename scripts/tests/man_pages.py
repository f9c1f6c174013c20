#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Each installed tool's man page and bash completion against its --help:
the same long options (and, in the completion, the same that take a
value); the page renders with man(1) and carries its include's SEE ALSO;
the completion completes an option prefix in bash. Every tool install
puts in bin has both.
Usage: man_pages.py BUILD_DIR"""
import gzip
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import helpopts  # noqa: E402
from testlib import check, finish, skip  # noqa: E402

build = sys.argv[1]
TOOLS = ["knotif-bench", "knotif-stress", "knotif-run", "knotif-trace", "knotif-compare", "knotif-history",
         "knotif-report", "knotif-ci-gate", "knotif-compare-workloads", "knotif-workload-device-tree"]
man_dir, completions = os.path.join(build, "man"), os.path.join(build, "completions")
if not shutil.which("help2man"):
    skip("help2man is not installed (scripts/setup installs it): no man pages were built")


def program(name):
    link = os.path.join(man_dir, "bin", name)
    return link if os.path.exists(link) else os.path.join(build, name)


def man_options(text):
    """--name: takes_value for each option the page defines (help2man: a .TP and its next line)."""
    plain = re.sub(r"\\f[BIRP]|\\[,/&]", "", text).replace("\\-", "-")
    lines = plain.splitlines()
    out = {}
    for i, line in enumerate(lines[:-1]):
        if line.startswith(".TP") and lines[i + 1].startswith("-"):
            out.update(helpopts.options("  " + lines[i + 1]))
    return out


def completion_words(path):
    m = re.search(r"compgen -W '([^']*)'", open(path).read())
    return set(m.group(1).split()) if m else set()


built = [t for t in TOOLS if os.path.exists(program(t))]
check("knotif-trace" in built or not os.path.exists(os.path.join(build, "knotif-trace")), "knotif-trace lost")
for name in built:
    page, comp = os.path.join(man_dir, name + ".1.gz"), os.path.join(completions, name)
    if not check(os.path.exists(page) and os.path.exists(comp), f"{name}: no man page or completion"):
        continue
    helped = helpopts.options(subprocess.run([program(name), "--help"], capture_output=True, text=True,
                                             timeout=60).stdout)
    text = gzip.open(page, "rt").read()
    paged = man_options(text)
    check(set(paged) == set(helped), f"{name}: man page options differ from --help: only in the page "
          f"{sorted(set(paged) - set(helped))}, only in --help {sorted(set(helped) - set(paged))}")
    want = {n + ("=" if v else "") for n, v in helped.items()}
    got = completion_words(comp)
    check(got == want, f"{name}: completion words differ: extra {sorted(got - want)}, missing {sorted(want - got)}")
    check(".SH \"SEE ALSO\"" in text or ".SH SEE ALSO" in text, f"{name}: no SEE ALSO section")
    r = subprocess.run(["man", "-l", page], capture_output=True, text=True, env=dict(os.environ, MANWIDTH="80"))
    check(r.returncode == 0 and name.upper() in r.stdout, f"{name}: man -l failed: {r.stderr[:200]}")
    # bash completes an option prefix from the file
    first = sorted(helped)[0]
    r = subprocess.run(["bash", "-c", f'. "$1"; COMP_WORDS=({name} {first[:4]}); COMP_CWORD=1; '
                        f'_{re.sub(r"[^A-Za-z0-9_]", "_", name)}; printf "%s\\n" "${{COMPREPLY[@]}}"',
                        "bash", comp], capture_output=True, text=True)
    check(first in r.stdout.replace("=", ""), f"{name}: bash completes '{first[:4]}' as {r.stdout.split()}")
finish()
