// SPDX-License-Identifier: GPL-2.0
#include "trend.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "stats.h"
#include "why.h"

enum { COL_CLASS, COL_BENCHMARK, COL_ID, COL_GIT, COL_DATE, COL_RECORDED, COL_GATE, COL_FLOOR, COL_P50 };

/* a string as JSON; one that is not UTF-8 (a database anyone can write) escaped */
static json_t *text_or_null(const char *s)
{
	json_t *v;
	char *e;

	if (!s)
		return json_null();
	if ((v = json_string(s)))
		return v;
	e = escape_text(s);
	v = json_string(e);
	free(e);
	return v;
}

static json_t *number_or_null(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

static bool same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* the median of the non-NULL cells of col in rows [from, to) */
static double median_cells(const struct store_rows *r, size_t from, size_t to, int col, double *scratch)
{
	size_t n = 0;

	for (size_t i = from; i < to; i++)
		if (store_cell(r, i, (size_t)col))
			scratch[n++] = strtod(store_cell(r, i, (size_t)col), NULL);
	return median_of(scratch, n);
}

static json_t *run_point(const struct store_rows *r, size_t from, size_t to, double *scratch)
{
	return json_pack("{s:I,s:o,s:o,s:o,s:o,s:I,s:o,s:o}",
			 "id", (json_int_t)atoll(store_cell(r, from, COL_ID)),
			 "git_sha", text_or_null(store_cell(r, from, COL_GIT)),
			 "date", text_or_null(store_cell(r, from, COL_DATE)),
			 "recorded_at", text_or_null(store_cell(r, from, COL_RECORDED)),
			 "gate", text_or_null(store_cell(r, from, COL_GATE)),
			 "repetitions", (json_int_t)(to - from),
			 "floor_ratio", number_or_null(median_cells(r, from, to, COL_FLOOR, scratch)),
			 "p50_ns", number_or_null(median_cells(r, from, to, COL_P50, scratch)));
}

json_t *history_trend(struct store *s, const char *machine_class, char *why, size_t len)
{
	static const char sql[] =
		"SELECT r.machine_class, x.benchmark, r.id, r.git_sha, r.date, r.recorded_at, r.gate,"
		" x.floor_ratio, x.p50 FROM runs r JOIN results x ON x.run_id = r.id"
		" WHERE x.error_message IS NULL AND (CAST($1 AS TEXT) IS NULL OR r.machine_class = $1)"
		" ORDER BY r.machine_class, x.benchmark, r.id";
	json_t *classes = json_array(), *cls = NULL, *benchmarks = NULL, *runs = NULL;
	struct store_rows r;
	double *scratch;
	int err = store_query(s, sql, 1, &machine_class, &r, why, len);

	if (err) {
		json_decref(classes);
		return NULL;
	}
	scratch = calloc(r.nrows ? r.nrows : 1, sizeof(*scratch));
	if (!scratch) {
		why_fail(-ENOMEM, why, len, "out of memory");
		json_decref(classes);
		store_rows_free(&r);
		return NULL;
	}
	/* rows come grouped: class, then benchmark, then run; each run's repetitions together */
	for (size_t i = 0, end; i < r.nrows; i = end) {
		for (end = i + 1; end < r.nrows && same(store_cell(&r, end, COL_CLASS), store_cell(&r, i, COL_CLASS)) &&
		     same(store_cell(&r, end, COL_BENCHMARK), store_cell(&r, i, COL_BENCHMARK)) &&
		     same(store_cell(&r, end, COL_ID), store_cell(&r, i, COL_ID)); end++)
			;
		if (!i || !same(store_cell(&r, i, COL_CLASS), store_cell(&r, i - 1, COL_CLASS))) {
			benchmarks = json_array();
			cls = json_pack("{s:o,s:o}", "machine_class", text_or_null(store_cell(&r, i, COL_CLASS)),
					"benchmarks", benchmarks);
			json_array_append_new(classes, cls);
			runs = NULL;
		}
		if (!runs || !same(store_cell(&r, i, COL_BENCHMARK), store_cell(&r, i - 1, COL_BENCHMARK))) {
			runs = json_array();
			json_array_append_new(benchmarks, json_pack("{s:o,s:o}", "name", text_or_null(store_cell(&r, i, COL_BENCHMARK)),
								    "runs", runs));
		}
		json_array_append_new(runs, run_point(&r, i, end, scratch));
	}
	free(scratch);
	store_rows_free(&r);
	return json_pack("{s:i,s:o}", "trend_schema_version", 1, "classes", classes);
}
