// SPDX-License-Identifier: GPL-2.0
/*
 * kt_slot(), which the BPF side runs for every phase of every notification,
 * against the slots' bounds that user space reads back (hist_slot_lo(),
 * hist_slot_width()) and against a reference built on count-leading-zeros:
 * every slot's first and last value, the values around each power of two,
 * and a million pseudo-random values of every magnitude.
 */
#include <stdio.h>
#include <stdlib.h>

#include "hist.h"

static unsigned long long reference_slot(unsigned long long v)
{
	unsigned int e;

	if (v < KT_SUB)
		return v;
	e = 63 - __builtin_clzll(v);
	if (e >= KT_MAX_EXP)
		return KT_HIST_SLOTS - 1;
	return ((unsigned long long)(e - KT_SUB_BITS + 1) << KT_SUB_BITS) +
	       (v >> (e - KT_SUB_BITS)) - KT_SUB;
}

static int failures;

static void expect_slot(unsigned long long v, unsigned long long want)
{
	unsigned long long got = kt_slot(v);

	if (got != want && failures++ < 10)
		fprintf(stderr, "kt_slot(%llu) = %llu, want %llu\n", v, got, want);
}

int main(void)
{
	unsigned long long x = 0x9e3779b97f4a7c15ULL;
	unsigned int i, e;

	for (i = 0; i < KT_HIST_SLOTS - 1; i++) {
		unsigned long long lo = hist_slot_lo(i), w = hist_slot_width(i);

		expect_slot(lo, i);
		expect_slot(lo + w - 1, i);
	}
	expect_slot(hist_slot_lo(KT_HIST_SLOTS - 1), KT_HIST_SLOTS - 1);
	for (e = 0; e < 64; e++) {
		unsigned long long p = 1ULL << e;

		expect_slot(p - 1, reference_slot(p - 1));
		expect_slot(p, reference_slot(p));
		expect_slot(p + 1, reference_slot(p + 1));
	}
	expect_slot(~0ULL, KT_HIST_SLOTS - 1);
	for (i = 0; i < 1000000; i++) {
		unsigned long long v;

		/* xorshift64, then a random magnitude */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v = x >> (x % 64);
		expect_slot(v, reference_slot(v));
	}
	if (failures) {
		fprintf(stderr, "%d values in the wrong slot\n", failures);
		return 1;
	}
	printf("kt_slot: every slot's bounds and 1000000 values agree with the reference\n");
	return 0;
}
