// SPDX-License-Identifier: GPL-2.0
#include "mknod_pool.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/seccomp.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "pdeath.h"

/* One node for a helper; the cwd or dirfd of a relative path comes beside it (SCM_RIGHTS). */
struct pool_request {
	uint64_t id;		/* the notification, when answer is set */
	int64_t val;
	bool answer;
	mode_t umask, mode;
	unsigned int major, minor;
	bool has_base;
	char path[PATH_MAX];
};

/* The context of t's thread, as helpers are compared: 0, or the errno of reading its root. */
static int context_of(const struct as_target *t, struct mknod_context *ctx)
{
	struct statx stx;

	memset(ctx, 0, sizeof(*ctx));
	/* the mount id: a helper's root pins its mount, so no other mount takes its id while it lives */
	if (statx(t->root, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, STATX_INO | STATX_MNT_ID, &stx))
		return errno;
	if (!(stx.stx_mask & STATX_MNT_ID))
		return ENOTSUP;	/* Linux < 5.8: no mount id, and a device and inode do not name a mount */
	ctx->root_mnt = stx.stx_mnt_id;
	ctx->root_dev = ((uint64_t)stx.stx_dev_major << 32) | stx.stx_dev_minor;
	ctx->root_ino = stx.stx_ino;
	ctx->fsuid = t->fsuid;
	ctx->fsgid = t->fsgid;
	ctx->ngroups = t->ngroups;
	memcpy(ctx->groups, t->groups, sizeof(gid_t) * (size_t)t->ngroups);
	snprintf(ctx->cgroups, sizeof(ctx->cgroups), "%s", t->cgroups);
	return 0;
}

/* Every descriptor but keep[] (sorted, -1 for none) closed: a helper holds no other helper's socket. */
static void close_all_but(const int *keep, int n)
{
	unsigned int from = 3;

	for (int i = 0; i < n; i++) {
		if (keep[i] < (int)from)
			continue;
		if ((unsigned int)keep[i] > from)
			syscall(SYS_close_range, from, (unsigned int)keep[i] - 1, 0);
		from = (unsigned int)keep[i] + 1;
	}
	syscall(SYS_close_range, from, ~0U, 0);
}

static int int_cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* One request from sock, with its descriptor (-1: none): its size, 0 at the end, -1 on error. */
static ssize_t recv_request(int sock, struct pool_request *q, int *base)
{
	char control[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { q, sizeof(*q) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control,
			      .msg_controllen = sizeof(control) };
	struct cmsghdr *cm;
	ssize_t n;

	*base = -1;
	do
		n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	cm = n > 0 ? CMSG_FIRSTHDR(&msg) : NULL;
	if (cm && cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS &&
	    cm->cmsg_len == CMSG_LEN(sizeof(int)))
		memcpy(base, CMSG_DATA(cm), sizeof(int));
	return n;
}

/* A node's outcome; ending: the helper exits after it (it could not become the thread). */
struct pool_reply {
	int error;
	bool ending;
	bool answered;		/* the helper answers the notification next */
	int64_t at[POOL_AT_COUNT];	/* the helper's moments: POOL_AT_RECEIVED, POOL_AT_ACTED */
	char why[128];
};

/* the helper's moments of the request it serves */
static int64_t helper_at[POOL_AT_COUNT];

/*
 * The outcome to the supervisor, then, when the request asks it, to the
 * target (the listener open): the report is there before the target can
 * call again, so its next call finds this helper's report, not a busy
 * helper.
 */
static void reply(int sock, int listener, const struct pool_request *q, int error, const char *step,
		  bool ending)
{
	struct pool_reply r = { .error = error, .ending = ending, .answered = q->answer && listener >= 0 };

	helper_at[POOL_AT_ACTED] = now_ns();
	memcpy(r.at, helper_at, sizeof(r.at));
	snprintf(r.why, sizeof(r.why), "%s", error ? step : "");
	if (send(sock, &r, sizeof(r), MSG_NOSIGNAL) != (ssize_t)sizeof(r))
		_exit(1);
	if (r.answered) {
		struct seccomp_notif_resp resp = { .id = q->id, .val = error ? 0 : q->val,
						   .error = error ? -error : 0 };

		ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);	/* ENOENT: the target left meanwhile */
	}
}

/*
 * The helper: becomes the thread once (as a per-call helper does, at no
 * cwd: its root), then makes one node a request until its socket closes.
 * A helper that could not become the thread answers its first request
 * with why, and exits.
 */
__attribute__((noreturn)) static void helper_main(int sock, int listener, pid_t supervisor, struct as_target *t)
{
	int keep[] = { sock, listener, t->root, t->mntns };
	const char *step = "";
	struct pool_request q;
	int err, base;
	ssize_t n;

	if (pdeath_follow(supervisor, SIGKILL))
		_exit(1);
	qsort(keep, 4, sizeof(int), int_cmp);
	close_all_but(keep, 4);
	err = as_target_join_cgroups(t, &step);
	t->base = -1;
	if (!err)
		err = as_target_become(t, CAP_MKNOD, &step);
	close(t->root);
	close(t->mntns);
	while ((n = recv_request(sock, &q, &base)) > (ssize_t)offsetof(struct pool_request, path)) {
		const char *at = "";
		int ret;

		helper_at[POOL_AT_RECEIVED] = now_ns();
		if (err)
			reply(sock, listener, &q, err, step, true);	/* and exit below */
		else if (q.has_base != (base >= 0))
			reply(sock, listener, &q, EIO, "a request without its directory", false);
		else if (q.has_base && fchdir(base))
			reply(sock, listener, &q, errno, "entering the target's working directory", false);
		else {
			q.path[(size_t)n - offsetof(struct pool_request, path) - 1] = '\0';
			umask(q.umask);
			ret = mknod_here(q.path, q.mode, q.major, q.minor, &at);
			reply(sock, listener, &q, ret, at, false);
		}
		if (base >= 0) {
			close(base);
			/* its cwd pinned no longer (the thread's umount of it would be EBUSY) */
			if (chdir("/"))
				_exit(1);
		}
		if (err)
			_exit(1);
	}
	_exit(0);
}

/* A helper of t's context, started (its first request may follow at once): NULL with why. */
static struct mknod_helper *helper_start(struct mknod_pool *p, int listener, struct as_target *t,
					 const struct mknod_context *ctx, char *why, size_t why_len)
{
	struct mknod_helper *h = calloc(1, sizeof(*h));
	pid_t self = getpid();
	int sv[2];

	if (!h) {
		snprintf(why, why_len, "no memory for a helper");
		return NULL;
	}
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv)) {
		snprintf(why, why_len, "socketpair: %s", strerror(errno));
		free(h);
		return NULL;
	}
	h->pid = fork();
	if (h->pid == 0) {
		close(sv[0]);
		helper_main(sv[1], listener, self, t);
	}
	close(sv[1]);
	if (h->pid < 0) {
		snprintf(why, why_len, "fork: %s", strerror(errno));
		close(sv[0]);
		free(h);
		return NULL;
	}
	/* before anything reaps it: this process, never a reuse of its pid */
	h->pidfd = (int)syscall(SYS_pidfd_open, h->pid, 0);
	h->sock = sv[0];
	h->ctx = *ctx;
	p->helper[p->n++] = h;
	p->made++;
	return h;
}

/* h gone from p, and freed */
static void helper_forget(struct mknod_pool *p, struct mknod_helper *h)
{
	for (int i = 0; i < p->n; i++)
		if (p->helper[i] == h) {
			p->helper[i] = p->helper[--p->n];
			break;
		}
	free(h);
}

/*
 * A helper whose act is unheard or that died: killed, reaped (1 s at most:
 * one in an uninterruptible sleep is left), and gone from p.
 */
static void helper_end(struct mknod_pool *p, struct mknod_helper *h)
{
	struct as_target_act act = { .pid = h->pid, .pidfd = h->pidfd, .fd = h->sock };

	as_target_abandon(&act);	/* closes the socket, kills, reaps through the pidfd */
	helper_forget(p, h);
}

/*
 * An idle helper let go: it may have reported and not yet answered its
 * last call, so it is never killed: its socket closes, and it exits once
 * it has answered. With wait, reaped (1 s at most, then killed); else its
 * exit is reaped by whoever waits for children (knotif-run's SIGCHLD), and
 * the supervisor does not stop for it.
 */
static void helper_release(struct mknod_pool *p, struct mknod_helper *h, bool wait)
{
	bool gone = false;

	close(h->sock);
	h->sock = -1;
	for (int i = 0; wait && h->pidfd >= 0 && !gone && i < 100; i++) {	/* 10 ms apart */
		siginfo_t info = { .si_pid = 0 };

		if (waitid(P_PIDFD, (id_t)h->pidfd, &info, WEXITED | WNOHANG))
			gone = errno != EINTR;	/* ECHILD: reaped by another */
		else if (!(gone = info.si_pid != 0))
			usleep(10000);
	}
	if (wait && h->pidfd >= 0 && !gone) {
		helper_end(p, h);	/* not gone in 1 s: killed, as a busy one is */
		return;
	}
	if (h->pidfd >= 0)
		close(h->pidfd);
	helper_forget(p, h);
}

/* The least recently used idle helper, if any. */
static struct mknod_helper *oldest_idle(const struct mknod_pool *p)
{
	struct mknod_helper *oldest = NULL;

	for (int i = 0; i < p->n; i++)
		if (!p->helper[i]->busy && (!oldest || p->helper[i]->used < oldest->used))
			oldest = p->helper[i];
	return oldest;
}

static struct mknod_helper *idle_of(const struct mknod_pool *p, const struct mknod_context *ctx)
{
	for (int i = 0; i < p->n; i++)
		if (!p->helper[i]->busy && !memcmp(&p->helper[i]->ctx, ctx, sizeof(*ctx)))
			return p->helper[i];
	return NULL;
}

/*
 * Is a busy helper of ctx done, its report waiting? A thread's next call
 * can come before the supervisor has read the report of its last (the
 * helper reports, then answers): that helper is the one to take it.
 */
static bool reported_of(const struct mknod_pool *p, const struct mknod_context *ctx)
{
	for (int i = 0; i < p->n; i++) {
		struct pollfd pfd = { .fd = p->helper[i]->sock, .events = POLLIN };

		if (p->helper[i]->busy && !memcmp(&p->helper[i]->ctx, ctx, sizeof(*ctx)) &&
		    poll(&pfd, 1, 0) == 1)
			return true;
	}
	return false;
}

/*
 * The request to h (c->path is shorter than PATH_MAX: mknod_pool_start()
 * checked): 0, or the errno of sending it (the helper is gone: nothing was made).
 */
static int hand(struct mknod_helper *h, uint64_t id, const struct mknod_pool_act *act, const struct as_target *t,
		const struct mknod_as *c)
{
	struct pool_request q = { .id = id, .val = act->val, .answer = act->answer, .umask = t->umask,
				  .mode = c->mode, .major = c->major, .minor = c->minor, .has_base = t->base >= 0 };
	size_t len = strlen(c->path);
	struct iovec iov = { &q, offsetof(struct pool_request, path) + len + 1 };
	char control[CMSG_SPACE(sizeof(int))] = { 0 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };

	memcpy(q.path, c->path, len + 1);
	if (q.has_base) {
		struct cmsghdr *cm;

		msg.msg_control = control;
		msg.msg_controllen = sizeof(control);
		cm = CMSG_FIRSTHDR(&msg);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cm), &t->base, sizeof(int));
	}
	return sendmsg(h->sock, &msg, MSG_NOSIGNAL) == (ssize_t)iov.iov_len ? 0 : errno;
}

/* A new helper for the call, in the thread's context taken again with its mount namespace. */
static struct mknod_helper *new_helper(struct mknod_pool *p, int listener, uint64_t id, const struct mknod_as *c,
				       struct as_target *t, int *ret, char *why, size_t why_len)
{
	struct mknod_context ctx;
	struct mknod_helper *h;

	as_target_close(t);
	*t = (struct as_target)AS_TARGET_INIT;
	*ret = as_target_take(t, listener, id, c->tid, c->dirfd, c->path, why, why_len);
	if (*ret)
		return NULL;
	*ret = context_of(t, &ctx);
	if (*ret) {
		snprintf(why, why_len, "the target's root: %s", strerror(*ret));
		*ret = EIO;
		return NULL;
	}
	if (p->n == MKNOD_POOL_MAX) {
		struct mknod_helper *idle = oldest_idle(p);

		if (!idle) {
			snprintf(why, why_len, "%d helpers busy", MKNOD_POOL_MAX);
			*ret = EAGAIN;
			return NULL;
		}
		helper_release(p, idle, false);
	}
	h = helper_start(p, listener, t, &ctx, why, why_len);
	*ret = h ? 0 : EIO;
	return h;
}

/* The call's thread, taken (t open) and its context: as mknod_pool_start() returns, t closed unless 0. */
static int take_context(int listener, uint64_t id, const struct mknod_as *c, struct as_target *t,
			struct mknod_context *ctx, char *why, size_t why_len)
{
	int ret;

	if (strlen(c->path) >= PATH_MAX) {
		snprintf(why, why_len, "a path of PATH_MAX bytes or more");
		return ENAMETOOLONG;
	}
	/* its mount namespace only when a helper must start: a mount belongs to one, and the root names it */
	t->no_mntns = true;
	ret = as_target_take(t, listener, id, c->tid, c->dirfd, c->path, why, why_len);
	if (ret)
		return ret;
	ret = context_of(t, ctx);
	if (ret) {
		snprintf(why, why_len, "the target's root: %s", strerror(ret));
		as_target_close(t);
		return EIO;
	}
	return 0;
}

int mknod_pool_context(int listener, uint64_t id, const struct mknod_as *c, struct mknod_context *ctx,
		       char *why, size_t why_len)
{
	struct as_target t = AS_TARGET_INIT;
	int ret = take_context(listener, id, c, &t, ctx, why, why_len);

	if (!ret)
		as_target_close(&t);
	return ret;
}

int mknod_pool_start(struct mknod_pool *p, int listener, uint64_t id, const struct mknod_as *c,
		     struct mknod_pool_act *act, char *why, size_t why_len)
{
	struct as_target t = AS_TARGET_INIT;
	struct mknod_context ctx;
	struct mknod_helper *h;
	int ret;

	act->helper = NULL;
	act->fd = -1;
	act->answered = false;
	if (act->at)
		act->at[POOL_AT_START] = now_ns();
	ret = take_context(listener, id, c, &t, &ctx, why, why_len);
	if (ret)
		return ret;
	h = idle_of(p, &ctx);
	if (!h && reported_of(p, &ctx)) {
		as_target_close(&t);
		return -EAGAIN;	/* its helper is done and unheard: finished first, it takes this call */
	}
	if (h) {
		if (act->at)
			act->at[POOL_AT_TAKEN] = now_ns();
		ret = hand(h, id, act, &t, c);
		if (ret)
			helper_end(p, h);	/* it died idle (its cgroup's OOM killer, say): nothing was made */
		else
			p->handed++;
	}
	if (!h || ret) {
		h = new_helper(p, listener, id, c, &t, &ret, why, why_len);
		if (h && act->at)
			act->at[POOL_AT_TAKEN] = now_ns();
		if (h && (ret = hand(h, id, act, &t, c))) {
			snprintf(why, why_len, "handing the node to a new helper: %s", strerror(ret));
			helper_end(p, h);
			ret = EIO;
		}
	}
	as_target_close(&t);	/* the helper has its own: it started with them, or was sent the base */
	if (ret)
		return ret;
	h->busy = true;
	h->used = ++p->clock;
	act->helper = h;
	act->fd = h->sock;
	return 0;
}

int mknod_pool_finish(struct mknod_pool *p, struct mknod_pool_act *act, char *why, size_t why_len)
{
	struct mknod_helper *h = act->helper;
	struct pool_reply r;
	int idle = 0;
	ssize_t n;

	do
		n = recv(h->sock, &r, sizeof(r), 0);
	while (n < 0 && errno == EINTR);
	act->helper = NULL;
	act->fd = -1;
	if (n != (ssize_t)sizeof(r)) {
		snprintf(why, why_len, "the helper died: the node may exist");
		helper_end(p, h);
		return EIO;
	}
	r.why[sizeof(r.why) - 1] = '\0';
	act->answered = r.answered;
	if (act->at) {
		for (int m = POOL_AT_RECEIVED; m <= POOL_AT_ACTED; m++)
			act->at[m] = r.at[m];
		act->at[POOL_AT_HEARD] = now_ns();
	}
	if (r.error)
		snprintf(why, why_len, "%s: %s", r.why, strerror(r.error));
	h->busy = false;
	if (r.ending)
		helper_release(p, h, false);	/* it exits after its answer */
	for (int i = 0; i < p->n; i++)
		idle += !p->helper[i]->busy;
	if (idle > MKNOD_POOL_IDLE)
		helper_release(p, oldest_idle(p), false);
	return r.error;
}

void mknod_pool_abandon(struct mknod_pool *p, struct mknod_pool_act *act)
{
	if (act->helper)
		helper_end(p, act->helper);
	act->helper = NULL;
	act->fd = -1;
}

void mknod_pool_end(struct mknod_pool *p)
{
	while (p->n) {
		struct mknod_helper *h = p->helper[p->n - 1];

		if (h->busy)
			helper_end(p, h);
		else
			helper_release(p, h, true);
	}
}
