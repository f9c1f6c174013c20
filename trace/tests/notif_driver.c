// SPDX-License-Identifier: GPL-2.0
/*
 * notif-driver: drives an exact number of seccomp notifications of every
 * outcome, for the tracer tests. A target traps getppid with
 * SECCOMP_RET_USER_NOTIF and hands the listener to its parent, the
 * supervisor. Then:
 *   EARLY       times (optional, default 0), first of all: the target's
 *                      call is interrupted before any RECV (the supervisor
 *                      signals it once it sleeps in the call), so a tracer
 *                      sees interrupted calls before the first RECV of
 *                      their number;
 *   REPLIED     times: the supervisor answers (emulates) and the target
 *                      checks the answer;
 *   ADDFD       times (optional, default 0): the supervisor answers with
 *                      SECCOMP_IOCTL_NOTIF_ADDFD and SECCOMP_ADDFD_FLAG_SEND
 *                      (one file installed, the call returns its number),
 *                      and the target checks the file and closes it;
 *   SIGNALLED   times (optional, default 0): a reply that lands while the
 *                      target is awake: on the target's CPU, the supervisor
 *                      (SCHED_FIFO, so the woken target cannot preempt it)
 *                      receives the notification, signals the target, which
 *                      wakes, and replies before the target runs again. The
 *                      target's wait then ends with the reply, not EINTR,
 *                      and the reply woke nobody: a tracer built on the
 *                      scheduler's events cannot see its moment;
 *   INTERRUPTED times: the supervisor receives it and signals the target,
 *                      whose wait ends with EINTR (no SA_RESTART);
 *   once:              the supervisor receives it and closes the listener:
 *                      ENOSYS;
 *   NO_LISTENER times: getppid with no listener left: ENOSYS at once.
 * Prints what a tracer must have counted, as JSON, and exits 0 only when
 * the target saw exactly the results it should have.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "compat.h"
#include "cpu.h"
#include "fdpass.h"
#include "filter.h"

#define MAGIC 0x4b4e4f54L

static void on_usr1(int sig)
{
}

static long parse_count(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (end == s || *end || v < 0 || v > 100000000)
		usage_error("invalid count '%s' (expected 0..100000000)", s);
	return v;
}

static __attribute__((noreturn)) void target(int sock, int done_fd, long early, long replied,
					     long addfd, long signalled, long interrupted,
					     long no_listener)
{
	struct sigaction sa = { .sa_handler = on_usr1 };	/* no SA_RESTART: EINTR */
	int nr = SYS_getppid, listener;
	long ret;

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL))
		_exit(10);
	listener = filter_install(&nr, 1, SECCOMP_RET_USER_NOTIF, SECCOMP_FILTER_FLAG_NEW_LISTENER);
	if (listener < 0 || fd_send(sock, listener))
		_exit(11);
	close(listener);
	close(sock);
	for (long i = 0; i < early; i++) {
		ret = syscall(SYS_getppid);
		if (ret != -1 || errno != EINTR)
			_exit(16);
		if (write(done_fd, "e", 1) != 1)
			_exit(14);
	}
	for (long i = 0; i < replied; i++)
		if (syscall(SYS_getppid) != MAGIC)
			_exit(12);
	for (long i = 0; i < addfd; i++) {
		ret = syscall(SYS_getppid);
		if (ret < 0 || fcntl(ret, F_GETFD) < 0 || close(ret))
			_exit(18);
	}
	for (long i = 0; i < signalled; i++) {
		if (syscall(SYS_getppid) != MAGIC)
			_exit(17);
		if (write(done_fd, "r", 1) != 1)
			_exit(14);
	}
	for (long i = 0; i < interrupted; i++) {
		ret = syscall(SYS_getppid);
		if (ret != -1 || errno != EINTR)
			_exit(13);
		if (write(done_fd, "i", 1) != 1)
			_exit(14);
	}
	/* the listener is closed while this one waits, then there is none */
	for (long i = 0; i < 1 + no_listener; i++) {
		ret = syscall(SYS_getppid);
		if (ret != -1 || errno != ENOSYS)
			_exit(15);
	}
	_exit(0);
}

/* Until pid sleeps inside getppid (its notification queued, unreceived); bounded. */
static void wait_asleep_in_getppid(pid_t pid)
{
	char path[64], buf[512], *end;
	int64_t nr;

	for (int tries = 0; tries < 30000; tries++) {	/* 30 s of 1 ms naps */
		FILE *f;
		char state = 0;

		snprintf(path, sizeof(path), "/proc/%d/syscall", (int)pid);
		f = fopen(path, "r");
		nr = f && fscanf(f, "%" SCNd64, &nr) == 1 ? nr : -1;
		if (f)
			fclose(f);
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
		f = fopen(path, "r");
		if (f && fgets(buf, sizeof(buf), f) && (end = strrchr(buf, ')')))
			state = end[2];
		if (f)
			fclose(f);
		if (nr == SYS_getppid && state == 'S')
			return;
		usleep(1000);
	}
	die("the target never slept in getppid");
}

static int recv_one(int listener, struct seccomp_notif *req, size_t size)
{
	for (;;) {
		memset(req, 0, size);
		if (!ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, req))
			return 0;
		/* ENOENT: an EARLY call's notification, gone before it was received */
		if (errno != EINTR && errno != ENOENT)
			return -errno;
	}
}

/* One file for the call, which returns its number (ADDFD with SEND). */
static int reply_addfd(int listener, uint64_t id, int fd)
{
	struct seccomp_notif_addfd addfd = {
		.id = id, .srcfd = fd, .flags = SECCOMP_ADDFD_FLAG_SEND, .newfd_flags = O_CLOEXEC,
	};

	return ioctl(listener, SECCOMP_IOCTL_NOTIF_ADDFD, &addfd);
}

/* The answer every replied call checks for: MAGIC. */
static int reply_magic(int listener, struct seccomp_notif_resp *resp, size_t size, uint64_t id)
{
	memset(resp, 0, size);
	resp->id = id;
	resp->val = MAGIC;
	return ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, resp);
}

int main(int argc, char **argv)
{
	struct seccomp_notif_sizes sizes;
	struct seccomp_notif *req;
	struct seccomp_notif_resp *resp;
	long early = 0, signalled = 0, addfd = 0, replied, interrupted, no_listener;
	struct sched_param fifo = { .sched_priority = 1 }, other = { 0 };
	int cpus[2];
	char why[128];
	int sock[2], done[2], listener, status, dir = -1;
	pid_t pid;
	char c;

	knotif_prog = "notif-driver";
	if (argc < 4 || argc > 7)
		usage_error("usage: notif-driver REPLIED INTERRUPTED NO_LISTENER "
			    "[EARLY [SIGNALLED [ADDFD]]]");
	replied = parse_count(argv[1]);
	interrupted = parse_count(argv[2]);
	no_listener = parse_count(argv[3]);
	if (argc >= 5)
		early = parse_count(argv[4]);
	if (argc >= 6)
		signalled = parse_count(argv[5]);
	if (argc == 7)
		addfd = parse_count(argv[6]);
	if (addfd) {
		/* the file each ADDFD call gets a copy of */
		dir = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		check_sys(dir, "opening / for ADDFD");
	}
	if (signalled) {
		/* supervisor and target on one CPU: the target inherits it */
		check_ret(placement_cpus(PLACEMENT_SAME, cpus, why, sizeof(why)), "placement");
		check_ret(pin_to(cpus[0]), "pinning to one CPU");
	}
	check_sys(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sock), "socketpair");
	check_sys(pipe(done), "pipe");
	check_sys(syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes), "SECCOMP_GET_NOTIF_SIZES");
	req = calloc(1, sizes.seccomp_notif > sizeof(*req) ? sizes.seccomp_notif : sizeof(*req));
	resp = calloc(1, sizes.seccomp_notif_resp > sizeof(*resp) ? sizes.seccomp_notif_resp : sizeof(*resp));
	if (!req || !resp)
		die("out of memory");

	pid = fork();
	check_sys(pid, "fork");
	if (pid == 0) {
		close(sock[0]);
		close(done[0]);
		if (dir >= 0)
			close(dir);
		target(sock[1], done[1], early, replied, addfd, signalled, interrupted, no_listener);
	}
	close(sock[1]);
	close(done[1]);
	listener = fd_recv(sock[0]);
	check_ret(listener, "receiving the listener");

	for (long i = 0; i < early; i++) {
		wait_asleep_in_getppid(pid);
		check_sys(kill(pid, SIGUSR1), "kill");
		if (read(done[0], &c, 1) != 1)
			die("the target died before reporting EINTR");
	}
	for (long i = 0; i < replied; i++) {
		check_ret(recv_one(listener, req, sizes.seccomp_notif), "NOTIF_RECV");
		check_sys(reply_magic(listener, resp, sizes.seccomp_notif_resp, req->id),
			  "NOTIF_SEND");
	}
	for (long i = 0; i < addfd; i++) {
		check_ret(recv_one(listener, req, sizes.seccomp_notif), "NOTIF_RECV");
		check_sys(reply_addfd(listener, req->id, dir), "NOTIF_ADDFD with SEND");
	}
	if (signalled)
		check_sys(sched_setscheduler(0, SCHED_FIFO, &fifo), "SCHED_FIFO for SIGNALLED");
	for (long i = 0; i < signalled; i++) {
		check_ret(recv_one(listener, req, sizes.seccomp_notif), "NOTIF_RECV");
		check_sys(kill(pid, SIGUSR1), "kill");
		check_sys(reply_magic(listener, resp, sizes.seccomp_notif_resp, req->id),
			  "NOTIF_SEND after the signal");
		if (read(done[0], &c, 1) != 1)
			die("the target died before reporting its reply");
	}
	if (signalled)
		check_sys(sched_setscheduler(0, SCHED_OTHER, &other), "SCHED_OTHER");
	for (long i = 0; i < interrupted; i++) {
		check_ret(recv_one(listener, req, sizes.seccomp_notif), "NOTIF_RECV");
		check_sys(kill(pid, SIGUSR1), "kill");
		if (read(done[0], &c, 1) != 1)
			die("the target died before reporting EINTR");
	}
	check_ret(recv_one(listener, req, sizes.seccomp_notif), "NOTIF_RECV");
	close(listener);	/* the waiting target gets ENOSYS */

	check_sys(waitpid(pid, &status, 0), "waitpid");
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		die("the target saw a wrong result (status 0x%x; see target() for the step)", status);
	replied += signalled + addfd;
	printf("{\"queued\": %ld, \"sent\": %ld, \"replied\": %ld, \"resumed\": %ld, "
	       "\"interrupted\": %ld, \"enosys\": %ld, \"addfd\": %ld, \"signalled\": %ld, "
	       "\"target_pid\": %d}\n",
	       early + replied + interrupted + 1, replied + interrupted + 1, replied, replied,
	       early + interrupted, 1 + no_listener, addfd, signalled, (int)pid);
	if (dir >= 0)
		close(dir);
	free(req);
	free(resp);
	return 0;
}
