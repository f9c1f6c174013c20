// SPDX-License-Identifier: GPL-2.0
/*
 * unotif-roundtrip [async|sync] [N]: the smallest program that does what
 * knotif-bench's unotif/<wake>/emulate/placement:same does, written apart
 * from it (no lib/) so the two can check each other. The listener
 * crosses processes with pidfd_getfd() rather than SCM_RIGHTS.
 * Prints: median and mean round trip in ns.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "roundtrip.h"

#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS SECCOMP_IOW(4, __u64)
#define SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP 1
#endif

int main(int argc, char **argv)
{
	int sync = argc > 1 && !strcmp(argv[1], "sync");
	long n = rt_count(argc, argv, 2);
	long long *t = rt_samples(n);	/* pinned: both ends on CPU 0 */
	int ready[2], fd = -1, pidfd, listener, status;
	pid_t child;

	if (argc > 1 && strcmp(argv[1], "sync") && strcmp(argv[1], "async"))
		return fprintf(stderr, "%s: unknown wake-up '%s' (expected async or sync)\n", argv[0], argv[1]), 2;
	if (pipe(ready))
		return perror("pipe"), 1;
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
	rt_report(sync ? "unotif/sync/emulate" : "unotif/async/emulate", t, n);
	return 0;
}
