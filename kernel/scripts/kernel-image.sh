#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel-image.sh KERNEL CACHE_DIR [--check]
#
# The kernel a user names, as a bzImage path on stdout: a name of
# kernel/debian-images.txt (that pinned image, downloaded once into
# CACHE_DIR by debian-image.sh), a Debian package linux-image-...-unsigned
# (the newest version the archive has), or a file. With --check, only say
# whether KERNEL is one of those (nothing is downloaded). A name that is none
# of them is one line and exit 2.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
list=$here/../debian-images.txt
kernel=$1 cache=$2 check=${3:-}
pinned=$(awk -v n="$kernel" '!/^#/ && $1 == n { print $2, $3, $4 }' "$list")
if [ -n "$pinned" ]; then
	read -r pkg ver sha <<<"$pinned"
elif [[ "$kernel" == linux-image-* ]]; then
	pkg=$kernel ver= sha=
elif [ -f "$kernel" ]; then
	[ -n "$check" ] || echo "$kernel"
	exit 0
else
	echo "--kernel=$kernel: not a name of kernel/debian-images.txt ($(awk '!/^#/ && NF { printf "%s%s", n++ ? " " : "", $1 }' \
		"$list")), a linux-image-* package or a file" >&2
	exit 2
fi
if [ -n "$check" ]; then
	# a package the archive does not have fails here, before anything is built
	if [ -z "$ver" ] && command -v apt-cache >/dev/null &&
		! apt-cache show "$pkg" 2>/dev/null | grep '^Package:' >/dev/null; then
		echo "--kernel=$kernel: no such package in the archive (apt-get update)" >&2
		exit 2
	fi
	exit 0
fi
# shellcheck disable=SC2086  # no version: the newest
"$here/debian-image.sh" "$pkg" "$cache" $ver $sha
