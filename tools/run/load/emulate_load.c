// SPDX-License-Identifier: GPL-2.0
/*
 * Load for knotif-run --emulate=mknod, to see whether one process's calls
 * wait on another's (results/run/regen): run under knotif-run, as root.
 *
 *   emulate_load bystander DIR N        N times: mknod DIR/bystander (c 1:3),
 *                                       timed (CLOCK_MONOTONIC, the call
 *                                       alone), then unlink it; prints
 *                                       "calls N p50_ns P p99_ns Q max_ns M"
 *   emulate_load flood DIR THREADS SECS THREADS threads, each mknod + unlink of
 *                                       DIR/flood<i> until SECS have passed;
 *                                       prints "calls C" (all threads)
 *   emulate_load one PATH               one mknod of PATH (c 1:3): prints its
 *                                       result ("0" or the errno's name) when
 *                                       it returns
 *
 * A call that fails ends the run with exit 1 and why.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#define MAX_THREADS 1024

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int make(const char *path)
{
	return mknod(path, S_IFCHR | 0600, makedev(1, 3)) ? errno : 0;
}

static int cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static int bystander(const char *dir, long n)
{
	int64_t *t = calloc((size_t)n, sizeof(*t));
	char path[4096];

	if (!t || n < 1)
		return fprintf(stderr, "emulate_load: bad count\n"), 2;
	snprintf(path, sizeof(path), "%s/bystander", dir);
	for (long i = 0; i < n; i++) {
		int64_t t0 = now_ns();
		int err = make(path);

		t[i] = now_ns() - t0;
		if (err || unlink(path))
			return fprintf(stderr, "emulate_load: %s: %s\n", path, strerror(err ? err : errno)), 1;
	}
	qsort(t, (size_t)n, sizeof(*t), cmp);
	printf("calls %ld p50_ns %lld p99_ns %lld max_ns %lld\n", n, (long long)t[n / 2],
	       (long long)t[(n * 99) / 100], (long long)t[n - 1]);
	free(t);
	return 0;
}

struct flooder {
	pthread_t thread;
	char path[4096];
	int64_t until;
	long calls;
	int err;
};

static void *flood_one(void *arg)
{
	struct flooder *f = arg;

	while (now_ns() < f->until && !f->err) {
		f->err = make(f->path);
		if (!f->err && unlink(f->path))
			f->err = errno;
		f->calls++;
	}
	return NULL;
}

static int flood(const char *dir, int threads, int secs)
{
	static struct flooder f[MAX_THREADS];
	int64_t until = now_ns() + (int64_t)secs * 1000000000;
	long calls = 0;
	int err = 0;

	if (threads < 1 || threads > MAX_THREADS || secs < 1)
		return fprintf(stderr, "emulate_load: bad thread count or seconds\n"), 2;
	for (int i = 0; i < threads; i++) {
		snprintf(f[i].path, sizeof(f[i].path), "%s/flood%d", dir, i);
		f[i].until = until;
		if (pthread_create(&f[i].thread, NULL, flood_one, &f[i]))
			return fprintf(stderr, "emulate_load: pthread_create failed\n"), 1;
	}
	for (int i = 0; i < threads; i++) {
		pthread_join(f[i].thread, NULL);
		calls += f[i].calls;
		if (f[i].err && !err)
			err = f[i].err;
	}
	if (err)
		return fprintf(stderr, "emulate_load: flood: %s\n", strerror(err)), 1;
	printf("calls %ld\n", calls);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "bystander"))
		return bystander(argv[2], atol(argv[3]));
	if (argc == 5 && !strcmp(argv[1], "flood"))
		return flood(argv[2], atoi(argv[3]), atoi(argv[4]));
	if (argc == 3 && !strcmp(argv[1], "one")) {
		int err = make(argv[2]);

		printf("%s\n", err ? strerrorname_np(err) : "0");
		return 0;
	}
	fprintf(stderr, "usage: emulate_load bystander DIR N | flood DIR THREADS SECS | one PATH\n");
	return 2;
}
