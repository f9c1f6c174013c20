#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# debian-image.sh PACKAGE CACHE_DIR
# Debian's own kernel image, as the archive ships it: apt-get download
# PACKAGE (apt checks it against the archive's signed index) into
# CACHE_DIR/PACKAGE once, unpack it, and print the path of its vmlinuz. A
# package the archive does not have is one line and exit 1.
set -euo pipefail
pkg=$1 cache=$2
dir=$cache/$pkg
img=$(ls "$dir"/root/boot/vmlinuz-* 2>/dev/null | head -1 || true)
if [ -z "$img" ]; then
	apt-cache show "$pkg" >/dev/null 2>&1 ||
		{ echo "debian-image: $pkg is not in the archive (apt-get update, or another version)" >&2; exit 1; }
	rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
	# as root, apt's download sandbox user must be able to write here
	chmod 0777 "$dir.tmp"
	(cd "$dir.tmp" && apt-get download -q "$pkg" >/dev/null) ||
		{ echo "debian-image: apt-get download $pkg failed" >&2; exit 1; }
	dpkg-deb -x "$dir.tmp"/*.deb "$dir.tmp/root"
	rm -f "$dir.tmp"/*.deb
	rm -rf "$dir" && mv "$dir.tmp" "$dir"
	img=$(ls "$dir"/root/boot/vmlinuz-* | head -1)
fi
echo "$img"
