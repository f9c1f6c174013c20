#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""pending-table.py: the pending-notification curve and the shared-listener
hot path, stock against patched.

Reads knotif-stress-pending.json from two vm-bench output directories
(knotif-stress --pending in the guest, under -icount: 1 ns = 1 instruction)
and writes a markdown table of SEND and ID_VALID p50 per number of pending
notifications M, each also as a ratio to its M=1 cost on the same kernel.
A directory without the file (a guest without knotif-stress) gives a note.
Reports only: nothing here fails a build.
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import gbrows  # noqa: E402  the one reader of Google Benchmark rows
from vmmeta import load_meta  # noqa: E402  (this directory)
from stress_pending import curve  # noqa: E402  (this directory)


def cell(c, m, key):
    if not c or m not in c:
        return "-", "-"
    v = statistics.median(c[m][key])
    first = statistics.median(c[min(c)][key])
    return f"{v:,.0f}", f"{v / first:.2f}×"


def per_task(d):
    """kernel/bench/wake-cost in d: {counter: median over repetitions} of its two per-task counters"""
    path = os.path.join(d, "wake-cost.json")
    rows = gbrows.load(path)["benchmarks"] if os.path.exists(path) else []
    out = {}
    for counter in ("wake_cost_per_task", "requeue_cost_per_task"):
        vals = [b[counter] for b in rows if b.get("run_type") == "iteration" and counter in b]
        out[counter] = statistics.median(vals) if vals else None
    return out


def wake_bound(a, rows):
    """What no batching removes: every reply wakes its target."""
    lines = ["", "### What bounds a batch", ""]
    got = {label: per_task(d) for label, d in (("stock", a.stock), ("patched", a.patched))}
    wake = {label: g["wake_cost_per_task"] for label, g in got.items()}
    queue = {label: g["requeue_cost_per_task"] for label, g in got.items()}
    if wake["patched"] is None or queue["patched"] is None:
        return lines + ["No wake-up measurement: a guest ran without kernel/bench/wake-cost (wake and requeue rows)."]
    itself = {label: wake[label] - queue[label] for label in wake
              if wake[label] is not None and queue[label] is not None}
    lines.append("`kernel/bench/wake-cost` in the same guests: FUTEX_WAKE of 64 tasks asleep on one word, in"
                 " one call, less FUTEX_WAKE of none, per task woken: " +
                 ", ".join(f"{label} {v:,.0f}" for label, v in wake.items() if v is not None) +
                 " instructions. That holds the futex queue's work too; FUTEX_CMP_REQUEUE of the same 64"
                 " to another word walks that queue and unlinks them without waking any: " +
                 ", ".join(f"{label} {v:,.0f}" for label, v in queue.items() if v is not None) +
                 " a task. The difference is the wake-up itself (try_to_wake_up, which seccomp's reply"
                 " pays through complete()): " +
                 ", ".join(f"{label} {v:,.0f}" for label, v in itself.items()) +
                 ". Every reply in a batch wakes its target, so no batch of system calls goes below"
                 " read()'s share plus one wake-up per notification, on one CPU as here (with the target"
                 " on another CPU the waker may only queue the wake-up for that CPU to finish):")
    lines += ["", "| run | blocking | rw-batch | in read() | one wake-up | read() + wake-up | × blocking |"
              " 0.5 × blocking |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for name in sorted(rows):
        b = rows[name].get("patched")
        base = rows.get(name.replace("/rw-batch/", "/blocking/"), {}).get("patched")
        if "/rw-batch/" not in name or not b or not base or b.get("error_occurred") or \
                base.get("error_occurred") or "listener_read_cpu_time" not in b:
            continue
        floor = b["listener_read_cpu_time"] + itself["patched"]
        blk = base["supervisor_cpu_time"]
        lines.append(f"| `{name}` | {blk:,.0f} | {b['supervisor_cpu_time']:,.0f} |"
                     f" {b['listener_read_cpu_time']:,.0f} | {itself['patched']:,.0f} | {floor:,.0f} |"
                     f" {floor / blk:.2f}× | {blk / 2:,.0f} |")
    return lines


def guest_placement(d):
    """the placement vm-run.sh booted d's guest at: same, cross or free"""
    try:
        return load_meta(d).get("placement", "same")
    except OSError:
        return "same"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--stock", required=True)
    ap.add_argument("--patched", required=True)
    ap.add_argument("--out-md", required=True)
    a = ap.parse_args()
    for d in (a.stock, a.patched):
        if not os.path.isdir(d):
            print(f"pending-table.py: {d}: not a vm-bench output directory", file=sys.stderr)
            sys.exit(2)
    s, p = curve(a.stock), curve(a.patched)
    # the guests' placement (vm-run.sh's meta.txt; runs before it had one were same)
    placement = guest_placement(a.stock)
    make = "make -f Makefile.kernel vm-bench" + ("" if placement == "same" else f" PLACEMENT={placement}")
    lines = ["<!-- SPDX-License-Identifier: GPL-2.0 -->",
             "# Pending notifications: SEND and ID_VALID cost against M, stock vs patched, under QEMU -icount", "",
             f"Produced by `{make}` (`knotif-stress --pending=1,10,100,1000"
             f" --placement={placement}` in each guest); do not edit by hand. Guest time counts instructions"
             " (1 ns = 1 instruction); each cell is the median over repetitions of the p50 of one call"
             " with M notifications held on one listener; ×M=1 is that cost over the same kernel's M=1"
             " cost.", ""]
    if s is None or p is None:
        lines.append("No pending curve: a guest ran without knotif-stress.")
    else:
        lines += ["| M | stock ID_VALID | ×M=1 | patched ID_VALID | ×M=1 | stock SEND | ×M=1 | patched SEND | ×M=1 |",
                  "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for m in sorted(set(s) | set(p)):
            row = [str(m)]
            for key in ("id_valid", "send"):
                for c in (s, p):
                    row += cell(c, m, key)
            lines.append("| " + " | ".join(row) + " |")
    lines += ["", "## The shared-listener hot path", "",
              "`knotif-stress --targets=100,1000 --strategy=blocking,rw-batch --topology=shared"
              " --placement=same --requests-total=20000`: supervisor CPU per notification (guest"
              " instructions), where it went, system calls and notifications per wake-up; every reply checked by"
              " its target (the run's ledger balances or the run fails).", ""]
    rows = {}
    for label, d in (("stock", a.stock), ("patched", a.patched)):
        path = os.path.join(d, "knotif-stress-hotpath.json")
        if not os.path.exists(path):
            continue
        for name, r in gbrows.runs(gbrows.load(path)).items():
            b = r["iterations"][0] if r["iterations"] else None
            if r["error"]:
                b = {"error_occurred": True, "error_message": r["error"]}
            if b is not None:
                rows.setdefault(name, {})[label] = b
    if not rows:
        lines.append("No hot-path run: a guest ran without knotif-stress.")
    else:
        lines += ["| run | kernel | supervisor instructions / notification | in read() | in write() "
                  "| the rest | × blocking | system calls / notification | mean batch |",
                  "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
        for name in sorted(rows):
            for label in ("stock", "patched"):
                b = rows[name].get(label)
                if b is None:
                    continue
                if b.get("error_occurred"):
                    lines.append(f"| `{name}` | {label} | {b.get('error_message', 'error')} | | | | | | |")
                    continue
                cpu = b["supervisor_cpu_time"]
                split = ["", "", ""]
                if "listener_read_cpu_time" in b:
                    rd, wr = b["listener_read_cpu_time"], b["listener_write_cpu_time"]
                    split = [f"{rd:,.0f}", f"{wr:,.0f}", f"{cpu - rd - wr:,.0f}"]
                base = rows.get(name.replace("/rw-batch/", "/blocking/"), {}).get(label)
                ratio = ""
                if "/rw-batch/" in name and base and not base.get("error_occurred"):
                    ratio = f"{cpu / base['supervisor_cpu_time']:.2f}×"
                lines.append(f"| `{name}` | {label} | {cpu:,.0f} | " + " | ".join(split) +
                             f" | {ratio} | {b['syscalls_per_op']:.3f} | {b['batch_mean']:.1f} |")
        lines += ["", "*in read()*, *in write()*: the supervisor thread's CPU time inside the listener's"
                  " read() and write() (rw-batch measures it around each call; blocking does not, its"
                  " two ioctls per notification would double what they measure); *the rest* is the"
                  " supervisor's own work per notification (checking the request, the ledger) and"
                  " its share of the wake-ups. *× blocking*: over the blocking ioctl strategy at the"
                  " same targets on the same kernel."]
    lines += wake_bound(a, rows)
    with open(a.out_md, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
