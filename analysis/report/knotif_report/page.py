# SPDX-License-Identifier: GPL-2.0
"""The HTML page: one file, inline CSS and SVG, no scripts, no external URLs."""
import datetime
import math

from . import figures, inputs, shown

CSS = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1100px; padding: 0 1.2em 3em; color: #222; }
h1 { margin-bottom: .2em; } h2 { border-bottom: 1px solid #ccc; margin-top: 2em; }
nav a { margin-right: 1em; }
table { border-collapse: collapse; margin: .6em 0; font-size: 13px; }
th, td { padding: .15em .7em; border-bottom: 1px solid #eee; text-align: right; }
th:first-child, td:first-child { text-align: left; }
/* a name of any length stays whole on the page (the figures elide it) and wraps, not widening the table */
td:first-child, table.kv td, figcaption, h1, h2, h3 { overflow-wrap: anywhere; }
table.kv td { text-align: left; } table.kv td:first-child { color: #555; white-space: nowrap; }
td.note { text-align: left; color: #8a5a00; }
figure { margin: 1em 0; } figure svg { width: 100%; max-width: 900px; height: auto; }
figcaption { color: #555; font-size: 12.5px; max-width: 60em; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(320px, 1fr)); gap: .6em; }
.grid figure { margin: 0; }
p.missing { color: #8a5a00; background: #fff7e6; padding: .4em .7em; border-left: 3px solid #e0a000; }
code { background: #f4f4f4; padding: 0 .2em; }
"""

SECTIONS = [("run", "Run"), ("summary", "Summary"), ("distributions", "Latency distributions"),
            ("histograms", "Histograms"), ("floor", "Floor ratios"), ("stress", "Stress scaling"),
            ("trace", "Trace phases"), ("workloads", "Real workloads")]


# every string from the inputs (names, hosts, kernel strings, command lines) reaches the page through esc()
esc = shown.html_text


def missing(section, text):
    return '<p class="missing" id="missing-%s">%s</p>' % (section, text)


def figure(svg, caption):
    return "<figure>%s<figcaption>%s</figcaption></figure>" % (svg, caption)


def fmt_us(ns):
    if ns is None or (isinstance(ns, float) and math.isnan(ns)):
        return "–"
    return "%.2f" % (ns / 1000.0)


def run_section(bench, inputs):
    ctx, k = bench.context, bench.knotif
    rows = [
        ("date", ctx.get("date")), ("host", ctx.get("host_name")),
        ("kernel", "%s %s" % (k.get("kernel_release", "?"), k.get("kernel_version", ""))),
        ("CPU", "%s, %s CPUs at %s MHz" % (k.get("cpu_model", "?"), ctx.get("num_cpus", "?"), ctx.get("mhz_per_cpu", "?"))),
        ("load average", " ".join("%.2f" % x for x in ctx.get("load_avg", []) if isinstance(x, (int, float)))),
        ("knotif", "%s (%s, %s build)" % (k.get("version", "?"), k.get("git_sha", "?"), ctx.get("library_build_type", "?"))),
        ("trapped syscall", k.get("syscall")),
        ("samples", "%s per repetition × %s repetitions" % (k.get("samples_per_repetition", "?"), k.get("repetitions", "?"))),
        ("placements", "; ".join("%s: target CPU %s, supervisor CPU %s" % (p, v.get("target_cpu"), v.get("supervisor_cpu"))
                                 for p, v in (k.get("placements") or {}).items() if isinstance(v, dict))),
        ("floor", "; ".join("%s: %s p50 %s µs" % (p, v.get("benchmark"), fmt_us(v.get("p50")))
                            for p, v in (k.get("floor") or {}).items() if isinstance(v, dict))),
        ("clocksource", k.get("clocksource")),
        ("command line", " ".join(k.get("command_line", []))),
        ("inputs", "; ".join("%s: %s" % (n, p) for n, p in inputs if p)),
    ]
    body = "".join("<tr><td>%s</td><td>%s</td></tr>" % (esc(a), esc(b)) for a, b in rows if b)
    return '<table class="kv">%s</table>' % body


def summary_section(bench):
    out = []
    for placement in bench.placements():
        out.append("<h3>placement %s</h3>" % esc(placement))
        out.append('<table id="summary-%s"><tr><th>method</th><th>p50 µs</th><th>p90</th><th>p99</th>'
                   "<th>p99.9</th><th>min</th><th>max</th><th>floor ratio</th><th>reps</th></tr>" % figures.slug(placement))
        for r in (r for r in bench.runs if r.placement == placement):
            if r.error:
                out.append('<tr><td>%s</td><td class="note" colspan="8">%s</td></tr>' % (esc(r.method), esc(r.error)))
                continue
            fr = r.value("floor_ratio")
            out.append("<tr><td>%s</td>%s<td>%s</td><td>%d</td></tr>" % (
                esc(r.method), "".join("<td>%s</td>" % fmt_us(r.value(q)) for q in ("p50", "p90", "p99", "p999", "min", "max")),
                "%.3f" % fr if fr is not None else "–", len(r.reps)))
        out.append("</table>")
    out.append("<p>Medians over repetitions (Google Benchmark's <code>_median</code> rows when present); "
               "floor ratio: p50 over the fastest ping-pong p50 at the same placement.</p>")
    return "".join(out)


def measured(bench, placement):
    return [r for r in bench.runs if r.placement == placement and not r.error and r.value("p50") is not None]


def distributions_section(bench, samples, palette):
    out = []
    for placement in bench.placements():
        runs = measured(bench, placement)
        if not runs:
            continue
        svg = figures.latency_ccdf(placement, runs, samples, palette)
        cap = ("Fraction of round trips slower than x. A curve further left is faster; its drop "
               "at the right shows the tail. ")
        cap += ("From the raw samples of every repetition, pooled." if samples is not None else
                "Without <code>--samples</code>: only the quantiles in the JSON (min, p50, p90, p99, p99.9, max) "
                "are plotted, joined by straight lines.")
        out.append(figure(svg, cap))
    return "".join(out)


def histograms_section(bench, samples, palette):
    if samples is None:
        return missing("histograms", "Not provided: histograms need the raw samples "
                       "(<code>--samples FILE.csv</code> from <code>knotif-bench --samples_out</code>).")
    out = []
    for placement in bench.placements():
        runs = [r for r in measured(bench, placement) if r.name in samples]
        if not runs:
            continue
        out.append("<h3>placement %s</h3><div class=\"grid\">" % esc(placement))
        out += ["<figure>%s</figure>" % figures.latency_hist(r, samples, palette) for r in runs]
        out.append("</div>")
    return "".join(out) or missing("histograms", "The samples file has no rows for these benchmarks.")


def floor_section(bench, palette):
    out = []
    floors = bench.knotif.get("floor") or {}
    for placement in bench.placements():
        runs = measured(bench, placement)
        if not any(r.value("floor_ratio") for r in runs):
            continue
        svg = figures.floor_bars(placement, runs, floors.get(placement), palette)
        out.append(figure(svg, "How many ping-pong floors each method's median round trip costs at placement %s "
                               "(1 = as fast as two processes handing a token back and forth). Whiskers: the lowest "
                               "and highest repetition." % esc(placement)))
    return "".join(out) or missing("floor", "No benchmark carries a floor_ratio.")


def tolerant_section(section, loaded, flag, origin, draw):
    """An optional input read tolerantly: (items, note) from inputs, or None."""
    if loaded is None:
        return missing(section, "Not provided: <code>%s</code> (%s)." % (flag, origin))
    items, note = loaded
    return missing(section, "Not plotted: " + esc(note)) if note else draw(items)


def stress_figures(series):
    out = []
    for kind, y_axes in inputs.STRESS_Y.items():
        facets = list(dict.fromkeys(s.facet for s in series if s.kind == kind))
        for facet in facets:
            ss = [s for s in series if s.kind == kind and s.facet == facet]
            cap = ("Each line is one strategy (and supervisor threads, wake-up mode, reply); every target loops "
                   "on a trapped call and one supervisor serves them all. Medians over repetitions."
                   if kind == "stress" else
                   "M notifications held pending on one filter while a probe's reply is timed: a list walk "
                   "per SEND and ID_VALID shows as a slope. Medians over repetitions.")
            out.append(figure(figures.stress_curves(kind, facet, ss, y_axes), cap))
    return "".join(out)


def trace_figure(bars):
    return figure(figures.trace_stacked(bars),
                  "Where a round trip's time goes: queued until the supervisor receives it, the supervisor's "
                  "think time, and the wake-up until the target resumes. Means add up; the mark is the mean "
                  "round trip over the events where every phase was seen.")


def workloads_section(workloads):
    if workloads is None:
        return missing("workloads", "Not provided: <code>--workloads hyperfine.json</code> "
                       "(analysis/workloads/compare-workloads).")
    ctx, groups = workloads
    out = []
    if ctx:
        out.append("<p>%s; %s runs after %s warm-ups; %s; %s. Intercepted: <code>%s</code>.</p>" % (
            esc(ctx.get("date", "")), esc(ctx.get("runs", "?")), esc(ctx.get("warmup", "?")),
            esc(ctx.get("hyperfine", "")), esc(ctx.get("strace", "")), esc(",".join(ctx.get("traced", [])))))
    for i, g in enumerate(groups):
        gid = "workload-%s" % figures.slug(g.title)
        base = g.results[0]
        calls = g.results[0].get("intercepted") or {}
        ncalls = sum(v for v in calls.values() if isinstance(v, (int, float)))
        rows = ["<tr><th>method</th><th>mean ± σ ms</th><th>median ms</th><th>min … max ms</th><th>ratio</th>"
                "<th>median ratio</th><th>per call µs</th></tr>"]
        for r in g.results:
            q = r["mean"] / base["mean"]
            s = q * math.hypot(r["stddev"] / r["mean"], base["stddev"] / base["mean"])
            per = "%.2f" % ((r["mean"] - base["mean"]) / ncalls * 1e6) if ncalls and r is not base else "–"
            med = r.get("median", float("nan"))
            rows.append("<tr><td>%s</td><td>%.1f ± %.1f</td><td>%.1f</td><td>%.1f … %.1f</td><td>%.2f ± %.2f</td>"
                        "<td>%.2f</td><td>%s</td></tr>" % (
                            esc(r["method"]), r["mean"] * 1e3, r["stddev"] * 1e3, med * 1e3,
                            r.get("min", float("nan")) * 1e3, r.get("max", float("nan")) * 1e3, q, s,
                            med / base.get("median", float("nan")), per))
        desc = (ctx.get("workloads") or {}).get(g.results[0].get("workload"), "")
        cap = "%s%s The first row is the baseline; ratio σ propagated as hyperfine does." % (
            esc(desc) + ". " if desc else "",
            " %d intercepted calls per run (%s)." % (ncalls, esc(", ".join("%s %s" % kv for kv in calls.items())))
            if ncalls else "")
        out.append(figure(figures.workload_bars(g, gid), cap))
        out.append('<table id="%s-table">%s</table>' % (gid, "".join(rows)))
    return "".join(out)


def render(bench, samples, stress, trace, workloads, inputs, title=None):
    palette = figures.Palette(bench.methods())
    title = title or "knotif report — %s, %s" % (bench.context.get("host_name", "?"), bench.context.get("date", "?"))
    parts = {
        "run": run_section(bench, inputs),
        "summary": summary_section(bench),
        "distributions": distributions_section(bench, samples, palette),
        "histograms": histograms_section(bench, samples, palette),
        "floor": floor_section(bench, palette),
        "stress": tolerant_section("stress", stress, "--stress FILE.json", "knotif-stress --benchmark_out",
                                   stress_figures),
        "trace": tolerant_section("trace", trace, "--trace FILE.json", "knotif-trace --summary", trace_figure),
        "workloads": workloads_section(workloads),
    }
    nav = " ".join('<a href="#%s">%s</a>' % (k, esc(v)) for k, v in SECTIONS)
    body = "".join('<section id="%s"><h2>%s</h2>%s</section>' % (k, esc(v), parts[k]) for k, v in SECTIONS)
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return shown.xml_clean(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>%s</title><style>%s</style></head>"
        "<body><header><h1>%s</h1><nav>%s</nav></header>%s<footer><p>Generated by knotif-report on %s.</p></footer>"
        "</body></html>\n" % (esc(title), CSS, esc(title), nav, body, stamp))
