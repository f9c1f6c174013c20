/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_GBBMF_H
#define KNOTIF_GBBMF_H

#include <jansson.h>
#include <stdio.h>

/*
 * Bencher Metric Format (lib/gbjson/gbbmf.c): each benchmark's latency and
 * floor_ratio over its repetitions, from Google Benchmark rows. gb_write()
 * calls it for --benchmark_format=bmf; 0, or -errno.
 */
int gb_write_bmf(FILE *out, json_t *benchmarks);

#endif
