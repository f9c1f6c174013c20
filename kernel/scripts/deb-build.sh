#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deb-build.sh DEBIAN_CONFIG PATCHED_SRC DIR LSMOD [FRAGMENT...]
# deb-build.sh --check LSMOD
#
# The patched kernel as Debian packages for one machine (make -f
# Makefile.kernel deb LSMOD=FILE): Debian's own config trimmed by the
# kernel's localmodconfig to the modules LSMOD lists (the output of lsmod on
# that machine), as kernel developers build for one machine, then bindeb-pkg.
# The .debs land in DIR. --check only checks LSMOD (before anything is
# patched or built). Changes to Debian's config, and why (debian-config.sh
# --modules makes the first three, as for vm-bench KCONFIG=debian):
#  - SYSTEM_TRUSTED_KEYS and SYSTEM_REVOCATION_KEYS empty: Debian's
#    certificate files are not in linux-source.
#  - DEBUG_INFO_NONE: no -dbg package (a third of the build time).
#  - the FRAGMENTs (the series' own options).
#  - MODULE_SIG off: Debian signs with its own key, which linux-source does
#    not carry; an unsigned kernel boots where Secure Boot is off (or is
#    signed with the machine owner's key, mokutil).
#  - localmodconfig: only the machine's modules (Debian's 4,051 would take
#    hours here); everything Debian builds in stays built in.
#  - LOCALVERSION -knotif: the package does not claim Debian's version.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
check=0
[ "${1:-}" = --check ] && [ $# -eq 2 ] && { check=1; set -- - - - "$2"; }
[ $# -ge 4 ] || { echo "usage: $0 DEBIAN_CONFIG PATCHED_SRC DIR LSMOD [FRAGMENT...] | --check LSMOD" >&2; exit 2; }
debconf=$1 psrc=$2 dir=$3 lsmod=$4
shift 4
[ -f "$lsmod" ] && [ -r "$lsmod" ] || { echo "deb: cannot read LSMOD=$lsmod" >&2; exit 2; }
# lsmod's own format: a "Module Size Used by" header, then NAME SIZE COUNT [USERS]
awk 'NR == 1 { ok = ($1 == "Module" && $2 == "Size"); next }
     NF < 3 || $2 !~ /^[0-9]+$/ || $3 !~ /^-?[0-9]+$/ { ok = 0 }
     END { exit !(ok && NR > 1) }' "$lsmod" ||
	{ echo "deb: $lsmod is not lsmod's output (a 'Module Size Used by' header, then one module a line)" >&2; exit 2; }
[ $check = 0 ] || exit 0
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
fragment=$dir/deb.config
printf '%s\n' '# CONFIG_MODULE_SIG is not set' '# CONFIG_MODULE_SIG_ALL is not set' \
	'CONFIG_LOCALVERSION="-knotif"' > "$fragment"
"$here/debian-config.sh" --modules "$debconf" "$src" "$obj" "$@" "$fragment"
# localmodconfig asks about options it cannot settle: take each default
# (not `yes '' | make`: yes dies of SIGPIPE when make is done, and pipefail fails that)
make -s -C "$src" O="$obj" LSMOD="$(realpath "$lsmod")" localmodconfig < <(yes '') >"$obj/localmodconfig.log" 2>&1 ||
	{ echo "deb: localmodconfig failed; see $obj/localmodconfig.log" >&2; exit 1; }
make -s -C "$src" O="$obj" olddefconfig >/dev/null
echo "  CONFIG  $obj/.config: Debian's $(basename "$debconf") for $(($(wc -l < "$lsmod") - 1)) modules:" \
	"$(grep -cE '=y$' "$obj/.config") built in, $(grep -cE '=m$' "$obj/.config") modules"
rm -f "$dir"/*.deb "$dir"/*.buildinfo "$dir"/*.changes
t0=$(date +%s)
nice -n 19 make -s -C "$src" O="$obj" -j"${JOBS:-$(nproc)}" CC="ccache gcc" \
	KDEB_PKGVERSION="$(make -s -C "$src" kernelversion)-knotif1" bindeb-pkg >"$obj/bindeb-pkg.log" 2>&1 ||
	{ tail -20 "$obj/bindeb-pkg.log" >&2; echo "deb: bindeb-pkg failed; see $obj/bindeb-pkg.log" >&2; exit 1; }
debs=$(cd "$dir" && ls ./*.deb 2>/dev/null | tr '\n' ' ' || true)
[ -n "$debs" ] || { echo "deb: bindeb-pkg wrote no package; see $obj/bindeb-pkg.log" >&2; exit 1; }
echo "  DEB     ${debs}in $(( $(date +%s) - t0 )) s"
