#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""contention-table.py: the listener lock under contention, from one or more
vm-bench-smp run directories (kernel/scripts/vm-run.sh contention), each
holding meta.txt and the guest's listener-contention.json.

For each run: the victim's NEW_LISTENER p50/p99/max (medians over the
repetitions) with nobody looping, with loopers in another filter tree and
with loopers in the victim's own tree, each as a ratio to nobody looping;
and what one EBUSY refusal's walk costs per filter. Then, from the same
guest's knotif-stress-wakeup.json, what SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP
does to a shared listener's throughput with one call per reply and with
batches, targets free to run on either vCPU. Several runs (an
earlier revision of the series with --run too) give one table: each run's
figures are ratios within that run, since real time under TCG varies from
boot to boot. Reports only: nothing here fails a build.
"""
import argparse
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import gbrows  # noqa: E402  the one reader of Google Benchmark rows
from vmmeta import load_meta  # noqa: E402  (this directory)

KEYS = ("p50", "p99", "max")


def load_run(d):
    """(meta, doc, {run_name: {key: median over repetitions}}, {run_name: error})"""
    meta = load_meta(d)
    path = os.path.join(d, "listener-contention.json")
    if not os.path.exists(path):
        raise SystemExit(f"contention-table: {path}: no JSON from the guest (see {d}/console.log)")
    doc = gbrows.load(path)
    rows, errors = {}, {}
    for name, run in gbrows.runs(doc).items():
        if run["error"]:
            errors[name] = run["error"]
            continue
        rows[name] = {k: statistics.median(b[k] for b in run["iterations"]) for k in KEYS}
        per = [b["ns_per_filter"] for b in run["iterations"] if "ns_per_filter" in b]
        if per:
            rows[name]["ns_per_filter"] = statistics.median(per)
    return meta, doc, rows, errors


def wakeup_lines(d):
    """The SYNC_WAKE_UP table of run directory d, or a line saying why not."""
    path = os.path.join(d, "knotif-stress-wakeup.json")
    if not os.path.exists(path):
        return ["No wake-up measurement: the guest ran without knotif-stress."], []
    got = {}
    for name, run in gbrows.runs(gbrows.load(path)).items():
        if run["error"] or not run["iterations"]:
            got[name] = {"error": run["error"] or "no repetition"}
            continue
        got[name] = {k: statistics.median(b[k] for b in run["iterations"])
                     for k in ("items_per_second", "supervisor_cpu_time", "p50", "p99")}
    lines = ["| run | notifications/s | supervisor ns / notification | target p50 ns | target p99 ns "
             "| sync ÷ async (notifications/s) |", "|---|---:|---:|---:|---:|---:|"]
    table = []
    for name, r in got.items():
        if "error" in r:
            lines.append(f"| `{name}` | {r['error']} | | | | |")
            table.append({"name": name, **r})
            continue
        ratio = ""
        if "/sync/" in name:
            a = got.get(name.replace("/sync/", "/async/"), {})
            if a.get("items_per_second"):
                ratio = f"{r['items_per_second'] / a['items_per_second']:.2f}"
        lines.append(f"| `{name}` | {r['items_per_second']:,.0f} | {r['supervisor_cpu_time']:,.0f} "
                     f"| {r['p50']:,.0f} | {r['p99']:,.0f} | {ratio} |")
        table.append({"name": name, **r})
    return lines, table


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--run", action="append", required=True, help="a vm-bench-smp directory")
    ap.add_argument("--out-md", required=True)
    ap.add_argument("--out-json", required=True)
    a = ap.parse_args()

    runs = [(d, *load_run(d)) for d in a.run]
    out = ["<!-- SPDX-License-Identifier: GPL-2.0 -->",
           "# The listener lock under contention: a victim's NEW_LISTENER while others are refused",
           "",
           "Produced by `make -f Makefile.kernel vm-bench-smp` (with `CONTENTION_ALSO=` an earlier "
           "revision's run directory beside it); do not edit by hand.",
           "",
           "Two vCPUs really at once (`-accel tcg,thread=multi`, a kernel without jump labels), "
           "real time: TCG's nanoseconds, several times a CPU's, so read the ratios. Each victim "
           "is a new process on vCPU 0 timing its `SECCOMP_FILTER_FLAG_NEW_LISTENER` with "
           "CLOCK_MONOTONIC; the loopers, on vCPU 1, loop a NEW_LISTENER refused with `EBUSY` "
           "after a walk of the deepest chain a task can have. With C CPUs at most C - 1 such "
           "walks can be ahead of a victim. Figures are medians over the repetitions of each "
           "repetition's p50, p99 and max; *×* is the ratio to the same run's victim beside "
           "loopers refused after a walk of one filter (`depth:0`), which do the same work "
           "but for the walk. Beside an idle vCPU (`loopers:0`) or tasks looping getppid() "
           "(`busy`) a victim is several times slower than beside any looper calling "
           "seccomp(), under TCG and on this host alike; why is not known, so those rows "
           "are no baseline. The `victim-refusal` rows time a victim's own NEW_LISTENER "
           "refused after a walk of one filter, hundreds of calls in a row, each taking the "
           "lock a looper holds through its walk when the two share it: their ratio is to "
           "the same victim beside depth-0 loopers in its own tree.",
           ""]
    table = []
    for d, meta, doc, rows, errors in runs:
        ctx = doc.get("context", {})
        out.append(f"## {meta.get('label', d)}: `{meta.get('kernel_version', '?')}` "
                   f"(bzImage {meta.get('bzimage_sha256', '?')}), guest run {ctx.get('date', '?')}")
        out.append("")
        for p in meta["patches"]:
            out.append(f"- `{p}`")
        out.append(f"- {meta.get('qemu', '?')}: `{meta.get('qemu_args', '?')}`")
        out.append(f"- chain depth {ctx.get('depth', 0):.0f} filters, {ctx.get('loopers', 0):.0f} loopers, "
                   f"{ctx.get('cpus', 0):.0f} vCPUs")
        out.append("")
        # the victim beside loopers refused after a walk of one filter: the same work but
        # for the walk (older runs without that row: a busy other vCPU, or nobody looping)
        base = next((r for n, r in rows.items() if "/new-listener/" in n and n.endswith("/depth:0/tree:other")),
                    next((r for n, r in rows.items() if "/new-listener/busy:" in n),
                         rows.get("listener/new-listener/loopers:0")))
        # a victim's own refusals: beside depth-0 loopers in its tree
        vbase = next((r for n, r in rows.items() if "/victim-refusal/" in n and "/depth:0/" in n), None)
        out.append("| row | p50 ns | p99 ns | max ns | p50 × | p99 × | max × |")
        out.append("|---|---:|---:|---:|---:|---:|---:|")
        for name, r in rows.items():
            b = vbase if "/victim-refusal/" in name else base if "/new-listener/" in name else None
            ratios = {k: (r[k] / b[k] if b and b[k] else None) for k in KEYS}
            out.append("| `{}` | {} | {} | {} | {} | {} | {} |".format(
                name, *(f"{r[k]:,.0f}" for k in KEYS),
                *("-" if ratios[k] is None else f"{ratios[k]:.2f}" for k in KEYS)))
            table.append({"run": meta.get("label", d), "name": name, **r,
                          **{k + "_ratio": ratios[k] for k in KEYS}})
        for name, e in errors.items():
            out.append(f"| `{name}` | {e} | | | | | |")
            table.append({"run": meta.get("label", d), "name": name, "error": e})
        walk = [r["ns_per_filter"] for r in rows.values() if "ns_per_filter" in r]
        if walk:
            out.append("")
            out.append(f"One refusal's walk: {walk[0]:,.1f} ns per filter, "
                       f"{walk[0] * ctx.get('depth', 0) / 1000:,.0f} µs for the whole chain (TCG).")
        out.append("")
        out.append("### SYNC_WAKE_UP across two vCPUs")
        out.append("")
        out.append("knotif-stress, 100 targets on one shared listener, targets free to run on either "
                   "vCPU, 20,000 requests a run, medians over the repetitions; *sync* wakes every "
                   "answered target on the replying supervisor's CPU (`complete_on_current_cpu()`), "
                   "with a batch every target of it.")
        out.append("")
        lines, wtable = wakeup_lines(d)
        out += lines
        table += [{"run": meta.get("label", d), "section": "wakeup", **w} for w in wtable]
        out.append("")
    with open(a.out_md, "w") as f:
        f.write("\n".join(out))
    with open(a.out_json, "w") as f:
        json.dump({"runs": [{"dir": d, "meta": meta, "result": doc} for d, meta, doc, _, _ in runs],
                   "table": table}, f, indent=2)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
