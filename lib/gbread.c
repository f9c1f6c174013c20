// SPDX-License-Identifier: GPL-2.0
#include "gbread.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "why.h"

static const char *const figure_keys[GB_FIGURE_COUNT] = {
	[GB_REAL_TIME] = "real_time",
	[GB_CPU_TIME] = "cpu_time",
	[GB_P50] = "p50",
	[GB_P99] = "p99",
	[GB_FLOOR_RATIO] = "floor_ratio",
};

const char *gb_figure_key(enum gb_figure f)
{
	return f < GB_FIGURE_COUNT ? figure_keys[f] : "?";
}

int gb_figure_parse(const char *key, enum gb_figure *f)
{
	for (int i = 0; i < GB_FIGURE_COUNT; i++)
		if (!strcmp(key, figure_keys[i])) {
			*f = (enum gb_figure)i;
			return 0;
		}
	return -EINVAL;
}

static struct gb_series *series_for(struct gb_file *f, const char *name, size_t *cap)
{
	json_t *at = json_object_get(f->index, name);

	if (at)
		return &f->series[json_integer_value(at)];
	if (json_object_set_new(f->index, name, json_integer((json_int_t)f->count)))
		return NULL;
	if (f->count == *cap) {
		struct gb_series *s;

		*cap = *cap ? 2 * *cap : 16;
		s = realloc(f->series, *cap * sizeof(*s));
		if (!s)
			return NULL;
		f->series = s;
	}
	memset(&f->series[f->count], 0, sizeof(f->series[0]));
	f->series[f->count].name = name;
	return &f->series[f->count++];
}

/* ns per time_unit; GB writes real_time and cpu_time in the row's unit */
static double unit_ns(json_t *row)
{
	const char *u = json_string_value(json_object_get(row, "time_unit"));

	if (!u || !strcmp(u, "ns"))
		return 1;
	if (!strcmp(u, "us"))
		return 1e3;
	if (!strcmp(u, "ms"))
		return 1e6;
	if (!strcmp(u, "s"))
		return 1e9;
	return NAN;
}

/* the figure under its key, or under key + "_ns" (kernel/bench's spelling in the committed -icount results) */
static double figure_of(json_t *row, enum gb_figure k)
{
	char alt[32];
	json_t *val = json_object_get(row, figure_keys[k]);

	if (k == GB_REAL_TIME || k == GB_CPU_TIME)
		return json_is_number(val) ? json_number_value(val) * unit_ns(row) : NAN;
	if (!val) {
		snprintf(alt, sizeof(alt), "%s_ns", figure_keys[k]);
		val = json_object_get(row, alt);
	}
	return json_is_number(val) ? json_number_value(val) : NAN;
}

static int append_rep(struct gb_series *s, json_t *row)
{
	if (s->reps == s->reps_cap) {
		size_t cap = s->reps_cap ? 2 * s->reps_cap : 8;

		for (int k = 0; k < GB_FIGURE_COUNT; k++) {
			double *v = realloc(s->fig[k], cap * sizeof(*v));

			if (!v)
				return -ENOMEM;
			s->fig[k] = v;
		}
		s->reps_cap = cap;
	}
	for (int k = 0; k < GB_FIGURE_COUNT; k++)
		s->fig[k][s->reps] = figure_of(row, (enum gb_figure)k);
	s->reps++;
	return 0;
}

int gb_file_from_json(struct gb_file *f, json_t *root, const char *path, char *why, size_t len)
{
	json_t *rows, *row;
	size_t i, cap = 0;
	int err;

	memset(f, 0, sizeof(*f));
	f->path = path;
	f->root = root;
	f->index = json_object();
	if (!f->index) {
		err = why_fail(-ENOMEM, why, len, "%s: out of memory", path);
		goto out;
	}
	if (!json_is_object(root)) {
		err = why_fail(-EINVAL, why, len, "%s: not a benchmark result: the top level is not a JSON object", path);
		goto out;
	}
	f->context = json_object_get(root, "context");
	if (!json_is_object(f->context)) {
		f->context = json_object();
		json_object_set_new(root, "context", f->context);
	}
	rows = json_object_get(root, "benchmarks");
	if (!json_is_array(rows)) {
		err = why_fail(-EINVAL, why, len, "%s: not a benchmark result: no \"benchmarks\" array", path);
		goto out;
	}
	json_array_foreach(rows, i, row) {
		const char *name = json_string_value(json_object_get(row, "name"));
		const char *type = json_string_value(json_object_get(row, "run_type"));
		struct gb_series *s;

		if (!json_is_object(row) || !name) {
			err = why_fail(-EINVAL, why, len, "%s: benchmarks[%zu] has no \"name\"", path, i);
			goto out;
		}
		if (type && strcmp(type, "iteration"))
			continue;	/* aggregates are derived; recompute them instead */
		s = series_for(f, name, &cap);
		if (!s) {
			err = why_fail(-ENOMEM, why, len, "%s: out of memory", path);
			goto out;
		}
		if (!s->kind)
			s->kind = json_string_value(json_object_get(row, "kind"));
		if (json_is_true(json_object_get(row, "error_occurred"))) {
			const char *msg = json_string_value(json_object_get(row, "error_message"));

			s->error = msg ? msg : "error (no message)";
			continue;
		}
		if (append_rep(s, row)) {
			err = why_fail(-ENOMEM, why, len, "%s: out of memory", path);
			goto out;
		}
	}
	return 0;
out:
	gb_file_free(f);
	return err;
}

int gb_file_load(struct gb_file *f, const char *path, char *why, size_t len)
{
	json_error_t jerr;
	json_t *root;
	FILE *in = strcmp(path, "-") ? fopen(path, "r") : stdin;
	int err;

	memset(f, 0, sizeof(*f));
	if (!in) {
		err = -errno;
		snprintf(why, len, "cannot read %s: %s", path, strerror(errno));
		return err;
	}
	root = json_loadf(in, JSON_REJECT_DUPLICATES, &jerr);
	if (in != stdin)
		fclose(in);
	if (!root)
		return why_fail(-EINVAL, why, len, "%s: not valid JSON: %s (line %d, column %d)", path, jerr.text,
			    jerr.line, jerr.column);
	return gb_file_from_json(f, root, path, why, len);
}

void gb_file_free(struct gb_file *f)
{
	for (size_t i = 0; i < f->count; i++)
		for (int k = 0; k < GB_FIGURE_COUNT; k++)
			free(f->series[i].fig[k]);
	free(f->series);
	json_decref(f->index);
	json_decref(f->root);
	memset(f, 0, sizeof(*f));
}

const struct gb_series *gb_file_find(const struct gb_file *f, const char *name)
{
	json_t *at = json_object_get(f->index, name);

	return at ? &f->series[json_integer_value(at)] : NULL;
}

const char *gb_context_str(const struct gb_file *f, const char *key)
{
	const char *s = json_string_value(json_object_get(f->context, key));

	return s ? s : "";
}

const char *gb_knotif_str(const struct gb_file *f, const char *key)
{
	const char *s = json_string_value(json_object_get(json_object_get(f->context, "knotif"), key));

	return s ? s : "";
}
