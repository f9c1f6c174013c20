#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# knotif-run --emulate while an act is stuck: a FUSE server the command
# could run (stall_fs) holds the lookup a helper's act needs, past the 10 s
# an older knotif-run waited before it answered EIO and let the helper make
# the node anyway.
#  - mknod: another call, made while one is held, is answered at once; the
#    held call is answered only once its act has ended, with what was done
#    (0, and the node exists), and its log line says so (created).
#  - mount: with 10 mounts made and 6 held in their helpers, a 17th is
#    refused (the bound of 16 counts the acts in flight); once released, the
#    6 are made, and 16 tmpfs exist, never 17; the log says the same.
RUN=$1 STALL_FS=$2 STALL=$3
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || skip "needs root: the helpers act with CAP_MKNOD and CAP_SYS_ADMIN, stall_fs mounts"
[ -c /dev/fuse ] || skip "no /dev/fuse: the kernel has no FUSE"
command -v unshare >/dev/null || skip "needs unshare (util-linux)"
HELD_S=11	# past the 10 s an older knotif-run answered EIO after

fuse=$TMP/fuse ctl=$TMP/ctl free=$TMP/free log=$TMP/log
mkdir -p "$fuse" "$ctl" "$free"
"$STALL_FS" "$ctl" "$fuse" 2>"$TMP/stall_fs.err" &
fs_pid=$!
started "$fs_pid"
# its end unmounts it, held requests answered EIO (stall_fs.c)
on_exit 'kill -TERM "$fs_pid" 2>/dev/null; wait "$fs_pid" 2>/dev/null; umount -l "$fuse" 2>/dev/null'
mounted() { grep -q " $fuse .* - fuse stall_fs " /proc/self/mountinfo; }
wait_for "stall_fs mounted at $fuse ($(cat "$TMP/stall_fs.err"))" mounted
mkdir "$fuse/stall-dir"
for i in 0 1 2 3 4 5 6; do mkdir "$fuse/stall$i"; done
for i in $(seq 0 9); do mkdir "$free/m$i"; done

# under knotif-run, in a private mount namespace of the command's own (not the supervisor's)
contained() {
	local emulate=$1
	shift
	"$RUN" --emulate="$emulate" --syscalls=execve --log="$log" -- \
		unshare -m --propagation private -- "$STALL" "$@"
}

# --- mknod: the held call holds no other, and is answered with what was done ---
touch "$ctl/hold"
out=$(contained mknod mknod "$ctl" "$fuse/stall-dir/null" "$free/null" "$HELD_S") ||
	fail "the mknod probe failed: $out"
expect_eq "the free call, made while the other was held" "$(sed -n 's/^free //p' <<<"$out")" 0
expect_eq "the held call still waited when the free one returned" \
	"$(sed -n 's/^stalled-pending-after-free //p' <<<"$out")" yes
expect_eq "the held call" "$(sed -n 's/^stalled //p' <<<"$out")" 0
expect_eq "the held call returned only after the hold was released" \
	"$(sed -n 's/^stalled-returned-after-release //p' <<<"$out")" yes
[ -c "$fuse/stall-dir/null" ] || fail "the held call returned 0 and $fuse/stall-dir/null is no device node"
[ -c "$free/null" ] || fail "the free call returned 0 and $free/null is no device node"
expect_eq "mknod lines" "$(grep -c '^\[pid [0-9]*\] mknodat(' "$log")" 2
grep -q "mknodat(AT_FDCWD, \"$free/null\", 020644, 1:3) = 0 <created>" "$log" ||
	fail "no created line for the free call: $(cat "$log")"
grep -q "mknodat(AT_FDCWD, \"$fuse/stall-dir/null\", 020644, 1:3) = 0 <created>" "$log" ||
	fail "no created line for the held call: $(cat "$log")"
# the held call's line comes after the free one's: lines are written with the answers
[ "$(grep -n "mknodat(AT_FDCWD, \"$fuse/stall-dir/null\"" "$log" | cut -d: -f1)" -gt \
	"$(grep -n "mknodat(AT_FDCWD, \"$free/null\"" "$log" | cut -d: -f1)" ] ||
	fail "the held call was logged before the free one: $(cat "$log")"

# --- mount: the bound of 16 counts the acts in flight ---
rm -f "$log"
touch "$ctl/hold"
out=$(contained mount mount "$ctl" "$free/m" 10 "$fuse/stall" 7 "$HELD_S") ||
	fail "the mount probe failed: $out"
expect_eq "mounts made before the hold" "$(grep -c '^free[0-9]* 0$' <<<"$out")" 10
expect_eq "the call answered while 6 were held" "$(sed -n 's/^returned-while-held //p' <<<"$out")" EPERM
expect_eq "held mounts made once released" "$(grep -c '^mount[0-9]* 0$' <<<"$out")" 6
expect_eq "held mounts refused" "$(grep -c '^mount[0-9]* EPERM$' <<<"$out")" 1
expect_eq "mounted lines" "$(grep -c '<mounted>' "$log")" 16
expect_eq "refused lines" \
	"$(grep -c '= -1 EPERM <refused: this run has made or is making its 16 mounts>' "$log")" 1
echo "ok: a held act holds no other call and is answered with what it did; the mount bound counts acts in flight"
