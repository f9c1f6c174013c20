# SPDX-License-Identifier: GPL-2.0
"""icount_hist.py: the round trips of a guest's knotif-bench run, each one's
instructions under -icount, as kernel/vm/init sends them
(samples-histogram.csv: name, repetition, instructions, count), and what the
table scripts read from them: modes, percentiles, the share on a slow path.
Values repeat exactly under -icount, so every figure here is exact."""
import os

MODE_WIDTH = 0.005	# values within 0.5% of a mode's first value are that mode
MODE_SHARE = 0.02	# a mode holds at least 2% of the round trips; the rest are outliers (ticks)


def load_histogram(d):
    """{(name, repetition): {instructions: round trips}} from samples-histogram.csv"""
    path = os.path.join(d, "samples-histogram.csv")
    hist = {}
    if not os.path.exists(path):
        return hist
    with open(path) as f:
        next(f, None)
        for line in f:
            name, rep, ns, count = line.strip().rsplit(",", 3)
            h = hist.setdefault((name, int(rep)), {})
            h[int(ns)] = h.get(int(ns), 0) + int(count)
    return hist


def modes_of(h):
    """[(instructions, share)] of the modes of a histogram: runs of values within
    MODE_WIDTH of their first value, each at its most frequent value, those
    holding at least MODE_SHARE of all round trips, fastest first"""
    total = sum(h.values())
    clusters = []
    for v in sorted(h):
        if clusters and v <= clusters[-1][0] * (1 + MODE_WIDTH):
            clusters[-1][1][v] = h[v]
        else:
            clusters.append((v, {v: h[v]}))
    out = []
    for _, c in clusters:
        n = sum(c.values())
        if n >= MODE_SHARE * total:
            out.append((max(c, key=c.get), n / total))
    return out


SLOW_PATH = 1.10	# a round trip 10% over the fastest mode took a slow path (not an alignment's few instructions)


def slow_share(h, fastest):
    """the share of round trips on a slow path: SLOW_PATH times the fastest mode or more"""
    total = sum(h.values())
    return sum(n for v, n in h.items() if v >= fastest * SLOW_PATH) / total if total else 0.0


def pooled(hist, name):
    """{instructions: round trips} of every repetition of row name"""
    out = {}
    for (n, _), h in hist.items():
        if n == name:
            for v, c in h.items():
                out[v] = out.get(v, 0) + c
    return out


def percentile(h, q):
    """the q-quantile (0 < q <= 1) of a histogram: the smallest value with at
    least q of all round trips at or below it"""
    total = sum(h.values())
    if not total:
        return None
    need, seen = q * total, 0
    for v in sorted(h):
        seen += h[v]
        if seen >= need:
            return v
    return max(h)


def mean(h):
    total = sum(h.values())
    return sum(v * c for v, c in h.items()) / total if total else None
