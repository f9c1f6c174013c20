#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""matrix-table.py: the method x kernel matrix from vm-matrix's guest runs.

Each DIR is one kernel's run (kernel/scripts/vm-run.sh matrix): meta.txt and
the Google Benchmark JSON files the guest wrote (knotif-bench.json,
knotif-stress-hotpath.json, wake-cost.json), read through scripts/gbrows.py.
Under -icount shift=0 a guest nanosecond is one instruction, so a p50 is
instructions. Writes OUT/matrix.json: one Google Benchmark row per benchmark
and kernel (name, run_name, "kernel" and "kernel_version", p50 the median
of the repetitions' p50, floor_ratio, context switches and preemptions per
round trip likewise, the repetitions' own p50s,
and "cv_percent": their coefficient of variation; an unsupported row keeps
its error), and OUT/matrix.md: method x kernel, p50 instructions and
x floor, a dagger where cv > 0.5 % (the repetitions then disagree: read
the JSON's p50s). With the guest's samples-histogram.csv (every round
trip's instructions, counted per value), each knotif-bench row also gets its
modes: values repeat exactly under -icount, so round trips fall on a few
values, and a row whose repetitions disagree is one whose round trips split
between paths in other shares. Each mode is given with its share, and each
repetition with its share of slow paths (10% or more over the fastest mode)
beside its preemptions per round trip (procfs' involuntary switches: the wake-up that preempts the
waker takes another path), so the cause is shown beside the effect. A kernel
that did not boot (meta.txt's boot_failed: vm-run.sh's boot watchdog, e.g.
Debian's 6.1 with two vCPUs under -icount) has "did not boot" in each of its
cells and a line saying where its console stopped. The placement (meta.txt)
is in the heading: same is one vCPU, cross and free two. Reports
only: nothing here fails a build.

Usage: matrix-table.py OUT NAME=DIR [NAME=DIR...]"""
import datetime
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import gbrows  # noqa: E402  the one reader of Google Benchmark rows
from vmmeta import load_meta  # noqa: E402  (this directory)
from icount_hist import MODE_SHARE, SLOW_PATH, load_histogram, modes_of, pooled, slow_share  # noqa: E402

CV_NOISY = 0.5	# %: the deterministic bench's own bound


def figure(row, key):
    """a row's key (kernel/bench spells p50 as p50_ns); real_time for a row with no p50"""
    v = row.get(key, row.get(key + "_ns"))
    if v is None and key == "p50":
        v = row.get("real_time")
    return v


def kernel_log(d):
    """The guest's verdict on its own kernel log: "clean", or what it said first (the
    headline of a report, "irq 3: nobody cared", rather than the "Call Trace:" under it)."""
    flagged, headline = None, None
    with open(os.path.join(d, "console.log"), errors="replace") as f:
        for line in f:
            if line.startswith("# kernel log not clean: "):
                flagged = line[len("# kernel log not clean: "):].strip()
            elif flagged and headline is None and line.startswith("# dmesg: ") and \
                    re.search(r"BUG:|WARNING:|INFO: |Oops|nobody cared|UBSAN:|KASAN:", line):
                headline = re.sub(r"^# dmesg: \[[ 0-9.]+\] ", "", line).strip()
    return "clean" if flagged is None else headline or flagged


def kernel_rows(name, d):
    """One kernel's matrix rows, in the files' order."""
    meta = load_meta(d)
    meta["kernel_log"] = kernel_log(d) if os.path.exists(os.path.join(d, "console.log")) else "not recorded"
    hist = load_histogram(d)
    out = []
    for fn in ("knotif-bench.json", "knotif-stress-hotpath.json", "wake-cost.json"):
        path = os.path.join(d, fn)
        if not os.path.exists(path):
            continue
        for run_name, run in gbrows.runs(gbrows.load(path)).items():
            row = {"name": run_name + "@" + name, "run_name": run_name, "kernel": name,
                   "kernel_version": meta.get("kernel_version", "?"), "source": fn}
            if run["error"]:
                row.update(error_occurred=True, error_message=run["error"])
                out.append(row)
                continue
            p50s = [figure(b, "p50") for b in run["iterations"] if figure(b, "p50") is not None]
            ratios = [b["floor_ratio"] for b in run["iterations"] if b.get("floor_ratio") is not None]
            if not p50s:
                continue
            mean = statistics.fmean(p50s)
            row.update(run_type="aggregate", aggregate_name="median", time_unit="ns",
                       repetitions=len(p50s), p50=statistics.median(p50s), p50_repetitions=p50s,
                       cv_percent=(statistics.pstdev(p50s) / mean * 100) if mean else 0.0)
            if ratios:
                row["floor_ratio"] = statistics.median(ratios)
            for key in ("ctx_switches_per_op", "preemptions_per_op"):
                vals = [b[key] for b in run["iterations"] if b.get(key) is not None]
                if vals:
                    row[key] = statistics.median(vals)
            reps = [(i, h) for i, h in sorted((k[1], h) for k, h in hist.items() if k[0] == run_name)]
            if reps:
                modes = modes_of(pooled(hist, run_name))
                row["modes"] = [{"instructions": v, "share": sh} for v, sh in modes]
                if len(modes) > 1:
                    row["slow_share_repetitions"] = [slow_share(h, modes[0][0]) for _, h in reps]
                pre = [b.get("preemptions_per_op") for b in run["iterations"]]
                if all(p is not None for p in pre):
                    row["preemptions_per_op_repetitions"] = pre
            out.append(row)
    return meta, out


def markdown(kernels, rows, unbooted=()):
    names = [k for k, _ in kernels]
    by = {(r["run_name"], r["kernel"]): r for r in rows}
    methods = list(dict.fromkeys(r["run_name"] for r in rows))
    lines = ["| benchmark (p50 instructions, ×floor) | " + " | ".join(names) + " |",
             "|---|" + "---:|" * len(names)]
    for m in methods:
        cells = []
        for k in names:
            r = by.get((m, k))
            if k in unbooted:
                cells.append("did not boot")
            elif r is None:
                cells.append("—")
            elif r.get("error_occurred"):
                msg = r["error_message"]
                cells.append("unsupported" if msg.startswith("unsupported") else "error")
            else:
                c = f"{r['p50']:,.0f}"
                if "floor_ratio" in r:
                    c += f" ({r['floor_ratio']:.2f}×)"
                if r["cv_percent"] > CV_NOISY:
                    c += f" †{r['cv_percent']:.1f}%"
                cells.append(c)
        lines.append(f"| `{m}` | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def modes_section(kernels, rows):
    """the rows whose round trips split between paths (two modes or more), and
    each repetition's share of the slowest beside its preemptions"""
    order = [k for k, _ in kernels]
    # the rows a † marks: most rows have a small second path (a tick, an
    # alignment) in the same share every repetition; those do not move a p50
    split = [r for r in rows if len(r.get("modes", [])) > 1 and r.get("cv_percent", 0) > CV_NOISY]
    if not split:
        return ""
    split.sort(key=lambda r: (order.index(r["kernel"]), r["run_name"]))
    lines = ["", "The † rows: their round trips take more than one path (modes: instructions and share of all "
             f"round trips, modes under {MODE_SHARE:.0%} left out; then per repetition: the share of round "
             f"trips on a slow path, {SLOW_PATH - 1:.0%} or more over the fastest mode / preemptions per round trip):", ""]
    for r in split:
        modes = ", ".join(f"{m['instructions']:,} ({m['share']:.0%})" for m in r["modes"])
        per_rep = ""
        if "slow_share_repetitions" in r and "preemptions_per_op_repetitions" in r:
            per_rep = "; " + " · ".join(f"{s:.0%}/{p:.2f}" for s, p in
                                         zip(r["slow_share_repetitions"], r["preemptions_per_op_repetitions"]))
        lines.append(f"- {r['kernel']} `{r['run_name']}`: {modes}{per_rep}")
    return "\n".join(lines) + "\n"


def main():
    if len(sys.argv) < 3 or any("=" not in a for a in sys.argv[2:]):
        sys.exit(__doc__.split("\n\n")[-1])
    out = sys.argv[1]
    kernels = [tuple(a.split("=", 1)) for a in sys.argv[2:]]
    rows, context = [], {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                         "kernels": {}}
    for name, d in kernels:
        meta, krows = kernel_rows(name, d)
        context["kernels"][name] = {"label": meta.get("label"), "kernel_version": meta.get("kernel_version"),
                                    "bzimage_sha256": meta.get("bzimage_sha256"),
                                    "qemu_args": meta.get("qemu_args"), "vm_seconds": meta.get("vm_seconds"),
                                    "kernel_log": meta["kernel_log"], "placement": meta.get("placement", "same")}
        if "boot_failed" in meta:
            context["kernels"][name]["boot_failed"] = meta["boot_failed"]
        rows += krows
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "matrix.json"), "w") as f:
        json.dump({"context": context, "benchmarks": rows}, f, indent=1)
        f.write("\n")
    noisy = sum(1 for r in rows if r.get("cv_percent", 0) > CV_NOISY)
    placements = sorted({v["placement"] for v in context["kernels"].values()})
    vcpus = "one vCPU" if placements == ["same"] else "two vCPUs"
    make = "make -f Makefile.kernel vm-matrix" + ("" if placements == ["same"] else
                                                   " PLACEMENT=" + ",".join(placements))
    unbooted = {k: v["boot_failed"] for k, v in context["kernels"].items() if "boot_failed" in v}
    with open(os.path.join(out, "matrix.md"), "w") as f:
        f.write(f"Every method under `-icount shift=0,sleep=off`, {vcpus}, placement "
                f"{', '.join(placements)}, on each kernel "
                f"(`{make}`, {context['date'][:10]}): p50 instructions, the median "
                f"of the repetitions' p50, and ×floor. † marks a row whose repetitions disagree by more "
                f"than {CV_NOISY}% (cv shown; {noisy} here): each repetition's p50 is in matrix.json. "
                f"Instructions are not cycles: a serialising or microcoded instruction counts once.\n\n")
        f.write(markdown(kernels, rows, unbooted) + "\n")
        for k, where in unbooted.items():
            where = where.replace("`", "'")  # console text, inside a code span
            f.write(f"\n{k} did not boot at this placement: its console stops at `{where}`.\n")
        f.write(modes_section(kernels, rows))
        f.write("\nKernels: " + "; ".join(f"{k}: {v['label']}, `{(v['kernel_version'] or '?').split(' ')[0]}`"
                                         for k, v in context["kernels"].items()) + ".\n")
        unclean = [(k, v["kernel_log"]) for k, v in context["kernels"].items() if v["kernel_log"] != "clean"]
        if unclean:
            f.write("\nKernel log: " + "; ".join(f"{k}: `{v}`" for k, v in unclean) +
                    " (reported by the guest, not judged: vm-test judges kernel logs).\n")


if __name__ == "__main__":
    main()
