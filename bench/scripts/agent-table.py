#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""agent-table.py RUN.json...: what an emulated mknod costs, as markdown.

From knotif-bench runs of the agent rows (one run or several interleaved
rounds; each row's p50 is the median of its rounds' medians):

  - every agent row's p50, beside the limit no emulation can go under: the
    round trip, the path read and its ID_VALID check, and the node made and
    removed as root where the supervisor stands (agent/mknod-root, measured
    whole), and the same limit summed from its parts (agent/read-vm/id-valid
    + agent/native-mknodat), each row as a multiple of both;
  - what taking the thread's context each call adds to that limit
    (agent/mknod-root/context - agent/mknod-root), and the pool as a
    multiple of that floor;
  - the steps of each row that times them (step:<name>_ns: agent/mknod-pool,
    lib/seccomp/mknod_pool.h's moments; agent/mknod-fork, lib/seccomp/as_target.h's): the
    mean per call of each, its share of their sum, and the sum beside the
    row's mean round trip (what lies outside the steps: the notification,
    the read and check, the unlink; the pool's report comes after its target
    runs again, so its steps may sum past the round trip).

A row a run did not hold is left out; one that failed is listed with its error.
"""
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import gbrows  # noqa: E402

LIMIT_WHOLE = "agent/mknod-root"
LIMIT_PARTS = ("agent/read-vm/id-valid", "agent/native-mknodat")
# the limit with the thread's context taken each call, as knotif-run's pool takes it
FLOOR_CHECKED = "agent/mknod-root/context"
POOL = "agent/mknod-pool"


def collect(paths):
    """(p50s, means, steps, errors, placements): per method the rounds' values."""
    p50, mean, steps, errors, placements = {}, {}, {}, {}, set()
    for path in paths:
        doc = gbrows.load(path)
        rows, errs = gbrows.headline_rows(doc)
        for name, msg in errs.items():
            errors[gbrows.split_name(name)[0]] = msg
        for name, row in rows.items():
            method, placement = gbrows.split_name(name)
            if not method.startswith("agent/"):
                continue
            placements.add(placement)
            p50.setdefault(method, []).append(row["p50"])
            mean.setdefault(method, []).append(row["real_time"])
            for key, value in row.items():
                if key.startswith("step:") and key.endswith("_ns"):
                    steps.setdefault(method, {}).setdefault(key[5:-3], []).append(value)
    return p50, mean, steps, errors, placements


def us(ns):
    return f"{ns / 1000:,.1f}"


def table(paths):
    p50s, means, steps, errors, placements = collect(paths)
    med = {m: statistics.median(v) for m, v in p50s.items()}
    out = []
    if len(placements) > 1:
        raise SystemExit(f"agent-table: runs at several placements {sorted(placements)}: one at a time")
    place = next(iter(placements), "?")
    out.append(f"Placement `{place}`, {len(paths)} run(s); p50 is the median of the runs' medians.")
    out.append("")
    whole = med.get(LIMIT_WHOLE)
    parts = sum(med[m] for m in LIMIT_PARTS) if all(m in med for m in LIMIT_PARTS) else None
    out.append("| row | p50 µs | × the limit measured whole (`mknod-root`) | × the limit summed (`read-vm/id-valid` + `native-mknodat`) |")
    out.append("|---|---:|---:|---:|")
    for m in sorted(med, key=lambda m: med[m]):
        r1 = f"{med[m] / whole:.2f}" if whole else "—"
        r2 = f"{med[m] / parts:.2f}" if parts else "—"
        out.append(f"| `{m}` | {us(med[m])} | {r1} | {r2} |")
    for m, msg in sorted(errors.items()):
        out.append(f"| `{m}` | {msg} | | |")
    if whole and FLOOR_CHECKED in med:
        floor = med[FLOOR_CHECKED]
        out.append("")
        line = (f"Taking the thread's context each call, as knotif-run does (`{FLOOR_CHECKED}`), "
                f"adds {us(floor - whole)} µs to the limit: a way that checks it per call "
                f"costs at least {floor / whole:.2f}× the limit")
        if POOL in med:
            line += f"; `{POOL}` is {med[POOL] / floor:.2f}× that floor"
        out.append(line + ".")
    for m in sorted(steps, key=lambda m: med.get(m, 0)):
        s = {k: statistics.median(v) for k, v in steps[m].items()}
        total = sum(s.values())
        round_trip = statistics.median(means[m])
        out.append("")
        out.append(f"`{m}`'s steps, mean per call (the median over runs):")
        out.append("")
        out.append("| step | µs | share of the steps |")
        out.append("|---|---:|---:|")
        for k, v in s.items():
            out.append(f"| {k} | {us(v)} | {100 * v / total:.1f}% |")
        out.append(f"| **the steps** | **{us(total)}** | 100% |")
        out.append(f"| the row's mean round trip | {us(round_trip)} | |")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    gbrows.table_main("agent-table", "agent-table.py RUN.json...", table)
