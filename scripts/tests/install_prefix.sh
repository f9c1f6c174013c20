#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cmake --install to a temporary prefix, then every installed tool run from
# outside the tree with the source and build trees hidden (a tmpfs over each
# in a mount namespace of the test's own): what works here works on a
# machine that has only the prefix. Usage: install_prefix.sh SOURCE_DIR BUILD_DIR
set -u
. "$(dirname "$0")/testlib.sh"
src=$(realpath "$1") build=$(realpath "$2")
[ "$(id -u)" = 0 ] || skip "needs root: the source and build trees are hidden in a mount namespace"
command -v unshare >/dev/null || skip "needs unshare (util-linux)"
case $TEST_TMP/ in "$src"/*|"$build"/*) skip "TMPDIR is inside the tree it hides" ;; esac

prefix=$TEST_TMP/prefix
cmake --install "$build" --prefix "$prefix" >"$TEST_TMP/install.log" 2>&1 ||
	fail "cmake --install: $(tail -3 "$TEST_TMP/install.log")"

# what runs with the trees hidden: standalone (testlib.sh is in the hidden tree)
cat >"$TEST_TMP/installed.sh" <<'INNER'
set -u
prefix=$1 src=$2 work=$3
export PATH=$prefix/bin:/usr/bin:/bin XDG_DATA_HOME=$work/data
bad=0
not_ok() { echo "not ok: $*"; bad=1; }
[ ! -e "$src/CMakeLists.txt" ] || { echo "not ok: the source tree is not hidden"; exit 1; }
cd "$work" || exit 1
row='^(null|pingpong/pipe|pingpong/futex|unotif/sync/emulate|ptrace-seccomp/emulate)/placement:same$'
knotif-bench --benchmark_filter="$row" --placement=same --samples=300 --benchmark_repetitions=5 \
	--benchmark_out=run.json --benchmark_format=bmf >run.bmf 2>err || not_ok "knotif-bench: $(tail -2 err)"
python3 -c 'import json,sys; d=json.load(open("run.bmf")); assert "null/placement:same" in d, d' ||
	not_ok "knotif-bench --benchmark_format=bmf"
out=$(knotif-bench compare run.json run.json 2>&1) || not_ok "knotif-bench compare: $out"
case $out in *"verdict: pass"*) ;; *) not_ok "knotif-bench compare said: $out" ;; esac
knotif-compare --junit=gate.xml run.json run.json >/dev/null 2>&1 || not_ok "knotif-compare --junit"
grep -q '<testsuites name="knotif-compare"' gate.xml || not_ok "no JUnit report"
knotif-report run.json -o run.html >/dev/null 2>err || not_ok "knotif-report: $(tail -2 err)"
grep -q '<svg' run.html 2>/dev/null || not_ok "knotif-report wrote no figure"
knotif-history record run.json --db history.sqlite >/dev/null 2>err || not_ok "knotif-history record: $(cat err)"
knotif-history list --db history.sqlite >list 2>err || not_ok "knotif-history list: $(cat err)"
knotif-run --quiet -- sh -c 'exit 7'
[ $? = 7 ] || not_ok "knotif-run did not pass its command's status on"
for tool in knotif-stress knotif-trace knotif-compare-workloads knotif-workload-device-tree knotif-ci-gate; do
	[ -x "$prefix/bin/$tool" ] || { [ "$tool" = knotif-trace ] && continue; not_ok "$tool not installed"; continue; }
	"$tool" --help >help 2>&1 || not_ok "$tool --help: $(tail -2 help)"
done
# the gate, installed: its tools beside it, the runner's baseline in its data folder
out=$(knotif-ci-gate --runs 1 --reps 3 --samples 300 2>&1)
[ $? = 2 ] && [ "$out" = "ci-gate: no baseline at $work/data/knotif/baseline/quick.json (make one with: knotif-ci-gate --update-baseline)" ] ||
	not_ok "knotif-ci-gate with no baseline: $out"
knotif-ci-gate --update-baseline --runs 1 --reps 5 --samples 300 >out 2>&1 || not_ok "knotif-ci-gate --update-baseline: $(tail -3 out)"
[ -s "$work/data/knotif/baseline/quick.json" ] || not_ok "no baseline written"
knotif-ci-gate --runs 1 --reps 5 --samples 300 --junit=ci.xml >out 2>&1
rc=$?
[ "$rc" != 2 ] || not_ok "knotif-ci-gate: unusable input: $(tail -3 out)"
grep -q '<testcase classname="unotif"' ci.xml || not_ok "knotif-ci-gate --junit wrote no report"
for f in knotif-phases.bt knotif-phases-tp.bt knotif-ptrace.bt knotif-phases_example.txt; do
	[ -s "$prefix/share/knotif/bpftrace/$f" ] || not_ok "bpftrace: $f not installed"
done
# man pages and completions (where help2man built them)
if [ -d "$prefix/share/man/man1" ]; then
	MANPATH=$prefix/share/man man -w knotif-bench >/dev/null 2>&1 || not_ok "man knotif-bench: not found in the prefix"
	MANPATH=$prefix/share/man MANWIDTH=80 man knotif-ci-gate 2>/dev/null | grep -q -- '--junit' ||
		not_ok "man knotif-ci-gate does not render its options"
fi
[ -s "$prefix/share/bash-completion/completions/knotif-run" ] || not_ok "no bash completion for knotif-run"
exit $bad
INNER

hide=("mount -t tmpfs knotif-hidden '$src'")
case $build/ in "$src"/*) ;; *) hide+=("mount -t tmpfs knotif-hidden '$build'") ;; esac
mkdir -p "$TEST_TMP/work"
unshare -m --propagation private sh -c "$(IFS=';'; echo "${hide[*]}") && exec bash '$TEST_TMP/installed.sh' '$prefix' '$src' '$TEST_TMP/work'" ||
	fail "an installed tool failed with the trees hidden (above)"
echo "ok: every installed tool works with no source or build tree"
