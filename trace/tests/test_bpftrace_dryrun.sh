#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Every bpftrace script compiles against the running kernel (bpftrace's dry
# run: --emit-elf parses, checks and generates the programs, attaches none).
# With "tp" as $1: the patched kernel's variant, skipped on a stock kernel.
src=${TRACE_SRC:?}
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (bpftrace reads tracepoint formats)"; exit 77; }
command -v bpftrace >/dev/null || { echo "SKIP: bpftrace is not installed"; exit 77; }
[ -d /sys/kernel/tracing/events/sched ] ||
	{ echo "SKIP: tracefs is not mounted at /sys/kernel/tracing (scripts/setup mounts it)"; exit 77; }
if [ "$1" = tp ]; then
	[ -d /sys/kernel/tracing/events/seccomp ] ||
		{ echo "SKIP: no seccomp tracepoints on $(uname -r) (a kernel without kernel/patches/0001)"; exit 77; }
	scripts=knotif-phases-tp.bt
else
	scripts="knotif-phases.bt knotif-ptrace.bt"
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0
for s in $scripts; do
	if bpftrace --emit-elf "$tmp/$s.elf" "$src/$s" >"$tmp/log" 2>&1 && [ -s "$tmp/$s.elf" ]; then
		echo "ok: $s"
	else
		echo "FAIL: $s does not compile:"; cat "$tmp/log"; status=1
	fi
done
exit $status
