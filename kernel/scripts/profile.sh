#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# profile.sh KERNEL NAME PLUGIN INITRAMFS CACHE OUTDIR RUNDIR BENCH...
#
# Where a round trip's instructions go, by kernel function (make -f
# Makefile.kernel vm-profile): KERNEL (kernel-image.sh: a pinned Debian
# image, a package or a bzImage) boots under -icount with QEMU's tbcount
# PLUGIN, once per BENCH (a knotif-bench name without its placement, e.g.
# unotif/async/addfd): knotif-bench marks the benchmark's timed loop
# (KNOTIF_PROFILE_MARKS) and the plugin counts inside it alone
# (profile-table.py). Symbols come from one more boot that sends the running
# kernel's /proc/kallsyms. Writes OUTDIR/NAME/<bench>.json; the guest runs
# (the plugin's raw counts, megabytes) stay in RUNDIR/NAME.
set -euo pipefail
[ $# -ge 8 ] || { echo "usage: $0 KERNEL NAME PLUGIN INITRAMFS CACHE OUTDIR RUNDIR BENCH..." >&2; exit 2; }
kernel=$1 name=$2 plugin=$3 initramfs=$4 cache=$5 outdir=$6 rundir=$7
shift 7
here=$(cd "$(dirname "$0")" && pwd)
# each BENCH names one benchmark of the guest's knotif-bench (KNOTIF_BENCH,
# the same static build), checked before anything boots
if [ -n "${KNOTIF_BENCH:-}" ]; then
	for b in "$@"; do
		n=$("$KNOTIF_BENCH" --benchmark_list_tests --placement=same --benchmark_filter="^$b/placement:same\$" | wc -l)
		[ "$n" -eq 1 ] || { echo "profile: '$b' is not a knotif-bench benchmark (knotif-bench --benchmark_list_tests)" >&2; exit 2; }
	done
fi
"$here/kernel-image.sh" "$kernel" "$cache" --check || exit 2
image=$("$here/kernel-image.sh" "$kernel" "$cache")
dir=$outdir/$name runs=$rundir/$name
mkdir -p "$dir" "$runs"

boot() { # TAG FILTER SAMPLES
	VM_PLUGIN=$plugin,marks=on BENCH_SAMPLES=$3 VM_APPEND="knotif.filter=$2 ${VM_APPEND:-}" \
		"$here/vm-run.sh" profile "$image" "$initramfs" "$runs/$1" "$name" /dev/null >/dev/null ||
		{ echo "profile: the guest run $1 failed; see $runs/$1/console.log" >&2; exit 1; }
}
# the symbols, from the running kernel itself (/proc/kallsyms; the guest boots
# with nokaslr): Debian's System.map is a placeholder naming its -dbg package
"$here/vm-run.sh" symbols "$image" "$initramfs" "$runs/symbols" "$name" /dev/null >/dev/null ||
	{ echo "profile: the symbols boot failed; see $runs/symbols/console.log" >&2; exit 1; }
map=$runs/kallsyms.txt
base64 -d "$runs/symbols/kallsyms.gz.b64" | gunzip > "$map" && [ -s "$map" ] ||
	{ echo "profile: no symbols from the guest; see $runs/symbols/console.log" >&2; exit 1; }
for b in "$@"; do
	tag=${b//\//-}
	boot "$tag" "^$b/placement:same\$" "${PROFILE_SAMPLES:-2000}"
	/usr/bin/python3 "$here/profile-table.py" --map "$map" --label "$name" --run "$runs/$tag" \
		--out-json "$dir/$tag.json" --top 12
done
