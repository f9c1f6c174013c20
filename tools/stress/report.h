/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_STRESS_REPORT_H
#define KNOTIF_STRESS_REPORT_H

#include <jansson.h>
#include <stdio.h>

#include "run.h"

/* Google Benchmark rows (one iteration row per run; failures as error rows). */
json_t *report_rows(const struct run_result *r, int n);
/* Aligned console tables (stress runs, then the pending curve) and one "# ledger" line per run. */
void report_console(const struct run_result *r, int n, FILE *out);
/* Least-squares slope of ID_VALID p50 against M over the pending runs, ns per notification; NAN when < 2. */
double report_pending_slope(const struct run_result *r, int n);

#endif
