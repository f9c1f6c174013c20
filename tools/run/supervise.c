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

static int watched_index(const struct run_supervisor *s, int nr)
{
	for (int i = 0; i < s->nwatched; i++)
		if (s->watched[i]->nr == nr)
			return i;
	return -1;
}

static void reaped(struct run_supervisor *s, pid_t pid, int status)
{
	if (pid == s->keeper) {
		s->keeper_status = status;
		s->keeper = 0;
	}
}

/*
 * Reaps the children that have exited: the keeper, or what it left us if
 * it died first. False once no child is left (ECHILD).
 */
static bool reap_children(struct run_supervisor *s)
{
	int status;
	pid_t pid;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0 || (pid < 0 && errno == EINTR))
		if (pid > 0)
			reaped(s, pid, status);
	return pid == 0;
}

/*
 * The command's tree: below the keeper, which stays to reap the main
 * process and report its status (and, as a PID namespace's init, takes
 * the rest with it); below us once the keeper is gone.
 */
static pid_t tree_root(const struct run_supervisor *s)
{
	return s->keeper ? s->keeper : getpid();
}

static bool main_running(const struct run_supervisor *s)
{
	struct pollfd p = { .fd = s->main_pidfd, .events = POLLIN };

	return poll(&p, 1, 0) == 0;	/* a pidfd reads ready once its process has exited */
}

/*
 * A signal for the command: to its main process while it runs; once that
 * has exited, to whatever of its tree still runs (they hold the filter, and
 * we would otherwise wait for them however long they take). SIGTERM and
 * SIGHUP ask for an end: the tree gets RUN_GRACE_NS from the first of
 * them, then SIGKILL, whatever it blocks or ignores. SIGUSR1/2 ask for
 * nothing of the kind (a dd's progress report, a log reopened).
 */
static void pass_on(struct run_supervisor *s, int sig)
{
	if (main_running(s))
		syscall(SYS_pidfd_send_signal, s->main_pidfd, sig, NULL, 0);
	else
		signal_descendants(tree_root(s), sig);
	if ((sig == SIGTERM || sig == SIGHUP) && !s->kill_at_ns)
		s->kill_at_ns = now_ns() + RUN_GRACE_NS;
}

/* SIGCHLD: reap; the others: pass on */
static void read_signals(struct run_supervisor *s)
{
	struct signalfd_siginfo si[8];
	ssize_t n;

	while ((n = read(s->signal_fd, si, sizeof(si))) > 0) {
		for (size_t i = 0; i < (size_t)n / sizeof(si[0]); i++)
			if (si[i].ssi_signo != SIGCHLD)
				pass_on(s, (int)si[i].ssi_signo);
	}
	reap_children(s);
}

/* milliseconds until t, for poll(): at most a second, never negative */
static int ms_until(int64_t t)
{
	int64_t left = (t - now_ns()) / 1000000;

	return left < 0 ? 0 : left > 1000 ? 1000 : (int)left;
}

static int poll_timeout_ms(const struct run_supervisor *s)
{
	return s->kill_at_ns ? ms_until(s->kill_at_ns) : -1;
}

/* One emulated call, once replied to: its line, strings as acted on, verdict and result. */
static int log_emulated(struct run_supervisor *s, const struct seccomp_notif *req, const char *const *strs,
			int nstrs, const char *verdict, int error, const char *why, struct record *rec)
{
	int ret;

	if (!s->log)
		return 0;
	record_from_strings(rec, req, syscall_args_by_nr(req->data.nr), strs, nstrs, now_ns() - s->t0_ns);
	rec->verdict = verdict;
	rec->error = error;
	rec->why = why;
	ret = record_write(rec, s->format, s->log);
	if (ret)
		s->log_error = ret;
	return ret;
}

/*
 * An emulated call: served (read, decided, done or refused), replied to with
 * its outcome, then logged as done and counted. A call whose target left
 * before the reply is logged only when something was done for it.
 */
static int serve_emulated(struct run_supervisor *s, int i, struct notif_buf *nb, void *call, struct record *rec)
{
	const struct emulation *e = s->emulated[i];
	const struct emulated_outcome *o = call;
	const char *strs[EMULATION_MAX_STRINGS];
	int ret = e->serve(s->listener, nb->req, call), nstrs;

	if (ret == -ENOENT) {
		s->gone++;	/* the target left before anything was done: nothing to answer or log */
		return 0;
	}
	if (ret)
		return ret;
	ret = notif_send_emulate(s->listener, nb, nb->req->id, 0, o->error);
	if (ret == -ENOENT) {
		s->gone++;	/* killed or interrupted meanwhile: what was done is still logged */
		if (o->verdict != EMULATED_DONE)
			return 0;
	} else if (ret) {
		return ret;
	}
	s->verdicts[i][o->verdict]++;
	nstrs = e->strings(call, strs);
	return log_emulated(s, nb->req, strs, nstrs, e->verdict_names[o->verdict], o->error,
			    ret == -ENOENT ? "the target left before the reply" : o->why, rec);
}

/*
 * Answers one notification: read what it names, log it, let it continue.
 * The line is written before the reply so that it precedes anything the
 * call causes (the command's own output on a shared stderr, or its error
 * message after a failed execve).
 */
static int serve_notification(struct run_supervisor *s, struct notif_buf *nb, struct record *rec, void *call)
{
	const struct seccomp_notif *req = nb->req;
	int i = watched_index(s, req->data.nr), ret;

	for (int e = 0; e < s->nemulated; e++)
		if (s->emulated[e]->wants(req))
			return serve_emulated(s, e, nb, call, rec);

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

int run_supervise(struct run_supervisor *s)
{
	struct notif_buf nb;
	struct record *rec = NULL;
	void *call = NULL;	/* the largest emulation's call */
	size_t call_size = 0;
	struct pollfd fds[2];
	int ret = notif_buf_alloc(&nb);

	if (ret)
		return ret;
	for (int e = 0; e < s->nemulated; e++)
		if (s->emulated[e]->call_size > call_size)
			call_size = s->emulated[e]->call_size;
	if ((s->log && !(rec = malloc(sizeof(*rec)))) || (call_size && !(call = malloc(call_size)))) {
		free(rec);
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
			kill_descendants(tree_root(s));	/* the grace after SIGTERM or SIGHUP is over */
			s->kill_at_ns = 0;
		}
		if (fds[1].revents)
			read_signals(s);
		if (fds[0].revents & POLLIN) {
			ret = notif_recv(s->listener, &nb);
			/*
			 * Readiness does not promise a notification: both are
			 * normal, and neither may outlive this iteration (the
			 * POLLHUP below returned a stale ENOENT: the command,
			 * killed mid-call, was reported as a serving error).
			 */
			if (ret == -EINTR || ret == -ENOENT) {
				ret = 0;
				continue;
			}
			if (ret || (ret = serve_notification(s, &nb, rec, call)))
				break;
			continue;
		}
		if (fds[0].revents & (POLLHUP | POLLERR))
			break;	/* no task holds the filter: run_supervise_end() waits for them to be gone */
	}
	notif_buf_free(&nb);
	free(rec);
	free(call);
	return ret;
}

int run_supervise_end(struct run_supervisor *s, bool kill_first)
{
	struct pollfd p = { .fd = s->signal_fd, .events = POLLIN };
	int64_t deadline = now_ns() + RUN_GRACE_NS;
	bool killed = kill_first;
	struct signalfd_siginfo si;
	int status;

	if (kill_first)
		kill_descendants(tree_root(s));
	/*
	 * A task lets go of the filter early in do_exit(): at POLLHUP some
	 * may not be zombies yet, and each one left when we exit would be
	 * handed to init. So: until we have no child left. The keeper exits
	 * only once it has none itself, and the tree's orphans are the
	 * keeper's (or ours, if it died before them).
	 */
	while (reap_children(s)) {	/* until ECHILD: nothing of the tree is left */
		if (now_ns() >= deadline) {
			if (killed)
				return -EBUSY;
			kill_descendants(tree_root(s));
			killed = true;
			deadline = now_ns() + RUN_GRACE_NS;
		}
		poll(&p, 1, ms_until(deadline));
		/* SIGCHLD; anything else was for a tree on its way out */
		while (read(s->signal_fd, &si, sizeof(si)) > 0)
			;
	}
	/* EOF instead: the keeper died before the main process, and its end is the command's */
	if (read(s->status_fd, &status, sizeof(status)) == sizeof(status))
		s->child_status = status;
	else
		s->child_status = s->keeper_status;
	return 0;
}
