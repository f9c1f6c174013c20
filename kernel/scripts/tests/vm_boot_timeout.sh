#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-run.sh's boot watchdog, with a stand-in for QEMU (the real one is not
# needed to test the script's side): a kernel whose console stops before the
# init's first line (as Debian's 6.1 does bringing up a second vCPU under
# -icount) ends the run within VM_BOOT_TIMEOUT, exit 3, meta.txt saying where
# the console stopped, and the stand-in gone; a guest whose init has spoken
# runs past VM_BOOT_TIMEOUT to its end and passes (its first line behind the
# firmware's escape codes, as QEMU's console has it); with VM_NO_SKIP=1 a
# skipped test fails the run unless VM_SKIP_OK matches its line.
set -euo pipefail
. "$(dirname "$0")/../../../scripts/tests/testlib.sh"
top=$1
run=$top/kernel/scripts/vm-run.sh
tmp=$TEST_TMP
touch "$tmp/bzImage" "$tmp/initrd" "$tmp/patches.txt"

# the timeouts leave a loaded machine seconds to start the stand-in, which
# prints its lines at once
# the stand-in: --version; else its PID to -pidfile, the console lines of
# $FAKE_CONSOLE, then $FAKE_SLEEP seconds as the same process (exec)
cat > "$tmp/qemu" <<'FAKE'
#!/bin/bash
[ "${1:-}" = --version ] && { echo "QEMU emulator version 0 (stand-in)"; exit 0; }
while [ $# -gt 0 ]; do
	[ "$1" = -pidfile ] && echo $$ > "$2"
	shift
done
printf '%b' "$FAKE_CONSOLE"
if [ -n "${FAKE_END:-}" ]; then sleep "$FAKE_SLEEP"; printf '%b' "$FAKE_END"; exit 0; fi
exec sleep "$FAKE_SLEEP"
FAKE
chmod +x "$tmp/qemu"

# a boot that hangs: console stops at the SMP bring-up
t0=$(date +%s) rc=0
QEMU=$tmp/qemu VM_BOOT_TIMEOUT=3 VM_TIMEOUT=120 FAKE_SLEEP=100 \
	FAKE_CONSOLE='[    0.39] smp: Bringing up secondary CPUs ...\n[    0.39] x86: Booting SMP configuration:\n' \
	"$run" matrix "$tmp/bzImage" "$tmp/initrd" "$tmp/hang" "hang" "$tmp/patches.txt" > "$tmp/hang.out" 2>&1 || rc=$?
secs=$(( $(date +%s) - t0 ))
check "a hung boot exits 3 (got $rc: $(cat "$tmp/hang.out"))" [ "$rc" -eq 3 ] || :
check "it ends at the boot timeout, not VM_TIMEOUT (${secs}s)" [ "$secs" -lt 60 ] || :
check "meta.txt says where the console stopped: $(grep boot_failed "$tmp/hang/meta.txt" || echo none)" \
	grep -qx 'boot_failed: \[    0.39\] x86: Booting SMP configuration:' "$tmp/hang/meta.txt" || :
check "the run says so" grep -q '^not ok - vm: the kernel did not reach the init within 3s' "$tmp/hang.out" || :
pid=$(cat "$tmp/hang/qemu.pid")
check "the stand-in ($pid) is gone" bash -c "! kill -0 $pid 2>/dev/null" || :

# a guest that booted and runs past the boot timeout
rc=0
QEMU=$tmp/qemu VM_BOOT_TIMEOUT=3 VM_TIMEOUT=120 FAKE_SLEEP=6 \
	FAKE_CONSOLE='Booting from ROM..c\033[?7l\033[2JKNOTIF-BEGIN mode=matrix\n' FAKE_END='ok 1 - bench\nKNOTIF-END rc=0\n' \
	"$run" matrix "$tmp/bzImage" "$tmp/initrd" "$tmp/ok" "ok" "$tmp/patches.txt" > "$tmp/ok.out" 2>&1 || rc=$?
check "a booted guest runs to its end past VM_BOOT_TIMEOUT (got $rc: $(cat "$tmp/ok.out"))" [ "$rc" -eq 0 ] || :
check "and is no boot failure" bash -c "! grep -q boot_failed '$tmp/ok/meta.txt'" || :

# VM_NO_SKIP: a skip fails the run unless VM_SKIP_OK says it is what the series lacks
skips='KNOTIF-BEGIN mode=test\nok 1 - rw # SKIP needs CONFIG_SECCOMP_USER_NOTIF_RW\nok 2 - fuse # SKIP no /dev/fuse\nKNOTIF-END rc=0\n'
for case in "CONFIG_SECCOMP_USER_NOTIF_RW:1:1 test(s) skipped" "CONFIG_SECCOMP_USER_NOTIF_RW|no /dev/fuse:0:" ":1:2 test(s) skipped"; do
	ok=${case%%:*} rest=${case#*:} want=${rest%%:*} says=${rest#*:} rc=0
	QEMU=$tmp/qemu VM_BOOT_TIMEOUT=30 VM_TIMEOUT=120 FAKE_SLEEP=0 FAKE_CONSOLE=$skips VM_NO_SKIP=1 VM_SKIP_OK=$ok \
		"$run" test "$tmp/bzImage" "$tmp/initrd" "$tmp/skip" "skip" "$tmp/patches.txt" > "$tmp/skip.out" 2>&1 || rc=$?
	check "VM_SKIP_OK='$ok': exit $want (got $rc: $(cat "$tmp/skip.out"))" [ "$rc" -eq "$want" ] || :
	[ -z "$says" ] || check "it says '$says'" grep -q "$says on a kernel that should support them" "$tmp/skip.out" || :
done
finish
