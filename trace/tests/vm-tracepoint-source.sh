#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Probe sources 1 and 2 for real: boot the patched kernel (kernel/patches,
# built by Makefile.kernel) under QEMU with static knotif-trace and
# notif-driver, and check that knotif-trace picks the done event by itself
# and counts every transition of the driver's notifications exactly (the
# files its ADDFD replies installed too), with every replied
# notification's phases, the SIGNALLED ones included (their reply lands
# while the target is awake, which the sched source cannot see: it must
# count exactly those as reply_unseen); then the same with
# --source=sched, with the done event alone (--kinds=unotif), with the
# transition tracepoints alone, and with the task state in task storage
# (--task-slots=1).
# Skips (77) without QEMU or a patched bzImage. BZIMAGE= picks the kernel.
set -u
. "$(dirname "$0")/../../scripts/tests/testlib.sh"
. "$(dirname "$0")/vmlib.sh"
src=${TRACE_SRC:?}/..
vm_kernel
vm_static knotif-trace notif-driver
[ -x "$bdir/knotif-trace" ] || skip "knotif-trace is not built here (see $bdir.log)"

tmp=$TEST_TMP
sh "$src/kernel/scripts/mkinitramfs.sh" "$tmp/initrd.cpio.gz" "$TRACE_SRC/tests/vm/init" \
	"$bdir/knotif-trace" "$bdir/trace/tests/notif-driver" || fail "mkinitramfs"
vm_boot 1G "knotif.driver=500,4,3,0,50,20"
sed -n '/KNOTIF-TRACE-BEGIN/,/KNOTIF-TRACE-STATUS/p' "$tmp/console.log"
/usr/bin/python3 - "$tmp/console.log" <<'PY'
import json, re, sys
log = open(sys.argv[1], errors="replace").read().replace("\r", "")
want = json.loads(re.search(r'^\{"queued".*\}$', log, re.M).group(0))
# A preemptible kernel may also let a woken supervisor reply before the
# target sleeps in the driver's plain REPLIED calls (all on one CPU when
# SIGNALLED is set): the sched source then misses more than SIGNALLED.
preemptible = "PREEMPT" in re.search(r"KNOTIF-UNAME (.*)$", log, re.M).group(1)
errors = []
for marker, source in (("SUMMARY", "done"), ("SCHED", "sched"), ("UNOTIF", "done"),
                       ("TP", "tracepoint"), ("STORAGE", "tracepoint")):
    status = re.search(rf"KNOTIF-{'TRACE' if marker == 'SUMMARY' else marker}-STATUS (\d+)", log)
    if not status or status.group(1) != "0":
        errors.append(f"{source}: knotif-trace failed in the guest")
        continue
    body = log.split(f"KNOTIF-{marker}-BEGIN\n", 1)[1].split(f"KNOTIF-{marker}-END", 1)[0]
    s = json.loads(body)
    if s["source"] != source:
        errors.append(f"source {s['source']}, want {source}")
    t = s["kinds"]["unotif"]["transitions"]
    # on 2 CPUs the sched source may miss a queue moment (counted as
    # no_queue_stamp), never a transition
    t["queued"] += t["no_queue_stamp"] if source == "sched" else 0
    for k in ("queued", "sent", "replied", "resumed", "interrupted", "enosys"):
        if t[k] != want[k]:
            errors.append(f"{source}: {k} {t[k]}, want {want[k]}")
    # the sched source counts the target an ADDFD woke: on a preemptible
    # guest a reply may land before the target sleeps (reply_unseen)
    missed = t["reply_unseen"] - want["signalled"] if source == "sched" and preemptible else 0
    if not t["addfd"] <= want["addfd"] <= t["addfd"] + missed:
        errors.append(f"{source}: addfd {t['addfd']}, want {want['addfd']}"
                      + (f" less at most {missed} unseen" if missed else ""))
    if t["unexplained"]:
        errors.append(f"{source}: unexplained {t['unexplained']}, want 0")
    phases = s["kinds"]["unotif"]["phases"]["round_trip"]["count"]
    if source == "sched":
        # the SIGNALLED replies woke nobody: exactly those are unseen
        unseen_ok = (t["reply_unseen"] >= want["signalled"] if preemptible
                     else t["reply_unseen"] == want["signalled"])
        if not unseen_ok:
            errors.append(f"sched: reply_unseen {t['reply_unseen']}, want "
                          f"{'at least ' if preemptible else ''}{want['signalled']}")
    else:
        for k in ("no_queue_stamp", "reply_unseen"):
            if t[k]:
                errors.append(f"{source}: {k} {t[k]}, want 0: the kernel's own events miss nothing")
        if phases != want["resumed"]:
            errors.append(f"{source}: {phases} round trips with phases, want every one of "
                          f"{want['resumed']}")
    print(f"{marker} ({source}) on {s['kernel_release']}: {t}, {phases} round trips with phases")
for e in errors:
    print(f"FAIL: {e}")
sys.exit(1 if errors else 0)
PY
