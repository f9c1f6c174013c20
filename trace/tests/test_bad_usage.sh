#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# knotif-trace's bad usage: exit 2 and exactly one line, "knotif-trace: ...",
# found before any probe loads (an output path that cannot be written is
# not discovered after the trace).
. "$(dirname "$0")/../../scripts/tests/testlib.sh"
kt=${KNOTIF_TRACE:?}
tmp=$TEST_TMP
expect_usage() {	# MESSAGE ARGS...
	want=$1; shift
	"$kt" "$@" >"$tmp/out" 2>"$tmp/err"; got=$?
	[ "$got" = 2 ] || fail "$* exited $got, want 2: $(cat "$tmp/err")"
	[ "$(wc -l <"$tmp/err")" = 1 ] || fail "$*: $(wc -l <"$tmp/err") lines on stderr: $(cat "$tmp/err")"
	[ "$(cat "$tmp/err")" = "knotif-trace: $want" ] || fail "$*: said '$(cat "$tmp/err")', want 'knotif-trace: $want'"
	[ ! -s "$tmp/out" ] || fail "$*: wrote to stdout"
}
expect_usage "unrecognized option '--no-such-flag' (see --help)" --no-such-flag
expect_usage "option '--duration' requires an argument (see --help)" --duration
expect_usage "invalid value for --duration: '1e9' (expected seconds, 0.001..3.1536e+07, e.g. 0.5s)" -d 1e9
expect_usage "invalid value for --ready-fd: '999' (not an open descriptor)" --ready-fd=999
expect_usage "invalid value for --pid: '999999' (no such process)" -p 999999
expect_usage "cannot write --summary=/nonexistent-knotif/s.json: No such file or directory" \
	-j /nonexistent-knotif/s.json -d 0.1
expect_usage "cannot write --events=/nonexistent-knotif/e.csv: No such file or directory" \
	-e /nonexistent-knotif/e.csv -d 0.1
"$kt" --help >"$tmp/out" 2>"$tmp/err" || fail "--help exited $?"
[ ! -s "$tmp/err" ] && grep -q "^USAGE: knotif-trace" "$tmp/out" || fail "--help: $(cat "$tmp/err")"
echo "ok: knotif-trace's bad usage exits 2 with one line"
