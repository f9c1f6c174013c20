/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_GBJSON_H
#define KNOTIF_GBJSON_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cli.h"
#include "cli_options.h"

/*
 * Results in Google Benchmark's JSON schema, so that its compare.py and the
 * tools people already run on such files read ours unmodified:
 *   { "context": {...}, "benchmarks": [ rows ] }
 * knotif's own figures are extra numeric keys on a row (GB "counters");
 * knotif's facts about the system sit under context.knotif.
 */
#define KNOTIF_SCHEMA_VERSION 1

/* date, host_name, executable, num_cpus, mhz_per_cpu, caches, load_avg, ... + knotif{} */
json_t *gb_context(int argc, char **argv);

/*
 * context.knotif.placements.<name> = { target_cpu, supervisor_cpu }: the
 * CPUs a placement used, recorded by the first run at it (-1: unpinned).
 */
void gb_context_placement(json_t *placements, const char *name, const int cpus[2]);

/* run_type "iteration"; times in ns */
json_t *gb_iteration(const char *run_name, int family_index, int rep_index, int reps,
		     int64_t iterations, double real_ns, double cpu_ns);
/* run_type "aggregate", name "<run_name>_<agg>" (agg: mean, median, stddev, cv) */
json_t *gb_aggregate(const char *run_name, int family_index, const char *agg, int reps,
		     int64_t iterations, double real, double cpu);
/*
 * a benchmark that could not run: error_occurred + error_message (e.g.
 * "unsupported: …"), with the zero iterations and times GB writes for one
 */
json_t *gb_error(const char *run_name, int family_index, const char *message);

/* counter: an extra numeric key on a row */
void gb_counter(json_t *row, const char *key, double value);

/*
 * The latency counters, spelled once for every knotif tool (knotif-bench,
 * knotif-stress, knotif-trace's phases, kernel/bench): ns, in this order.
 */
enum gb_latency { GB_LAT_MIN, GB_LAT_P50, GB_LAT_P90, GB_LAT_P99, GB_LAT_P999, GB_LAT_MAX,
		  GB_LAT_STDDEV, GB_LAT_COUNT };
extern const char *const gb_latency_key[GB_LAT_COUNT];	/* "min", "p50", ... "stddev" */
struct summary;
/* v[GB_LAT_*] from a summary (lib/base/stats.h). */
void gb_latency_values(const struct summary *s, double *v);
/* Sets every gb_latency_key on row (a GB row, or any JSON object). */
void gb_latency_counters(json_t *row, const struct summary *s);

/* Both return 0 or -errno / -EIO. */
int gb_write_json(FILE *out, json_t *context, json_t *benchmarks);
int gb_write_csv(FILE *out, json_t *benchmarks);

/*
 * Where a runner's results go, as Google Benchmark's flags say:
 * --benchmark_format for stdout, --benchmark_out=FILE in
 * --benchmark_out_format. GB_OUTPUT_OPTIONS goes into a runner's
 * options.def (lib/console/cli_options_def.h) and gb_output_option() into
 * its loop, before the runner's own cases.
 */
struct gb_output {
	enum out_format format;
	const char *out;
	enum out_format out_format;
	FILE *out_file;		/* opened by gb_output_prepare(), before the first measurement */
};
enum { GB_OPT_FORMAT = 0x4000, GB_OPT_OUT, GB_OPT_OUT_FORMAT };
/* the rows of a struct cli_option table (a tool's options.def: GB_OUTPUT_OPTIONS) */
#define GB_OUTPUT_OPTION_ROWS                                                                    \
	{ "benchmark_format", GB_OPT_FORMAT, required_argument, "--benchmark_format=FMT",          \
	  "stdout: console (default), json, csv or bmf" },                                        \
	{ "benchmark_out", GB_OPT_OUT, required_argument, "--benchmark_out=FILE",                  \
	  "also write results to FILE" },                                                         \
	{ "benchmark_out_format", GB_OPT_OUT_FORMAT, required_argument,                            \
	  "--benchmark_out_format=FMT", "FILE's format: json (default), console, csv or bmf" },
#define GB_OUTPUT_DEFAULT { .format = FORMAT_CONSOLE, .out_format = FORMAT_JSON }

/* true if c was one of the output flags (then taken into o) */
bool gb_output_option(struct gb_output *o, int c, const char *arg);
/*
 * After parsing, before the first measurement: opens --benchmark_out (created,
 * not yet truncated) so that a path we cannot write is a usage error (exit 2)
 * now, not a lost run at the end.
 */
void gb_output_prepare(struct gb_output *o);
/*
 * Writes stdout, then the file: JSON and CSV from context and benchmarks,
 * the console table by console(out, arg) (NULL: the program printed it as
 * it went). A failed write ends the program.
 */
void gb_output_write(const struct gb_output *o, json_t *context, json_t *benchmarks,
		     void (*console)(FILE *out, const void *arg), const void *arg);

#endif
