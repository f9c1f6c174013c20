#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""
knotif-trace under knotif-bench: every unotif and ptrace-seccomp benchmark's
notifications are counted exactly, and the phases account for the round trip
knotif-bench measured, call by call.

Tolerance, stated: the kernel sees each call from its queue moment to its
syscall exit, so for every call its round trip (the sum of its phases) is at
most what knotif-bench timed for that call, and the median of kernel/bench is
at least MIN_COVERED: what the phases miss (syscall entry, the filter, return
to user, the tracer's own exit probe) stays under 60% of a round trip.
"""
import csv
import json
import os
import statistics

from tracetest import (KNOTIF_BENCH, KNOTIF_TRACE, Checks, by_target, fail, need_root,
                       phase_sum_error, phases, read_events, run, tmpdir)

SAMPLES, REPS = 300, 2
WARMUP = max(200, SAMPLES // 10)	# bench/harness.c warm_up()
MIN_COVERED = 0.40
FILTER = r"^(unotif/(async|sync)/(emulate|continue|addfd)|ptrace-seccomp/(emulate|continue))/"

need_root()
c = Checks()
with tmpdir() as d:
    ev, summary = os.path.join(d, "events.csv"), os.path.join(d, "summary.json")
    samples_out = os.path.join(d, "samples.csv")
    rows_out = os.path.join(d, "rows.json")
    p = run([KNOTIF_TRACE, "-q", "-e", ev, "-j", summary, "--", KNOTIF_BENCH,
             f"--benchmark_filter={FILTER}", "--placement=same,cross", f"--samples={SAMPLES}",
             f"--benchmark_repetitions={REPS}", f"--samples_out={samples_out}",
             f"--benchmark_out={rows_out}", "--benchmark_format=console"], timeout=600)
    if p.returncode:
        fail(f"knotif-trace exited {p.returncode}: {p.stderr.strip()}")
    samples = {}
    with open(samples_out, newline="") as f:
        for r in csv.DictReader(f):
            samples.setdefault(r["name"], []).append(int(r["ns"]))
    with open(rows_out) as f:
        kind = {b["run_name"]: b["kind"] for b in json.load(f)["benchmarks"]}
    names = [n for n in samples if kind[n] != "floor"]
    targets = by_target(read_events(ev))
    c.eq("benchmarks with notifications", len(targets), len(names))
    for name, events in zip(names, targets):
        unotif = kind[name] == "unotif"
        user = samples[name]
        cookie = 1 if unotif else 0	# the unotif target's last call stops its supervisor
        c.eq(f"{name}: notifications", len(events), WARMUP + REPS * SAMPLES + cookie)
        c.eq(f"{name}: timed calls", len(user), REPS * SAMPLES)
        c.true(f"{name}: every notification resumed", all(e["outcome"] == "resumed" for e in events))
        c.true(f"{name}: kind", all(e["kind"] == ("unotif" if unotif else "ptrace") for e in events))
        # A reply that came before the target slept (a supervisor on the other
        # CPU) wakes nobody: the tracer flags it reply_unseen, without its kind.
        seen = [e for e in events if "reply_unseen" not in e["flags"]]
        if "/continue" in name and unotif:
            c.true(f"{name}: CONTINUE flag", all("continue" in e["flags"] for e in seen))
        if "/addfd" in name:
            c.true(f"{name}: ADDFD replies", all("addfd" in e["flags"] for e in events[WARMUP:-1]
                                                 if "reply_unseen" not in e["flags"]))
        if name.endswith("placement:same"):
            # one CPU: the supervisor runs only once the target sleeps, so every
            # queue moment is seen before the RECV and every reply wakes it
            c.eq(f"{name}: calls without a round trip",
                 sum(1 for e in events if e["round_trip_ns"] == ""), 0)
            c.eq(f"{name}: replies unseen", len(events) - len(seen), 0)
        else:
            # rare (a target preempted between queueing and sleeping), never the rule
            c.true(f"{name}: replies seen {len(seen)} of {len(events)}", len(seen) > len(events) / 2)
        timed = events[WARMUP:WARMUP + REPS * SAMPLES]
        ratios = []
        for i, (e, u) in enumerate(zip(timed, user)):
            if phases(e) is None:
                continue
            if phase_sum_error(e):
                c.errors.append(f"{name} call {i}: {phase_sum_error(e)}")
                break
            rt = phases(e)[3]
            if rt > u:
                c.errors.append(f"{name} call {i}: kernel round trip {rt} ns > timed {u} ns")
                break
            ratios.append(rt / u)
        c.true(f"{name}: round trips to compare", len(ratios) > SAMPLES)
        if ratios:
            covered = statistics.median(ratios)
            print(f"{name:45s} phases cover {100 * covered:5.1f}% of the timed round trip (median)")
            c.true(f"{name}: phases cover {covered:.2f} < {MIN_COVERED} of the round trip",
                   covered >= MIN_COVERED)
c.done()
