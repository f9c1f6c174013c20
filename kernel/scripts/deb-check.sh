#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deb-check.sh DIR LSMOD INITRAMFS OUT PATCHES_TXT
#
# make deb's packages as a reviewer would use them (make -f Makefile.kernel
# deb-check): the linux-image package in DIR unpacked into a scratch root
# (dpkg -x, nothing installed on this machine); every module LSMOD lists is
# in it; its vmlinuz boots the project's initramfs under QEMU and passes
# vm-test's guest test set with nothing skipped (it is the patched kernel).
set -euo pipefail
[ $# -eq 5 ] || { echo "usage: $0 DIR LSMOD INITRAMFS OUT PATCHES_TXT" >&2; exit 2; }
dir=$1 lsmod=$2 initramfs=$3 out=$4 patches=$5
here=$(cd "$(dirname "$0")" && pwd)
deb=$(ls "$dir"/linux-image-*.deb 2>/dev/null | grep -v -- '-dbg_' | head -1 || true)
[ -n "$deb" ] || { echo "not ok - no linux-image package in $dir (make -f Makefile.kernel deb)"; exit 1; }
rm -rf "$out" && mkdir -p "$out"
dpkg-deb -x "$deb" "$out/root"
echo "ok - $(basename "$deb") unpacks ($(du -sm "$out/root" | cut -f1) MiB)"
fail=0
kver=$(ls "$out/root/lib/modules")
for m in $(awk 'NR > 1 { print $1 }' "$lsmod"); do
	alt=${m//_/-}
	if [ -z "$(find "$out/root/lib/modules/$kver" \( -name "$m.ko*" -o -name "$alt.ko*" \) | head -1)" ]; then
		echo "not ok - module $m (in $lsmod) is not in the package"
		fail=1
	fi
done
[ $fail = 1 ] || echo "ok - every module of $(basename "$lsmod") is in lib/modules/$kver"
img=$(ls "$out/root/boot/vmlinuz-"*)
VM_NO_SKIP=1 "$here/vm-run.sh" test "$img" "$initramfs" "$out/vm" "deb $(basename "$deb")" "$patches" || fail=1
exit $fail
