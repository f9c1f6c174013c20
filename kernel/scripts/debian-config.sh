#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# debian-config.sh [--modules] DEBIAN_CONFIG SRC OBJ [FRAGMENT...]
#
# Writes OBJ/.config: Debian's own kernel config (DEBIAN_CONFIG, e.g.
# /usr/src/linux-config-6.12/config.amd64_none_amd64.xz from linux-config-6.12)
# reduced to what Debian builds into the image, plus FRAGMENTs (the series'
# own options), for the tree SRC. Each change and why:
#
#  1. Every `=m` option is unset, before anything else. Switching MODULES off
#     alone does not drop them: Kconfig folds each `=m` into `=y` (6,656
#     built-in options, a build of many hours on two CPUs). What the packaged
#     image runs before it loads a module - all that the guest's initramfs
#     ever runs - is its built-in part: 1,724 options, 22 minutes cold here.
#  2. MODULES off: nothing would load them, and module signing needs Debian's
#     key, which the source package does not carry.
#  3. SYSTEM_TRUSTED_KEYS and SYSTEM_REVOCATION_KEYS empty: the certificate
#     files Debian names are not in linux-source.
#  4. DEBUG_INFO_NONE (and so no BTF): debug information does not change the
#     code that runs (Debian ships it apart, in the -dbg package) and it
#     doubles the build.
#  5. The FRAGMENTs, then olddefconfig for what the tree lacks or adds.
#
# It then says how many options are built in, and lists the input's built-in
# options that olddefconfig dropped because they depend on an unset module.
#
# --modules keeps Debian's modules and MODULES (steps 1 and 2 left out): the
# start of make deb's config (deb-build.sh), which localmodconfig trims next.
set -euo pipefail

modules=0
[ "${1:-}" = --modules ] && { modules=1; shift; }
[ $# -ge 3 ] || { echo "usage: $0 [--modules] DEBIAN_CONFIG SRC OBJ [FRAGMENT...]" >&2; exit 2; }
debconf=$1 src=$2 obj=$3
shift 3
[ -r "$debconf" ] || { echo "debian-config: cannot read $debconf (apt-get install linux-config-6.12)" >&2; exit 1; }
[ -f "$src/Makefile" ] || { echo "debian-config: $src is not a kernel tree" >&2; exit 1; }
mkdir -p "$obj"

case "$debconf" in
*.xz) xzcat "$debconf" ;;
*) cat "$debconf" ;;
esac > "$obj/.config.debian"

cfg() { "$src/scripts/config" --file "$obj/.config" "$@"; }
if [ $modules = 0 ]; then
	# 1. every =m unset, 2. MODULES off
	sed -E 's/^(CONFIG_[A-Za-z0-9_]+)=m$/# \1 is not set/' "$obj/.config.debian" > "$obj/.config"
	cfg --disable MODULES
else
	cp "$obj/.config.debian" "$obj/.config"
fi
# 3-4.
cfg --set-str SYSTEM_TRUSTED_KEYS "" --set-str SYSTEM_REVOCATION_KEYS "" \
	--disable DEBUG_INFO --disable DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT \
	--disable DEBUG_INFO_BTF --enable DEBUG_INFO_NONE
# 5.
for f in "$@"; do
	grep -E '^(CONFIG_|# CONFIG_)' "$f" >> "$obj/.config"
done
make -s -C "$src" O="$obj" olddefconfig >/dev/null
[ $modules = 0 ] || exit 0

builtin=$(grep -cE '^CONFIG_[A-Za-z0-9_]+=y$' "$obj/.config")
echo "  CONFIG  $obj/.config: Debian's $(basename "$debconf"), $builtin built-in options" \
	"($(grep -cE '=m$' "$obj/.config.debian") modules unset)"
# Debian's built-in options olddefconfig dropped: sub-options of what is now
# unset (NFS's, CIFS's, a library only modules select). Listed in a file,
# counted here; the options this script unsets on purpose are not among them.
grep -E '^CONFIG_[A-Za-z0-9_]+=y$' "$obj/.config.debian" | while read -r line; do
	opt=${line%%=*}
	grep -qx "$line" "$obj/.config" && continue
	case "$opt" in
	CONFIG_MODULE*|CONFIG_DEBUG_INFO*|CONFIG_PAHOLE_*|CONFIG_*_MODULES) continue ;;
	esac
	echo "$line"
done > "$obj/debian-config-dropped.txt"
echo "  CONFIG  $(wc -l < "$obj/debian-config-dropped.txt") of Debian's built-in options depend on an unset module" \
	"(listed in $obj/debian-config-dropped.txt)"
