#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# knotif-history: two real runs recorded, their system facts stored as
# columns, baselines last:1 / last:2 (pooled) / id:N / a name selected
# exactly, the default path under XDG_DATA_HOME, and every unusable input
# (bad db path, bad JSON, a baseline the history lacks, a taken name, a
# file that is not SQLite, a newer schema) exiting 2 with one line.
# Usage: history.sh KNOTIF_HISTORY KNOTIF_COMPARE RUN_A RUN_B   Exit 0/1/77.
set -uo pipefail
hist=$1 cmp=$2 a=$3 b=$4
command -v jq >/dev/null || { echo "skip: jq not installed"; exit 77; }
command -v sqlite3 >/dev/null || { echo "skip: sqlite3 (the CLI) not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db=$tmp/h.sqlite
fails=0 checks=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
expect() {	# LABEL WANT GOT
	checks=$((checks + 1))
	[ "$2" = "$3" ] || fail "$1: got '$3', expected '$2'"
}
run() {		# LABEL WANT_RC ARGS...
	local label=$1 want=$2 rc
	shift 2
	checks=$((checks + 1))
	"$hist" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" = "$want" ] || { fail "$label: exit $rc, expected $want"; cat "$tmp/out" "$tmp/err"; }
}
one_line_exit2() {	# LABEL ARGS...
	local label=$1
	shift
	run "$label" 2 "$@"
	expect "$label: stderr lines" 1 "$(wc -l <"$tmp/err")"
}
q() { sqlite3 "$db" "$1"; }
iterations() { jq '[.benchmarks[] | select(.run_type == "iteration" and (.error_occurred | not))] | length' "$1"; }

# record two runs, the second named
run "record a" 0 record "$a" --db "$db"
grep -q '^recorded run #1: 5 benchmarks' "$tmp/out" || fail "record a: message: $(cat "$tmp/out")"
run "record b --name good" 0 record --db "$db" --name good "$b"
grep -q "^recorded run #2 'good'" "$tmp/out" || fail "record b: message"

# the schema is versioned; each run keeps its system facts
expect "schema version" 1 "$(q "SELECT value FROM meta WHERE key = 'schema_version'")"
expect "runs" 2 "$(q 'SELECT count(*) FROM runs')"
for f in "git_sha git_sha" "kernel_release kernel_release" "cpu_model cpu_model" "syscall syscall"; do
	set -- $f
	expect "run 2 $1" "$(jq -r ".context.knotif.$2" "$b")" "$(q "SELECT $1 FROM runs WHERE id = 2")"
done
expect "run 2 host" "$(jq -r .context.host_name "$b")" "$(q 'SELECT host FROM runs WHERE id = 2')"
expect "run 2 placements" "$(jq -c .context.knotif.placements "$b")" \
	"$(q 'SELECT placements FROM runs WHERE id = 2' | jq -c .)"
expect "run 2 command line" "$(jq -c .context.knotif.command_line "$b")" \
	"$(q 'SELECT command_line FROM runs WHERE id = 2' | jq -c .)"
expect "run 2 config" "$(jq -c .context.knotif "$b")" "$(q 'SELECT config FROM runs WHERE id = 2' | jq -c .)"
expect "run 2 name" good "$(q 'SELECT name FROM runs WHERE id = 2')"
expect "run 1 results rows" "$(iterations "$a")" "$(q 'SELECT count(*) FROM results WHERE run_id = 1')"
expect "run 1 a p50" "$(jq '[.benchmarks[] | select(.run_type == "iteration")][0].p50' "$a")" \
	"$(q 'SELECT p50 FROM results WHERE run_id = 1 ORDER BY rowid LIMIT 1' | jq .)"

run "list" 0 list --db "$db"
expect "list rows" 4 "$(wc -l <"$tmp/out")"	# header, rule, 2 runs
grep -qE '^ *2 .* good ' "$tmp/out" || fail "list: run 2 not named"
run "show good" 0 show good --db "$db"
grep -q '^run #2$' "$tmp/out" || fail "show good: not run #2"
grep -qE '^unotif/sync/emulate/placement:same +9 ' "$tmp/out" || fail "show: no unotif row with 9 reps"

# baselines: last:1 is run b, last:2 pools both, a name and an id select one
run "baseline last:1" 0 baseline --baseline last:1 --db "$db" -o "$tmp/last1.json"
expect "last:1 iterations" "$(iterations "$b")" "$(iterations "$tmp/last1.json")"
expect "last:1 runs" "[2]" "$(jq -c '[.context.knotif.baseline.runs[].id]' "$tmp/last1.json")"
expect "last:1 = b's rows" "$(jq -c '[.benchmarks[] | select(.run_type == "iteration") | .p50]' "$b")" \
	"$(jq -c '[.benchmarks[] | select(.run_type == "iteration") | .p50]' "$tmp/last1.json")"
expect "last:1 aggregates = b's" "$(jq -c '[.benchmarks[] | select(.run_type == "aggregate") | [.name, .p50]]' "$b")" \
	"$(jq -c '[.benchmarks[] | select(.run_type == "aggregate") | [.name, .p50]]' "$tmp/last1.json")"
run "baseline last:2" 0 baseline --db "$db" --baseline last:2
cp "$tmp/out" "$tmp/last2.json"
expect "last:2 iterations" "$(( $(iterations "$a") + $(iterations "$b") ))" "$(iterations "$tmp/last2.json")"
expect "last:2 runs" "[1,2]" "$(jq -c '[.context.knotif.baseline.runs[].id]' "$tmp/last2.json")"
expect "last:2 unotif reps" "$(seq 0 17 | jq -sc .)" \
	"$(jq -c '[.benchmarks[] | select(.name == "unotif/sync/emulate/placement:same") | .repetition_index]' "$tmp/last2.json")"
expect "last:2 repetitions" "[18]" "$(jq -c '[.benchmarks[] | .repetitions] | unique' "$tmp/last2.json")"
expect "last:2 aggregates recomputed" 20 "$(jq '[.benchmarks[] | select(.run_type == "aggregate")] | length' "$tmp/last2.json")"
expect "last:2 median p50 over 18 repetitions" \
	"$(jq -s '[.[].benchmarks[] | select(.run_type == "iteration" and .name == "unotif/sync/emulate/placement:same") | .p50] | sort | (.[8] + .[9]) / 2' "$a" "$b")" \
	"$(jq '.benchmarks[] | select(.name == "unotif/sync/emulate/placement:same_median") | .p50' "$tmp/last2.json")"
expect "last:2 context is the newest run's" "$(jq -r .context.date "$b")" "$(jq -r .context.date "$tmp/last2.json")"
run "baseline good" 0 baseline good --db "$db"
expect "named = b" "$(jq -c '[.benchmarks[] | select(.run_type == "iteration") | .p50]' "$b")" \
	"$(jq -c '[.benchmarks[] | select(.run_type == "iteration") | .p50]' "$tmp/out")"
run "baseline id:1" 0 baseline --baseline id:1 --db "$db"
expect "id:1 = a" "$(jq -c '[.benchmarks[] | select(.run_type == "iteration") | .p50]' "$a")" \
	"$(jq -c '[.benchmarks[] | select(.run_type == "iteration") | .p50]' "$tmp/out")"
# the gate reads a history baseline, from a file or a pipe
"$cmp" "$tmp/last2.json" "$b" >"$tmp/gate" 2>&1
expect "gate vs last:2" 0 $?
"$hist" baseline last:2 --db "$db" | "$cmp" - "$b" >"$tmp/gate" 2>&1
expect "history | gate" 0 $?
grep -q '^# base: - (' "$tmp/gate" || fail "history | gate: base not read from stdin"

# the default path: ${XDG_DATA_HOME}/knotif/history.sqlite, created with its folder
XDG_DATA_HOME=$tmp/xdg run "record to the default path" 0 record "$a"
checks=$((checks + 1))
[ -s "$tmp/xdg/knotif/history.sqlite" ] || fail "no $tmp/xdg/knotif/history.sqlite"
XDG_DATA_HOME= HOME=$tmp/home run "list at the HOME default" 2 list
grep -q "no history at $tmp/home/.local/share/knotif/history.sqlite" "$tmp/err" || fail "HOME default path"

# unusable input: exit 2, one line
one_line_exit2 "bad db path" record "$a" --db "$tmp/no/such/dir/h.sqlite"
grep -q "cannot open history $tmp/no/such/dir/h.sqlite" "$tmp/err" || fail "bad db path: message"
printf '{"benchmarks": [' >"$tmp/bad.json"
one_line_exit2 "bad JSON" record "$tmp/bad.json" --db "$db"
grep -q 'not valid JSON' "$tmp/err" || fail "bad JSON: message"
one_line_exit2 "missing run file" record "$tmp/none.json" --db "$db"
echo '{"context": {}, "benchmarks": []}' >"$tmp/empty.json"
one_line_exit2 "no benchmarks" record "$tmp/empty.json" --db "$db"
one_line_exit2 "last:3 of 2 runs" baseline --baseline last:3 --db "$db"
grep -q 'needs 3 runs; the history holds 2' "$tmp/err" || fail "last:3: message"
one_line_exit2 "unknown name" baseline --baseline nosuch --db "$db"
one_line_exit2 "bad selector" baseline --baseline last:0 --db "$db"
one_line_exit2 "taken name" record "$a" --name good --db "$db"
grep -q "the name 'good' is already run #2's" "$tmp/err" || fail "taken name: message"
one_line_exit2 "selector as a name" record "$a" --name last:2 --db "$db"
one_line_exit2 "option without its value" record "$a" --db
grep -q "option '--db' needs a value" "$tmp/err" || fail "option without its value: message"
expect "nothing recorded by failures" 2 "$(q 'SELECT count(*) FROM runs')"
one_line_exit2 "missing db" list --db "$tmp/absent.sqlite"
echo "not a database" >"$tmp/text.sqlite"
one_line_exit2 "not SQLite" list --db "$tmp/text.sqlite"
cp "$db" "$tmp/future.sqlite"
sqlite3 "$tmp/future.sqlite" "UPDATE meta SET value = '99' WHERE key = 'schema_version'"
one_line_exit2 "newer schema" list --db "$tmp/future.sqlite"
grep -q 'schema version 99' "$tmp/err" || fail "newer schema: message"
one_line_exit2 "unknown command" frobnicate --db "$db"
one_line_exit2 "no command"
one_line_exit2 "record without a file" record --db "$db"

echo "$((checks - fails))/$checks checks passed"
[ "$fails" = 0 ]
