// SPDX-License-Identifier: GPL-2.0
/* The shared mapping every process of a run writes its counts into, and small shared helpers. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "first_failure.h"
#include "stress.h"

int stress_mem_map(struct stress_mem *m, int max_targets, int max_threads, int64_t max_samples)
{
	size_t sh = (sizeof(struct stress_shared) + 63) & ~(size_t)63;
	size_t t = (size_t)max_targets * sizeof(struct target_slot);
	size_t s = (size_t)max_threads * sizeof(struct sup_slot);
	size_t samples = (size_t)max_samples * sizeof(int64_t);
	char *base;

	m->len = sh + t + s + samples;
	/* NORESERVE: sample room is only touched as far as a run fills it */
	base = mmap(NULL, m->len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (base == MAP_FAILED)
		return -errno;
	m->sh = (struct stress_shared *)base;
	m->t = (struct target_slot *)(base + sh);
	m->s = (struct sup_slot *)(base + sh + t);
	m->samples = (int64_t *)(base + sh + t + s);
	m->max_targets = max_targets;
	m->max_threads = max_threads;
	return 0;
}

void stress_mem_reset(struct stress_mem *m, int targets, int threads)
{
	memset(m->sh, 0, sizeof(*m->sh));
	memset(m->t, 0, (size_t)targets * sizeof(*m->t));
	memset(m->s, 0, (size_t)threads * sizeof(*m->s));
	for (int i = 0; i < targets; i++)
		m->t[i].status = -1;
}

void stress_mem_unmap(struct stress_mem *m)
{
	munmap(m->sh, m->len);
}

int stress_fail(struct stress_mem *m, const char *fmt, ...)
{
	va_list ap;
	bool first;

	va_start(ap, fmt);
	first = first_failure_v(&m->sh->fail_claimed, m->sh->error, sizeof(m->sh->error), fmt, ap);
	va_end(ap);
	/* published after the reason: whoever sees failed reads all of it */
	if (first)
		__atomic_store_n(&m->sh->failed, 1, __ATOMIC_RELEASE);
	return -EPROTO;
}

int64_t stress_requests_of(const struct config *c, int idx)
{
	if (c->pending)	/* the probe answers every cycle plus its first call; the others park once */
		return idx == 0 ? c->pending_cycles + 1 : 1;
	return c->requests;
}

int stress_path(char *buf, size_t len, int idx, int64_t seq)
{
	return snprintf(buf, len, "/nonexistent-knotif-stress/%d/%lld", idx, (long long)seq);
}

/* FNV-1a, 31 bits: a positive value no real faccessat returns */
int64_t stress_path_hash(const char *path)
{
	uint32_t h = 2166136261u;

	for (; *path; path++)
		h = (h ^ (uint8_t)*path) * 16777619u;
	return (int64_t)(h & 0x7fffffff) + 1;
}

int stress_syscall_nr(const struct config *c)
{
	return c->toctou ? SYS_faccessat : SYS_getppid;
}

int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -errno;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n - 1;	/* the directory's own descriptor */
}

/*
 * One sleep until go or the deadline (FUTEX_WAIT_BITSET: an absolute
 * CLOCK_MONOTONIC time). No periodic wake-ups: a thousand targets waking
 * every 100 ms starved the spawner still forking them (a debug kernel took
 * over ten minutes to start 1000).
 */
int go_wait(struct stress_mem *m)
{
	struct timespec deadline = {
		.tv_sec = m->sh->go_deadline_ns / NSEC_PER_SEC,
		.tv_nsec = m->sh->go_deadline_ns % NSEC_PER_SEC,
	};

	while (!__atomic_load_n(&m->sh->go, __ATOMIC_ACQUIRE)) {
		if (syscall(SYS_futex, &m->sh->go, FUTEX_WAIT_BITSET, 0, &deadline, NULL,
			    FUTEX_BITSET_MATCH_ANY) && errno == ETIMEDOUT)
			return __atomic_load_n(&m->sh->go, __ATOMIC_ACQUIRE) ? 0 : -ETIMEDOUT;
	}
	return 0;
}

void go_release(struct stress_mem *m)
{
	__atomic_store_n(&m->sh->go, 1, __ATOMIC_RELEASE);
	syscall(SYS_futex, &m->sh->go, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

const char *topology_name(enum topology t)
{
	return t == TOPO_SHARED ? "shared" : t == TOPO_PER_TARGET ? "per-target" : "?";
}
