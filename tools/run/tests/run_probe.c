// SPDX-License-Identifier: GPL-2.0
/*
 * A command whose system calls the knotif-run tests know in advance. It is
 * linked statically, so no dynamic loader opens anything of its own.
 *
 *   run_probe open DIR N          create DIR/f0 .. DIR/f<N-1>: exactly N openat calls
 *   run_probe orphan-open DIR N   the same, from a grandchild that outlives us
 *   run_probe connect-unix PATH   one connect() to the AF_UNIX socket PATH
 *   run_probe open-protnone       one openat() of a path in a PROT_NONE page:
 *                                 exit 0 when the kernel refused it with EFAULT
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static int open_files(const char *dir, int n)
{
	char path[4096];

	for (int i = 0; i < n; i++) {
		int fd;

		snprintf(path, sizeof(path), "%s/f%d", dir, i);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (fd < 0) {
			fprintf(stderr, "run_probe: %s: %s\n", path, strerror(errno));
			return 1;
		}
		close(fd);
	}
	return 0;
}

/* The grandchild waits for our exit (EOF on a pipe), then opens its files. */
static int orphan_open(const char *dir, int n)
{
	int p[2];
	char c;

	if (pipe(p))
		return 1;
	switch (fork()) {
	case -1:
		return 1;
	case 0:
		close(p[1]);
		while (read(p[0], &c, 1) < 0 && errno == EINTR)
			;
		_exit(open_files(dir, n));
	default:
		return 0;	/* exit holding p[1]: the grandchild's read sees EOF */
	}
}

static int connect_unix(const char *path)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return 1;
	strncpy(sun.sun_path, path, sizeof(sun.sun_path) - 1);
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == 0)
		return 1;	/* nothing listens there: the tests expect a failure */
	close(fd);
	return 0;
}

static int open_protnone(void)
{
	char *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (page == MAP_FAILED)
		return 1;
	strcpy(page, "/etc/hostname");	/* there, but unreadable to us from here on */
	if (mprotect(page, 4096, PROT_NONE))
		return 1;
	if (open(page, O_RDONLY | O_CLOEXEC) >= 0 || errno != EFAULT) {
		fprintf(stderr, "run_probe: open of a PROT_NONE path: %s\n", strerror(errno));
		return 1;
	}
	printf("%p\n", (void *)page);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "open"))
		return open_files(argv[2], atoi(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "orphan-open"))
		return orphan_open(argv[2], atoi(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "connect-unix"))
		return connect_unix(argv[2]);
	if (argc == 2 && !strcmp(argv[1], "open-protnone"))
		return open_protnone();
	fprintf(stderr, "usage: run_probe open|orphan-open DIR N | connect-unix PATH | open-protnone\n");
	return 2;
}
