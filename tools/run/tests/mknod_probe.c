// SPDX-License-Identifier: GPL-2.0
/*
 * The mknod calls knotif-run --emulate=mknod must serve as the kernel
 * would: one call each, in the form named, printing what it returned
 * ("0" or the errno's name) on one line.
 *
 *   mknod_probe FORM PATH TYPE MAJOR MINOR [DIR]
 *     FORM   mknod          mknod(PATH, ...)
 *            at-cwd         mknodat(AT_FDCWD, PATH, ...)
 *            at-dirfd       mknodat(open(DIR, O_PATH), PATH, ...) (DIR may be a file)
 *            at-badfd       mknodat(999, PATH, ...): a descriptor not open
 *            at-magic       mknodat(AT_FDCWD, "/proc/<own pid>/cwd/PATH", ...): a magic link
 *            thread         mknodat(AT_FDCWD, ...) from a second thread
 *            thread-cwd     from a second thread whose own cwd (unshare(CLONE_FS)) is DIR
 *            race-path      a third thread rewrites PATH's bytes to "../../../../../tmp/x"
 *                           over and over while the call waits
 *            race-swap      a second thread swaps directory DIR (PATH's parent) for a
 *                           symlink to /etc and back, over and over, while the call waits
 *            contexts       one process changing what a node is made as between calls,
 *                           each mknodat(AT_FDCWD) printed on its own line: PATH-a
 *                           (umask 022), PATH-b (umask 077), PATH-d (fsuid 1234),
 *                           PATH-e (fsuid 0 again), PATH-c in DIR (chdir), and
 *                           /PATH-r with DIR its root (chroot); run as root. A
 *                           helper kept for one context must serve none of the others
 *            loop           PATH0 .. PATH<MINOR-1>, one call each, MAJOR 1 and minor 3:
 *                           a target to kill in the middle of its calls; prints nothing
 *     TYPE   c, b or p (FIFO)
 *
 * Linked statically, as run_probe is.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static const char *form, *dir;
static char path[4096];
static mode_t mode;
static dev_t dev;
static volatile int stop;
static long result;

static long call(int dirfd)
{
	long r = syscall(SYS_mknodat, dirfd, path, mode, dev);

	return r ? -errno : 0;
}

/* swaps dir for a symlink to /etc and back: the supervisor must never land in /etc */
static void *swap(void *arg)
{
	char real[4200];

	(void)arg;
	if (strlen(dir) + sizeof(".real") > sizeof(real))
		return NULL;
	strcpy(real, dir);
	strcat(real, ".real");
	while (!stop) {
		if (rename(dir, real) == 0) {
			symlink("/etc", dir);
			unlink(dir);
			rename(real, dir);
		}
	}
	return NULL;
}

static void *in_thread(void *arg)
{
	(void)arg;
	if (!strcmp(form, "thread-cwd") && (unshare(CLONE_FS) || chdir(dir))) {
		result = -errno;
		return NULL;
	}
	result = call(AT_FDCWD);
	return NULL;
}

/* a hostile second thread: what the supervisor reads must be one snapshot */
static void *rewrite(void *arg)
{
	static const char other[] = "../../../../../tmp/x";
	char mine[sizeof(path)];

	(void)arg;
	memcpy(mine, path, sizeof(mine));
	while (!stop) {
		memcpy(path, other, sizeof(other));
		memcpy(path, mine, strlen(mine) + 1);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t, racer;

	if (argc < 6) {
		fprintf(stderr, "usage: mknod_probe FORM PATH TYPE MAJOR MINOR [DIR]\n");
		return 2;
	}
	form = argv[1];
	snprintf(path, sizeof(path), "%s", argv[2]);
	mode = (argv[3][0] == 'c' ? S_IFCHR : argv[3][0] == 'b' ? S_IFBLK : S_IFIFO) | 0666;
	dev = makedev(strtoul(argv[4], NULL, 10), strtoul(argv[5], NULL, 10));
	dir = argc > 6 ? argv[6] : ".";
	if (!strcmp(form, "mknod")) {
#ifdef SYS_mknod
		result = syscall(SYS_mknod, path, mode, dev) ? -errno : 0;
#else
		result = call(AT_FDCWD);
#endif
	} else if (!strcmp(form, "at-cwd")) {
		result = call(AT_FDCWD);
	} else if (!strcmp(form, "at-dirfd")) {
		int fd = open(dir, O_PATH);

		if (fd < 0)
			return 3;
		result = call(fd);
	} else if (!strcmp(form, "at-badfd")) {
		result = call(999);
	} else if (!strcmp(form, "at-magic")) {
		snprintf(path, sizeof(path), "/proc/%d/cwd/%s", (int)getpid(), argv[2]);
		result = call(AT_FDCWD);
	} else if (!strcmp(form, "thread") || !strcmp(form, "thread-cwd")) {
		if (pthread_create(&t, NULL, in_thread, NULL) || pthread_join(t, NULL))
			return 3;
	} else if (!strcmp(form, "race-swap")) {
		if (pthread_create(&racer, NULL, swap, NULL))
			return 3;
		result = call(AT_FDCWD);
		stop = 1;
		pthread_join(racer, NULL);
	} else if (!strcmp(form, "contexts")) {
		/* each step: a change of context (0: none), then the node: "ERRNO" when the change failed */
		static const struct { const char *suffix; int umask, fsuid; bool cd, root; } step[] = {
			{ "-a", 022, 0, false, false }, { "-b", 077, 0, false, false },
			{ "-d", 022, 1234, false, false }, { "-e", 022, 0, false, false },
			{ "-c", 022, 0, true, false }, { "-r", 022, 0, false, true },
		};
		char base[256];

		if (strlen(argv[2]) + 4 >= sizeof(base))
			return 2;
		snprintf(base, sizeof(base), "%s", argv[2]);
		for (size_t i = 0; i < sizeof(step) / sizeof(step[0]); i++) {
			umask((mode_t)step[i].umask);
			setfsuid((uid_t)step[i].fsuid);
			if ((step[i].cd && chdir(dir)) || (step[i].root && chroot(dir))) {
				puts(strerrorname_np(errno));
				continue;
			}
			snprintf(path, sizeof(path), "%s%s%s", step[i].root ? "/" : "", base, step[i].suffix);
			result = call(AT_FDCWD);
			puts(result ? strerrorname_np((int)-result) : "0");
		}
		return 0;
	} else if (!strcmp(form, "loop")) {
		char base[256];
		unsigned long n = strtoul(argv[5], NULL, 10);

		if (strlen(argv[2]) >= sizeof(base))
			return 2;
		strcpy(base, argv[2]);
		dev = makedev(1, 3);
		for (unsigned long i = 0; i < n; i++) {
			snprintf(path, sizeof(path), "%s%lu", base, i);
			call(AT_FDCWD);
		}
		return 0;
	} else if (!strcmp(form, "race-path")) {
		if (pthread_create(&racer, NULL, rewrite, NULL))
			return 3;
		/* the racer may be mid-rewrite when we call: only our own snapshot counts */
		result = call(AT_FDCWD);
		stop = 1;
		pthread_join(racer, NULL);
	} else {
		fprintf(stderr, "mknod_probe: unknown form %s\n", form);
		return 2;
	}
	puts(result ? strerrorname_np((int)-result) : "0");
	return 0;
}
