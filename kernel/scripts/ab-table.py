#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ab-table.py: stock-vs-patched table from two vm-bench output directories.

Each directory (kernel/scripts/vm-run.sh bench) holds meta.txt and the
Google Benchmark JSON files the guest wrote (unotif-roundtrip.json,
knotif-bench.json), read through scripts/gbrows.py. Rows are matched by
name; the table shows the mean of the repetitions' means, the spread across
repetitions, and the change. Reports only: nothing here fails a build.
"""
import argparse
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import gbrows  # noqa: E402  the one reader of Google Benchmark rows
from vmmeta import load_meta, make_command, run_date  # noqa: E402  (this directory)


def load_rows(d):
    """name -> {"means": [...], "p50": [...], "p99": [...], "error": str}, over
    every JSON file of the directory (a name in two files pools its rows)"""
    rows, docs = {}, {}
    for fn in sorted(os.listdir(d)):
        if not fn.endswith(".json"):
            continue
        docs[fn] = doc = gbrows.load(os.path.join(d, fn))
        for name, run in gbrows.runs(doc).items():
            r = rows.setdefault(name, {"means": [], "p50": [], "p99": [], "error": None})
            r["error"] = run["error"] or r["error"]
            for b in run["iterations"]:
                scale = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
                r["means"].append(b["real_time"] * scale)
                for k in ("p50", "p99"):
                    # kernel/bench's guest program spelled them p50_ns, p99_ns
                    v = b.get(k + "_ns", b.get(k))
                    if v is not None:
                        r[k].append(v)
    return rows, docs


def fmt(v):
    return "-" if v is None else f"{v:,.1f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--stock", required=True)
    ap.add_argument("--patched", required=True)
    ap.add_argument("--series", required=True)
    ap.add_argument("--out-md", required=True)
    ap.add_argument("--out-json", required=True)
    ap.add_argument("--patched-config", help="the patched kernel's extra config fragment")
    ap.add_argument("--debian-config", help="both kernels were built from this Debian config reduced "
                    "to its built-in options (KCONFIG=debian), not from tinyconfig")
    a = ap.parse_args()

    ms, mp = load_meta(a.stock), load_meta(a.patched)
    rs, ds = load_rows(a.stock)
    rp, dp = load_rows(a.patched)
    if not rs or not rp:
        print("ab-table: no benchmark JSON from the guest (see console.log)", file=sys.stderr)
        return 1

    out = []
    out.append("<!-- SPDX-License-Identifier: GPL-2.0 -->")
    out.append("# Stock vs patched: seccomp user-notification round trip under QEMU -icount")
    out.append("")
    when = run_date(d.get("context", {}).get("date", "") for d in list(ds.values()) + list(dp.values()))
    placement = mp.get("placement", "same")
    make = make_command("vm-bench", a.debian_config, placement)
    out.append(f"Produced by `{make}` (guest runs from {when}); "
               "do not edit by hand.")
    out.append("")
    cpus = ("one vCPU: supervisor and target share the CPU" if placement == "same" else
            "two vCPUs that TCG runs in turn (the clock counts the instructions of both); knotif-bench "
            f"and the pending curve at placement `{placement}`, unotif-roundtrip same-CPU and, at cross, "
            "across CPUs too, as its rows say "
            "(kernel/README.md: what a cross-CPU count is)")
    out.append("Guest time counts instructions (`-icount shift=0,sleep=off`, 1 ns = 1 "
               f"instruction), {cpus}. Times are "
               "per round trip, measured by the target with CLOCK_MONOTONIC; *mean* is "
               "the mean of the repetitions' means, *cv* their coefficient of variation; "
               "*p50* is the median of the repetitions' medians (robust to the rare "
               "slow round trip, e.g. a timer tick).")
    out.append("")
    out.append(f"- stock: `{ms.get('kernel_version', '?')}` (bzImage {ms.get('bzimage_sha256', '?')})")
    out.append(f"- patched: `{mp.get('kernel_version', '?')}` (bzImage {mp.get('bzimage_sha256', '?')}), "
               f"series `{os.path.relpath(a.series)}`:")
    for p in mp["patches"]:
        out.append(f"  - `{p}`")
    out.append(f"- {mp.get('qemu', '?')}: `{mp.get('qemu_args', '?')}`")
    opts = []
    if a.patched_config and os.path.exists(a.patched_config):
        with open(a.patched_config) as f:
            opts = [l.strip() for l in f if l.startswith("CONFIG_")]
    base = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "configs", "base.config")
    with open(base) as f:
        base_opts = {l.strip() for l in f if l.startswith("CONFIG_")}
    built = [w for o, w in (("CONFIG_CC_OPTIMIZE_FOR_PERFORMANCE=y", "-O2"),
                            ("CONFIG_JUMP_LABEL=y", "jump labels")) if o in base_opts]
    if a.debian_config:
        both = (f"Debian's `{os.path.basename(a.debian_config)}` (linux-config-6.12) reduced to its "
                "built-in options by `kernel/scripts/debian-config.sh` (modules, module signing and "
                "debug information off; each change and why in the script)")
    else:
        both = ("`kernel/configs/base.config` on tinyconfig"
                + (f" ({', '.join(built)}, as distributions build)" if built else ""))
    out.append(f"- both kernels: {both}; patched adds "
               + (", ".join(f"`{o}`" for o in opts) if opts else "nothing")
               + "; no tracepoint is enabled in the guest during the runs")
    out.append("")
    out.append("| benchmark | stock p50 ns | patched p50 ns | p50 change "
               "| stock mean ns (cv) | patched mean ns (cv) | mean change |")
    out.append("|---|---:|---:|---:|---:|---:|---:|")
    table = []
    for name in sorted(set(rs) | set(rp)):
        s, p = rs.get(name), rp.get(name)

        def stat(r):
            if not r or r["error"] or not r["means"]:
                return None, None
            m = statistics.fmean(r["means"])
            cv = statistics.stdev(r["means"]) / m if len(r["means"]) > 1 else 0.0
            return m, cv
        sm, scv = stat(s)
        pm, pcv = stat(p)
        change = (pm / sm - 1) * 100 if sm and pm else None

        def p50(r):
            if not r or r["error"] or not r["p50"]:
                return None
            return statistics.median(r["p50"])
        s50, p50v = p50(s), p50(p)
        change50 = (p50v / s50 - 1) * 100 if s50 and p50v else None
        note = ""
        if sm is None and s and s["error"]:
            note = s["error"]
        if pm is None and p and p["error"]:
            note = p["error"]
        table.append({"name": name, "stock_p50_ns": s50, "patched_p50_ns": p50v,
                      "p50_change_percent": change50,
                      "stock_mean_ns": sm, "stock_cv": scv,
                      "patched_mean_ns": pm, "patched_cv": pcv,
                      "change_percent": change,
                      "stock_error": s and s["error"], "patched_error": p and p["error"]})
        def cell(m, cv):
            return "-" if m is None else f"{fmt(m)} ({cv * 100:.2f}%)"
        if change is None and change50 is None:
            out.append("| `{}` | {} | {} | {} | {} | {} | |".format(
                name, fmt(s50), fmt(p50v), ("stock: " if sm is None else "") + note,
                cell(sm, scv), cell(pm, pcv)))
            continue
        out.append("| `{}` | {} | {} | {} | {} | {} | {} |".format(
            name, fmt(s50), fmt(p50v),
            "-" if change50 is None else f"{change50:+.2f}%",
            cell(sm, scv), cell(pm, pcv),
            "-" if change is None else f"{change:+.2f}%"))
    out.append("")
    out.append("A row with only a patched value is a feature stock lacks "
               "(its stock cell says why). A reviewer's gate: the mainline rows "
               "(`unotif/ioctl`, `syscall/getppid`) should not move by more than "
               "the noise (cv) plus the budget (1% for tracepoints that are off).")
    out.append("")
    with open(a.out_md, "w") as f:
        f.write("\n".join(out))
    with open(a.out_json, "w") as f:
        json.dump({"stock": {"meta": ms, "results": ds},
                   "patched": {"meta": mp, "results": dp},
                   "table": table}, f, indent=2)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
