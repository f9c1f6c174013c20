#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# mkinitramfs.sh OUT.cpio.gz INIT [BINARY...] [TABLE.txt...]
# Build the guest initramfs: busybox-static, the init script, static
# binaries (tests and benchmarks) under /knotif/bin, and the init's tables
# (*.txt: which selftest needs which kernel) under /knotif.
set -eu

out=$1
init=$2
shift 2

busybox=${BUSYBOX:-/bin/busybox}
if ! file -L "$busybox" 2>/dev/null | grep -q 'statically linked'; then
	if ! ldd "$busybox" 2>&1 | grep -q 'not a dynamic'; then
		echo "mkinitramfs: $busybox is not static (install busybox-static)" >&2
		exit 1
	fi
fi

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT

mkdir -p "$root/bin" "$root/sbin" "$root/proc" "$root/sys" "$root/dev" \
	"$root/tmp" "$root/knotif/bin" "$root/usr/bin" "$root/usr/sbin"
cp "$busybox" "$root/bin/busybox"
for app in $("$busybox" --list-full); do
	[ -e "$root/$app" ] || ln -s /bin/busybox "$root/$app"
done
cp "$init" "$root/init"
chmod 755 "$root/init"

for b in "$@"; do
	# an empty file stands for "not built" (e.g. a series without tests)
	[ -s "$b" ] || continue
	case $b in
	*.txt) cp "$b" "$root/knotif/" ;;
	*) cp "$b" "$root/knotif/bin/" ;;
	esac
done

(cd "$root" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc --quiet --reproducible) | gzip -1 > "$out.tmp.$$"
mv "$out.tmp.$$" "$out"	# one temporary per writer: make targets run at once (vm-bench, bisect-build) share the image
echo "  INITRD  $out ($(du -k "$out" | cut -f1) KiB: $(ls "$root/knotif/bin" | tr '\n' ' '))"
