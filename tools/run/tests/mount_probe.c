// SPDX-License-Identifier: GPL-2.0
/*
 * The mount calls knotif-run --emulate=mount must serve as the kernel
 * would, and the places it must never mount. One line out each.
 *
 *   mount_probe call TYPE SOURCE TARGET FLAGS DATA
 *       mount(2) once ("-" passes NULL; FLAGS in hex): prints "0" or the errno's name;
 *       a TARGET "magic:PATH" is "/proc/<own pid>/root" then PATH: through a magic link
 *   mount_probe thread TYPE SOURCE TARGET FLAGS DATA
 *       the same from a second thread
 *   mount_probe race-swap DIR VICTIM N
 *       a second thread swaps DIR/m, a directory, for a symlink to VICTIM and back
 *       (RENAME_EXCHANGE with DIR/m.alt) while the main thread mounts tmpfs on
 *       DIR/m N times: prints "mounted=A refused=B other=C"
 *   mount_probe race-path DIR VICTIM N
 *       a second thread rewrites the path's bytes between DIR/m and VICTIM over and
 *       over while each of N calls waits: prints the same counts
 *   mount_probe info PATH
 *       "mountpoint=yes|no" (st_dev differs from its parent's), then for a tmpfs
 *       "tmpfs uid=U gid=G mode=M flags=..." (statvfs: ro, nosuid, nodev, noexec)
 *
 * Linked statically, as run_probe is.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <unistd.h>

static char target[4096], alt[4096], victim[4096];
static const char *type, *source, *data;
static unsigned long flags;
static volatile int stop;
static long result;

static const char *arg_or_null(const char *s)
{
	return strcmp(s, "-") ? s : NULL;
}

static long call(void)
{
	return mount(source, target, type, flags, data) ? -errno : 0;
}

static void *in_thread(void *arg)
{
	(void)arg;
	result = call();
	return NULL;
}

static void print_result(long r)
{
	if (r)
		printf("%s\n", strerrorname_np((int)-r) ?: "E?");
	else
		printf("0\n");
}

/* DIR/m (a directory) and DIR/m.alt (a symlink to VICTIM) trade places, over and over */
static void *swapper(void *arg)
{
	(void)arg;
	while (!stop)
		renameat2(AT_FDCWD, target, AT_FDCWD, alt, RENAME_EXCHANGE);
	return NULL;
}

/* the path's bytes become VICTIM and back, over and over */
static void *rewriter(void *arg)
{
	char own[sizeof(target)];

	memcpy(own, target, sizeof(own));
	(void)arg;
	while (!stop) {
		memcpy(target, victim, sizeof(target));
		memcpy(target, own, sizeof(target));
	}
	return NULL;
}

static int race(const char *how, const char *dir, int n)
{
	int counts[3] = { 0 };
	pthread_t t;

	snprintf(target, sizeof(target), "%s/m", dir);
	snprintf(alt, sizeof(alt), "%s/m.alt", dir);
	type = "tmpfs";
	source = "race";
	data = "size=64k";
	if (pthread_create(&t, NULL, strcmp(how, "race-swap") ? rewriter : swapper, NULL))
		return 1;
	for (int i = 0; i < n; i++) {
		long r = call();

		counts[r == 0 ? 0 : r == -EPERM ? 1 : 2]++;
	}
	stop = 1;
	pthread_join(t, NULL);
	printf("mounted=%d refused=%d other=%d\n", counts[0], counts[1], counts[2]);
	return 0;
}

static int info(const char *path)
{
	char parent[4200];
	struct stat st, pst;
	struct statfs fs;
	struct statvfs vfs;

	snprintf(parent, sizeof(parent), "%s/..", path);
	if (stat(path, &st) || stat(parent, &pst) || statfs(path, &fs) || statvfs(path, &vfs)) {
		printf("%s\n", strerrorname_np(errno) ?: "E?");
		return 0;
	}
	printf("mountpoint=%s", st.st_dev != pst.st_dev ? "yes" : "no");
	if (st.st_dev != pst.st_dev && fs.f_type == TMPFS_MAGIC)
		printf(" tmpfs uid=%u gid=%u mode=%o flags=%s%s%s%s", (unsigned int)st.st_uid,
		       (unsigned int)st.st_gid, (unsigned int)(st.st_mode & 07777),
		       vfs.f_flag & ST_RDONLY ? "ro," : "", vfs.f_flag & ST_NOSUID ? "nosuid," : "",
		       vfs.f_flag & ST_NODEV ? "nodev," : "", vfs.f_flag & ST_NOEXEC ? "noexec" : "");
	printf("\n");
	return 0;
}

int main(int argc, char **argv)
{
	pthread_t t;

	if (argc == 3 && !strcmp(argv[1], "info"))
		return info(argv[2]);
	if (argc == 5 && (!strcmp(argv[1], "race-swap") || !strcmp(argv[1], "race-path"))) {
		snprintf(victim, sizeof(victim), "%s", argv[3]);
		return race(argv[1], argv[2], atoi(argv[4]));
	}
	if (argc != 7 || (strcmp(argv[1], "call") && strcmp(argv[1], "thread"))) {
		fprintf(stderr, "usage: mount_probe call|thread TYPE SOURCE TARGET FLAGS DATA | "
				"race-swap|race-path DIR VICTIM N | info PATH\n");
		return 2;
	}
	type = arg_or_null(argv[2]);
	source = arg_or_null(argv[3]);
	if (!strncmp(argv[4], "magic:", 6))
		snprintf(target, sizeof(target), "/proc/%d/root%s", (int)getpid(), argv[4] + 6);
	else
		snprintf(target, sizeof(target), "%s", argv[4]);
	flags = strtoul(argv[5], NULL, 16);
	data = arg_or_null(argv[6]);
	if (!strcmp(argv[1], "call")) {
		print_result(call());
		return 0;
	}
	if (pthread_create(&t, NULL, in_thread, NULL) || pthread_join(t, NULL))
		return 1;
	print_result(result);
	return 0;
}
