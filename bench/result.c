// SPDX-License-Identifier: GPL-2.0
#include "result.h"

#include <math.h>
#include <string.h>

#include "gbjson.h"
#include "table.h"

_Static_assert(FIG_STDDEV - FIG_MIN + 1 == GB_LAT_COUNT && FIG_P50 - FIG_MIN == GB_LAT_P50,
	       "the latency figures follow gbjson.h's gb_latency order");

/* Google Benchmark's own keys first, then knotif's counters */
static const char *const other_key[FIG_COUNT] = {
	[FIG_REAL] = "real_time", [FIG_CPU] = "cpu_time", [FIG_OPS] = "items_per_second",
	[FIG_CS] = "ctx_switches_per_op", [FIG_PREEMPT] = "preemptions_per_op", [FIG_MIG] = "migrations_per_op",
	[FIG_SUP_CPU] = "supervisor_cpu_time", [FIG_FLOOR] = "floor_ratio",
};

const char *figure_key(enum figure f)
{
	return f >= FIG_MIN && f <= FIG_STDDEV ? gb_latency_key[f - FIG_MIN] : other_key[f];
}

static double per_op(int64_t count, int64_t n)
{
	return count < 0 || n <= 0 ? NAN : (double)count / (double)n;
}

void result_add_rep(struct result *r, int rep, int64_t *samples, const struct rep_result *rr)
{
	double *f = r->fig[rep];
	struct summary s;

	summarize(samples, (size_t)rr->iterations, &s);
	f[FIG_REAL] = s.mean;
	f[FIG_CPU] = per_op(rr->cpu_ns, rr->iterations);
	gb_latency_values(&s, &f[FIG_MIN]);
	f[FIG_OPS] = s.mean > 0 ? 1e9 / s.mean : NAN;
	f[FIG_CS] = per_op(rr->ctx_switches, rr->iterations);
	f[FIG_PREEMPT] = per_op(rr->preemptions, rr->iterations);
	f[FIG_MIG] = per_op(rr->migrations, rr->iterations);
	f[FIG_SUP_CPU] = per_op(rr->sup_cpu_ns, rr->iterations);
	f[FIG_FLOOR] = NAN;
	for (int k = 0; k < BENCH_MAX_STEPS; k++)
		r->step[rep][k] = rr->step_calls > 0 ? (double)rr->step_ns[k] / (double)rr->step_calls : NAN;
	r->iterations = rr->iterations;
}

static int step_count(const struct result *r)
{
	int n = 0;

	while (r->m->steps && r->m->steps[n] && n < BENCH_MAX_STEPS)
		n++;
	return n;
}

/* step:<name>_ns, the mean of one call's step (method.steps), where calls were timed */
static void add_steps(json_t *row, const struct result *r, const double *step)
{
	char key[96];

	for (int k = 0; k < step_count(r); k++) {
		if (isnan(step[k]))
			continue;
		snprintf(key, sizeof(key), "step:%s_ns", r->m->steps[k]);
		gb_counter(row, key, step[k]);
	}
}

static void column(const struct result *r, enum figure f, double *out)
{
	for (int i = 0; i < r->reps; i++)
		out[i] = r->fig[i][f];
}

double result_headline(const struct result *r, enum figure f)
{
	double v[BENCH_MAX_REPS];

	if (r->status != RESULT_OK || r->reps == 0)
		return NAN;
	column(r, f, v);
	return median_of(v, (size_t)r->reps);
}

static bool is_floor(const struct result *r)
{
	return r->m->kind == KIND_FLOOR;
}

/*
 * A floor is two context switches per round trip. A futex hand-off between
 * two CPUs can skip them: when the token comes back before the waiter has
 * gone to sleep, FUTEX_WAIT returns at once (seen here: 1.9 µs, 0.97
 * switches per round trip, against 21 µs when it blocks). Such a run is
 * reported as a row but is no floor. Without counters, trust the run.
 */
#define FLOOR_MIN_SWITCHES 1.9

static bool blocked(const struct result *r)
{
	double cs = result_headline(r, FIG_CS);

	return isnan(cs) || cs >= FLOOR_MIN_SWITCHES;
}

/* the fastest ping-pong of this placement that blocked; NULL when none did */
static const struct result *floor_of(const struct result *res, int n, enum placement p)
{
	const struct result *best = NULL;

	for (int i = 0; i < n; i++) {
		if (res[i].placement != p || !is_floor(&res[i]) || res[i].status != RESULT_OK ||
		    !blocked(&res[i]))
			continue;
		if (!best || result_headline(&res[i], FIG_P50) < result_headline(best, FIG_P50))
			best = &res[i];
	}
	return best;
}

void results_apply_floor(struct result *res, int n)
{
	for (int i = 0; i < n; i++) {
		const struct result *fl = floor_of(res, n, res[i].placement);
		double floor_p50 = fl ? result_headline(fl, FIG_P50) : NAN;

		for (int rep = 0; rep < res[i].reps; rep++)
			res[i].fig[rep][FIG_FLOOR] = res[i].fig[rep][FIG_P50] / floor_p50;
	}
}

static void add_figures(json_t *row, const double *f)
{
	for (int k = FIG_MIN; k < FIG_COUNT; k++)
		if (!isnan(f[k]))
			gb_counter(row, figure_key((enum figure)k), f[k]);
}

/* Every row says what family its method is: readers never guess from the name. */
static void append(json_t *rows, json_t *row, const struct result *r)
{
	json_object_set_new(row, "kind", json_string(method_kind_name(r->m->kind)));
	/* what ran untimed first: a reader counting every round trip (vm-profile) needs it */
	if (r->warmup > 0)
		json_object_set_new(row, "warmup_iterations", json_integer(r->warmup));
	json_array_append_new(rows, row);
}

/* Aggregate a (mean, median, stddev, cv) of the repetitions' values v[0 .. n - 1]. */
static double aggregate(size_t a, double *v, size_t n)
{
	double mean = mean_of(v, n), sd = stddev_of(v, n);

	return a == 0 ? mean : a == 1 ? median_of(v, n) : a == 2 ? sd : sd / mean;
}

static void add_aggregates(json_t *rows, const struct result *r, int family)
{
	static const char *const aggs[] = { "mean", "median", "stddev", "cv" };

	for (size_t a = 0; a < 4; a++) {
		double agg[FIG_COUNT], step_agg[BENCH_MAX_STEPS], v[BENCH_MAX_REPS];
		json_t *row;

		for (int k = 0; k < FIG_COUNT; k++) {
			column(r, (enum figure)k, v);
			agg[k] = aggregate(a, v, (size_t)r->reps);
		}
		row = gb_aggregate(r->name, family, aggs[a], r->reps, r->iterations, agg[FIG_REAL], agg[FIG_CPU]);
		add_figures(row, agg);
		for (int k = 0; k < step_count(r); k++) {
			for (int rep = 0; rep < r->reps; rep++)
				v[rep] = r->step[rep][k];
			step_agg[k] = aggregate(a, v, (size_t)r->reps);
		}
		add_steps(row, r, step_agg);
		append(rows, row, r);
	}
}

json_t *results_to_rows(const struct result *res, int n)
{
	json_t *rows = json_array();
	int family = 0;

	for (int i = 0; i < n; i++) {
		const struct result *r = &res[i];

		if (!r->selected || r->status == RESULT_SKIPPED)
			continue;
		if (r->status != RESULT_OK) {
			append(rows, gb_error(r->name, family++, r->message), r);
			continue;
		}
		for (int rep = 0; rep < r->reps; rep++) {
			json_t *row = gb_iteration(r->name, family, rep, r->reps, r->iterations,
						   r->fig[rep][FIG_REAL], r->fig[rep][FIG_CPU]);

			add_figures(row, r->fig[rep]);
			add_steps(row, r, r->step[rep]);
			append(rows, row, r);
		}
		if (r->reps > 1)
			add_aggregates(rows, r, family);
		family++;
	}
	return rows;
}

/*
 * Why a placement that ran its ping-pongs has no floor: each one's fate, so
 * a reader of context.knotif.floor.<placement>.reason knows why its rows
 * carry no floor_ratio (under load a hand-off can catch its partner awake
 * in every round trip of a short run).
 */
static void no_floor_reason(char *buf, size_t len, const struct result *res, int n, enum placement p)
{
	size_t at = (size_t)snprintf(buf, len, "no ping-pong qualifies as the floor, so floor_ratio is left out:");

	for (int i = 0; i < n && at < len; i++) {
		const struct result *r = &res[i];

		if (r->placement != p || !is_floor(r) || r->status == RESULT_SKIPPED)
			continue;
		if (r->status == RESULT_OK)
			at += (size_t)snprintf(buf + at, len - at, " %s %.2f context switches per round trip (a floor needs %.1f);",
					       r->name, result_headline(r, FIG_CS), FLOOR_MIN_SWITCHES);
		else
			at += (size_t)snprintf(buf + at, len - at, " %s %s;", r->name, r->message);
	}
	if (at < len && buf[at - 1] == ';')
		buf[at - 1] = 0;
}

json_t *results_floor_context(const struct result *res, int n)
{
	json_t *floors = json_object();

	for (int p = 0; p < PLACEMENT_COUNT; p++) {
		const struct result *fl = floor_of(res, n, (enum placement)p);
		json_t *skipped = json_object();
		bool ran = false;
		char reason[512];

		for (int i = 0; i < n; i++) {
			if (res[i].placement != (enum placement)p || !is_floor(&res[i]) ||
			    res[i].status == RESULT_SKIPPED)
				continue;
			ran = true;
			if (res[i].status == RESULT_OK && !blocked(&res[i]))
				json_object_set_new(skipped, res[i].name,
						    json_real(result_headline(&res[i], FIG_CS)));
		}
		if (fl) {
			json_object_set_new(floors, placement_name((enum placement)p),
					    json_pack("{s:s,s:f,s:o}", "benchmark", fl->name,
						      "p50", result_headline(fl, FIG_P50),
						      "not_blocking", skipped));
		} else if (ran) {
			no_floor_reason(reason, sizeof(reason), res, n, (enum placement)p);
			json_object_set_new(floors, placement_name((enum placement)p),
					    json_pack("{s:n,s:n,s:o,s:s}", "benchmark", "p50", "not_blocking", skipped,
						      "reason", reason));
		} else {
			json_decref(skipped);
		}
	}
	return floors;
}

static void fmt_us(char *buf, size_t len, double ns)
{
	if (isnan(ns))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.3f", ns / 1000.0);
}

static void fmt_num(char *buf, size_t len, int decimals, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.*f", decimals, v);
}

void results_print_console(const struct result *res, int n, FILE *out)
{
	static const char *const headers[] = {
		"Benchmark", "p50 µs", "mean µs", "σ µs", "min µs", "p90 µs", "p99 µs", "p99.9 µs",
		"max µs", "ops/s", "cs/op", "×floor", "cv %",
	};
	static const enum figure us_cols[] = { FIG_P50, FIG_REAL, FIG_STDDEV, FIG_MIN, FIG_P90,
					       FIG_P99, FIG_P999, FIG_MAX };
	struct table *t = table_new(13, headers, "lrrrrrrrrrrrr");
	char cells[13][200], note[BENCH_ERROR_LEN + 200];

	for (int i = 0; i < n; i++) {
		const struct result *r = &res[i];
		const char *row[13];
		double v[BENCH_MAX_REPS];

		if (!r->selected || r->status == RESULT_SKIPPED)
			continue;
		if (r->status != RESULT_OK) {
			snprintf(note, sizeof(note), "%s  %s%s", r->name,
				 r->status == RESULT_FAILED ? "FAILED: " : "", r->message);
			table_add_note(t, note);
			continue;
		}
		snprintf(cells[0], sizeof(cells[0]), "%s", r->name);
		for (size_t c = 0; c < 8; c++)
			fmt_us(cells[c + 1], sizeof(cells[0]), result_headline(r, us_cols[c]));
		fmt_num(cells[9], sizeof(cells[0]), 0, result_headline(r, FIG_OPS));
		fmt_num(cells[10], sizeof(cells[0]), 2, result_headline(r, FIG_CS));
		fmt_num(cells[11], sizeof(cells[0]), 2, result_headline(r, FIG_FLOOR));
		column(r, FIG_REAL, v);
		fmt_num(cells[12], sizeof(cells[0]), 1,
			r->reps > 1 ? 100 * stddev_of(v, (size_t)r->reps) / mean_of(v, (size_t)r->reps) : NAN);
		for (int c = 0; c < 13; c++)
			row[c] = cells[c];
		table_add(t, row);
	}
	table_print(t, out);
	table_free(t);
}
