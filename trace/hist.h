/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_TRACE_HIST_H
#define KNOTIF_TRACE_HIST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * A power-of-two histogram of non-negative values, printed the way
 * bpftrace prints hist(): "[1K, 2K)   123 |@@@@   |", so the two tools'
 * output reads the same.
 */
void print_log2_hist(FILE *out, const int64_t *v, size_t n);

#endif
