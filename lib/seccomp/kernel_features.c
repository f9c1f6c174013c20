// SPDX-License-Identifier: GPL-2.0
#include "kernel_features.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compat.h"
#include "filter.h"
#include "notif.h"
#include "pdeath.h"

/* what a kernel without the feature lacks */
static const char *const needs[FEAT_COUNT] = {
	[FEAT_SECCOMP_FILTER] = "seccomp filters need CONFIG_SECCOMP_FILTER",
	[FEAT_RET_ERRNO] = "SECCOMP_RET_ERRNO is not available",
	[FEAT_RET_TRAP] = "SECCOMP_RET_TRAP is not available",
	[FEAT_RET_TRACE] = "SECCOMP_RET_TRACE is not available",
	[FEAT_USER_NOTIF] = "SECCOMP_RET_USER_NOTIF needs Linux 5.0",
	[FEAT_NOTIF_CONTINUE] = "SECCOMP_USER_NOTIF_FLAG_CONTINUE needs Linux 5.5",
	[FEAT_ADDFD_SEND] = "SECCOMP_ADDFD_FLAG_SEND needs Linux 5.14",
	[FEAT_WAIT_KILLABLE] = "SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV needs Linux 5.19",
	[FEAT_SYNC_WAKE_UP] = "SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP needs Linux 6.6",
	[FEAT_SUD] = "Syscall User Dispatch needs Linux 5.11 (CONFIG_GENERIC_ENTRY)",
	[FEAT_PTRACE] = "ptrace is disabled (kernel.yama.ptrace_scope=3)",
	[FEAT_NOTIF_RW] = "listener read()/write() needs the knotif kernel series "
			  "(kernel/patches, CONFIG_SECCOMP_USER_NOTIF_RW)",
	[FEAT_PTRACE_LISTENER] = "PTRACE_SECCOMP_GET_LISTENER needs the knotif kernel "
				 "series (kernel/patches, the ptrace listener)",
	[FEAT_AS_TARGET] = "acting as another thread (a device node, a mount) takes CAP_MKNOD, "
			   "CAP_SYS_ADMIN, CAP_SYS_CHROOT, CAP_SETUID and CAP_SETGID",
	[FEAT_NOTIF_RW_BATCH] = "batched read()/write() on listeners needs the knotif "
				"kernel series (kernel/patches, CONFIG_SECCOMP_USER_NOTIF_RW)",
};

static int action_avail(uint32_t action)
{
	return syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) ? -errno : 0;
}

/* Is @fd a seccomp listener (an anon inode the kernel names so)? */
static bool is_listener(int fd)
{
	static const char name[] = "anon_inode:seccomp notify";
	char path[64], link[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, link, sizeof(link));
	return n == (ssize_t)strlen(name) && !memcmp(link, name, n);
}

/* The probes below need a listener; they run in a child that never calls the trapped syscall. */
static int listener_probe(enum feature f)
{
	int trapped = SYS_getppid;
	unsigned int flags = SECCOMP_FILTER_FLAG_NEW_LISTENER;
	int listener, ret = 0;

	if (f == FEAT_WAIT_KILLABLE)
		flags |= SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV;
	listener = filter_install(&trapped, 1, SECCOMP_RET_USER_NOTIF, flags);
	if (listener < 0)
		return listener;
	if (f == FEAT_SYNC_WAKE_UP) {
		if (ioctl(listener, SECCOMP_IOCTL_NOTIF_SET_FLAGS, SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP))
			ret = -errno;
	} else if (f == FEAT_NOTIF_CONTINUE) {
		/* A kernel that knows the flag checks the (bogus) id next: ENOENT. */
		struct seccomp_notif_resp resp = { .id = ~0ULL, .flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE };

		if (ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp) == 0 || errno != ENOENT)
			ret = -EINVAL;
	} else if (f == FEAT_NOTIF_RW) {
		/* idle and non-blocking: EAGAIN where read() is the protocol, EINVAL where not */
		struct seccomp_notif req;

		fcntl(listener, F_SETFL, O_NONBLOCK);
		memset(&req, 0, sizeof(req));
		if (read(listener, &req, sizeof(req)) >= 0)
			ret = -EINVAL;	/* nothing is pending: a read cannot succeed */
		else if (errno != EAGAIN)
			ret = -errno;
	} else if (f == FEAT_NOTIF_RW_BATCH) {
		/* two records for an id nobody has: the first fails (ENOENT) where batches exist */
		struct seccomp_notif_rw_resp resp[2] = {
			{ .id = ~0ULL, .size = SECCOMP_NOTIF_RW_RESP_SIZE_VER0 },
			{ .id = ~0ULL, .size = SECCOMP_NOTIF_RW_RESP_SIZE_VER0 },
		};

		if (write(listener, resp, sizeof(resp)) >= 0)
			ret = -EINVAL;
		else if (errno != ENOENT)
			ret = -errno;
	} else if (f == FEAT_ADDFD_SEND) {
		struct seccomp_notif_addfd addfd = { .id = ~0ULL, .flags = SECCOMP_ADDFD_FLAG_SEND, .srcfd = listener };

		if (ioctl(listener, SECCOMP_IOCTL_NOTIF_ADDFD, &addfd) == 0 || errno != ENOENT)
			ret = -EINVAL;
	}
	return ret;
}

static int probe_in_child(enum feature f)
{
	int *result = mmap(NULL, sizeof(int), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int status, ret;
	pid_t pid;

	if (result == MAP_FAILED)
		return -errno;
	*result = -ECHILD;
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		munmap(result, sizeof(int));
		return ret;
	}
	if (pid == 0) {
		*result = listener_probe(f);
		_exit(0);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	ret = *result;
	munmap(result, sizeof(int));
	return ret;
}

/*
 * Attach to a child that installed a listener-less USER_NOTIF filter and ask
 * for its listener: EIO from a kernel that does not know the request. The
 * child is made to be killed, so whatever a kernel does with the request
 * number harms nothing; success counts only if the answer is a listener
 * (a later mainline may give the number to another request).
 */
static int ptrace_listener_probe(void)
{
	int ready[2], ret = 0, status;
	pid_t pid, parent = getpid();
	char c;

	if (pipe(ready))
		return -errno;
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		close(ready[0]);
		close(ready[1]);
		return ret;
	}
	if (pid == 0) {
		int trapped = SYS_getppid;

		if (pdeath_follow(parent, SIGKILL))
			_exit(0);	/* it pauses below: never past its parent */
		close(ready[0]);
		c = filter_install(&trapped, 1, SECCOMP_RET_USER_NOTIF, 0) < 0 ? 'E' : 'R';
		if (write(ready[1], &c, 1) == 1)
			pause();
		_exit(0);
	}
	close(ready[1]);
	if (read(ready[0], &c, 1) != 1 || c != 'R')
		ret = -ENOSYS;
	else {
		int fd = notif_ptrace_listener(pid, 0);

		if (fd < 0)
			ret = fd;
		else {
			ret = is_listener(fd) ? 0 : -ENOTSUP;
			close(fd);
		}
	}
	close(ready[0]);
	kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return ret;
}

static int ptrace_allowed(void)
{
	FILE *f = fopen("/proc/sys/kernel/yama/ptrace_scope", "r");
	int scope = 0;

	if (!f)
		return 0;	/* no Yama: classic ptrace rules, a parent may trace its child */
	if (fscanf(f, "%d", &scope) != 1)
		scope = 0;
	fclose(f);
	return scope >= 3 ? -EPERM : 0;
}

/* Every capability lib/seccomp/as_target.c's helpers use, effective now: 0 or -EPERM. */
static int as_target_privileged(void)
{
	static const cap_value_t needed[] = { CAP_MKNOD, CAP_SYS_ADMIN, CAP_SYS_CHROOT, CAP_SETUID,
					      CAP_SETGID };
	cap_t caps = cap_get_proc();
	int ret = 0;

	if (!caps)
		return -errno;
	for (size_t i = 0; i < sizeof(needed) / sizeof(needed[0]); i++) {
		cap_flag_value_t v = CAP_CLEAR;

		if (cap_get_flag(caps, needed[i], CAP_EFFECTIVE, &v) || v != CAP_SET)
			ret = -EPERM;
	}
	cap_free(caps);
	return ret;
}

static int probe(enum feature f)
{
	int ret;

	switch (f) {
	case FEAT_SECCOMP_FILTER:
		return action_avail(SECCOMP_RET_ALLOW);
	case FEAT_RET_ERRNO:
		return action_avail(SECCOMP_RET_ERRNO);
	case FEAT_RET_TRAP:
		return action_avail(SECCOMP_RET_TRAP);
	case FEAT_RET_TRACE:
		return action_avail(SECCOMP_RET_TRACE);
	case FEAT_USER_NOTIF:	/* known to the kernel, and a listener can be had here */
	case FEAT_NOTIF_CONTINUE:
	case FEAT_ADDFD_SEND:
	case FEAT_WAIT_KILLABLE:
	case FEAT_SYNC_WAKE_UP:
	case FEAT_NOTIF_RW:
	case FEAT_NOTIF_RW_BATCH:
		ret = action_avail(SECCOMP_RET_USER_NOTIF);
		return ret ? ret : probe_in_child(f);
	case FEAT_PTRACE_LISTENER:
		ret = ptrace_allowed();
		return ret ? ret : ptrace_listener_probe();
	case FEAT_SUD:
		return prctl(PR_SET_SYSCALL_USER_DISPATCH, PR_SYS_DISPATCH_OFF, 0, 0, 0) ? -errno : 0;
	case FEAT_PTRACE:
		return ptrace_allowed();
	case FEAT_AS_TARGET:
		return as_target_privileged();
	default:
		return -EINVAL;
	}
}

/*
 * Each feature is probed once per process (a probe forks and installs a
 * filter): the answer cannot change while knotif runs, and a tool asks once
 * per method or run. Forked children inherit the answers.
 */
int feature_probe(enum feature f, char *why, size_t why_len)
{
	static int probed[FEAT_COUNT];		/* 0 not yet, 1 present, else -errno */
	static char reason[FEAT_COUNT][256];

	if (f >= FEAT_COUNT) {
		snprintf(why, why_len, "unknown feature %d", (int)f);
		return -EINVAL;
	}
	if (!probed[f]) {
		int ret = probe(f);

		probed[f] = ret ? ret : 1;
		if (ret == -EBUSY)	/* seccomp_bpf.c: a second listener in one filter chain is EBUSY */
			snprintf(reason[f], sizeof(reason[f]),
				 "a seccomp listener already exists in this task's filter chain: "
				 "running under another notification supervisor (knotif-run, a "
				 "container's seccomp agent)? (probe: %s)", strerror(-ret));
		else if (ret)
			snprintf(reason[f], sizeof(reason[f]), "%s (probe: %s)", needs[f],
				 strerror(-ret));
	}
	if (probed[f] == 1)
		return 0;
	snprintf(why, why_len, "%s", reason[f]);
	return probed[f];
}
