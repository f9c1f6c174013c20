#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# icount-gb-check.sh KERNEL INITRAMFS UNOTIF_ROUNDTRIP COMPARE DIR
#
# The deterministic gate's own check (make -f Makefile.kernel vm-gb-check):
# through kernel/scripts/icount-gb.sh, with a host program copied into the
# guest (kernel/bench's unotif-roundtrip), three runs in KERNEL under -icount:
#   base, and the same again: knotif-compare --deterministic passes (exit 0);
#   a supervisor that does WORK more turns of an empty loop a reply
#   (--supervisor-work): its p50 must be 1.5-3% slower than base's, and the
#   gate must fail it (exit 1, a "regression" verdict).
# VM_PLACEMENT=cross (make ... vm-gb-check PLACEMENT=cross): the same on two
# vCPUs, unotif-roundtrip's target on the other CPU than its supervisor.
# Exit 0 when all three hold, 1 otherwise.
set -euo pipefail
[ $# -eq 5 ] || { echo "usage: $0 KERNEL INITRAMFS UNOTIF_ROUNDTRIP COMPARE DIR" >&2; exit 2; }
kernel=$1 initramfs=$2 prog=$3 compare=$4 dir=$5
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$prog" ] || { echo "vm-gb-check: no $prog (make -f Makefile.kernel bench-bin)" >&2; exit 2; }
[ -x "$compare" ] || { echo "vm-gb-check: no $compare (build the project first: cmake --build build)" >&2; exit 2; }
placement=${VM_PLACEMENT:-same}
# about 2% of a Debian 6.12 round trip (3 instructions a turn): same CPU about
# 9,800 instructions (65 turns); cross CPU 65 turns came to 1.29%, so 110
default_work=65
[ "$placement" = same ] || default_work=110
WORK=${GB_CHECK_WORK:-$default_work}
args=(--benchmark_filter=ioctl --samples=1000 --benchmark_repetitions=3 --placement="$placement")

rm -rf "$dir" && mkdir -p "$dir"
gb() { # NAME [--baseline=FILE] -- ARGS...: one guest run, its JSON in DIR/NAME.json
	local name=$1
	shift
	"$here/icount-gb.sh" --kernel="$kernel" --initramfs="$initramfs" --compare="$compare" \
		--run-dir="$dir/run-$name" --out="$dir/$name.json" --placement="$placement" "$@"
}
p50() { # FILE: the unotif row's p50, the median over its repetitions
	[ -s "$1" ] || { echo "vm-gb-check: no $1" >&2; exit 1; }
	PYTHONPATH=$here/../../scripts /usr/bin/python3 -c 'import gbrows, statistics, sys
runs = gbrows.runs(gbrows.load(sys.argv[1]))
print(statistics.median(b["p50"] for n, r in runs.items() if n.startswith("unotif/") for b in r["iterations"]))' "$1"
}
fail=0
gb base -- "$prog" "${args[@]}"
if gb same --baseline="$dir/base.json" -- "$prog" "${args[@]}" > "$dir/same.txt" 2>&1; then
	echo "ok - identical guest runs pass the deterministic gate"
else
	echo "not ok - identical guest runs failed the deterministic gate:"; sed 's/^/# /' "$dir/same.txt"; fail=1
fi
rc=0
gb slow --baseline="$dir/base.json" -- "$prog" "${args[@]}" --supervisor-work="$WORK" > "$dir/slow.txt" 2>&1 || rc=$?
[ -s "$dir/slow.json" ] || { echo "not ok - the slower supervisor's run stored nothing:"; sed 's/^/# /' "$dir/slow.txt"; exit 1; }
base_p50=$(p50 "$dir/base.json")
slow_p50=$(p50 "$dir/slow.json")
change=$(/usr/bin/python3 -c 'import sys; print(f"{(float(sys.argv[2]) / float(sys.argv[1]) - 1) * 100:.2f}")' \
	"$base_p50" "$slow_p50")
echo "# --supervisor-work=$WORK: p50 $change% slower than base"
if ! /usr/bin/python3 -c 'import sys; sys.exit(not 1.5 <= float(sys.argv[1]) <= 3.0)' "$change"; then
	echo "not ok - the slower supervisor is $change% slower, not 1.5-3% (set GB_CHECK_WORK)"; fail=1
elif [ $rc -eq 1 ] && grep -q 'regression' "$dir/slow.txt"; then
	echo "ok - a supervisor $change% slower fails the deterministic gate"
else
	echo "not ok - a supervisor $change% slower: gate exit $rc, expected 1 with a regression:"
	sed 's/^/# /' "$dir/slow.txt"; fail=1
fi
exit $fail
