#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# debian-image.sh PACKAGE CACHE_DIR [VERSION SHA256]
# Debian's own kernel image, as the archive ships it: apt-get download
# PACKAGE (apt checks it against the archive's signed index) into
# CACHE_DIR/PACKAGE once, unpack it, and print the path of its vmlinuz.
# With VERSION and SHA256 (kernel/debian-images.txt), exactly that version,
# and its .deb must have that sha256. A package or version the archive does
# not have is one line and exit 1.
set -euo pipefail
pkg=$1 cache=$2 version=${3:-} sha=${4:-}
# no version: the newest the archive has, named as a pinned one would be, so a
# pinned image and the same version taken as the newest share one copy
if [ -z "$version" ]; then
	version=$(apt-cache show "$pkg" 2>/dev/null | sed -n 's/^Version: //p' | sort -V | tail -1 || true)
fi
dir=$cache/$pkg${version:+_$version}
img=$(ls "$dir"/root/boot/vmlinuz-* 2>/dev/null | head -1 || true)
if [ -z "$img" ]; then
	want=$pkg${version:+=$version}
	# apt-cache show exits 0 for a version it does not have: look for the record
	# (not grep -q: its early exit is a SIGPIPE to apt-cache, and pipefail fails that)
	apt-cache show "$want" 2>/dev/null | grep '^Package:' >/dev/null || {
		echo "debian-image: $want is not in the archive (apt-get update; a pinned version the archive" \
			"dropped is updated in kernel/debian-images.txt)" >&2
		exit 1
	}
	rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
	# as root, apt's download sandbox user must be able to write here
	chmod 0777 "$dir.tmp"
	(cd "$dir.tmp" && apt-get download -q "$want" >/dev/null 2>&1) ||
		{ echo "debian-image: apt-get download $want failed" >&2; exit 1; }
	deb=$(ls "$dir.tmp"/*.deb)
	if [ -n "$sha" ] && [ "$(sha256sum <"$deb" | cut -d' ' -f1)" != "$sha" ]; then
		echo "debian-image: $want: sha256 is not the pinned $sha (kernel/debian-images.txt)" >&2
		exit 1
	fi
	dpkg-deb -x "$deb" "$dir.tmp/root"
	rm -f "$deb"
	rm -rf "$dir" && mv "$dir.tmp" "$dir"
	img=$(ls "$dir"/root/boot/vmlinuz-* | head -1)
fi
echo "$img"
