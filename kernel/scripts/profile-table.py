#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""profile-table.py: where a round trip's instructions go, by kernel function.

vm-profile (kernel/scripts/profile.sh) boots a kernel under -icount with
QEMU's tbcount plugin (kernel/profile/tbcount.c) counting only inside the
window knotif-bench marks around one benchmark's timed loop: that window's
instructions over its round trips are one round trip, by function. Symbols
come from the running kernel's /proc/kallsyms (the guest boots with
nokaslr); user space is one row, and kernel text outside the map (the BPF
JIT's programs, the entry trampolines of the CPU entry area) a row per
region. The round trips are the run's own mix of paths (its modes): the
run's p50, switches and preemptions are stored beside the profile.

  profile-table.py --map KALLSYMS --run DIR --label NAME --out-json FILE

DIR holds profile.txt (the plugin's) and knotif-bench.json (the guest's).
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


def windows(d):
    """how many marked windows the plugin closed (its first line)"""
    with open(os.path.join(d, "profile.txt")) as f:
        first = f.readline().split()
    return int(first[2]) if first[:2] == ["#", "windows"] else None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--map", required=True)
    ap.add_argument("--run", required=True)
    ap.add_argument("--label", default="")
    ap.add_argument("--out-json", required=True)
    ap.add_argument("--top", type=int, default=25)
    a = ap.parse_args()
    rows = bench_runs(a.run)
    if len(rows) != 1:
        print(f"profile-table: want one benchmark in the run, have {sorted(rows)}", file=sys.stderr)
        return 1
    name, row = next(iter(rows.items()))
    if "error_message" in row:
        # the kernel lacks it (6.1 has no sync wake-up): said, not profiled
        with open(a.out_json, "w") as f:
            json.dump({"benchmark": name, "label": a.label, "error": row["error_message"]}, f, indent=1)
        print(f"{name} on {a.label}: {row['error_message']}")
        return 0
    reps = row.get("repetitions", 1)
    if windows(a.run) != reps:
        print(f"profile-table: {windows(a.run)} marked windows for {reps} repetitions (a knotif-bench "
              "without KNOTIF_PROFILE_MARKS, or a plugin without marks=on)", file=sys.stderr)
        return 1
    n = row["iterations"] * reps
    prof = {sym: v / n for sym, v in load_profile(a.run, load_map(a.map)).items()}
    total = sum(prof.values())
    # the functions that matter, by size either way; the rest as one sum
    ranked = sorted(prof.items(), key=lambda kv: (-abs(kv[1]), kv[0]))
    kept = dict(ranked[:KEEP])
    kept[symgroups.OTHER_FUNCTIONS] = sum(v for _, v in ranked[KEEP:])
    doc = {"benchmark": name, "label": a.label, "round_trips": n, "p50": row.get("p50"),
           "ctx_switches_per_op": row.get("ctx_switches_per_op"),
           "preemptions_per_op": row.get("preemptions_per_op"),
           "profile_total": total, "groups": symgroups.by_group(prof), "instructions_per_round_trip": kept}
    with open(a.out_json, "w") as f:
        json.dump(doc, f, indent=1)
    print(f"{name} on {a.label}: {total:,.0f} instructions a round trip in the timed loop, p50 {row.get('p50')}, "
          f"{row.get('ctx_switches_per_op')} switches, {row.get('preemptions_per_op')} preemptions")
    for sym, v in sorted(prof.items(), key=lambda kv: -kv[1])[:a.top]:
        print(f"  {v:9,.1f}  {sym}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
