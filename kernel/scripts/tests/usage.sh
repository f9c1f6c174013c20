#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The kernel scripts a user calls with their own arguments refuse bad ones
# before anything boots or builds: one line and exit 2. icount-gb.sh (the
# deterministic gate), vm-run.sh's and the Makefile's placement, and
# deb-build.sh (make deb's lsmod listing); and
# icount-gb.sh --check takes each kind of kernel it documents.
set -euo pipefail
. "$(dirname "$0")/../../../scripts/tests/testlib.sh"
top=$1
gb=$top/kernel/scripts/icount-gb.sh
deb=$top/kernel/scripts/deb-build.sh
tmp=$TEST_TMP
touch "$tmp/base.json" "$tmp/bzImage"

refused() { # WHAT-IT-SAYS COMMAND...: exit 2, one line that says it
	local want=$1 out rc=0
	shift
	out=$("$@" 2>&1 >/dev/null) || rc=$?
	[ "$rc" -eq 2 ] || fail "$* exited $rc, want 2"
	[ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] || fail "$*: not one line: $out"
	[[ "$out" == *"$want"* ]] || fail "$*: '$out' does not say '$want'"
}
# the cache is this test's own (not /var/cache/knotif: a new machine has none),
# and a folder that does not exist yet, as there
cache=$tmp/cache/kernel/debian
ok=(--kernel=debian-6.12 --out="$tmp/new.json" --cache="$cache" --check)
refused "unknown argument" "$gb" --bogus -- true
refused "no PROGRAM" "$gb" "${ok[@]}"
refused "--kernel is required" "$gb" --out="$tmp/new.json" --cache="$cache" --check -- true
refused "--out is required" "$gb" --kernel=debian-6.12 --cache="$cache" --check -- true
refused "not a name of kernel/debian-images.txt" "$gb" --kernel=debian-9 --out="$tmp/n.json" --cache="$cache" --check -- true
# a wrong kernel name is named first, even where the cache cannot be made
refused "not a name of kernel/debian-images.txt" "$gb" --kernel=debian-9 --out="$tmp/n.json" \
	--cache="$tmp/base.json/debian" --check -- true
refused "--cache=$tmp/base.json/debian is not writable" "$gb" --kernel=debian-6.12 --out="$tmp/n.json" \
	--cache="$tmp/base.json/debian" --check -- true
refused "not writable" "$gb" --kernel=debian-6.12 --out="$tmp/no/such/n.json" --cache="$cache" --check -- true
refused "not a writable file" "$gb" --kernel=debian-6.12 --out="$tmp" --cache="$cache" --check -- true
refused "cannot be read" "$gb" "${ok[@]}" --baseline="$tmp/missing.json" -- true
refused "not an executable file" "$gb" "${ok[@]}" -- "$tmp/base.json"
refused "newline" "$gb" "${ok[@]}" -- true $'a\nb'
refused "--initramfs" "$gb" --kernel=debian-6.12 --out="$tmp/n.json" --cache="$cache" -- true
touch "$tmp/new.json"
refused "the same file" "$gb" "${ok[@]}" --baseline="$tmp/new.json" -- true
mkdir -p "$tmp/rundir" && touch "$tmp/rundir/keep"
refused "exists and is not empty" "$gb" "${ok[@]}" --run-dir="$tmp/rundir" -- true
refused "cannot be read" "$gb" "${ok[@]}" --baseline="$tmp" -- true
refused "--placement=both: same, cross or free" "$gb" "${ok[@]}" --placement=both -- true
"$gb" "${ok[@]}" --placement=cross -- knotif-bench || fail "--check refused --placement=cross"
# the boot script and the Makefile refuse a placement before anything boots or is removed
mkdir -p "$tmp/vm-out" && touch "$tmp/vm-out/keep"
refused "VM_PLACEMENT=x: same, cross or free" env VM_PLACEMENT=x "$top/kernel/scripts/vm-run.sh" \
	bench "$tmp/bzImage" "$tmp/bzImage" "$tmp/vm-out" label /dev/null
[ -e "$tmp/vm-out/keep" ] || fail "vm-run.sh emptied its OUTDIR before refusing VM_PLACEMENT=x"
refused "PLACEMENT=x: same (the default), cross or free" make -s -C "$top" -f Makefile.kernel vm-gb PLACEMENT=x
# a prefix of the series (vm-bench-series' levels) is a number of its patches
refused "SERIES_UPTO=x3: a number of patches" make -s -C "$top" -f Makefile.kernel info SERIES_UPTO=x3
refused "SERIES_UPTO=0: " make -s -C "$top" -f Makefile.kernel info SERIES_UPTO=0
refused "SERIES_UPTO=99: " make -s -C "$top" -f Makefile.kernel info SERIES_UPTO=99 \
	PATCHES=kernel/patches/mergeable/series
refused "one prefix of vm-bench-series" make -s -C "$top" -f Makefile.kernel vm-bench-level
kernels=(debian-6.1 debian-6.12-rt "$tmp/bzImage")
if command -v apt-cache >/dev/null; then
	refused "no such package" "$gb" --kernel=linux-image-6.1.0-99-knotif-none-unsigned --out="$tmp/n.json" \
		--cache="$cache" --check -- true
	newest=$(apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-amd64-unsigned$' | cut -d' ' -f1 | sort -V | tail -1)
	[ -z "$newest" ] || kernels+=("$newest")
fi
for k in "${kernels[@]}"; do
	"$gb" --kernel="$k" --out="$tmp/n.json" --cache="$cache" --check -- knotif-bench --benchmark_filter=null ||
		fail "--check refused --kernel=$k"
done
[ ! -e "$tmp/n.json" ] || fail "--check wrote $tmp/n.json"
[ ! -e "$tmp/cache" ] || fail "--check made the cache $tmp/cache"

printf 'Module                  Size  Used by\n' > "$tmp/empty.txt"
printf 'ext4 1069056\n' > "$tmp/noheader.txt"
printf 'Module Size Used by\next4 big 1\n' > "$tmp/badsize.txt"
for f in empty noheader badsize; do
	refused "not lsmod's output" "$deb" /dev/null "$tmp" "$tmp/d" "$tmp/$f.txt"
done
refused "cannot read LSMOD" "$deb" /dev/null "$tmp" "$tmp/d" "$tmp/missing.txt"
refused "not lsmod's output" "$deb" --check "$tmp/noheader.txt"
"$deb" --check "$top/kernel/deb/lsmod-vm.txt" || fail "deb-build.sh --check refused kernel/deb/lsmod-vm.txt"
echo "ok: icount-gb.sh, vm-run.sh, Makefile.kernel's PLACEMENT and SERIES_UPTO and deb-build.sh refuse bad arguments before they boot or build"
