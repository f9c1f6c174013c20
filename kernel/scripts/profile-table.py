#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""profile-table.py: where a round trip's instructions go, by kernel function.

vm-profile (kernel/scripts/profile.sh) boots a kernel twice under -icount
with QEMU's tbcount plugin (kernel/profile/tbcount.c), running one
knotif-bench benchmark for SHORT and then LONG round trips; everything else
in the two boots is the same, so the difference of the two profiles divided
by the round trips between them (LONG - SHORT and the difference of the
untimed warm-ups, which knotif-bench reports) is one round trip's
instructions, per function. Symbols come
from the kernel's System.map (the guest boots with nokaslr); user space is
one row, and kernel text outside the map (the BPF JIT's programs, the entry
trampolines of the CPU entry area) gets a row per region.

  profile-table.py --map System.map --short DIR --long DIR --floor-short DIR
                   --floor-long DIR --samples SHORT,LONG --out-json FILE

knotif-bench measures its ping-pong floor beside every benchmark: the floor's
own two runs are subtracted. Each DIR holds profile.txt (the plugin's) and
knotif-bench.json (the guest's: the benchmark's own p50, context switches and
preemptions, shown beside the profile's total; two runs whose p50 differ took
different paths and their difference is not one round trip).
"""
import argparse
import bisect
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import gbrows  # noqa: E402  the one reader of Google Benchmark rows
import symgroups  # noqa: E402  (this directory)

KEEP = 100	# functions kept by name in the JSON; the rest are summed (groups are whole)
OTHERS = "[other functions]"

REGIONS = (  # x86-64 4-level layout (Documentation/arch/x86/x86_64/mm.rst)
    (0xfffffe0000000000, 0xfffffe7fffffffff, "[cpu entry area: entry trampolines]"),
    (0xffffffffa0000000, 0xfffffffffeffffff, "[module area: BPF JIT programs]"),
    (0xffffffffff600000, 0xffffffffff600fff, "[vsyscall page]"),
)


def load_map(path):
    addrs, names = [], []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 3 and parts[1] in "tTwW":
                addrs.append(int(parts[0], 16))
                names.append(parts[2])
    order = sorted(range(len(addrs)), key=addrs.__getitem__)
    return [addrs[i] for i in order], [names[i] for i in order]


def symbolize(addr, kmap):
    if addr < 0x0000800000000000:
        return "[user]"
    for lo, hi, name in REGIONS:
        if lo <= addr <= hi:
            return name
    addrs, names = kmap
    i = bisect.bisect_right(addrs, addr) - 1
    return names[i] if i >= 0 else "[kernel, not in System.map]"


def load_profile(d, kmap):
    by_sym = {}
    with open(os.path.join(d, "profile.txt")) as f:
        for line in f:
            if line.startswith("#"):
                continue
            vaddr, insns, count = line.split()
            sym = symbolize(int(vaddr, 16), kmap)
            by_sym[sym] = by_sym.get(sym, 0) + int(insns) * int(count)
    return by_sym


def bench_runs(d):
    """the guest's own benchmarks but the floor: run_name -> its one iteration
    row (a row that did not run keeps its error)"""
    doc = gbrows.load(os.path.join(d, "knotif-bench.json"))
    out = {}
    for name, run in gbrows.runs(doc).items():
        if run["iterations"] and gbrows.is_floor(run["iterations"][0]):
            continue
        out[name] = {"error_message": run["error"]} if run["error"] else run["iterations"][0]
    return out


def round_trips(row):
    """every round trip a run made: its samples and the untimed warm-up before them"""
    return row["iterations"] * row.get("repetitions", 1) + row.get("warmup_iterations", 0)


def per_round_trip(kmap, short_dir, long_dir, floor_short, floor_long, n):
    """{symbol: instructions per round trip} of one benchmark: the difference
    of its two runs less the floor's, over the n round trips between them"""
    a, b = load_profile(short_dir, kmap), load_profile(long_dir, kmap)
    fa, fb = load_profile(floor_short, kmap), load_profile(floor_long, kmap)
    syms = set(a) | set(b) | set(fa) | set(fb)
    prof = {s: ((b.get(s, 0) - a.get(s, 0)) - (fb.get(s, 0) - fa.get(s, 0))) / n for s in syms}
    return {s: v for s, v in prof.items() if abs(v) >= 0.05}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--map", required=True)
    ap.add_argument("--short", required=True)
    ap.add_argument("--long", required=True)
    ap.add_argument("--floor-short", required=True, help="the floor alone, SHORT round trips")
    ap.add_argument("--floor-long", required=True)
    ap.add_argument("--samples", required=True, help="SHORT,LONG round trips")
    ap.add_argument("--label", default="")
    ap.add_argument("--out-json", required=True)
    ap.add_argument("--top", type=int, default=25)
    a = ap.parse_args()
    try:
        short_n, long_n = (int(x) for x in a.samples.split(","))
        assert long_n > short_n > 0
    except (ValueError, AssertionError):
        print("profile-table: --samples=SHORT,LONG with LONG > SHORT > 0", file=sys.stderr)
        return 2
    rows_short, rows_long = bench_runs(a.short), bench_runs(a.long)
    if len(rows_long) != 1 or set(rows_short) != set(rows_long):
        print(f"profile-table: want one benchmark in both runs, have {sorted(rows_short)} and {sorted(rows_long)}",
              file=sys.stderr)
        return 1
    name, row = next(iter(rows_long.items()))
    if "error_message" in row:
        # the kernel lacks it (6.1 has no sync wake-up): said, not profiled
        with open(a.out_json, "w") as f:
            json.dump({"benchmark": name, "label": a.label, "error": row["error_message"]}, f, indent=1)
        print(f"{name} on {a.label}: {row['error_message']}")
        return 0
    n = round_trips(rows_long[name]) - round_trips(rows_short[name])
    if n <= 0:
        print(f"profile-table: the long run made no more round trips than the short one ({n})", file=sys.stderr)
        return 1
    prof = per_round_trip(load_map(a.map), a.short, a.long, a.floor_short, a.floor_long, n)
    total = sum(prof.values())
    # the two runs must take the same path: a repetition's mode shows in its p50
    # and in how many of its switches were preemptions
    runs = {k: {"p50": r[name].get("p50"), "round_trips": round_trips(r[name]), "ctx_switches_per_op": r[name].get("ctx_switches_per_op"),
                "preemptions_per_op": r[name].get("preemptions_per_op"), "error": r[name].get("error_message")}
            for k, r in (("short", rows_short), ("long", rows_long))}
    # the functions that matter, by size either way; the rest as one sum
    ranked = sorted(prof.items(), key=lambda kv: -abs(kv[1]))
    kept = dict(ranked[:KEEP])
    kept[OTHERS] = sum(v for _, v in ranked[KEEP:])
    doc = {"benchmark": name, "label": a.label, "samples": [short_n, long_n], "runs": runs,
           "same_mode": runs["short"]["p50"] == runs["long"]["p50"],
           "round_trips_between": n, "profile_total": total,
           "groups": symgroups.by_group(prof), "instructions_per_round_trip": kept}
    with open(a.out_json, "w") as f:
        json.dump(doc, f, indent=1)
    print(f"{name} on {a.label}: {total:,.0f} instructions a round trip by the profile; "
          f"p50 {runs['short']['p50']} ({short_n}) and {runs['long']['p50']} ({long_n}), "
          f"preemptions a round trip {runs['long']['preemptions_per_op']}")
    for s, v in sorted(prof.items(), key=lambda kv: -kv[1])[:a.top]:
        print(f"  {v:9,.1f}  {s}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
