#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# scripts/kmsg-guard.sh finds the kernel's reports after its own marker
# only, and fails a test whose log holds one (fed here as text: a real
# WARNING cannot be raised on purpose, and a forged one in the host's log
# would fail every other test running now); kmsg-run passes a test's own
# status through.
set -u
. "$(dirname "$0")/testlib.sh"
. "$(dirname "$0")/../kmsg-guard.sh"
kmsg_arm kmsg_guard.sh >/dev/null
log=$(printf '%s\n' \
	"[   1.0] WARNING: CPU: 0 PID: 1 at kernel/old.c:1 before_the_marker" \
	"[   2.0] $kmsg_marker" \
	"[   3.0] seccomp: harmless line" \
	"[   3.5] Speculative Return Stack Overflow: WARNING: See https://kernel.org/doc (a boot notice, not a report)" \
	"[   4.0] WARNING: CPU: 1 PID: 42 at kernel/seccomp.c:1234 seccomp_notify_recv+0x1/0x2" \
	"[   5.0] BUG: KASAN: slab-use-after-free in seccomp_do_user_notification")
got=$(printf '%s\n' "$log" | kmsg_reports_after "$kmsg_marker")
[ "$(printf '%s\n' "$got" | wc -l)" = 2 ] || fail "expected the 2 reports after the marker, got: $got"
printf '%s\n' "$got" | grep -q before_the_marker && fail "a report from before the marker counted"
[ -z "$(printf 'a\nb\n' | kmsg_reports_after "$kmsg_marker")" ] || fail "a log without the marker gave reports"
# a clean run passes through the test's own status
( kmsg_armed=0; kmsg_check 3 ); [ $? = 3 ] || fail "the test's status was not passed through"
( kmsg_armed=1; dmesg() { printf '%s\n' "$log"; }; kmsg_check 0 ) >/dev/null
[ $? = 1 ] || fail "a WARNING after the marker did not fail the test"
# the runner: the command's status, 77 included
"$(dirname "$0")/kmsg-run" t bash -c 'exit 77' >/dev/null; [ $? = 77 ] || fail "kmsg-run lost a skip's 77"
"$(dirname "$0")/kmsg-run" t true >/dev/null || fail "kmsg-run failed a passing command"
"$(dirname "$0")/kmsg-run" t false >/dev/null && fail "kmsg-run passed a failing command"
"$(dirname "$0")/kmsg-run" t >/dev/null 2>&1; [ $? = 2 ] || fail "kmsg-run without a command is not usage (2)"
echo "ok: reports after the marker fail the test, others do not; kmsg-run keeps the test's status"
