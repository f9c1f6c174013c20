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
# A kernel is one line of kernel/debian-images.txt: a line added is a kernel
# vm-explain profiles (EXPLAIN yes) and vm-matrix boots; taken out, it is gone.
images=$top/kernel/debian-images.txt
kernels() { /usr/bin/python3 "$top/kernel/scripts/matrix-explain.py" --images="$1" --kernels; }
matrix_names() { grep -v '^#' "$1" | while read -r name _; do [ -z "$name" ] || echo "$name"; done; }
before=$(kernels "$images") || fail "matrix-explain.py --kernels exited $?"
{ cat "$images"
  echo "debian-6.1-rt     linux-image-6.1.0-57-rt-amd64-unsigned  6.1.192-3  d1d2bdd62a0b6d33cbdbc318a89479b2d143780c2ab3d5d942eaa03d09410d88  yes"
} >"$tmp/added.txt"
[ "$(kernels "$tmp/added.txt")" = "$before debian-6.1-rt" ] ||
	fail "a kernel added to debian-images.txt is not profiled: $(kernels "$tmp/added.txt")"
matrix_names "$tmp/added.txt" | grep -qx debian-6.1-rt || fail "vm-matrix's loop does not see the added kernel"
grep -v '^debian-6.12-rt ' "$images" >"$tmp/removed.txt"
[ "$(kernels "$tmp/removed.txt")" = "$(tr ' ' '\n' <<<"$before" | grep -vx debian-6.12-rt | xargs)" ] ||
	fail "a kernel taken out of debian-images.txt is still profiled: $(kernels "$tmp/removed.txt")"
grep -q 'read -r name pkg ver _' "$top/Makefile.kernel" || fail "vm-matrix no longer reads debian-images.txt as this test does"
echo "ok: matrix-explained regenerates from the published runs; the tbcount plugin builds; a kernel is one line"
