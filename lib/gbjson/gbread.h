/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_GBREAD_H
#define KNOTIF_GBREAD_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * Reading a result file in Google Benchmark's JSON schema (ours, or any
 * tool's) back: the iteration rows of each benchmark gathered by name, one
 * value per repetition, so tools can compare and store runs. Aggregate rows
 * (_mean, _median, ...) are skipped: they are derived from the iterations.
 */

/*
 * The per-repetition figures a tool can compare, in ns (real_time and
 * cpu_time converted from the row's time_unit). p50 and p99 are also read
 * as p50_ns and p99_ns: kernel/bench's guest program wrote them so until it took
 * gbjson.h's gb_latency_counters, and the committed -icount results
 * (results/kernel, analysis/gate/tests/data/icount-stock.json) still do.
 */
enum gb_figure {
	GB_REAL_TIME,		/* mean ns per op over the repetition's samples */
	GB_CPU_TIME,
	GB_P50,
	GB_P99,
	GB_FLOOR_RATIO,		/* p50 / the same run's ping-pong floor */
	GB_FIGURE_COUNT
};

const char *gb_figure_key(enum gb_figure f);	/* the row's key: "real_time", "p50", ... */
int gb_figure_parse(const char *key, enum gb_figure *f);	/* 0 or -EINVAL */

struct gb_series {
	char *name;		/* the rows' "name" (a copy: the rows may be gone) */
	char *error;		/* error_message of an error row; NULL when it ran */
	char *kind;		/* the rows' "kind" (knotif-bench: "floor", "unotif", ...); NULL when absent */
	size_t reps;		/* iteration rows */
	size_t reps_cap;	/* room in each fig[] (grown by doubling: linear in the rows) */
	double *fig[GB_FIGURE_COUNT];	/* [reps] each; NAN where a row lacks the key */
};

struct gb_file {
	const char *path;
	json_t *root;		/* the whole document (owned); NULL when read as a stream */
	json_t *context;	/* root.context, or an empty object (a reference of its own) */
	struct gb_series *series;	/* first-appearance order */
	size_t count;
	size_t cap;		/* room in series (grown by doubling) */
	json_t *index;		/* name -> position in series (jansson's hash table): one lookup per row */
};

/*
 * Loads path ("-" reads stdin). On failure returns -errno (-ENOENT, ...) or
 * -EINVAL for a file that is not a benchmark result, with one line a
 * person can act on in why.
 */
int gb_file_load(struct gb_file *f, const char *path, char *why, size_t len);
/* path opened for reading ("-": stdin) as both loaders do; 0 or -errno with "cannot read PATH: ..." */
int gb_file_open(const char *path, FILE **in, char *why, size_t len);
/* The same, from a document already parsed; takes the reference to root. */
int gb_file_from_json(struct gb_file *f, json_t *root, const char *path, char *why, size_t len);
void gb_file_free(struct gb_file *f);

/*
 * For a reader that holds one row at a time (analysis/gate/stream.c): an
 * empty file, then benchmarks[i] added in order (what a series keeps is
 * copied: the row may be freed after), then the context. Each returns 0 or
 * -errno with one line in why; gb_file_free() cleans up after a failure.
 */
int gb_file_init(struct gb_file *f, const char *path, char *why, size_t len);
int gb_file_add_row(struct gb_file *f, json_t *row, size_t i, char *why, size_t len);
void gb_file_set_context(struct gb_file *f, json_t *context);	/* takes the reference; NULL or not an object: {} */

const struct gb_series *gb_file_find(const struct gb_file *f, const char *name);

/* A string under context (key) or context.knotif (knotif_key); "" when absent. */
const char *gb_context_str(const struct gb_file *f, const char *key);
const char *gb_knotif_str(const struct gb_file *f, const char *key);

#endif
