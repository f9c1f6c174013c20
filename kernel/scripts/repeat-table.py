#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""repeat-table.py [--ran-only] BOOT BOOT...: does a guest run repeat?

From two or more Google Benchmark files of the same command in the same
kernel under -icount (make -f Makefile.kernel vm-gb, one a boot), a markdown
table: per row, every repetition's p50 in each boot, and whether all of them
are the same instruction count. Rows that did not run in a boot show its
error; with --ran-only, a row that ran in no boot (unsupported everywhere)
is left out. A BOOT is such a file, or AB.json:KERNEL, the knotif-bench run of
one kernel (stock or patched) in a vm-bench A/B file (ab-icount.json), so
that two vm-bench runs are compared kernel by kernel. Exit 0; 1 when a file
cannot be read or holds no such kernel; 2 on usage.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import gbrows  # noqa: E402


def load_boot(spec):
    """A Google Benchmark document: BOOT.json, or AB.json:KERNEL (its knotif-bench run)."""
    path, _, kernel = spec.rpartition(":") if spec.endswith((":stock", ":patched")) else (spec, "", "")
    doc = gbrows.load(path)
    if not kernel:
        return doc
    try:
        return doc[kernel]["results"]["knotif-bench.json"]
    except (KeyError, TypeError):
        raise ValueError(f"{path}: no knotif-bench run of the {kernel} kernel (not a vm-bench A/B file?)")


def table(paths, ran_only=False):
    boots = [gbrows.runs(load_boot(p)) for p in paths]
    names = list(dict.fromkeys(n for b in boots for n in b))
    out = ["| row | " + " | ".join(f"boot {i + 1}: p50 of each repetition" for i in range(len(boots)))
           + " | the same in every repetition and boot |",
           "|---|" + "---|" * len(boots) + "---|"]
    for name in names:
        cells, values, every_boot_ran = [], [], True
        for b in boots:
            r = b.get(name)
            every_boot_ran &= bool(r) and not r["error"]
            if r is None:
                cells.append("(absent)")
            elif r["error"]:
                cells.append(r["error"].replace("|", "\\|"))
            else:
                p50s = [it.get("p50") for it in r["iterations"]]
                values += p50s
                cells.append(", ".join(f"{v:,.0f}" for v in p50s))
        if ran_only and not values:
            continue
        if not every_boot_ran or len(values) < 2:
            same = "—"
        elif len(set(values)) == 1:
            same = "yes"
        else:
            same = f"no: {min(values):,.0f}–{max(values):,.0f}"
        out.append(f"| `{name}` | " + " | ".join(cells) + f" | {same} |")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    ran_only = sys.argv[1:2] == ["--ran-only"]
    if ran_only:
        del sys.argv[1]
    gbrows.table_main("repeat-table",
                      "repeat-table.py [--ran-only] BOOT.json|AB.json:stock|AB.json:patched (two or more)",
                      lambda paths: table(paths, ran_only), min_files=2)
