# SPDX-License-Identifier: GPL-2.0
"""Reading the report's inputs. Anything unusable raises InputError with one
line a person can act on; the command turns it into exit status 2.

The required input is knotif-bench's Google Benchmark JSON. The optional
ones (raw samples, stress, trace, hyperfine) are read tolerantly: a schema
we do not recognise becomes a note in its section, never a crash.
"""
import csv
import json
import math
import os
import re
import sys
from dataclasses import dataclass, field

import numpy as np

from . import shown

try:
    from . import gbrows  # installed (cmake/install.cmake): a copy inside this package
except ImportError:  # the source tree: scripts/gbrows.py, the one reader of Google Benchmark rows
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scripts"))
    import gbrows  # noqa: E402

QUANTILES = ("min", "p50", "p90", "p99", "p999", "max")


class InputError(Exception):
    pass


@dataclass
class Run:
    """One benchmark (a method at a placement) and its repetitions."""
    name: str
    method: str
    placement: str
    reps: list = field(default_factory=list)       # iteration rows
    aggregates: dict = field(default_factory=dict)  # aggregate_name -> row
    error: str = None

    def value(self, key):
        """The median over repetitions (GB's _median row when present)."""
        row = self.aggregates.get("median")
        if row is not None and isinstance(row.get(key), (int, float)):
            return float(row[key])
        vals = [float(r[key]) for r in self.reps if isinstance(r.get(key), (int, float))]
        return float(np.median(vals)) if vals else None

    def per_rep(self, key):
        return [float(r[key]) for r in self.reps if isinstance(r.get(key), (int, float))]

    def samples_hint(self):
        """How many round trips the quantiles summarise."""
        return int(sum(r.get("iterations", 0) for r in self.reps))


@dataclass
class Bench:
    path: str
    context: dict
    knotif: dict
    runs: list

    def placements(self):
        return list(dict.fromkeys(r.placement for r in self.runs))  # in order of appearance

    def methods(self):
        return list(dict.fromkeys(r.method for r in self.runs))


def read_json(path, what):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError as e:
        raise InputError("%s: %s" % (path, e.strerror or e))
    except (ValueError, UnicodeDecodeError) as e:
        raise InputError("%s: not JSON (%s): expected %s" % (path, str(e).split("\n")[0], what))


def load_bench(path):
    doc = read_json(path, "knotif-bench --benchmark_format=json output")
    if not isinstance(doc, dict) or not isinstance(doc.get("benchmarks"), list):
        raise InputError("%s: no 'benchmarks' list: not knotif-bench (Google Benchmark) JSON" % path)
    context = doc.get("context") if isinstance(doc.get("context"), dict) else {}
    runs = {}
    for i, row in enumerate(doc["benchmarks"]):
        if not isinstance(row, dict) or not isinstance(row.get("name"), str):
            raise InputError("%s: benchmarks[%d] has no name" % (path, i))
        run_name = gbrows.run_name(row)
        method, placement = gbrows.split_name(run_name)
        run = runs.setdefault(run_name, Run(run_name, method, placement or "unplaced"))
        if row.get("error_occurred"):
            run.error = str(row.get("error_message") or "error")
        elif row.get("run_type") == "aggregate":
            run.aggregates[str(row.get("aggregate_name", ""))] = row
        else:
            for key in ("p50", "real_time"):
                v = row.get(key)
                if v is not None and not (isinstance(v, (int, float)) and math.isfinite(v) and v >= 0):
                    # the name is the file's, and this line goes to a terminal
                    raise InputError("%s: %s: %s is %r, not a time" % (path, shown.text(row["name"]), key, v))
            run.reps.append(row)
    if not runs:
        raise InputError("%s: the 'benchmarks' list is empty" % path)
    if not any(r.value("p50") is not None for r in runs.values()):
        raise InputError("%s: no row carries a p50 counter: not knotif-bench output" % path)
    knotif = context.get("knotif") if isinstance(context.get("knotif"), dict) else {}
    return Bench(path, context, knotif, list(runs.values()))


def load_samples(path):
    """knotif-bench --samples_out: name,repetition,index,ns -> {name: ns array}."""
    out = {}
    try:
        with open(path, newline="", encoding="utf-8") as f:
            rd = csv.reader(f)
            header = next(rd, None)
            if header != ["name", "repetition", "index", "ns"]:
                raise InputError("%s: header is %s, expected name,repetition,index,ns "
                                 "(knotif-bench --samples_out)" % (path, ",".join(header or ["(empty)"])))
            for line, rec in enumerate(rd, start=2):
                try:
                    ns = int(rec[3])
                except (IndexError, ValueError):
                    raise InputError("%s:%d: expected name,repetition,index,ns, got %s" % (path, line, ",".join(rec)))
                if ns < 0:
                    raise InputError("%s:%d: negative time %d ns" % (path, line, ns))
                out.setdefault(rec[0], []).append(ns)
    except OSError as e:
        raise InputError("%s: %s" % (path, e.strerror or e))
    except UnicodeDecodeError:
        raise InputError("%s: not a text CSV file" % path)
    if not out:
        raise InputError("%s: no samples" % path)
    return {k: np.asarray(v, dtype=np.int64) for k, v in out.items()}


@dataclass
class WorkloadGroup:
    """Commands timed in one hyperfine run: the first is the baseline."""
    title: str
    results: list  # hyperfine result dicts, method name in "method"


def load_workloads(path):
    doc = read_json(path, "hyperfine --export-json output")
    results = doc.get("results") if isinstance(doc, dict) else None
    if not isinstance(results, list) or not results:
        raise InputError("%s: no 'results' list: not hyperfine --export-json output" % path)
    groups = {}
    for i, r in enumerate(results):
        if not isinstance(r, dict) or not all(isinstance(r.get(k), (int, float)) for k in ("mean", "stddev")):
            raise InputError("%s: results[%d] lacks a numeric mean/stddev" % (path, i))
        if "workload" in r:
            key = "%s, placement %s" % (r["workload"], r.get("placement", "?"))
        else:
            key = "hyperfine"  # a plain hyperfine export: its commands, first as baseline
        r.setdefault("method", str(r.get("command", "command %d" % i)))
        groups.setdefault(key, []).append(r)
    context = doc.get("knotif") if isinstance(doc.get("knotif"), dict) else {}
    return context, [WorkloadGroup(k, v) for k, v in groups.items()]


# ---- optional inputs whose schema other parts of knotif are still settling ----

def _walk(node, path=()):
    """Every dict in a JSON tree with the key path that leads to it."""
    if isinstance(node, dict):
        yield path, node
        for k, v in node.items():
            yield from _walk(v, path + (str(k),))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            label = v.get("name") if isinstance(v, dict) and isinstance(v.get("name"), str) else str(i)
            yield from _walk(v, path + (label,))


@dataclass
class PhaseBar:
    label: str
    phases: dict  # phase -> {"mean": ns, "p50": ns, "count": n}
    round_trip: dict = None


def load_trace(paths):
    """Every object with a 'phases' map (knotif-trace's summary per kind, or
    the same per benchmark) with a mean: one stacked bar each, labelled by
    where it sits in the file (and the file, when there are several).
    Returns (bars, note)."""
    bars, keys_seen = [], set()
    for path in paths:
        doc = read_json(path, "knotif-trace --summary JSON")
        if isinstance(doc, dict):
            keys_seen.update(doc)
        stem = re.sub(r"\.json$", "", path.rsplit("/", 1)[-1])
        for keys, node in _walk(doc):
            ph = node.get("phases")
            if not isinstance(ph, dict):
                continue
            stats = {k: v for k, v in ph.items() if isinstance(v, dict) and isinstance(v.get("mean"), (int, float))}
            if not stats:
                continue
            rt = stats.pop("round_trip", None)
            label = "/".join(k for k in keys if k not in ("kinds", "benchmarks", "phases")) or "trace"
            bars.append(PhaseBar("%s: %s" % (stem, label) if len(paths) > 1 else label, stats, rt))
    note = None if bars else "%s: no 'phases' summaries with a mean (top-level keys: %s)" % (
        ", ".join(paths), ", ".join(sorted(keys_seen)[:12]) or "none")
    return bars, note


# knotif-stress (Google Benchmark rows): the name segment that is the scale
SCALE_RE = re.compile(r"(^|/)(?P<key>targets|M):(?P<n>\d+)(?=/|$)")
# y quantities per kind of run: counter -> axis label
STRESS_Y = {
    "stress": [("p50", "target round trip p50 (µs)"), ("p99", "target round trip p99 (µs)"),
               ("items_per_second", "notifications / s")],
    "pending": [("id_valid_p50", "ID_VALID p50 (µs)"), ("send_p50", "SEND p50 (µs)"),
                ("target_p50", "target round trip p50 (µs)")],
}


@dataclass
class Series:
    kind: str        # "stress" (x = targets) or "pending" (x = M pending notifications)
    facet: str       # the figure it belongs to: "placement same, topology shared"
    label: str       # the line: what is left of the run name (strategy, threads, wake-up, ...)
    points: list     # (x, {counter: value})


def _stress_rows(path, doc):
    """run name -> counters: the _median aggregate when there are repetitions."""
    good = [r for r in doc.get("benchmarks", []) if isinstance(r, dict) and isinstance(r.get("name"), str)]
    out = {}
    for run, rows in gbrows.runs({"benchmarks": good}).items():
        reps = rows["iterations"]
        if rows["error"]:
            continue
        if "median" in rows["aggregates"]:
            out[run] = rows["aggregates"]["median"]
        elif reps:  # one repetition, or no aggregates: the median of each counter
            keys = {k for r in reps for k, v in r.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}
            out[run] = {k: float(np.median([r[k] for r in reps if isinstance(r.get(k), (int, float))])) for k in keys}
    return out


def load_stress(paths):
    """knotif-stress JSON files (GB rows named .../targets:N/... or
    pending/M:N/...): one curve per run name with the scale taken out, one
    figure per placement and topology. Returns (series, note)."""
    series, seen_rows = {}, 0
    for path in paths:
        doc = read_json(path, "knotif-stress --benchmark_out JSON")
        if not isinstance(doc, dict) or not isinstance(doc.get("benchmarks"), list):
            continue
        stem = re.sub(r"\.json$", "", path.rsplit("/", 1)[-1])
        for run, counters in _stress_rows(path, doc).items():
            seen_rows += 1
            m = SCALE_RE.search(run)
            if not m:
                continue
            kind = "pending" if m["key"] == "M" else "stress"
            ys = {k: float(counters[k]) for k, _ in STRESS_Y[kind] if isinstance(counters.get(k), (int, float))}
            if not ys:
                continue
            parts = [p for p in (run[:m.start()] + run[m.end():]).split("/") if p and p != kind]
            placement = next((p.split(":", 1)[1] for p in parts if p.startswith("placement:")), "?")
            topology = next((p for p in parts if p in ("shared", "per-target")), None)
            facet = "placement %s" % placement + (", topology %s" % topology if topology else "")
            label = "/".join(p for p in parts if not p.startswith("placement:") and p != topology) or kind
            if len(paths) > 1:
                label = "%s: %s" % (stem, label)
            s = series.setdefault((kind, facet, label), Series(kind, facet, label, []))
            s.points.append((int(m["n"]), ys))
    out = list(series.values())
    for s in out:
        s.points.sort(key=lambda p: p[0])
    note = None
    if not out:
        note = "%s: %s" % (", ".join(paths), "no knotif-stress rows named .../targets:N/... or pending/M:N/..."
                           if seen_rows else "no 'benchmarks' rows")
    return out, note
