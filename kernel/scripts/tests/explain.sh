#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-explain's published answer is what its generator makes of the published
# runs: matrix-explain.py on results/kernel/matrix.json and results/kernel/profile
# writes results/kernel/matrix-explained.{md,json} and its summary byte for
# byte (nobody edited them by hand, and the generator still reads its inputs);
# and the tbcount plugin builds warning-free against its declared QEMU ABI.
set -euo pipefail
. "$(dirname "$0")/../../../scripts/tests/testlib.sh"
top=$1
res=$top/results/kernel
tmp=$TEST_TMP
/usr/bin/python3 "$top/kernel/scripts/matrix-explain.py" "$res/matrix.json" "$res/profile" \
	"$tmp/matrix-explained.md" "$tmp/matrix-explained.json" || fail "matrix-explain.py exited $?"
for f in matrix-explained.md matrix-explained.json matrix-explained-summary.md; do
	cmp -s "$tmp/$f" "$res/$f" || fail "results/kernel/$f is not what matrix-explain.py makes of the runs: $(diff "$res/$f" "$tmp/$f" | head -5)"
done
[ "$(ls "$res/profile" | wc -l)" -ge 4 ] || fail "results/kernel/profile holds $(ls "$res/profile" | wc -l) kernels"
gcc -shared -fPIC -fvisibility=hidden -O2 -Wall -Wextra -Werror -o "$tmp/tbcount.so" "$top/kernel/profile/tbcount.c" ||
	fail "the tbcount plugin does not build"
nm -D "$tmp/tbcount.so" | grep -qw qemu_plugin_install || fail "the plugin exports no qemu_plugin_install"
nm -D "$tmp/tbcount.so" | grep -qw qemu_plugin_version || fail "the plugin exports no qemu_plugin_version"
echo "ok: matrix-explained regenerates from the published runs; the tbcount plugin builds"
