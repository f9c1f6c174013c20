#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# knotif-run --emulate=mount: an unprivileged command (uid 65534) in its own
# mount namespace mounts a bounded tmpfs on a directory it owns, nosuid,nodev,
# noexec, owned by itself; every other filesystem, flag, option, mountpoint,
# namespace and race is refused as the log says, and nothing is mounted where
# it was refused. Each case checks the value the target got, the mount (or its
# absence, seen from inside the command's namespace) and the log.
RUN=$1 PROBE=$2 MOUNT=$3
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || skip "needs root: the supervisor mounts with CAP_SYS_ADMIN"
command -v setpriv >/dev/null && command -v unshare >/dev/null || skip "needs setpriv and unshare (util-linux)"

chmod 755 "$TMP"	# the contained user walks into it, and runs its programs from there
cp "$MOUNT" "$TMP/mount_probe" && MOUNT=$TMP/mount_probe
cp "$RUN" "$TMP/knotif-run" && RUN_AS_USER=$TMP/knotif-run
box=$TMP/box
mkdir -p "$box/own" "$box/theirs" && chmod 755 "$box" "$box/theirs" && chown 65534:65534 "$box/own"
ln -s "$box/theirs" "$box/own/link" && chown -h 65534:65534 "$box/own/link"
log=$TMP/log
USER_=(setpriv --reuid=65534 --regid=65534 --clear-groups)

# contained SCRIPT [ARG]...: sh -c SCRIPT as uid 65534 in a mount namespace of its own
# (made by root, so the user may not mount there itself), cwd $box, under knotif-run
# --emulate=mount; the script's $1 is $MOUNT, $2 is $box, then ARG...
contained() {
	local script=$1
	shift
	(cd "$box" && "$RUN" --emulate=mount --syscalls=execve --log="$log" -- \
		unshare -m --propagation private "${USER_[@]}" -- sh -c "$script" sh "$MOUNT" "$box" "$@")
}

# mount_lines: the log's mount lines
mount_lines() {
	grep '^\[pid [0-9]*\] mount(' "$log"
}

# --- allowed: the target gets 0, the tmpfs is its own, bounded, nosuid,nodev,noexec ---
out=$(contained '"$1" call tmpfs mine "$2/own" 0 size=1m,mode=700 && "$1" info "$2/own"')
expect_eq "tmpfs on its own directory" "$out" "0
mountpoint=yes tmpfs uid=65534 gid=65534 mode=700 flags=nosuid,nodev,noexec"
expect_eq "log" "$(mount_lines)" "$(printf '[pid %s] mount("mine", "%s/own", "tmpfs", 0, "size=1m,mode=700") = 0 <mounted>' \
	"$(mount_lines | sed -n 's/^\[pid \([0-9]*\)\].*/\1/p')" "$box")"
out=$(contained '"$1" thread tmpfs - own 1 - && "$1" info own')
expect_eq "read-only, from a second thread, a relative path, no source, no options" "$out" "0
mountpoint=yes tmpfs uid=65534 gid=65534 mode=1777 flags=ro,nosuid,nodev,noexec"
[ "$("$MOUNT" info "$box/own")" = "mountpoint=no" ] || fail "the command's mount is seen outside its namespace"

# --- refused: whatever the target asks, nothing is mounted where it was refused ---
# refused WHAT ERRNO WHY-PATTERN MOUNTPOINT ARGS...: one call gets ERRNO, the log says why,
# and MOUNTPOINT is no mountpoint inside the command's namespace afterwards
refused() {
	local what=$1 errno=$2 why=$3 where=$4
	shift 4
	out=$(contained '"$1" call "$3" "$4" "$5" "$6" "$7"; "$1" info "$8"' "$@" "$where")
	expect_eq "$what" "$out" "$errno
mountpoint=no"
	mount_lines | grep -q -- "$why" || fail "$what: log '$(mount_lines)' does not say '$why'"
}
refused "a directory it does not own" EPERM "not a directory the target owns" "$box/theirs" \
	tmpfs x "$box/theirs" 0 -
refused "a symlink to one" EPERM "not a directory the target owns" "$box/theirs" tmpfs x "$box/own/link" 0 -
refused "'..' out of its own" EPERM "not a directory the target owns" "$box/theirs" \
	tmpfs x "$box/own/../theirs" 0 -
refused "a magic link" ELOOP "resolving the mountpoint" "$box/own" tmpfs x "magic:$box/own" 0 -
refused "proc" EPERM "type 'proc' is not allowed" "$box/own" proc p "$box/own" 0 -
# its own /proc/PID is owned by it, and still no directory of its own: a pseudo-filesystem's
out=$(contained '"$1" call tmpfs x "/proc/$$" 0 -; grep -c " /proc/$$ " /proc/self/mountinfo')
expect_eq "its own /proc/PID" "$out" "EPERM
0"
mount_lines | tail -1 | grep -q -- "on a kernel pseudo-filesystem" ||
	fail "its own /proc/PID: log '$(mount_lines | tail -1)' does not say why"
refused "a block device's filesystem" EPERM "type 'ext4' is not allowed" "$box/own" ext4 /dev/sda "$box/own" 0 -
# a hostile type: the log's reason quotes it escaped, one line, no raw ESC
refused "a type with an escape sequence" EPERM "type 'ev\\\\x1b\\[2Jil' is not allowed" "$box/own" \
	"$(printf 'ev\033[2Jil')" x "$box/own" 0 -
! grep -q "$(printf '\033')" "$log" || fail "a raw ESC reached the log"
refused "no type" ENODEV "no filesystem type" "$box/own" - x "$box/own" 0 -
refused "a type longer than a page" EINVAL "reading the filesystem type: longer than a page" "$box/own" \
	"$(head -c 5000 /dev/zero | tr '\0' t)" x "$box/own" 0 -
refused "MS_SYNCHRONOUS" EPERM "mount flags 0x10 are not allowed" "$box/own" tmpfs x "$box/own" 10 -
refused "a size over the limit" EPERM "size=1g is over the limit" "$box/own" tmpfs x "$box/own" 0 size=1g
refused "size=0 (unlimited)" EPERM "size=0 is over the limit" "$box/own" tmpfs x "$box/own" 0 size=0
refused "a share of memory" EPERM "size as a share of memory" "$box/own" tmpfs x "$box/own" 0 size=50%
refused "nr_inodes=0 (unlimited)" EPERM "nr_inodes=0 is over the limit" "$box/own" tmpfs x "$box/own" 0 nr_inodes=0
refused "uid=0" EPERM "option 'uid' is not allowed" "$box/own" tmpfs x "$box/own" 0 size=1m,uid=0
refused "a malformed size" EINVAL "size=abc is not a number" "$box/own" tmpfs x "$box/own" 0 size=abc

# a remount, a bind, a propagation change never reach the supervisor: the kernel refuses them
out=$(contained '"$1" call - - "$2/own" 20 -; "$1" call - "$2/theirs" "$2/own" 1000 -; "$1" call - - "$2/own" 40000 -')
expect_eq "remount, bind, private: the kernel's own answer" "$out" "EPERM
EPERM
EPERM"
[ -z "$(mount_lines)" ] || fail "a remount, bind or propagation change was sent: $(mount_lines)"

# at most MOUNT_MAX_COUNT (16) mounts a run
out=$(contained 'for i in $(seq 17); do "$1" call tmpfs x "$2/own" 0 size=64k; done')
expect_eq "mounts in one run" "$(printf '%s\n' "$out" | sort | uniq -c | tr -s ' ' | tr '\n' ';')" " 16 0; 1 EPERM;"
mount_lines | tail -1 | grep -q "this run has made or is making its 16 mounts" || fail "the 17th mount's log: $(mount_lines | tail -1)"

# a command with no mount namespace of its own: knotif-run (root) runs it in its keeper's,
# one only the command's tree is in: mounted there, never in the host's
out=$( (cd "$box" && "$RUN" --emulate=mount --syscalls=execve --log="$log" -- \
	"${USER_[@]}" -- "$MOUNT" call tmpfs x "$box/own" 0 -) )
expect_eq "in knotif-run's own namespace" "$out" 0
[ "$("$MOUNT" info "$box/own")" = "mountpoint=no" ] || fail "a tmpfs was mounted in the host's namespace"

# a mountpoint on a shared mount: a mount there would propagate to its peers (on a systemd
# host, / is shared, and a namespace copied from it shares it with the host)
mkdir "$box/own/sub" && chown 65534:65534 "$box/own/sub"
out=$( (cd "$box" && "$RUN" --emulate=mount --syscalls=execve --log="$log" -- \
	unshare -m --propagation private sh -c 'mount --bind "$2/own" "$2/own" && mount --make-shared "$2/own" &&
		"$3" "$4" "$5" "$6" -- "$1" call tmpfs x "$2/own/sub" 0 - && "$1" info "$2/own/sub"' \
	sh "$MOUNT" "$box" "${USER_[@]}") )
expect_eq "on a shared mount" "$out" "EPERM
mountpoint=no"
mount_lines | grep -q "on a shared mount" || fail "shared mount's log: $(mount_lines)"

# in its own user namespace too: the superblock is that namespace's (its ids shown mapped)
if "${USER_[@]}" unshare -Urm true 2>/dev/null; then
	out=$(cd "$box" && "$RUN" --emulate=mount --syscalls=execve --log="$log" -- "${USER_[@]}" -- \
		unshare -Urm sh -c '"$1" call tmpfs x "$2/own" 0 size=1m && "$1" info "$2/own"' sh "$MOUNT" "$box")
	expect_eq "in its own user namespace" "$out" "0
mountpoint=yes tmpfs uid=0 gid=0 mode=1777 flags=nosuid,nodev,noexec"
else
	echo "skip (part): unprivileged user namespaces are not available here"
fi

# --- hostile second threads while the call waits: never a mount on what it does not own ---
for how in race-swap race-path; do
	mkdir "$box/own/$how" && ln -s "$box/theirs" "$box/own/$how/m.alt" && mkdir "$box/own/$how/m" &&
		chown -hR 65534:65534 "$box/own/$how"
	out=$(contained '"$1" '$how' "$2/own/'$how'" "$2/theirs" 200; "$1" info "$2/theirs"')
	echo "$how: ${out%%$'\n'*}"
	case $out in
	"mounted="*" other=0
mountpoint=no") ;;
	*) fail "$how: $out" ;;
	esac
	# every mount the log says was made is one the target got 0 for
	expect_eq "$how: mounts logged" "$(mount_lines | grep -c '= 0 <mounted>')" \
		"$(printf '%s' "$out" | sed -n 's/^mounted=\([0-9]*\).*/\1/p')"
done

# --- the summary counts each verdict; an unprivileged supervisor is one line ---
out=$( (cd "$box" && "$RUN" --emulate=mount --quiet --summary --format=json -- unshare -m --propagation private \
	"${USER_[@]}" -- sh -c '"$1" call tmpfs x "$2/own" 0 -; "$1" call proc x "$2/own" 0 -;
		"$1" call tmpfs x "$2/nowhere" 0 -' sh "$MOUNT" "$box") 2>&1 >/dev/null)
case $out in *'"mount":{"mounted":1,"refused":1,"failed":1}'*) ;; *) fail "summary: $out" ;; esac
out=$("${USER_[@]}" "$RUN_AS_USER" --emulate=mount -- true 2>&1)
expect_eq "unprivileged --emulate=mount exit" "$?" 1
case $out in "knotif-run: --emulate=mount needs root: "*) ;; *) fail "unprivileged --emulate=mount: $out" ;; esac
[ "$(printf '%s\n' "$out" | wc -l)" = 1 ] || fail "unprivileged --emulate=mount: more than one line: $out"
echo "ok: tmpfs mounted as the command's own, every refusal refused, nothing mounted where refused"
