#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Without privileges knotif-bench still measures, and says which privilege it
# lacked and what that costs (CAP_IPC_LOCK for mlockall); its counters come
# from procfs, readable without privilege (context.knotif.counters).
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root to drop to an unprivileged user"
command -v setpriv >/dev/null || skip "setpriv missing (util-linux)"
chmod 755 "$tmp"
( ulimit -l 0 && setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
	"$KNOTIF_BENCH" "${QUICK[@]}" --placement=same --benchmark_filter='^(unotif/async/emulate|ptrace-seccomp/emulate)/' \
	--benchmark_format=json >"$tmp/run.json" 2>"$tmp/err" ) || fail "unprivileged run exited $?: $(cat "$tmp/err")"
grep -q 'mlockall failed in the target and the supervisor (needs CAP_IPC_LOCK or a larger RLIMIT_MEMLOCK)' "$tmp/err" ||
	fail "no word on the missing CAP_IPC_LOCK: $(cat "$tmp/err")"
"$CHECK_JSON" "$tmp/run.json" --ok unotif/async/emulate/placement:same --ok ptrace-seccomp/emulate/placement:same ||
	fail "unprivileged JSON"
/usr/bin/python3 - "$tmp/run.json" <<'PY' || fail "context does not record the missing privilege"
import json, sys
k = json.load(open(sys.argv[1]))["context"]["knotif"]
assert k["mlockall"] is False, k["mlockall"]
assert k["counters"] == "procfs", k["counters"]
PY
echo "ok: unprivileged run measures and names what it lacked"
