#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Missing probes and privileges are said, with exit status 3 and
# "unsupported:", never a crash or silence; bad usage exits 2.
. "$(dirname "$0")/../../scripts/tests/testlib.sh"
kt=${KNOTIF_TRACE:?}
expect() {	# expect STATUS PATTERN CMD...: exit status and a line of stderr
	want=$1 pattern=$2; shift 2
	out=$("$@" 2>&1 >/dev/null); got=$?
	[ "$got" = "$want" ] || fail "$* exited $got, want $want: $out"
	printf '%s\n' "$out" | grep -q -- "$pattern" || fail "$*: no '$pattern' in: $out"
	echo "ok: $* -> $got ($(printf '%s\n' "$out" | grep -m1 -- "$pattern"))"
}

expect 2 "invalid value for --source" "$kt" --source=kprobe
expect 2 "invalid value for --format" "$kt" --format=xml
expect 2 "invalid value for --duration" "$kt" -d -1
expect 2 "unrecognized option" "$kt" --no-such-flag
expect 2 "invalid value for --kinds" "$kt" --kinds=ptrace
expect 2 "invalid value for --interval" "$kt" -i 0
expect 2 "invalid value for --only-probes" "$kt" --only-probes=sys_enter
expect 2 "invalid value for --task-slots" "$kt" --task-slots=3
expect 2 "cannot write --summary=/nonexistent/s.json" "$kt" -j /nonexistent/s.json -d 0.1
expect 2 "cannot write --events=/nonexistent/e.csv" "$kt" -e /nonexistent/e.csv -d 0.1
[ "$(id -u)" = 0 ] || skip "the rest needs root (loading BPF programs)"

# each seccomp source where its event exists, else refused with the reason
for src in done:seccomp_notif_done tracepoint:seccomp_notif_queued; do
	if [ -d "/sys/kernel/tracing/events/seccomp/${src#*:}" ]; then
		expect 0 "source ${src%%:*}" "$kt" -q -s "${src%%:*}" -d 0.2
	else
		expect 3 "unsupported: --source=${src%%:*}: no seccomp:${src#*:} tracepoint" \
			"$kt" -q -s "${src%%:*}" -d 0.2
	fi
done
if [ ! -d /sys/kernel/tracing/events/seccomp ]; then
	# auto falls back, and says which source it uses and why the others are out
	out=$("$kt" -q -d 0.2 2>&1) || fail "auto source: $out"
	for src in done tracepoint; do
		printf '%s\n' "$out" | grep -q "^# $src: unsupported: " ||
			fail "no $src fallback note: $out"
	done
	printf '%s\n' "$out" | grep -q "^# knotif-trace .*: source \(fentry\|sched\) " || fail "no source line: $out"
	echo "ok: auto falls back: $(printf '%s\n' "$out" | head -1)"
fi
# fentry: refused here (the trial attach says why), attached where the kernel allows it
out=$("$kt" -q -s fentry -d 0.2 2>&1); got=$?
case $got in
0) printf '%s\n' "$out" | grep -q "source fentry" || fail "fentry ran without saying so: $out"
   echo "ok: fentry attached" ;;
3) printf '%s\n' "$out" | grep -q "unsupported: --source=fentry: fentry on __seccomp_filter" ||
	fail "fentry refusal not explained: $out"
   echo "ok: $(printf '%s\n' "$out" | head -1)" ;;
*) fail "--source=fentry exited $got: $out" ;;
esac
expect 2 "no such process" "$kt" -q -p 2147483647 -d 0.2
if command -v setpriv >/dev/null; then
	expect 3 "unsupported: loading BPF programs needs root" \
		setpriv --reuid=65534 --regid=65534 --clear-groups "$kt" -q -s sched -d 0.2
fi
exit 0
