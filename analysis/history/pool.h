/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_HISTORY_POOL_H
#define KNOTIF_HISTORY_POOL_H

#include <jansson.h>
#include <stddef.h>

#include "gbread.h"

/*
 * A baseline made of several recorded runs: one result document whose
 * iteration rows are every run's repetitions of each benchmark, numbered
 * anew, so the gate sees N runs' worth of repetitions and a single noisy
 * run weighs 1/N. floor_ratio is normalised within each run, so runs pool
 * without rescaling. Aggregate rows (_mean, _median, _stddev, _cv) are
 * computed anew over the pooled repetitions; a benchmark no run measured
 * keeps the newest run's error row.
 * The newest run's context is kept, with context.knotif.baseline listing
 * the runs (ids[i] is runs[i]'s, oldest first).
 */
json_t *history_pool(const struct gb_file *runs, const long long *ids, size_t n,
		     const char *selector);

#endif
