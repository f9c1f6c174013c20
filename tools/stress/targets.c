// SPDX-License-Identifier: GPL-2.0
/*
 * Targets: each loops on the trapped call and checks every reply. A call a
 * signal interrupts (EINTR: no SA_RESTART, so the target sees it) is issued
 * again with the same sequence number; ENOSYS means the listener is gone and
 * the target leaves cleanly. Anything else is a wrong reply: the run fails.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "fdpass.h"
#include "filter.h"
#include "pdeath.h"
#include "targets.h"

struct spawner {
	const struct config *c;
	struct stress_mem *m;
	int sock;
	int nr;
	long real_value;		/* getppid without interception (--reply continue) */
	pid_t pid;
	int *pidfds;			/* processes: signalled through these, never by a pid that may be reused */
	pthread_t *threads;
	volatile int chaos_stop;
};

static __thread struct target_slot *my_slot;

static void on_sigusr1(int sig)
{
	if (my_slot)
		my_slot->signals++;
}

/* The reply target idx must see for request seq; *err is the errno it must carry, 0 for success. */
static long expected(const struct spawner *sp, int idx, int64_t seq, const char *path, int *err)
{
	*err = 0;
	if (sp->c->reply == REPLY_CONTINUE) {
		if (sp->c->toctou) {
			*err = ENOENT;	/* the kernel ran faccessat on a path that does not exist */
			return -1;
		}
		return sp->real_value;
	}
	return sp->c->toctou ? stress_path_hash(path) : stress_expect(idx, seq);
}

static int target_loop(struct spawner *sp, int idx)
{
	struct stress_mem *m = sp->m;
	struct target_slot *t = &m->t[idx];
	int64_t *samples = m->samples + (int64_t)idx * sp->c->sample_cap;
	int64_t n = stress_requests_of(sp->c, idx);
	char path[STRESS_PATH_LEN] = "";

	if (go_wait(m))
		return stress_fail(m, "target %d: the start never came (past --timeout)", idx);
	for (int64_t seq = 0; n ? seq < n : !m->sh->stop; seq++) {
		int err;
		long want, ret;
		int64_t t0, t1;

		if (sp->c->toctou)
			stress_path(path, sizeof(path), idx, seq);
		want = expected(sp, idx, seq, path, &err);
		for (;;) {
			t->attempts++;
			t->in_call = 1;
			t0 = now_ns();
			errno = 0;
			ret = syscall(sp->nr, AT_FDCWD, path, F_OK, seq, idx);
			t1 = now_ns();
			t->in_call = 0;
			if (ret == want && (!err || errno == err))
				break;
			if (ret == -1 && errno == EINTR) {
				t->eintr++;
				continue;
			}
			if (ret == -1 && errno == ENOSYS && sp->c->listener_death) {
				t->enosys++;
				t->end_ns = t1;
				return 0;
			}
			snprintf(t->bad, sizeof(t->bad), "request %lld got %ld (errno %d), expected %ld (errno %d)",
				 (long long)seq, ret, errno, want, err);
			return stress_fail(m, "target %d: request %lld got %ld (%s), expected %ld", idx,
					   (long long)seq, ret, errno ? strerror(errno) : "no error", want);
		}
		t->replies++;
		if (t->nsamples < sp->c->sample_cap)
			samples[t->nsamples++] = t1 - t0;
		if (t1 - t0 > t->max_ns)
			t->max_ns = t1 - t0;
	}
	t->end_ns = now_ns();
	return 0;
}

/* Per-target topology: this target installs its own filter and hands the listener over. */
static int own_filter(struct spawner *sp)
{
	int listener = filter_install(&sp->nr, 1, SECCOMP_RET_USER_NOTIF, SECCOMP_FILTER_FLAG_NEW_LISTENER);
	int ret;

	if (listener < 0)
		return listener;
	ret = fd_send(sp->sock, listener);
	close(listener);
	return ret;
}

static int target_setup(struct spawner *sp, int idx)
{
	int ret;

	my_slot = &sp->m->t[idx];
	my_slot->tid = (int32_t)syscall(SYS_gettid);
	ret = pin_to(sp->c->cpus[0]);
	if (ret)
		return stress_fail(sp->m, "target %d: pinning to CPU %d: %s", idx, sp->c->cpus[0], strerror(-ret));
	if (sp->c->topo == TOPO_PER_TARGET) {
		ret = own_filter(sp);
		if (ret)
			return stress_fail(sp->m, "target %d: installing its filter: %s", idx, strerror(-ret));
	}
	__atomic_add_fetch(&sp->m->sh->ready, 1, __ATOMIC_ACQ_REL);
	return 0;
}

static __attribute__((noreturn)) void target_process(struct spawner *sp, int idx)
{
	if (pdeath_follow(sp->pid, SIGKILL))
		_exit(1);	/* the spawner is gone (or going): no target may outlive it */
	if (target_setup(sp, idx))
		_exit(1);
	close(sp->sock);
	_exit(target_loop(sp, idx) ? 1 : 0);
}

struct thread_arg {
	struct spawner *sp;
	int idx;
};

static void *target_thread(void *arg)
{
	struct thread_arg *a = arg;
	int ret = target_setup(a->sp, a->idx);

	if (!ret)
		ret = target_loop(a->sp, a->idx);
	a->sp->m->t[a->idx].status = ret ? 1 << 8 : 0;	/* as a wait status: exit 1 or 0 */
	a->sp->m->t[a->idx].exited = 1;
	return NULL;
}

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static int send_signal(struct spawner *sp, int idx, int sig)
{
	if (sp->c->kind == TARGETS_THREADS)
		return (int)syscall(SYS_tgkill, sp->pid, sp->m->t[idx].tid, sig);
	return (int)syscall(SYS_pidfd_send_signal, sp->pidfds[idx], sig, NULL, 0);
}

/*
 * --signals: SIGUSR1 at a random live target every 20 µs; --kill: SIGKILL to
 * each planned victim once it is inside the call after its first reply.
 */
static void *chaos(void *arg)
{
	struct spawner *sp = arg;
	struct stress_mem *m = sp->m;
	uint64_t rnd = 0x9e3779b97f4a7c15ULL ^ (uint64_t)now_ns();
	struct timespec gap = { 0, 20000 };

	if (go_wait(m))
		return NULL;
	while (!sp->chaos_stop) {
		if (sp->c->signals) {
			int idx = (int)(xorshift(&rnd) % (uint64_t)sp->c->targets);

			if (!m->t[idx].exited && m->t[idx].tid && send_signal(sp, idx, SIGUSR1) == 0)
				m->sh->signals_sent++;
		}
		for (int i = 0; sp->c->kill && i < sp->c->targets; i++) {
			struct target_slot *t = &m->t[i];

			if (t->kill_planned && !t->kill_sent && t->in_call && t->replies > 0 && !t->exited) {
				t->kill_sent = send_signal(sp, i, SIGKILL) == 0;
				m->sh->kills_sent += t->kill_sent;
			}
		}
		nanosleep(&gap, NULL);
	}
	return NULL;
}

static int start_processes(struct spawner *sp)
{
	for (int i = 0; i < sp->c->targets; i++) {
		pid_t pid = fork();

		if (pid < 0)
			return stress_fail(sp->m, "fork of target %d: %s", i, strerror(errno));
		if (pid == 0)
			target_process(sp, i);
		sp->m->t[i].pid = pid;
		/* our child cannot be reaped by anyone else: the pid is still its own */
		sp->pidfds[i] = (int)syscall(SYS_pidfd_open, pid, 0);
		if (sp->pidfds[i] < 0)
			return stress_fail(sp->m, "pidfd_open (Linux 5.3) for target %d: %s", i, strerror(errno));
	}
	return 0;
}

static void reap_processes(struct spawner *sp)
{
	for (int left = sp->c->targets; left > 0;) {
		int status;
		pid_t pid = waitpid(-1, &status, __WALL);

		if (pid < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (int i = 0; i < sp->c->targets; i++) {
			if (sp->m->t[i].pid == pid) {
				sp->m->t[i].status = status;
				sp->m->t[i].exited = 1;
				left--;
				break;
			}
		}
	}
}

static int start_threads(struct spawner *sp, struct thread_arg *args)
{
	pthread_attr_t attr;
	int ret;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 128 << 10);	/* 1000 threads must fit */
	for (int i = 0; i < sp->c->targets; i++) {
		args[i] = (struct thread_arg){ sp, i };
		sp->m->t[i].pid = sp->pid;
		ret = pthread_create(&sp->threads[i], &attr, target_thread, &args[i]);
		if (ret) {
			pthread_attr_destroy(&attr);
			return stress_fail(sp->m, "thread for target %d: %s", i, strerror(ret));
		}
	}
	pthread_attr_destroy(&attr);
	return 0;
}

void spawner_main(const struct config *c, struct stress_mem *m, int sock)
{
	struct spawner sp = { .c = c, .m = m, .sock = sock, .nr = stress_syscall_nr(c) };
	struct sigaction sa = { .sa_handler = on_sigusr1 };	/* no SA_RESTART: the target sees EINTR */
	struct thread_arg *args = NULL;
	pthread_t chaos_thread;
	bool chaos_on = c->signals || c->kill;
	size_t slots = c->targets > 0 ? (size_t)c->targets : 1;
	int ret = 0;

	setpgid(0, 0);	/* the orchestrator can end every target at once on a hang */
	sp.pid = getpid();
	/* continue: the real answer, taken before any filter (a thread's parent is ours) */
	sp.real_value = c->kind == TARGETS_THREADS ? getppid() : getpid();
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	for (int i = 0; i < c->targets; i++)
		m->t[i].kill_planned = c->kill && i % 4 == (c->targets == 1 ? 0 : 1);
	sp.pidfds = calloc(slots, sizeof(int));
	sp.threads = calloc(slots, sizeof(pthread_t));
	args = calloc(slots, sizeof(*args));
	if (!sp.pidfds || !sp.threads || !args)
		_exit(stress_fail(m, "spawner: out of memory") ? 1 : 1);
	for (int i = 0; i < c->targets; i++)
		sp.pidfds[i] = -1;

	if (c->topo == TOPO_SHARED) {
		/* one filter, inherited by every target: one listener, many pending notifications */
		ret = own_filter(&sp);
		if (ret)
			_exit(stress_fail(m, "installing the shared filter: %s", strerror(-ret)) ? 1 : 1);
	}
	if (chaos_on && (ret = pthread_create(&chaos_thread, NULL, chaos, &sp)))
		_exit(stress_fail(m, "fault injector thread: %s", strerror(ret)) ? 1 : 1);

	if (c->kind == TARGETS_THREADS) {
		ret = start_threads(&sp, args);
		for (int i = 0; !ret && i < c->targets; i++)
			pthread_join(sp.threads[i], NULL);
		close(sock);	/* only now: each thread sent its listener over it */
	} else {
		ret = start_processes(&sp);
		close(sock);
		reap_processes(&sp);
	}
	if (chaos_on) {
		sp.chaos_stop = 1;
		pthread_join(chaos_thread, NULL);
	}
	for (int i = 0; i < c->targets; i++)
		if (sp.pidfds[i] >= 0)
			close(sp.pidfds[i]);
	_exit(ret ? 1 : 0);
}
