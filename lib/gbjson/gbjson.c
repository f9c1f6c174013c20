// SPDX-License-Identifier: GPL-2.0
#include "gbjson.h"
#include "stats.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "gbbmf.h"
#include "knotif_git_sha.h"
#include "sysinfo.h"

json_t *gb_context(int argc, char **argv)
{
	json_t *ctx = json_object(), *knotif = json_object(), *cmd = json_array();
	char date[64], host[256] = "";
	time_t now = time(NULL);
	struct tm tm;
	double load[3] = { 0, 0, 0 };
	struct utsname uts;

	localtime_r(&now, &tm);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S%z", &tm);
	/* ISO 8601 wants +hh:mm; strftime gives +hhmm */
	if (strlen(date) >= 5) {
		size_t l = strlen(date);

		memmove(date + l - 1, date + l - 2, 3);
		date[l - 2] = ':';
	}
	gethostname(host, sizeof(host) - 1);
	getloadavg(load, 3);
	uname(&uts);

	json_object_set_new(ctx, "date", json_string(date));
	json_object_set_new(ctx, "host_name", json_string(host));
	json_object_set_new(ctx, "executable", json_string(argc > 0 ? argv[0] : ""));
	json_object_set_new(ctx, "num_cpus", json_integer(sysconf(_SC_NPROCESSORS_ONLN)));
	json_object_set_new(ctx, "mhz_per_cpu", json_integer(sysinfo_cpu_mhz()));
	json_object_set_new(ctx, "cpu_scaling_enabled", json_boolean(sysinfo_cpu_scaling()));
	json_object_set_new(ctx, "caches", sysinfo_caches());
	json_object_set_new(ctx, "load_avg", json_pack("[f,f,f]", load[0], load[1], load[2]));
	json_object_set_new(ctx, "library_build_type", json_string(KNOTIF_BUILD_TYPE));
	json_object_set_new(ctx, "json_schema_version", json_integer(1));

	for (int i = 0; i < argc; i++)
		json_array_append_new(cmd, json_string(argv[i]));
	json_object_set_new(knotif, "schema_version", json_integer(KNOTIF_SCHEMA_VERSION));
	json_object_set_new(knotif, "version", json_string(KNOTIF_VERSION));
	json_object_set_new(knotif, "git_sha", json_string(KNOTIF_GIT_SHA));
	json_object_set_new(knotif, "kernel_release", json_string(uts.release));
	json_object_set_new(knotif, "kernel_version", json_string(uts.version));
	json_object_set_new(knotif, "machine", json_string(uts.machine));
	json_object_set_new(knotif, "cpu_model", json_string(sysinfo_cpu_model()));
	json_object_set_new(knotif, "clocksource", json_string(sysinfo_clocksource()));
	json_object_set_new(knotif, "command_line", cmd);
	json_object_set_new(ctx, "knotif", knotif);
	return ctx;
}

static json_t *row_base(const char *name, const char *run_name, int family_index, const char *run_type)
{
	json_t *row = json_object();

	json_object_set_new(row, "name", json_string(name));
	json_object_set_new(row, "family_index", json_integer(family_index));
	json_object_set_new(row, "per_family_instance_index", json_integer(0));
	json_object_set_new(row, "run_name", json_string(run_name));
	json_object_set_new(row, "run_type", json_string(run_type));
	return row;
}

void gb_context_placement(json_t *placements, const char *name, const int cpus[2])
{
	if (!json_object_get(placements, name))
		json_object_set_new(placements, name, json_pack("{s:i,s:i}", "target_cpu", cpus[0],
								 "supervisor_cpu", cpus[1]));
}

json_t *gb_iteration(const char *run_name, int family_index, int rep_index, int reps,
		     int64_t iterations, double real_ns, double cpu_ns)
{
	json_t *row = row_base(run_name, run_name, family_index, "iteration");

	json_object_set_new(row, "repetitions", json_integer(reps));
	json_object_set_new(row, "repetition_index", json_integer(rep_index));
	json_object_set_new(row, "threads", json_integer(1));
	json_object_set_new(row, "iterations", json_integer(iterations));
	json_object_set_new(row, "real_time", json_real(real_ns));
	json_object_set_new(row, "cpu_time", json_real(cpu_ns));
	json_object_set_new(row, "time_unit", json_string("ns"));
	return row;
}

json_t *gb_aggregate(const char *run_name, int family_index, const char *agg, int reps,
		     int64_t iterations, double real, double cpu)
{
	char name[512];
	json_t *row;

	snprintf(name, sizeof(name), "%s_%s", run_name, agg);
	row = row_base(name, run_name, family_index, "aggregate");
	json_object_set_new(row, "repetitions", json_integer(reps));
	json_object_set_new(row, "threads", json_integer(1));
	json_object_set_new(row, "aggregate_name", json_string(agg));
	json_object_set_new(row, "aggregate_unit", json_string(strcmp(agg, "cv") ? "time" : "percentage"));
	json_object_set_new(row, "iterations", json_integer(iterations));
	json_object_set_new(row, "real_time", json_real(real));
	json_object_set_new(row, "cpu_time", json_real(cpu));
	json_object_set_new(row, "time_unit", json_string("ns"));
	return row;
}

json_t *gb_error(const char *run_name, int family_index, const char *message)
{
	json_t *row = row_base(run_name, run_name, family_index, "iteration");

	/* every key Google Benchmark writes for a skipped run: compare.py reads them all */
	json_object_set_new(row, "repetitions", json_integer(1));
	json_object_set_new(row, "repetition_index", json_integer(0));
	json_object_set_new(row, "threads", json_integer(1));
	json_object_set_new(row, "error_occurred", json_true());
	json_object_set_new(row, "error_message", json_string(message));
	json_object_set_new(row, "iterations", json_integer(0));
	json_object_set_new(row, "real_time", json_real(0));
	json_object_set_new(row, "cpu_time", json_real(0));
	json_object_set_new(row, "time_unit", json_string("ns"));
	return row;
}

void gb_counter(json_t *row, const char *key, double value)
{
	json_object_set_new(row, key, json_real(value));
}

const char *const gb_latency_key[GB_LAT_COUNT] = {
	[GB_LAT_MIN] = "min", [GB_LAT_P50] = "p50", [GB_LAT_P90] = "p90", [GB_LAT_P99] = "p99",
	[GB_LAT_P999] = "p999", [GB_LAT_MAX] = "max", [GB_LAT_STDDEV] = "stddev",
};

void gb_latency_values(const struct summary *s, double *v)
{
	v[GB_LAT_MIN] = (double)s->min;
	v[GB_LAT_P50] = s->p50;
	v[GB_LAT_P90] = s->p90;
	v[GB_LAT_P99] = s->p99;
	v[GB_LAT_P999] = s->p999;
	v[GB_LAT_MAX] = (double)s->max;
	v[GB_LAT_STDDEV] = s->stddev;
}

void gb_latency_counters(json_t *row, const struct summary *s)
{
	double v[GB_LAT_COUNT];

	gb_latency_values(s, v);
	for (int k = 0; k < GB_LAT_COUNT; k++)
		gb_counter(row, gb_latency_key[k], v[k]);
}

int gb_write_json(FILE *out, json_t *context, json_t *benchmarks)
{
	json_t *doc = json_pack("{s:O,s:O}", "context", context, "benchmarks", benchmarks);
	int ret;

	if (!doc)
		return -ENOMEM;
	ret = json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));
	json_decref(doc);
	if (ret || fputc('\n', out) == EOF || fflush(out))
		return -EIO;
	return 0;
}

/* Keys GB writes itself; every other numeric key of a row is a counter. */
static bool is_fixed_key(const char *key)
{
	static const char *const fixed[] = {
		"name", "family_index", "per_family_instance_index", "run_name", "run_type",
		"repetitions", "repetition_index", "threads", "iterations", "real_time",
		"cpu_time", "time_unit", "aggregate_name", "aggregate_unit", "error_occurred",
		"error_message", "label",
	};

	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		if (!strcmp(key, fixed[i]))
			return true;
	return false;
}

static void csv_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);	/* RFC 4180: a quote is doubled */
		fputc(*s, out);
	}
	fputc('"', out);
}

int gb_write_csv(FILE *out, json_t *benchmarks)
{
	json_t *counters = json_array(), *row, *v;
	const char *key;
	size_t i, c;

	/* counters: union of extra numeric keys, in order of first appearance */
	json_array_foreach(benchmarks, i, row) {
		json_object_foreach(row, key, v) {
			bool seen = false;
			json_t *k;

			if (is_fixed_key(key) || !json_is_number(v))
				continue;
			json_array_foreach(counters, c, k)
				seen = seen || !strcmp(json_string_value(k), key);
			if (!seen)
				json_array_append_new(counters, json_string(key));
		}
	}
	fputs("name,iterations,real_time,cpu_time,time_unit,bytes_per_second,items_per_second,"
	      "label,error_occurred,error_message", out);
	json_array_foreach(counters, c, v)
		fprintf(out, ",%s", json_string_value(v));
	fputc('\n', out);
	json_array_foreach(benchmarks, i, row) {
		bool error = json_is_true(json_object_get(row, "error_occurred"));

		csv_string(out, json_string_value(json_object_get(row, "name")));
		if (error) {
			fputs(",,,,,,,,true,", out);
			csv_string(out, json_string_value(json_object_get(row, "error_message")));
		} else {
			fprintf(out, ",%lld,%.12g,%.12g,ns,,,,,",
				(long long)json_integer_value(json_object_get(row, "iterations")),
				json_number_value(json_object_get(row, "real_time")),
				json_number_value(json_object_get(row, "cpu_time")));
		}
		json_array_foreach(counters, c, v) {
			json_t *val = json_object_get(row, json_string_value(v));

			if (val && json_is_number(val))
				fprintf(out, ",%.12g", json_number_value(val));
			else
				fputc(',', out);
		}
		fputc('\n', out);
	}
	json_decref(counters);
	return fflush(out) ? -EIO : 0;
}

bool gb_output_option(struct gb_output *o, int c, const char *arg)
{
	switch (c) {
	case GB_OPT_FORMAT:
		o->format = cli_format("--benchmark_format", arg);
		return true;
	case GB_OPT_OUT:
		o->out = arg;
		return true;
	case GB_OPT_OUT_FORMAT:
		o->out_format = cli_format("--benchmark_out_format", arg);
		return true;
	default:
		return false;
	}
}

static int write_one(FILE *out, enum out_format fmt, json_t *context, json_t *benchmarks,
		     void (*console)(FILE *out, const void *arg), const void *arg)
{
	switch (fmt) {
	case FORMAT_JSON:
		return gb_write_json(out, context, benchmarks);
	case FORMAT_CSV:
		return gb_write_csv(out, benchmarks);
	case FORMAT_BMF:
		return gb_write_bmf(out, benchmarks);
	default:
		if (console)	/* NULL: the program printed its table as it went */
			console(out, arg);
		return fflush(out) ? -EIO : 0;
	}
}

void gb_output_prepare(struct gb_output *o)
{
	int fd;

	if (!o->out || o->out_file)
		return;
	/* no O_TRUNC: an earlier file survives a run that fails before its results exist */
	fd = open(o->out, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
	if (fd < 0)
		usage_error("cannot write --benchmark_out=%s: %s", o->out, strerror(errno));
	o->out_file = fdopen(fd, "w");
	if (!o->out_file)
		die("fdopen: %s", strerror(errno));
}

void gb_output_write(const struct gb_output *o, json_t *context, json_t *benchmarks,
		     void (*console)(FILE *out, const void *arg), const void *arg)
{
	struct gb_output prepared = *o;
	struct stat st;
	FILE *f;

	if (write_one(stdout, o->format, context, benchmarks, console, arg))
		die("writing results to stdout failed");
	if (!o->out)
		return;
	gb_output_prepare(&prepared);
	f = prepared.out_file;
	/* a regular file may hold an older result: replace it (a pipe or device has nothing to cut) */
	if (!fstat(fileno(f), &st) && S_ISREG(st.st_mode) && ftruncate(fileno(f), 0))
		die("truncating %s: %s", o->out, strerror(errno));
	if (write_one(f, o->out_format, context, benchmarks, console, arg) || fclose(f))
		die("writing %s failed", o->out);
}
