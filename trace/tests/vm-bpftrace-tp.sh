#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# knotif-phases-tp.bt for real: boot the patched kernel (kernel/patches,
# the done event) under QEMU with static notif-driver and this host's
# bpftrace (with the shared libraries ldd names, in a second initramfs
# archive), run the script over the driver (knotif.driver=REPLIED,
# INTERRUPTED,NO_LISTENER,EARLY,SIGNALLED) and check every count against
# the driver's own, and that every replied notification has its round
# trip, the SIGNALLED ones (a reply while the target is awake) included.
# Skips (77) without QEMU, bpftrace or a patched bzImage.
set -u
. "$(dirname "$0")/../../scripts/tests/testlib.sh"
. "$(dirname "$0")/vmlib.sh"
need bpftrace
bpftrace=$(command -v bpftrace)
vm_kernel
vm_static notif-driver

tmp=$TEST_TMP
sh "$TRACE_SRC/../kernel/scripts/mkinitramfs.sh" "$tmp/base.cpio.gz" "$TRACE_SRC/tests/vm/init" \
	"$bdir/trace/tests/notif-driver" || fail "mkinitramfs"
# bpftrace is dynamic: the program, its libraries and the script at their paths
ov=$tmp/overlay
mkdir -p "$ov/usr/bin" "$ov/knotif"
cp "$bpftrace" "$ov/usr/bin/bpftrace" && cp "$TRACE_SRC/knotif-phases-tp.bt" "$ov/knotif/" ||
	fail "copying bpftrace and the script"
for lib in $(ldd "$bpftrace" | grep -o '/[^ ]*'); do
	mkdir -p "$ov$(dirname "$lib")" && cp -L "$lib" "$ov$lib" || fail "copying $lib"
done
sh "$TRACE_SRC/../kernel/scripts/mkinitramfs.sh" --overlay "$tmp/overlay.cpio.gz" "$ov" ||
	fail "the bpftrace archive"
cat "$tmp/base.cpio.gz" "$tmp/overlay.cpio.gz" >"$tmp/initrd.cpio.gz"
vm_boot 2G "knotif.trace=bpftrace knotif.driver=200,3,2,0,20"
sed -n '/KNOTIF-BT-BEGIN/,/KNOTIF-BT-STATUS/p' "$tmp/console.log"
/usr/bin/python3 - "$tmp/console.log" <<'PY'
import json, re, sys
log = open(sys.argv[1], errors="replace").read().replace("\r", "")
status = re.search(r"KNOTIF-BT-STATUS (\d+)", log)
if not status or status.group(1) != "0":
    sys.exit("FAIL: bpftrace failed in the guest")
want = json.loads(re.search(r'^\{"queued".*\}$', log, re.M).group(0))
got = {k: int(v) for k, v in re.findall(r"^@transitions\[(\w+)\]: (\d+)$", log, re.M)}
errors = [f"{k} {got.get(k, 0)}, want {want[k]}"
          for k in ("queued", "sent", "replied", "resumed", "interrupted", "enosys")
          if got.get(k, 0) != want[k]]
hist = log.split("@round_trip_ns:", 1)[1].split("\n\n", 1)[0] if "@round_trip_ns:" in log else ""
phases = sum(int(n) for n in re.findall(r"^\[[^)]*\)\s+(\d+) \|", hist, re.M))
if phases != want["resumed"]:
    errors.append(f"{phases} round trips in @round_trip_ns, want every one of {want['resumed']}")
print(f"bpftrace: {got}, {phases} round trips; the driver: {want}")
for e in errors:
    print(f"FAIL: {e}")
sys.exit(1 if errors else 0)
PY
