/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the standalone cross-checks share, kept apart from lib/ on
 * purpose: they exist to check knotif-bench with code it does not share.
 */
#ifndef STANDALONE_ROUNDTRIP_H
#define STANDALONE_ROUNDTRIP_H

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

static long long now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* argv[i] as the number of round trips (default 20000), or exit 2 */
static long rt_count(int argc, char **argv, int i)
{
	char *end;
	long n = i < argc ? strtol(argv[i], &end, 10) : 20000;

	if (i < argc && (*end || end == argv[i] || n < 1 || n > 100000000)) {
		fprintf(stderr, "%s: invalid round-trip count '%s' (expected 1..100000000)\n", argv[0], argv[i]);
		exit(2);
	}
	return n;
}

/*
 * Pins the caller (and, inherited, every child) to CPU 0 and returns room
 * for n samples that a forked child can fill.
 */
static long long *rt_samples(long n)
{
	long long *t = mmap(NULL, n * sizeof(*t), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	cpu_set_t cpu;

	CPU_ZERO(&cpu);
	CPU_SET(0, &cpu);
	if (t == MAP_FAILED || sched_setaffinity(0, sizeof(cpu), &cpu)) {
		perror("rt_samples");
		exit(1);
	}
	return t;
}

static int rt_cmp(const void *a, const void *b)
{
	return (*(const long long *)a > *(const long long *)b) - (*(const long long *)a < *(const long long *)b);
}

static void rt_report(const char *name, long long *t, long n)
{
	long long sum = 0;

	for (long i = 0; i < n; i++)
		sum += t[i];
	qsort(t, n, sizeof(*t), rt_cmp);
	printf("%s same-CPU: median %lld ns, mean %lld ns, n %ld\n", name, t[n / 2], sum / n, n);
}

#endif
