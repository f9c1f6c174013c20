// SPDX-License-Identifier: GPL-2.0
/*
 * unotif-roundtrip [async|sync] [N]: the smallest program that does what
 * knotif-bench's unotif/<wake>/emulate/placement:same does, written apart
 * from it (no libknotif) so the two can check each other. The listener
 * crosses processes with pidfd_getfd() rather than SCM_RIGHTS.
 * Prints: median and mean round trip in ns.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS SECCOMP_IOW(4, __u64)
#define SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP 1
#endif

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
	int sync = argc > 1 && !strcmp(argv[1], "sync");
	long n = argc > 2 ? atol(argv[2]) : 20000;
	long long *t = mmap(NULL, n * sizeof(*t), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int ready[2], fd = -1, pidfd, listener, status;
	cpu_set_t cpu;
	pid_t child;

	CPU_ZERO(&cpu);
	CPU_SET(0, &cpu);
	sched_setaffinity(0, sizeof(cpu), &cpu);	/* inherited: both ends on CPU 0 */
	if (t == MAP_FAILED || pipe(ready))
		return 1;
	child = fork();
	if (child == 0) {
		struct sock_filter f[] = {
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		};
		struct sock_fprog prog = { .len = 4, .filter = f };

		prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
		fd = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
		write(ready[1], &fd, sizeof(fd));
		read(ready[1] == 0 ? 0 : ready[0], &fd, 0);
		for (long i = -n / 10; i < n; i++) {	/* a tenth more as warm-up */
			long long t0 = now();
			long r = syscall(SYS_getppid);

			if (i >= 0)
				t[i] = now() - t0;
			if (r != 42)
				_exit(2);
		}
		syscall(SYS_getppid, 1);	/* arg0 = 1: stop */
		_exit(0);
	}
	if (read(ready[0], &fd, sizeof(fd)) != sizeof(fd) || fd < 0)
		return 1;
	pidfd = syscall(SYS_pidfd_open, child, 0);
	listener = syscall(SYS_pidfd_getfd, pidfd, fd, 0);
	if (listener < 0 || (sync && ioctl(listener, SECCOMP_IOCTL_NOTIF_SET_FLAGS, SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP)))
		return perror("listener"), 1;
	for (;;) {
		struct seccomp_notif req;
		struct seccomp_notif_resp resp;

		memset(&req, 0, sizeof(req));
		if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &req))
			continue;
		memset(&resp, 0, sizeof(resp));
		resp.id = req.id;
		resp.val = 42;
		ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
		if (req.data.args[0] == 1)
			break;
	}
	waitpid(child, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return fprintf(stderr, "target failed\n"), 1;
	long long sum = 0;
	for (long i = 0; i < n; i++)
		sum += t[i];
	qsort(t, n, sizeof(*t), cmp);
	printf("unotif/%s/emulate same-CPU: median %lld ns, mean %lld ns, n %ld\n", sync ? "sync" : "async",
	       t[n / 2], sum / n, n);
	return 0;
}
