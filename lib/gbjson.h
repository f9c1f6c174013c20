/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_GBJSON_H
#define KNOTIF_GBJSON_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

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

/* run_type "iteration"; times in ns */
json_t *gb_iteration(const char *run_name, int family_index, int rep_index, int reps,
		     int64_t iterations, double real_ns, double cpu_ns);
/* run_type "aggregate", name "<run_name>_<agg>" (agg: mean, median, stddev, cv) */
json_t *gb_aggregate(const char *run_name, int family_index, const char *agg, int reps,
		     int64_t iterations, double real, double cpu);
/* a benchmark that could not run: error_occurred + error_message (e.g. "unsupported: …") */
json_t *gb_error(const char *run_name, int family_index, const char *message);

/* counter: an extra numeric key on a row */
void gb_counter(json_t *row, const char *key, double value);

/* Both return 0 or -errno / -EIO. */
int gb_write_json(FILE *out, json_t *context, json_t *benchmarks);
int gb_write_csv(FILE *out, json_t *benchmarks);

#endif
