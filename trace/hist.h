/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_TRACE_HIST_H
#define KNOTIF_TRACE_HIST_H

#include <stdio.h>

#include "knotif_trace.h"
#include "stats.h"

/*
 * The phase histograms the kernel side fills (struct kt_hist, HDR-style
 * slots: see knotif_trace.h), read back: merged over CPUs, differenced
 * between two reads, summarized, printed.
 */

/* Bounds of slot i: [lo, lo + width) ns. */
unsigned long long hist_slot_lo(unsigned int i);
unsigned long long hist_slot_width(unsigned int i);

/* dst = one CPU's histogram as the kernel side keeps it (count and min derived). */
void hist_from_kernel(struct kt_hist *dst, const struct kt_khist *src);

/* dst += src (count, sum and slots added; min and max combined). */
void hist_merge(struct kt_hist *dst, const struct kt_hist *src);

/*
 * dst = now - before: what happened between two reads. min and max of the
 * difference are only known to their slots: they become the bounds of the
 * lowest and highest slot that grew (within the slots' precision).
 */
void hist_delta(struct kt_hist *dst, const struct kt_hist *now, const struct kt_hist *before);

/*
 * Fills *s (n, min, max, mean exact; quantiles numpy's type 7 over the
 * slots' midpoints, each rank's value within 2^-(KT_SUB_BITS + 1) of the
 * true sample's, clamped to [min, max]; stddev from the midpoints).
 * Returns -EINVAL when the histogram is empty.
 */
int hist_summarize(const struct kt_hist *h, struct summary *s);

/*
 * Prints h folded into powers of two, the way bpftrace prints hist():
 * "[1K, 2K)   123 |@@@@   |", so the two tools' output reads the same.
 */
void hist_print_log2(FILE *out, const struct kt_hist *h);

#endif
