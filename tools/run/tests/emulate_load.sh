#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The load results/run/regen measures with runs under knotif-run
# --emulate=mknod: the bystander makes exactly N nodes and reports their
# times in order (p50 <= p99 <= max), the flood's threads all make nodes, one
# call reports its result; nothing is left in their folder.
RUN=$1 LOAD=$2
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || skip "needs root: the supervisor creates nodes with CAP_MKNOD"
dir=$TMP/load
mkdir "$dir"
out=$("$RUN" --emulate=mknod --syscalls=execve --summary --format=json --log="$TMP/log" -- \
	"$LOAD" bystander "$dir" 20) || fail "bystander: $out"
read -r _ n _ p50 _ p99 _ max <<<"$out"
expect_eq "bystander calls" "$n" 20
[ "$p50" -gt 0 ] && [ "$p50" -le "$p99" ] && [ "$p99" -le "$max" ] || fail "bystander: not in order: $out"
case $(tail -n 1 "$TMP/log") in *'"mknod":{"created":20,"refused":0,"failed":0}'*) ;;
	*) fail "bystander summary: $(tail -n 1 "$TMP/log")" ;; esac
out=$("$RUN" --emulate=mknod --quiet -- "$LOAD" flood "$dir" 4 1) || fail "flood: $out"
[ "${out#calls }" -ge 4 ] || fail "flood: $out"
expect_eq "one" "$("$RUN" --emulate=mknod --quiet -- "$LOAD" one "$dir/one")" 0
[ -c "$dir/one" ] && rm "$dir/one"
expect_eq "left in the folder" "$(ls -A "$dir")" ""
expect_eq "bad usage" "$("$LOAD" 2>/dev/null; echo $?)" 2
echo "ok: the bystander, the flood and one call run under knotif-run --emulate=mknod"
