#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""vm-matrix's writer and its pinned images, without booting anything:
- matrix-table.py on recorded guest output (tests/data/matrix): one row per
  benchmark and kernel, p50 the median of the repetitions' p50 and
  cv_percent their coefficient of variation (recomputed here from the input
  files with plain json), an unsupported row kept with its error, and a
  markdown cell per benchmark and kernel; on Debian 6.1's recorded output,
  each row's modes, its share of slow round trips per repetition (from the
  histogram, recomputed here) beside its preemptions, and the † row listed;
- kernel/debian-images.txt: five fields a line, unique names, a 64-hex
  sha256, EXPLAIN yes or no, and each pinned version apt's index has
  carries that sha256 (a version the archive dropped is a note here, not a
  failure: Debian drops them at point releases, and vm-matrix names the file
  to update);
- debian-image.sh refuses a version the archive does not have, in one line
  that names kernel/debian-images.txt.
Usage: matrix_table.py SOURCE_DIR"""
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

from testlib import check, finish

src = sys.argv[1]
scripts = os.path.join(src, "kernel", "scripts")
data = os.path.join(scripts, "tests", "data", "matrix")
with tempfile.TemporaryDirectory(prefix="knotif-matrix.") as out:
    r = subprocess.run([sys.executable, os.path.join(scripts, "matrix-table.py"), out,
                        "stock=" + os.path.join(data, "stock"), "patched=" + os.path.join(data, "patched")],
                       capture_output=True, text=True, timeout=60)
    check(r.returncode == 0, f"matrix-table.py exited {r.returncode}: {r.stderr[-300:]}")
    doc = json.load(open(os.path.join(out, "matrix.json")))
    md = open(os.path.join(out, "matrix.md")).read()
rows = {(b["run_name"], b["kernel"]): b for b in doc["benchmarks"]}
for kernel in ("stock", "patched"):
    for fn in ("knotif-bench.json", "knotif-stress-hotpath.json", "wake-cost.json"):
        reps, errors = {}, {}
        for b in json.load(open(os.path.join(data, kernel, fn)))["benchmarks"]:
            name = b.get("run_name", b["name"])
            if b.get("error_occurred"):
                errors[name] = b["error_message"]
            elif b.get("run_type", "iteration") == "iteration":
                reps.setdefault(name, []).append(b.get("p50", b.get("p50_ns", b.get("real_time"))))
        for name, p50s in reps.items():
            row = rows.get((name, kernel))
            if not check(row is not None, f"{kernel} {name}: no matrix row"):
                continue
            check(row["p50"] == statistics.median(p50s), f"{kernel} {name}: p50 {row['p50']} != median {p50s}")
            cv = statistics.pstdev(p50s) / statistics.fmean(p50s) * 100
            check(abs(row["cv_percent"] - cv) < 1e-9, f"{kernel} {name}: cv {row['cv_percent']} != {cv}")
            check(row["kernel_version"].startswith("6.12.118"), f"{kernel}: kernel_version {row['kernel_version']}")
            check(f"| `{name}` |" in md, f"{name}: no markdown row")
        for name, msg in errors.items():
            row = rows.get((name, kernel), {})
            check(row.get("error_message") == msg, f"{kernel} {name}: the error is not kept: {row}")
check(rows[("unotif/rw/emulate/placement:same", "stock")].get("error_occurred") is True and
      "unsupported" in md, "the stock kernel's unsupported v3 row")
check("| benchmark (p50 instructions, ×floor) | stock | patched |" in md, "markdown header")
# a kernel that did not boot (vm-run.sh's watchdog wrote boot_failed): its
# cells say so, a line says where its console stopped, the JSON keeps it
with tempfile.TemporaryDirectory(prefix="knotif-matrix.") as out:
    hung = os.path.join(out, "hung")
    os.makedirs(hung)
    with open(os.path.join(hung, "meta.txt"), "w") as f:
        f.write("label: hung\nplacement: cross\npatches:\nvm_seconds: 120\n"
                "boot_failed: [    0.39] x86: Booting `SMP` configuration:\n")
    r = subprocess.run([sys.executable, os.path.join(scripts, "matrix-table.py"), out,
                        "stock=" + os.path.join(data, "stock"), "hung=" + hung],
                       capture_output=True, text=True, timeout=60)
    check(r.returncode == 0, f"with a kernel that did not boot: exit {r.returncode}: {r.stderr[-300:]}")
    mdh = open(os.path.join(out, "matrix.md")).read()
    doch = json.load(open(os.path.join(out, "matrix.json")))
check("| did not boot |" in mdh and mdh.count("did not boot |") == mdh.count("\n| `"),
      "every cell of the kernel that did not boot says so")
check("hung did not boot at this placement: its console stops at `[    0.39] x86: Booting 'SMP' configuration:`."
      in mdh, "the line saying where its console stopped (a backtick made harmless)")
check(doch["context"]["kernels"]["hung"]["boot_failed"].endswith("configuration:"), "matrix.json keeps it")
check("two vCPUs, placement cross, same" in mdh, f"the heading's placements: {mdh[:160]}")

# modes, on recorded guest output (Debian's 6.1 image, trimmed to three rows): every
# round trip's instructions as a histogram; checked here from the CSV itself
d61 = os.path.join(data, "debian-6.1")
with tempfile.TemporaryDirectory(prefix="knotif-matrix.") as out:
    r = subprocess.run([sys.executable, os.path.join(scripts, "matrix-table.py"), out, "debian-6.1=" + d61],
                       capture_output=True, text=True, timeout=60)
    check(r.returncode == 0, f"matrix-table.py on debian-6.1 exited {r.returncode}: {r.stderr[-300:]}")
    doc61 = json.load(open(os.path.join(out, "matrix.json")))
    md61 = open(os.path.join(out, "matrix.md")).read()
rows61 = {b["run_name"]: b for b in doc61["benchmarks"]}
hist = {}
with open(os.path.join(d61, "samples-histogram.csv")) as f:
    next(f)
    for line in f:
        name, rep, ns, count = line.strip().rsplit(",", 3)
        hist.setdefault(name, {}).setdefault(int(rep), {})[int(ns)] = int(count)
emu = rows61["unotif/async/emulate/placement:same"]
fastest = emu["modes"][0]["instructions"]
check(fastest == min(v for h in hist[emu["run_name"]].values() for v, n in h.items() if n > 20),
      f"fastest mode {fastest}")
check(abs(sum(m["share"] for m in emu["modes"]) - 1) < 0.1 and all(m["share"] >= 0.02 for m in emu["modes"]),
      f"mode shares {emu['modes']}")
want = [sum(n for v, n in h.items() if v >= fastest * 1.1) / sum(h.values())
        for _, h in sorted(hist[emu["run_name"]].items())]
check(emu["slow_share_repetitions"] == want, f"slow shares {emu['slow_share_repetitions']} != {want}")
bench61 = [b for b in json.load(open(os.path.join(d61, "knotif-bench.json")))["benchmarks"]
           if b["name"] == emu["run_name"] and b.get("run_type") == "iteration"]
check(emu["preemptions_per_op_repetitions"] == [b["preemptions_per_op"] for b in bench61], "preemptions per repetition")
check(emu["cv_percent"] > 0.5 and f"- debian-6.1 `{emu['run_name']}`: " in md61, "the † row's modes in matrix.md")
null = rows61["null/placement:same"]
check(len(null["modes"]) == 1 and f"`{null['run_name']}`: " not in md61.split("The † rows")[-1],
      f"null: one mode, not listed: {null['modes']}")
check(rows61["unotif/sync/emulate/placement:same"].get("error_occurred") is True, "6.1's sync row is unsupported")

# the pinned images
pinned = [line.split() for line in open(os.path.join(src, "kernel", "debian-images.txt"))
          if line.strip() and not line.startswith("#")]
check(len(pinned) >= 4, f"{len(pinned)} pinned images")
check(len({p[0] for p in pinned}) == len(pinned), "pinned names are not unique")
for p in pinned:
    if not check(len(p) == 5, f"pinned line is not NAME PACKAGE VERSION SHA256 EXPLAIN: {p}"):
        continue
    name, pkg, ver, sha, explain = p
    check(re.fullmatch(r"linux-image-[0-9][\w.+-]*-unsigned", pkg) is not None, f"{name}: package {pkg}")
    check(re.fullmatch(r"[0-9a-f]{64}", sha) is not None, f"{name}: sha256 {sha}")
    check(explain in ("yes", "no"), f"{name}: EXPLAIN {explain} (yes or no)")
    if shutil.which("apt-cache"):
        # Debian drops an image's version at each point release: then vm-matrix
        # says so and names this file; the suite on a fresh machine must not
        # fail for the archive's schedule. A version apt does have must match.
        show = subprocess.run(["apt-cache", "show", f"{pkg}={ver}"], capture_output=True, text=True).stdout
        if "Package:" not in show:
            print(f"note: {name}: {pkg}={ver} is not in apt's index (update kernel/debian-images.txt)")
        else:
            check(f"SHA256: {sha}" in show, f"{name}: {pkg}={ver} in apt's index has another sha256 than {sha}")
if shutil.which("apt-cache"):
    with tempfile.TemporaryDirectory(prefix="knotif-image.") as cache:
        r = subprocess.run([os.path.join(scripts, "debian-image.sh"), pinned[0][1], cache, "0.0-knotif-none", "0" * 64],
                           capture_output=True, text=True, timeout=60)
    check(r.returncode == 1 and r.stdout == "" and r.stderr.count("\n") == 1 and
          "kernel/debian-images.txt" in r.stderr, f"a version the archive lacks: exit {r.returncode}, {r.stderr!r}")
finish()
