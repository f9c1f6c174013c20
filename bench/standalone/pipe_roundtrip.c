// SPDX-License-Identifier: GPL-2.0
/*
 * pipe-roundtrip [N]: the smallest pipe ping-pong between two processes on
 * CPU 0, written apart from knotif-bench (no libknotif) to check its
 * pingpong/pipe/placement:same figure. Prints median and mean in ns.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	return (*(const long long *)a > *(const long long *)b) - (*(const long long *)a < *(const long long *)b);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 20000;
	long long *t = mmap(NULL, n * sizeof(*t), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int ping[2], pong[2];
	cpu_set_t cpu;
	char c = 0;

	CPU_ZERO(&cpu);
	CPU_SET(0, &cpu);
	sched_setaffinity(0, sizeof(cpu), &cpu);
	if (t == MAP_FAILED || pipe(ping) || pipe(pong))
		return 1;
	if (fork() == 0) {
		close(ping[1]);	/* or the read below never sees EOF */
		while (read(ping[0], &c, 1) == 1)
			write(pong[1], &c, 1);
		_exit(0);
	}
	close(ping[0]);
	for (long i = -n / 10; i < n; i++) {
		long long t0 = now();

		write(ping[1], &c, 1);
		read(pong[0], &c, 1);
		if (i >= 0)
			t[i] = now() - t0;
	}
	close(ping[1]);
	wait(NULL);
	long long sum = 0;
	for (long i = 0; i < n; i++)
		sum += t[i];
	qsort(t, n, sizeof(*t), cmp);
	printf("pingpong/pipe same-CPU: median %lld ns, mean %lld ns, n %ld\n", t[n / 2], sum / n, n);
	return 0;
}
