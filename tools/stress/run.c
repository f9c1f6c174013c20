// SPDX-License-Identifier: GPL-2.0
/*
 * The orchestrator's side of a run: start the supervisor and the spawner,
 * release everyone at once, bound the run with a timeout, and balance the
 * books once every process has left.
 */
#include "run.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "fdpass.h"
#include "notif.h"
#include "pdeath.h"
#include "pending.h"
#include "supervisor.h"
#include "targets.h"

struct procs {
	pid_t pid[2];			/* supervisor (0 in --pending), spawner */
	int pidfd[2];
	int status[2];
	bool reaped[2];
};

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* 1 when process i ended (reaped into p->status[i]), 0 when still running at timeout_ms. */
static int wait_proc(struct procs *p, int i, int timeout_ms)
{
	struct pollfd pfd = { .fd = p->pidfd[i], .events = POLLIN };

	if (p->reaped[i] || p->pid[i] <= 0)
		return 1;
	if (poll(&pfd, 1, timeout_ms) <= 0)
		return 0;
	while (waitpid(p->pid[i], &p->status[i], 0) < 0 && errno == EINTR)
		;
	p->reaped[i] = true;
	return 1;
}

static void end_all(struct procs *p)
{
	for (int i = 0; i < 2; i++) {
		if (p->pid[i] <= 0 || p->reaped[i])
			continue;
		if (i == 1)
			kill(-p->pid[i], SIGKILL);	/* the spawner's process group: every target */
		kill(p->pid[i], SIGKILL);
		wait_proc(p, i, -1);
	}
	for (int i = 0; i < 2; i++)
		if (p->pidfd[i] >= 0)
			close(p->pidfd[i]);
}

static int open_pidfd(struct procs *p, int i)
{
	p->pidfd[i] = p->pid[i] > 0 ? (int)syscall(SYS_pidfd_open, p->pid[i], 0) : -1;
	return p->pid[i] > 0 && p->pidfd[i] < 0 ? -errno : 0;
}

static bool exited_ok(const struct procs *p, int i)
{
	return WIFEXITED(p->status[i]) && WEXITSTATUS(p->status[i]) == 0;
}

__attribute__((format(printf, 3, 4)))
static void fail(struct run_result *r, const struct stress_mem *m, const char *fmt, ...)
{
	char what[STRESS_ERROR_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	r->status = RUN_FAILED;
	if (m->sh->error[0])
		snprintf(r->message, sizeof(r->message), "%s (%s)", m->sh->error, what);
	else
		snprintf(r->message, sizeof(r->message), "%s", what);
}

/* Targets still in their loop, for the "left hanging" message. */
static void hanging(const struct config *c, const struct stress_mem *m, char *buf, size_t len)
{
	int n = 0, off = 0;

	buf[0] = 0;
	for (int i = 0; i < c->targets; i++) {
		if (m->t[i].exited)
			continue;
		if (n++ < 8)
			off += snprintf(buf + off, len - (size_t)off, "%s%d", n > 1 ? ", " : "", i);
	}
	if (n > 8)
		snprintf(buf + off, len - (size_t)off, ", ... (%d in all)", n);
}

/* Wait for every party's setup; false (with r failed) when one failed or died first. */
static bool wait_ready(const struct config *c, struct stress_mem *m, struct procs *p, int want,
		       int64_t deadline, struct run_result *r)
{
	while (__atomic_load_n(&m->sh->ready, __ATOMIC_ACQUIRE) < want) {
		for (int i = 0; i < 2; i++) {
			if (p->pid[i] > 0 && wait_proc(p, i, 0)) {
				fail(r, m, "%s exited during setup", i ? "spawner" : "supervisor");
				return false;
			}
		}
		if (__atomic_load_n(&m->sh->failed, __ATOMIC_ACQUIRE)) {
			fail(r, m, "setup failed (%d of %d ready)", m->sh->ready, want);
			return false;
		}
		if (now_ns() > deadline) {
			fail(r, m, "setup did not finish within --timeout=%d s (%d of %d ready)", c->timeout_s,
			     m->sh->ready, want);
			return false;
		}
		sleep_ms(1);
	}
	return true;
}

/* Wait for the spawner (every target reaped) while watching for a failure elsewhere. */
static bool wait_targets(const struct config *c, struct stress_mem *m, struct procs *p, int64_t deadline,
			 struct run_result *r)
{
	char who[128];

	for (;;) {
		int64_t left_ms = (deadline - now_ns()) / 1000000;

		if (c->duration_s > 0 && !m->sh->stop && now_ns() >= m->sh->go_ns + (int64_t)(c->duration_s * 1e9))
			m->sh->stop = 1;
		if (wait_proc(p, 1, left_ms < 20 ? (int)(left_ms > 0 ? left_ms : 0) : 20))
			return true;
		if (__atomic_load_n(&m->sh->failed, __ATOMIC_ACQUIRE)) {
			fail(r, m, "a run party failed");
			return false;
		}
		if (left_ms <= 0) {
			hanging(c, m, who, sizeof(who));
			fail(r, m, "left hanging after --timeout=%d s: targets %s never got their reply", c->timeout_s, who);
			return false;
		}
	}
}

static void figures(const struct config *c, const struct stress_mem *m, struct run_result *r)
{
	int64_t n = 0, end = m->sh->go_ns, syscalls = 0, notifs = 0, read_cpu = 0, write_cpu = 0;
	int64_t *all;

	/* --pending: only the probe's round trips; the parked targets wait on purpose */
	for (int i = 0; i < (c->pending ? 1 : c->targets); i++)
		n += m->t[i].nsamples;
	for (int i = 0; i < c->targets; i++) {
		if (m->t[i].end_ns > end)
			end = m->t[i].end_ns;
		if (m->t[i].max_ns > r->lat_max && (!c->pending || i == 0))
			r->lat_max = m->t[i].max_ns;
	}
	all = malloc((size_t)(n ? n : 1) * sizeof(*all));
	n = 0;
	for (int i = 0; all && i < (c->pending ? 1 : c->targets); i++) {
		memcpy(all + n, m->samples + (int64_t)i * c->sample_cap, (size_t)m->t[i].nsamples * sizeof(*all));
		n += m->t[i].nsamples;
	}
	if (all && n)
		summarize(all, (size_t)n, &r->lat);
	free(all);
	r->wall_ns = end - m->sh->go_ns;
	r->ops = r->wall_ns > 0 ? (double)r->ledger.replied * 1e9 / (double)r->wall_ns : 0;
	for (int i = 0; i < m->sh->sup_threads; i++) {
		syscalls += m->s[i].syscalls;
		notifs += m->s[i].notifs;
		read_cpu += m->s[i].read_cpu_ns;
		write_cpu += m->s[i].write_cpu_ns;
		r->wakeups += m->s[i].wakeups;
		if (m->s[i].batch_max > r->batch_max)
			r->batch_max = m->s[i].batch_max;
		for (int b = 0; b < BATCH_BUCKETS; b++)
			r->batch_hist[b] += m->s[i].batch_hist[b];
	}
	r->sup_threads = m->sh->sup_threads;
	r->listeners = m->sh->listeners;
	if (r->ledger.replied > 0) {
		r->sup_cpu_per_op = (double)m->sh->sup_cpu_ns / (double)r->ledger.replied;
		r->syscalls_per_op = (double)syscalls / (double)r->ledger.replied;
		r->read_cpu_per_op = (double)read_cpu / (double)r->ledger.replied;
		r->write_cpu_per_op = (double)write_cpu / (double)r->ledger.replied;
	}
	r->batch_mean = r->wakeups ? (double)notifs / (double)r->wakeups : 0;
}

static void balance(const struct config *c, struct stress_mem *m, struct run_result *r)
{
	char why[STRESS_ERROR_LEN];

	r->ledger.sup_fds_before = m->sh->sup_fds_before;
	r->ledger.sup_fds_after = m->sh->sup_fds_after;
	r->ledger.orch_fds_after = count_fds();
	if (ledger_check(c, m, &r->ledger, why, sizeof(why))) {
		r->status = RUN_FAILED;
		snprintf(r->message, sizeof(r->message), "ledger: %s", why);
		return;
	}
	figures(c, m, r);
	r->status = RUN_OK;
}

static void begin(const struct config *c, struct stress_mem *m, struct run_result *r, struct procs *p)
{
	memset(r, 0, sizeof(*r));
	r->c = *c;
	memset(p, 0, sizeof(*p));
	p->pidfd[0] = p->pidfd[1] = -1;
	stress_mem_reset(m, c->targets, m->max_threads);
	m->sh->death_after = c->requests * c->targets / 2 > 0 ? c->requests * c->targets / 2 : 1;
	r->ledger.orch_fds_before = count_fds();
}

static int start_spawner(const struct config *c, struct stress_mem *m, struct procs *p, int sv[2])
{
	pid_t orchestrator = getpid();

	p->pid[1] = fork();
	if (p->pid[1] < 0)
		return -errno;
	if (p->pid[1] == 0) {
		if (pdeath_follow(orchestrator, SIGKILL))
			_exit(1);	/* the orchestrator died already: its targets must never start */
		close(sv[0]);
		spawner_main(c, m, sv[1]);
	}
	return open_pidfd(p, 1);
}

void run_stress(const struct config *c, struct stress_mem *m, struct run_result *r)
{
	int64_t deadline = now_ns() + (int64_t)c->timeout_s * NSEC_PER_SEC;
	struct procs p;
	pid_t orchestrator = getpid();
	int sv[2], ret;

	begin(c, m, r, &p);
	m->sh->go_deadline_ns = deadline;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return fail(r, m, "socketpair: %s", strerror(errno));
	p.pid[0] = fork();
	if (p.pid[0] == 0) {
		if (pdeath_follow(orchestrator, SIGKILL))
			_exit(1);
		close(sv[1]);
		stress_supervisor_main(c, m, sv[0]);
	}
	ret = p.pid[0] < 0 ? -errno : open_pidfd(&p, 0);
	if (!ret)
		ret = start_spawner(c, m, &p, sv);
	close(sv[0]);
	close(sv[1]);
	if (ret) {
		end_all(&p);
		return fail(r, m, "starting the run: %s", strerror(-ret));
	}
	if (!wait_ready(c, m, &p, c->targets + 1, deadline, r) || (m->sh->go_ns = now_ns(), go_release(m),
	    !wait_targets(c, m, &p, deadline, r)))
		return end_all(&p);
	/* every target is gone: every listener hangs up and the supervisor must leave by itself */
	if (!wait_proc(&p, 0, 10000)) {
		end_all(&p);
		return fail(r, m, "the supervisor did not finish after every target had left");
	}
	end_all(&p);
	if (!exited_ok(&p, 1))
		return fail(r, m, "the spawner failed (status %#x)", p.status[1]);
	if (!exited_ok(&p, 0))
		return fail(r, m, "the supervisor failed (status %#x)", p.status[0]);
	balance(c, m, r);
}

void run_pending(const struct config *c, struct stress_mem *m, struct run_result *r)
{
	int64_t deadline = now_ns() + (int64_t)c->timeout_s * NSEC_PER_SEC;
	struct procs p;
	int sv[2], ret, listener = -1;

	begin(c, m, r, &p);
	m->sh->go_deadline_ns = deadline;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return fail(r, m, "socketpair: %s", strerror(errno));
	ret = start_spawner(c, m, &p, sv);
	close(sv[1]);
	if (!ret) {
		listener = fd_recv(sv[0]);
		ret = listener < 0 ? listener : 0;
	}
	close(sv[0]);
	if (!ret && c->sync_wake)
		ret = notif_set_sync_wakeup(listener);
	if (!ret)
		ret = pin_to(c->cpus[1]);
	if (ret) {
		end_all(&p);
		if (listener >= 0)
			close(listener);
		return fail(r, m, "starting the pending run: %s", strerror(-ret));
	}
	if (wait_ready(c, m, &p, c->targets, deadline, r)) {
		m->sh->go_ns = now_ns();
		go_release(m);
		ret = pending_measure(c, m, listener, r);
		if (ret)
			stress_fail(m, "pending: %s", strerror(-ret));
		wait_targets(c, m, &p, deadline, r);
	}
	pin_to(-1);
	close(listener);
	end_all(&p);
	if (r->status == RUN_FAILED)
		return;
	if (ret || !exited_ok(&p, 1))
		return fail(r, m, "the pending run failed (spawner status %#x)", p.status[1]);
	balance(c, m, r);
}
