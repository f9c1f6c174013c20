// SPDX-License-Identifier: GPL-2.0
#include "hist.h"

#include <string.h>

#define BUCKETS 64
#define BAR 52

/* 0, 1, 2-3, 4-7, …: bucket b holds [2^(b-1), 2^b) for b >= 1 */
static int bucket_of(int64_t v)
{
	return v <= 0 ? 0 : 64 - __builtin_clzll((unsigned long long)v);
}

static void bound(char *buf, size_t len, int64_t v)
{
	static const char *const suffix[] = { "", "K", "M", "G", "T", "P", "E" };
	int s = 0;

	while (v >= 1024 && (v % 1024) == 0 && s < 6) {
		v /= 1024;
		s++;
	}
	snprintf(buf, len, "%lld%s", (long long)v, suffix[s]);
}

void print_log2_hist(FILE *out, const int64_t *v, size_t n)
{
	uint64_t count[BUCKETS + 1] = { 0 }, max = 0;
	int lo = BUCKETS, hi = -1;

	for (size_t i = 0; i < n; i++) {
		int b = bucket_of(v[i]);

		count[b]++;
		if (b < lo)
			lo = b;
		if (b > hi)
			hi = b;
	}
	for (int b = lo; b <= hi; b++)
		if (count[b] > max)
			max = count[b];
	for (int b = lo; b <= hi; b++) {
		char from[32], to[32], range[80], bar[BAR + 1];
		int w = max ? (int)(count[b] * BAR / max) : 0;

		if (b == 0) {
			snprintf(range, sizeof(range), "[0]");
		} else if (b == 1) {
			snprintf(range, sizeof(range), "[1]");
		} else {
			bound(from, sizeof(from), (int64_t)1 << (b - 1));
			bound(to, sizeof(to), (int64_t)1 << b);
			snprintf(range, sizeof(range), "[%s, %s)", from, to);
		}
		memset(bar, '@', (size_t)w);
		bar[w] = '\0';
		fprintf(out, "%-20s %8llu |%-*s|\n", range, (unsigned long long)count[b], BAR, bar);
	}
}
