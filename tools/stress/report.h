/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_STRESS_REPORT_H
#define KNOTIF_STRESS_REPORT_H

#include <jansson.h>
#include <stdio.h>

#include "run.h"

/*
 * r holds n runs x reps repetitions, run i's at r[i * reps]. Google Benchmark
 * rows: an iteration row per repetition, aggregates when reps > 1, an error
 * row for a run any repetition of which failed (or was unsupported).
 */
json_t *report_rows(const struct run_result *r, int n, int reps);
/* Aligned console tables (stress runs, then the pending curve) and one "# ledger" line per run. */
void report_console(const struct run_result *r, int n, int reps, FILE *out);
/* Least-squares slope of ID_VALID p50 against M over the pending runs, ns per notification; NAN when < 2. */
double report_pending_slope(const struct run_result *r, int n, int reps);

#endif
