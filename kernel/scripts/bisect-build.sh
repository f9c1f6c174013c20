#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bisect-build.sh STOCK_SRC DIR INITRAMFS CONFIG_FRAGMENTS PATCH...
#
# Bisectability of a series: apply the patches one at a time to a copy of
# STOCK_SRC in DIR/src and, after each, configure (tinyconfig + the
# fragments, as Makefile.kernel does), build bzImage warning-free
# (W=1 on the files the series touches) and boot it under QEMU with
# INITRAMFS (the upstream seccomp selftests and the series' own, which
# skip what the prefix lacks as unsupported). Objects stay in DIR/obj, so
# each step rebuilds only what the patch changed. Prints one TAP line per
# prefix; exits non-zero if any prefix fails to apply, build, boot or pass.
set -euo pipefail

src=$1 dir=$2 initrd=$3 fragments=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
jobs=${JOBS:-$(nproc)}
nice=${NICE:-nice -n 19}

rm -rf "$dir/src" "$dir/logs"
mkdir -p "$dir/obj" "$dir/logs"
cp -a --reflink=auto "$src" "$dir/src"
rm -f "$dir/src/.knotif-source"

echo "TAP version 13"
echo "1..$#"
n=0 fail=0 applied=
for p in "$@"; do
	n=$((n + 1))
	name=$(basename "$p" .patch)
	# the prefix's patches for the guest (knotif.patches): part/number, as
	# kernel/vm/selftest-needs.txt names the patch a test needs
	applied="${applied:+$applied,}$(basename "$(dirname "$p")")/${name%%-*}"
	log=$dir/logs/$n-build.log
	if ! patch -d "$dir/src" -p1 --batch --forward --quiet < "$p" > "$log" 2>&1; then
		echo "not ok $n - $name: does not apply (see $log)"
		fail=1
		break
	fi
	{
		make -s -C "$dir/src" O="$dir/obj" tinyconfig
		(cd "$dir/src" && KCONFIG_CONFIG="$dir/obj/.config" \
			./scripts/kconfig/merge_config.sh -m -O "$dir/obj" "$dir/obj/.config" $fragments)
		make -s -C "$dir/src" O="$dir/obj" olddefconfig
	} >> "$log" 2>&1
	# W=1 for the objects a patch touches: new code must not add warnings
	touched=$(sed -n 's|^+++ b/\(.*\)\.c$|\1.o|p' "$p" | grep -v '^tools/' || true)
	t0=$(date +%s)
	if ! $nice make -C "$dir/src" O="$dir/obj" -j"$jobs" CC="ccache gcc" bzImage >> "$log" 2>&1 ||
	   { [ -n "$touched" ] && ! $nice make -C "$dir/src" O="$dir/obj" -j"$jobs" CC="ccache gcc" W=1 $touched >> "$log" 2>&1; }; then
		echo "not ok $n - $name: build failed (see $log)"
		fail=1
		break
	fi
	warnings=$(grep -E '^[^ ]+:[0-9]+:([0-9]+:)? (warning|error):' "$log" || true)
	if [ -n "$warnings" ]; then
		echo "not ok $n - $name: build warnings"
		echo "$warnings" | sed 's/^/# /' | head -20
		fail=1
		continue
	fi
	build_s=$(( $(date +%s) - t0 ))
	if VM_TIMEOUT=${VM_TIMEOUT:-900} VM_APPEND="knotif.patches=$applied" "$here/vm-run.sh" test "$dir/obj/arch/x86/boot/bzImage" "$initrd" \
		"$dir/logs/$n-vm" "prefix $n: $name" /dev/null > "$dir/logs/$n-vm.txt" 2>&1; then
		summary=$(grep -E '^  VM      test:' "$dir/logs/$n-vm.txt" | tail -1 | sed 's/^ *VM *test: //')
		echo "ok $n - $name: builds (${build_s}s), boots, $summary"
	else
		echo "not ok $n - $name: boot or tests failed (see $dir/logs/$n-vm.txt)"
		grep -E '^not ok' "$dir/logs/$n-vm.txt" | sed 's/^/# /' | head -20
		fail=1
	fi
done
exit $fail
