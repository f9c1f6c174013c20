#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""wakeup-table.py ROUND.json...: the sync wake-up against the async one, as markdown.

From knotif-bench runs (rounds one after the other, each holding both
modes of a reply at one or more placements): per placement and reply, the
async and the sync row's p50 (the median of the rounds' medians), sync over
async taken within each round (the median round and the rounds' range, so a
slow minute of the host moves one round, not one mode), how many rounds had
sync below async, and each mode's context switches and migrations per round
trip (medians), and in how many rounds each mode ran at the same-CPU level
(a p50 at most 1.5x the same mode's placement-same p50 of that round):
whether the supervisor was pulled to the target's CPU
(SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP, 6.6: the waker hints that it will block
at once, so the woken task may run where the waker ran). The switches and
migrations cannot say it: once pulled, both tasks stay on one CPU, two
switches a round trip and no migration.

A pair some round did not hold both halves of is left out of that round;
a pair no round held is not shown. Exit 0; 1 when a file cannot be read;
2 on usage.
"""
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import gbrows  # noqa: E402


SAME_CPU_LEVEL = 1.5  # a p50 within this of the round's same-CPU p50 ran on one CPU


def collect(paths):
    """(placement, reply) -> list of (async row, sync row, async same-CPU row,
    sync same-CPU row), one per round holding both; the last two None when
    the round has no placement same"""
    pairs = {}
    for path in paths:
        rows, _ = gbrows.headline_rows(gbrows.load(path))
        for name, row in rows.items():
            method, place = gbrows.split_name(name)
            parts = method.split("/")
            if len(parts) != 3 or parts[0] != "unotif" or parts[1] != "async":
                continue
            sync = rows.get(f"unotif/sync/{parts[2]}/placement:{place}")
            if sync is not None:
                pairs.setdefault((place, parts[2]), []).append(
                    (row, sync, rows.get(f"unotif/async/{parts[2]}/placement:same"),
                     rows.get(f"unotif/sync/{parts[2]}/placement:same")))
    return pairs


def med(rows, key):
    values = [r[key] for r in rows if key in r]
    return statistics.median(values) if values else float("nan")


def one_cpu(rounds, mode):
    """'k of n': rounds whose p50 of mode (0 async, 1 sync) is at the same-CPU level"""
    known = [r for r in rounds if r[2 + mode] is not None]
    if not known:
        return "—"
    level = sum(r[mode]["p50"] <= SAME_CPU_LEVEL * r[2 + mode]["p50"] for r in known)
    return f"{level} of {len(known)}"


def table(paths):
    pairs = collect(paths)
    out = [f"{len(paths)} round(s); p50 in µs, the median of the rounds' medians; sync ÷ async "
           "within each round (the median round and the range); switches and migrations per "
           "round trip, medians; rounds on one CPU: the mode's p50 at most "
           f"{SAME_CPU_LEVEL}× its placement-same p50 in that round.", "",
           "| placement | reply | async p50 | sync p50 | sync ÷ async | rounds sync < async "
           "| async rounds on one CPU | sync rounds on one CPU "
           "| async switches | sync switches | async migrations | sync migrations |",
           "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for (place, reply), rounds in sorted(pairs.items()):
        a = [r[0] for r in rounds]
        s = [r[1] for r in rounds]
        ratios = sorted(r[1]["p50"] / r[0]["p50"] for r in rounds)
        lower = sum(r[1]["p50"] < r[0]["p50"] for r in rounds)
        out.append(f"| {place} | {reply} | {med(a, 'p50') / 1000:,.2f} | {med(s, 'p50') / 1000:,.2f} "
                   f"| {statistics.median(ratios):.2f} ({ratios[0]:.2f}–{ratios[-1]:.2f}) "
                   f"| {lower} of {len(rounds)} | {one_cpu(rounds, 0)} | {one_cpu(rounds, 1)} "
                   f"| {med(a, 'ctx_switches_per_op'):.2f} | {med(s, 'ctx_switches_per_op'):.2f} "
                   f"| {med(a, 'migrations_per_op'):.2f} | {med(s, 'migrations_per_op'):.2f} |")
    if not pairs:
        out += ["", "No round held an async row with its sync twin."]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    gbrows.table_main("wakeup-table", "wakeup-table.py ROUND.json...", table)
