// SPDX-License-Identifier: GPL-2.0
#include "supervise.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "descendants.h"
#include "notif.h"

static int watched_index(const struct supervisor *s, int nr)
{
	for (int i = 0; i < s->nwatched; i++)
		if (s->watched[i]->nr == nr)
			return i;
	return -1;
}

static void main_process_reaped(struct supervisor *s, pid_t pid, int status)
{
	if (pid == s->child) {
		s->child_status = status;
		s->child = 0;
	}
}

/*
 * Reaps the children that have exited: the command's main process, whose
 * status becomes ours (wait_main: wait for it), and the orphans of its
 * tree that were reparented to us (we are their subreaper).
 */
static void reap_children(struct supervisor *s, bool wait_main)
{
	int status;
	pid_t pid;

	if (wait_main && s->child) {
		while ((pid = waitpid(s->child, &status, 0)) < 0 && errno == EINTR)
			;
		main_process_reaped(s, pid, status);
	}
	while ((pid = waitpid(-1, &status, WNOHANG)) > 0 || (pid < 0 && errno == EINTR))
		if (pid > 0)
			main_process_reaped(s, pid, status);
}

/*
 * A signal for the command: to its main process while it lives; once that
 * has exited, to whatever of its tree still runs (they hold the filter, and
 * we would otherwise wait for them however long they take).
 */
static void pass_on(struct supervisor *s, int sig)
{
	if (s->child) {
		syscall(SYS_pidfd_send_signal, s->child_pidfd, sig, NULL, 0);
		return;
	}
	signal_descendants(getpid(), sig);
	if (!s->kill_at_ns)
		s->kill_at_ns = now_ns() + SUPERVISE_GRACE_NS;
}

/* SIGCHLD: reap; the others: pass on (after reaping: is the main process still there?) */
static void read_signals(struct supervisor *s)
{
	struct signalfd_siginfo si[8];
	ssize_t n;

	while ((n = read(s->signal_fd, si, sizeof(si))) > 0) {
		reap_children(s, false);
		for (size_t i = 0; i < (size_t)n / sizeof(si[0]); i++)
			if (si[i].ssi_signo != SIGCHLD)
				pass_on(s, (int)si[i].ssi_signo);
	}
	reap_children(s, false);
}

static int poll_timeout_ms(const struct supervisor *s)
{
	int64_t left;

	if (!s->kill_at_ns)
		return -1;
	left = (s->kill_at_ns - now_ns()) / 1000000;
	return left < 0 ? 0 : left > 1000 ? 1000 : (int)left;
}

/*
 * Answers one notification: read what it names, log it, let it continue.
 * The line is written before the reply so that it precedes anything the
 * call causes (the command's own output on a shared stderr, or its error
 * message after a failed execve).
 */
static int serve_one(struct supervisor *s, struct notif_buf *nb, struct record *rec)
{
	const struct seccomp_notif *req = nb->req;
	int i = watched_index(s, req->data.nr), ret;

	if (i >= 0 && s->log) {
		ret = record_take(rec, s->listener, req, s->watched[i], now_ns() - s->t0_ns);
		if (ret == -ENOENT) {
			s->gone++;
			return 0;	/* nothing to continue: the target left the call */
		}
		if (ret)
			return ret;
		ret = record_write(rec, s->format, s->log);
		if (ret) {
			s->log_error = ret;
			return ret;
		}
	}
	if (i >= 0)
		s->count[i]++;
	ret = notif_send_continue(s->listener, nb, req->id);
	if (ret == -ENOENT) {
		s->gone++;	/* killed or interrupted after RECV: normal */
		ret = 0;
	}
	return ret;
}

int supervise(struct supervisor *s)
{
	struct notif_buf nb;
	struct record *rec = NULL;
	struct pollfd fds[2];
	int ret = notif_buf_alloc(&nb);

	if (ret)
		return ret;
	if (s->log && !(rec = malloc(sizeof(*rec)))) {
		notif_buf_free(&nb);
		return -ENOMEM;
	}
	fds[0] = (struct pollfd){ .fd = s->listener, .events = POLLIN };
	fds[1] = (struct pollfd){ .fd = s->signal_fd, .events = POLLIN };
	for (;;) {
		int ready = poll(fds, 2, poll_timeout_ms(s));

		if (ready < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			break;
		}
		if (s->kill_at_ns && now_ns() >= s->kill_at_ns) {
			kill_descendants(getpid());	/* the grace after a passed-on signal is over */
			s->kill_at_ns = 0;
		}
		if (fds[1].revents)
			read_signals(s);
		if (fds[0].revents & POLLIN) {
			ret = notif_recv(s->listener, &nb);
			/* readiness does not promise a notification: both are normal */
			if (ret == -EINTR || ret == -ENOENT)
				continue;
			if (ret || (ret = serve_one(s, &nb, rec)))
				break;
			continue;
		}
		if (fds[0].revents & (POLLHUP | POLLERR)) {
			/*
			 * No task holds the filter: each let go of it early in
			 * do_exit(), so the main process may not be a zombie
			 * yet. Wait for it; reap whatever else has exited.
			 */
			reap_children(s, true);
			break;
		}
	}
	notif_buf_free(&nb);
	free(rec);
	return ret;
}
