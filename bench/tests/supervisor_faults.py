#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""
Faults in the harness's supervisor, injected by libsupervisor-fault.so:
- knotif-bench killed just before its supervisor arms PR_SET_PDEATHSIG: the
  supervisor must see its parent gone and exit, not measure on for minutes
  under init (this test is the subreaper that catches what is left);
- the supervisor's mlockall() fails while the target's succeeds: the run says
  so, and context.knotif.mlockall is false (it described only the target).
"""
import ctypes
import json
import os
import signal
import subprocess
import tempfile
import time

from testlib import finish, skip, soft_fail

BENCH, SHIM = os.environ["KNOTIF_BENCH"], os.environ["SUPERVISOR_FAULT"]
PR_SET_CHILD_SUBREAPER = 36
GONE_WITHIN_S = 30	# a hang guard: the fixed supervisor exits at once


def env(fault):
    # an ASan build wants its runtime first; the shim has none of its own
    asan = os.environ.get("ASAN_OPTIONS", "")
    return dict(os.environ, LD_PRELOAD=SHIM, KNOTIF_FAULT=fault,
                ASAN_OPTIONS=(asan + ":" if asan else "") + "verify_asan_link_order=0")


def children():
    """Pids whose parent is this process (as subreaper, the orphans too)."""
    me, out = os.getpid(), []
    for p in os.listdir("/proc"):
        try:
            with open(f"/proc/{p}/stat") as f:
                stat = f.read()
        except (OSError, ValueError):
            continue
        if p.isdigit() and int(stat.rsplit(")", 1)[1].split()[1]) == me:
            out.append(int(p))
    return out


if os.geteuid() != 0:
    skip("needs root so that the target's mlockall() succeeds")
libc = ctypes.CDLL(None, use_errno=True)
if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0):
    skip("PR_SET_CHILD_SUBREAPER refused")

# 1. the death-signal window: a run asked to last 600 s per repetition
p = subprocess.Popen([BENCH, "--benchmark_filter=^pingpong/pipe/placement:same$", "--placement=same",
                      "--benchmark_min_time=600", "--benchmark_repetitions=1", "--timeout=900"],
                     env=env("kill-parent-before-pdeathsig"), stdout=subprocess.DEVNULL)
p.wait(timeout=GONE_WITHIN_S)
if p.returncode != -signal.SIGKILL:
    soft_fail(f"the fault did not kill knotif-bench (exit {p.returncode})")
deadline = time.monotonic() + GONE_WITHIN_S
while time.monotonic() < deadline:
    try:
        pid, _ = os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:
        break
    if pid == 0:
        time.sleep(0.05)
else:
    left = children()
    soft_fail(f"{len(left)} of knotif-bench's processes still run {GONE_WITHIN_S} s after it was "
                  f"killed before its supervisor armed PR_SET_PDEATHSIG: {left}")
    for pid in left:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)

# 2. the supervisor's mlockall fails, the target's does not
def quick_run(out, fault_env=None):
    return subprocess.run([BENCH, "--benchmark_filter=^pingpong/pipe/placement:same$", "--placement=same",
                           "--samples=200", "--benchmark_repetitions=2", f"--benchmark_out={out}",
                           "--benchmark_format=console"], env=fault_env,
                          capture_output=True, text=True, timeout=120)


with tempfile.TemporaryDirectory(prefix="knotif-sup-fault.") as d:
    out = os.path.join(d, "run.json")
    r = quick_run(out)
    if "mlockall failed" in r.stderr:
        # AddressSanitizer makes mlockall() a no-op that locks nothing
        print(f"note: mlockall fails here without a fault ({r.stderr.strip()!r}): part 2 not run")
    else:
        r = quick_run(out, env("fail-mlockall"))
        with open(out) as f:
            locked = json.load(f)["context"]["knotif"]["mlockall"] if not r.returncode else None
        if r.returncode:
            soft_fail(f"knotif-bench exited {r.returncode}: {r.stderr.strip()}")
        elif "mlockall failed in the supervisor (needs CAP_IPC_LOCK" not in r.stderr:
            soft_fail(f"no note that the supervisor is not locked: {r.stderr.strip()!r}")
        elif locked is not False:
            soft_fail(f"context.knotif.mlockall is {locked} with the supervisor unlocked")

finish()
