// SPDX-License-Identifier: GPL-2.0
#include "hist.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#define LOG2_BUCKETS 64
#define BAR 52

unsigned long long hist_slot_lo(unsigned int i)
{
	unsigned int octave = i >> KT_SUB_BITS, e;

	if (!octave)
		return i;
	e = octave + KT_SUB_BITS - 1;
	return (unsigned long long)(KT_SUB + (i & (KT_SUB - 1))) << (e - KT_SUB_BITS);
}

unsigned long long hist_slot_width(unsigned int i)
{
	unsigned int octave = i >> KT_SUB_BITS;

	return octave ? 1ULL << (octave - 1) : 1;
}

void hist_from_kernel(struct kt_hist *dst, const struct kt_khist *src)
{
	dst->count = 0;
	for (unsigned int i = 0; i < KT_HIST_SLOTS; i++) {
		dst->slot[i] = src->slot[i];
		dst->count += src->slot[i];
	}
	dst->sum = src->sum;
	dst->max = src->max;
	dst->min = dst->count ? ~src->min_inv : 0;
}

void hist_merge(struct kt_hist *dst, const struct kt_hist *src)
{
	if (!src->count)
		return;
	if (!dst->count || src->min < dst->min)
		dst->min = src->min;
	if (!dst->count || src->max > dst->max)
		dst->max = src->max;
	dst->count += src->count;
	dst->sum += src->sum;
	for (unsigned int i = 0; i < KT_HIST_SLOTS; i++)
		dst->slot[i] += src->slot[i];
}

void hist_delta(struct kt_hist *dst, const struct kt_hist *now, const struct kt_hist *before)
{
	int lo = -1, hi = -1;

	dst->count = now->count - before->count;
	dst->sum = now->sum - before->sum;
	for (unsigned int i = 0; i < KT_HIST_SLOTS; i++) {
		dst->slot[i] = now->slot[i] - before->slot[i];
		if (dst->slot[i]) {
			lo = lo < 0 ? (int)i : lo;
			hi = (int)i;
		}
	}
	dst->min = lo < 0 ? 0 : hist_slot_lo((unsigned int)lo);
	dst->max = hi < 0 ? 0 : hist_slot_lo((unsigned int)hi) + hist_slot_width((unsigned int)hi) - 1;
	/* the exact extremes still hold when they fall in those slots */
	if (lo >= 0 && now->min >= dst->min && now->min <= dst->max)
		dst->min = now->min;
	if (hi >= 0 && now->max >= dst->min && now->max <= dst->max)
		dst->max = now->max;
}

/* The best estimate of a value in slot i: its midpoint, kept inside [min, max]. */
static double slot_value(const struct kt_hist *h, unsigned int i)
{
	double mid = i == KT_HIST_SLOTS - 1 ? (double)h->max :
		     (double)hist_slot_lo(i) + (double)(hist_slot_width(i) - 1) / 2;

	return fmin(fmax(mid, (double)h->min), (double)h->max);
}

/* The value at 0-based rank r of the sorted samples. */
static double rank_value(const struct kt_hist *h, unsigned long long r)
{
	unsigned long long seen = 0;

	if (r == 0)
		return (double)h->min;
	if (r + 1 >= h->count)
		return (double)h->max;
	for (unsigned int i = 0; i < KT_HIST_SLOTS; i++) {
		seen += h->slot[i];
		if (seen > r)
			return slot_value(h, i);
	}
	return (double)h->max;
}

static double quantile(const struct kt_hist *h, double q)
{
	double pos = q * (double)(h->count - 1), lo = floor(pos);
	double a = rank_value(h, (unsigned long long)lo);

	if (pos == lo)
		return a;
	return a + (pos - lo) * (rank_value(h, (unsigned long long)lo + 1) - a);
}

int hist_summarize(const struct kt_hist *h, struct summary *s)
{
	double sq = 0;

	memset(s, 0, sizeof(*s));
	if (!h->count)
		return -EINVAL;
	s->n = h->count;
	s->min = (int64_t)h->min;
	s->max = (int64_t)h->max;
	s->mean = (double)h->sum / (double)h->count;
	s->p50 = quantile(h, 0.50);
	s->p90 = quantile(h, 0.90);
	s->p99 = quantile(h, 0.99);
	s->p999 = quantile(h, 0.999);
	for (unsigned int i = 0; i < KT_HIST_SLOTS; i++)
		if (h->slot[i])
			sq += (double)h->slot[i] * pow(slot_value(h, i) - s->mean, 2);
	s->stddev = h->count > 1 ? sqrt(sq / (double)(h->count - 1)) : 0;
	return 0;
}

/* 0, 1, 2-3, 4-7, …: bucket b holds [2^(b-1), 2^b) for b >= 1 */
static int log2_bucket(unsigned long long v)
{
	return v ? 64 - __builtin_clzll(v) : 0;
}

static void bound(char *buf, size_t len, unsigned long long v)
{
	static const char *const suffix[] = { "", "K", "M", "G", "T", "P", "E" };
	int s = 0;

	while (v >= 1024 && (v % 1024) == 0 && s < 6) {
		v /= 1024;
		s++;
	}
	snprintf(buf, len, "%llu%s", v, suffix[s]);
}

void hist_print_log2(FILE *out, const struct kt_hist *h)
{
	unsigned long long count[LOG2_BUCKETS + 1] = { 0 }, max = 0;
	int lo = LOG2_BUCKETS, hi = -1;

	/* each slot lies inside one power of two: folding it loses nothing shown */
	for (unsigned int i = 0; i < KT_HIST_SLOTS; i++) {
		int b;

		if (!h->slot[i])
			continue;
		b = log2_bucket(i == KT_HIST_SLOTS - 1 ? h->max : hist_slot_lo(i));
		count[b] += h->slot[i];
		lo = b < lo ? b : lo;
		hi = b > hi ? b : hi;
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
			bound(from, sizeof(from), 1ULL << (b - 1));
			bound(to, sizeof(to), b < 64 ? 1ULL << b : ~0ULL);
			snprintf(range, sizeof(range), "[%s, %s)", from, to);
		}
		memset(bar, '@', (size_t)w);
		bar[w] = '\0';
		fprintf(out, "%-20s %8llu |%-*s|\n", range, count[b], BAR, bar);
	}
}
