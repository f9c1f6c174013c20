#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The Debian package (cmake/package.cmake): built by cpack from this build
# into a scratch folder; its control says knotif and depends on what the
# tools run with, never on what builds them; lintian finds no error; its
# files are the install rules' (every tool in /usr/bin, man pages,
# completions, copyright, changelog); unpacked, its tools run from its own
# /usr/bin. (apt-get install of it changes the machine: not done here; the
# README's install line does it.) Usage: deb_package.sh BUILD_DIR
set -u
. "$(dirname "$0")/testlib.sh"
build=$1
for tool in cpack dpkg-deb lintian; do
	need "$tool"
done
cpack -G DEB --config "$build/CPackConfig.cmake" -B "$TEST_TMP/pkg" >"$TEST_TMP/cpack.log" 2>&1 ||
	fail "cpack: $(tail -3 "$TEST_TMP/cpack.log")"
deb=$(ls "$TEST_TMP"/pkg/knotif_*_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || fail "cpack made no knotif_*.deb: $(ls "$TEST_TMP/pkg")"

expect() {	# WHAT GOT WANT
	[ "$2" = "$3" ] || soft_fail "$1: '$2', want '$3'"
}
expect "Package" "$(dpkg-deb -f "$deb" Package)" knotif
depends=$(dpkg-deb -f "$deb" Depends)
for dep in python3 python3-numpy python3-matplotlib libjansson4 libcap2 libxml2 libsqlite3-0; do
	case ", $depends," in *", $dep"[\ ,]*) ;; *) soft_fail "Depends lacks $dep: $depends" ;; esac
done
for build_tool in cmake gcc clang bpftool pkg-config help2man '-dev'; do
	case $depends in *"$build_tool"*) soft_fail "Depends names a build tool ($build_tool): $depends" ;; esac
done

lintian --tag-display-limit 0 "$deb" >"$TEST_TMP/lintian" 2>&1
grep '^E: ' "$TEST_TMP/lintian" && soft_fail "lintian reports errors (above)"
grep '^W: ' "$TEST_TMP/lintian" | sed 's/^/lintian: /'

root=$TEST_TMP/root
dpkg-deb -x "$deb" "$root" || fail "dpkg-deb -x"
for tool in knotif-bench knotif-stress knotif-run knotif-compare knotif-history knotif-report knotif-ci-gate \
		knotif-compare-workloads knotif-workload-device-tree; do
	[ -x "$root/usr/bin/$tool" ] || soft_fail "/usr/bin/$tool is not in the package"
	[ -s "$root/usr/share/man/man1/$tool.1.gz" ] || [ ! -e "$build/man/$tool.1.gz" ] ||
		soft_fail "man page of $tool is not in the package"
	[ -s "$root/usr/share/bash-completion/completions/$tool" ] || soft_fail "completion of $tool is not in the package"
done
[ ! -e "$build/knotif-trace" ] || [ -x "$root/usr/bin/knotif-trace" ] || soft_fail "/usr/bin/knotif-trace is not in the package"
for f in copyright changelog.gz; do
	[ -s "$root/usr/share/doc/knotif/$f" ] || soft_fail "/usr/share/doc/knotif/$f missing"
done
out=$("$root/usr/bin/knotif-bench" --version 2>&1) || soft_fail "the packaged knotif-bench: $out"
"$root/usr/bin/knotif-bench" --benchmark_filter='^null/placement:same$' --placement=same --samples=200 \
	--benchmark_repetitions=2 --benchmark_out="$TEST_TMP/run.json" >/dev/null 2>&1 ||
	soft_fail "the packaged knotif-bench did not run"
"$root/usr/bin/knotif-report" "$TEST_TMP/run.json" -o "$TEST_TMP/run.html" >/dev/null 2>&1 ||
	soft_fail "the packaged knotif-report (its package under /usr/lib/python3/dist-packages) did not run"
finish
