/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_HISTORY_TREND_H
#define KNOTIF_HISTORY_TREND_H

#include <jansson.h>

#include "store.h"

/*
 * Per machine class and benchmark, every recorded run in order with the
 * medians over its repetitions of floor_ratio and p50, its git sha and the
 * gate's verdict — how a figure moved over commits:
 *   { "trend_schema_version": 1,
 *     "classes": [ { "machine_class": "...",
 *       "benchmarks": [ { "name": "unotif/sync/emulate/placement:same",
 *         "runs": [ { "id": 3, "git_sha": "...", "date": "...", "recorded_at": "...",
 *                     "gate": "fail" | "pass" | null, "repetitions": 9,
 *                     "floor_ratio": 1.07, "p50_ns": 9920.5 }, ... ] } ] } ] }
 * machine_class NULL: every class. NULL with why on failure.
 */
json_t *history_trend(struct store *s, const char *machine_class, char *why, size_t len);

#endif
