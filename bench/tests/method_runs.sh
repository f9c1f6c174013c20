#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# method_runs.sh NAME: the benchmark NAME runs with a small sample count,
# every returned value passes the target's check, and its JSON is complete.
. "$(dirname "$0")/lib.sh"
name=$1
"$KNOTIF_BENCH" "${QUICK[@]}" --placement="${name##*placement:}" \
	--benchmark_filter="^${name}\$" --benchmark_format=json >"$tmp/run.json" 2>"$tmp/err" ||
	fail "knotif-bench exited $?: $(cat "$tmp/err")"
"$CHECK_JSON" "$tmp/run.json" --ok-or-skip "$name"
