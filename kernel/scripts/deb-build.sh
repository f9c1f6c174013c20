#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deb-build.sh DEBIAN_CONFIG PATCHED_SRC DIR LSMOD [FRAGMENT...]
#
# The patched kernel as Debian packages for one machine (make -f
# Makefile.kernel deb LSMOD=FILE): Debian's own config trimmed by the
# kernel's localmodconfig to the modules LSMOD lists (the output of lsmod on
# that machine), as kernel developers build for one machine, then bindeb-pkg.
# The .debs land in DIR. Changes to Debian's config, and why:
#  - localmodconfig: only the machine's modules (Debian's 4,051 would take
#    hours here); everything Debian builds in stays built in.
#  - MODULE_SIG off: Debian signs with its own key, which linux-source does
#    not carry; an unsigned kernel boots where Secure Boot is off (or is
#    signed with the machine owner's key, mokutil).
#  - SYSTEM_TRUSTED_KEYS and SYSTEM_REVOCATION_KEYS empty: Debian's
#    certificate files are not in linux-source.
#  - DEBUG_INFO_NONE: no -dbg package (a third of the build time).
#  - LOCALVERSION -knotif: the package does not claim Debian's version.
#  - the FRAGMENTs (the series' own options).
set -euo pipefail
[ $# -ge 4 ] || { echo "usage: $0 DEBIAN_CONFIG PATCHED_SRC DIR LSMOD [FRAGMENT...]" >&2; exit 2; }
debconf=$1 psrc=$2 dir=$3 lsmod=$4
shift 4
[ -f "$lsmod" ] && [ -r "$lsmod" ] || { echo "deb: cannot read LSMOD=$lsmod" >&2; exit 2; }
# lsmod's own format: a "Module Size Used by" header, then NAME SIZE COUNT [USERS]
awk 'NR == 1 { ok = ($1 == "Module" && $2 == "Size"); next }
     NF < 3 || $2 !~ /^[0-9]+$/ || $3 !~ /^-?[0-9]+$/ { ok = 0 }
     END { exit !(ok && NR > 1) }' "$lsmod" ||
	{ echo "deb: $lsmod is not lsmod's output (a 'Module Size Used by' header, then one module a line)" >&2; exit 2; }
[ -r "$debconf" ] || { echo "deb: cannot read $debconf (apt-get install linux-config-6.12)" >&2; exit 1; }

src=$dir/src obj=$dir/obj
mkdir -p "$dir"
if [ ! -f "$src/.knotif-deb-source" ]; then
	rm -rf "$src" "$src.tmp"
	cp -a --reflink=auto "$psrc" "$src.tmp"
	rm -f "$src.tmp/.knotif-source" "$src.tmp/.knotif-patched"
	touch "$src.tmp/.knotif-deb-source"
	mv "$src.tmp" "$src"
fi
mkdir -p "$obj"
xzcat -f "$debconf" > "$obj/.config"
cfg() { "$src/scripts/config" --file "$obj/.config" "$@"; }
cfg --disable MODULE_SIG --disable MODULE_SIG_ALL \
	--set-str SYSTEM_TRUSTED_KEYS "" --set-str SYSTEM_REVOCATION_KEYS "" \
	--disable DEBUG_INFO --disable DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT \
	--disable DEBUG_INFO_BTF --enable DEBUG_INFO_NONE \
	--set-str LOCALVERSION "-knotif"
for f in "$@"; do
	grep -E '^(CONFIG_|# CONFIG_)' "$f" >> "$obj/.config"
done
make -s -C "$src" O="$obj" olddefconfig >/dev/null
# localmodconfig asks about options it cannot settle: take each default
yes '' | make -s -C "$src" O="$obj" LSMOD="$(realpath "$lsmod")" localmodconfig >"$obj/localmodconfig.log" 2>&1 ||
	{ echo "deb: localmodconfig failed; see $obj/localmodconfig.log" >&2; exit 1; }
make -s -C "$src" O="$obj" olddefconfig >/dev/null
echo "  CONFIG  $obj/.config: Debian's $(basename "$debconf") for $(($(wc -l < "$lsmod") - 1)) modules:" \
	"$(grep -cE '=y$' "$obj/.config") built in, $(grep -cE '=m$' "$obj/.config") modules"
rm -f "$dir"/*.deb "$dir"/*.buildinfo "$dir"/*.changes
t0=$(date +%s)
nice -n 19 make -s -C "$src" O="$obj" -j"${JOBS:-$(nproc)}" CC="ccache gcc" \
	KDEB_PKGVERSION="$(make -s -C "$src" kernelversion)-knotif1" bindeb-pkg >"$obj/bindeb-pkg.log" 2>&1 ||
	{ tail -20 "$obj/bindeb-pkg.log" >&2; echo "deb: bindeb-pkg failed; see $obj/bindeb-pkg.log" >&2; exit 1; }
echo "  DEB     $(cd "$dir" && ls ./*.deb | tr '\n' ' ')in $(( $(date +%s) - t0 )) s"
