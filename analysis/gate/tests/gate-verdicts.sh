#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# knotif-compare's rules on two real runs (data/run-a.json, data/run-b.json)
# and on copies of them edited with jq: identical runs pass, a 2x slowdown of
# one benchmark fails naming only it, smaller changes and improvements pass,
# the floor is gated only on one host, error rows are listed, too few
# repetitions cannot pass silently, and every unusable input exits 2 with
# one line. Usage: gate-verdicts.sh KNOTIF_COMPARE DATA_DIR   Exit 0/1/77.
set -uo pipefail
. "$(dirname "$0")/../../../scripts/tests/testlib.sh"
cmp=$1 data=$2
need jq
tmp=$TEST_TMP
a=$data/run-a.json b=$data/run-b.json
UNOTIF=unotif/sync/emulate/placement:same
PTRACE=ptrace-seccomp/emulate/placement:same
NULLB=null/placement:same
FUTEX=pingpong/futex/placement:same

# run LABEL WANT_RC ARGS...: knotif-compare's exit code must be WANT_RC
run() {
	local label=$1 want=$2 rc
	shift 2
	checks=$((checks + 1))
	"$cmp" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" = "$want" ] || { soft_fail "$label: exit $rc, expected $want"; cat "$tmp/out" "$tmp/err"; }
}

# verdict NAME WANT: the last --format=json run's verdict for NAME
verdict() {
	local got
	checks=$((checks + 1))
	got=$(jq -r --arg n "$1" '.benchmarks[] | select(.name == $n) | .verdict' "$tmp/out")
	[ "$got" = "$2" ] || soft_fail "$1: verdict '$got', expected '$2'"
}

# scale IN NAME FACTOR OUT: NAME's times and floor_ratio multiplied by FACTOR
scale() {
	jq --arg n "$2" --argjson f "$3" '
		.benchmarks |= map(if .run_name == $n and .aggregate_name != "cv" then
			reduce ("real_time", "cpu_time", "min", "p50", "p90", "p99", "p999",
				"max", "stddev", "floor_ratio") as $k (.;
				if has($k) then .[$k] *= $f else . end)
		else . end)' "$1" >"$4"
}

# one_line_exit2 LABEL ARGS...: exit 2, nothing on stdout, one line on stderr
one_line_exit2() {
	local label=$1
	shift
	run "$label" 2 "$@"
	checks=$((checks + 1))
	[ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" = 1 ] ||
		{ soft_fail "$label: expected one line on stderr and no output"; cat "$tmp/out" "$tmp/err"; }
	check "$label: message not prefixed" grep -q '^knotif-compare: ' "$tmp/err"
}

# identical runs pass, every benchmark gated (same host: the floor too)
run "a vs a" 0 --format=json "$a" "$a"
for n in $NULLB $UNOTIF $PTRACE $FUTEX pingpong/pipe/placement:same; do verdict "$n" pass; done
check "a vs a: expected 5 gated benchmarks" [ "$(jq .summary.gated "$tmp/out")" = 5 ]
run "a vs b (two real runs)" 0 --floor=report "$a" "$b"
check "a vs b: no pass line" grep -q '^verdict: pass: 3 gated benchmarks' "$tmp/out"

# an injected 2x slowdown of one benchmark fails, naming it alone
scale "$a" "$UNOTIF" 2 "$tmp/unotif2.json"
run "unotif x2" 1 --format=json "$a" "$tmp/unotif2.json"
verdict "$UNOTIF" REGRESSION
verdict "$PTRACE" pass
check "unotif x2: expected 1 regression" [ "$(jq .summary.regressions "$tmp/out")" = 1 ]
run "unotif x2, console" 1 "$a" "$tmp/unotif2.json"
checks=$((checks + 1))
grep -q "^verdict: REGRESSION: 1 of 5 gated benchmarks, worst $UNOTIF floor_ratio +100.0%" "$tmp/out" ||
	{ soft_fail "unotif x2: no REGRESSION line"; cat "$tmp/out"; }
scale "$a" "$NULLB" 2 "$tmp/null2.json"
run "null x2" 1 --format=json "$a" "$tmp/null2.json"
verdict "$NULLB" REGRESSION
run "null x2, --report-only='^null/'" 0 --report-only='^null/' --format=json "$a" "$tmp/null2.json"
verdict "$NULLB" report-only
one_line_exit2 "bad --report-only" --report-only='(' "$a" "$b"
# the same slowdown measured against another real run still fails
scale "$b" "$UNOTIF" 2 "$tmp/b-unotif2.json"
run "a vs b with unotif x2" 1 "$a" "$tmp/b-unotif2.json"

# --confirm=p50: a real slowdown shows in both figures and still fails; a
# floor that halved (a quiet machine against a baseline taken under load)
# doubles every floor_ratio without any method getting slower: without
# --confirm that is a false alarm, with it the rows are 'unconfirmed'
run "unotif x2, --confirm=p50" 1 --confirm=p50 --format=json "$a" "$tmp/unotif2.json"
verdict "$UNOTIF" REGRESSION
jq '.context.knotif.floor.same.p50 /= 2 | .benchmarks |= map(
	if .kind == "floor" then
		reduce ("real_time", "cpu_time", "min", "p50", "p90", "p99", "p999", "max", "stddev") as $k (.;
			if has($k) and .aggregate_name != "cv" then .[$k] /= 2 else . end)
	elif has("floor_ratio") and .aggregate_name != "cv" then .floor_ratio *= 2 else . end)' \
	"$a" >"$tmp/floor-halved.json"
run "floor halved, no --confirm" 1 --floor=report "$a" "$tmp/floor-halved.json"
check "no floor-moved warning" grep -q 'warning: the floor at placement:same moved 0.50x' "$tmp/err"
run "floor halved, --confirm=p50" 0 --floor=report --confirm=p50 --format=json "$a" "$tmp/floor-halved.json"
verdict "$UNOTIF" unconfirmed
verdict "$NULLB" unconfirmed
checks=$((checks + 1))
jq -r --arg n "$UNOTIF" '.benchmarks[] | select(.name == $n) | .note' "$tmp/out" |
	grep -q '^floor_ratio +100.0% (p .*) not confirmed by p50 +0.0%' || soft_fail "unconfirmed: note"
one_line_exit2 "bad --confirm" --confirm=bogus "$a" "$b"

# below the threshold, or faster: pass
scale "$a" "$UNOTIF" 1.3 "$tmp/unotif13.json"
run "unotif x1.3" 0 --format=json "$a" "$tmp/unotif13.json"
verdict "$UNOTIF" pass
run "unotif x1.3, threshold 20%" 1 --threshold=20% "$a" "$tmp/unotif13.json"
scale "$a" "$PTRACE" 0.5 "$tmp/ptrace05.json"
run "ptrace x0.5" 0 --format=json "$a" "$tmp/ptrace05.json"
verdict "$PTRACE" improved
check "ptrace x0.5: expected 1 improvement" [ "$(jq .summary.improvements "$tmp/out")" = 1 ]

# the floor: gated on its p50 on one host, reported across hosts or on request
scale "$a" "$FUTEX" 2 "$tmp/futex2.json"
run "floor x2, same host" 1 --format=json "$a" "$tmp/futex2.json"
verdict "$FUTEX" REGRESSION
check "floor: not gated on p50" \
	[ "$(jq -r --arg n "$FUTEX" '.benchmarks[] | select(.name == $n) | .metric' "$tmp/out")" = p50 ]
run "floor x2, --floor=report" 0 --floor=report --format=json "$a" "$tmp/futex2.json"
verdict "$FUTEX" report-only
jq '.context.host_name = "elsewhere"' "$tmp/futex2.json" >"$tmp/futex2-other.json"
run "floor x2, other host" 0 --format=json "$a" "$tmp/futex2-other.json"
verdict "$FUTEX" report-only
verdict "$UNOTIF" pass
run "floor x2, other host, --floor=gate" 1 --floor=gate "$a" "$tmp/futex2-other.json"
run "absolute metric across hosts: every row gated, with a warning" 1 --metric=p50 "$a" "$tmp/futex2-other.json"
check "no different-host warning" grep -q 'warning: BASE and NEW come from different hosts' "$tmp/err"

# unsupported / error rows are listed, not compared; missing benchmarks are named
jq --arg n "$UNOTIF" '.benchmarks |= (map(select(.run_name != $n)) + [{name: $n, run_name: $n,
	run_type: "iteration", error_occurred: true, error_message: "unsupported: test"}])' \
	"$a" >"$tmp/unsupported.json"
run "an unsupported row" 0 --format=json "$a" "$tmp/unsupported.json"
verdict "$UNOTIF" error
check "error row: note" [ "$(jq -r --arg n "$UNOTIF" '.benchmarks[] | select(.name == $n) | .note' "$tmp/out")" = \
	"new: unsupported: test" ]
run "an unsupported row, console" 0 "$a" "$tmp/unsupported.json"
check "error row not listed in the console table" grep -q '↳ new: unsupported: test' "$tmp/out"
jq --arg n "$PTRACE" '.benchmarks |= map(select(.run_name != $n))' "$a" >"$tmp/noptrace.json"
run "a benchmark only in base" 0 --format=json "$a" "$tmp/noptrace.json"
verdict "$PTRACE" only-in-base
run "a benchmark only in new" 0 --format=json "$tmp/noptrace.json" "$a"
verdict "$PTRACE" only-in-new

# too few repetitions: warned below 9, refused when the U test cannot reach alpha
keep() { jq --argjson k "$2" '.benchmarks |= map(select(.run_type != "iteration" or .repetition_index < $k))' "$1" >"$3"; }
keep "$a" 5 "$tmp/a5.json"
keep "$b" 5 "$tmp/b5.json"
run "5 repetitions" 0 "$tmp/a5.json" "$tmp/b5.json"
check "no few-repetitions warning" grep -q 'warning: 5 benchmarks compared with fewer than 9 repetitions' "$tmp/err"
keep "$a" 3 "$tmp/a3.json"
scale "$tmp/a3.json" "$UNOTIF" 2 "$tmp/a3-unotif2.json"
run "3 repetitions cannot gate" 2 --format=json "$tmp/a3.json" "$tmp/a3-unotif2.json"
verdict "$UNOTIF" too-few-reps
checks=$((checks + 1))
tail -n1 "$tmp/err" | grep -q '^knotif-compare: nothing to gate' || soft_fail "3 repetitions: no 'nothing to gate'"

# a large change the U test does not support is unsure, not a failure
mk() { jq -n --argjson v "$1" '{context: {host_name: "h"}, benchmarks: [$v | to_entries[] |
	{name: "x/placement:same", run_name: "x/placement:same", run_type: "iteration",
	 repetition_index: .key, real_time: .value, cpu_time: .value, p50: .value,
	 floor_ratio: .value, time_unit: "ns"}]}'; }
mk '[1,2,3,4,5,6,7,8,9]' >"$tmp/s-base.json"
mk '[0.1,0.2,0.3,0.4,20,21,22,23,24]' >"$tmp/s-new.json"
run "median x4 but not significant" 0 --format=json "$tmp/s-base.json" "$tmp/s-new.json"
verdict x/placement:same unsure

# deterministic (icount) results: 1% is a regression, no U test needed
scale "$a" "$UNOTIF" 1.02 "$tmp/unotif102.json"
run "+2% deterministic" 1 --deterministic --format=json "$a" "$tmp/unotif102.json"
verdict "$UNOTIF" REGRESSION
run "+2% default" 0 "$a" "$tmp/unotif102.json"
run "deterministic, identical" 0 --deterministic "$a" "$a"
keep "$a" 1 "$tmp/a1.json"
scale "$tmp/a1.json" "$UNOTIF" 1.02 "$tmp/a1-unotif102.json"
run "deterministic, one repetition" 1 --deterministic "$tmp/a1.json" "$tmp/a1-unotif102.json"

# a real instruction-counted run (kernel/bench's guest program under QEMU
# -icount, which spells its quantiles p50_ns): exact repeats, 1% gates
icount=$data/icount-stock.json
IOCTL=unotif/ioctl/emulate/placement:same
jq_scale_ns() { jq --arg n "$2" --argjson f "$3" '.benchmarks |= map(if .run_name == $n and has("p50_ns")
	then .p50_ns *= $f | .p99_ns *= $f | .real_time *= $f else . end)' "$1" >"$4"; }
run "icount: identical" 0 --deterministic --format=json "$icount" "$icount"
verdict "$IOCTL" pass
verdict unotif/rw/emulate/placement:same error
checks=$((checks + 1))
[ ! -s "$tmp/err" ] || { soft_fail "icount: no warning expected"; cat "$tmp/err"; }
jq_scale_ns "$icount" "$IOCTL" 1.02 "$tmp/icount102.json"
run "icount: +2%" 1 --deterministic --format=json "$icount" "$tmp/icount102.json"
verdict "$IOCTL" REGRESSION
jq_scale_ns "$icount" "$IOCTL" 1.005 "$tmp/icount1005.json"
run "icount: +0.5%" 0 --deterministic "$icount" "$tmp/icount1005.json"
run "icount without --deterministic: 3 repetitions cannot gate" 2 "$icount" "$tmp/icount102.json"
# real_time and cpu_time are read in the row's time_unit
jq '.benchmarks |= map(if has("real_time") then .real_time /= 1000 | .cpu_time /= 1000 | .time_unit = "us" else . end)' \
	"$a" >"$tmp/a-us.json"
run "time_unit us" 0 --metric=real_time --format=json "$a" "$tmp/a-us.json"
check "time_unit us: not converted to ns" \
	[ "$(jq --arg n "$UNOTIF" '.benchmarks[] | select(.name == $n) | (.new / .base * 1e6 | round)' "$tmp/out")" = 1000000 ]

# unusable input: exit 2 with one line
one_line_exit2 "missing file" "$a" "$tmp/nope.json"
check "missing file: message" grep -q "cannot read $tmp/nope.json: No such file or directory" "$tmp/err"
printf '{"context": {}, "benchmarks": [' >"$tmp/truncated.json"
one_line_exit2 "malformed JSON" "$a" "$tmp/truncated.json"
check "malformed JSON: message" grep -q 'not valid JSON' "$tmp/err"
echo '{"context": {}}' >"$tmp/nobench.json"
one_line_exit2 "no benchmarks array" "$tmp/nobench.json" "$a"
check "no benchmarks array: message" grep -q 'no "benchmarks" array' "$tmp/err"
jq '.benchmarks |= map(.name = "other/" + .name | .run_name = "other/" + .run_name)' "$a" >"$tmp/other.json"
one_line_exit2 "no common benchmarks" "$a" "$tmp/other.json"
check "no common benchmarks: message" grep -q 'no benchmarks in common' "$tmp/err"
# a verdict that cannot be written is no pass
for fmt in console json; do
	checks=$((checks + 1))
	"$cmp" --format=$fmt "$a" "$a" >/dev/full 2>"$tmp/err"
	rc=$?
	[ "$rc" = 1 ] && [ "$(cat "$tmp/err")" = "knotif-compare: writing the comparison: No space left on device" ] ||
		soft_fail "--format=$fmt into /dev/full: exit $rc, '$(cat "$tmp/err")'"
done
one_line_exit2 "bad metric" --metric=bogus "$a" "$b"
one_line_exit2 "bad threshold" --threshold=-1 "$a" "$b"
one_line_exit2 "bad alpha" --alpha=2 "$a" "$b"
one_line_exit2 "one file" "$a"
one_line_exit2 "unknown option" --bogus "$a" "$b"
one_line_exit2 "option without its value" "$a" "$b" --metric
check "option without its value: message" grep -q "option '--metric' needs a value" "$tmp/err"

finish
