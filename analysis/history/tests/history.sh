#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# knotif-history, the same checks against either store: two real runs
# recorded, their system facts stored as columns, baselines last:1 / last:2
# (pooled) / id:N / a name selected exactly, by machine class and without
# the runs the gate failed, the trend, hostile names escaped, options before
# the command, and every unusable input (bad store, bad JSON, a baseline or
# class the history lacks, a taken name, a run recorded twice, a mistyped
# URI scheme, a newer schema) exiting 2 with one line; output that cannot be
# written (/dev/full) exiting 1; -o written whole, through a FIFO, a device
# or a symbolic link; the migration from schema 2 (the content hashes).
# SQLite only: the default path under XDG_DATA_HOME, a file that is not
# SQLite, a 0-byte file, the migration from schema 1, stores that vanish.
# PostgreSQL: a private server (pg.sh) as an unprivileged user; libpq's
# messages that quote the URI never show its password.
# Usage: history.sh sqlite|postgresql KNOTIF_HISTORY KNOTIF_COMPARE RUN_A RUN_B   Exit 0/1/77.
set -uo pipefail
. "$(dirname "$0")/../../../scripts/tests/testlib.sh"
backend=$1 hist=$2 cmp=$3 a=$4 b=$5
. "$(dirname "$0")/store.sh"
store h
expect() {	# LABEL WANT GOT
	checks=$((checks + 1))
	[ "$2" = "$3" ] || soft_fail "$1: got '$3', expected '$2'"
}
run() {		# LABEL WANT_RC ARGS...
	local label=$1 want=$2 rc
	shift 2
	checks=$((checks + 1))
	"$hist" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" = "$want" ] || { soft_fail "$label: exit $rc, expected $want"; cat "$tmp/out" "$tmp/err"; }
}
one_line_exit2() {	# LABEL ARGS...
	local label=$1
	shift
	run "$label" 2 "$@"
	expect "$label: stderr lines" 1 "$(wc -l <"$tmp/err")"
}
iterations() { jq '[.benchmarks[] | select(.run_type == "iteration" and (.error_occurred | not))] | length' "$1"; }

# record two runs, the second named
run "record a" 0 record "$a" --db "$db"
check "record a: message: $(cat "$tmp/out")" grep -q '^recorded run #1: 5 benchmarks' "$tmp/out"
run "record b --name good" 0 record --db "$db" --name good "$b"
check "record b: message" grep -q "^recorded run #2 'good'" "$tmp/out"

# the schema is versioned; each run keeps its system facts
expect "schema version" 3 "$(q "SELECT value FROM meta WHERE key = 'schema_version'")"
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
first=$(jq -r '[.benchmarks[] | select(.run_type == "iteration")][0].name' "$a")
expect "run 1 a p50" "$(jq '[.benchmarks[] | select(.run_type == "iteration")][0].p50' "$a")" \
	"$(q "SELECT p50 FROM results WHERE run_id = 1 AND benchmark = '$first' AND repetition = 0" | jq .)"
expect "run 2 class" "$(jq -r '.context | "\(.knotif.cpu_model), \(.num_cpus) CPUs, Linux \(.knotif.kernel_release), same 0/0"' "$b")" \
	"$(q 'SELECT machine_class FROM runs WHERE id = 2')"

run "list" 0 list --db "$db"
expect "list rows" 4 "$(wc -l <"$tmp/out")"	# header, rule, 2 runs
check "list: run 2 not named" grep -qE '^ *2 .* good ' "$tmp/out"
run "show good" 0 show good --db "$db"
check "show good: not run #2" grep -q '^run #2$' "$tmp/out"
check "show: no unotif row with 9 reps" grep -qE '^unotif/sync/emulate/placement:same +9 ' "$tmp/out"

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
# first / first:N: the oldest runs, the anchor a rolling last:N cannot drift from
run "baseline first" 0 baseline first --db "$db"
expect "first runs" "[1]" "$(jq -c '[.context.knotif.baseline.runs[].id]' "$tmp/out")"
expect "first = a" "$(jq -c '[.benchmarks[] | select(.run_type == "iteration") | .p50]' "$a")" \
	"$(jq -c '[.benchmarks[] | select(.run_type == "iteration") | .p50]' "$tmp/out")"
run "baseline first:2" 0 baseline --baseline first:2 --db "$db"
expect "first:2 runs" "[1,2]" "$(jq -c '[.context.knotif.baseline.runs[].id]' "$tmp/out")"
# the gate reads a history baseline, from a file or a pipe
"$cmp" "$tmp/last2.json" "$b" >"$tmp/gate" 2>&1
expect "gate vs last:2" 0 $?
"$hist" baseline last:2 --db "$db" | "$cmp" - "$b" >"$tmp/gate" 2>&1
expect "history | gate" 0 $?
check "history | gate: base not read from stdin" grep -q '^# base: - (' "$tmp/gate"

# unusable input: exit 2, one line
printf '{"benchmarks": [' >"$tmp/bad.json"
one_line_exit2 "bad JSON" record "$tmp/bad.json" --db "$db"
check "bad JSON: message" grep -q 'not valid JSON' "$tmp/err"
one_line_exit2 "missing run file" record "$tmp/none.json" --db "$db"
echo '{"context": {}, "benchmarks": []}' >"$tmp/empty.json"
one_line_exit2 "no benchmarks" record "$tmp/empty.json" --db "$db"
one_line_exit2 "last:3 of 2 runs" baseline --baseline last:3 --db "$db"
check "last:3: message" grep -q 'needs 3 runs; the history holds 2' "$tmp/err"
one_line_exit2 "unknown name" baseline --baseline nosuch --db "$db"
one_line_exit2 "bad selector" baseline --baseline last:0 --db "$db"
one_line_exit2 "bad first selector" baseline --baseline first:x --db "$db"
check "first:x: message: $(cat "$tmp/err")" grep -q "expected first:N" "$tmp/err"
one_line_exit2 "first:3 of 2 runs" baseline --baseline first:3 --db "$db"
check "first:3: message" grep -q 'needs 3 runs; the history holds 2' "$tmp/err"
jq '.context.host_name = "runner-x"' "$a" >"$tmp/a-elsewhere.json"
one_line_exit2 "taken name" record "$tmp/a-elsewhere.json" --name good --db "$db"
check "taken name: message" grep -q "the name 'good' is already run #2's" "$tmp/err"
one_line_exit2 "selector as a name" record "$a" --name last:2 --db "$db"
one_line_exit2 "first selector as a name" record "$a" --name first --db "$db"
one_line_exit2 "option without its value" record "$a" --db
check "option without its value: message" grep -q "option '--db' needs a value" "$tmp/err"
one_line_exit2 "bad --gate" record "$a" --gate maybe --db "$db"
one_line_exit2 "--class and --class-of" baseline --class x --class-of "$a" --db "$db"
one_line_exit2 "--class-of a bad file" baseline --class-of "$tmp/bad.json" --db "$db"
one_line_exit2 "bad output" baseline --db "$db" -o "$tmp/no/such/dir/base.json"
one_line_exit2 "trend of a class the history lacks" trend --class 'no such class' --db "$db"
check "trend of no class: message: $(cat "$tmp/err")" grep -q "no run of class 'no such class'" "$tmp/err"
expect "trend of no class: nothing on stdout" 0 "$(wc -c <"$tmp/out")"
# a baseline the history cannot give leaves what -o names as it was
echo '{"an": "older baseline"}' >"$tmp/kept.json"
one_line_exit2 "failed baseline keeps -o" baseline last:9 --db "$db" -o "$tmp/kept.json"
expect "failed baseline keeps -o" '{"an": "older baseline"}' "$(cat "$tmp/kept.json")"
mkfifo "$tmp/fifo"
one_line_exit2 "failed baseline keeps a fifo" baseline last:9 --db "$db" -o "$tmp/fifo"
expect "failed baseline keeps a fifo" fifo "$(stat -c %F "$tmp/fifo" | sed 's/.* //')"
# -o F is written beside F and renamed over it — F's mode kept, nothing left
# beside it — but a FIFO, a device and a symbolic link are written through
chmod 600 "$tmp/kept.json"
run "baseline over a file" 0 baseline last --db "$db" -o "$tmp/kept.json"
expect "baseline over a file: written" "[2]" "$(jq -c '[.context.knotif.baseline.runs[].id]' "$tmp/kept.json")"
expect "baseline over a file: its mode" 600 "$(stat -c %a "$tmp/kept.json")"
expect "baseline over a file: nothing beside it" "$tmp/kept.json" "$(ls -d "$tmp"/kept.json*)"
timeout 20 cat "$tmp/fifo" >"$tmp/from-fifo" &
reader=$!
run "baseline into a fifo" 0 baseline last --db "$db" -o "$tmp/fifo"
wait "$reader"
expect "baseline into a fifo: came through" "[2]" "$(jq -c '[.context.knotif.baseline.runs[].id]' "$tmp/from-fifo")"
expect "baseline into a fifo: still a fifo" fifo "$(stat -c %F "$tmp/fifo" | sed 's/.* //')"
run "baseline into /dev/null" 0 baseline last --db "$db" -o /dev/null
expect "/dev/null is still the device" "character special file" "$(stat -c %F /dev/null)"
echo '{}' >"$tmp/target.json"
ln -s target.json "$tmp/link.json"
run "baseline through a symbolic link" 0 baseline last --db "$db" -o "$tmp/link.json"
expect "the link is still a link" "symbolic link" "$(stat -c %F "$tmp/link.json")"
expect "the link's file written" "[2]" "$(jq -c '[.context.knotif.baseline.runs[].id]' "$tmp/target.json")"
# output that cannot be written is a failure, not a listing
for cmd in "list" "show last" "trend" "baseline last"; do
	checks=$((checks + 1))
	"$hist" $cmd --db "$db" >/dev/full 2>"$tmp/err"
	rc=$?
	[ "$rc" = 1 ] && [ "$(cat "$tmp/err")" = "knotif-history: writing stdout: No space left on device" ] ||
		soft_fail "$cmd into /dev/full: exit $rc, '$(cat "$tmp/err")'"
done
one_line_exit2 "unknown command" frobnicate --db "$db"
one_line_exit2 "no command"
one_line_exit2 "record without a file" record --db "$db"
# one run recorded twice would weigh twice in every baseline that pools it:
# refused, however the file is formatted
one_line_exit2 "the same run again" record "$a" --db "$db"
check "the same run again: message: $(cat "$tmp/err")" grep -q "is already recorded, as run #1 " "$tmp/err"
jq -S . "$a" >"$tmp/a-reformatted.json"
one_line_exit2 "the same run reformatted" record "$tmp/a-reformatted.json" --gate pass --db "$db"
check "the same run reformatted: message: $(cat "$tmp/err")" grep -q "is already recorded, as run #1 " "$tmp/err"
# a mistyped URI is no file name: it would keep the runs meant for the fleet
cd "$tmp" || exit 1
for uri in mysql:x.db http:foo HTTP://host/x sqlite3:x.db postgresql:x postgresql:/x; do
	one_line_exit2 "--db $uri" record "$a" --db "$uri"
	check "--db $uri: message: $(cat "$tmp/err")" grep -qE "unknown scheme|a PostgreSQL URI starts" "$tmp/err"
done
expect "no file made by a mistyped URI" "" "$(ls -d "$tmp"/mysql* "$tmp"/http* "$tmp"/HTTP* "$tmp"/sqlite3* "$tmp"/postgresql* 2>/dev/null)"
# a colon after the first '/' is a file name's
run "--db ./a:b.sqlite" 0 record "$a" --db ./a:b.sqlite
run "--db \$tmp/c:d.sqlite" 0 record "$a" --db "$tmp/c:d.sqlite"
cd - >/dev/null || exit 1
checks=$((checks + 1))
[ -s "$tmp/a:b.sqlite" ] && [ -s "$tmp/c:d.sqlite" ] || soft_fail "paths with a colon: no files"
# schemes in any case
if [ "$backend" = sqlite ]; then
	upper=SQLite:$db
else
	upper=PostgreSQL://${db#postgresql://}
fi
run "--db ${upper%%:*}:" 0 list --db "$upper"
expect "--db ${upper%%:*}: rows" 4 "$(wc -l <"$tmp/out")"
expect "nothing recorded by failures" 2 "$(q 'SELECT count(*) FROM runs')"

# options before the command, and KNOTIF_DB when --db is not given
run "--db before the command" 0 --db "$db" list
expect "--db before the command: rows" 4 "$(wc -l <"$tmp/out")"
KNOTIF_DB=$db run "KNOTIF_DB" 0 show id:1
check "KNOTIF_DB: not run #1" grep -q '^run #1$' "$tmp/out"
KNOTIF_DB=$tmp/elsewhere.sqlite run "--db beats KNOTIF_DB" 0 list --db "$db"

# machine classes: a run of another CPU is never a baseline for this one;
# a run from another host of the same class is (the fleet's shared baseline)
jq '.context.knotif.cpu_model = "Other CPU" | .context.host_name = "runner-9"' "$a" >"$tmp/other.json"
jq '.context.host_name = "runner-2"' "$a" >"$tmp/runner2.json"
run "record another class" 0 record "$tmp/other.json" --db "$db"		# run 3
run "baseline of a's class" 0 baseline last:1 --class-of "$tmp/runner2.json" --db "$db"
expect "class baseline skips the other CPU" "[2]" "$(jq -c '[.context.knotif.baseline.runs[].id]' "$tmp/out")"
run "baseline of the other class" 0 baseline last --class "Other CPU, 2 CPUs, Linux $(jq -r .context.knotif.kernel_release "$a"), same 0/0" --db "$db"
expect "--class selects run 3" "[3]" "$(jq -c '[.context.knotif.baseline.runs[].id]' "$tmp/out")"
one_line_exit2 "last:2 of a class with 1" baseline last:2 --class-of "$tmp/other.json" --db "$db"
check "class: message" grep -q "needs 2 runs; the history holds 1 of class 'Other CPU" "$tmp/err"
# the gate's verdict: a failed run is kept and shown, but is no baseline
jq '.context.host_name = "runner-4"' "$b" >"$tmp/run4.json"
jq '.context.host_name = "runner-5"' "$a" >"$tmp/run5.json"
run "record a failed run" 0 record "$tmp/run4.json" --gate fail --db "$db"	# run 4
run "record a passed run" 0 record "$tmp/run5.json" --gate pass --db "$db"	# run 5
expect "gate column" "fail pass" "$(q 'SELECT gate FROM runs WHERE id >= 4 ORDER BY id' | xargs)"
run "last:2 skips the failed run" 0 baseline last:2 --class-of "$a" --db "$db"
expect "last:2 without run 4" "[2,5]" "$(jq -c '[.context.knotif.baseline.runs[].id]' "$tmp/out")"
run "id:4 still selects it" 0 baseline id:4 --db "$db"

# the trend: per class and benchmark, every run's medians in order, failures marked
run "trend json" 0 trend --format json --db "$db" -o "$tmp/trend.json"
expect "trend classes" 2 "$(jq '.classes | length' "$tmp/trend.json")"
unotif=unotif/sync/emulate/placement:same
expect "trend runs of a's class" "[1,2,4,5]" \
	"$(jq -c --arg c "$(q 'SELECT machine_class FROM runs WHERE id = 1')" --arg n "$unotif" \
		'.classes[] | select(.machine_class == $c) | .benchmarks[] | select(.name == $n) | [.runs[].id]' "$tmp/trend.json")"
expect "trend median floor ratio of run 2" \
	"$(jq --arg n "$unotif" '[.benchmarks[] | select(.name == $n and .run_type == "iteration") | .floor_ratio] | sort | .[4]' "$b")" \
	"$(jq --arg n "$unotif" '.classes[].benchmarks[] | select(.name == $n) | .runs[] | select(.id == 2) | .floor_ratio' "$tmp/trend.json")"
expect "trend gate of run 4" '"fail"' \
	"$(jq -c --arg n "$unotif" '.classes[].benchmarks[] | select(.name == $n) | .runs[] | select(.id == 4) | .gate' "$tmp/trend.json")"
run "trend table" 0 trend --class-of "$a" --db "$db"
check "trend table: run 4 not marked FAILED" grep -qE '^ +#4 .* FAILED$' "$tmp/out"
expect "trend table: one class" 1 "$(grep -c '^# ' "$tmp/out")"

# hostile names: a newline or an escape sequence cannot forge a row or reach the terminal
esc=$(printf '\033')
jq --arg h "$(printf 'evil\n 99  2026  forged')" --arg k "$(printf 'k\033[31mred')" \
	'.context.host_name = $h | .context.knotif.kernel_release = $k |
	 .benchmarks |= map(.name |= sub("^null/"; "null\n/"))' "$a" >"$tmp/evil.json"
run "record hostile" 0 record "$tmp/evil.json" --name "$(printf 'bad\nname\033[2J')" --db "$db"
n=$(q 'SELECT count(*) FROM runs')
for cmd in "list" "show last" "trend"; do
	run "$cmd with hostile names" 0 $cmd --db "$db"
	checks=$((checks + 1))
	! grep -q "$esc" "$tmp/out" || soft_fail "$cmd: an escape byte reached the output"
done
run "list" 0 list --db "$db"
expect "list rows with hostile names" "$((n + 2))" "$(wc -l <"$tmp/out")"
check "list: host not escaped as \\n" grep -q 'evil\\n 99  2026  forged' "$tmp/out"
run "show" 0 show last --db "$db"
check "show: benchmark not escaped" grep -q 'null\\n/placement:same' "$tmp/out"
check "show: kernel not escaped" grep -q 'k\\x1b\[31mred' "$tmp/out"

if [ "$backend" = sqlite ]; then
	# the default path: ${XDG_DATA_HOME}/knotif/history.sqlite, created with its folder
	XDG_DATA_HOME=$tmp/xdg run "record to the default path" 0 record "$a"
	checks=$((checks + 1))
	[ -s "$tmp/xdg/knotif/history.sqlite" ] || soft_fail "no $tmp/xdg/knotif/history.sqlite"
	XDG_DATA_HOME= HOME=$tmp/home run "list at the HOME default" 2 list
	check "HOME default path" grep -q "no history at $tmp/home/.local/share/knotif/history.sqlite" "$tmp/err"
	KNOTIF_DB=sqlite:$tmp/prefixed.sqlite run "sqlite: prefix" 0 record "$a"
	checks=$((checks + 1))
	[ -s "$tmp/prefixed.sqlite" ] || soft_fail "sqlite:PATH did not make $tmp/prefixed.sqlite"

	one_line_exit2 "bad db path" record "$a" --db "$tmp/no/such/dir/h.sqlite"
	check "bad db path: message" grep -q "cannot open history $tmp/no/such/dir/h.sqlite" "$tmp/err"
	one_line_exit2 "missing db" list --db "$tmp/absent.sqlite"
	echo "not a database" >"$tmp/text.sqlite"
	one_line_exit2 "not SQLite" list --db "$tmp/text.sqlite"
	cp "$db" "$tmp/future.sqlite"
	sqlite3 "$tmp/future.sqlite" "UPDATE meta SET value = '99' WHERE key = 'schema_version'"
	one_line_exit2 "newer schema" list --db "$tmp/future.sqlite"
	check "newer schema: message" grep -q 'schema version 99' "$tmp/err"
	# stores that vanish at exit are refused, not "recorded"
	for vanishing in '' ':memory:' 'sqlite:' 'sqlite::memory:'; do
		one_line_exit2 "--db '$vanishing'" record "$a" --db "$vanishing"
		check "--db '$vanishing': message" grep -q 'cannot keep a history' "$tmp/err"
	done
	KNOTIF_DB=:memory: one_line_exit2 "KNOTIF_DB=:memory:" record "$a"
	# a read never writes: list on a 0-byte file leaves it empty
	: >"$tmp/zero.sqlite"
	one_line_exit2 "list on a 0-byte file" list --db "$tmp/zero.sqlite"
	check "0-byte file: message" grep -q "no history in $tmp/zero.sqlite" "$tmp/err"
	expect "0-byte file stays empty" 0 "$(stat -c %s "$tmp/zero.sqlite")"
	run "record into a 0-byte file" 0 record "$a" --db "$tmp/zero.sqlite"
	# schema 1 (knotif-history before the fleet) is migrated on first use, classes filled in
	sqlite3 "$tmp/v1.sqlite" "
		CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
		CREATE TABLE runs(id INTEGER PRIMARY KEY, recorded_at TEXT NOT NULL, name TEXT UNIQUE,
		  date TEXT, git_sha TEXT, kernel_release TEXT, kernel_version TEXT, host TEXT, cpu_model TEXT,
		  num_cpus INTEGER, syscall TEXT, samples_per_repetition INTEGER, repetitions INTEGER,
		  placements TEXT, command_line TEXT, config TEXT, source TEXT, document TEXT NOT NULL);
		CREATE TABLE results(run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
		  benchmark TEXT NOT NULL, repetition INTEGER, real_time REAL, cpu_time REAL, p50 REAL,
		  p99 REAL, floor_ratio REAL, error_message TEXT);
		CREATE INDEX results_by_benchmark ON results(benchmark, run_id);
		INSERT INTO meta VALUES('schema_version', '1');
		INSERT INTO runs(recorded_at, name, document) VALUES('2026-01-01T00:00:00Z', 'old', readfile('$a'));"
	run "migrate schema 1" 0 baseline old --class-of "$a" --db "$tmp/v1.sqlite"
	expect "migrated version" 3 "$(sqlite3 "$tmp/v1.sqlite" "SELECT value FROM meta WHERE key = 'schema_version'")"
	expect "migrated class" "$(q 'SELECT machine_class FROM runs WHERE id = 1')" \
		"$(sqlite3 "$tmp/v1.sqlite" 'SELECT machine_class FROM runs WHERE id = 1')"
	one_line_exit2 "schema 1's run recorded again" record "$a" --db "$tmp/v1.sqlite"
	check "schema 1's run again: message: $(cat "$tmp/err")" grep -q "is already recorded, as run #1 " "$tmp/err"
else
	# a server that is not there, a database that does not exist: exit 2, one line
	one_line_exit2 "no such database" list --db "postgresql:///nosuch?host=$pg_dir&user=knotif"
	check "no such database: message" grep -q 'cannot open history postgresql:///nosuch' "$tmp/err"
	one_line_exit2 "no server" list --db "postgresql:///h?host=$tmp&user=knotif"
	one_line_exit2 "password masked" list --db "postgresql://knotif:s3cret@/nosuch?host=$pg_dir"
	checks=$((checks + 1))
	! grep -q s3cret "$tmp/err" || soft_fail "password masked: the password was printed"
	one_line_exit2 "password= masked" list --db "postgresql:///nosuch?host=$pg_dir&password=s3cret&user=knotif"
	checks=$((checks + 1))
	! grep -q s3cret "$tmp/err" || soft_fail "password= masked: the password was printed"
	check "password= masked: $(cat "$tmp/err")" grep -q 'password=\*\*\*&user=knotif' "$tmp/err"
	# libpq's own messages quote the URI, or the part it could not parse
	for uri in "postgresql://knotif:Zq9x%zzY@/nosuch?host=$pg_dir" \
		"postgresql://knotif@/nosuch?host=$pg_dir&password=Zq9x%zzY" \
		"postgresql://knotif:Zq9xY@[::1/nosuch"; do
		one_line_exit2 "libpq's message masked: $uri" list --db "$uri"
		checks=$((checks + 1))
		! grep -qF Zq9x "$tmp/err" || soft_fail "libpq's message masked: the password was printed: $(cat "$tmp/err")"
	done
	# a read never writes: list on an empty database creates nothing
	empty=$(pg_newdb empty)
	one_line_exit2 "list on an empty database" list --db "$empty"
	expect "empty database stays empty" 0 "$(pg_sql empty "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")"
	pg_newdb future >/dev/null
	run "record into future" 0 record "$a" --db "postgresql:///future?host=$pg_dir&user=knotif"
	pg_sql future "UPDATE meta SET value = '99' WHERE key = 'schema_version'"
	one_line_exit2 "newer schema" list --db "postgresql:///future?host=$pg_dir&user=knotif"
	check "newer schema: message" grep -q 'schema version 99' "$tmp/err"
fi

# A rolling baseline drifts, the class's first runs do not: three steps of
# +30% each on the unotif row (under the gate's +50%) each pass against the
# step before (last:1), and together (+120%) fail against first:1, which
# skips a failed run recorded before the start.
store creep
slower() {	# FACTOR: run a with its unotif rows FACTOR times slower
	jq --argjson f "$1" '.benchmarks |= map(if (.name | startswith("unotif/")) then
		(.p50, .real_time, .cpu_time, .floor_ratio, .min, .p90, .p99, .p999, .max) *= $f else . end)' "$a"
}
slower 3 >"$tmp/creep-bad.json"
run "creep: a failed run first" 0 record "$tmp/creep-bad.json" --gate fail --db "$db"
run "creep: the start" 0 record "$a" --gate pass --db "$db"
for step in 1 2 3; do
	slower "$(awk -v s="$step" 'BEGIN { print 1.3 ^ s }')" >"$tmp/creep$step.json"
	"$cmp" --history=last:1 --db="$db" "$tmp/creep$step.json" >"$tmp/gate" 2>&1
	expect "creep: step $step against last:1" 0 $?
	run "creep: record step $step" 0 record "$tmp/creep$step.json" --gate pass --db "$db"
done
"$cmp" --history=first:1 --db="$db" "$tmp/creep3.json" >"$tmp/gate" 2>&1
expect "creep: step 3 against first:1" 1 $?
check "creep: base: $(head -n 1 "$tmp/gate")" grep -q '^# base: history first:1 (1 run of ' "$tmp/gate"
check "creep: verdict: $(tail -n 1 "$tmp/gate")" grep -q '^verdict: REGRESSION: 1 of .*unotif/sync/emulate' "$tmp/gate"
run "creep: first:1 is the start, not the failed run" 0 baseline first:1 --db "$db"
expect "creep: first:1 runs" "[2]" "$(jq -c '[.context.knotif.baseline.runs[].id]' "$tmp/out")"


# a history of schema 2 (before the content hashes) is migrated on first
# use: each run's hash filled in — a copy recorded twice before keeps none —
# so a run it holds is not recorded again
store v2
run "v2: record a" 0 record "$a" --db "$db"
run "v2: record b" 0 record "$b" --db "$db"
q "DROP INDEX runs_by_content; ALTER TABLE runs DROP COLUMN content_sha256;
   INSERT INTO runs(recorded_at, document, machine_class) SELECT recorded_at, document, machine_class FROM runs WHERE id = 1;
   UPDATE meta SET value = '2' WHERE key = 'schema_version'"
run "v2: migrated by list" 0 list --db "$db"
expect "v2: migrated version" 3 "$(q "SELECT value FROM meta WHERE key = 'schema_version'")"
expect "v2: hashes filled in" 2 "$(q 'SELECT count(content_sha256) FROM runs')"
expect "v2: the copy's left out" 3 "$(q 'SELECT id FROM runs WHERE content_sha256 IS NULL')"
one_line_exit2 "v2: a run it held, again" record "$a" --db "$db"
check "v2: run a again: message: $(cat "$tmp/err")" grep -q "is already recorded, as run #1 " "$tmp/err"
jq '.context.host_name = "runner-9"' "$a" >"$tmp/v2-new.json"
# a run stored is said to be stored even when stdout cannot take the line
checks=$((checks + 1))
"$hist" record "$tmp/v2-new.json" --db "$db" >/dev/full 2>"$tmp/err"
rc=$?
[ "$rc" = 1 ] && grep -q '^knotif-history: run #4 recorded, but writing stdout: No space left on device$' "$tmp/err" ||
	soft_fail "record into /dev/full: exit $rc, '$(cat "$tmp/err")'"
expect "record into /dev/full: stored" 4 "$(q 'SELECT count(*) FROM runs')"

finish
