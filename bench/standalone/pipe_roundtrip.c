// SPDX-License-Identifier: GPL-2.0
/*
 * pipe-roundtrip [N]: the smallest pipe ping-pong between two processes on
 * CPU 0, written apart from knotif-bench (no lib/) to check its
 * pingpong/pipe/placement:same figure. Prints median and mean in ns.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sys/wait.h>
#include <unistd.h>

#include "roundtrip.h"

int main(int argc, char **argv)
{
	long n = rt_count(argc, argv, 1);
	long long *t = rt_samples(n);
	int ping[2], pong[2];
	char c = 0;

	if (pipe(ping) || pipe(pong))
		return perror("pipe"), 1;
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
	rt_report("pingpong/pipe", t, n);
	return 0;
}
