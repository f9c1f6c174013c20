# SPDX-License-Identifier: GPL-2.0
"""Reading Google Benchmark JSON rows (knotif-bench, knotif-stress, kernel/bench), once.

Every script that turns a result file into a table imports this instead of
walking "benchmarks" itself: scripts/readme-tables, the table writers the
results/*/regen scripts call (bench/scripts, tools/*/scripts, trace/scripts,
kernel/scripts) and analysis/report.

    import gbrows
    doc = gbrows.load("results/bench/reference.json")
    rows, errors = gbrows.headline_rows(doc)     # run_name -> the row a person reads
    for name, row in rows.items():
        method, placement = gbrows.split_name(name)

A table script's main() is gbrows.table_main(): its usage, exit codes and
error line are the same in every one.
"""
import json
import re
import sys

PLACEMENT = re.compile(r"^(?P<method>.+)/placement:(?P<placement>[A-Za-z0-9_-]+)$")


def load(path):
    """the JSON document at path; a file that is not JSON is a ValueError naming it"""
    with open(path, encoding="utf-8") as f:
        try:
            return json.load(f)
        except ValueError as e:
            raise ValueError(f"{path}: not JSON ({e})") from e


def run_name(row):
    """The benchmark a row belongs to (aggregate rows carry it in run_name)."""
    name = row.get("run_name")
    return name if isinstance(name, str) else row["name"]


def split_name(name):
    """"unotif/sync/emulate/placement:same" -> ("unotif/sync/emulate", "same"); no placement: None."""
    m = PLACEMENT.match(name)
    return (m["method"], m["placement"]) if m else (name, None)


def is_floor(row):
    """knotif-bench marks its ping-pong rows "kind": "floor"."""
    return row.get("kind") == "floor"


def headline_rows(doc):
    """(rows, errors): run_name -> the row a person reads — the _median aggregate,
    or the iteration row of a one-repetition run — and run_name -> error_message
    for the benchmarks that did not run. First-appearance order."""
    rows, errors = {}, {}
    for row in doc["benchmarks"]:
        name = run_name(row)
        if row.get("error_occurred"):
            errors[name] = row.get("error_message") or "error"
        elif row.get("aggregate_name") == "median" or (
                row.get("run_type", "iteration") == "iteration" and row.get("repetitions", 1) == 1):
            rows[name] = row
    return rows, errors


def runs(doc):
    """run_name -> {"iterations": [rows], "aggregates": {aggregate_name: row}, "error": str or None},
    first-appearance order: every repetition, for tools that need more than the median."""
    out = {}
    for row in doc["benchmarks"]:
        r = out.setdefault(run_name(row), {"iterations": [], "aggregates": {}, "error": None})
        if row.get("error_occurred"):
            r["error"] = str(row.get("error_message") or "error")
        elif row.get("run_type") == "aggregate":
            r["aggregates"][str(row.get("aggregate_name", ""))] = row
        else:
            r["iterations"].append(row)
    return out


def table_main(prog, usage, table, min_files=1, max_files=None):
    """main() of a script that turns result files into a markdown table:
    fewer than min_files files (or more than max_files), or an option, is
    "usage: ..." and exit 2;
    table(files) goes to stdout; a file it cannot read or parse is
    "prog: error" and exit 1."""
    files = sys.argv[1:]
    if len(files) < min_files or (max_files is not None and len(files) > max_files) or \
            any(f.startswith("-") for f in files):
        print(f"usage: {usage}", file=sys.stderr)
        sys.exit(2)
    try:
        sys.stdout.write(table(files))
    except (OSError, ValueError, KeyError) as e:
        print(f"{prog}: {e}", file=sys.stderr)
        sys.exit(1)
