#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A missing feature is reported as "unsupported: <reason>" and the run still
# succeeds; nothing crashes, nothing is silently left out.
. "$(dirname "$0")/lib.sh"
: "${DENY_FEATURE:?run through ctest}"

# Syscall User Dispatch refused as a kernel without it refuses it
"$DENY_FEATURE" sud -- "$KNOTIF_BENCH" "${QUICK[@]}" --placement=same \
	--benchmark_filter='^(sud|trap)/' --benchmark_out="$tmp/sud.json" >"$tmp/out" 2>"$tmp/err" ||
	fail "run without SUD exited $?: $(cat "$tmp/err")"
grep -q '^sud/placement:same  unsupported: Syscall User Dispatch needs Linux 5.11' "$tmp/out" ||
	fail "console does not say why sud did not run: $(cat "$tmp/out")"
"$CHECK_JSON" "$tmp/sud.json" --unsupported sud/placement:same --ok trap/placement:same ||
	fail "JSON does not carry the unsupported row"

# a kernel before 6.6: no sync wake-up, async still runs
"$DENY_FEATURE" sync-wake-up -- "$KNOTIF_BENCH" "${QUICK[@]}" --placement=same \
	--benchmark_filter='^unotif/(a)?sync/emulate' --benchmark_out="$tmp/sync.json" >"$tmp/out" 2>"$tmp/err" ||
	fail "run without sync wake-up exited $?: $(cat "$tmp/err")"
grep -q 'unotif/sync/emulate/placement:same  unsupported: SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP needs Linux 6.6' "$tmp/out" ||
	fail "console does not say why sync did not run: $(cat "$tmp/out")"
"$CHECK_JSON" "$tmp/sync.json" --unsupported unotif/sync/emulate/placement:same \
	--ok unotif/async/emulate/placement:same || fail "sync JSON"

# a kernel before 5.0: every unotif variant unsupported
"$DENY_FEATURE" user-notif -- "$KNOTIF_BENCH" "${QUICK[@]}" --placement=same \
	--benchmark_filter='^unotif/' >"$tmp/out" 2>"$tmp/err" || fail "run without unotif exited $?"
[ "$(grep -c 'unsupported: SECCOMP_RET_USER_NOTIF needs Linux 5.0' "$tmp/out")" = 8 ] ||
	fail "not every unotif variant reported unsupported: $(cat "$tmp/out")"

# the v3 interfaces exist only in the knotif kernel series: a stock kernel
# (this host's, unless it runs kernel/patches) says so, and why
if ! grep -qwE 'seccomp_get_listener|seccomp_notify_read' /proc/kallsyms 2>/dev/null; then
	"$KNOTIF_BENCH" "${QUICK[@]}" --placement=same --benchmark_filter='^unotif/(rw|ptrace-listener)/' \
		--benchmark_out="$tmp/v3.json" >"$tmp/out" 2>"$tmp/err" || fail "v3 run exited $?: $(cat "$tmp/err")"
	grep -q '^unotif/rw/emulate/placement:same  unsupported: listener read()/write() needs the knotif kernel series (kernel/patches, CONFIG_SECCOMP_USER_NOTIF_RW)' "$tmp/out" ||
		fail "rw on a stock kernel: $(cat "$tmp/out")"
	# the request (0x4213), made on a throwaway child: a kernel without it answers EIO
	grep -q '^unotif/ptrace-listener/emulate/placement:same  unsupported: PTRACE_SECCOMP_GET_LISTENER needs the knotif kernel series (kernel/patches, the ptrace listener) (probe: Input/output error)$' "$tmp/out" ||
		fail "ptrace-listener on a stock kernel: $(cat "$tmp/out")"
	"$CHECK_JSON" "$tmp/v3.json" --unsupported unotif/rw/emulate/placement:same \
		--unsupported unotif/ptrace-listener/emulate/placement:same || fail "v3 JSON"
fi

# one CPU allowed: cross placement cannot be had
command -v taskset >/dev/null || skip "taskset missing"
taskset -c 0 "$KNOTIF_BENCH" "${QUICK[@]}" --placement=cross --benchmark_filter='^null/' \
	>"$tmp/out" 2>"$tmp/err" || fail "one-CPU run exited $?: $(cat "$tmp/err")"
grep -q 'null/placement:cross  unsupported: cross placement needs 2 CPUs, the affinity mask allows 1' "$tmp/out" ||
	fail "cross on one CPU: $(cat "$tmp/out")"
# one CPU allowed (taskset, a cpuset): cross placement is unsupported, and a
# run where nothing ran still writes a complete JSON (context.knotif.timer_ns
# was missing, so every cross test failed on such a host)
if command -v taskset >/dev/null; then
	taskset -c 0 "$KNOTIF_BENCH" "${QUICK[@]}" --placement=cross --benchmark_filter='^null/' \
		--benchmark_out="$tmp/one-cpu.json" >"$tmp/out" 2>"$tmp/err" ||
		fail "one-CPU cross run exited $?: $(cat "$tmp/err")"
	grep -q '^null/placement:cross  unsupported: cross placement needs 2 CPUs, the affinity mask allows 1' "$tmp/out" ||
		fail "one CPU: console does not say why cross did not run: $(cat "$tmp/out")"
	"$CHECK_JSON" "$tmp/one-cpu.json" --unsupported null/placement:cross || fail "one-CPU JSON"
fi
echo "ok: missing features are reported with their reason"
