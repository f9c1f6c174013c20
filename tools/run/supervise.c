// SPDX-License-Identifier: GPL-2.0
#include "supervise.h"

#include <errno.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"

static int watched_index(const struct supervisor *s, int nr)
{
	for (int i = 0; i < s->nwatched; i++)
		if (s->watched[i]->nr == nr)
			return i;
	return -1;
}

static void reap_child(struct supervisor *s, int flags)
{
	int status;
	pid_t pid;

	if (s->child <= 0)
		return;
	do
		pid = waitpid(s->child, &status, flags);
	while (pid < 0 && errno == EINTR);
	if (pid != s->child)
		return;
	s->child_status = status;
	s->child = 0;
}

/*
 * Answers one notification: read what it names, log it, let it continue.
 * The line is written before the reply so that it precedes anything the
 * call causes (the command's own output on a shared stderr, or its error
 * message after a failed execve).
 */
static int serve_one(struct supervisor *s, const struct seccomp_notif *req,
		     struct seccomp_notif_resp *resp, struct record *rec)
{
	int i = watched_index(s, req->data.nr), ret;

	if (i >= 0 && s->log) {
		ret = record_take(rec, s->listener, req, s->watched[i], now_ns() - s->t0_ns);
		if (ret == -ENOENT) {
			s->gone++;
			return 0;	/* nothing to continue: the target left the call */
		}
		if (ret)
			return ret;
		if (record_write(rec, s->format, s->log))
			return -EIO;
	}
	if (i >= 0)
		s->count[i]++;
	resp->id = req->id;
	resp->val = 0;
	resp->error = 0;
	resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	if (ioctl(s->listener, SECCOMP_IOCTL_NOTIF_SEND, resp)) {
		if (errno != ENOENT)
			return -errno;
		s->gone++;	/* killed or interrupted after RECV: normal */
	}
	return 0;
}

int supervise(struct supervisor *s)
{
	struct seccomp_notif_sizes sizes;
	struct seccomp_notif *req = NULL;
	struct seccomp_notif_resp *resp = NULL;
	struct record *rec = NULL;
	struct pollfd fds[2];
	int ret = 0;

	/* the kernel's struct sizes, not the build host's headers */
	if (syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes))
		return -errno;
	req = calloc(1, sizes.seccomp_notif > sizeof(*req) ? sizes.seccomp_notif : sizeof(*req));
	resp = calloc(1, sizes.seccomp_notif_resp > sizeof(*resp) ? sizes.seccomp_notif_resp
								    : sizeof(*resp));
	rec = s->log ? malloc(sizeof(*rec)) : NULL;
	if (!req || !resp || (s->log && !rec)) {
		ret = -ENOMEM;
		goto out;
	}
	fds[0] = (struct pollfd){ .fd = s->listener, .events = POLLIN };
	fds[1] = (struct pollfd){ .fd = s->child_pidfd, .events = POLLIN };
	for (;;) {
		if (poll(fds, 2, -1) < 0) {
			if (errno == EINTR)
				continue;	/* a signal we forwarded */
			ret = -errno;
			break;
		}
		if (fds[1].revents) {
			reap_child(s, WNOHANG);
			if (!s->child)
				fds[1].fd = -1;	/* poll skips it from now on */
		}
		if (fds[0].revents & POLLIN) {
			memset(req, 0, sizes.seccomp_notif);	/* RECV rejects a dirty buffer */
			if (ioctl(s->listener, SECCOMP_IOCTL_NOTIF_RECV, req)) {
				/* readiness does not promise a notification: both are normal */
				if (errno == EINTR || errno == ENOENT)
					continue;
				ret = -errno;
				break;
			}
			ret = serve_one(s, req, resp, rec);
			if (ret)
				break;
			continue;
		}
		if (fds[0].revents & (POLLHUP | POLLERR)) {
			/* no task holds the filter: the main process is dead, reap it */
			reap_child(s, 0);
			break;
		}
	}
out:
	free(req);
	free(resp);
	free(rec);
	return ret;
}
