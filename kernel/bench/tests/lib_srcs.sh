#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Makefile.kernel links the guest's kernel/bench programs with a list of lib/
# sources of its own (static, for the initramfs), where this build links
# libknotif whole: a lib/ file that a listed one comes to need (gbjson.c and
# gbbmf.c, once) breaks only the guest build. Each program is linked here
# with exactly that list, against the host's headers.
# Usage: lib_srcs.sh SOURCE_DIR GENERATED_DIR
set -u
. "$(dirname "$0")/../../../scripts/tests/testlib.sh"
src=$1 gen=$2
srcs=$(make -s -C "$src" -f Makefile.kernel lib-srcs) || fail "make -f Makefile.kernel lib-srcs failed"
[ -n "$srcs" ] || fail "Makefile.kernel lists no lib/ sources"
for prog in "$src"/kernel/bench/*.c; do
	# shellcheck disable=SC2086  # one word per source
	gcc -D_GNU_SOURCE -I"$src/lib" -I"$gen" -DKNOTIF_VERSION='"kernel-bench"' -DKNOTIF_BUILD_TYPE='"release"' \
		-o "$TEST_TMP/prog" "$prog" $srcs -ljansson -lm -lpthread 2>"$TEST_TMP/err" ||
		soft_fail "$(basename "$prog") does not link with Makefile.kernel's LIB_SRCS: $(grep -m3 -E 'undefined|error' "$TEST_TMP/err")"
done
finish
