#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-run.sh MODE BZIMAGE INITRAMFS OUTDIR LABEL PATCHES_TXT
#
# Boot BZIMAGE under QEMU with INITRAMFS (kernel/vm/init) in MODE (test,
# bench, matrix, contention, gb or profile). The console goes to OUTDIR/console.log; TAP lines are echoed here.
# Exits non-zero on any "not ok", a missing end marker (crash, hang, timeout)
# or a non-zero guest status; 3 when the kernel never reached the init (no
# KNOTIF-BEGIN within VM_BOOT_TIMEOUT: meta.txt's boot_failed says where its
# console stopped). Bench JSON (guest ttyS1) is split into OUTDIR.
#
# Environment: QEMU, ACCEL (tcg|kvm), VM_TIMEOUT (s, the whole guest),
# VM_BOOT_TIMEOUT (s, until the init's first line; default 300: a kernel that
# hangs while booting, e.g. Debian's 6.1 bringing up a second vCPU under
# -icount, costs that, not VM_TIMEOUT),
# VM_TEST_TIMEOUT (s, each test program or stress run inside it), VM_MEM, VM_CPUS,
# BENCH_SAMPLES, BENCH_REPS, VM_TCG_THREAD (single, the default, or multi: only
# for a kernel without jump labels, see below), VM_APPEND (more kernel
# command line, e.g. knotif.smp=1), VM_PLACEMENT (the benchmark modes: same,
# the default, one vCPU; cross or free, two vCPUs under the same -icount,
# and the guest's benches run at that placement), VM_NO_SKIP=1 (any skipped
# test fails the run) with VM_SKIP_OK (an extended regex: skips whose line
# matches it are what the series does not have, and do not fail it).
set -euo pipefail

mode=$1 kernel=$2 initrd=$3 out=$4 label=$5 patches=$6
placement=${VM_PLACEMENT:-same}
case "$placement" in
same|cross|free) ;;
*) echo "vm-run: VM_PLACEMENT=$placement: same, cross or free" >&2; exit 2 ;;
esac
QEMU=${QEMU:-qemu-system-x86_64}
ACCEL=${ACCEL:-tcg}
VM_TIMEOUT=${VM_TIMEOUT:-900}
VM_BOOT_TIMEOUT=${VM_BOOT_TIMEOUT:-300}
VM_MEM=${VM_MEM:-1G}

rm -rf "$out"
mkdir -p "$out"

append="console=ttyS0 quiet panic=-1 nokaslr knotif.mode=$mode"
# per test program and knotif-stress run inside the guest (the init's default: 600 s)
[ -n "${VM_TEST_TIMEOUT:-}" ] && append+=" knotif.timeout=$VM_TEST_TIMEOUT"
# TCG: one host thread for all vCPUs. With one thread per vCPU (MTTCG) a
# jump label patched on one vCPU is sometimes executed by another as the
# int3 of text_poke_bp() after the patch finished: "Oops: int3" with the
# final bytes at RIP, which the sync IPIs rule out on hardware. It hit
# bisect prefix 6 once (ttwu_do_activate); the stock kernel does the same
# within seconds of toggling sched:sched_wakeup while the other vCPU wakes tasks
# (3 runs of 3, ttwu_do_activate and __schedule), and never with
# thread=single: QEMU's, not the series'.
accel=$ACCEL
[ "$ACCEL" = tcg ] && accel="tcg,thread=${VM_TCG_THREAD:-single}"
qargs=(-accel "$accel" -m "$VM_MEM" -nographic -no-reboot
	-kernel "$kernel" -initrd "$initrd"
	-serial mon:stdio -serial "file:$out/ttyS1.txt"
	-pidfile "$out/qemu.pid"
)
# -cpu max for KASAN/kfence-friendly features where TCG supports them
qargs+=(-cpu max)
case "$mode" in bench|matrix|gb|profile) icount=1 ;; *) icount=0 ;; esac
# VM_PLUGIN: a TCG plugin taking out=FILE (kernel/profile/tbcount.c), its file in OUTDIR
[ -n "${VM_PLUGIN:-}" ] && qargs+=(-plugin "$VM_PLUGIN,out=$out/profile.txt")
if [ $icount = 1 ] && [ "$placement" = same ]; then
	# one vCPU: supervisor and target on the same CPU; guest time counts
	# instructions, so round trips repeat exactly between runs.
	qargs+=(-smp 1 -icount shift=0,sleep=off)
elif [ $icount = 1 ]; then
	# two vCPUs on one host thread (thread=single): TCG runs them in turn, and
	# guest time counts the instructions of both, so a pinned cross-CPU round
	# trip repeats exactly too (kernel/README.md says what the count is)
	qargs+=(-smp 2 -icount shift=0,sleep=off)
else
	qargs+=(-smp "${VM_CPUS:-2}")
fi
# the benchmark modes' sample counts (test mode has none)
[ "$mode" = test ] ||
	append+=" knotif.samples=${BENCH_SAMPLES:-2000} knotif.reps=${BENCH_REPS:-5} knotif.placement=$placement"
[ -n "${VM_APPEND:-}" ] && append+=" $VM_APPEND"
qargs+=(-append "$append")

kver=$(strings "$kernel" 2>/dev/null | grep -m1 -E '^[0-9]+\.[0-9]+\.[0-9]+.* \(' || true)
{
	echo "label: $label"
	echo "kernel: $kernel"
	echo "kernel_version: $kver"
	echo "bzimage_sha256: $(sha256sum < "$kernel" | cut -c1-16)"
	echo "qemu: $($QEMU --version | head -1)"
	echo "placement: $placement"
	echo "qemu_args: ${qargs[*]}"
	echo "patches:"
	sed 's/^/  /' "$patches"
} > "$out/meta.txt"

echo "  VM      $mode: $label ($ACCEL, timeout ${VM_TIMEOUT}s)"
t0=$(date +%s)
# the guest in the background, watched until its init speaks: QEMU writes
# its PID (-pidfile), the one process the watchdog may signal; tr writes
# line by line, so console.log holds each line as the guest prints it
(
	set +e
	timeout --foreground -k 10 "$VM_TIMEOUT" "$QEMU" "${qargs[@]}" </dev/null 2>&1 |
		stdbuf -oL tr -d '\r' | tee "$out/console.log" |
		grep --line-buffered -E '^(TAP version|1\.\.|ok |not ok |#[[:space:]]*(unsupported|SKIP|FAIL|PASSED|FAILED|Totals|KNOTIF-RC|kernel:)|# dmesg:|KNOTIF-(BEGIN|END)|Kernel panic|unsupported:)'
	echo "${PIPESTATUS[0]}" > "$out/qemu.rc"
) &
guest=$!
hung=0 boot_failed=
stop_guest() { # the guest's QEMU, by the PID it wrote; then the pipeline's end
	local pid
	pid=$(cat "$out/qemu.pid" 2>/dev/null) || pid=
	if [ -n "$pid" ]; then kill -TERM "$pid" 2>/dev/null || true; fi
}
trap 'stop_guest; wait "$guest" 2>/dev/null; exit 130' INT TERM
while kill -0 "$guest" 2>/dev/null; do
	# not anchored: the firmware's last escape codes precede it on its line
	grep -q 'KNOTIF-BEGIN' "$out/console.log" 2>/dev/null && break
	if [ $(( $(date +%s) - t0 )) -ge "$VM_BOOT_TIMEOUT" ]; then
		hung=1
		boot_failed=$(tr -cd '[:print:]\n' < "$out/console.log" 2>/dev/null | sed 's/ *$//' | grep -a . | tail -1 | cut -c1-200) || true
		stop_guest
		break
	fi
	sleep 1
done
wait "$guest"
trap - INT TERM
qrc=$(cat "$out/qemu.rc" 2>/dev/null) || qrc=1
secs=$(( $(date +%s) - t0 ))
echo "vm_seconds: $secs" >> "$out/meta.txt"

if [ -s "$out/ttyS1.txt" ]; then
	tr -d '\r' < "$out/ttyS1.txt" | awk -v dir="$out" '
		/^=== KNOTIF-FILE / { f = dir "/" $3; next }
		/^=== KNOTIF-EOF/ { close(f); f = ""; next }
		f != "" { print > f }'
fi

if [ $hung = 1 ]; then
	echo "boot_failed: ${boot_failed:-no console output}" >> "$out/meta.txt"
	echo "not ok - vm: the kernel did not reach the init within ${VM_BOOT_TIMEOUT}s; its console stops at: ${boot_failed:-nothing}"
	echo "  VM      $mode: $label: did not boot, ${secs}s; log $out/console.log"
	exit 3
fi
fail=0
if [ $qrc -eq 124 ] || [ $qrc -eq 137 ]; then
	echo "not ok - vm: timed out after ${VM_TIMEOUT}s"
	fail=1
fi
end=$(grep -E '^KNOTIF-END rc=' "$out/console.log" | tail -1 || true)
if [ -z "$end" ]; then
	echo "not ok - vm: no end marker (kernel crash or hang); see $out/console.log"
	tail -30 "$out/console.log" | sed 's/^/# /'
	fail=1
elif [ "$end" != "KNOTIF-END rc=0" ]; then
	fail=1
fi
nok=$(grep -cE '^[[:space:]]*not ok ' "$out/console.log" || true)
pass=$(grep -cE '^ok ' "$out/console.log" || true)
skip=$(grep -cE '^ok .*# SKIP' "$out/console.log" || true)
# the skips of what the series lacks (VM_SKIP_OK), not counted against it
skip_ok=0
[ -z "${VM_SKIP_OK:-}" ] ||
	skip_ok=$(grep -E '^ok .*# SKIP' "$out/console.log" | grep -cE "$VM_SKIP_OK" || true)
[ "$nok" -eq 0 ] || fail=1
if [ "${VM_NO_SKIP:-0}" = 1 ] && [ "$skip" -ne "$skip_ok" ]; then
	echo "not ok - vm: $((skip - skip_ok)) test(s) skipped on a kernel that should support them"
	fail=1
fi
echo "  VM      $mode: $label: $pass ok ($skip skipped), $nok not ok, ${secs}s; log $out/console.log"
exit $fail
