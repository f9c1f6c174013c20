#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# analysis/ci-gate's bad usage: one line of its own on stderr and exit 2,
# found before the first benchmark run (a run of minutes is not thrown
# away for a path or a value known bad from the start).
# Usage: gate-usage.sh CI_GATE BUILD_DIR   Exit 0/1.
set -u
. "$(dirname "$0")/../../../scripts/tests/testlib.sh"
gate=$1 build=$2
tmp=$TEST_TMP

expect_usage() {	# MESSAGE ARGS...
	local want=$1
	shift
	timeout 20 "$gate" --build "$build" --baseline "$tmp/base.json" "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	[ "$rc" = 2 ] || fail "ci-gate $* exited $rc, want 2: $(cat "$tmp/err")"
	[ "$(wc -l <"$tmp/err")" = 1 ] || fail "ci-gate $* wrote $(wc -l <"$tmp/err") lines: $(cat "$tmp/err")"
	[ "$(cat "$tmp/err")" = "ci-gate: $want" ] || fail "ci-gate $* said '$(cat "$tmp/err")', want 'ci-gate: $want'"
	[ ! -s "$tmp/out" ] || fail "ci-gate $* wrote to stdout: $(cat "$tmp/out")"
}
echo '{}' >"$tmp/base.json"
expect_usage "option '--runs' needs a value (see --help)" --runs
expect_usage "option '--out' needs a value (see --help)" --out
expect_usage "invalid value for --threshold: 'abc' (expected a positive number, e.g. 0.5 or 50%)" --threshold=abc
expect_usage "invalid value for --threshold: '0%' (expected a positive number, e.g. 0.5 or 50%)" --threshold 0%
expect_usage "cannot write /nonexistent-knotif/new.json (its folder is missing or read-only)" \
	--out=/nonexistent-knotif/new.json
expect_usage "cannot write $tmp: it is a directory" --out="$tmp"
timeout 20 "$gate" --build "$build" --baseline="$tmp" >"$tmp/out" 2>"$tmp/err"
[ $? = 2 ] && [ "$(cat "$tmp/err")" = "ci-gate: --baseline=$tmp is a directory (expected a JSON file)" ] ||
	fail "--baseline=DIR: $(cat "$tmp/err")"
expect_usage "cannot write /nonexistent-knotif/gate.xml (its folder is missing or read-only)" \
	--junit=/nonexistent-knotif/gate.xml
expect_usage "--junit reports a gate; --update-baseline gates nothing" --update-baseline --junit "$tmp/g.xml"
expect_usage "unknown option '--bogus' (see --help)" --bogus
echo "ok: ci-gate's bad usage exits 2 with one line, before any run"
