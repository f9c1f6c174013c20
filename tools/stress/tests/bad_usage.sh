#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Bad flags and values: exit 2, one line on stderr naming the problem, nothing on stdout.
. "$(dirname "$0")/lib.sh"
expect_usage() {
	local want=$1
	shift
	"$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	[ "$rc" = 2 ] || fail "'$*' exited $rc, want 2"
	[ ! -s "$tmp/out" ] || fail "'$*' wrote to stdout"
	[ "$(wc -l <"$tmp/err")" = 1 ] || fail "'$*' wrote $(wc -l <"$tmp/err") lines to stderr"
	grep -q "^knotif-stress: .*$want" "$tmp/err" || fail "'$*' said '$(cat "$tmp/err")', want '$want'"
}
S=$KNOTIF_STRESS
expect_usage "invalid value for --targets: '0'" "$S" --targets=0
expect_usage "invalid value for --targets: '10001'" "$S" --targets=10001
expect_usage "invalid value for --targets: 'x'" "$S" --targets=1,x
expect_usage "invalid value for --strategy: 'select'" "$S" --strategy=epoll,select
expect_usage "invalid value for --topology: 'ring'" "$S" --topology=ring
expect_usage "invalid value for --placement: 'up'" "$S" --placement=up
expect_usage "invalid value for --wakeup: 'lazy'" "$S" --wakeup=lazy
expect_usage "invalid value for --reply: 'addfd'" "$S" --reply=addfd
expect_usage "invalid value for --requests: '0'" "$S" --requests=0
expect_usage "invalid value for --duration: '-1'" "$S" --duration=-1
expect_usage "invalid value for --threads: '0'" "$S" --threads=0
expect_usage "--duration and --requests exclude each other" "$S" --duration=1 --requests=5
expect_usage "--kill needs --target-kind=processes" "$S" --kill --target-kind=threads
expect_usage "--pending runs alone" "$S" --pending=10 --signals
expect_usage "unknown option '--bogus'" "$S" --bogus
expect_usage "invalid value for --targets: '1,,2' (an empty item in the list)" "$S" --targets=1,,2
expect_usage "invalid value for --placement: 'same,,' (an empty item in the list)" "$S" --placement=same,,
expect_usage "--requests and --requests-total exclude each other" "$S" --requests=5 --requests-total=50
expect_usage "--duration and --requests-total exclude each other" "$S" --duration=1 --requests-total=50
# outputs are checked before the first run, not after it
expect_usage "cannot write --benchmark_out=/nonexistent-knotif/run.json: No such file or directory" \
	"$S" --benchmark_out=/nonexistent-knotif/run.json --requests=100000
expect_usage "needs a value" "$S" --targets
expect_usage "unexpected argument 'extra'" "$S" extra
# more listeners than descriptors allow: exit 2, naming the limit
command -v prlimit >/dev/null || skip "prlimit (util-linux) is needed for the RLIMIT_NOFILE case"
expect_usage "--targets=1000 needs 1064 descriptors .*RLIMIT_NOFILE's hard limit is 200" \
	prlimit --nofile=100:200 "$S" --targets=1000 --topology=per-target
echo "ok: every bad flag exits 2 with one line"
