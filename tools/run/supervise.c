// SPDX-License-Identifier: GPL-2.0
#include "supervise.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "descendants.h"
#include "mknod_pool.h"
#include "notif.h"
#include "small_file.h"

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
 * At most this many emulated calls act at once: past it, the next
 * notifications wait in the kernel's queue until an act ends.
 */
#define RUN_MAX_ACTING 256
/* every act in flight may be an mknod whose helper is busy: the pool must
 * be able to start one for each, or a call past its limit is refused while
 * the acting limit would have let it act */
_Static_assert(MKNOD_POOL_MAX >= RUN_MAX_ACTING, "the mknod pool holds a helper for every act in flight");

/*
 * Emulated calls received and not yet begun. The kernel queues
 * notifications in the order they came, so a process of many threads
 * calling as fast as it is answered would put each other process's call
 * behind all of its own: they are taken from the kernel as they come, and
 * begun the calling process with the fewest acts in flight first (oldest
 * first among equals).
 */
#define RUN_MAX_WAITING 1024

struct waiting {
	int e;				/* s->emulated[e]'s call */
	pid_t tgid;			/* the calling process (its thread group); 0: not looked up yet */
	struct seccomp_notif req;
};

/* An emulated call whose act runs in a helper: answered once it has ended. */
struct acting {
	int e;				/* s->emulated[e]'s call */
	pid_t tgid;			/* as waiting's */
	struct seccomp_notif req;	/* what the reply and the line name */
	int fd;				/* readable once the act has ended */
	void *call;			/* its call (the largest call_size), owned by the slot */
};

/* What run_supervise() serves with. */
struct serving {
	struct notif_buf nb;
	struct record *rec;		/* NULL: --quiet */
	size_t call_size;		/* the largest emulation's call */
	void *call;			/* the call being begun */
	struct acting acting[RUN_MAX_ACTING];
	int nacting;			/* acting[0 .. nacting - 1] */
	struct waiting waiting[RUN_MAX_WAITING];
	int nwaiting;			/* waiting[0 .. nwaiting - 1], oldest first */
};

/* The thread group of thread tid; tid itself when its status cannot be read (gone). */
static pid_t tgid_read(pid_t tid)
{
	char name[32], buf[512];
	const char *line;
	ssize_t n;

	snprintf(name, sizeof(name), "/proc/%d/status", (int)tid);
	n = small_file_read(AT_FDCWD, name, buf, sizeof(buf));
	if (n < 0 && n != -E2BIG)
		return tid;	/* Tgid is in its first lines: a beginning is enough */
	line = strstr(buf, "\nTgid:");
	return line ? (pid_t)atoi(line + 6) : tid;
}

/*
 * The thread group of the thread that made req (its /proc/TID/status),
 * looked up once into *tgid; the thread itself when it cannot be read
 * (gone). Only when calls wait for one another: a call alone pays nothing.
 */
static pid_t tgid_of(pid_t *tgid, const struct seccomp_notif *req)
{
	if (!*tgid)
		*tgid = tgid_read((pid_t)req->pid);
	return *tgid;
}

/*
 * An emulated call whose outcome is known: replied to, then logged as done
 * and counted. A call whose target left before the reply is logged only
 * when something was done for it (or may have been: abandoned).
 */
static int answer_emulated(struct run_supervisor *s, struct serving *sv, int i, const struct seccomp_notif *req,
			   const void *call, bool abandoned)
{
	const struct emulation *e = s->emulated[i];
	const struct emulated_outcome *o = call;
	const char *strs[EMULATION_MAX_STRINGS];
	int ret, nstrs;

	ret = o->answered ? 0 : notif_send_emulate(s->listener, &sv->nb, req->id, 0, o->error);

	if (ret == -ENOENT) {
		s->gone++;	/* killed or interrupted meanwhile: what was done is still logged */
		if (o->verdict != EMULATED_DONE && !abandoned)
			return 0;
	} else if (ret) {
		return ret;
	}
	if (abandoned)
		s->abandoned++;
	else
		s->verdicts[i][o->verdict]++;
	nstrs = e->strings(call, strs);
	return log_emulated(s, req, strs, nstrs, abandoned ? "unknown" : e->verdict_names[o->verdict], o->error,
			    ret == -ENOENT && !abandoned ? "the target left before the reply" : o->why, sv->rec);
}

/*
 * Begins an emulated call: answered at once when decided, else kept among
 * the acting until its act ends (the supervisor serves others meanwhile).
 * 0, -errno (the run ends), or 1 when the emulation deferred it.
 */
static int serve_emulated(struct run_supervisor *s, struct serving *sv, const struct waiting *w)
{
	const struct emulation *e = s->emulated[w->e];
	const struct seccomp_notif *req = &w->req;
	int fd = -1, ret = e->begin(s->listener, req, sv->call, &fd), i = w->e;
	struct acting *a;
	void *spare;

	if (ret == -ENOENT) {
		s->gone++;	/* the target left before anything was done: nothing to answer or log */
		return 0;
	}
	if (ret < 0)
		return ret;
	if (ret == EMULATION_DEFER)
		return 1;	/* an act it waits for has ended unheard: kept waiting, begun after it is taken */
	if (ret == EMULATION_DECIDED)
		return answer_emulated(s, sv, i, req, sv->call, false);
	/* its act runs: the slot takes the call, the begun call's buffer becomes the slot's old one */
	a = &sv->acting[sv->nacting++];
	spare = a->call;
	*a = (struct acting){ .e = i, .tgid = w->tgid, .req = *req, .fd = fd, .call = sv->call };
	sv->call = spare;
	if (!sv->call && !(sv->call = malloc(sv->call_size)))
		return -ENOMEM;
	return 0;
}

/* A process's acts in flight. */
struct proc_count {
	pid_t tgid;
	int n;
};

/*
 * Begins one waiting call, if an act may start: the process with the fewest
 * in flight first. One a turn of run_supervise()'s loop, which receives what
 * came meanwhile before the next: a call that arrives while a flood of
 * another process's waits is begun next, not after all of them.
 */
static int begin_waiting(struct run_supervisor *s, struct serving *sv)
{
	if (sv->nwaiting && sv->nacting < RUN_MAX_ACTING) {
		/* the processes acting, each once with its count: a flood is one entry, not 256 */
		struct proc_count in_flight[RUN_MAX_ACTING];
		int nprocs = 0, pick = 0, fewest = sv->nwaiting > 1 ? INT_MAX : 0, ret;

		for (int k = 0; k < sv->nacting && fewest; k++) {
			pid_t tgid = tgid_of(&sv->acting[k].tgid, &sv->acting[k].req);
			int p = 0;

			while (p < nprocs && in_flight[p].tgid != tgid)
				p++;
			if (p == nprocs)
				in_flight[nprocs++] = (struct proc_count){ tgid, 0 };
			in_flight[p].n++;
		}
		/* the oldest call of a process with the fewest in flight (0: none acting, taken at once) */
		for (int k = 0; k < sv->nwaiting && fewest; k++) {
			pid_t tgid = tgid_of(&sv->waiting[k].tgid, &sv->waiting[k].req);
			int p = 0;

			while (p < nprocs && in_flight[p].tgid != tgid)
				p++;
			if ((p < nprocs ? in_flight[p].n : 0) < fewest) {
				fewest = p < nprocs ? in_flight[p].n : 0;
				pick = k;
			}
		}
		ret = serve_emulated(s, sv, &sv->waiting[pick]);
		if (ret == 1)
			return 0;	/* deferred: the next turn's poll takes the ended act first */
		memmove(&sv->waiting[pick], &sv->waiting[pick + 1],
			(size_t)(sv->nwaiting - pick - 1) * sizeof(sv->waiting[0]));
		sv->nwaiting--;
		if (ret)
			return ret;
	}
	return 0;
}

/* The act of acting[k] has ended: its outcome, reply and line; the slot is freed. */
static int act_ended(struct run_supervisor *s, struct serving *sv, int k, bool abandon)
{
	struct acting *a = &sv->acting[k], done = *a;
	const struct emulation *e = s->emulated[a->e];

	if (abandon)
		e->abandon(a->call);
	else
		e->finish(a->call);
	/* the last slot moves into k: the table stays packed */
	*a = sv->acting[--sv->nacting];
	sv->acting[sv->nacting] = (struct acting){ .call = done.call };
	return answer_emulated(s, sv, done.e, &done.req, done.call, abandon);
}

/* Ends what still acts (the run is over): each helper stopped, each call logged as unknown. */
static int abandon_acting(struct run_supervisor *s, struct serving *sv)
{
	int ret = 0;

	while (sv->nacting) {
		int r = act_ended(s, sv, sv->nacting - 1, true);

		if (r && !ret)
			ret = r;
	}
	return ret;
}

/*
 * Answers one notification: read what it names, log it, let it continue.
 * The line is written before the reply so that it precedes anything the
 * call causes (the command's own output on a shared stderr, or its error
 * message after a failed execve).
 */
static int serve_notification(struct run_supervisor *s, struct serving *sv)
{
	struct notif_buf *nb = &sv->nb;
	struct record *rec = sv->rec;
	const struct seccomp_notif *req = nb->req;
	int i = watched_index(s, req->data.nr), ret;

	for (int e = 0; e < s->nemulated; e++)
		if (s->emulated[e]->wants(req)) {
			/* begun by begin_waiting(), fairly: run_supervise() leaves room for it */
			sv->waiting[sv->nwaiting++] = (struct waiting){ .e = e, .req = *req };
			return 0;
		}

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

static void serving_free(struct serving *sv)
{
	for (int k = 0; k < RUN_MAX_ACTING; k++)
		free(sv->acting[k].call);
	free(sv->call);
	free(sv->rec);
	notif_buf_free(&sv->nb);
	free(sv);
}

static struct serving *serving_new(const struct run_supervisor *s)
{
	struct serving *sv = calloc(1, sizeof(*sv));

	if (!sv)
		return NULL;
	if (notif_buf_alloc(&sv->nb)) {
		free(sv);
		return NULL;
	}
	for (int e = 0; e < s->nemulated; e++)
		if (s->emulated[e]->call_size > sv->call_size)
			sv->call_size = s->emulated[e]->call_size;
	if ((s->log && !(sv->rec = malloc(sizeof(*sv->rec)))) ||
	    (sv->call_size && !(sv->call = malloc(sv->call_size)))) {
		serving_free(sv);
		return NULL;
	}
	return sv;
}

/* Is a notification waiting in the kernel now? */
static bool listener_ready(const struct run_supervisor *s)
{
	struct pollfd p = { .fd = s->listener, .events = POLLIN };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

int run_supervise(struct run_supervisor *s)
{
	struct serving *sv = serving_new(s);
	struct pollfd fds[2 + RUN_MAX_ACTING];
	int64_t drain_until = 0;	/* the filter's last holder has gone: acts still running have until then */
	int ret = 0;

	if (!sv)
		return -ENOMEM;
	for (;;) {
		int n = 2, timeout = poll_timeout_ms(s), ready;

		if (drain_until) {
			if (!sv->nacting || now_ns() >= drain_until)
				break;
			if (timeout < 0 || timeout > ms_until(drain_until))
				timeout = ms_until(drain_until);
		}
		if (sv->nwaiting && sv->nacting < RUN_MAX_ACTING)
			timeout = 0;	/* a call to begin: only look at what came meanwhile */
		/* a full queue leaves the next notifications queued in the kernel */
		fds[0] = (struct pollfd){ .fd = drain_until ? -1 : s->listener,
					  .events = sv->nwaiting < RUN_MAX_WAITING ? POLLIN : 0 };
		fds[1] = (struct pollfd){ .fd = s->signal_fd, .events = POLLIN };
		for (int k = 0; k < sv->nacting; k++)
			fds[n++] = (struct pollfd){ .fd = sv->acting[k].fd, .events = POLLIN };
		ready = poll(fds, (nfds_t)n, timeout);
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
		/* acts that ended, last first: act_ended() moves the last slot into the one it frees */
		for (int k = n - 3; k >= 0 && !ret; k--)
			if (fds[2 + k].revents)
				ret = act_ended(s, sv, k, false);
		if (ret)
			break;
		if (fds[0].revents & POLLIN) {
			/* every notification waiting in the kernel, so that the next begun is the fairest */
			do {
				ret = notif_recv(s->listener, &sv->nb);
				/*
				 * Readiness does not promise a notification: both
				 * are normal, and neither may outlive this
				 * iteration (the POLLHUP below returned a stale
				 * ENOENT: the command, killed mid-call, was
				 * reported as a serving error).
				 */
				if (ret == -EINTR || ret == -ENOENT) {
					ret = 0;
					break;
				}
				if (ret || (ret = serve_notification(s, sv)))
					break;
			} while (sv->nwaiting < RUN_MAX_WAITING && listener_ready(s));
		} else if (fds[0].revents & (POLLHUP | POLLERR)) {
			/* no task holds the filter: run_supervise_end() waits for them to be gone */
			drain_until = now_ns() + RUN_GRACE_NS;
		}
		/* the fairest waiting call, once what came meanwhile is among them */
		if (ret || (ret = begin_waiting(s, sv)))
			break;
	}
	/* calls never begun: their targets are gone (the filter's last holder went), or the run failed */
	s->gone += sv->nwaiting;
	sv->nwaiting = 0;
	/* acts still running: the run is over (or failed), nobody will wait for them */
	if (sv->nacting) {
		int r = abandon_acting(s, sv);

		if (!ret)
			ret = r;
	}
	for (int e = 0; e < s->nemulated; e++)
		if (s->emulated[e]->end)
			s->emulated[e]->end();
	serving_free(sv);
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
