#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""counters-table.py COUNTERS.json...: what perf_event counters cost the
round trip they count, as markdown (results/bench/counters.md).

Each COUNTERS.json is a knotif-bench run with --counters=procfs or
--counters=perf (its context.knotif.counters says which: "procfs" or
"perf_event"), interleaved rounds of the same rows; each row's p50 per
source is the median of its rounds, and perf / procfs their ratio.
"""
import collections
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import gbrows  # noqa: E402


def table(paths):
    p50 = collections.defaultdict(lambda: collections.defaultdict(list))
    for path in paths:
        doc = gbrows.load(path)
        src = doc["context"]["knotif"]["counters"]
        for name, r in gbrows.headline_rows(doc)[0].items():
            p50[name][src].append(r["p50"])
    out = ["Same-CPU p50 with each counter source (median of 3 interleaved runs, µs); perf / procfs is",
           "what perf_event software counters on target and supervisor add to the round trip they count.",
           "",
           "| benchmark | procfs p50 µs | perf p50 µs | perf / procfs |",
           "|---|---:|---:|---:|"]
    for name, by in p50.items():
        for src in ("procfs", "perf_event"):
            if not by[src]:
                raise ValueError(f"{name}: no run with counters {src}")
        a, b = statistics.median(by["procfs"]), statistics.median(by["perf_event"])
        out.append(f"| `{gbrows.split_name(name)[0]}` | {a / 1000:.2f} | {b / 1000:.2f} | {b / a:.3f} |")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    gbrows.table_main("counters-table", "counters-table.py COUNTERS.json...", table)
