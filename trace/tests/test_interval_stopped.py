#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""
knotif-trace -i labels each block with the time it really covers: a tracer
SIGSTOPped for STOP_S seconds prints one block for the gap, labelled with
its length, not a block labelled "the last INTERVAL s" that holds the whole
gap followed by a flurry of catch-up blocks. Each block's label is held
against the time that passed between its arrival and the previous one's
(measured here, on the reading end of the pipe).
"""
import os
import re
import signal
import subprocess
import time

from tracetest import KNOTIF_TRACE, Checks, fail, need_root

INTERVAL_S, STOP_S = 0.5, 2.5
SLACK_S = 0.3		# printing latency between the tracer's read and our read of the line
BLOCK = re.compile(r"^# \d\d:\d\d:\d\d, the last ([0-9.]+) s:$")

need_root()
c = Checks()
p = subprocess.Popen([KNOTIF_TRACE, "-q", "-i", str(INTERVAL_S), "--", "sleep", "6"],
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
try:
    blocks, stopped = [], False
    start = time.monotonic()
    for line in p.stdout:
        m = BLOCK.match(line.strip())
        if not m:
            continue
        blocks.append((time.monotonic(), float(m.group(1))))
        if len(blocks) == 2 and not stopped:
            os.kill(p.pid, signal.SIGSTOP)
            time.sleep(STOP_S)
            os.kill(p.pid, signal.SIGCONT)
            stopped = True
        if time.monotonic() - start > 60:
            fail("no end after 60 s")
    rc = p.wait(timeout=60)
finally:
    if p.poll() is None:
        os.kill(p.pid, signal.SIGKILL)
        p.wait()
if rc:
    fail(f"knotif-trace exited {rc}: {p.stderr.read().strip()}")
print("blocks (arrival gap, label):", [(round(b[0] - a[0], 3), b[1]) for a, b in zip(blocks, blocks[1:])])
c.true(f"a stop of {STOP_S} s and only {len(blocks)} blocks", len(blocks) >= 4)
for i, (a, b) in enumerate(zip(blocks, blocks[1:]), start=2):
    seen, label = b[0] - a[0], b[1]
    c.true(f"block {i}: labelled {label} s, came {seen:.3f} s after the one before",
           abs(label - seen) <= max(SLACK_S, 0.25 * seen))
c.true(f"no block covers the {STOP_S} s stop: labels {[b[1] for b in blocks]}",
       any(label >= STOP_S for _, label in blocks))
c.done()
