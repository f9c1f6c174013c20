/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_STRESS_H
#define KNOTIF_STRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "cpu.h"
#include "notif.h"

/*
 * knotif-stress: N targets loop on a trapped system call, a supervisor
 * serves every notification with one of several strategies, and the run ends
 * with an exact ledger. Four kinds of process take part:
 *
 *   orchestrator ── fork ──> supervisor (K threads, the strategy)
 *                └─ fork ──> spawner ── fork/clone ──> N targets
 *
 * The spawner is the targets' parent (it alone may signal and reap them
 * without racing pid reuse); in the shared topology it also installs the one
 * filter its children inherit. Listeners travel to the supervisor over
 * SCM_RIGHTS. Every count lives in one MAP_SHARED mapping (struct stress_mem)
 * so that the orchestrator can balance the books after everyone has left.
 */

enum topology { TOPO_SHARED, TOPO_PER_TARGET, TOPO_COUNT };
enum target_kind { TARGETS_PROCESSES, TARGETS_THREADS };
/* the most strategies strategies/registry.c may list */
#define STRATEGY_MAX 16

#define STRESS_MAX_TARGETS 10000
#define STRESS_ERROR_LEN 256
#define STRESS_PATH_LEN 64	/* --toctou: the path a target hands its supervisor */
#define BATCH_BUCKETS 12	/* batch sizes 1, 2, 3-4, 5-8, ..., 513-1024, >1024 */

/* One run: everything the tool varies. */
struct config {
	int targets;
	enum topology topo;
	enum target_kind kind;
	int strategy;			/* index in strategies/registry.c's table */
	int threads;			/* K supervisor threads (blocking per-target: one per listener) */
	bool sync_wake;
	enum reply_kind reply;
	enum placement placement;
	int cpus[2];			/* targets, supervisor; -1 unpinned */
	int64_t requests;		/* per target; 0 with duration_s */
	double duration_s;
	int timeout_s;
	bool signals, kill, listener_death, toctou;
	int64_t sample_cap;		/* latency samples kept per target (the first ones) */
	/* --pending: target 0 probes pending_cycles times, the others park one call each */
	bool pending;
	int64_t pending_cycles;
	char name[200];
};

/* Per target. Target-written counters first; the supervisor's on their own line. */
struct target_slot {
	int64_t attempts;		/* trapped calls issued, reissues included */
	int64_t replies;		/* right answers received */
	int64_t eintr;			/* calls a signal interrupted (then reissued) */
	int64_t enosys;			/* the listener died under the target (it then leaves) */
	int64_t signals;		/* SIGUSR1 handled */
	int64_t end_ns;
	int64_t max_ns;
	int64_t nsamples;
	int32_t pid, tid;
	volatile int32_t in_call;	/* inside the trapped call: --kill lands mid-wait */
	int32_t kill_planned, kill_sent;	/* spawner */
	int32_t status;			/* wait status (threads: 0 / 256), spawner */
	int32_t exited;
	char bad[96];			/* a target's own first complaint */
	/* supervisor threads, atomically */
	int64_t recv_ok __attribute__((aligned(64)));
	int64_t send_ok, send_enoent, toctou_invalid;
} __attribute__((aligned(64)));

/* Per supervisor thread. */
struct sup_slot {
	int64_t syscalls;		/* every system call the strategy made */
	int64_t wakeups;		/* waits that returned work */
	int64_t notifs;			/* successful RECVs */
	int64_t recv_enoent, recv_eintr, send_enoent;
	int64_t batch_max;
	int64_t batch_hist[BATCH_BUCKETS];
	/* thread CPU time inside the listener's read() and write(), when the strategy measures it */
	int64_t read_cpu_ns, write_cpu_ns;
} __attribute__((aligned(64)));

struct stress_shared {
	uint32_t go;			/* futex word: 0 until every party is ready */
	volatile int32_t stop;		/* --duration elapsed: targets finish and leave */
	int32_t ready;			/* targets + supervisor done with setup */
	int32_t sup_threads;
	int32_t listeners;
	volatile int32_t sup_died;	/* --listener-death: the supervisor left on purpose */
	int32_t sup_fds_before, sup_fds_after;
	int32_t failed;			/* set once error holds the first failure's reason */
	int32_t fail_claimed;		/* the first stress_fail() writes error; the others return */
	int64_t go_ns;
	int64_t go_deadline_ns;		/* past it nobody waits for go any more (the run's --timeout) */
	int64_t sent_total;		/* --listener-death: replies sent so far */
	int64_t death_after;
	int64_t sup_cpu_ns;
	int64_t signals_sent, kills_sent;
	char error[STRESS_ERROR_LEN];
};

/* The one mapping; arrays sized for the largest run of the invocation. */
struct stress_mem {
	struct stress_shared *sh;
	struct target_slot *t;
	struct sup_slot *s;
	int64_t *samples;		/* a run's target i at samples[i * config.sample_cap] */
	int max_targets, max_threads;
	size_t len;
};

int stress_mem_map(struct stress_mem *m, int max_targets, int max_threads, int64_t max_samples);
void stress_mem_reset(struct stress_mem *m, int targets, int threads);
void stress_mem_unmap(struct stress_mem *m);

/* First failure of the run, from any process (first writer wins). Returns -EPROTO. */
__attribute__((format(printf, 2, 3)))
int stress_fail(struct stress_mem *m, const char *fmt, ...);

/* Requests target idx makes (0: until --duration ends). */
int64_t stress_requests_of(const struct config *c, int idx);

/* Arguments every trapped call carries (the kernel ignores them for getppid):
 * args[3] the request's sequence number, args[4] the target index. */
#define ARG_SEQ 3
#define ARG_IDX 4

/* The value an emulating supervisor returns for (target, seq): proves the right reply came back. */
static inline int64_t stress_expect(int idx, int64_t seq)
{
	return (0x4b4eLL << 40) | ((int64_t)idx << 20) | (seq & 0xfffff);
}

/* --toctou: the path target idx passes with request seq, and the reply it expects for it. */
int stress_path(char *buf, size_t len, int idx, int64_t seq);
int64_t stress_path_hash(const char *path);

/* The trapped system call: getppid, or faccessat with --toctou (a path argument). */
int stress_syscall_nr(const struct config *c);

/* Open descriptors of the calling process (/proc/self/fd), -errno. */
int count_fds(void);

/*
 * Futex on a MAP_SHARED word: every process waits for go, but never past
 * go_deadline_ns: 0 when released, -ETIMEDOUT when the orchestrator never said go.
 */
int go_wait(struct stress_mem *m);
void go_release(struct stress_mem *m);

const char *topology_name(enum topology t);

#endif
