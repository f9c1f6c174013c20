// SPDX-License-Identifier: GPL-2.0
/*
 * Emulated calls whose acts a FUSE server holds (stall_fs.c): what
 * knotif-run --emulate must do while one act is stuck, and when it ends.
 *
 *   stall_probe mknod CTL STALLED FREE SECONDS
 *     thread A: mknodat(AT_FDCWD, STALLED, S_IFCHR | 0644, 1:3), whose
 *     helper stall_fs holds; once stall_fs counts it blocked, the main
 *     thread makes FREE (not held) the same way, waits SECONDS with A
 *     still held, releases the hold (removes CTL/hold) and joins A.
 *     Prints "free R", "stalled-pending-after-free yes|no", "stalled R",
 *     "stalled-returned-after-release yes|no".
 *   stall_probe mount CTL FREE NFREE STALLED N SECONDS
 *     First NFREE mounts one after the other, mount("t", FREE<i>, "tmpfs",
 *     0, "size=64k") (not held), printing "free<i> R"; then N threads, each
 *     the same mount on STALLED<i>; once stall_fs counts N - 1 of them
 *     blocked and one call has returned, waits SECONDS, releases the hold
 *     and joins them all. Prints "returned-while-held R" (that one call's
 *     result), then "mount<i> R" for each. (stall_fs holds 10 requests at
 *     most: FREE mounts make up the rest of a bound.)
 *
 * R is "0" or the errno's name. Waits are bounded (60 s for the blocked
 * count): a probe that cannot get there exits 1 with why.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#define MAX_THREADS 64

static const char *ctl;
static atomic_int released;	/* set just before the hold goes */

struct call {
	pthread_t thread;
	const char *path;
	char target[4096];
	long result;		/* 0, or -errno */
	atomic_int done;
	int returned_after_release;
};

static const char *result_name(long r)
{
	static char buf[32];

	if (!r)
		return "0";
	snprintf(buf, sizeof(buf), "%s", strerrorname_np((int)-r) ? strerrorname_np((int)-r) : "E?");
	return buf;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* stall_fs's count of requests it holds now */
static int blocked(void)
{
	char name[4200];
	int n = -1;
	FILE *f;

	snprintf(name, sizeof(name), "%s/blocked", ctl);
	f = fopen(name, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%d", &n) != 1)
		n = 0;
	fclose(f);
	return n;
}

/* until stall_fs holds want requests (and, when calls is set, one of them has returned) */
static int wait_blocked(int want, struct call *calls, int n)
{
	for (int i = 0; i < 6000; i++) {	/* 60 s */
		bool one_done = !calls;

		for (int k = 0; calls && k < n; k++)
			one_done |= atomic_load(&calls[k].done);
		if (blocked() >= want && one_done)
			return 0;
		sleep_ms(10);
	}
	fprintf(stderr, "stall_probe: stall_fs never held %d requests (it holds %d)\n", want, blocked());
	return -1;
}

static void release(void)
{
	char name[4200];

	snprintf(name, sizeof(name), "%s/hold", ctl);
	atomic_store(&released, 1);
	if (unlink(name))
		perror("stall_probe: removing the hold");
}

static void *do_mknod(void *arg)
{
	struct call *c = arg;

	c->result = syscall(SYS_mknodat, -100 /* AT_FDCWD */, c->path, S_IFCHR | 0644, makedev(1, 3)) ? -errno : 0;
	c->returned_after_release = atomic_load(&released);
	atomic_store(&c->done, 1);
	return NULL;
}

static void *do_mount(void *arg)
{
	struct call *c = arg;

	c->result = mount("t", c->target, "tmpfs", 0, "size=64k") ? -errno : 0;
	c->returned_after_release = atomic_load(&released);
	atomic_store(&c->done, 1);
	return NULL;
}

static int stall_mknod(const char *stalled, const char *free_path, int seconds)
{
	struct call a = { .path = stalled }, b = { .path = free_path };

	if (pthread_create(&a.thread, NULL, do_mknod, &a))
		return 1;
	if (wait_blocked(1, NULL, 0)) {
		release();
		pthread_join(a.thread, NULL);
		return 1;
	}
	do_mknod(&b);
	printf("free %s\n", result_name(b.result));
	printf("stalled-pending-after-free %s\n", atomic_load(&a.done) ? "no" : "yes");
	fflush(stdout);
	sleep_ms(seconds * 1000L);
	release();
	pthread_join(a.thread, NULL);
	printf("stalled %s\n", result_name(a.result));
	printf("stalled-returned-after-release %s\n", a.returned_after_release ? "yes" : "no");
	return 0;
}

static int stall_mount(const char *free_prefix, int nfree, const char *prefix, int n, int seconds)
{
	static struct call calls[MAX_THREADS];
	int first = -1;

	for (int i = 0; i < nfree; i++) {
		struct call c = { 0 };

		snprintf(c.target, sizeof(c.target), "%s%d", free_prefix, i);
		do_mount(&c);
		printf("free%d %s\n", i, result_name(c.result));
	}
	for (int i = 0; i < n; i++) {
		snprintf(calls[i].target, sizeof(calls[i].target), "%s%d", prefix, i);
		if (pthread_create(&calls[i].thread, NULL, do_mount, &calls[i]))
			return 1;
	}
	if (wait_blocked(n - 1, calls, n)) {
		release();
		for (int i = 0; i < n; i++)
			pthread_join(calls[i].thread, NULL);
		return 1;
	}
	for (int i = 0; i < n && first < 0; i++)
		if (atomic_load(&calls[i].done))
			first = i;
	printf("returned-while-held %s\n", result_name(calls[first].result));
	fflush(stdout);
	sleep_ms(seconds * 1000L);
	release();
	for (int i = 0; i < n; i++) {
		pthread_join(calls[i].thread, NULL);
		printf("mount%d %s\n", i, result_name(calls[i].result));
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 6 && !strcmp(argv[1], "mknod")) {
		ctl = argv[2];
		return stall_mknod(argv[3], argv[4], atoi(argv[5]));
	}
	if (argc == 8 && !strcmp(argv[1], "mount") && atoi(argv[6]) > 1 && atoi(argv[6]) <= MAX_THREADS) {
		ctl = argv[2];
		return stall_mount(argv[3], atoi(argv[4]), argv[5], atoi(argv[6]), atoi(argv[7]));
	}
	fprintf(stderr, "usage: stall_probe mknod CTL STALLED FREE SECONDS | "
		"mount CTL FREE NFREE STALLED N SECONDS\n");
	return 2;
}
