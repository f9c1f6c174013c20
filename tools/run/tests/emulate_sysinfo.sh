#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# knotif-run --emulate=sysinfo: a command in a memory cgroup limited to
# 64 MiB is told 64 MiB of RAM (busybox free, which calls sysinfo(2), shows
# 65536 KiB), and free RAM below that; a command in a cgroup with no limit is
# told the host's RAM; a buffer it may not write gets EFAULT, as the kernel
# gives it, and nothing is written; the log and the summary count exactly.
RUN=$1 SYSINFO=$2
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || skip "needs root: the test makes a memory cgroup"
need busybox
LIMIT=$((64 * 1024 * 1024))
log=$TMP/log

# the memory controller's hierarchy, as knotif-run finds it: v1 "memory", or cgroup2 with memory on
cgroot=$(awk '$9 == "cgroup" && $NF ~ /(^|,)memory(,|$)/ { print $5; exit }' /proc/self/mountinfo)
version=1
if [ -z "$cgroot" ]; then
	cgroot=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
	version=2
	[ -n "$cgroot" ] && grep -qw memory "$cgroot/cgroup.controllers" 2>/dev/null ||
		skip "no memory controller mounted (v1 memory or cgroup2 with memory)"
	grep -qw memory "$cgroot/cgroup.subtree_control" || skip "cgroup2's root does not hand memory down"
fi
cg=$cgroot/knotif-sysinfo-test.$$
free_cg=$cgroot/knotif-sysinfo-free.$$
mkdir "$cg" "$free_cg" || skip "cannot make a memory cgroup under $cgroot"
on_exit 'rmdir "$cg" "$free_cg" 2>/dev/null'
if [ $version = 1 ]; then
	echo $LIMIT >"$cg/memory.limit_in_bytes" || fail "setting $cg/memory.limit_in_bytes"
else
	echo $LIMIT >"$cg/memory.max" || fail "setting $cg/memory.max"
fi

# in CGROUP FORM...: knotif-run --emulate=sysinfo -- sysinfo_probe FORM, started in CGROUP
in_cg() {
	local where=$1
	shift
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$where" \
		"$RUN" --emulate=sysinfo --syscalls=execve --log="$log" "$@"
}

host=$("$SYSINFO" ok)
read -r rc host_total _ <<<"$host"
expect_eq "the probe without knotif-run" "$rc" 0

# limited: told the limit, and the limit less the cgroup's usage as free
read -r rc total free shared buffers swap freeswap <<<"$(in_cg "$cg" -- "$SYSINFO" ok)"
expect_eq "limited: sysinfo returned" "$rc" 0
expect_eq "limited: totalram" "$total" $LIMIT
[ "$free" -gt 0 ] && [ "$free" -lt $LIMIT ] || fail "limited: freeram $free is not within (0, $LIMIT)"
[ "$shared" -le $LIMIT ] || fail "limited: sharedram $shared is over the limit"
expect_eq "limited: bufferram" "$buffers" 0
[ "$freeswap" -le "$swap" ] || fail "limited: freeswap $freeswap over totalswap $swap"
grep -q '^\[pid [0-9]*\] sysinfo(0x[0-9a-f]*) = 0 <answered>$' "$log" || fail "no answered line: $(cat "$log")"

# busybox free calls sysinfo(2) (procps' free reads /proc/meminfo instead). Its "used" mixes in
# the host's Cached from /proc/meminfo, which this emulation does not answer: a wrapped number that
# runs into "total"'s column, which ends where its header does
out=$(in_cg "$cg" -- busybox free)
end=$(head -n 1 <<<"$out" | awk '{ print index($0, "total") + 4 }')
expect_eq "busybox free's total (KiB)" "$(grep '^Mem:' <<<"$out" | cut -c1-"$end" | awk '{ print $2 }')" \
	$((LIMIT / 1024))

# no limit of its own: the host's RAM (the cgroup knotif-run runs in may have a limit of its own:
# its ancestors' count, so the test's own cgroup is the reference)
read -r rc total _ <<<"$(in_cg "$free_cg" -- "$SYSINFO" ok)"
expect_eq "unlimited: sysinfo returned" "$rc" 0
ref=$(sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" ok' sh "$free_cg" "$SYSINFO" | cut -d' ' -f2)
[ "$total" -le "$host_total" ] || fail "unlimited: totalram $total is over the host's $host_total"
[ "$ref" = "$host_total" ] && expect_eq "unlimited: totalram" "$total" "$host_total"

# buffers the kernel would refuse: EFAULT, and a failed line each
for form in null ro partial; do
	expect_eq "$form buffer" "$(in_cg "$cg" -- "$SYSINFO" "$form")" EFAULT
	expect_eq "$form buffer: failed lines" \
		"$(grep -c '= -1 EFAULT <failed: the buffer is not the target'"'"'s to write>' "$log")" 1
done

# the summary counts them exactly
in_cg "$cg" --summary --format=json -- sh -c '"$1" ok; "$1" null' sh "$SYSINFO" >/dev/null
out=$(tail -n 1 "$log")
case $out in *'"sysinfo":{"answered":1,"refused":0,"failed":1}'*) ;; *) fail "summary: $out" ;; esac
echo "ok: sysinfo answered with the memory cgroup's limit and usage, EFAULT where the kernel gives it"
