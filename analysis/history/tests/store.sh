# SPDX-License-Identifier: GPL-2.0
# Shared by the tests that run against either store (history, fleet, killed,
# concurrent, hostile-names): sourced after testlib.sh (whose soft_fail the
# tests count their failures with), with backend (sqlite|postgresql) set.
# Skips without jq or the sqlite3 CLI; gives $tmp (testlib's $TEST_TMP), a
# private PostgreSQL server when the backend asks for one (pg.sh), a cleanup
# at exit (on_exit) that kills every pid left in pids and stops that server,
# and:
#   store NAME      # db= a fresh, empty store named NAME; q "SQL" queries it
need jq
need sqlite3
unset KNOTIF_DB
tmp=$TEST_TMP
. "$(dirname "${BASH_SOURCE[0]}")/pg.sh"
pids=()
on_exit 'for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null; { wait "$p"; } 2>/dev/null; done; pg_stop'
[ "$backend" != postgresql ] || pg_start || exit 1

store() {
	store_name=$1
	if [ "$backend" = postgresql ]; then
		db=$(pg_newdb "$store_name") || exit 1
		q() { pg_sql "$store_name" "$1"; }
	else
		db=$tmp/$store_name.sqlite
		q() { sqlite3 "$db" "$1"; }
	fi
}
