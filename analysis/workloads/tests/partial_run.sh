# SPDX-License-Identifier: GPL-2.0
# Where compare-workloads writes, and what it accepts, without timing anything:
# a copy of the tree (the script, lib/, results/workloads/) runs with fake
# hyperfine, strace, taskset and knotif-run, so it takes a second, needs no
# privilege, and the real results/ is never written (checked byte for byte).
#  - the documented partial example (--runs=3, no --rounds) runs, in 1 round;
#  - a partial run without --out writes build/workloads/, never results/workloads/;
#  - a partial run with --out naming results/workloads/ is refused (exit 2, one line);
#  - an impossible --runs/--rounds names those options, not --warmup;
#  - --render-only remakes the reference markdown byte for byte;
#  - the full matrix without --out still writes results/workloads/ (the regen).
# usage: partial_run.sh   (bash; jq and /usr/bin/python3)
set -euo pipefail
. "$(dirname "$0")/../../../scripts/tests/testlib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)

for tool in jq /usr/bin/python3 sha256sum; do
	need "$tool"
done

TMP=$(mktemp -d /tmp/knotif-workloads-partial.XXXXXX)
on_exit 'rm -rf "$TMP"'
sums() { (cd "$1" && sha256sum -- *); }
real_before=$(sums "$ROOT/results/workloads")

# the copy: compare-workloads finds lib/, build/ and results/ beside itself
T=$TMP/tree
mkdir -p "$T/analysis/workloads" "$T/results" "$T/build" "$TMP/bin"
cp "$ROOT/analysis/workloads/compare-workloads" "$ROOT/analysis/workloads/cc-lib.mk" \
	"$ROOT/analysis/workloads/workload_env.py" "$T/analysis/workloads/"
cp -r "$ROOT/lib" "$T/lib"
cp -r "$ROOT/results/workloads" "$T/results/workloads"
ref_before=$(sums "$T/results/workloads")

# fakes: hyperfine writes a plausible export for every --command-name; taskset
# runs its command; strace passes the seccomp-bpf probe; knotif-run reports calls
cat >"$TMP/bin/hyperfine" <<'PY'
#!/usr/bin/python3
import json, sys
a = sys.argv[1:]
if a == ["--version"]:
    sys.exit(print("hyperfine 0.0.0-fake"))
runs, out, names = int(a[a.index("--runs") + 1]), a[a.index("--export-json") + 1], []
for i, x in enumerate(a):
    if x == "--command-name":
        names.append(a[i + 1])
times = [0.010 + 0.001 * i for i in range(runs)]
res = [dict(command=n, mean=sum(times) / runs, stddev=0.001, median=times[runs // 2], user=0.001,
            system=0.001, min=min(times), max=max(times), times=times, exit_codes=[0] * runs) for n in names]
json.dump({"results": res}, open(out, "w"))
PY
printf '#!/bin/sh\nshift 2\nexec "$@"\n' >"$TMP/bin/taskset"
printf '#!/bin/sh\n[ "$1" = --version ] && echo "strace -- version 0.0-fake"\nexit 0\n' >"$TMP/bin/strace"
cat >"$T/build/knotif-run" <<'SH'
#!/bin/sh
[ "$1" = --version ] && { echo "knotif-run 0.0-fake"; exit 0; }
case " $* " in *" --summary "*) echo '{"summary":{"openat":5,"execve":2,"connect":0},"gone":0}' >&2 ;; esac
exit 0
SH
chmod +x "$TMP/bin/"* "$T/build/knotif-run"
export PATH=$TMP/bin:$PATH
CW=$T/analysis/workloads/compare-workloads

unchanged() {	# WHAT: the copy's reference results and the real ones, byte for byte
	[ "$(sums "$T/results/workloads")" = "$ref_before" ] || fail "$1 changed the copy's results/workloads/"
	[ "$(sums "$ROOT/results/workloads")" = "$real_before" ] || fail "$1 changed $ROOT/results/workloads/"
}
run() {	# EXPECTED-RC ARGS...: stderr in $TMP/err
	local want=$1 rc=0
	shift
	"$CW" "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
	[ "$rc" = "$want" ] || fail "compare-workloads $*: exit $rc, expected $want: $(cat "$TMP/err")"
}

# 1. the documented partial example: accepted (one round of 3), written outside results/
run 0 --workload=find-cat --placement=same --runs=3
unchanged "--workload=find-cat --placement=same --runs=3"
J=$T/build/workloads/hyperfine.json
[ -s "$J" ] || fail "a partial run wrote no build/workloads/hyperfine.json: $(cat "$TMP/err")"
[ "$(jq -c '[.results[] | [.workload, .placement, (.times | length), .rounds]] | unique' "$J")" = \
	'[["find-cat","same",3,1]]' ] || fail "find-cat/same, 3 runs in 1 round: $(jq -c '.results' "$J")"
grep -q "partial run.*build/workloads" "$TMP/err" || fail "the partial run did not say where it writes: $(cat "$TMP/err")"

# 2. the partial run that used to replace the reference results (one row, five deleted)
run 0 --workload=exec-loop --placement=same --runs=10
unchanged "--workload=exec-loop --placement=same --runs=10"
[ "$(jq -c '[.results[] | [.workload, .placement, (.times | length), .rounds]] | unique' "$J")" = \
	'[["exec-loop","same",10,5]]' ] || fail "exec-loop/same, 10 runs in 5 rounds: $(jq -c '.results' "$J")"
grep -q 'Full tables: `build/workloads/overhead.md`' "$T/build/workloads/headline.md" ||
	fail "a partial headline.md names tables elsewhere: $(head -1 "$T/build/workloads/headline.md")"

# 3. a partial run pointed at the reference results, however spelled: refused, nothing run
for out in "$T/results/workloads" "$T/results/../results/workloads/"; do
	run 2 --workload=cc-lib --runs=2 --out="$out"
	unchanged "--workload=cc-lib --out=$out"
	[ "$(wc -l <"$TMP/err")" = 1 ] && grep -q -- '--out=.*partial run' "$TMP/err" ||
		fail "--out=$out for a partial run: $(cat "$TMP/err")"
done

# 4. impossible counts name the option at fault
for bad in "--runs=3 --rounds=2:--rounds=2" "--runs=1:--runs" "--rounds=0:--rounds" "--warmup=-1:--warmup"; do
	args=${bad%%:*} want=${bad##*:}
	# shellcheck disable=SC2086
	run 2 --workload=find-cat --placement=same $args --out="$TMP/x"
	[ "$(wc -l <"$TMP/err")" = 1 ] || fail "$args: stderr not one line: $(cat "$TMP/err")"
	grep -q -- "$want" "$TMP/err" || fail "$args: the message does not name $want: $(cat "$TMP/err")"
	[ "$want" = --warmup ] || ! grep -q -- --warmup "$TMP/err" || fail "$args blames --warmup: $(cat "$TMP/err")"
done
unchanged "the bad counts"

# 5. --render-only rewrites the reference markdown from its JSON: the same bytes
run 0 --render-only
unchanged "--render-only"

# 6. the full matrix without --out is the regen: it does replace the copy's reference results
run 0 --runs=2 --warmup=0
[ "$(jq -c '[.results[] | [.workload, .placement]] | unique | length' "$T/results/workloads/hyperfine.json")" = 6 ] ||
	fail "the full matrix did not write all 6 tables to results/workloads/"
[ "$(sums "$ROOT/results/workloads")" = "$real_before" ] || fail "the full run in the copy changed $ROOT/results/workloads/"
grep -q 'Full tables: `results/workloads/overhead.md`' "$T/results/workloads/headline.md" ||
	fail "headline.md does not name its tables: $(head -1 "$T/results/workloads/headline.md")"
echo "PASS: partial runs write build/workloads/ (or their --out), never results/workloads/"
