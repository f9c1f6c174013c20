# SPDX-License-Identifier: GPL-2.0
"""Helpers the trace tests share: skips with reasons, running the tools, counting."""
import csv
import json
import os
import shutil
import subprocess
import tempfile

KNOTIF_TRACE = os.environ.get("KNOTIF_TRACE", "")
KNOTIF_BENCH = os.environ.get("KNOTIF_BENCH", "")
NOTIF_DRIVER = os.environ.get("NOTIF_DRIVER", "")
THREAD_EXEC = os.environ.get("THREAD_EXEC", "")
TRACE_SRC = os.environ.get("TRACE_SRC", os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


# skip and fail are the suite's (scripts/tests/testlib.py, on PYTHONPATH under ctest);
# the kernel-log scan is the runner's (scripts/tests/kmsg-run)
from testlib import check, fail, finish, skip, soft_fail  # noqa: E402,F401


def need_root():
    if os.geteuid() != 0:
        skip("needs root (loading BPF programs needs CAP_BPF and CAP_PERFMON)")


def need_bpftrace():
    need_root()
    if not shutil.which("bpftrace"):
        skip("bpftrace is not installed")
    if not os.path.isdir("/sys/kernel/tracing/events/sched"):
        skip("tracefs is not mounted at /sys/kernel/tracing (scripts/setup mounts it)")


def run(cmd, timeout=300, **kw):
    print("+ " + " ".join(cmd), flush=True)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)


def tmpdir():
    return tempfile.TemporaryDirectory(prefix="knotif-trace-test.")


def unique_name(directory, target, prefix):
    """A symlink to target whose name is this test's own comm (15 chars at most)."""
    name = f"{prefix}{os.getpid()}"[:15]
    link = os.path.join(directory, name)
    os.symlink(os.path.abspath(target), link)
    return link, name


def read_events(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def by_target(events):
    """Events grouped by target pid, in the order the targets first finished a call."""
    order, groups = [], {}
    for e in sorted(events, key=lambda e: int(e["resumed_ns"])):
        if e["pid"] not in groups:
            order.append(e["pid"])
            groups[e["pid"]] = []
        groups[e["pid"]].append(e)
    return [groups[p] for p in order]


def phases(e):
    """(queue_wait, think, wake_to_resume, round_trip) of a stream record; None when unknown."""
    keys = ("queue_wait_ns", "think_ns", "wake_to_resume_ns", "round_trip_ns")
    if any(e[k] == "" for k in keys):
        return None
    return tuple(int(e[k]) for k in keys)


def phase_sum_error(e):
    """Why a record's phases do not add up to its round trip, or None."""
    p = phases(e)
    if p and p[0] + p[1] + p[2] != p[3]:
        return f"id {e['id']}: phases {p[0]}+{p[1]}+{p[2]} != round trip {p[3]}"
    return None


def bpftrace_maps(path):
    """The maps a `bpftrace -f json` run printed at its end: {"@name": value}."""
    maps = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line.startswith("{"):
                continue
            obj = json.loads(line)
            if obj.get("type") == "map":
                maps.update(obj["data"])
    return maps


class Checks:
    """EXPECT-style, on testlib's check(): every mismatch is reported, the test fails at the end."""

    def eq(self, what, got, want):
        check(got == want, f"{what}: got {got}, want {want}")

    def true(self, what, cond):
        check(cond, what)

    def failed(self, what):
        soft_fail(what)

    def done(self):
        finish()
