#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Every bpftrace script compiles against the running kernel (bpftrace's dry
# run: --emit-elf parses, checks and generates the programs, attaches none).
# With "tp" as $1: the patched kernel's variant, skipped on a stock kernel.
. "$(dirname "$0")/../../scripts/tests/testlib.sh"
src=${TRACE_SRC:?}
[ "$(id -u)" = 0 ] || skip "needs root (bpftrace reads tracepoint formats)"
need bpftrace
[ -d /sys/kernel/tracing/events/sched ] ||
	skip "tracefs is not mounted at /sys/kernel/tracing (scripts/setup mounts it)"
if [ "${1:-}" = tp ]; then
	[ -d /sys/kernel/tracing/events/seccomp/seccomp_notif_done ] ||
		skip "no seccomp:seccomp_notif_done on $(uname -r) (a kernel without kernel/patches, the done event)"
	scripts=knotif-phases-tp.bt
else
	scripts="knotif-phases.bt knotif-ptrace.bt"
fi
tmp=$TEST_TMP
for s in $scripts; do
	if bpftrace --emit-elf "$tmp/$s.elf" "$src/$s" >"$tmp/log" 2>&1 && [ -s "$tmp/$s.elf" ]; then
		echo "ok: $s"
	else
		soft_fail "$s does not compile:"; cat "$tmp/log"
	fi
done
finish
