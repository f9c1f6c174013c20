# SPDX-License-Identifier: GPL-2.0
# scripts/as-new-machine (CI's first step) hides what earlier runs left: in its
# command /var/cache/knotif does not exist, $HOME, /tmp and /var/tmp are empty
# (a file put in each here is not seen), KNOTIF_*, CCACHE_* and XDG_* are
# unset, the command runs in a clone of HEAD; a failed command is exit 1, bad
# usage exit 2; and nothing it made is left in /var/lib.
set -uo pipefail
. "$(dirname "$0")/testlib.sh"
top=$1
anm=$top/scripts/as-new-machine
[ "$(id -u)" = 0 ] || skip "needs root (a private mount namespace)"
git -C "$top" rev-parse --git-dir >/dev/null 2>&1 || skip "$top is not a git checkout (as-new-machine clones HEAD)"
unshare -m true 2>/dev/null || skip "unshare -m refused here"

# what an earlier run leaves, where the command must not see it
mkdir -p "$HOME" && marker=knotif-anm-$$ || fail "no HOME"
touch "$TEST_TMP/$marker" "$HOME/$marker" "/var/tmp/$marker"
on_exit 'rm -f "$HOME/$marker" "/var/tmp/$marker"'
before=$(ls -d /var/lib/knotif-new-machine.* 2>/dev/null | sort)
probe='test ! -e /var/cache/knotif || { echo "sees /var/cache/knotif"; exit 1; }
for d in "$HOME" /tmp /var/tmp; do [ -z "$(ls -A "$d")" ] || { echo "sees files in $d: $(ls -A "$d")"; exit 1; }; done
[ -z "$(env | grep -E "^(KNOTIF|CCACHE|XDG)_")" ] || { echo "sees $(env | grep -E "^(KNOTIF|CCACHE|XDG)_")"; exit 1; }
[ "$(git rev-parse HEAD)" = "$WANT_HEAD" ] || { echo "not a clone of HEAD"; exit 1; }
test -d /var/cache/apt || { echo "apt cache hidden too"; exit 1; }'
rc=0
out=$(WANT_HEAD=$(git -C "$top" rev-parse HEAD) KNOTIF_CACHE=/x CCACHE_DIR=/y XDG_DATA_HOME=/z \
	TMPDIR=/tmp "$anm" -- "$probe" 2>&1) || rc=$?
check "the hidden state was seen (exit $rc): $out" [ $rc = 0 ]

rc=0
out=$("$anm" -- 'exit 3' 2>&1) || rc=$?
check "a failed command: exit $rc, want 1: $out" [ $rc = 1 ]
rc=0
out=$("$anm" --bogus 2>&1) || rc=$?
check "--bogus: exit $rc, want 2" [ $rc = 2 ]
check "--bogus: not one line: $out" [ "$(printf '%s\n' "$out" | wc -l)" = 1 ]
after=$(ls -d /var/lib/knotif-new-machine.* 2>/dev/null | sort)
check "left behind in /var/lib: $(comm -13 <(echo "$before") <(echo "$after"))" [ "$before" = "$after" ]
finish
