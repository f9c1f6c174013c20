#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# mkinitramfs.sh OUT.cpio.gz INIT [BINARY...] [TABLE.txt...]
# mkinitramfs.sh --overlay OUT.cpio.gz DIR
# Build the guest initramfs: busybox-static, the init script, static
# binaries (tests and benchmarks) under /knotif/bin, and the init's tables
# (*.txt: which selftest needs which kernel) under /knotif.
# With --overlay, an archive of what DIR holds, to go after the initramfs
# (the kernel unpacks concatenated archives in order: icount-gb.sh's program).
#
# One way to archive a tree, for both: newc, names sorted, --reproducible.
# The initramfs holds its "." (the guest's /); an overlay does not: the
# kernel applies a directory entry's mode and owner to a directory that
# exists (init/initramfs.c: mkdir fails, chown and chmod do not), so an
# overlay's "." would give the guest's / the overlay's mode and owner, and
# vm-gb's guest another / than every other target's.
set -eu

# archive DIR OUT [FIND-OPTION...]: DIR's tree as OUT, through temporaries of
# this writer's own (make targets run at once: vm-bench, bisect-build share
# the image); cpio writes a file first, so that its status counts (sh has no
# pipefail)
archive() {
	dir=$1 archive_out=$2
	shift 2
	if (cd "$dir" && find . "$@" -print0 | LC_ALL=C sort -z |
		cpio --null -o -H newc --quiet --reproducible) > "$archive_out.cpio.$$" &&
		gzip -1 -n < "$archive_out.cpio.$$" > "$archive_out.tmp.$$"; then
		rm -f "$archive_out.cpio.$$"
		mv "$archive_out.tmp.$$" "$archive_out"
	else
		rm -f "$archive_out.cpio.$$" "$archive_out.tmp.$$"
		echo "mkinitramfs: cannot archive $dir as $archive_out" >&2
		exit 1
	fi
}

if [ "${1:-}" = --overlay ]; then
	if [ $# != 3 ] || [ ! -d "$3" ]; then
		echo "mkinitramfs: --overlay OUT.cpio.gz DIR" >&2
		exit 2
	fi
	archive "$3" "$2" -mindepth 1
	exit 0
fi

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

archive "$root" "$out"
echo "  INITRD  $out ($(du -k "$out" | cut -f1) KiB: $(ls "$root/knotif/bin" | tr '\n' ' '))"
