// SPDX-License-Identifier: GPL-2.0
#include "verdict.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

static const char *const verdict_names[] = {
	[VERDICT_PASS] = "pass",
	[VERDICT_REGRESSION] = "REGRESSION",
	[VERDICT_IMPROVED] = "improved",
	[VERDICT_UNSURE] = "unsure",
	[VERDICT_UNCONFIRMED] = "unconfirmed",
	[VERDICT_REPORT_ONLY] = "report-only",
	[VERDICT_TOO_FEW] = "too-few-reps",
	[VERDICT_ERROR] = "error",
	[VERDICT_ONLY_BASE] = "only-in-base",
	[VERDICT_ONLY_NEW] = "only-in-new",
};

const char *verdict_name(enum verdict v)
{
	return verdict_names[v];
}

bool verdict_gated(enum verdict v)
{
	return v == VERDICT_PASS || v == VERDICT_REGRESSION || v == VERDICT_IMPROVED ||
	       v == VERDICT_UNSURE || v == VERDICT_UNCONFIRMED;
}

/*
 * Floor rows (the ping-pong) are the floor itself: floor_ratio is 1.0 by
 * construction. Their rows say so ("kind": "floor"); either file may.
 */
static bool is_floor(const struct gb_series *b, const struct gb_series *n)
{
	return (b->kind && !strcmp(b->kind, "floor")) || (n->kind && !strcmp(n->kind, "floor"));
}

/* the non-NaN values of one figure; returns how many */
static size_t values(const struct gb_series *s, enum gb_figure f, double *out)
{
	size_t n = 0;

	for (size_t i = 0; i < s->reps; i++)
		if (!isnan(s->fig[f][i]))
			out[n++] = s->fig[f][i];
	return n;
}

static double median_fig(const struct gb_series *s, enum gb_figure f, double *scratch)
{
	size_t n = values(s, f, scratch);

	return n ? median_of(scratch, n) : NAN;
}

static double change_of(double base, double new)
{
	if (base == new)
		return 0;
	return new / base - 1;	/* base 0 gives +inf */
}

static bool same_host(const struct gb_file *a, const struct gb_file *b)
{
	const char *ha = gb_context_str(a, "host_name"), *hb = gb_context_str(b, "host_name");

	return *ha && !strcmp(ha, hb) &&
	       !strcmp(gb_knotif_str(a, "cpu_model"), gb_knotif_str(b, "cpu_model"));
}

static void decide(struct comparison *c, const struct gate_options *o)
{
	double shrink = 1 / (1 + o->threshold) - 1;	/* the threshold mirrored: +50 % ↔ −33 % */
	bool worse = c->change > o->threshold, better = c->change < shrink;

	if (o->deterministic) {
		c->verdict = worse ? VERDICT_REGRESSION : better ? VERDICT_IMPROVED : VERDICT_PASS;
		return;
	}
	if (mann_whitney_min_pvalue(c->reps_base, c->reps_new) >= o->alpha) {
		c->verdict = VERDICT_TOO_FEW;
		snprintf(c->note, sizeof(c->note),
			 "%zu vs %zu repetitions cannot reach p < %g (smallest p %.3f): use %d or more",
			 c->reps_base, c->reps_new, o->alpha,
			 mann_whitney_min_pvalue(c->reps_base, c->reps_new), GATE_OPTIMAL_REPETITIONS);
		return;
	}
	if (!worse && !better)
		c->verdict = VERDICT_PASS;
	else if (c->u.pvalue >= o->alpha)
		c->verdict = VERDICT_UNSURE;
	else
		c->verdict = worse ? VERDICT_REGRESSION : VERDICT_IMPROVED;
}

/* A regression stands only if o->confirm regressed too. */
static void confirm(struct comparison *c, const struct gb_series *b, const struct gb_series *n,
		    const struct gate_options *o, double *xb, double *xn)
{
	size_t nb = values(b, o->confirm, xb), nn = values(n, o->confirm, xn);
	double change = NAN;
	struct mwu u = { .pvalue = NAN };

	if (nb && nn) {
		change = change_of(median_of(xb, nb), median_of(xn, nn));
		if (mann_whitney_u(xb, nb, xn, nn, &u))
			u.pvalue = NAN;
		if (change > o->threshold && (o->deterministic || u.pvalue < o->alpha))
			return;
	}
	c->verdict = VERDICT_UNCONFIRMED;
	snprintf(c->note, sizeof(c->note),
		 "%s %+.1f%% (p %.2g) not confirmed by %s %+.1f%% (p %.2g): did the runs' conditions differ?",
		 gb_figure_key(c->metric), c->change * 100, c->u.pvalue, gb_figure_key(o->confirm),
		 change * 100, u.pvalue);
}

static void compare_one(struct comparison *c, const struct gb_series *b, const struct gb_series *n,
			const struct gate_options *o, bool host_match, double *xb, double *xn)
{
	static const enum gb_figure shown[SHOWN_COUNT] = { GB_P50, GB_P99, GB_REAL_TIME };
	size_t nb, nn;

	c->metric = o->metric;
	if (b->error || n->error) {
		c->verdict = VERDICT_ERROR;
		snprintf(c->note, sizeof(c->note), "%s%s%s%s%s", b->error ? "base: " : "",
			 b->error ? b->error : "", b->error && n->error ? "; " : "",
			 n->error ? "new: " : "", n->error ? n->error : "");
		return;
	}
	for (int k = 0; k < SHOWN_COUNT; k++) {
		c->shown_base[k] = median_fig(b, shown[k], xb);
		c->shown_new[k] = median_fig(n, shown[k], xn);
	}
	if (o->metric == GB_FLOOR_RATIO && is_floor(b, n))
		c->metric = GB_P50;	/* the floor's own p50: what every floor_ratio divides by */
	nb = values(b, c->metric, xb);
	nn = values(n, c->metric, xn);
	c->reps_base = nb;
	c->reps_new = nn;
	if (!nb || !nn) {
		c->verdict = VERDICT_REPORT_ONLY;
		snprintf(c->note, sizeof(c->note), "no %s in %s%s", gb_figure_key(c->metric),
			 !nb ? "base" : "new",
			 c->metric == GB_FLOOR_RATIO ? " (no ping-pong floor ran at this placement)" : "");
		return;
	}
	c->base = median_of(xb, nb);
	c->new = median_of(xn, nn);
	c->change = change_of(c->base, c->new);
	c->have_u = !mann_whitney_u(xb, nb, xn, nn, &c->u);
	if (!c->have_u)
		c->u.pvalue = NAN;
	if (o->report_only && !regexec(o->report_only, c->name, 0, NULL, 0)) {
		c->verdict = VERDICT_REPORT_ONLY;
		snprintf(c->note, sizeof(c->note), "not gated (--report-only)");
		return;
	}
	if (c->metric != o->metric && !o->deterministic &&
	    (o->floor == FLOOR_REPORT || (o->floor == FLOOR_AUTO && !host_match))) {
		c->verdict = VERDICT_REPORT_ONLY;
		snprintf(c->note, sizeof(c->note), "the floor itself: its p50 is not gated (%s)",
			 o->floor == FLOOR_REPORT ? "--floor=report" : "different hosts");
		return;
	}
	decide(c, o);
	if (c->verdict == VERDICT_REGRESSION && o->confirm != GB_FIGURE_COUNT && o->confirm != c->metric)
		confirm(c, b, n, o, xb, xn);
	if (c->metric != o->metric && !c->note[0])
		snprintf(c->note, sizeof(c->note), "the floor itself: gated on p50 (%s)",
			 o->deterministic ? "deterministic" : o->floor == FLOOR_GATE ? "--floor=gate" : "same host");
}

int gate_compare(const struct gb_file *base, const struct gb_file *new,
		 const struct gate_options *o, struct gate_result *r)
{
	size_t maxreps = 1, cap = base->count + new->count;
	double *xb, *xn;

	memset(r, 0, sizeof(*r));
	r->same_host = same_host(base, new);
	for (size_t i = 0; i < base->count; i++)
		maxreps = base->series[i].reps > maxreps ? base->series[i].reps : maxreps;
	for (size_t i = 0; i < new->count; i++)
		maxreps = new->series[i].reps > maxreps ? new->series[i].reps : maxreps;
	r->c = calloc(cap ? cap : 1, sizeof(*r->c));
	xb = malloc(maxreps * sizeof(*xb));
	xn = malloc(maxreps * sizeof(*xn));
	if (!r->c || !xb || !xn) {
		free(xb);
		free(xn);
		gate_result_free(r);
		return -ENOMEM;
	}
	for (size_t i = 0; i < base->count; i++) {
		const struct gb_series *b = &base->series[i], *n = gb_file_find(new, b->name);
		struct comparison *c = &r->c[r->count++];

		c->name = b->name;
		if (!n) {
			c->verdict = VERDICT_ONLY_BASE;
			continue;
		}
		compare_one(c, b, n, o, r->same_host, xb, xn);
		if (verdict_gated(c->verdict)) {
			r->gated++;
			if (c->reps_base < GATE_OPTIMAL_REPETITIONS ||
			    c->reps_new < GATE_OPTIMAL_REPETITIONS)
				r->few_reps++;
		}
		r->regressions += c->verdict == VERDICT_REGRESSION;
		r->improvements += c->verdict == VERDICT_IMPROVED;
	}
	for (size_t i = 0; i < new->count; i++) {
		if (gb_file_find(base, new->series[i].name))
			continue;
		r->c[r->count].name = new->series[i].name;
		r->c[r->count++].verdict = VERDICT_ONLY_NEW;
	}
	free(xb);
	free(xn);
	return 0;
}

void gate_result_free(struct gate_result *r)
{
	free(r->c);
	memset(r, 0, sizeof(*r));
}
