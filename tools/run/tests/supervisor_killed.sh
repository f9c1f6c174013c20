#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# knotif-run SIGKILLed (it can do nothing about that): its command dies with
# it, grandchildren included, instead of running on orphaned and filtered,
# every intercepted call then failing. run_probe reaper, above knotif-run,
# is handed what is left: within its bound (10 s, a hang guard) all of it
# must be gone ("+" in its count: some still ran), and no process carries
# the test's mark any more. As root twice: with the PID namespace, and
# without CAP_SYS_ADMIN, where the keeper has to kill the tree itself.
RUN=$1 PROBE=$2
. "$(dirname "$0")/lib.sh"

# the main shell, three sleeps, and a shell with a sleep of its own: 6 processes
cat >"$TMP/tree.sh" <<'EOF'
for i in 1 2 3; do
	sleep 60 &
done
sh -c 'sleep 60 & wait' &
wait
EOF
six() {
	[ "$(marked | wc -l)" = 6 ]
}

# killed_run WHAT [PREFIX]...: the tree under knotif-run (run through PREFIX), knotif-run SIGKILLed
killed_run() {
	local what=$1 reaper run
	shift
	rm -f "$TMP/left" "$TMP/left.pid"
	"$@" "$PROBE" reaper "$TMP/left" "$RUN" --quiet -- env KNOTIF_RUN_MARK="$MARK" sh "$TMP/tree.sh" &
	reaper=$!
	started "$reaper"
	wait_for "$what: knotif-run's start" test -s "$TMP/left.pid"
	run=$(cat "$TMP/left.pid")
	wait_for "$what: the command's 6 processes" six
	record_marked

	kill -KILL "$run"
	exited_within 20 "$reaper" || fail "$what: the reaper still waited 20 s after knotif-run was killed"
	wait "$reaper"
	expect_eq "$what: knotif-run's status" "$?" 137
	case $(cat "$TMP/left") in
	*+) fail "$what: processes of the command still ran 10 s after knotif-run was SIGKILLed" ;;
	esac
	expect_eq "$what: marked processes left" "$(marked | wc -l)" 0
	echo "ok: $what: $(cat "$TMP/left") processes handed to the reaper, all gone"
}

killed_run "as $(id -un)"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	killed_run "without CAP_SYS_ADMIN" setpriv --inh-caps=-sys_admin --bounding-set=-sys_admin --
fi
echo PASS
