#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""
agent/mknod-fork times its steps (lib/seccomp/as_target.h's moments) and writes each
as step:<name>_ns: every iteration and aggregate row carries the twelve, in
their order, none negative, and in every repetition they sum to less than
the mean round trip (they are one call's parts, timed inside it: this holds
on any host). agent/mknod-pool carries its four (lib/seccomp/mknod_pool.h's), in
order, none negative, and the ones before its helper answers (take, hand,
act) sum to less than the mean round trip. Rows without steps (agent/mknod-root and its /context) carry none. The
native row makes and removes its node (the check passes) and leaves none.
Needs root (the rows make device nodes).
"""
import json
import os
import subprocess
import tempfile

from testlib import check, fail, finish, skip

BENCH = os.environ["KNOTIF_BENCH"]
POOL_STEPS = ["take", "hand", "act", "report"]
STEPS = ["take", "pipe", "fork", "pdeath", "cgroups", "setns", "chroot", "creds", "caps", "act",
         "report", "reap"]

if os.geteuid() != 0:
    skip("the node rows need root (CAP_MKNOD, CAP_SYS_ADMIN)")
# a folder of its own: other benches running beside this test make theirs in /tmp
tmp = tempfile.mkdtemp(prefix="agent-steps.")
r = subprocess.run([BENCH, "--samples=200", "--benchmark_repetitions=2", "--placement=same",
                    "--benchmark_filter=^agent/(mknod-fork|mknod-pool|mknod-root|mknod-root/context|native-mknodat)/placement:same$",
                    "--benchmark_format=json"], capture_output=True, text=True, timeout=110,
                   env=dict(os.environ, TMPDIR=tmp))
if r.returncode != 0:
    fail(f"knotif-bench exited {r.returncode}: {r.stderr.strip()[-300:]}")
rows = json.loads(r.stdout)["benchmarks"]
by = {}
for row in rows:
    by.setdefault(row["run_name"].split("/placement:")[0], []).append(row)
for name in ("agent/mknod-fork", "agent/mknod-pool", "agent/mknod-root", "agent/mknod-root/context",
             "agent/native-mknodat"):
    check(name in by and not any(x.get("error_occurred") for x in by[name]),
          f"{name}: no rows, or an error: {[x.get('error_message') for x in by.get(name, [])]}")


def check_steps(name, steps, timed):
    """name's rows carry step:<s>_ns for steps, in order, none negative; in each
    repetition the first `timed` of them sum to less than its mean round trip"""
    for row in by.get(name, []):
        label = f"{name} {row.get('aggregate_name') or 'repetition ' + str(row.get('repetition_index'))}"
        keys = [k for k in row if k.startswith("step:")]
        check(keys == [f"step:{s}_ns" for s in steps], f"{label}: step counters {keys}")
        if row.get("aggregate_name") in ("stddev", "cv"):
            continue
        values = [row.get(f"step:{s}_ns", -1) for s in steps]
        check(all(v >= 0 for v in values), f"{label}: a negative step: {values}")
        if row.get("run_type") == "iteration":
            check(sum(values[:timed]) < row["real_time"],
                  f"{label}: {', '.join(steps[:timed])} sum to {sum(values[:timed]):.0f} ns, above the mean "
                  f"round trip {row['real_time']:.0f} ns")


check_steps("agent/mknod-fork", STEPS, len(STEPS))
# the pool's helper answers after its report: the steps before the answer are inside the round trip
check_steps("agent/mknod-pool", POOL_STEPS, 3)
for name in ("agent/mknod-root", "agent/mknod-root/context"):
    for row in by.get(name, []):
        check(not [k for k in row if k.startswith("step:")], f"{name} carries step counters")
left = os.listdir(tmp)
check(not left, f"left behind in TMPDIR: {left}")
if not left:
    os.rmdir(tmp)
finish()
