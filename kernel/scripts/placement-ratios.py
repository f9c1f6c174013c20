#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""placement-ratios.py --guest-same F... --guest-cross F... --host F...:
what the guest's cross/same ratio says about the host's.

Per row (a method, both placements), the round trip at placement cross
over the one at placement same: in the guest under -icount (instructions;
each placement's p50 is the median of every boot's repetition medians: the
boots repeat to the instruction, see repeat-table.py) and on the host
(each --host file is one knotif-bench run holding both placements, the two
run back to back: a round's ratio is taken within it, and the table gives
the median round's ratio and the range over rounds, so a slow minute of
the host moves one round, not one placement). Beside each ratio, what cross
placement adds (cross - same): on both sides it is near one constant for
every method, the cost of the two wake-ups that cross CPUs. Which way the two ratios
point is written out: the guest's count has no cache-line transfer, IPI
latency or idle-exit cost (kernel/README.md), so where the host's cross
placement costs more than the guest's, those are what the host adds.

Exit 0; 1 when a file cannot be read; 2 on usage (a group empty).
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import gbrows  # noqa: E402


def p50s(paths, placement):
    """method -> every p50 of its repetitions at placement, over the files"""
    out = {}
    for path in paths:
        for name, r in gbrows.runs(gbrows.load(path)).items():
            method, place = gbrows.split_name(name)
            if place != placement or r["error"]:
                continue
            out.setdefault(method, []).extend(it["p50"] for it in r["iterations"] if "p50" in it)
    return out


def host_rounds(paths):
    """method -> [(same p50, cross p50)], one per host file that ran both"""
    out = {}
    for path in paths:
        rows, _ = gbrows.headline_rows(gbrows.load(path))
        by = {}
        for name, row in rows.items():
            method, place = gbrows.split_name(name)
            by.setdefault(method, {})[place] = row["p50"]
        for method, places in by.items():
            if "same" in places and "cross" in places:
                out.setdefault(method, []).append((places["same"], places["cross"]))
    return out


def spread(median, values):
    """the median, and the range after it when the values differ"""
    lo, hi = min(values), max(values)
    return f"{median:,.0f}" if lo == hi else f"{median:,.0f} ({lo:,.0f}–{hi:,.0f})"


def table(a):
    same, cross = p50s(a.guest_same, "same"), p50s(a.guest_cross, "cross")
    host = host_rounds(a.host)
    methods = [m for m in same if m in cross and m in host]
    out = [f"Guest: {len(a.guest_same)} boot(s) at placement same, {len(a.guest_cross)} at cross "
           f"(p50 in instructions; a range after it where repetitions differ); host: {len(a.host)} "
           f"round(s), each both placements (p50 in µs; the median round and the rounds' range).", "",
           "| row | guest same | guest cross | guest cross/same | guest cross − same "
           "| host same µs | host cross µs | host cross/same | host cross − same µs | host ÷ guest ratio |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for m in methods:
        gs, gc = statistics.median(same[m]), statistics.median(cross[m])
        ratios = sorted(c / s for s, c in host[m])
        adds = sorted((c - s) / 1000 for s, c in host[m])
        hs = statistics.median(s for s, _ in host[m]) / 1000
        hc = statistics.median(c for _, c in host[m]) / 1000
        hr = statistics.median(ratios)
        out.append(f"| `{m}` | {spread(gs, same[m])} | {spread(gc, cross[m])} | {gc / gs:.2f} | {gc - gs:+,.0f} "
                   f"| {hs:,.2f} | {hc:,.2f} | {hr:.2f} ({ratios[0]:.2f}–{ratios[-1]:.2f}) "
                   f"| {statistics.median(adds):+,.1f} ({adds[0]:+,.1f}–{adds[-1]:+,.1f}) | {hr / (gc / gs):.2f} |")
    missing = sorted((set(same) | set(cross) | set(host)) - set(methods))
    if missing:
        out += ["", "Not in every group (left out): " + ", ".join(f"`{m}`" for m in missing) + "."]
    return "\n".join(out) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--guest-same", nargs="+", default=[], metavar="GB.json")
    p.add_argument("--guest-cross", nargs="+", default=[], metavar="GB.json")
    p.add_argument("--host", nargs="+", default=[], metavar="GB.json")
    a = p.parse_args()
    if not (a.guest_same and a.guest_cross and a.host):
        p.error("--guest-same, --guest-cross and --host each need a file")
    try:
        sys.stdout.write(table(a))
    except (OSError, ValueError, KeyError) as e:
        print(f"placement-ratios: {e}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
