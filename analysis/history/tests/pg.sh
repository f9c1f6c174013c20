# SPDX-License-Identifier: GPL-2.0
# A private PostgreSQL server for one test: initdb into a temporary folder,
# the server on a Unix socket there (no TCP), run as an unprivileged user
# (nobody when the test runs as root: PostgreSQL refuses root), gone when the
# test ends however it ends: pg_stop at the test's exit (on_exit), and
# --pdeathsig KILL on the postmaster if the test itself is killed (its
# backends then exit on the postmaster's death). The folder of a killed test
# cannot be removed by it: its name carries the test's PID, and the next
# pg_start removes every such folder whose test is gone. The folders live in
# $KNOTIF_PG_ROOT (default /tmp; set before sourcing this).
# Source it (after testlib.sh), then:
#   pg_start || exit 1       # prints "not ok: <reason>" when it cannot: the
#                            # server is a listed package (scripts/packages.txt),
#                            # so a missing or broken one is a failure, not a skip
#   uri=$(pg_newdb NAME)     # a fresh database: postgresql:///NAME?host=DIR&user=knotif
#   pg_sql NAME "SQL"        # psql -At
#   pg_crash / pg_launch     # the server goes away at once / comes back on its data
#   pg_stop                  # at exit: on_exit pg_stop (testlib.sh)

# a signal ends the test through its EXIT trap, which runs its on_exit
# commands (bash skips it on a fatal signal)
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
pg_root=${KNOTIF_PG_ROOT:-/tmp}
pg_dir='' pg_pid=''

pg_as_user() {	# CMD...: as the server's user, in a folder that user can enter
	if [ "$(id -u)" = 0 ]; then
		(cd "$pg_dir" && setpriv --reuid=65534 --regid=65534 --clear-groups "$@")
	else
		(cd "$pg_dir" && "$@")
	fi
}

pg_launch() {
	local i as_user=()
	[ "$(id -u)" != 0 ] || as_user=(--reuid=65534 --regid=65534 --clear-groups)
	# The postmaster gets SIGKILL when this shell dies, however it dies; the
	# sh in between re-checks that its parent is still this shell once the
	# signal is armed (the shell may have died before), then becomes postgres.
	(cd "$pg_dir" && exec setpriv "${as_user[@]}" --pdeathsig KILL \
		sh -c '[ "$PPID" = "$1" ] || exit 1; shift; exec "$@"' sh "$$" \
		"$pg_bin/postgres" -D "$pg_dir/data" -k "$pg_dir" -c listen_addresses= \
		-c fsync=off -c max_connections=50 >>"$pg_dir/server.log" 2>&1) &
	pg_pid=$!
	for i in $(seq 300); do	# 30 s
		"$pg_bin/pg_isready" -q -h "$pg_dir" -U knotif && return 0
		kill -0 "$pg_pid" 2>/dev/null || break
		sleep 0.1
	done
	echo "not ok: the PostgreSQL server did not start:"
	tail -n 5 "$pg_dir/server.log"
	return 1
}

pg_sweep() {	# the folders of tests killed before their EXIT trap ran
	local d pid
	for d in "$pg_root"/knotif-pg.*.*; do
		[ -d "$d" ] && { [ -O "$d" ] || [ "$(id -u)" = 0 ]; } || continue
		pid=${d##*/knotif-pg.}
		pid=${pid%%.*}
		# a PID reused since only keeps a stale folder, never removes a live one
		[ -n "$pid" ] && [ -z "${pid//[0-9]/}" ] && [ ! -e "/proc/$pid" ] && rm -rf "$d"
	done
	return 0
}

pg_start() {
	[ -n "$pg_bin" ] && [ -x "$pg_bin/initdb" ] ||
		{ echo "not ok: PostgreSQL server binaries not installed (Debian package postgresql: scripts/setup)"; return 1; }
	command -v psql >/dev/null || { echo "not ok: psql not installed (postgresql-client: scripts/setup)"; return 1; }
	pg_sweep
	# short: a Unix socket path has to fit in 107 bytes
	pg_dir=$(mktemp -d "$pg_root/knotif-pg.$$.XXXXXX") || { echo "not ok: cannot make a folder in $pg_root"; return 1; }
	[ "$(id -u)" != 0 ] || chown 65534:65534 "$pg_dir"
	pg_as_user "$pg_bin/initdb" -D "$pg_dir/data" -A trust -U knotif -E UTF8 --locale=C --no-sync \
		>"$pg_dir/initdb.log" 2>&1 || { echo "not ok: initdb failed:"; tail -n 5 "$pg_dir/initdb.log"; return 1; }
	pg_launch
}

pg_crash() {	# the server goes away at once: every backend quits, no shutdown checkpoint
	[ -n "$pg_pid" ] || return 0
	pg_as_user "$pg_bin/pg_ctl" -D "$pg_dir/data" stop -m immediate -w -t 20 >/dev/null 2>&1 ||
		kill -KILL "$pg_pid" 2>/dev/null
	wait "$pg_pid" 2>/dev/null
	pg_pid=''
}

pg_stop() {
	if [ -n "$pg_pid" ]; then
		pg_as_user "$pg_bin/pg_ctl" -D "$pg_dir/data" stop -m fast -w -t 20 >/dev/null 2>&1 ||
			kill -KILL "$pg_pid" 2>/dev/null
		wait "$pg_pid" 2>/dev/null
		pg_pid=''
	fi
	[ -z "$pg_dir" ] || rm -rf "$pg_dir"
	pg_dir=''
}

pg_sql() {	# DB SQL
	psql -X -q -At -v ON_ERROR_STOP=1 -h "$pg_dir" -U knotif -d "$1" -c "$2"
}

pg_newdb() {	# NAME: prints its URI
	pg_sql postgres "CREATE DATABASE \"$1\"" >/dev/null &&
		echo "postgresql:///$1?host=$pg_dir&user=knotif"
}

# "The middle of an import", made exact: a session that holds ACCESS EXCLUSIVE
# on results for 100 s (its psql's PID joins the caller's pids), returned once
# the lock is granted; an importer then waits inside its transaction.
pg_lock_results() {	# DB
	psql -X -q -h "$pg_dir" -U knotif -d "$1" \
		-c "BEGIN; LOCK TABLE results IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(100);" >/dev/null 2>&1 &
	pids+=($!)
	for _ in $(seq 100); do
		[ "$(pg_sql "$1" "SELECT count(*) FROM pg_locks WHERE relation = 'results'::regclass AND mode = 'AccessExclusiveLock' AND granted")" = 1 ] && return 0
		sleep 0.1
	done
	return 1
}

# The backend PID of the knotif-history session waiting for that lock, once it
# waits (10 s at most); nothing when it never does.
pg_waiting_importer() {	# DB
	local backend=''

	for _ in $(seq 100); do
		backend=$(pg_sql "$1" "SELECT pid FROM pg_stat_activity WHERE application_name = 'knotif-history' AND wait_event_type = 'Lock'")
		[ -n "$backend" ] && break
		sleep 0.1
	done
	echo "$backend"
}
