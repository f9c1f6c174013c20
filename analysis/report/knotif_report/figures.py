# SPDX-License-Identifier: GPL-2.0
"""The report's figures, each rendered to an inline SVG string.

Every figure's root <svg> carries an id and a <title>; every method's line
or bar is a group (<g>) whose id names the figure and the method, so a test
(or a reader's browser search) finds it in the rendered page.

Every string from the inputs that a figure shows (a legend, a tick label, a
title) goes through label(): matplotlib writes SVG text as it is given,
control characters and all, and does not wrap it.
"""
import io
import re

import matplotlib

matplotlib.use("svg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker as ticker  # noqa: E402
import numpy as np  # noqa: E402

from .shown import elided as label, slug  # noqa: E402,F401 (slug: the figures' ids, for page.py and trend.py)

plt.rcParams.update({
    "svg.fonttype": "none",  # text stays text: smaller, searchable, selectable
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "figure.dpi": 96,
})
# a name with two '$' in it is a name, not a formula: mathtext would draw it as
# one, or raise on what it cannot parse ("$\frac$"); no label here is a formula
if "text.parse_math" in plt.rcParams:  # matplotlib >= 3.5
    plt.rcParams["text.parse_math"] = False


class Palette:
    """One colour per method, the same in every figure."""

    def __init__(self, methods):
        cmap = plt.get_cmap("tab20" if len(methods) > 10 else "tab10")
        self.colors = {m: cmap(i % cmap.N) for i, m in enumerate(methods)}

    def __getitem__(self, method):
        return self.colors.get(method, "grey")


def to_svg(fig, svg_id, title):
    """The figure as an <svg> element with an id and a <title>, ready to inline."""
    plt.rcParams["svg.hashsalt"] = svg_id  # matplotlib's internal ids stay unique per page
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
    svg = buf.getvalue()
    svg = svg[svg.index("<svg"):]
    # matplotlib numbers its groups the same in every figure (figure_1, axes_1, ...):
    # scope them to this figure, so the page's ids stay unique (ours have no '_')
    svg = re.sub(r'(id="|href="#|url\(#)([A-Za-z][\w.]*_\d+)(?=[")])', r"\1%s--\2" % svg_id, svg)
    head_end = svg.index(">") + 1
    esc = title.replace("&", "&amp;").replace("<", "&lt;")
    return ('<svg id="%s" role="img" aria-label="%s"' % (svg_id, esc.replace('"', "&quot;")) +
            svg[4:head_end] + "<title>%s</title>" % esc + svg[head_end:])


class _MinorLabels(ticker.Formatter):
    """Labels 2, 3 and 5 between the powers of ten on a short log axis."""

    def __call__(self, v, pos=None):
        lo, hi = sorted(self.axis.get_view_interval())
        if v <= 0 or lo <= 0 or hi / lo > 30:
            return ""
        m = v / 10 ** np.floor(np.log10(v))
        return "%g" % v if any(abs(m - k) < 1e-6 for k in (2, 3, 5)) else ""


def plain_log(axis):
    """Log-axis tick labels as plain numbers (0.2, 30, 1000), not 2x10^-1."""
    axis.set_major_formatter(ticker.FuncFormatter(lambda v, pos: "%g" % v))
    axis.set_minor_formatter(_MinorLabels())


def us(ns):
    return np.asarray(ns, dtype=float) / 1000.0


def ccdf_points(samples, max_points=400):
    """Complementary CDF of raw samples at log-spaced tail fractions."""
    s = np.sort(samples)
    n = len(s)
    frac = np.unique(np.concatenate([np.geomspace(1.0, 1.0 / n, max_points), [1.0 / n]]))[::-1]
    idx = np.clip(np.ceil((1.0 - frac) * n).astype(int), 0, n - 1)
    return s[idx], frac


def quantile_points(run):
    """The quantiles the JSON carries, as (latency, fraction slower) points.
    A quantile finer than the sample count (p99.9 of 900 calls) is left
    out: it would only restate the largest samples."""
    n = run.samples_hint()
    pts = [("min", 1.0), ("p50", 0.5), ("p90", 0.1), ("p99", 0.01), ("p999", 0.001)]
    xs, ys = [], []
    for key, frac in pts:
        v = run.value(key)
        if v is not None and (not n or frac >= 1.0 / n):
            xs.append(v)
            ys.append(frac)
    mx = run.value("max")
    if mx is not None:
        xs.append(mx)
        ys.append(1.0 / n if n else min(ys + [1.0]) / 2)
    return np.asarray(xs), np.asarray(ys)


def latency_ccdf(placement, runs, samples, palette):
    """Fraction of round trips slower than x, one line per method (log-log)."""
    fig, ax = plt.subplots(figsize=(8.5, 4.8))
    for run in runs:
        if samples is not None and run.name in samples:
            x, y = ccdf_points(samples[run.name])
            (line,) = ax.step(us(x), y, where="post", color=palette[run.method], label=label(run.method), lw=1.4)
        else:
            x, y = quantile_points(run)
            (line,) = ax.plot(us(x), y, marker="o", ms=3, color=palette[run.method], label=label(run.method), lw=1.2)
        line.set_gid("ccdf-%s-%s" % (slug(placement), slug(run.method)))
    ax.set_xscale("log")
    ax.set_yscale("log")
    plain_log(ax.xaxis)
    ax.set_xlabel("round-trip latency (µs, log)")
    ax.set_ylabel("fraction of calls slower (log)")
    src = "raw samples" if samples is not None else "min/p50/p90/p99/p99.9/max from the JSON (joined by lines)"
    title = "Latency CCDF, placement %s — %s" % (label(placement), src)
    ax.set_title(title)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)  # beside: never over a tail
    return to_svg(fig, "ccdf-%s" % slug(placement), title)


def latency_hist(run, samples, palette):
    """Histogram of one method's samples on log-spaced bins, p50 and p99
    marked. Bins stop at p99.9 when the tail reaches far beyond it, and the
    legend counts what was left out (cyclictest's overflow)."""
    ns = samples[run.name]
    fig, ax = plt.subplots(figsize=(4.2, 2.6))
    p50, p99, p999 = np.percentile(ns, [50, 99, 99.9])
    lo, hi = max(int(ns.min()), 1), max(int(ns.max()), 2)
    if hi > 3 * p999:
        hi = max(int(p999), lo + 1)
    over = int(np.count_nonzero(ns > hi))
    bins = np.geomspace(lo, hi * 1.0001, 50)
    ax.hist(us(ns[ns <= hi]), bins=us(bins), color=palette[run.method], alpha=0.85)
    ax.set_xscale("log")
    plain_log(ax.xaxis)
    ax.axvline(p50 / 1000, color="k", lw=1, ls="-", label="p50 %.2f µs" % (p50 / 1000))
    ax.axvline(p99 / 1000, color="k", lw=1, ls="--", label="p99 %.2f µs" % (p99 / 1000))
    if over:
        ax.plot([], [], " ", label="%d beyond %.1f µs (max %.1f)" % (over, hi / 1000, ns.max() / 1000))
    ax.legend(fontsize=7)
    ax.set_xlabel("µs (log)")
    ax.set_ylabel("calls")
    title = "%s, placement %s (n=%d)" % (label(run.method), label(run.placement), len(ns))
    ax.set_title(title, fontsize=9)
    return to_svg(fig, "hist-%s-%s" % (slug(run.placement), slug(run.method)), "Histogram: " + title)


def floor_bars(placement, runs, floor, palette):
    """p50 over the ping-pong floor at this placement, per method; whiskers:
    the lowest and highest repetition."""
    runs = sorted((r for r in runs if r.value("floor_ratio") is not None), key=lambda r: r.value("floor_ratio"))
    fig, ax = plt.subplots(figsize=(8.5, 0.32 * len(runs) + 1.2))
    for i, r in enumerate(runs):
        v = r.value("floor_ratio")
        reps = r.per_rep("floor_ratio") or [v]
        err = [[max(v - min(reps), 0)], [max(max(reps) - v, 0)]]
        bar = ax.barh(i, v, color=palette[r.method], xerr=err, capsize=2, error_kw={"lw": 0.8})
        bar.patches[0].set_gid("floor-%s-%s" % (slug(placement), slug(r.method)))
        ax.text(max(reps + [v]) * 1.08, i, "%.2f×" % v, va="center", fontsize=7)
    ax.set_yticks(range(len(runs)), [label(r.method) for r in runs])
    ax.set_xscale("log")
    plain_log(ax.xaxis)
    ax.axvline(1.0, color="k", lw=1)
    what = ""
    if isinstance(floor, dict) and floor.get("p50"):
        what = " (%s, p50 %.2f µs)" % (label(floor.get("benchmark", "?")), float(floor["p50"]) / 1000)
    ax.set_xlabel("p50 / ping-pong floor p50%s (log)" % what)
    ax.grid(axis="y", visible=False)
    title = "Floor ratio, placement %s" % label(placement)
    ax.set_title(title)
    return to_svg(fig, "floor-%s" % slug(placement), title)


def stress_curves(kind, facet, series, y_axes):
    """One panel per quantity, one line per run configuration, against the
    scale (targets, or pending notifications M)."""
    fig, axes = plt.subplots(1, len(y_axes), figsize=(3.6 * len(y_axes), 3.2), squeeze=False)
    cmap = plt.get_cmap("tab10" if len(series) <= 10 else "tab20")
    xlabel = "targets" if kind == "stress" else "pending notifications M"
    for ax, (yk, ylabel) in zip(axes[0], y_axes):
        for i, s in enumerate(series):
            pts = [(x, ys[yk]) for x, ys in s.points if yk in ys]
            if not pts:
                continue
            xs, vs = zip(*pts)
            vs = np.asarray(vs) / (1.0 if yk == "items_per_second" else 1000.0)
            (line,) = ax.plot(xs, vs, marker="o", ms=3, color=cmap(i % cmap.N), label=label(s.label))
            line.set_gid("%s-%s-%s-%s" % (kind, slug(facet), slug(yk), slug(s.label)))
        xs_all = [x for s in series for x, _ in s.points]
        if xs_all and max(xs_all) / max(min(xs_all), 1) >= 10:
            ax.set_xscale("log")
            plain_log(ax.xaxis)
        if yk != "items_per_second" and any(ys.get(yk, 1) > 0 for s in series for _, ys in s.points):
            lo = min((ys[yk] for s in series for _, ys in s.points if ys.get(yk, 0) > 0), default=1)
            hi = max((ys[yk] for s in series for _, ys in s.points if yk in ys), default=1)
            if hi / lo > 30:
                ax.set_yscale("log")  # latencies over decades of load
                plain_log(ax.yaxis)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, fontsize=7, loc="upper center", ncol=min(len(labels), 3),
               bbox_to_anchor=(0.5, 0.0))
    title = ("Stress scaling, %s: one supervisor, N targets" % label(facet) if kind == "stress" else
             "Pending notifications, %s: SEND / ID_VALID with M queued" % label(facet))
    fig.suptitle(title)
    fig.tight_layout()
    return to_svg(fig, "%s-%s" % (kind, slug(facet)), title)


PHASE_ORDER = ("queue_wait", "think", "wake_to_resume")


def trace_stacked(bars):
    """Mean time per phase, stacked: the phases of one round trip add up to it."""
    phases = [p for p in PHASE_ORDER if any(p in b.phases for b in bars)]
    phases += sorted({p for b in bars for p in b.phases} - set(phases))
    fig, ax = plt.subplots(figsize=(8.5, 0.45 * len(bars) + 1.2))
    cmap = plt.get_cmap("Set2")
    left = np.zeros(len(bars))
    for j, p in enumerate(phases):
        vals = np.array([float(b.phases.get(p, {}).get("mean", 0.0)) / 1000 for b in bars])
        cont = ax.barh(range(len(bars)), vals, left=left, color=cmap(j % 8), label=label(p), height=0.5)
        for i, patch in enumerate(cont.patches):
            patch.set_gid("trace-%s-%s" % (slug(bars[i].label), slug(p)))
        left += vals
    for i, b in enumerate(bars):
        if b.round_trip and isinstance(b.round_trip.get("mean"), (int, float)):
            ax.plot([b.round_trip["mean"] / 1000], [i], marker="|", ms=14, color="k")
    ax.set_yticks(range(len(bars)), [label(b.label) for b in bars])
    ax.set_xlabel("mean µs per phase (| = mean round trip)")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.set_ylim(-0.6, len(bars) - 0.4)
    ax.grid(axis="y", visible=False)
    title = "Trace phase breakdown (mean per phase, stacked)"
    ax.set_title(title)
    return to_svg(fig, "trace-phases", title)


def workload_bars(group, gid):
    """Each method's mean time relative to no interception, with hyperfine's sigma."""
    base = group.results[0]
    fig, ax = plt.subplots(figsize=(8.5, 0.38 * len(group.results) + 1.2))
    cmap = plt.get_cmap("tab10")
    for i, r in enumerate(group.results):
        q = r["mean"] / base["mean"]
        s = q * np.hypot(r["stddev"] / r["mean"], base["stddev"] / base["mean"])
        bar = ax.barh(i, q, xerr=s, color=cmap(i % 10), capsize=2, error_kw={"lw": 0.8})
        bar.patches[0].set_gid("%s-%s" % (gid, slug(r["method"])))
        ax.text(q + s + 0.02, i, "%.2f ± %.2f" % (q, s), va="center", fontsize=7)
    ax.set_yticks(range(len(group.results)), [label(r["method"]) for r in group.results])
    ax.invert_yaxis()
    ax.axvline(1.0, color="k", lw=1)
    ax.set_xlabel("mean wall time / mean with no interception (%s = %.1f ms)" % (label(base["method"]),
                                                                                base["mean"] * 1e3))
    ax.grid(axis="y", visible=False)
    title = "Real workload: %s" % label(group.title)
    ax.set_title(title)
    return to_svg(fig, gid, title)
