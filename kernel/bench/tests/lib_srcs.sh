#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Makefile.kernel links the guest's kernel/bench programs (static, for the
# initramfs) with its own gcc line: every source of the lib/ parts that
# kernel/bench/CMakeLists.txt names, where this build links those parts'
# libraries. A part that comes to need one not named there breaks only the
# guest build; each program is linked here with exactly Makefile.kernel's
# parts and sources, against the host's headers.
# Usage: lib_srcs.sh SOURCE_DIR GENERATED_DIR
set -u
. "$(dirname "$0")/../../../scripts/tests/testlib.sh"
src=$1 gen=$2
out=$(make -s -C "$src" -f Makefile.kernel lib-srcs) || fail "make -f Makefile.kernel lib-srcs failed"
parts=$(sed -n 1p <<<"$out") srcs=$(sed -n 2p <<<"$out")
[ -n "$parts" ] || fail "Makefile.kernel finds no lib/ parts in kernel/bench/CMakeLists.txt"
[ -n "$srcs" ] || fail "Makefile.kernel lists no lib/ sources"
incs=()
for p in $parts; do
	[ -d "$src/lib/$p" ] || fail "Makefile.kernel's lib/ part $p is no folder of lib/"
	incs+=("-I$src/lib/$p")
done
for prog in "$src"/kernel/bench/*.c; do
	# shellcheck disable=SC2086  # one word per source
	gcc -D_GNU_SOURCE "${incs[@]}" -I"$gen" -DKNOTIF_VERSION='"kernel-bench"' -DKNOTIF_BUILD_TYPE='"release"' \
		-o "$TEST_TMP/prog" "$prog" $srcs -ljansson -lm -lpthread 2>"$TEST_TMP/err" ||
		soft_fail "$(basename "$prog") does not link with Makefile.kernel's LIB_SRCS: $(grep -m3 -E 'undefined|error' "$TEST_TMP/err")"
done
finish
