// SPDX-License-Identifier: GPL-2.0
/*
 * check-bench-json FILE [--ok NAME]... [--unsupported NAME]... [--ok-or-skip NAME]
 *
 * Reads a knotif-bench JSON file with jansson and checks it against the
 * schema every consumer relies on (Google Benchmark's, plus knotif's
 * context and counters). --ok NAME: NAME ran, with consistent figures.
 * --unsupported NAME: NAME is an error row reading "unsupported: …".
 * --ok-or-skip NAME: as --ok, but exit 77 when NAME is unsupported here.
 * Exit 0 valid, 1 invalid (each problem on its own line), 77 skipped.
 */
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static int problems;

__attribute__((format(printf, 1, 2)))
static void problem(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("not ok: ");
	vprintf(fmt, ap);
	putchar('\n');
	va_end(ap);
	problems++;
}

static void need(json_t *obj, const char *where, const char *key, json_type type)
{
	json_t *v = json_object_get(obj, key);

	if (!v)
		problem("%s: missing \"%s\"", where, key);
	else if (json_typeof(v) != type && !(type == JSON_REAL && json_is_integer(v)))
		problem("%s: \"%s\" has the wrong type", where, key);
}

/* a key an object must hold, and its type */
struct field {
	const char *key;
	json_type type;
};

#define NEED_ALL(obj, where, fields) need_all(obj, where, fields, sizeof(fields) / sizeof(*(fields)))

static void need_all(json_t *obj, const char *where, const struct field *f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		need(obj, where, f[i].key, f[i].type);
}

static void check_context(json_t *ctx)
{
	static const struct field gb[] = {
		{ "date", JSON_STRING }, { "host_name", JSON_STRING }, { "executable", JSON_STRING },
		{ "library_build_type", JSON_STRING }, { "num_cpus", JSON_INTEGER },
		{ "mhz_per_cpu", JSON_INTEGER }, { "caches", JSON_ARRAY }, { "load_avg", JSON_ARRAY },
		{ "json_schema_version", JSON_INTEGER },
	};
	static const struct field knotif[] = {
		{ "version", JSON_STRING }, { "git_sha", JSON_STRING }, { "kernel_release", JSON_STRING },
		{ "kernel_version", JSON_STRING }, { "machine", JSON_STRING }, { "cpu_model", JSON_STRING },
		{ "clocksource", JSON_STRING }, { "syscall", JSON_STRING }, { "counters", JSON_STRING },
		{ "schema_version", JSON_INTEGER }, { "samples_per_repetition", JSON_INTEGER },
		{ "repetitions", JSON_INTEGER }, { "timer_ns", JSON_INTEGER },
		{ "command_line", JSON_ARRAY }, { "placements", JSON_OBJECT }, { "floor", JSON_OBJECT },
	};
	json_t *k = json_object_get(ctx, "knotif");

	if (!json_is_object(ctx)) {
		problem("no \"context\" object");
		return;
	}
	NEED_ALL(ctx, "context", gb);
	if (!json_is_object(k)) {
		problem("no \"context.knotif\" object");
		return;
	}
	NEED_ALL(k, "context.knotif", knotif);
	if (!json_is_boolean(json_object_get(k, "mlockall")))
		problem("context.knotif: \"mlockall\" is not a boolean");
}

static double num(json_t *row, const char *key)
{
	json_t *v = json_object_get(row, key);

	return v && json_is_number(v) ? json_number_value(v) : NAN;
}

/*
 * A row carries floor_ratio when its placement has a floor; when none of its
 * ping-pongs qualified, context.knotif.floor.<placement> has a null
 * benchmark and a reason, and the row has no floor_ratio.
 */
static void check_floor_ratio(json_t *row, const char *where, json_t *floors)
{
	const char *run = json_string_value(json_object_get(row, "run_name"));	/* no _mean, ... */
	const char *placement = run ? strstr(run, "placement:") : NULL;
	json_t *floor = placement ? json_object_get(floors, placement + strlen("placement:")) : NULL;

	if (floor && json_is_null(json_object_get(floor, "benchmark"))) {
		if (!json_is_string(json_object_get(floor, "reason")))
			problem("%s: no floor at its placement, and no \"reason\" for it", where);
		if (json_object_get(row, "floor_ratio"))
			problem("%s: a floor_ratio without a floor", where);
		return;
	}
	if (!floor)
		problem("%s: no context.knotif.floor entry for its placement", where);
	need(row, where, "floor_ratio", JSON_REAL);
}

static void check_row(json_t *row, size_t i, json_t *floors)
{
	/* every row, a skipped run's too (as Google Benchmark writes it): compare.py reads each */
	static const struct field gb[] = {
		{ "name", JSON_STRING }, { "run_name", JSON_STRING }, { "run_type", JSON_STRING },
		{ "family_index", JSON_INTEGER }, { "repetitions", JSON_INTEGER }, { "threads", JSON_INTEGER },
		{ "iterations", JSON_INTEGER }, { "real_time", JSON_REAL }, { "cpu_time", JSON_REAL },
		{ "time_unit", JSON_STRING },
	};
	static const struct field counters[] = {
		{ "min", JSON_REAL }, { "p50", JSON_REAL }, { "p90", JSON_REAL }, { "p99", JSON_REAL },
		{ "p999", JSON_REAL }, { "max", JSON_REAL }, { "stddev", JSON_REAL },
		{ "items_per_second", JSON_REAL },
	};
	char where[256];
	const char *name = json_string_value(json_object_get(row, "name"));
	const char *type = json_string_value(json_object_get(row, "run_type"));

	snprintf(where, sizeof(where), "benchmarks[%zu] (%s)", i, name ? name : "?");
	NEED_ALL(row, where, gb);
	if (json_is_true(json_object_get(row, "error_occurred"))) {
		need(row, where, "error_message", JSON_STRING);
		return;
	}
	NEED_ALL(row, where, counters);
	check_floor_ratio(row, where, floors);
	if (type && !strcmp(type, "iteration")) {
		need(row, where, "repetition_index", JSON_INTEGER);
		if (!(num(row, "min") <= num(row, "p50") && num(row, "p50") <= num(row, "p90") &&
		      num(row, "p90") <= num(row, "p99") && num(row, "p99") <= num(row, "p999") &&
		      num(row, "p999") <= num(row, "max")))
			problem("%s: quantiles out of order", where);
		if (!(num(row, "min") <= num(row, "real_time") && num(row, "real_time") <= num(row, "max")))
			problem("%s: mean outside [min, max]", where);
		if (!(num(row, "iterations") > 0))
			problem("%s: no iterations", where);
	} else if (type && !strcmp(type, "aggregate")) {
		need(row, where, "aggregate_name", JSON_STRING);
	} else {
		problem("%s: run_type is neither iteration nor aggregate", where);
	}
}

/* 0 ran, 1 unsupported, -1 absent/failed; *msg gets the error message */
static int find(json_t *rows, const char *name, const char **msg)
{
	json_t *row;
	size_t i;
	int reps = 0, seen = 0;
	bool aggregates = false;

	*msg = NULL;
	json_array_foreach(rows, i, row) {
		const char *run = json_string_value(json_object_get(row, "run_name"));

		if (!run || strcmp(run, name))
			continue;
		if (json_is_true(json_object_get(row, "error_occurred"))) {
			*msg = json_string_value(json_object_get(row, "error_message"));
			return *msg && !strncmp(*msg, "unsupported: ", 13) ? 1 : -1;
		}
		if (!strcmp(json_string_value(json_object_get(row, "run_type")), "iteration")) {
			if (json_integer_value(json_object_get(row, "repetition_index")) != seen)
				problem("%s: repetition_index %lld out of sequence", name,
					(long long)json_integer_value(json_object_get(row, "repetition_index")));
			seen++;
			reps = (int)json_integer_value(json_object_get(row, "repetitions"));
		} else {
			aggregates = true;
		}
	}
	if (!seen)
		return -1;
	if (seen != reps)
		problem("%s: %d iteration rows for %d repetitions", name, seen, reps);
	if (reps > 1 && !aggregates)
		problem("%s: %d repetitions but no aggregate rows", name, reps);
	return 0;
}

int main(int argc, char **argv)
{
	json_error_t err;
	json_t *doc, *rows, *row;
	bool skip = false;
	size_t i;

	if (argc < 2) {
		fprintf(stderr, "usage: check-bench-json FILE [--ok|--unsupported|--ok-or-skip NAME]...\n");
		return 2;
	}
	doc = json_load_file(argv[1], 0, &err);
	if (!doc) {
		printf("not ok: %s: line %d: %s\n", argv[1], err.line, err.text);
		return 1;
	}
	check_context(json_object_get(doc, "context"));
	rows = json_object_get(doc, "benchmarks");
	if (!json_is_array(rows) || json_array_size(rows) == 0)
		problem("no \"benchmarks\" rows");
	json_array_foreach(rows, i, row)
		check_row(row, i, json_object_get(json_object_get(json_object_get(doc, "context"), "knotif"), "floor"));
	for (int a = 2; a + 1 < argc; a += 2) {
		const char *msg;
		int found = find(rows, argv[a + 1], &msg);

		if (!strcmp(argv[a], "--unsupported")) {
			if (found != 1)
				problem("%s: expected an \"unsupported: …\" row", argv[a + 1]);
		} else if (found == 1 && !strcmp(argv[a], "--ok-or-skip")) {
			printf("skip: %s: %s\n", argv[a + 1], msg);
			skip = true;
		} else if (found != 0) {
			problem("%s: did not run%s%s", argv[a + 1], msg ? ": " : "", msg ? msg : "");
		}
	}
	json_decref(doc);
	if (problems)
		return 1;
	return skip ? 77 : 0;
}
