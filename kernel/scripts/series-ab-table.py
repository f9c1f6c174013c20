#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""series-ab-table.py: the A/B of a series per patch, with its tail.

Arguments: the run directories of make -f Makefile.kernel vm-bench-series in
order, stock first, then the series' first 1, 2, ... N patches (each written
by kernel/scripts/vm-run.sh bench: meta.txt, the guest's Google Benchmark
JSON, samples-histogram.csv with every knotif-bench round trip's
instructions, seccomp.o of that kernel).

For every knotif-bench row it gives p50, p90, p99 and the mean of all the
round trips (every repetition pooled), and the share of slow ones: at least
SLOW_PATH times stock's fastest mode of that row, one threshold for every
kernel so that the shares compare. Then each patch against the prefix before
it and the whole against stock; the pending curve (knotif-stress, p50 per
repetition, median); and bloat-o-meter on kernel/seccomp.o per patch.
Reports only: nothing here fails a build.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import gbrows  # noqa: E402  the one reader of Google Benchmark rows
from vmmeta import load_meta, make_command, run_date  # noqa: E402  (this directory)
from icount_hist import SLOW_PATH, load_histogram, mean, modes_of, percentile, pooled, slow_share  # noqa: E402
from stress_pending import curve  # noqa: E402  (this directory)

QUANTILES = (("p50", 0.50), ("p90", 0.90), ("p99", 0.99))


def series_paths(series):
    """{patch file name: its path} of every patch a series file lists"""
    base = os.path.dirname(os.path.abspath(series))
    with open(series) as f:
        return {os.path.basename(line.strip()): os.path.join(base, line.strip())
                for line in f if line.strip() and not line.startswith("#")}


def subject(paths, name):
    """the patch's subject line, without its [PATCH n/m] prefix"""
    try:
        with open(paths[name]) as f:
            text = f.read()
    except (KeyError, OSError):
        return name
    m = re.search(r"^Subject: (.*(?:\n [^\n]*)*)", text, re.M)
    if not m:
        return name
    return re.sub(r"^\[[^]]*\]\s*", "", " ".join(m.group(1).split()))


def level_rows(d):
    """({row name: {"hist": {instructions: count}} or {"error": str}} of
    knotif-bench, the run's date)"""
    path = os.path.join(d, "knotif-bench.json")
    if not os.path.exists(path):
        return {}, ""
    hist = load_histogram(d)
    doc = gbrows.load(path)
    out = {}
    for name, run in gbrows.runs(doc).items():
        if run["error"]:
            out[name] = {"error": run["error"]}
            continue
        h = pooled(hist, name)
        if h:
            out[name] = {"hist": h}
    return out, doc.get("context", {}).get("date", "")


def pending_rows(d):
    """{"SEND M:n" or "ID_VALID M:n": median of the repetitions' p50}"""
    out = {}
    for m, ops in (curve(d) or {}).items():
        for key, label in (("send", "SEND"), ("id_valid", "ID_VALID")):
            out[f"{label} M:{m}"] = statistics.median(ops[key])
    return out


def stats(h, fastest):
    """p50/p90/p99/mean of a histogram and its share on a slow path against
    the mode fastest (stock's)"""
    out = {k: percentile(h, q) for k, q in QUANTILES}
    out["mean"] = mean(h)
    out["slow_share"] = slow_share(h, fastest)
    out["round_trips"] = sum(h.values())
    return out


def bloat(tool, old, new):
    """bloat-o-meter's report of new against old, or why there is none"""
    if not (tool and os.path.exists(tool) and os.path.exists(old) and os.path.exists(new)):
        return None, "no seccomp.o or no bloat-o-meter"
    p = subprocess.run([sys.executable, tool, old, new], capture_output=True, text=True)
    if p.returncode:
        return None, f"bloat-o-meter: {p.stderr.strip() or p.returncode}"
    return p.stdout.rstrip("\n"), None


def struct_size(pahole, obj, name):
    """sizeof(struct name) in obj's debug information (pahole), or None"""
    if not (pahole and os.path.exists(obj)):
        return None
    p = subprocess.run([pahole, "-C", name, obj], capture_output=True, text=True)
    m = re.search(r"/\* size: (\d+),", p.stdout)
    return int(m.group(1)) if p.returncode == 0 and m else None


def kmalloc_cache(size):
    """the kmalloc cache an allocation of size bytes comes from (x86_64:
    powers of two from 8, and 96 and 192; __kmalloc_index())"""
    if size <= 8:
        return 8
    if 64 < size <= 96:
        return 96
    if 128 < size <= 192:
        return 192
    n = 8
    while n < size:
        n *= 2
    return n


def pct(a, b):
    return None if not a else (b - a) / a * 100


def fmt_change(a, b):
    c = pct(a, b)
    return "-" if c is None else f"{c:+.2f}%"


def fmt_pp(a, b):
    return f"{(b - a) * 100:+.2f} pp"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--series", required=True, help="the series file the prefixes are of")
    ap.add_argument("--bloat-o-meter", help="the kernel's scripts/bloat-o-meter")
    ap.add_argument("--pahole", help="pahole, to read sizeof(struct notification) from each seccomp.o")
    ap.add_argument("--debian-config", help="the kernels were built from this Debian config (KCONFIG=debian)")
    ap.add_argument("--out-md", required=True)
    ap.add_argument("--out-json", required=True)
    ap.add_argument("--again", help="the last kernel booted a second time: the spread between two boots")
    ap.add_argument("levels", nargs="+", help="run directories: stock, then each prefix")
    a = ap.parse_args()
    if len(a.levels) < 2:
        ap.error("stock and at least one prefix")
    for d in a.levels + ([a.again] if a.again else []):
        if not os.path.exists(os.path.join(d, "meta.txt")):
            print(f"series-ab-table: {d}: no meta.txt (not a vm-run.sh run directory)", file=sys.stderr)
            return 1
    for path in (a.out_md, a.out_json):  # before any work: the outputs' folders exist
        if not os.path.isdir(os.path.dirname(os.path.abspath(path))):
            print(f"series-ab-table: {path}: no such directory", file=sys.stderr)
            return 1

    paths = series_paths(a.series)
    metas = [load_meta(d) for d in a.levels]
    rows, dates = zip(*[level_rows(d) for d in a.levels])
    if a.again and load_meta(a.again).get("bzimage_sha256") != metas[-1].get("bzimage_sha256"):
        print(f"series-ab-table: {a.again}: not the last kernel's bzImage booted again", file=sys.stderr)
        return 1
    again = level_rows(a.again)[0] if a.again else {}
    pend = [pending_rows(d) for d in a.levels]
    if not rows[0]:
        print(f"series-ab-table: {a.levels[0]}: no knotif-bench.json (see its console.log)", file=sys.stderr)
        return 1
    names = []
    for k, lv in enumerate(a.levels):
        if k == 0:
            names.append(("stock", "stock"))
            continue
        applied = metas[k]["patches"]
        if len(applied) != k:
            print(f"series-ab-table: {lv}: {len(applied)} patches applied, not {k} (levels in order, stock first)",
                  file=sys.stderr)
            return 1
        last = applied[-1].split()[-1]
        names.append((last, subject(paths, last)))

    # one slow threshold per row: SLOW_PATH times stock's fastest mode
    fastest = {}
    for name, r in rows[0].items():
        if "hist" in r:
            modes = modes_of(r["hist"])
            fastest[name] = modes[0][0] if modes else min(r["hist"])

    def row_stats(lv, name):
        r = lv.get(name, {})
        return stats(r["hist"], fastest[name]) if "hist" in r else {"error": r.get("error", "no run")}
    table = {}
    for name in sorted(fastest):
        table[name] = {"slow_threshold": fastest[name] * SLOW_PATH, "levels": [row_stats(lv, name) for lv in rows]}
        if a.again:
            table[name]["again"] = row_stats(again, name)
    # a patch that changes no kernel code boots the same bzImage as the prefix before it
    same = [k > 0 and bool(metas[k].get("bzimage_sha256")) and
            metas[k].get("bzimage_sha256") == metas[k - 1].get("bzimage_sha256") for k in range(len(metas))]

    bloats = []
    for k in range(1, len(a.levels)):
        text, why = bloat(a.bloat_o_meter, os.path.join(a.levels[k - 1], "seccomp.o"),
                          os.path.join(a.levels[k], "seccomp.o"))
        bloats.append({"patch": names[k][0], "report": text, "error": why})

    sizes = [struct_size(a.pahole, os.path.join(d, "seccomp.o"), "notification") for d in a.levels]

    when = run_date(dates)
    make = make_command("vm-bench-series", a.debian_config, metas[-1].get("placement", "same"),
                        "PATCHES=" + os.path.relpath(a.series, os.getcwd()))

    out = ["<!-- SPDX-License-Identifier: GPL-2.0 -->",
           "# The series per patch: round trips and their tail under QEMU -icount", "",
           f"Produced by `{make}` (guest runs from {when}); do not edit by hand.", "",
           "Guest time counts instructions (`-icount shift=0,sleep=off`, 1 ns = 1 instruction), one vCPU: "
           "supervisor and target share it. Every figure is of all the round trips of a row "
           f"({round_trips_desc(table)}), each repetition pooled: p50, p90, p99 and the mean in instructions; "
           f"*slow* is the share of round trips at or over {SLOW_PATH:.2f}× stock's fastest mode of that row "
           "(one threshold for every kernel, so that the shares compare).", "",
           "What an instruction count can tell a maintainer: how much work a path does, exactly and "
           "repeatably (a change of one instruction shows), and how often a round trip takes another path "
           "(the slow share: a timer tick, a preemption, a wake-up that waits). What it cannot: the time of "
           "that work on hardware. Under TCG a cache miss, a mispredicted branch, a TLB refill, an IPI and "
           "an idle exit cost nothing, a `rep stos` counts per element, and memory is free, so a larger "
           "object (kmalloc-1k against kmalloc-64) or an extra cache line touched on the hot path does not "
           "show; nor does lock contention between CPUs. Those need the host's numbers "
           "(results/kernel/cross/host-vs-guest.md).", "",
           "Kernels:", ""]
    for k, lv in enumerate(a.levels):
        m = metas[k]
        out.append(f"- {k}: {names[k][1]} — `{m.get('kernel_version', '?')}` "
                   f"(bzImage {m.get('bzimage_sha256', '?')})")
    out.append("")

    def stat_row(name, s, t):
        """row name's figures t, each with its change from s's"""
        if "error" in s or "error" in t:
            return None
        return (f"| `{name}` | " + " | ".join(f"{t[k]:,.0f} ({fmt_change(s[k], t[k])})" for k, _ in QUANTILES) +
                f" | {t['mean']:,.1f} ({fmt_change(s['mean'], t['mean'])}) | {t['slow_share'] * 100:.2f}% "
                f"({fmt_pp(s['slow_share'], t['slow_share'])}) |")

    head = "| benchmark | p50 | p90 | p99 | mean | slow |\n|---|---:|---:|---:|---:|---:|"
    last = len(a.levels) - 1
    out += ["## The whole series against stock", "",
            "Each cell: the series' figure, and its change from stock's.", "", head]
    out += [r for r in (stat_row(n, table[n]["levels"][0], table[n]["levels"][last]) for n in table) if r]
    out += ["", "Stock's own figures:", "", head]
    for name in table:
        s = table[name]["levels"][0]
        if "error" not in s:
            out.append(f"| `{name}` | " + " | ".join(f"{s[k]:,.0f}" for k, _ in QUANTILES) +
                       f" | {s['mean']:,.1f} | {s['slow_share'] * 100:.2f}% |")
    for k in range(1, len(a.levels)):
        out += ["", f"## Patch {k}: {names[k][1]}", "",
                ("Against stock." if k == 1 else f"Against the first {k - 1} patch{'es' if k > 2 else ''}.") +
                (" The same bzImage as the kernel before it (the patch changes no kernel code): this table is "
                 "the spread between two boots of one kernel, the noise floor of every other table's tail."
                 if same[k] else ""),
                "", head]
        out += [r for r in (stat_row(n, table[n]["levels"][k - 1], table[n]["levels"][k]) for n in table) if r]
        b = bloats[k - 1]
        out += ["", "`bloat-o-meter` on `kernel/seccomp.o`:", ""]
        out += ["```", b["report"], "```"] if b["report"] else [f"(none: {b['error']})"]

    if a.again:
        out += ["", "## The last kernel booted again", "",
                "The same bzImage as the whole series', booted a second time with the same programs: the "
                "spread between two boots of one kernel, the noise floor of every table's tail above.", "", head]
        out += [r for r in (stat_row(n, table[n]["levels"][last], table[n]["again"]) for n in table) if r]

    if any(sizes):
        out += ["", "## Memory per listener", "",
                "`struct notification`, one per listener (`pahole -C notification kernel/seccomp.o`), and the "
                "kmalloc cache it is allocated from (charged to the creator's memory cgroup).", "",
                "| kernel | sizeof | kmalloc cache |", "|---|---:|---:|"]
        for k, n in enumerate(sizes):
            out.append(f"| {k}: {names[k][1]} | " + (f"{n:,} B | kmalloc-{kmalloc_cache(n)} |" if n else "- | - |"))

    pnames = sorted(set().union(*[set(p) for p in pend]),
                    key=lambda s: (s.split()[0], int(s.split(":")[1])))
    if pnames:
        out += ["", "## The pending curve per patch", "",
                "`knotif-stress --pending`: SEND and ID_VALID with M notifications pending, p50 per repetition "
                "(median) in instructions, per kernel.", "",
                "| operation | " + " | ".join(str(k) for k in range(len(a.levels))) + " |",
                "|---|" + "---:|" * len(a.levels)]
        for pn in pnames:
            out.append(f"| {pn} | " + " | ".join(f"{p[pn]:,.0f}" if pn in p else "-" for p in pend) + " |")
    with open(a.out_md, "w") as f:
        f.write("\n".join(out) + "\n")
    doc = {"levels": [{"dir": os.path.basename(d), "patch": names[k][0], "subject": names[k][1],
                       "meta": metas[k]} for k, d in enumerate(a.levels)],
           "slow_path": SLOW_PATH, "rows": table, "pending": pend, "bloat": bloats,
           "same_kernel_as_previous": same,
           "struct_notification_size": sizes}
    with open(a.out_json, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")
    return 0


def round_trips_desc(table):
    """how many round trips a row has (the first row's stock count)"""
    for r in table.values():
        s = r["levels"][0]
        if "round_trips" in s:
            return f"{s['round_trips']:,} per row and kernel"
    return "none"


if __name__ == "__main__":
    sys.exit(main())
