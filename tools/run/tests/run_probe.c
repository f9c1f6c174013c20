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
 *   run_probe reaper OUT CMD [ARG]...
 *                                 run CMD as a child subreaper: what it leaves
 *                                 behind is handed to us, not to init. CMD's pid
 *                                 goes to OUT.pid as it starts; once it has exited,
 *                                 OUT gets how many processes we then had to reap
 *                                 ("0": it left nothing), "+" added if some still
 *                                 ran 10 s later. Exits with CMD's status (128+N).
 *   run_probe stubborn SECONDS READY
 *                                 block SIGTERM and SIGHUP, ignore SIGINT, add a
 *                                 line to READY, then sleep
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
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

/* one write(), so that a reader polling for the file sees all of it or nothing */
static int write_file(const char *path, const char *text, int flags)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | flags, 0600);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

static int64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int reaper(const char *out, char **cmd)
{
	struct timespec gap = { 0, 10000000 };
	pid_t self = getpid(), pid;
	int status, left = 0;
	bool running = false;
	char path[4096], text[64];
	int64_t end;

	if (prctl(PR_SET_CHILD_SUBREAPER, 1)) {
		perror("run_probe: PR_SET_CHILD_SUBREAPER");
		return 1;
	}
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		/* the test kills us at its end, by our pid: CMD goes with us */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != self)
			_exit(1);
		execvp(cmd[0], cmd);
		fprintf(stderr, "run_probe: %s: %s\n", cmd[0], strerror(errno));
		_exit(127);
	}
	snprintf(path, sizeof(path), "%s.pid", out);
	snprintf(text, sizeof(text), "%d\n", (int)pid);
	if (write_file(path, text, O_TRUNC))
		return 1;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 1;
	/* CMD is gone: whatever of its tree is still there has been handed to us */
	for (end = mono_ms() + 10000;;) {
		pid_t p = waitpid(-1, NULL, WNOHANG);

		if (p > 0) {
			left++;
			continue;
		}
		if (p < 0 && errno == EINTR)
			continue;
		if (p < 0)
			break;	/* ECHILD */
		if (mono_ms() >= end) {
			running = true;
			break;
		}
		nanosleep(&gap, NULL);
	}
	snprintf(text, sizeof(text), "%d%s\n", left, running ? "+" : "");
	if (write_file(out, text, O_TRUNC))
		return 1;
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

static int stubborn(int seconds, const char *ready)
{
	struct timespec left = { seconds, 0 };
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, NULL);
	signal(SIGINT, SIG_IGN);
	if (write_file(ready, "ready\n", O_APPEND))
		return 1;
	while (nanosleep(&left, &left) && errno == EINTR)
		;
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
	if (argc >= 4 && !strcmp(argv[1], "reaper"))
		return reaper(argv[2], argv + 3);
	if (argc == 4 && !strcmp(argv[1], "stubborn"))
		return stubborn(atoi(argv[2]), argv[3]);
	fprintf(stderr, "usage: run_probe open|orphan-open DIR N | connect-unix PATH | open-protnone\n"
		"       run_probe reaper OUT CMD [ARG]... | stubborn SECONDS READY\n");
	return 2;
}
