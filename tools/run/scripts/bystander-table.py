#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""bystander-table.py ROUNDS N THREADS KERNEL SHA: results/run/bystander.md,
as markdown on stdout, from the rounds results/run/regen measured.

ROUNDS holds a line a condition a round: the condition (idle, flood or
stuck), then the bystander's line from tools/run/load/emulate_load,
"calls N p50_ns P p99_ns Q max_ns M". N is the bystander's call count,
THREADS the flood's, KERNEL and SHA the kernel release and knotif commit the
rounds ran on. Each figure is the median over rounds; p50 and p99 also
against idle's.
"""
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scripts"))
import gbrows  # noqa: E402

CONDITIONS = ("idle", "flood", "stuck")


def rounds(path):
    """condition -> [(p50, p99, max) in ns, a round each]"""
    by = {}
    with open(path, encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            fields = line.split()
            kv = dict(zip(fields[1::2], fields[2::2]))
            try:
                by.setdefault(fields[0], []).append(tuple(int(kv[k]) for k in ("p50_ns", "p99_ns", "max_ns")))
            except (IndexError, KeyError, ValueError):
                raise ValueError(f"{path}:{i}: not a 'COND calls N p50_ns P p99_ns Q max_ns M' line") from None
    for cond in CONDITIONS:
        if cond not in by:
            raise ValueError(f"{path}: no {cond} round")
    return by


def table(path, n, threads, kernel, sha):
    by = rounds(path)
    out = ["# One process's emulated mknod beside another's",
           "",
           f"`results/run/regen` on {kernel}, knotif {sha}: a bystander's {n} calls under one knotif-run "
           f"--emulate=mknod, 3 interleaved rounds (median over rounds).",
           "",
           "| beside | p50 µs | p99 µs | max µs | p50 × idle | p99 × idle |",
           "|---|---:|---:|---:|---:|---:|"]
    idle = [statistics.median(v[i] for v in by["idle"]) for i in range(3)]
    names = {"idle": "nothing (idle)", "flood": f"a {threads}-thread flood", "stuck": "an act held by a FUSE server"}
    for cond in CONDITIONS:
        m = [statistics.median(v[i] for v in by[cond]) for i in range(3)]
        out.append(f"| {names[cond]} | {m[0] / 1000:,.0f} | {m[1] / 1000:,.0f} | {m[2] / 1000:,.0f} | "
                   f"{m[0] / idle[0]:.2f} | {m[1] / idle[1]:.2f} |")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    gbrows.table_main("bystander-table", "bystander-table.py ROUNDS N THREADS KERNEL SHA",
                      lambda args: table(*args), min_files=5, max_files=5)
