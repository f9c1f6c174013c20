#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The gate's Mann-Whitney U against scipy.stats.mannwhitneyu (what
compare.py calls) on the same arrays: U1, the two-sided p-value and the
method scipy's 'auto' picks, for small exact cases, ties, all-equal data and
the sizes the gate really sees (9 vs 9, 15 vs 15, 45 vs 15).
Usage: mwu-vs-scipy.py PATH/TO/mwu-pvalue   Exit 0 pass, 1 fail, 77 skip."""
import random
import subprocess
import sys

from testlib import fail, finish, skip, soft_fail

try:
    import numpy as np
    import scipy
    from scipy.stats import mannwhitneyu
    from scipy.stats import _mannwhitneyu as mwu_private
except ImportError as e:
    skip(f"/usr/bin/python3 has no scipy ({e})")


def cases():
    rnd = random.Random(20261203)
    out = []
    for n1 in range(1, 13):
        for n2 in range(1, 13):
            out.append(([rnd.gauss(10, 2) for _ in range(n1)],
                        [rnd.gauss(11, 2) for _ in range(n2)]))
    for n1, n2 in [(9, 9), (15, 15), (45, 15), (3, 3), (8, 100), (100, 8), (200, 300)]:
        out.append(([rnd.gauss(9000, 900) for _ in range(n1)],
                    [rnd.gauss(9500, 900) for _ in range(n2)]))
        # ties: few distinct values, like p50s on a 10 ns timer
        out.append(([float(rnd.choice([171, 181, 190, 221])) for _ in range(n1)],
                    [float(rnd.choice([181, 190, 221, 231])) for _ in range(n2)]))
    out.append(([5.0] * 9, [5.0] * 9))                      # all equal: p = 1
    out.append(([5.0] * 3, [5.0] * 4))
    out.append((list(range(9)), [x + 100.0 for x in range(9)]))  # fully separated
    out.append((list(range(3)), [x + 100.0 for x in range(3)]))
    out.append(([1.0, 2.0, 2.0, 3.0], [2.0, 4.0, 5.0]))    # small with a tie: asymptotic
    out.append(([1e-3, 2e-3], [1e9, 1e9 + 1]))
    return out


def main():
    helper = sys.argv[1]
    data = cases()
    text = "".join(" ".join(repr(float(v)) for v in x) + " | " +
                   " ".join(repr(float(v)) for v in y) + "\n" for x, y in data)
    got = subprocess.run([helper], input=text, capture_output=True, text=True, check=True)
    lines = got.stdout.splitlines()
    if len(lines) != len(data):
        fail(f"{len(lines)} answers for {len(data)} cases")
    bad = 0
    for (x, y), line in zip(data, lines):
        u1, p, method, pmin = line.split()
        u1, p, pmin = float(u1), float(p), float(pmin)
        ref = mannwhitneyu(x, y, alternative="two-sided")
        xy = np.concatenate([np.asarray(x, float), np.asarray(y, float)])
        ref_method = mwu_private._mwu_choose_method(len(x), len(y), xy, "auto")
        sep = np.arange(len(x) + len(y), dtype=float)
        ref_min = mannwhitneyu(sep[:len(x)], sep[len(x):], alternative="two-sided").pvalue
        ok = (abs(u1 - ref.statistic) < 1e-9 and
              abs(p - ref.pvalue) <= 1e-9 * max(ref.pvalue, 1e-300) + 1e-15 and
              method == ref_method and
              abs(pmin - ref_min) <= 1e-9 * ref_min + 1e-15)
        if not ok:
            bad += 1
            soft_fail(f"n={len(x)},{len(y)}: ours U1={u1} p={p!r} {method} min={pmin!r}; "
                      f"scipy U1={ref.statistic} p={ref.pvalue!r} {ref_method} min={ref_min!r}")
    print(f"{len(data) - bad}/{len(data)} cases agree with scipy {scipy.__version__}")
    finish()


if __name__ == "__main__":
    sys.exit(main())
