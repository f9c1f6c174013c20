#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Bad flags and values: exit 2, one line on stderr naming the problem, nothing on stdout.
. "$(dirname "$0")/lib.sh"
expect_usage() {
	local want=$1
	shift
	"$KNOTIF_BENCH" "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	[ "$rc" = 2 ] || fail "'$*' exited $rc, want 2"
	[ ! -s "$tmp/out" ] || fail "'$*' wrote to stdout"
	[ "$(wc -l <"$tmp/err")" = 1 ] || fail "'$*' wrote $(wc -l <"$tmp/err") lines to stderr"
	grep -q "^knotif-bench: .*$want" "$tmp/err" || fail "'$*' said '$(cat "$tmp/err")', want '$want'"
}
expect_usage "invalid value for --samples: '0'" --samples=0
expect_usage "invalid value for --samples: 'abc'" --samples=abc
expect_usage "invalid value for --samples: '10x'" --samples=10x
expect_usage "invalid value for --benchmark_repetitions: '-1'" --benchmark_repetitions=-1
expect_usage "invalid value for --placement: 'nowhere'" --placement=nowhere
expect_usage "invalid value for --placement: 'sideways'" --placement=same,sideways
expect_usage "invalid value for --benchmark_format: 'xml'" --benchmark_format=xml
expect_usage "invalid value for --benchmark_min_time: 'soon'" --benchmark_min_time=soon
expect_usage "invalid value for --syscall: 'open'" --syscall=open
expect_usage "invalid value for --benchmark_filter: '('" --benchmark_filter='('
expect_usage "no benchmark matches --benchmark_filter='^nothing'" --benchmark_filter='^nothing'
expect_usage "unknown option '--bogus'" --bogus
expect_usage "needs a value" --samples
expect_usage "unexpected argument 'extra'" extra
expect_usage "invalid value for --counters: 'bogus' (expected procfs or perf)" --counters=bogus
expect_usage "invalid value for --benchmark_list_tests: 'maybe'" --benchmark_list_tests=maybe
expect_usage "invalid value for --placement: 'same,,' (an empty item in the list)" --placement=same,,
# outputs are checked before the first benchmark, not after the run
expect_usage "cannot write --benchmark_out=/nonexistent-knotif/run.json: No such file or directory" \
	--benchmark_out=/nonexistent-knotif/run.json
expect_usage "cannot write --benchmark_out=/: Is a directory" --benchmark_out=/
expect_usage "cannot write --samples_out=/nonexistent-knotif/s.csv: No such file or directory" \
	--samples_out=/nonexistent-knotif/s.csv
echo "ok: every bad flag exits 2 with one line"
