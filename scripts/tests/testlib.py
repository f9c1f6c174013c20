# SPDX-License-Identifier: GPL-2.0
"""The 0/1/77 convention of the Python tests, as scripts/tests/testlib.sh is
of the shell ones. Every test registered with knotif_test() (cmake/) finds
this module on PYTHONPATH. (The kernel-log scan is the runner's:
scripts/tests/kmsg-run.)

  skip(reason)      'skip: reason', exit 77: a skip always says why
  fail(msg)         'not ok: msg', exit 1 at once
  soft_fail(msg)    'not ok: msg', kept in failures; the test goes on
  check(cond, what) soft_fail(what) unless cond; returns cond
  finish()          exit 1 after any soft failure ('N failures'), else 0
  write_gb_runs(path, rows)
                    a made-up Google Benchmark file, as knotif-bench writes
                    one: rows maps a benchmark to its repetitions' p50s (an
                    iteration row each, then their median aggregate) or to an
                    error message (a run that failed or was unsupported)
"""
import json
import sys

failures = []


def skip(reason):
    print("skip: " + reason, flush=True)
    sys.exit(77)


def fail(msg):
    print("not ok: " + msg, flush=True)
    sys.exit(1)


def soft_fail(msg):
    failures.append(msg)
    print("not ok: " + msg, flush=True)


def check(cond, what):
    if not cond:
        soft_fail(what)
    return cond


def finish():
    if failures:
        print("%d failures" % len(failures), flush=True)
        sys.exit(1)
    sys.exit(0)


def write_gb_runs(path, rows, context=None):
    """A knotif-bench-like result file: rows {name: [p50 per repetition] or an
    error message}, each with its iterations and median aggregate; context is
    the document's context ({} when not given)."""
    bench = []
    for name, p50s in rows.items():
        if isinstance(p50s, str):
            bench.append({"name": name, "run_name": name, "error_occurred": True, "error_message": p50s})
            continue
        for i, p in enumerate(p50s):
            bench.append({"name": name, "run_name": name, "run_type": "iteration", "repetition_index": i,
                          "repetitions": len(p50s), "p50": p})
        bench.append({"name": name + "_median", "run_name": name, "run_type": "aggregate",
                      "aggregate_name": "median", "repetitions": len(p50s), "p50": sorted(p50s)[len(p50s) // 2]})
    with open(path, "w") as f:
        json.dump({"context": context or {}, "benchmarks": bench}, f)
    return path


def first_difference(got, want):
    """'' when got (text or bytes) is want, else where they first part"""
    if got == want:
        return ""
    nl = b"\n" if isinstance(got, bytes) else "\n"
    got_lines, want_lines = got.split(nl), want.split(nl)
    for i, (g, w) in enumerate(zip(got_lines, want_lines)):
        if g != w:
            return f"line {i + 1}: committed {w!r}, regenerated {g!r}"
    return f"{len(want_lines)} lines committed, {len(got_lines)} regenerated"
