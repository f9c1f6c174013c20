// SPDX-License-Identifier: GPL-2.0
/*
 * SECCOMP_RET_USER_NOTIF with the supervisor in another process, the way
 * container runtimes run it: the target installs the filter with
 * SECCOMP_FILTER_FLAG_NEW_LISTENER and hands the listener over SCM_RIGHTS.
 * The supervisor blocks in NOTIF_RECV and answers each notification by
 * emulating, continuing, or installing a descriptor (ADDFD + SEND), through
 * lib/seccomp/notif.c like every other supervisor of the project.
 *
 * Two variants run only on the knotif kernel series (kernel/patches), the
 * 2018 v3 interfaces that never merged: unotif/rw speaks read()/write() on
 * the listener instead of the ioctls, and unotif/ptrace-listener takes the
 * listener from the supervisor's side with PTRACE_SECCOMP_GET_LISTENER.
 */
#include <errno.h>
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
#include "notif.h"

struct unotif_variant {
	enum reply_kind reply;
	bool sync_wake;			/* SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP */
	bool rw_protocol;		/* read()/write() on the listener (v3 series) */
	bool listener_via_ptrace;	/* PTRACE_SECCOMP_GET_LISTENER, not SCM_RIGHTS */
};

struct unotif_state {
	int sock[2];			/* target -> supervisor: the listener, or the ready/go bytes */
	int listener;
	int addfd_src;			/* the supervisor's memfd every ADDFD reply installs */
	uint64_t expect_ino, expect_dev;
};

static const struct unotif_variant *variant(const struct bench *b)
{
	return b->m->variant;
}

static int sup_prepare(struct bench *b)
{
	struct unotif_state *s = b->state;
	struct stat st;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, s->sock))
		return -errno;
	if (variant(b)->reply != REPLY_ADDFD)
		return 0;
	/* the target checks every descriptor it gets by this inode */
	s->addfd_src = memfd_create("knotif-addfd", MFD_CLOEXEC);
	if (s->addfd_src < 0 || fstat(s->addfd_src, &st))
		return -errno;
	s->expect_ino = st.st_ino;
	s->expect_dev = st.st_dev;
	return 0;
}

static int target_setup(struct bench *b)
{
	struct unotif_state *s = b->state;
	int listener, ret;

	close(s->sock[0]);
	if (variant(b)->reply == REPLY_ADDFD)
		close(s->addfd_src);	/* only the supervisor's copy may come back */
	if (variant(b)->listener_via_ptrace) {
		/* no listener of our own: say ready, wait until the supervisor took one */
		char c = 'R';

		ret = filter_install(&b->sys->nr, 1, SECCOMP_RET_USER_NOTIF, 0);
		if (!ret && (write(s->sock[1], &c, 1) != 1 || read(s->sock[1], &c, 1) != 1 || c != 'G'))
			ret = -EPIPE;
		close(s->sock[1]);
		return ret;
	}
	listener = filter_install(&b->sys->nr, 1, SECCOMP_RET_USER_NOTIF,
				  SECCOMP_FILTER_FLAG_NEW_LISTENER);
	if (listener < 0)
		return listener;
	ret = fd_send(s->sock[1], listener);
	close(listener);
	close(s->sock[1]);
	return ret;
}

static int check_fd(struct bench *b, long ret)
{
	struct unotif_state *s = b->state;
	struct stat st;
	int fd = (int)ret;

	if (ret < 0)
		return bench_fail(b, "%s returned %ld, not a descriptor from ADDFD", b->sys->name, ret);
	if (fstat(fd, &st))
		return bench_fail(b, "fstat on the added descriptor %d: %s", fd, strerror(errno));
	close(fd);
	if (st.st_ino != s->expect_ino || st.st_dev != s->expect_dev)
		return bench_fail(b, "descriptor %d is not the supervisor's memfd", fd);
	return 0;
}

static int check(struct bench *b, long ret)
{
	switch (variant(b)->reply) {
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
	struct unotif_state *s = b->state;
	int fd;
	char c;

	if (read(s->sock[0], &c, 1) != 1 || c != 'R')
		return -EPIPE;
	fd = notif_ptrace_listener(b->target_pid, 0);
	if (fd < 0)
		return fd;
	c = 'G';
	if (write(s->sock[0], &c, 1) != 1) {
		close(fd);
		return -EPIPE;
	}
	return fd;
}

/* serve_notifications()'s answer: one reply, as the variant says */
static int reply(struct bench *b, int listener, struct notif_buf *buf, bool stop, void *ctx)
{
	const struct unotif_variant *v = variant(b);
	struct unotif_state *s = b->state;
	uint64_t id = buf->req->id;

	(void)ctx;
	if (v->rw_protocol)
		return notif_send_rw(listener, id, BENCH_MAGIC);
	/* the stop call is not measured: 0 ends it, whatever the variant */
	if (stop && v->reply == REPLY_ADDFD)
		return notif_reply(listener, buf, id, REPLY_EMULATE, 0, -1);
	return notif_reply(listener, buf, id, v->reply, BENCH_MAGIC, s->addfd_src);
}

static int supervise(struct bench *b)
{
	const struct unotif_variant *v = variant(b);
	struct unotif_state *s = b->state;
	int ret;

	close(s->sock[1]);
	s->listener = v->listener_via_ptrace ? ptrace_listener(b) : fd_recv(s->sock[0]);
	close(s->sock[0]);
	if (s->listener < 0)
		return s->listener;
	watch_target_exit();	/* after ptrace_listener: its stop raised SIGCHLD too */
	if (v->sync_wake && (ret = notif_set_sync_wakeup(s->listener)))
		return ret;
	ret = serve_notifications(b, s->listener, v->rw_protocol, reply, NULL);
	close(s->listener);
	return ret;
}

#define UNOTIF(method_name, feature2, feature3, ...)                           \
	(&(const struct method){                                              \
		.name = method_name,                                          \
		.kind = KIND_UNOTIF,                                          \
		.trace_kind = "unotif",                                       \
		.needs = { FEAT_USER_NOTIF, feature2, feature3 },             \
		.variant = &(const struct unotif_variant){ __VA_ARGS__ },     \
		.state_size = sizeof(struct unotif_state),                    \
		.sup_prepare = sup_prepare,                                   \
		.target_setup = target_setup,                                 \
		.call = call_syscall,                                         \
		.check = check,                                               \
		.target_finish = target_finish,                               \
		.supervise = supervise,                                       \
	})

/* FEAT_USER_NOTIF doubles as "nothing more needed" */
const struct method *const unotif_methods[] = {
	UNOTIF("unotif/async/emulate", FEAT_USER_NOTIF, FEAT_COUNT, .reply = REPLY_EMULATE),
	UNOTIF("unotif/async/continue", FEAT_NOTIF_CONTINUE, FEAT_COUNT, .reply = REPLY_CONTINUE),
	UNOTIF("unotif/async/addfd", FEAT_ADDFD_SEND, FEAT_COUNT, .reply = REPLY_ADDFD),
	UNOTIF("unotif/sync/emulate", FEAT_USER_NOTIF, FEAT_SYNC_WAKE_UP, .reply = REPLY_EMULATE,
	       .sync_wake = true),
	UNOTIF("unotif/sync/continue", FEAT_NOTIF_CONTINUE, FEAT_SYNC_WAKE_UP,
	       .reply = REPLY_CONTINUE, .sync_wake = true),
	UNOTIF("unotif/sync/addfd", FEAT_ADDFD_SEND, FEAT_SYNC_WAKE_UP, .reply = REPLY_ADDFD,
	       .sync_wake = true),
	/* the knotif kernel series only (kernel/patches): unsupported elsewhere */
	UNOTIF("unotif/rw/emulate", FEAT_NOTIF_RW, FEAT_COUNT, .reply = REPLY_EMULATE,
	       .rw_protocol = true),
	UNOTIF("unotif/ptrace-listener/emulate", FEAT_PTRACE_LISTENER, FEAT_COUNT,
	       .reply = REPLY_EMULATE, .listener_via_ptrace = true),
	NULL,
};
