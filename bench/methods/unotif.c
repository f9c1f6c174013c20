// SPDX-License-Identifier: GPL-2.0
/*
 * SECCOMP_RET_USER_NOTIF with the supervisor in another process, the way
 * container runtimes run it: the target installs the filter with
 * SECCOMP_FILTER_FLAG_NEW_LISTENER and hands the listener over SCM_RIGHTS.
 * The supervisor blocks in NOTIF_RECV and answers each notification by
 * emulating, continuing, or installing a descriptor (ADDFD + SEND).
 *
 * Two variants run only on the knotif kernel series (kernel/patches), the
 * 2018 v3 interfaces that never merged: unotif/rw speaks read()/write() on
 * the listener instead of the ioctls, and unotif/ptrace-listener takes the
 * listener from the supervisor's side with PTRACE_SECCOMP_GET_LISTENER.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common.h"
#include "compat.h"
#include "fdpass.h"
#include "filter.h"
#include "harness.h"
#include "notif.h"

static int sup_prepare(struct bench *b)
{
	struct stat st;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, b->sock))
		return -errno;
	if (b->m->reply != REPLY_ADDFD)
		return 0;
	/* the descriptor every ADDFD reply installs; the target checks it by inode */
	b->fds[0] = memfd_create("knotif-addfd", MFD_CLOEXEC);
	if (b->fds[0] < 0 || fstat(b->fds[0], &st))
		return -errno;
	b->expect_ino = st.st_ino;
	b->expect_dev = st.st_dev;
	return 0;
}

static int target_setup(struct bench *b)
{
	int listener, ret;

	close(b->sock[0]);
	if (b->m->reply == REPLY_ADDFD)
		close(b->fds[0]);	/* only the supervisor's copy may come back */
	if (b->m->listener_via_ptrace) {
		/* no listener of our own: say ready, wait until the supervisor took one */
		char c = 'R';

		ret = filter_install(&b->sys->nr, 1, SECCOMP_RET_USER_NOTIF, 0);
		if (!ret && (write(b->sock[1], &c, 1) != 1 || read(b->sock[1], &c, 1) != 1 || c != 'G'))
			ret = -EPIPE;
		close(b->sock[1]);
		return ret;
	}
	listener = filter_install(&b->sys->nr, 1, SECCOMP_RET_USER_NOTIF,
				  SECCOMP_FILTER_FLAG_NEW_LISTENER);
	if (listener < 0)
		return listener;
	ret = fd_send(b->sock[1], listener);
	close(listener);
	close(b->sock[1]);
	return ret;
}

static int check_fd(struct bench *b, long ret)
{
	struct stat st;
	int fd = (int)ret;

	if (ret < 0)
		return bench_fail(b, "%s returned %ld, not a descriptor from ADDFD", b->sys->name, ret);
	if (fstat(fd, &st))
		return bench_fail(b, "fstat on the added descriptor %d: %s", fd, strerror(errno));
	close(fd);
	if (st.st_ino != b->expect_ino || st.st_dev != b->expect_dev)
		return bench_fail(b, "descriptor %d is not the supervisor's memfd", fd);
	return 0;
}

static int check(struct bench *b, long ret)
{
	switch (b->m->reply) {
	case REPLY_CONTINUE:
		return check_real(b, ret);
	case REPLY_ADDFD:
		return check_fd(b, ret);
	default:
		return check_magic(b, ret);
	}
}

static void target_finish(struct bench *b)
{
	syscall(b->sys->nr, BENCH_STOP_COOKIE);
}

/* The tracer's way to a listener: once the target has its filter, take it. */
static int ptrace_listener(struct bench *b)
{
	int fd;
	char c;

	if (read(b->sock[0], &c, 1) != 1 || c != 'R')
		return -EPIPE;
	fd = notif_ptrace_listener(b->target_pid, 0);
	if (fd < 0)
		return fd;
	c = 'G';
	if (write(b->sock[0], &c, 1) != 1) {
		close(fd);
		return -EPIPE;
	}
	return fd;
}

static int receive(struct bench *b, struct seccomp_notif *req, size_t size)
{
	memset(req, 0, size);	/* RECV rejects a dirty buffer (5.5+) */
	if (b->m->rw_protocol)
		return read(b->listener, req, size) < 0 ? -errno : 0;
	return ioctl(b->listener, SECCOMP_IOCTL_NOTIF_RECV, req) ? -errno : 0;
}

/* The v3 protocol's answer: one write() of the response */
static int reply_rw(struct bench *b, const struct seccomp_notif *req)
{
	struct seccomp_notif_rw_resp resp = { .id = req->id, .val = BENCH_MAGIC };

	return write(b->listener, &resp, sizeof(resp)) < 0 ? -errno : 0;
}

static int reply(struct bench *b, const struct seccomp_notif *req, struct seccomp_notif_resp *resp,
		 bool stop)
{
	if (b->m->rw_protocol)
		return reply_rw(b, req);
	if (b->m->reply == REPLY_ADDFD && !stop) {
		struct seccomp_notif_addfd addfd = {
			.id = req->id,
			.flags = SECCOMP_ADDFD_FLAG_SEND,
			.srcfd = (uint32_t)b->fds[0],
			.newfd_flags = O_CLOEXEC,
		};

		return ioctl(b->listener, SECCOMP_IOCTL_NOTIF_ADDFD, &addfd) < 0 ? -errno : 0;
	}
	resp->id = req->id;
	resp->error = 0;
	resp->val = b->m->reply == REPLY_EMULATE ? BENCH_MAGIC : 0;
	resp->flags = b->m->reply == REPLY_CONTINUE ? SECCOMP_USER_NOTIF_FLAG_CONTINUE : 0;
	return ioctl(b->listener, SECCOMP_IOCTL_NOTIF_SEND, resp) ? -errno : 0;
}

static int supervise(struct bench *b)
{
	struct seccomp_notif_sizes sizes;
	struct seccomp_notif *req;
	struct seccomp_notif_resp *resp;
	int ret = 0;

	close(b->sock[1]);
	b->listener = b->m->listener_via_ptrace ? ptrace_listener(b) : fd_recv(b->sock[0]);
	close(b->sock[0]);
	if (b->listener < 0)
		return b->listener;
	watch_target_exit();	/* after ptrace_listener: its stop raised SIGCHLD too */
	if (b->m->sync_wake &&
	    ioctl(b->listener, SECCOMP_IOCTL_NOTIF_SET_FLAGS, SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP))
		return -errno;
	/* the kernel's struct sizes, not the build host's headers */
	if (syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes))
		return -errno;
	req = calloc(1, sizes.seccomp_notif > sizeof(*req) ? sizes.seccomp_notif : sizeof(*req));
	resp = calloc(1, sizes.seccomp_notif_resp > sizeof(*resp) ? sizes.seccomp_notif_resp : sizeof(*resp));
	if (!req || !resp)
		return -ENOMEM;
	for (;;) {
		bool stop;

		ret = receive(b, req, sizes.seccomp_notif);
		if (ret == -EINTR && target_exited()) {
			ret = 0;
			break;	/* the harness reports how the target ended */
		}
		if (ret == -EINTR || ret == -ENOENT)
			continue;	/* interrupted, or the target left the call */
		if (ret)
			break;
		stop = req->data.args[0] == BENCH_STOP_COOKIE;
		ret = reply(b, req, resp, stop);
		if (ret == -ENOENT)
			ret = 0;	/* the target was interrupted after RECV: normal */
		if (ret || stop)
			break;
	}
	free(req);
	free(resp);
	close(b->listener);
	return ret;
}

#define UNOTIF_NAMED(method_name, sync, reply_kind, feature2, feature3, rw, via_ptrace) \
	{                                                                      \
		.name = method_name,                                           \
		.needs = { FEAT_USER_NOTIF, feature2, feature3 },              \
		.reply = reply_kind,                                           \
		.sync_wake = sync,                                             \
		.rw_protocol = rw,                                             \
		.listener_via_ptrace = via_ptrace,                             \
		.sup_prepare = sup_prepare,                                    \
		.target_setup = target_setup,                                  \
		.call = call_syscall,                                          \
		.check = check,                                                \
		.target_finish = target_finish,                                \
		.supervise = supervise,                                        \
	}
#define UNOTIF(wake_name, sync, reply_name, reply_kind, reply_feature)        \
	UNOTIF_NAMED("unotif/" wake_name "/" reply_name, sync, reply_kind,    \
		     reply_feature, sync ? FEAT_SYNC_WAKE_UP : FEAT_COUNT, false, false)

/* FEAT_USER_NOTIF doubles as "nothing more needed" for emulate */
const struct method method_unotif_async_emulate =
	UNOTIF("async", false, "emulate", REPLY_EMULATE, FEAT_USER_NOTIF);
const struct method method_unotif_async_continue =
	UNOTIF("async", false, "continue", REPLY_CONTINUE, FEAT_NOTIF_CONTINUE);
const struct method method_unotif_async_addfd =
	UNOTIF("async", false, "addfd", REPLY_ADDFD, FEAT_ADDFD_SEND);
const struct method method_unotif_sync_emulate =
	UNOTIF("sync", true, "emulate", REPLY_EMULATE, FEAT_USER_NOTIF);
const struct method method_unotif_sync_continue =
	UNOTIF("sync", true, "continue", REPLY_CONTINUE, FEAT_NOTIF_CONTINUE);
const struct method method_unotif_sync_addfd =
	UNOTIF("sync", true, "addfd", REPLY_ADDFD, FEAT_ADDFD_SEND);

/* the knotif kernel series only (kernel/patches): unsupported elsewhere */
const struct method method_unotif_rw_emulate =
	UNOTIF_NAMED("unotif/rw/emulate", false, REPLY_EMULATE, FEAT_NOTIF_RW, FEAT_COUNT, true, false);
const struct method method_unotif_ptrace_listener_emulate =
	UNOTIF_NAMED("unotif/ptrace-listener/emulate", false, REPLY_EMULATE, FEAT_PTRACE_LISTENER,
		     FEAT_COUNT, false, true);
