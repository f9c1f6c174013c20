#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""
knotif-trace counts every notification's outcome exactly, against the books
knotif-stress keeps in its targets (the ledger), under a SIGUSR1 storm and
with SIGKILLs inside calls: most signals land before any RECV (the call was
queued, nobody had received it), and those were once dropped uncounted.

- --signals: interrupted == the targets' EINTR, resumed == replied, sent ==
  the supervisor's successful RECVs; nothing unexplained, nothing dropped.
- --signals --kill: a call a SIGKILL ended is, in the kernel, either
  interrupted (killed while waiting) or resumed (killed after its reply
  woke it, before user space counted it): the ledger counts both as
  killed-in-call. So interrupted + resumed == issued exactly, and each
  lies between its ledger count and that plus killed-in-call.
"""
import json
import os
import re

from tracetest import KNOTIF_TRACE, Checks, fail, need_root, read_events, run, tmpdir

STRESS = os.environ.get("KNOTIF_STRESS", "")
LEDGER = re.compile(r"^# ledger \S+: issued (\d+) = replied (\d+) \+ eintr (\d+) \+ enosys (\d+) "
                    r"\+ killed-in-call (\d+); received (\d+) = sent (\d+)")

need_root()
if not STRESS:
    fail("KNOTIF_STRESS is not set (run through ctest)")
c = Checks()
for faults in (["--signals"], ["--signals", "--kill"]):
    with tmpdir() as d:
        ev, summary = os.path.join(d, "events.csv"), os.path.join(d, "summary.json")
        p = run([KNOTIF_TRACE, "-q", "-e", ev, "-j", summary, "--", STRESS, "--targets=50",
                 "--strategy=blocking", "--requests=2000", *faults], timeout=600)
        if p.returncode:
            fail(f"knotif-trace {' '.join(faults)} exited {p.returncode}: {p.stderr.strip()[-2000:]}")
        books = [LEDGER.match(line) for line in p.stdout.splitlines()]
        books = [m for m in books if m]
        if len(books) != 1:
            fail(f"{' '.join(faults)}: want one ledger line, found {len(books)}")
        issued, replied, eintr, enosys, killed, received, _ = (int(x) for x in books[0].groups())
        s = json.load(open(summary))
        t = s["kinds"]["unotif"]["transitions"]
        what = " ".join(faults)
        print(f"{what}: ledger issued {issued} replied {replied} eintr {eintr} killed-in-call {killed}; "
              f"traced resumed {t['resumed']} interrupted {t['interrupted']} (source {s['source']})")
        c.true(f"{what}: the storm interrupted nothing (eintr 0): the test proves nothing", eintr > 0)
        c.eq(f"{what}: resumed + interrupted + enosys against issued",
             t["resumed"] + t["interrupted"] + t["enosys"], issued)
        c.eq(f"{what}: enosys", t["enosys"], enosys)
        c.eq(f"{what}: sent against the supervisor's RECVs", t["sent"], received)
        c.eq(f"{what}: unexplained", t["unexplained"], 0)
        if killed:
            c.true(f"{what}: interrupted {t['interrupted']} within [{eintr}, {eintr + killed}]",
                   eintr <= t["interrupted"] <= eintr + killed)
            c.true(f"{what}: resumed {t['resumed']} within [{replied}, {replied + killed}]",
                   replied <= t["resumed"] <= replied + killed)
        else:
            c.eq(f"{what}: interrupted against the targets' EINTR", t["interrupted"], eintr)
            c.eq(f"{what}: resumed against replied", t["resumed"], replied)
        c.eq(f"{what}: events dropped", s["events_dropped"], 0)
        c.eq(f"{what}: tasks not followed", s["state_unavailable"], 0)
        outcomes = {}
        for e in read_events(ev):
            outcomes[e["outcome"]] = outcomes.get(e["outcome"], 0) + 1
        for k in ("resumed", "interrupted", "enosys"):
            c.eq(f"{what}: {k} records against the counter", outcomes.get(k, 0), t[k])
c.done()
