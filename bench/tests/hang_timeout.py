#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""
--timeout bounds a benchmark with no repetition finished, not a whole run:
- a run of four repetitions of 1 s each under --timeout=3 finishes (it
  lasts longer than the timeout, and every repetition is progress);
- the same run, its harness supervisor stopped (SIGSTOP: the target waits on
  its notification for ever), fails with the timeout's message and leaves no
  process behind. The two runs differ only in the SIGSTOP, so the timeout
  the second one reports can only come from the hang (a repetition far
  longer than --timeout would time out with or without it).
"""
import os
import signal
import subprocess
import time

from testlib import check, finish

BENCH = os.environ["KNOTIF_BENCH"]
ROW = "^unotif/async/emulate/placement:same$"
BOUND_S = 60	# a hang guard far above both runs


def descendants(pid):
    """Every process below pid, from /proc's parent links."""
    parent = {}
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            with open(f"/proc/{p}/stat") as f:
                parent[int(p)] = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError):
            continue
    out, todo = [], [pid]
    while todo:
        kids = [p for p, pp in parent.items() if pp == todo[0]]
        out += kids
        todo = todo[1:] + kids
    return out


# four repetitions of 1 s under --timeout=3: each one is progress
RUN = [BENCH, f"--benchmark_filter={ROW}", "--benchmark_min_time=1",
       "--benchmark_repetitions=4", "--timeout=3", "--benchmark_format=json"]

# 1. longer than --timeout in all, a repetition at a time: finishes
start = time.monotonic()
r = subprocess.run(RUN, capture_output=True, text=True, timeout=BOUND_S)
took = time.monotonic() - start
check(r.returncode == 0, f"four 1 s repetitions under --timeout=3 failed (exit {r.returncode}): "
      f"{r.stderr.strip()[-300:]}")
check(took > 3, f"the run took {took:.1f} s: it never outlasted the timeout, so it proves nothing")

# 2. the same run with a real hang: the supervisor stopped in the first
# repetition, the target blocked in its call
p = subprocess.Popen(RUN, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
# the harness's supervisor is knotif-bench's one child; the target is its child
deadline = time.monotonic() + BOUND_S
kids = []
while time.monotonic() < deadline and p.poll() is None:
    kids = descendants(p.pid)
    if len(kids) >= 2:
        break
    time.sleep(0.05)
stopped = False
if len(kids) >= 2:
    os.kill(kids[0], signal.SIGSTOP)	# breadth first: knotif-bench's own child
    stopped = True
check(stopped, "the harness never forked its supervisor and target")
try:
    err = p.communicate(timeout=BOUND_S)[1]
except subprocess.TimeoutExpired:
    p.kill()
    err = p.communicate()[1]
    check(False, f"a stopped supervisor was not timed out in {BOUND_S} s")
check(p.returncode not in (0, None), f"a hung run exited {p.returncode}")
check("timed out: no repetition finished in 3 s" in err, f"no timeout message: {err.strip()[-300:]}")
left = [k for k in kids if os.path.exists(f"/proc/{k}") and
        open(f"/proc/{k}/stat").read().rsplit(")", 1)[1].split()[0] != "Z"]
check(not left, f"processes left after the timeout: {left}")
finish()
