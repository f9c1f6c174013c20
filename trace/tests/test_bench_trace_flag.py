#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""
knotif-bench --trace adds each unotif/ptrace benchmark's phases to its rows,
and says so when it cannot; killed outright, it leaves neither its tracer
nor a file behind.
"""
import glob
import json
import os
import shutil
import subprocess
import tempfile
import time

from tracetest import KNOTIF_BENCH, KNOTIF_TRACE, Checks, fail, need_root, run

SAMPLES, REPS = 300, 2
WARMUP = max(200, SAMPLES // 10)	# bench/harness.c warm_up()
TRACED = ["unotif/sync/emulate", "unotif/async/addfd", "ptrace-seccomp/continue"]
# no seccomp notification or seccomp ptrace stop: knotif-trace cannot follow them (registry order)
NOT_UNDERSTOOD = ["null", "ptrace-sysemu/emulate", "systrap/futex"]
KEYS = ["trace_queue_wait_p50", "trace_think_p50", "trace_wake_to_resume_p50", "trace_round_trip_p50"]

need_root()
c = Checks()
p = run([KNOTIF_BENCH, "--trace", f"--benchmark_filter=^({'|'.join(TRACED + NOT_UNDERSTOOD)})/placement:same$",
         f"--samples={SAMPLES}", f"--benchmark_repetitions={REPS}", "--benchmark_format=json"], timeout=300)
if p.returncode:
    fail(f"knotif-bench --trace exited {p.returncode}: {p.stderr.strip()}")
d = json.loads(p.stdout)
c.true("context.knotif.trace.source", d["context"]["knotif"].get("trace", {}).get("source")
       in ("done", "tracepoint", "fentry", "sched"))
c.eq("context.knotif.trace.not_understood", d["context"]["knotif"]["trace"].get("not_understood"),
     [m + "/placement:same" for m in NOT_UNDERSTOOD])
for b in d["benchmarks"]:
    method = b["run_name"].rsplit("/placement:", 1)[0]
    agg = b.get("aggregate_name")
    if method not in TRACED or agg in ("stddev", "cv"):
        c.true(f"{b['name']}: no trace counters", not any(k.startswith("trace_") for k in b))
        continue
    want = WARMUP + REPS * SAMPLES + (1 if b["kind"] == "unotif" else 0)
    c.eq(f"{b['name']}: trace_notifications", b.get("trace_notifications"), want)
    for k in KEYS:
        c.true(f"{b['name']}: {k} > 0", b.get(k, 0) > 0)
    c.true(f"{b['name']}: the phases' p50s are each below the round trip's",
           all(b.get(k, 0) < b.get("trace_round_trip_p50", 0) for k in KEYS[:3]))


def children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return []


def comm(pid):
    try:
        with open(f"/proc/{pid}/comm") as f:
            return f.read().strip()
    except OSError:
        return None


# SIGKILL in the middle of a traced benchmark: no atexit runs
tmp = tempfile.gettempdir()
before = set(glob.glob(os.path.join(tmp, "knotif-bench-trace.*")))
bench = subprocess.Popen([KNOTIF_BENCH, "--trace", "--benchmark_filter=^unotif/sync/emulate/placement:same$",
                          "--benchmark_min_time=60", "--benchmark_repetitions=1", "--timeout=600"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
tracer, deadline = None, time.monotonic() + 60
while tracer is None and time.monotonic() < deadline and bench.poll() is None:
    tracer = next((c for c in children(bench.pid) if comm(c) == "knotif-trace"), None)
    time.sleep(0.05)
bench.kill()
bench.wait()
if tracer is None:
    c.failed("killed run: knotif-bench --trace never started knotif-trace")
else:
    deadline = time.monotonic() + 30
    while comm(tracer) == "knotif-trace" and time.monotonic() < deadline:
        time.sleep(0.05)
    c.true(f"killed run: knotif-trace {tracer} still runs 30 s after knotif-bench was killed",
           comm(tracer) != "knotif-trace")
left = set(glob.glob(os.path.join(tmp, "knotif-bench-trace.*"))) - before
c.eq("killed run: files left in " + tmp, sorted(left), [])

UNPRIV = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
if shutil.which("setpriv") and run(UNPRIV + ["test", "-x", KNOTIF_TRACE]).returncode:
    # a clone in a 0700 directory (mktemp -d): nobody cannot reach knotif-trace at all
    print(f"skip: unprivileged --trace: uid 65534 cannot reach {KNOTIF_TRACE}")
elif shutil.which("setpriv"):
    p = run(UNPRIV + [KNOTIF_BENCH, "--trace",
             "--benchmark_filter=^unotif/sync/emulate/placement:same$", "--samples=10",
             "--benchmark_repetitions=1"])
    c.eq("unprivileged --trace exit status", p.returncode, 1)
    c.true("unprivileged --trace says why", "unsupported: loading BPF programs needs root" in p.stderr
           and "--trace:" in p.stderr)
c.done()
