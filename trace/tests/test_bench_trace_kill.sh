#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# knotif-bench --trace runs knotif-trace beside itself; a knotif-bench killed
# outright (SIGKILL: no handler runs) must not leave that tracer running.
set -u
: "${KNOTIF_BENCH:?run through ctest}" "${KNOTIF_TRACE:?run through ctest}"
fail() { echo "FAIL: $*"; exit 1; }
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (knotif-trace loads BPF programs)"; exit 77; }
"$KNOTIF_TRACE" -q -d 0.1 >/dev/null 2>&1 || { echo "SKIP: knotif-trace cannot trace here"; exit 77; }

"$KNOTIF_BENCH" --trace --benchmark_filter='^unotif/sync/emulate/placement:same$' --samples=5000000 \
	>/dev/null 2>&1 &
bench=$!
tracer=
for _ in $(seq 200); do	# 20 s: it attaches, then the benchmark starts
	tracer=$(pgrep -P "$bench" -x knotif-trace)
	[ -n "$tracer" ] && break
	sleep 0.1
done
[ -n "$tracer" ] || { kill -KILL "$bench"; fail "knotif-bench --trace started no knotif-trace"; }
sleep 0.5
kill -KILL "$bench"
wait "$bench" 2>/dev/null
for _ in $(seq 100); do
	kill -0 "$tracer" 2>/dev/null || break
	sleep 0.1
done
if kill -0 "$tracer" 2>/dev/null; then
	kill -KILL "$tracer"
	fail "knotif-trace ($tracer) outlived its knotif-bench by 10 s"
fi
echo "ok: a SIGKILLed knotif-bench --trace leaves no tracer behind"
