# SPDX-License-Identifier: GPL-2.0
"""The trend page: how each benchmark's floor ratio and p50 moved over the
recorded runs, per machine class, from `knotif-history trend --format json`.

One figure per class and benchmark, two panels (median floor ratio, median
p50) against the runs in the order they were recorded, labelled with their
git sha; a run the gate failed is a red cross. Ids, for tests and readers:
  trend-c<K>-<benchmark>            the figure (class K, 1-based, in file order)
  trend-c<K>-<benchmark>-floor/-p50 the lines
  trend-c<K>-<benchmark>-failed-<panel> the failed runs' markers
  trend-c<K>-runs                   the class's table of runs
"""
import datetime
import math

import matplotlib.pyplot as plt

from . import figures, inputs, shown

esc = shown.html_text  # the page's strings are the history's: anyone's


def load(path):
    doc = inputs.read_json(path, "knotif-history trend --format json output")
    if not isinstance(doc, dict) or doc.get("trend_schema_version") != 1 or not isinstance(doc.get("classes"), list):
        raise inputs.InputError("%s: not knotif-history trend JSON (no trend_schema_version 1 and 'classes' list)" % path)
    for c in doc["classes"]:
        if not isinstance(c, dict) or not isinstance(c.get("benchmarks"), list) or \
                not all(isinstance(b, dict) and isinstance(b.get("name"), str) and isinstance(b.get("runs"), list)
                        for b in c["benchmarks"]):
            raise inputs.InputError("%s: a class without a 'benchmarks' list of {name, runs}" % path)
    return doc


def number(v):
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) else None


def run_label(r):
    sha = str(r.get("git_sha") or "?")
    return shown.elided("#%s %s" % (r.get("id"), sha[:12]), 24)


def trend_figure(fid, name, runs):
    panels = (("floor", "floor_ratio", "median floor ratio", 1.0), ("p50", "p50_ns", "median p50 (µs)", 1000.0))
    fig, axes = plt.subplots(1, 2, figsize=(9.5, 2.9), squeeze=False)
    xs = list(range(len(runs)))
    for ax, (key, field, label, scale) in zip(axes[0], panels):
        ys = [number(r.get(field)) for r in runs]
        ys = [y / scale if y is not None else float("nan") for y in ys]
        (line,) = ax.plot(xs, ys, marker="o", ms=3, lw=1.2, color="#1f77b4")
        line.set_gid("%s-%s" % (fid, key))
        bad = [(x, y) for x, y, r in zip(xs, ys, runs) if r.get("gate") == "fail"]
        if bad:
            bx, by = zip(*bad)
            marks = ax.scatter(bx, by, marker="x", s=60, color="#d62728", zorder=3, label="gate failed")
            marks.set_gid("%s-failed-%s" % (fid, key))
            ax.legend(fontsize=7, loc="best")
        ax.set_ylabel(label)
        step = max(1, len(runs) // 12)  # at most a dozen labels
        ax.set_xticks(xs[::step], [run_label(r) for r in runs][::step], rotation=35, ha="right", fontsize=7)
        ax.margins(x=0.05)
    fig.suptitle(figures.label(name))
    fig.tight_layout()
    return figures.to_svg(fig, fid, "Trend of %s" % figures.label(name))


def class_section(k, c):
    benchmarks = c["benchmarks"]
    out = []
    for b in benchmarks:
        fid = "trend-c%d-%s" % (k, figures.slug(b["name"]))
        failed = sum(1 for r in b["runs"] if r.get("gate") == "fail")
        out.append("<figure>%s<figcaption>%s: %d run%s%s.</figcaption></figure>" % (
            trend_figure(fid, b["name"], b["runs"]), esc(b["name"]), len(b["runs"]),
            "" if len(b["runs"]) == 1 else "s", ", %d failed by the gate (red crosses)" % failed if failed else ""))
    runs = {}
    for b in benchmarks:
        for r in b["runs"]:
            runs.setdefault(r.get("id"), r)
    rows = "".join("<tr><td>#%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>" % (
        esc(r.get("id")), esc(r.get("git_sha") or "–"), esc(r.get("date") or "–"), esc(r.get("recorded_at") or "–"),
        "<b>failed</b>" if r.get("gate") == "fail" else esc(r.get("gate") or "–"))
        for _, r in sorted(runs.items(), key=lambda kv: kv[0] if isinstance(kv[0], int) else 0))
    out.append('<table id="trend-c%d-runs"><tr><th>run</th><th>git sha</th><th>measured</th><th>recorded (UTC)</th>'
               "<th>gate</th></tr>%s</table>" % (k, rows))
    return "".join(out)


def render(doc, source, css, title=None):
    classes = doc["classes"]
    title = title or "knotif trend — %d machine class%s" % (len(classes), "" if len(classes) == 1 else "es")
    nav = " ".join('<a href="#class-%d">class %d</a>' % (k, k) for k in range(1, len(classes) + 1))
    body = "".join('<section id="class-%d"><h2>%s</h2>%s</section>' % (k, esc(c.get("machine_class") or "?"),
                                                                         class_section(k, c))
                   for k, c in enumerate(classes, 1))
    if not classes:
        body = '<p class="missing" id="missing-runs">The history holds no runs.</p>'
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    intro = ("<p>Per machine class (CPU model, CPU count, kernel release, CPUs per placement) and benchmark: the "
             "median over each run's repetitions of the floor ratio (p50 over the same run's ping-pong floor) and "
             "of p50, in the order the runs were recorded. From <code>%s</code>.</p>" % esc(source))
    return shown.xml_clean(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>%s</title><style>%s</style></head>"
        "<body><header><h1>%s</h1><nav>%s</nav></header>%s%s<footer><p>Generated by knotif-report on %s.</p>"
        "</footer></body></html>\n" % (esc(title), css, esc(title), nav, intro, body, stamp))
