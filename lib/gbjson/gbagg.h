/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_GBAGG_H
#define KNOTIF_GBAGG_H

#include <jansson.h>

/*
 * Google Benchmark's aggregate rows (<run_name>_mean, _median, _stddev, _cv)
 * computed from the iteration rows of one benchmark: every numeric key that
 * is not one of GB's own (real_time and cpu_time included) is aggregated the
 * same way, so a tool's counters get aggregates without listing them.
 * Returns a new array of 4 rows, or NULL when iterations is empty.
 */
json_t *gb_aggregate_rows(json_t *iterations, int family_index);

#endif
