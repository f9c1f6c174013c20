# SPDX-License-Identifier: GPL-2.0
# Shared by the tests that run against either store (history, fleet, killed,
# concurrent): sourced with backend (sqlite|postgresql) set. Skips without jq
# or the sqlite3 CLI; gives $tmp, a private PostgreSQL server when the
# backend asks for one (pg.sh), an EXIT trap that kills every pid left in
# pids, stops that server and removes $tmp, fail() counting into $fails,
# and:
#   store NAME      # db= a fresh, empty store named NAME; q "SQL" queries it
command -v jq >/dev/null || { echo "skip: jq not installed"; exit 77; }
command -v sqlite3 >/dev/null || { echo "skip: sqlite3 (the CLI) not installed"; exit 77; }
unset KNOTIF_DB
tmp=$(mktemp -d)
. "$(dirname "${BASH_SOURCE[0]}")/pg.sh"
pids=()
trap 'for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null; { wait "$p"; } 2>/dev/null; done; pg_stop; rm -rf "$tmp"' EXIT
[ "$backend" != postgresql ] || pg_start || exit 77
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

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
