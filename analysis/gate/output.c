// SPDX-License-Identifier: GPL-2.0
#include "output.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "table.h"

static bool is_time(enum gb_figure f)
{
	return f != GB_FLOOR_RATIO;
}

static void fmt_value(char *buf, size_t len, double v, enum gb_figure f)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (is_time(f))
		snprintf(buf, len, "%.3f µs", v / 1000);
	else
		snprintf(buf, len, "%.3f", v);
}

static void fmt_change(char *buf, size_t len, double base, double new)
{
	if (isnan(base) || isnan(new))
		snprintf(buf, len, "-");
	else if (base == new)
		snprintf(buf, len, "+0.0%%");
	else if (base == 0)
		snprintf(buf, len, "+inf");
	else
		snprintf(buf, len, "%+.1f%%", (new / base - 1) * 100);
}

/*
 * "# base: PATH (host, kernel, git sha, date)": every part is the input's,
 * so it is escaped and bounded as a table cell is (table.h), one line
 * whatever the file says.
 */
static void print_file_label(FILE *out, const char *what, const struct gb_file *f)
{
	char *shown[] = {
		escape_elided(f->path, TABLE_TEXT_MAX),
		escape_elided(gb_context_str(f, "host_name"), TABLE_CELL_MAX),
		escape_elided(gb_knotif_str(f, "kernel_release"), TABLE_CELL_MAX),
		escape_elided(gb_knotif_str(f, "git_sha"), TABLE_CELL_MAX),
		escape_elided(gb_context_str(f, "date"), TABLE_CELL_MAX),
	};

	fprintf(out, "# %s %s (%s, %s, git %s, %s)\n", what, shown[0], shown[1], shown[2], shown[3],
		shown[4]);
	for (size_t i = 0; i < sizeof(shown) / sizeof(shown[0]); i++)
		free(shown[i]);
}

void gate_print_console(FILE *out, const struct gb_file *base, const struct gb_file *new,
			const struct gate_options *o, const struct gate_result *r)
{
	static const char *const headers[] = {
		"benchmark", "reps", "p50 base", "p50 new", "Δp50", "Δp99", "Δmean",
		"gated base", "gated new", "Δgated", "U p", "verdict",
	};
	struct table *t = table_new(12, headers, "lrrrrrrrrrrl");
	const struct comparison *worst = NULL;

	print_file_label(out, "base:", base);
	print_file_label(out, "new: ", new);
	if (o->deterministic)
		fprintf(out, "# gated: median %s over repetitions, regression above %+.1f%% (deterministic: no U test)\n",
			gb_figure_key(o->metric), o->threshold * 100);
	else
		fprintf(out, "# gated: median %s over repetitions, regression above %+.1f%% with Mann-Whitney U p < %g\n",
			gb_figure_key(o->metric), o->threshold * 100, o->alpha);
	for (size_t i = 0; i < r->count; i++) {
		const struct comparison *c = &r->c[i];
		char reps[32] = "-", cell[SHOWN_COUNT + 4][48], p[32] = "-", gb[48] = "-", gn[48] = "-",
		     gd[48] = "-";

		memset(cell, 0, sizeof(cell));
		for (int k = 0; k < SHOWN_COUNT; k++)
			fmt_change(cell[k], sizeof(cell[k]), c->shown_base[k], c->shown_new[k]);
		if (c->reps_base || c->reps_new)
			snprintf(reps, sizeof(reps), "%zu/%zu", c->reps_base, c->reps_new);
		if (verdict_gated(c->verdict) || c->verdict == VERDICT_REPORT_ONLY ||
		    c->verdict == VERDICT_TOO_FEW) {
			fmt_value(cell[SHOWN_COUNT], sizeof(cell[0]), c->shown_base[SHOWN_P50], GB_P50);
			fmt_value(cell[SHOWN_COUNT + 1], sizeof(cell[0]), c->shown_new[SHOWN_P50], GB_P50);
			if (c->reps_base && c->reps_new) {
				fmt_value(gb, sizeof(gb), c->base, c->metric);
				fmt_value(gn, sizeof(gn), c->new, c->metric);
				fmt_change(gd, sizeof(gd), c->base, c->new);
			}
			if (c->have_u)
				snprintf(p, sizeof(p), c->u.pvalue < 1e-4 ? "%.1e" : "%.4f", c->u.pvalue);
		} else {
			for (int k = 0; k < SHOWN_COUNT; k++)
				strcpy(cell[k], "-");
			strcpy(cell[SHOWN_COUNT], "-");
			strcpy(cell[SHOWN_COUNT + 1], "-");
		}
		table_add(t, (const char *const[]){
			c->name, reps, cell[SHOWN_COUNT], cell[SHOWN_COUNT + 1], cell[SHOWN_P50],
			cell[SHOWN_P99], cell[SHOWN_MEAN], gb, gn, gd, p, verdict_name(c->verdict) });
		if (c->note[0]) {
			char note[320];

			snprintf(note, sizeof(note), "  ↳ %s", c->note);
			table_add_note(t, note);
		}
		if (c->verdict == VERDICT_REGRESSION && (!worst || c->change > worst->change))
			worst = c;
	}
	table_print(t, out);
	table_free(t);
	if (r->regressions) {
		/* the name as its row shows it */
		char *worst_name = escape_elided(worst->name, TABLE_CELL_MAX);
		fprintf(out, "verdict: REGRESSION: %zu of %zu gated benchmarks, worst %s %s %+.1f%% (p %.2g)\n",
			r->regressions, r->gated, worst_name, gb_figure_key(worst->metric),
			worst->change * 100, worst->u.pvalue);
		free(worst_name);
	} else {
		fprintf(out, "verdict: pass: %zu gated benchmarks, none beyond %+.1f%%%s; %zu improved\n",
			r->gated, o->threshold * 100, o->deterministic ? "" : " with p < alpha",
			r->improvements);
	}
}

/* jansson refuses NaN and infinities: those become null */
static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *file_json(const struct gb_file *f)
{
	return json_pack("{s:s,s:s,s:s,s:s,s:s,s:s}", "path", f->path,
			 "host_name", gb_context_str(f, "host_name"),
			 "cpu_model", gb_knotif_str(f, "cpu_model"),
			 "kernel_release", gb_knotif_str(f, "kernel_release"),
			 "git_sha", gb_knotif_str(f, "git_sha"), "date", gb_context_str(f, "date"));
}

/* one comparison as its JSON row */
static json_t *comparison_json(const struct comparison *c)
{
	static const char *const shown_keys[SHOWN_COUNT] = { "p50", "p99", "real_time" };
	json_t *row = json_pack("{s:s,s:s}", "name", c->name, "verdict", verdict_name(c->verdict));

	if (c->reps_base || c->reps_new) {
		json_object_set_new(row, "metric", json_string(gb_figure_key(c->metric)));
		json_object_set_new(row, "reps_base", json_integer((json_int_t)c->reps_base));
		json_object_set_new(row, "reps_new", json_integer((json_int_t)c->reps_new));
		json_object_set_new(row, "base", num(c->base));
		json_object_set_new(row, "new", num(c->new));
		json_object_set_new(row, "change", num(c->change));
		for (int k = 0; k < SHOWN_COUNT; k++)
			json_object_set_new(row, shown_keys[k], json_pack("{s:o,s:o}",
				"base", num(c->shown_base[k]), "new", num(c->shown_new[k])));
	}
	if (c->have_u) {
		json_object_set_new(row, "pvalue", num(c->u.pvalue));
		json_object_set_new(row, "u1", num(c->u.u1));
		json_object_set_new(row, "utest_method", json_string(c->u.exact ? "exact" : "asymptotic"));
	}
	if (c->note[0])
		json_object_set_new(row, "note", json_string(c->note));
	return row;
}

/* [sep] "key": value, or an array's [sep] value (key NULL); the value is taken; -EIO when it cannot be written */
static int member(FILE *out, const char *sep, const char *key, json_t *v)
{
	int err;

	if (key)
		fprintf(out, "%s\n  \"%s\": ", sep, key);
	else
		fprintf(out, "%s\n    ", sep);
	err = !v || json_dumpf(v, out, JSON_COMPACT | JSON_REAL_PRECISION(12)) ? -EIO : 0;
	json_decref(v);
	return err;
}

/*
 * The document is written as it is made, one benchmark a line: the output
 * of 100,000 comparisons is never held whole (knotif-compare keeps the
 * series, not documents).
 */
int gate_print_json(FILE *out, const struct gb_file *base, const struct gb_file *new,
		    const struct gate_options *o, const struct gate_result *r)
{
	int err = 0;

	fputc('{', out);
	err |= member(out, "", "base", file_json(base));
	err |= member(out, ",", "new", file_json(new));
	err |= member(out, ",", "options", json_pack("{s:s,s:o,s:o,s:b}",
		"metric", gb_figure_key(o->metric), "threshold", num(o->threshold),
		"alpha", num(o->alpha), "deterministic", o->deterministic));
	fprintf(out, ",\n  \"benchmarks\": [");
	for (size_t i = 0; i < r->count; i++)
		err |= member(out, i ? "," : "", NULL, comparison_json(&r->c[i]));
	fprintf(out, "\n  ]");
	err |= member(out, ",", "summary", json_pack("{s:s,s:I,s:I,s:I,s:b}",
		"verdict", r->regressions ? "regression" : "pass", "gated", (json_int_t)r->gated,
		"regressions", (json_int_t)r->regressions, "improvements", (json_int_t)r->improvements,
		"same_host", r->same_host));
	fputs("\n}\n", out);
	return err || ferror(out) ? -EIO : 0;
}
