#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# knotif-run --emulate=mknod, the seeds' scenario: an unprivileged command in
# its own user namespace (uid 65534 on the host) creates the device nodes
# the policy lists, owned by itself, in every call form; everything else is
# refused as the kernel would refuse the command itself, and nothing is left
# behind. Each case checks the value the target got, the node (or its
# absence) and the log line.
RUN=$1 PROBE=$2 MKNOD=$3
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || skip "needs root: the supervisor creates nodes with CAP_MKNOD"
command -v setpriv >/dev/null && command -v unshare >/dev/null || skip "needs setpriv and unshare (util-linux)"
setpriv --reuid=65534 --regid=65534 --clear-groups unshare -Ur true 2>/dev/null ||
	skip "unprivileged user namespaces are not available here"

chmod 755 "$TMP"	# the contained user walks into it
# and runs its programs from there: the build tree may be one it cannot reach (a clone in
# a mktemp -d folder is 0700)
cp "$MKNOD" "$TMP/mknod_probe" && MKNOD=$TMP/mknod_probe
cp "$RUN" "$TMP/knotif-run" && RUN_AS_USER=$TMP/knotif-run
box=$TMP/box
mkdir -p "$box/dev" "$box/locked" && chmod 777 "$box" "$box/dev" && chmod 755 "$box/locked"
log=$TMP/log

# contained FORM PATH TYPE MAJOR MINOR [DIR]: the probe as uid 65534 in its own
# user namespace, cwd $box, under knotif-run --emulate=mknod; prints what mknod returned
contained() {
	(cd "$box" && "$RUN" --emulate=mknod --syscalls=execve --log="$log" ${POLICY:+--policy="$POLICY"} -- \
		setpriv --reuid=65534 --regid=65534 --clear-groups unshare -Ur "$MKNOD" "$@")
}

# node PATH TYPE MAJOR MINOR: PATH is that device node, owned by 65534:65534, mode 0644 (umask 022)
node() {
	local want
	want="$2 $(printf '%x %x' "$3" "$4") 65534 65534 644"
	expect_eq "node $1" "$(stat -c '%F %t %T %u %g %a' "$1" 2>&1 |
		sed 's/^character special file/c/; s/^block special file/b/')" "$want"
}

# emulated_line PATTERN: the log's emulated line (exactly one) matches PATTERN
emulated_line() {
	local got
	got=$(grep -c '^\[pid [0-9]*\] mknod' "$log")
	expect_eq "emulated lines in the log" "$got" 1
	grep '^\[pid [0-9]*\] mknod' "$log" | grep -q -- "$1" ||
		fail "log line '$(grep mknod "$log")' does not match '$1'"
}

# --- allowed, in every form: the target gets 0, the node is its own ---
umask 022
expect_eq "mknod null" "$(contained mknod dev/null c 1 3)" 0
node "$box/dev/null" c 1 3
emulated_line 'mknod("dev/null", 020666, 1:3) = 0 <created>'
expect_eq "mknodat(AT_FDCWD) zero" "$(contained at-cwd dev/zero c 1 5)" 0
node "$box/dev/zero" c 1 5
expect_eq "mknodat(dirfd) full" "$(contained at-dirfd full c 1 7 dev)" 0
node "$box/dev/full" c 1 7
emulated_line 'mknodat([0-9]*, "full", 020666, 1:7) = 0 <created>'
expect_eq "from a second thread" "$(contained thread dev/random c 1 8)" 0
node "$box/dev/random" c 1 8
expect_eq "from a thread with its own cwd" "$(contained thread-cwd urandom c 1 9 dev)" 0
node "$box/dev/urandom" c 1 9
expect_eq "the overlay whiteout" "$(contained at-cwd dev/wh c 0 0)" 0
node "$box/dev/wh" c 0 0
expect_eq "an absolute path" "$(contained at-cwd "$box/dev/tty" c 5 0)" 0
node "$box/dev/tty" c 5 0
expect_eq "an existing node" "$(contained at-cwd dev/null c 1 3)" EEXIST
emulated_line 'mknodat(AT_FDCWD, "dev/null", 020666, 1:3) = -1 EEXIST <failed: mknodat: File exists>'

# --- refused by the policy: EPERM, nothing made ---
expect_eq "a block device" "$(contained at-cwd dev/sda b 8 0)" EPERM
[ ! -e "$box/dev/sda" ] || fail "the refused block device exists"
emulated_line 'mknodat(AT_FDCWD, "dev/sda", 060666, 8:0) = -1 EPERM <refused: not in the device policy>'
expect_eq "/dev/mem's 1:1" "$(contained at-cwd dev/mem c 1 1)" EPERM
[ ! -e "$box/dev/mem" ] || fail "the refused 1:1 exists"

# --- refused as the target would be: its own permissions, its own root ---
expect_eq "a directory it cannot write" "$(contained at-cwd locked/null c 1 3)" EACCES
[ ! -e "$box/locked/null" ] || fail "a node in the locked directory exists"
expect_eq "/etc" "$(contained at-cwd /etc/knotif-test-null c 1 3)" EACCES
[ ! -e /etc/knotif-test-null ] || { rm -f /etc/knotif-test-null; fail "a node was made in /etc"; }
ln -s /etc "$box/to-etc"
expect_eq "a symlink to /etc" "$(contained at-cwd to-etc/knotif-test-null c 1 3)" EACCES
[ ! -e /etc/knotif-test-null ] || { rm -f /etc/knotif-test-null; fail "a node was made in /etc"; }
expect_eq "a missing directory" "$(contained at-cwd nowhere/null c 1 3)" ENOENT
expect_eq "a dirfd that is not open" "$(contained at-badfd null c 1 3)" EBADF
expect_eq "a dirfd that is a file" "$(contained at-dirfd null c 1 3 /etc/passwd)" ENOTDIR
expect_eq "an absolute path ignores a bad dirfd" "$(contained at-badfd "$box/dev/null3" c 1 3)" 0
# its own /proc/PID/cwd: the kernel would follow it; the supervisor follows no magic link.
# (Not in a user namespace: from one, the thread's own /proc entry is closed to a helper
# holding CAP_MKNOD alone, EACCES, before the link is reached.)
expect_eq "a magic link (/proc/PID/cwd)" "$(cd "$box" && "$RUN" --emulate=mknod --quiet -- \
	setpriv --reuid=65534 --regid=65534 --clear-groups "$MKNOD" at-magic dev/magic c 1 3)" ELOOP
[ ! -e "$box/dev/magic" ] || fail "a node was made through a magic link"
long=$(printf 'a%.0s' $(seq 5000))
expect_eq "a path longer than PATH_MAX" "$(contained at-cwd "$long" c 1 3)" ENAMETOOLONG

# a nodev mount: the node would be made and useless; refused (a small tmpfs of our own)
mkdir "$TMP/nodev"
if mount -t tmpfs -o nodev,size=64k,mode=777 knotif-test "$TMP/nodev" 2>/dev/null; then
	on_exit 'umount "$TMP/nodev"'
	expect_eq "a nodev mount" "$(contained at-cwd "$TMP/nodev/null" c 1 3)" EPERM
	[ ! -e "$TMP/nodev/null" ] || fail "a node was made on a nodev mount"
fi

# --- the target's root: a ".." or a symlink stops there, as it would for the target ---
root=$TMP/root
mkdir -p "$root/tmp" "$root/d" && chmod 777 "$root/tmp" "$root/d"
cp "$MKNOD" "$root/mknod_probe"
ln -s /tmp "$root/d/evil"
chrooted() {
	"$RUN" --emulate=mknod --syscalls=execve --log="$log" -- \
		setpriv --reuid=65534 --regid=65534 --clear-groups \
		unshare -Ur --root="$root" --wd=/d /mknod_probe "$@"
}
name=knotif-escape-$$
expect_eq "../ past the root" "$(chrooted at-cwd "../../../../tmp/$name" c 1 3)" 0
[ -c "$root/tmp/$name" ] || fail "../ past the root: no node at the root's /tmp"
[ ! -e "/tmp/$name" ] || { rm -f "/tmp/$name"; fail "../ left the target's root"; }
expect_eq "an absolute symlink" "$(chrooted at-cwd "evil/$name-2" c 1 5)" 0
[ -c "$root/tmp/$name-2" ] || fail "symlink: no node at the root's /tmp"
[ ! -e "/tmp/$name-2" ] || { rm -f "/tmp/$name-2"; fail "a symlink left the target's root"; }

# --- one process changing its context between calls: each node is made as it is then ---
# (knotif-run keeps a helper per context, lib/seccomp/mknod_pool.h: none may serve another's call)
mkdir -m 777 "$box/ctx"
k=knotif-ctx-$$
on_exit "rm -f '/$k-r'"	# where a helper kept for the old root would put it
expect_eq "six nodes, six contexts" "$(cd "$box" && "$RUN" --emulate=mknod --quiet --summary --format=json -- \
	"$MKNOD" contexts "$k" c 1 3 "$box/ctx" 2>"$TMP/ctx-summary" | tr '\n' ' ')" "0 0 0 0 0 0 "
# three contexts (the first, fsuid 1234, the new root): three helpers; the umask, the
# fsuid back and the chdir each went to the first one's
case $(cat "$TMP/ctx-summary") in
*'"helpers":{"mknod":{"started":3,"reused":3}}'*) ;;
*) fail "helpers for six calls in three contexts: $(cat "$TMP/ctx-summary")" ;;
esac
ctx_node() {	# ctx_node PATH UID MODE
	expect_eq "context node $1" "$(stat -c '%F %u %a' "$1" 2>&1)" "character special file $2 $3"
}
ctx_node "$box/$k-a" 0 644	# umask 022
ctx_node "$box/$k-b" 0 600	# umask 077, the same credentials and root
ctx_node "$box/$k-d" 1234 644	# fsuid 1234
ctx_node "$box/$k-e" 0 644	# fsuid 0 again: the first helper's context
ctx_node "$box/ctx/$k-c" 0 644	# chdir: a relative path from the new cwd
ctx_node "$box/ctx/$k-r" 0 644	# chroot: "/" is the new root
[ ! -e "$box/$k-c" ] && [ ! -e "/$k-r" ] || fail "a node was made at an old cwd or root"

# --- a hostile second thread rewrites the path while the call waits ---
# The supervisor reads the path once and acts on that copy: whatever it read
# (either path, or a torn mix the kernel could have read as well), the node is
# where the log says, and the target got what the log says.
got=$(contained race-path dev/raced c 1 3)
line=$(grep '^\[pid [0-9]*\] mknodat' "$log")
made=$(printf '%s' "$line" | sed -n 's/^[^"]*"\([^"]*\)".*/\1/p')
if [ "$got" = 0 ]; then
	case $line in *"= 0 <created>") ;; *) fail "raced: the target got 0, the log says: $line" ;; esac
	(cd "$box" && [ -c "$made" ]) || fail "raced: no node where the log says it was made ($made)"
	(cd "$box" && rm -f "$made")
else
	case $line in *"= -1 $got "*) ;; *) fail "raced: the target got $got, the log says: $line" ;; esac
	[ ! -e "$box/dev/raced" ] && [ ! -e /tmp/x ] || fail "raced: a node exists after $got"
fi

# --- a hostile thread swaps the parent directory for a symlink to /etc meanwhile ---
mkdir -m 777 "$box/swapped"
for i in 1 2 3 4 5; do
	got=$(contained race-swap "swapped/n$i" c 1 3 swapped)
	[ ! -e "/etc/n$i" ] || { rm -f "/etc/n$i"; fail "swap $i: a node was made in /etc"; }
	case $got in
	0) [ -c "$box/swapped/n$i" ] || [ -c "$box/swapped.real/n$i" ] || fail "swap $i: 0 but no node" ;;
	EACCES | ENOENT) ;;	# resolved through the symlink (the thread's own permissions) or mid-swap
	*) fail "swap $i: $got" ;;
	esac
done
rm -rf "$box/swapped.real"

# --- a target killed in the middle of its calls: no hang, nothing half-made, nothing left ---
# (timeout, inside the command, SIGKILLs the probe at whatever call it has reached)
mkdir -m 777 "$box/killed"
(cd "$box" && "$RUN" --emulate=mknod --syscalls=execve --log="$log" -- \
	setpriv --reuid=65534 --regid=65534 --clear-groups unshare -Ur \
	timeout -s KILL 0.5 "$MKNOD" loop killed/k c 1 1000000)
expect_eq "the killed command's status" "$?" 137
for f in "$box"/killed/k*; do
	[ -e "$f" ] || continue	# no node at all (a slow machine): the pattern itself
	[ -c "$f" ] || fail "$f is not a whole character device"
	grep -q "\"killed/${f##*/}\"" "$log" || fail "$f exists but was not logged"
done
made=$(grep -c '= 0 <created' "$log")
expect_eq "nodes made = nodes logged as made" "$(ls "$box/killed" | wc -l)" "$made"

# --- FIFOs never reach the supervisor ---
expect_eq "a FIFO" "$(contained at-cwd fifo p 0 0)" 0
[ -p "$box/fifo" ] || fail "no FIFO"
! grep -q '^\[pid [0-9]*\] mknod' "$log" || fail "a FIFO was sent to the supervisor: $(grep '\] mknod' "$log")"

# --- --policy=FILE ---
cat >"$TMP/policy" <<'POLICY'
# loop devices only
b 7:* loop
POLICY
POLICY=$TMP/policy
expect_eq "a policy's block device" "$(contained at-cwd dev/loop0 b 7 0)" 0
node "$box/dev/loop0" b 7 0
expect_eq "null, off that policy" "$(contained at-cwd dev/null2 c 1 3)" EPERM
unset POLICY
printf 'c 1:3 null\nx 1:5\n' >"$TMP/bad-policy"
out=$("$RUN" --emulate=mknod --policy="$TMP/bad-policy" -- touch "$TMP/ran" 2>&1)
expect_eq "a bad policy's status" "$?" 2
expect_eq "a bad policy's message" "$out" \
	"knotif-run: invalid --policy: $TMP/bad-policy:2: expected a type: c (character device) or b (block device)"
[ ! -e "$TMP/ran" ] || fail "the command ran despite a bad policy"
out=$("$RUN" --policy="$TMP/policy" -- true 2>&1)
expect_eq "--policy alone" "$out" "knotif-run: --policy needs --emulate=mknod"

# --- knotif-run itself unprivileged: refused before the command starts ---
out=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$RUN_AS_USER" --emulate=mknod -- touch "$TMP/ran" 2>&1)
expect_eq "unprivileged --emulate's status" "$?" 1
case $out in *"--emulate=mknod needs root"*) ;; *) fail "unprivileged --emulate: $out" ;; esac
[ ! -e "$TMP/ran" ] || fail "the command ran under an unprivileged --emulate"

# --- the target's device cgroup judges the node: the helper joins the target's cgroups ---
# (cgroup v1's devices controller: a cgroup that denies mknod of c 1:3; on a v2-only
# machine the rules are BPF programs, and this part says it did not run)
devices=$(awk '$9 == "cgroup" && $NF ~ /(^|,)devices(,|$)/ && $4 == "/" { print $5; exit }' /proc/self/mountinfo)
if [ -n "$devices" ] && cg=$devices/knotif-test.$$ && mkdir "$cg" 2>/dev/null; then
	on_exit "rmdir '$cg' 2>/dev/null"
	echo 'c 1:3 m' >"$cg/devices.deny"
	# a node made first in the machine's cgroup: the helper kept for it must not serve the rest
	out=$(cd "$box" && "$RUN" --emulate=mknod --syscalls=execve --log="$log" -- sh -c '"$2" mknod dev/cg-first c 1 3 &&
		echo $$ >"$1/cgroup.procs" &&
		exec setpriv --reuid=65534 --regid=65534 --clear-groups unshare -Ur sh -c "\"\$0\" mknod dev/cg-null c 1 3; \"\$0\" mknod dev/cg-zero c 1 5" "$2"' \
		sh "$cg" "$MKNOD")
	expect_eq "mknod outside, then under a device cgroup that denies c 1:3, then c 1:5" "$out" "0
EPERM
0"
	rm -f "$box/dev/cg-first"
	[ ! -e "$box/dev/cg-null" ] || fail "a node the target's device cgroup denies was made"
	node "$box/dev/cg-zero" c 1 5
	grep -q 'mknod("dev/cg-null", 020666, 1:3) = -1 EPERM <failed: mknodat: ' "$log" ||
		fail "the denied node's log line: $(grep cg-null "$log")"
	rm -f "$box/dev/cg-zero"
else
	echo "skip (part): no cgroup v1 devices controller to deny a device with here"
fi

# --- the summary counts each verdict ---
out=$(cd "$box" && "$RUN" --emulate=mknod --quiet --summary --format=json -- \
	setpriv --reuid=65534 --regid=65534 --clear-groups unshare -Ur \
	sh -c "$MKNOD at-cwd dev/s1 c 1 3; $MKNOD at-cwd dev/s2 b 8 1; $MKNOD at-cwd locked/s c 1 3" 2>&1 >/dev/null)
case $out in *'"mknod":{"created":1,"refused":1,"failed":1}'*) ;; *) fail "summary: $out" ;; esac
echo "ok: every form created, every refusal refused, nothing left behind"
