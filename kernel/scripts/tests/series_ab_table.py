#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""series-ab-table.py on made-up runs of stock and two prefixes: exact
p50/p90/p99 of the pooled round trips, the slow share against stock's
fastest mode (one threshold for every kernel), each patch against the one
before and the whole against stock, the patches' subjects, a row that failed
on one kernel left out of that comparison, levels out of order refused, and
a missing run directory exit 1.
Usage: series_ab_table.py SOURCE_DIR"""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

from testlib import check, finish, write_gb_runs as doc

script = os.path.join(sys.argv[1], "kernel", "scripts", "series-ab-table.py")


def level(d, patches, hist, rows, sha="0123456789abcdef"):
    """a vm-run.sh bench directory: meta.txt, knotif-bench.json, the histogram"""
    os.makedirs(d)
    with open(os.path.join(d, "meta.txt"), "w") as f:
        f.write(f"label: x\nkernel_version: 6.12.118 test\nbzimage_sha256: {sha}\npatches:\n")
        for p in patches:
            f.write(f"  000000000000 {p}\n")
    doc(os.path.join(d, "knotif-bench.json"), rows)
    with open(os.path.join(d, "samples-histogram.csv"), "w") as f:
        f.write("name,repetition,ns,count\n")
        for (name, rep), h in hist.items():
            for v, c in h.items():
                f.write(f"{name},{rep},{v},{c}\n")
    return d


with tempfile.TemporaryDirectory() as tmp:
    j = lambda n: os.path.join(tmp, n)  # noqa: E731
    os.makedirs(j("series"))
    names = ["0001-a.patch", "0002-b.patch"]
    for n, subj in zip(names, ["[PATCH 1/2] seccomp: first\n second line", "[PATCH 2/2] seccomp: second"]):
        with open(j("series/" + n), "w") as f:
            f.write(f"From 0\nSubject: {subj}\n\nbody\n")
    with open(j("series/series"), "w") as f:
        f.write("# a series\n" + "\n".join(names) + "\n")
    u = "unotif/async/emulate/placement:same"
    # stock: 90 round trips at 1000, 10 at 5000 over two repetitions (slow at >= 1100)
    s0 = level(j("0"), [], {(u, 0): {1000: 45, 5000: 5}, (u, 1): {1000: 45, 5000: 5}},
               {u: [1000, 1000], "unotif/x/placement:same": "unsupported: no x"}, sha="stock")
    # patch 1: +10 instructions; 95 fast, 5 slow at 5010
    s1 = level(j("1"), names[:1], {(u, 0): {1010: 50}, (u, 1): {1010: 45, 5010: 5}}, {u: [1010, 1010]})
    # patch 2: the same p50; 98 fast, 1 at 1099 (not slow), 1 at 1100 (slow)
    s2 = level(j("2"), names, {(u, 0): {1010: 49, 1099: 1}, (u, 1): {1010: 49, 1100: 1}}, {u: [1010, 1010]})
    out = [j("out.md"), j("out.json")]
    r = subprocess.run([script, "--series", j("series/series"), "--out-md", out[0], "--out-json", out[1],
                        s0, s1, s2], capture_output=True, text=True)
    check(r.returncode == 0, f"exit {r.returncode}: {r.stderr}")
    md = open(out[0]).read() if os.path.exists(out[0]) else ""
    # the whole: p50 1000 -> 1010, p90 1000 -> 1010, p99 5000 -> 1099; mean 1400 -> 1011.79
    check(f"| `{u}` | 1,010 (+1.00%) | 1,010 (+1.00%) | 1,099 (-78.02%) | 1,011.8 (-27.73%) | 1.00% (-9.00 pp) |"
          in md, f"the whole: {md}")
    check(f"| `{u}` | 1,000 | 1,000 | 5,000 | 1,400.0 | 10.00% |" in md, "stock's own figures")
    # patch 1 against stock, patch 2 against patch 1
    check(f"| `{u}` | 1,010 (+1.00%) | 1,010 (+1.00%) | 5,010 (+0.20%) | 1,210.0 (-13.57%) | 5.00% (-5.00 pp) |"
          in md, f"patch 1: {md}")
    check(f"| `{u}` | 1,010 (+0.00%) | 1,010 (+0.00%) | 1,099 (-78.06%) | 1,011.8 (-16.38%) | 1.00% (-4.00 pp) |"
          in md, f"patch 2: {md}")
    check("## Patch 1: seccomp: first second line" in md, "patch 1's subject, folded")
    check("## Patch 2: seccomp: second" in md, "patch 2's subject")
    check("unotif/x" not in md, "a row unsupported on stock is in no comparison")
    check("the spread between two boots of one kernel" in md, "patch 2's kernel is patch 1's bzImage: said")
    check(md.count("the spread between two boots") == 1, "and only there")
    check("(none: no seccomp.o or no bloat-o-meter)" in md, "bloat-o-meter without objects says so")
    d = json.load(open(out[1])) if os.path.exists(out[1]) else {}
    check(d.get("rows", {}).get(u, {}).get("slow_threshold") == 1100.0, "one slow threshold: 1.10 x stock's mode")
    # the last kernel booted again: its own table; another kernel is refused
    again = level(j("again"), names, {(u, 0): {1010: 50}, (u, 1): {1010: 50}}, {u: [1010, 1010]})
    r = subprocess.run([script, "--series", j("series/series"), "--out-md", out[0], "--out-json", out[1],
                        "--again", again, s0, s1, s2], capture_output=True, text=True)
    md = open(out[0]).read() if r.returncode == 0 else ""
    check("## The last kernel booted again" in md and
          f"| `{u}` | 1,010 (+0.00%) | 1,010 (+0.00%) | 1,010 (-8.10%) | 1,010.0 (-0.18%) | 0.00% (-1.00 pp) |" in md,
          f"booted again: {r.returncode} {r.stderr} {md[-600:]}")
    r = subprocess.run([script, "--series", j("series/series"), "--out-md", out[0], "--out-json", out[1],
                        "--again", s0, s0, s1, s2], capture_output=True, text=True)
    check(r.returncode == 1 and "not the last kernel's bzImage" in r.stderr, f"again, another kernel: {r.stderr}")
    # levels out of order: the second has two patches applied
    r = subprocess.run([script, "--series", j("series/series"), "--out-md", out[0], "--out-json", out[1],
                        s0, s2], capture_output=True, text=True)
    check(r.returncode == 1 and "2 patches applied, not 1" in r.stderr, f"out of order: {r.returncode} {r.stderr}")
    r = subprocess.run([script, "--series", j("series/series"), "--out-md", out[0], "--out-json", out[1],
                        s0, j("missing")], capture_output=True, text=True)
    check(r.returncode == 1 and "no meta.txt" in r.stderr, f"missing: {r.returncode} {r.stderr}")
    r = subprocess.run([script, "--series", j("series/series"), "--out-md", out[0], "--out-json", out[1], s0],
                       capture_output=True, text=True)
    check(r.returncode == 2, f"one level: exit {r.returncode}")
# the kmalloc cache of a size (x86_64's __kmalloc_index(): powers of two, and 96 and 192)
spec = importlib.util.spec_from_file_location("series_ab_table", script)
mod = importlib.util.module_from_spec(spec)
sys.path.insert(0, os.path.dirname(script))
spec.loader.exec_module(mod)
for size, cache in ((8, 8), (9, 16), (32, 32), (40, 64), (65, 96), (97, 128), (129, 192), (193, 256),
                    (552, 1024), (1064, 2048), (2088, 4096)):
    check(mod.kmalloc_cache(size) == cache, f"kmalloc_cache({size}) = {mod.kmalloc_cache(size)}, not {cache}")
finish()
