#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernel/bench's programs on the host: the rows vm-bench reads are there
# with exact counts (unotif-roundtrip's target checks every reply and exits
# non-zero on a wrong one; wake-cost wakes, and requeues, exactly --tasks sleepers a call),
# and bad usage is exit 2 with one line; listener-contention's timed looper
# is refused exactly --samples times and every victim gets its listener.
set -euo pipefail
. "$(dirname "$0")/../../../scripts/tests/testlib.sh"
roundtrip=$1 wake=$2 contention=$3
tmp=$TEST_TMP

"$roundtrip" --samples=200 --benchmark_repetitions=2 --benchmark_out="$tmp/rt.json" >/dev/null
# a supervisor with a decision's cost: same rows, every reply still checked
"$roundtrip" --samples=200 --benchmark_repetitions=1 --benchmark_filter=ioctl --supervisor-work=5000 \
	--benchmark_out="$tmp/rt-work.json" >/dev/null
/usr/bin/python3 -c 'import json, sys
rows = [b for b in json.load(open(sys.argv[1]))["benchmarks"] if b["run_type"] == "iteration"]
assert [(b["name"], b["iterations"]) for b in rows] == [("unotif/ioctl/emulate/placement:same", 200)], rows' \
	"$tmp/rt-work.json"
# the target on another CPU than the supervisor: the rows say so (on one CPU, each is an error row)
"$roundtrip" --samples=200 --benchmark_repetitions=1 --placement=cross --benchmark_out="$tmp/rt-cross.json" >/dev/null
/usr/bin/python3 -c 'import json, os, sys
rows = json.load(open(sys.argv[1]))["benchmarks"]
names = ["syscall/getppid/native/placement:cross", "unotif/ioctl/emulate/placement:cross"]
if os.cpu_count() < 2:
    assert [(b["name"], b["error_message"]) for b in rows] == [(n, "unsupported: --placement=cross needs two CPUs") for n in names], rows
else:
    assert [(b["name"], b["iterations"]) for b in rows if b["run_type"] == "iteration"] == [(n, 200) for n in names], rows' \
	"$tmp/rt-cross.json"
"$wake" --samples=20 --benchmark_repetitions=2 --tasks=8 --benchmark_out="$tmp/wake.json" >/dev/null
/usr/bin/python3 - "$tmp/rt.json" "$tmp/wake.json" <<'PY'
import json, sys
rt = json.load(open(sys.argv[1]))["benchmarks"]
for name in ("syscall/getppid/native/placement:same", "unotif/ioctl/emulate/placement:same"):
    reps = [b for b in rt if b["name"] == name and b["run_type"] == "iteration"]
    assert len(reps) == 2, f"{name}: {len(reps)} repetitions, want 2"
    assert all(b["iterations"] == 200 and b["p50"] > 0 for b in reps), f"{name}: {reps}"
wake = json.load(open(sys.argv[2]))["benchmarks"]
def rows(name):
    return [b for b in wake if b["name"] == name and b["run_type"] == "iteration"]
for verb, count in (("wake", "tasks_woken_per_call"), ("requeue", "tasks_moved_per_call")):
    none, eight = rows(f"futex/{verb}-none/placement:same"), rows(f"futex/{verb}-8/placement:same")
    assert len(none) == 2 and len(eight) == 2, wake
    assert all(b[count] == 8 for b in eight), [b[count] for b in eight]
    assert all(b["calls_retaken"] >= 0 for b in eight), eight
    assert all(b["cpu_time"] > 0 for b in none + eight), wake
PY
"$contention" --samples=10 --benchmark_repetitions=2 --depth=50 --loopers=2 \
	--benchmark_out="$tmp/lc.json" >/dev/null
/usr/bin/python3 - "$tmp/lc.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
rows = [b for b in doc["benchmarks"] if b["run_type"] == "iteration"]
names = ["listener/refusal/depth:0", "listener/refusal/depth:50",
         "listener/new-listener/loopers:0", "listener/new-listener/busy:2",
         "listener/new-listener/loopers:2/depth:0/tree:other",
         "listener/new-listener/loopers:2/depth:50/tree:other",
         "listener/new-listener/loopers:2/depth:50/tree:same",
         "listener/victim-refusal/loopers:2/depth:0/tree:same",
         "listener/victim-refusal/loopers:2/depth:50/tree:other",
         "listener/victim-refusal/loopers:2/depth:50/tree:same"]
assert sorted({b["name"] for b in rows}) == sorted(names), [b["name"] for b in rows]
assert not any(b.get("error_occurred") for b in doc["benchmarks"]), doc["benchmarks"]
for b in rows:
    assert b["iterations"] == 10 and 0 < b["p50"] <= b["max"], b
    if "/refusal/" in b["name"]:
        assert b["looper_refusals"] == 10, b      # the timed looper, alone
    if b["name"].endswith("loopers:0") or "/busy:" in b["name"]:
        assert b["looper_refusals"] == 0, b       # nobody, or getppid() only
assert all("ns_per_filter" in b for b in rows if b["name"].endswith("depth:50")), rows
assert doc["context"]["depth"] == 50 and doc["context"]["loopers"] == 2, doc["context"]
PY

refused() {
	local out rc=0
	out=$("$@" 2>&1 >/dev/null) || rc=$?
	[ "$rc" -eq 2 ] || fail "$* exited $rc, want 2"
	[ -n "$out" ] || fail "$* said nothing"
}
refused "$wake" --tasks=0
refused "$wake" --tasks=1025
refused "$wake" --samples=0
refused "$wake" --bogus
refused "$wake" --benchmark_out="$tmp/no/such/dir/x.json"
refused "$wake" --samples=10x
refused "$wake" extra
refused "$contention" --loopers=0
refused "$contention" --loopers=64
refused "$contention" --depth=0
refused "$contention" --depth=3640
refused "$contention" --benchmark_out="$tmp/no/such/dir/x.json"
refused "$roundtrip" --samples=0
refused "$roundtrip" --benchmark_repetitions=101
refused "$roundtrip" --benchmark_out="$tmp/no/such/dir/x.json"
refused "$roundtrip" --supervisor-work=-1
refused "$roundtrip" --supervisor-work=many
refused "$roundtrip" --placement=free
echo "ok: unotif-roundtrip, wake-cost and listener-contention rows, exact counts, bad usage refused"
