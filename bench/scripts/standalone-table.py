#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""standalone-table.py STANDALONE.txt BENCH.json...: knotif-bench's same-CPU
round trips beside the minimal programs' (bench/standalone) and perf bench's,
as markdown (results/bench/standalone.md).

STANDALONE.txt holds the standalone programs' lines, "NAME same-CPU: median
N ns, ..." ("mean N ns" for `perf bench sched pipe`, which reports no
median), one a round; each BENCH.json is a knotif-bench run of the same
rows, one a round. Each side is the median of its rounds; perf bench's
mean is set beside knotif-bench's pipe floor.
"""
import collections
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import gbrows  # noqa: E402

LINE = re.compile(r"(\S+) same-CPU: (?:median|mean) (\d+) ns")
# perf bench reports a mean per op, not a median: shown beside knotif's pipe floor
REFERENCE = {"perf-bench-sched-pipe": "pingpong/pipe"}


def table(paths):
    bench = collections.defaultdict(list)
    for path in paths[1:]:
        for name, r in gbrows.headline_rows(gbrows.load(path))[0].items():
            bench[gbrows.split_name(name)[0]].append(r["p50"])
    alone = {}
    with open(paths[0], encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            m = LINE.match(line)
            if not m:
                raise ValueError(f"{paths[0]}:{i}: not a 'NAME same-CPU: median|mean N ns' line")
            alone.setdefault(m.group(1), []).append(int(m.group(2)))
    out = ["| same-CPU round trip | knotif-bench p50 µs (median of 3 rounds) "
           "| standalone µs (median of 3 rounds; perf bench: mean) | knotif-bench / standalone |",
           "|---|---:|---:|---:|"]
    for name, medians in alone.items():
        b = statistics.median(bench[REFERENCE.get(name, name)])
        s = statistics.median(medians)
        out.append(f"| `{name}` | {b / 1000:.2f} | {s / 1000:.2f} ({', '.join(f'{m / 1000:.2f}' for m in medians)}) "
                   f"| {b / s:.2f} |")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    gbrows.table_main("standalone-table", "standalone-table.py STANDALONE.txt BENCH.json...", table, min_files=2)
