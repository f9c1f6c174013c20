# SPDX-License-Identifier: GPL-2.0
# A result file whose strings are hostile, and what a terminal must never
# get from it; sourced by the tests of every tool that prints result files
# (gate-hostile-names.sh, history's hostile-names.sh) after testlib.sh: a
# check that does not hold is a soft_fail, counted in $fails; each one is
# counted in $checks (testlib.sh's check).
#   hostile_run IN OUT [HOST]  # OUT: IN (a real run) with three benchmarks renamed
#                              # to $EVIL, $LONG1 and $LONG2, host HOST (default
#                              # $EVIL_HOST), kernel and git sha with controls in them
#   terminal_safe LABEL FILE   # no raw ESC, BEL or U+202E in FILE, no line over
#                              # $LINE_MAX bytes
#   json_names LABEL NAMES...  # each name stands whole in the JSON on stdin

# an escape sequence, a bell, and RIGHT-TO-LEFT OVERRIDE turning "evil" around
EVIL=$(printf 'unotif\033[2J\a/\342\200\256evil/placement:same')
# two 10,000-character names that differ in the middle alone: an elided
# table must still tell them apart
LONG1=$(printf 'L%05000dA%05000d/placement:same' 0 0)
LONG2=$(printf 'L%05000dB%05000d/placement:same' 0 0)
EVIL_HOST=$(printf 'vm\033]0;owned\a')
# a table row of today is ~250 bytes (a 90-column name, 11 figures); 10,000 is the bug
LINE_MAX=400

hostile_run() {
	jq --arg evil "$EVIL" --arg long1 "$LONG1" --arg long2 "$LONG2" --arg host "${3:-$EVIL_HOST}" \
		--arg kernel "$(printf '6.18\342\200\256\033[31m')" --arg sha "$(printf 'abc\a\342\201\246')" '
		def rename($from; $to):
			if .run_name == $from then .name = $to + (.name | ltrimstr($from)) | .run_name = $to
			else . end;
		.context.host_name = $host | .context.knotif.kernel_release = $kernel |
		.context.knotif.git_sha = $sha |
		.benchmarks |= map(rename("unotif/sync/emulate/placement:same"; $evil) |
			rename("ptrace-seccomp/emulate/placement:same"; $long1) |
			rename("null/placement:same"; $long2))' "$1" >"$2"
}

absent() { ! LC_ALL=C grep -q "$1" "$2"; }	# BYTES FILE: FILE does not hold BYTES

terminal_safe() {
	local label=$1 file=$2 long
	check "$label: a raw ESC reached the output" absent $'\033' "$file"
	check "$label: a raw BEL reached the output" absent $'\a' "$file"
	check "$label: a raw U+202E reached the output" absent $'\xe2\x80\xae' "$file"
	long=$(LC_ALL=C awk -v max="$LINE_MAX" 'length($0) > max { n++ } END { print n + 0 }' "$file")
	check "$label: $long lines longer than $LINE_MAX bytes" [ "$long" = 0 ]
}

json_names() {
	local label=$1 names n
	shift
	names=$(jq -r '.. | objects | .name? // empty | strings' | sort -u)
	for n in "$@"; do
		check "$label: the JSON lost the whole name $(printf %q "${n:0:40}")…" grep -qxF -- "$n" <<<"$names"
	done
}
