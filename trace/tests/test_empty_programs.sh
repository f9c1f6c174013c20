#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# --empty-programs: each per-event probe the run loads gives its hook to a
# program of two instructions named after it (tp_queued -> empty_queued,
# on_switch -> empty_switch), and no per-event probe of the skeleton runs
# beside them; the tasks' lifecycle probes stay. Read from --prog-stats'
# lines, for the source this kernel picks and for one stock probe alone.
. "$(dirname "$0")/../../scripts/tests/testlib.sh"
kt=${KNOTIF_TRACE:?}
[ "$(id -u)" = 0 ] || skip "loading BPF programs needs root"
lifecycle='^(on_exit|on_exec|on_fork)$'

programs() {	# programs ARGS...: the loaded programs' names, one a line, sorted
	"$kt" -q -d 0.2 --prog-stats "$@" 2>&1 >/dev/null |
		sed -n 's/^# prog-stats: \([a-z_]*\) .*/\1/p' | sort
}
check() {	# check ARGS...: the empty run's programs are the plain run's, renamed
	plain=$(programs "$@") || fail "knotif-trace $*: failed"
	empty=$(programs --empty-programs "$@") || fail "knotif-trace --empty-programs $*: failed"
	[ -n "$plain" ] || fail "knotif-trace $* --prog-stats named no program"
	want=$( (grep -E "$lifecycle" <<<"$plain"
		 grep -vE "$lifecycle" <<<"$plain" | sed 's/^[a-z]*_/empty_/') | sort)
	[ "$empty" = "$want" ] ||
		fail "knotif-trace --empty-programs $*: loaded [$(echo $empty)], want [$(echo $want)]"
	grep -q '^empty_' <<<"$empty" || fail "knotif-trace --empty-programs $*: no empty program"
	echo "ok: $* [$(echo $plain)] -> [$(echo $empty)]"
}

check
check --kinds=unotif,ptrace
if "$kt" -q -s sched -d 0.1 >/dev/null 2>&1; then
	check -s sched --only-probes=sched_switch
	[ "$(programs -s sched --only-probes=sched_switch --empty-programs | grep '^empty_')" = empty_switch ] ||
		fail "--only-probes=sched_switch --empty-programs: not empty_switch alone"
fi
finish
