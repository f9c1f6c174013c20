// SPDX-License-Identifier: GPL-2.0
/*
 * The supervisor process and the one place a notification is answered.
 * A correct supervisor treats ENOENT from RECV and SEND as normal (the
 * target was killed or interrupted) and, with --toctou, checks
 * SECCOMP_IOCTL_NOTIF_ID_VALID between reading the target's memory and
 * acting on what it read.
 */
#include "supervisor.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "fdpass.h"
#include "target_mem.h"

struct stress_supervisor {
	const struct config *c;
	struct stress_mem *m;
	int nr;
	int *listeners;
	int nl;
	const struct strategy *strat;
	struct sup_thread *threads;
	int nthreads;
	int threads_done;
	bool ending;			/* every listener hung up: a RECV's EINTR is our wake-up, not counted */
	int64_t cpu0;			/* process CPU time when the run started */
	pthread_rwlock_t death_lock;	/* --listener-death: no reply is half-counted when we leave */
};

static void add(int64_t *counter)
{
	__atomic_add_fetch(counter, 1, __ATOMIC_RELAXED);
}

void record_batch(struct sup_slot *s, int64_t n)
{
	int bucket = n <= 1 ? 0 : 64 - __builtin_clzll((unsigned long long)(n - 1));

	if (n <= 0)
		return;
	s->wakeups++;
	s->batch_hist[bucket < BATCH_BUCKETS ? bucket : BATCH_BUCKETS - 1]++;
	if (n > s->batch_max)
		s->batch_max = n;
}

const char *batch_bucket_name(int bucket)
{
	static const char *const names[BATCH_BUCKETS] = {
		"batch_le_1", "batch_le_2", "batch_le_4", "batch_le_8", "batch_le_16", "batch_le_32",
		"batch_le_64", "batch_le_128", "batch_le_256", "batch_le_512", "batch_le_1024", "batch_gt_1024",
	};

	return bucket >= 0 && bucket < BATCH_BUCKETS ? names[bucket] : "?";
}

int listener_hung_up(struct sup_thread *t, int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	t->slot->syscalls++;
	return poll(&p, 1, 0) == 1 && (p.revents & POLLHUP);
}

int account_reply(struct sup_thread *t, struct target_slot *target, int ret)
{
	struct stress_supervisor *s = t->sup;

	if (ret == 0) {
		add(&target->send_ok);
		if (s->c->listener_death)
			add(&s->m->sh->sent_total);
		return SERVED;
	}
	if (ret == -ENOENT) {	/* killed or interrupted after RECV: normal */
		add(&target->send_enoent);
		t->slot->send_enoent++;
		return SERVED;
	}
	return stress_fail(s->m, "SECCOMP_IOCTL_NOTIF_SEND: %s", strerror(-ret));
}

static int account_send(struct sup_thread *t, struct target_slot *target, int ret)
{
	t->slot->syscalls++;
	return account_reply(t, target, ret);
}

static int reply(struct sup_thread *t, int fd, struct target_slot *target, int64_t val)
{
	uint64_t id = t->buf.req->id;

	return account_send(t, target, notif_reply(fd, &t->buf, id, t->sup->c->reply, val, -1));
}

/*
 * Read the path argument out of the target, the way a correct supervisor
 * must (lib/seccomp/target_mem.h): open its memory, check the id (the pid still names
 * our target), read, check the id again (what we read came from the waiting
 * call), then act. A notification gone meanwhile is counted and not answered.
 */
static int answer_toctou(struct sup_thread *t, int fd, struct target_slot *target, int idx, int64_t seq)
{
	const struct seccomp_notif *req = t->buf.req;
	char path[STRESS_PATH_LEN + 1], want[STRESS_PATH_LEN];
	struct stress_mem *m = t->sup->m;
	struct target_mem mem;
	ssize_t n;

	n = target_mem_open(&mem, fd, req->id, (pid_t)req->pid);
	if (n == 0) {
		n = target_mem_read(&mem, req->data.args[1], path, STRESS_PATH_LEN);
		target_mem_close(&mem);
	}
	t->slot->syscalls += mem.syscalls;
	if (n == -ENOENT) {
		add(&target->toctou_invalid);
		return SERVED;
	}
	if (n <= 0)
		return stress_fail(m, "reading target %d's path at %#llx: %s", idx,
				   (unsigned long long)req->data.args[1],
				   n < 0 ? strerror((int)-n) : "nothing there");
	path[n] = 0;	/* the string ends at its NUL or at STRESS_PATH_LEN */
	stress_path(want, sizeof(want), idx, seq);
	if (strcmp(path, want))
		return stress_fail(m, "target %d request %lld: read '%s' from its memory, expected '%s'", idx,
				   (long long)seq, path, want);
	return reply(t, fd, target, stress_path_hash(path));
}

/* --listener-death: leave with no reply half-counted; the kernel closes every listener. */
static __attribute__((noreturn)) void die_now(struct stress_supervisor *s)
{
	pthread_rwlock_wrlock(&s->death_lock);
	s->m->sh->sup_cpu_ns = clock_ns(CLOCK_PROCESS_CPUTIME_ID) - s->cpu0;
	s->m->sh->sup_died = 1;
	_exit(0);	/* waiting targets get ENOSYS */
}

void death_hold(struct sup_thread *t)
{
	if (t->sup->c->listener_death)
		pthread_rwlock_rdlock(&t->sup->death_lock);
}

void death_release(struct sup_thread *t, int ret)
{
	struct stress_supervisor *s = t->sup;

	if (!s->c->listener_death)
		return;
	pthread_rwlock_unlock(&s->death_lock);
	/* the thread that sends the reply half the run needed dies at once, never starved */
	if (ret >= 0 && s->c->requests &&
	    __atomic_load_n(&s->m->sh->sent_total, __ATOMIC_RELAXED) >= s->m->sh->death_after)
		die_now(s);
}

struct target_slot *take_notification(struct sup_thread *t, const struct seccomp_notif *req, int64_t *seq)
{
	struct stress_supervisor *s = t->sup;
	uint64_t idx = req->data.args[ARG_IDX];
	struct target_slot *target;

	t->slot->notifs++;
	*seq = (int64_t)req->data.args[ARG_SEQ];
	if (idx >= (uint64_t)s->c->targets || req->data.nr != s->nr) {
		stress_fail(s->m, "notification for syscall %d from target %llu: not one of ours",
			    req->data.nr, (unsigned long long)idx);
		return NULL;
	}
	target = &s->m->t[idx];
	add(&target->recv_ok);
	return target;
}

static int answer(struct sup_thread *t, int fd, const struct seccomp_notif *req)
{
	int64_t seq;
	struct target_slot *target = take_notification(t, req, &seq);
	int idx;

	if (!target)
		return -EPROTO;
	idx = (int)(target - t->sup->m->t);
	if (t->sup->c->toctou)
		return answer_toctou(t, fd, target, idx, seq);
	return reply(t, fd, target, stress_expect(idx, seq));
}

int stress_serve_one(struct sup_thread *t, int fd)
{
	struct stress_supervisor *s = t->sup;
	const struct seccomp_notif *req = t->buf.req;
	int ret = notif_recv(fd, &t->buf);

	t->slot->syscalls++;
	if (ret == -ENOENT) {
		t->slot->recv_enoent++;
		return SERVE_NONE;
	}
	if (ret == -EINTR) {
		if (!__atomic_load_n(&s->ending, __ATOMIC_ACQUIRE))
			t->slot->recv_eintr++;
		return SERVE_NONE;
	}
	if (ret)
		return stress_fail(s->m, "SECCOMP_IOCTL_NOTIF_RECV: %s", strerror(-ret));
	death_hold(t);
	ret = answer(t, fd, req);
	death_release(t, ret);
	return ret;
}

static void *thread_main(void *arg)
{
	struct sup_thread *t = arg;

	t->ret = t->sup->strat->serve(t);
	__atomic_store_n(&t->done, true, __ATOMIC_RELEASE);
	__atomic_add_fetch(&t->sup->threads_done, 1, __ATOMIC_ACQ_REL);
	return NULL;
}

/* SIGURG's handler: nothing, and no SA_RESTART, so that a RECV it lands in fails with EINTR */
static void on_wake(int sig)
{
	(void)sig;
}

/*
 * A thread asleep in NOTIF_RECV (the blocking strategy) is woken when the
 * last task using its filter exits only since Linux 6.11, whose RECV then
 * returns ENOENT; on Debian 12's 6.1, Ubuntu 22.04's 5.15 or RHEL 9's 5.14
 * it sleeps on for ever. poll() reports the listener's POLLHUP on all of
 * them (5.10): wait for every listener to hang up (events 0, so that a
 * notification does not wake us), then interrupt each thread still in RECV
 * with SIGURG until it has returned, every 10 ms: a signal that lands just
 * before the thread enters RECV is lost. On 6.11+ the threads are gone
 * first, and nothing is sent.
 */
static void end_blocked_receivers(struct stress_supervisor *s)
{
	struct pollfd *p = calloc((size_t)s->nl, sizeof(*p));
	int open = s->nl;

	if (!p)
		return;	/* the run's deadline ends the process */
	for (int i = 0; i < s->nl; i++)
		p[i] = (struct pollfd){ .fd = s->listeners[i], .events = 0 };
	while (open > 0 && __atomic_load_n(&s->threads_done, __ATOMIC_ACQUIRE) < s->nthreads) {
		if (poll(p, (nfds_t)s->nl, 100) < 0 && errno != EINTR) {
			free(p);
			return;	/* no wake-up without every hang-up: the run's deadline ends it */
		}
		for (int i = 0; i < s->nl; i++)
			if (p[i].fd >= 0 && (p[i].revents & (POLLHUP | POLLERR | POLLNVAL))) {
				p[i].fd = -1;
				open--;
			}
	}
	free(p);
	__atomic_store_n(&s->ending, true, __ATOMIC_RELEASE);
	/* every thread still in RECV at once, then 10 ms for them all: 1000 threads are not 10 s */
	while (__atomic_load_n(&s->threads_done, __ATOMIC_ACQUIRE) < s->nthreads) {
		for (int i = 0; i < s->nthreads; i++)
			if (!__atomic_load_n(&s->threads[i].done, __ATOMIC_ACQUIRE))
				pthread_kill(s->threads[i].thread, SIGURG);
		usleep(10000);
	}
}

/* Listeners to threads: blocking takes one listener per thread; the others split them K ways. */
static int plan_threads(struct stress_supervisor *s)
{
	const struct config *c = s->c;
	int k = c->threads;

	if (s->strat->thread_per_listener && c->topo == TOPO_PER_TARGET)
		k = s->nl;
	else if (c->topo == TOPO_PER_TARGET && k > s->nl)
		k = s->nl;
	s->nthreads = k;
	s->threads = calloc((size_t)k, sizeof(*s->threads));
	if (!s->threads)
		return -ENOMEM;
	for (int i = 0; i < k; i++) {
		struct sup_thread *t = &s->threads[i];
		int ret;

		t->sup = s;
		t->m = s->m;
		t->index = i;
		t->slot = &s->m->s[i];
		t->fds = calloc((size_t)(s->nl / k + 1), sizeof(int));
		if (!t->fds)
			return -ENOMEM;
		if (c->topo == TOPO_SHARED)	/* every thread waits on the one listener */
			t->fds[t->nfds++] = s->listeners[0];
		else
			for (int l = i; l < s->nl; l += k)
				t->fds[t->nfds++] = s->listeners[l];
		ret = notif_buf_alloc(&t->buf);
		if (ret)
			return ret;
	}
	return 0;
}

static __attribute__((noreturn)) void sup_exit(struct stress_supervisor *s, const char *what,
						 int err)
{
	stress_fail(s->m, "supervisor: %s: %s", what, strerror(-err));
	_exit(1);
}

/* --listener-death with --duration: leave halfway through it. */
static void die_midway(struct stress_supervisor *s)
{
	struct timespec gap = { 0, 100000 };
	int64_t deadline = s->m->sh->go_ns + (int64_t)(s->c->duration_s * 0.5e9);

	while (now_ns() < deadline) {
		if (__atomic_load_n(&s->threads_done, __ATOMIC_ACQUIRE) == s->nthreads)
			return;	/* everyone finished first: the ledger reports the death never happened */
		nanosleep(&gap, NULL);
	}
	die_now(s);
}

void stress_supervisor_main(const struct config *c, struct stress_mem *m, int sock)
{
	struct stress_supervisor s = {
		.c = c, .m = m, .nr = stress_syscall_nr(c), .strat = strategy_at(c->strategy),
	};
	pthread_attr_t attr;
	int ret, failed = 0;

	ret = pin_to(c->cpus[1]);
	if (ret)
		sup_exit(&s, "pinning", ret);
	m->sh->sup_fds_before = count_fds();
	s.nl = c->topo == TOPO_SHARED ? 1 : c->targets;
	s.listeners = calloc((size_t)s.nl, sizeof(int));
	if (!s.listeners)
		sup_exit(&s, "listeners", -ENOMEM);
	for (int i = 0; i < s.nl; i++) {
		s.listeners[i] = fd_recv(sock);
		if (s.listeners[i] < 0)
			sup_exit(&s, "receiving a listener", s.listeners[i]);
		if (c->sync_wake && (ret = notif_set_sync_wakeup(s.listeners[i])))
			sup_exit(&s, "SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP", ret);
	}
	ret = plan_threads(&s);
	if (ret)
		sup_exit(&s, "setting up threads", ret);
	m->sh->sup_threads = s.nthreads;
	m->sh->listeners = s.nl;
	pthread_rwlock_init(&s.death_lock, NULL);
	if (s.strat->recv_sleeps_past_hangup &&
	    sigaction(SIGURG, &(struct sigaction){ .sa_handler = on_wake }, NULL))
		sup_exit(&s, "sigaction(SIGURG)", -errno);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 128 << 10);
	for (int i = 0; i < s.nthreads; i++) {
		ret = pthread_create(&s.threads[i].thread, &attr, thread_main, &s.threads[i]);
		if (ret)
			sup_exit(&s, "pthread_create", -ret);
	}
	pthread_attr_destroy(&attr);
	/* from here the threads only wait until go: setup is not charged to the run */
	s.cpu0 = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	__atomic_add_fetch(&m->sh->ready, 1, __ATOMIC_ACQ_REL);
	if (go_wait(m))
		sup_exit(&s, "waiting for the start", -ETIMEDOUT);
	if (c->listener_death && !c->requests)
		die_midway(&s);
	if (s.strat->recv_sleeps_past_hangup)
		end_blocked_receivers(&s);
	for (int i = 0; i < s.nthreads; i++) {
		pthread_join(s.threads[i].thread, NULL);
		failed |= s.threads[i].ret < 0;
	}
	m->sh->sup_cpu_ns = clock_ns(CLOCK_PROCESS_CPUTIME_ID) - s.cpu0;
	for (int i = 0; i < s.nthreads; i++) {
		notif_buf_free(&s.threads[i].buf);
		free(s.threads[i].fds);
	}
	for (int i = 0; i < s.nl; i++)
		close(s.listeners[i]);
	free(s.listeners);
	free(s.threads);
	pthread_rwlock_destroy(&s.death_lock);
	m->sh->sup_fds_after = count_fds();
	_exit(failed ? 1 : 0);
}
