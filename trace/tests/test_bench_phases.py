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

What depends on the host, and is therefore reported, not asserted: how many
cross-CPU calls the stock-kernel (sched) source cannot see whole. A
supervisor still awake on the other CPU (ADDFD waits there until the target
has installed the fd) takes the next call without being woken: no queue
moment (no_queue_stamp); a reply that lands before the target sleeps wakes
nobody (reply_unseen). How often that happens moves with the host's speed
and load (0-15 of 600 cross-CPU ADDFD calls on a quiet host, 372 on a busy
one). What holds on any host, and is asserted: every call is counted in
exactly one way (whole, or flagged with what was out of sight, and the flags
add up to the summary's counters), the calls that are whole have exact
phases within what the target timed, and their median coverage holds once
there are MIN_WHOLE of them to take a median of.
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
MIN_WHOLE = 30		# whole calls needed before their median coverage is asserted
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
    with open(summary) as f:
        counters = json.load(f)["kinds"]
    c.eq("benchmarks with notifications", len(targets), len(names))
    unseen = {"unotif": {"no_queue_stamp": 0, "reply_unseen": 0}, "ptrace": {"no_queue_stamp": 0, "reply_unseen": 0}}
    for name, events in zip(names, targets):
        unotif = kind[name] == "unotif"
        user = samples[name]
        cookie = 1 if unotif else 0	# the unotif target's last call stops its supervisor
        c.eq(f"{name}: notifications", len(events), WARMUP + REPS * SAMPLES + cookie)
        c.eq(f"{name}: timed calls", len(user), REPS * SAMPLES)
        c.true(f"{name}: every notification resumed", all(e["outcome"] == "resumed" for e in events))
        c.true(f"{name}: kind", all(e["kind"] == ("unotif" if unotif else "ptrace") for e in events))
        # What the sched source could not see, flagged per call: the queue
        # moment (no_queue_stamp) or the wake-up of a reply (reply_unseen).
        no_queue = [e for e in events if "no_queue_stamp" in e["flags"]]
        c.eq(f"{name}: no_queue_stamp calls with a queue stamp",
             [e["id"] for e in no_queue if e["queued_ns"] != ""][:5], [])
        seen = [e for e in events if "reply_unseen" not in e["flags"]]
        k = "unotif" if unotif else "ptrace"
        unseen[k]["no_queue_stamp"] += len(no_queue)
        unseen[k]["reply_unseen"] += len(events) - len(seen)
        unexplained = [e["id"] for e in events if phases(e) is None and "no_queue_stamp" not in e["flags"]
                       and "reply_unseen" not in e["flags"]]
        c.eq(f"{name}: calls without phases and without a reason", unexplained[:5], [])
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
            print(f"{name:45s} {len(events)} calls: {len(no_queue)} without a queue moment, "
                  f"{len(events) - len(seen)} replies unseen (a supervisor already awake: host-dependent)")
        timed = events[WARMUP:WARMUP + REPS * SAMPLES]
        ratios = []
        for i, (e, u) in enumerate(zip(timed, user)):
            if phases(e) is None:
                continue
            if phase_sum_error(e):
                c.failed(f"{name} call {i}: {phase_sum_error(e)}")
                break
            rt = phases(e)[3]
            if rt > u:
                c.failed(f"{name} call {i}: kernel round trip {rt} ns > timed {u} ns")
                break
            ratios.append(rt / u)
        if name.endswith("placement:same"):
            c.eq(f"{name}: timed calls with every phase", len(ratios), REPS * SAMPLES)
        if len(ratios) >= MIN_WHOLE:
            covered = statistics.median(ratios)
            print(f"{name:45s} phases cover {100 * covered:5.1f}% of the timed round trip "
                  f"(median of {len(ratios)} whole calls)")
            c.true(f"{name}: phases cover {covered:.2f} < {MIN_COVERED} of the round trip",
                   covered >= MIN_COVERED)
        else:
            print(f"{name:45s} note: only {len(ratios)} of {REPS * SAMPLES} timed calls whole here: "
                  f"coverage not bounded on this host")
    for k, flags in unseen.items():
        for flag, n in flags.items():
            c.eq(f"{k}: {flag} flagged calls against the summary's counter",
                 n, counters.get(k, {}).get("transitions", {}).get(flag, 0))
c.done()
