#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# knotif-history on a full disk — a 1 MiB tmpfs this test mounts, filled
# up, never the machine's own disk: baseline -o F and trend -o F exit 1
# with one line and leave F as it was (or absent), with no temporary file
# beside it; record into a new SQLite file there exits 1 (a runtime
# failure, not bad usage) and leaves no file behind, while a file that was
# there before (0 bytes) is kept. Once there is room again, -o F works.
# Needs root (mount). Usage: full_disk.sh KNOTIF_HISTORY RUN_A RUN_B   Exit 0/1/77.
set -uo pipefail
. "$(dirname "$0")/../../../scripts/tests/testlib.sh"
hist=$1 a=$2 b=$3
[ "$(id -u)" = 0 ] || skip "mounting a small tmpfs needs root"
need jq
unset KNOTIF_DB
tmp=$TEST_TMP
mnt=$(mktemp -d)
mounted=0
on_exit '[ "$mounted" = 0 ] || umount "$mnt"; rmdir "$mnt"'
mount -t tmpfs -o size=1m,mode=0755 knotif-full "$mnt" 2>"$tmp/mount.err" ||
	skip "cannot mount a tmpfs: $(cat "$tmp/mount.err")"
mounted=1
expect() {	# LABEL WANT GOT
	checks=$((checks + 1))
	[ "$2" = "$3" ] || soft_fail "$1: got '$3', expected '$2'"
}
run() {		# LABEL WANT_RC ARGS...: one line on stderr when it fails
	local label=$1 want=$2 rc
	shift 2
	checks=$((checks + 1))
	"$hist" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" = "$want" ] || soft_fail "$label: exit $rc, expected $want: $(cat "$tmp/err")"
	if [ "$want" != 0 ]; then	# a second check, on a failure only
		checks=$((checks + 1))
		[ "$(wc -l <"$tmp/err")" = 1 ] || soft_fail "$label: $(wc -l <"$tmp/err") lines on stderr, expected 1"
	fi
}

# the history itself on the ordinary /tmp: only the outputs go to the full disk
db=$tmp/h.sqlite
run "record a" 0 record "$a" --db "$db"
run "record b" 0 record "$b" --db "$db"

echo '{"an": "older baseline"}' >"$mnt/base.json"
echo 'an older trend' >"$mnt/trend.txt"
: >"$mnt/zero.sqlite"
cat /dev/zero >"$mnt/fill" 2>/dev/null	# until the disk is full
checks=$((checks + 1))
! echo x >"$mnt/probe" 2>/dev/null || soft_fail "$mnt is not full"
rm -f "$mnt/probe"

run "baseline -o a file on a full disk" 1 baseline last:2 --db "$db" -o "$mnt/base.json"
check "baseline on a full disk: message: $(cat "$tmp/err")" \
	grep -qx "knotif-history: writing $mnt/base.json: No space left on device" "$tmp/err"
expect "baseline on a full disk keeps the older file" '{"an": "older baseline"}' "$(cat "$mnt/base.json")"
run "trend -o a file on a full disk" 1 trend --format json --db "$db" -o "$mnt/trend.txt"
expect "trend on a full disk keeps the older file" 'an older trend' "$(cat "$mnt/trend.txt")"
run "baseline -o a new file on a full disk" 1 baseline last:2 --db "$db" -o "$mnt/new.json"
checks=$((checks + 1))
[ ! -e "$mnt/new.json" ] || soft_fail "baseline on a full disk left $(stat -c %s "$mnt/new.json") bytes of $mnt/new.json"

run "record into a new file on a full disk" 1 record "$a" --db "$mnt/new.sqlite"
check "record on a full disk: message: $(cat "$tmp/err")" grep -q 'full' "$tmp/err"
run "record into a 0-byte file on a full disk" 1 record "$a" --db "$mnt/zero.sqlite"
checks=$((checks + 1))
[ -f "$mnt/zero.sqlite" ] || soft_fail "record on a full disk removed $mnt/zero.sqlite, which it did not create"
expect "nothing left on the full disk" "base.json fill trend.txt zero.sqlite" "$(ls -A "$mnt" | xargs)"

# room again: the same commands work (the failures above were the disk's)
rm "$mnt/fill"
run "baseline -o with room" 0 baseline last:2 --db "$db" -o "$mnt/base.json"
expect "baseline with room: written" "[1,2]" "$(jq -c '[.context.knotif.baseline.runs[].id]' "$mnt/base.json")"

finish
