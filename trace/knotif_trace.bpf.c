// SPDX-License-Identifier: GPL-2.0
/*
 * knotif-trace's kernel side: follows every seccomp user notification (and
 * every SECCOMP_RET_TRACE ptrace stop) from queued to resumed, and
 * aggregates here: exact transition counts and per-phase histograms, a
 * copy per CPU, that user space reads at exit or every --interval. A record
 * per notification goes to the ring buffer only when --events asks for it.
 *
 * Four probe sources, picked by source.c before load (the losers'
 * programs get autoload off):
 *  - done: seccomp:seccomp_notif_done of the patched kernel, one event per
 *    notification with the kernel's own moments: no state, no clock here;
 *  - tracepoint: seccomp:seccomp_notif_* transitions of the patched kernel,
 *    exact states;
 *  - sched: stock tracepoints only. Queued = the target, inside the trapped
 *    syscall, wakes someone or goes to sleep (whichever comes first); SENT =
 *    the supervisor's NOTIF_RECV ioctl returns naming the target; REPLIED =
 *    the supervisor, inside NOTIF_SEND (or ADDFD with FLAG_SEND), wakes the
 *    target; resumed = the target's syscall exit. The ptrace timeline is
 *    built the same way from the stop, the tracer's wait4() and its resuming
 *    ptrace() request.
 *  - fentry: the sched source, with queued taken exactly at __seccomp_filter.
 *
 * Per-notification state lives in the target's slot of an array indexed by
 * its thread id (found from current, from a woken task, or from the pid an
 * event names, in one inlined array lookup: no helper call, no task
 * reference), with task local storage only for a task whose slot another
 * live task holds. A task we do not know has no slot, and every probe leaves
 * after that one lookup. x86-64 only: syscall numbers and pt_regs fields
 * below are that ABI's.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "knotif_trace.h"

char LICENSE[] SEC("license") = "GPL";

#define NR_ioctl	16
#define NR_wait4	61
#define NR_ptrace	101

/* include/uapi/linux/seccomp.h; _IOWR('!', n, struct …) spelled out */
#define NOTIF_RECV	0xc0502100U
#define NOTIF_SEND	0xc0182101U
#define NOTIF_ADDFD	0x40182103U
#define ADDFD_FLAG_SEND	0x2U
#define NOTIF_FLAG_CONTINUE 0x1U

#define PTRACE_CONT_	7
#define PTRACE_KILL_	8
#define PTRACE_SINGLESTEP_ 9
#define PTRACE_DETACH_	17
#define PTRACE_SYSCALL_	24
#define PTRACE_SYSEMU_	31
#define PTRACE_SYSEMU_SINGLESTEP_ 32
#define PTRACE_EVENT_SECCOMP_ 7
#define SIGTRAP_	5

#define TASK_SLEEPING	(0x1 | 0x2 | 0x8)	/* INTERRUPTIBLE | UNINTERRUPTIBLE | __TRACED */
#define ENOSYS_		38
#define SECCOMP_MODE_FILTER_ 2
#define KT_NR_WORDS	8	/* notified_nrs: call numbers 0-511 */
#define KT_NR_MAX	(KT_NR_WORDS * 64)

/* knobs set by user space before load */
const volatile bool use_tree;			/* only --pid's or COMMAND's tasks and their children */
const volatile char targ_comm[KT_COMM_LEN];	/* "": any */
const volatile bool have_filter;
/* false with the tracepoint source: the seccomp events replace the ioctl reconstruction */
const volatile bool unotif_from_syscalls = true;
const volatile bool want_ptrace = true;		/* --kinds includes ptrace */
const volatile bool want_events;		/* --events: a record per notification */
const volatile __u32 slot_mask = KT_TASK_SLOTS - 1;	/* the slot array's size - 1 (--task-slots) */

extern struct task_struct *bpf_task_from_pid(s32 pid) __ksym;
extern void bpf_task_release(struct task_struct *p) __ksym;

/* a task's state, at its thread id modulo KT_TASK_SLOTS, while it holds that slot */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, KT_TASK_SLOTS);
	__type(key, __u32);
	__type(value, struct kt_task);
} slots SEC(".maps");

/* the state of a task whose slot was taken: dearer to reach, so looked at only when storage_used */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct kt_task);
} tasks SEC(".maps");

/* set (never cleared) before the first task state goes to task storage; user space sets it too */
bool storage_used;
/* CLOCK_MONOTONIC ns once the programs attached (the done source's start; ~0 until then) */
__u64 attach_ns;
/*
 * The system calls a supervisor has received a notification for, one bit
 * each: a call interrupted before any RECV is known to be a notification
 * only by its number (see on_sys_exit). Set once, read on every exit.
 */
__u64 notified_nrs[KT_NR_WORDS];
/* per number: interrupted calls seen before any RECV of it, counted once one comes */
__u64 unconfirmed[KT_NR_MAX];

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kt_counts);
} counts SEC(".maps");

/* every phase of a kind on a CPU in one value (key cpu * KT_KIND_COUNT + kind) */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, KT_KIND_COUNT);	/* user space: possible CPUs * KT_KIND_COUNT */
	__type(key, __u32);
	__type(value, struct kt_phases);
} hists SEC(".maps");

/* --events only; user space shrinks it to one page otherwise */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 16 << 20);
} events SEC(".maps");

/*
 * Waking the reader for every record costs an irq_work and a context switch
 * per notification (it doubled a same-CPU round trip): wake it only once a
 * quarter of the ring is full; it also polls on a short timeout.
 */
#define WAKE_AT (4 << 20)

/*
 * Counters may be bumped from a wake-up in interrupt context on top of a
 * probe of the same CPU: atomic adds keep them exact. The histograms are
 * written only at the target's own syscall exit or resumed event (process
 * context, preemption off: a tracepoint's), on this CPU's value, so plain
 * stores suffice there.
 */
static __always_inline struct kt_counts *counts_here(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&counts, &zero);
}

static __always_inline void count_n(struct kt_counts *c, int kind, int t, __u64 n)
{
	if (c && kind >= 0 && kind < KT_KIND_COUNT && t >= 0 && t < KT_TRANSITION_COUNT)
		__sync_fetch_and_add(&c->n[kind][t], n);
}

static __always_inline void count_in(struct kt_counts *c, int kind, int t)
{
	count_n(c, kind, t, 1);
}

static __always_inline void count(int kind, int t)
{
	count_in(counts_here(), kind, t);
}

/*
 * The tracepoint source counts a notification's queued, sent and replied
 * moments when it ends (finish(): the moments' stamps say which were seen),
 * in the one counter access finish() makes anyway, not one per event.
 */
static __always_inline bool counted_at_end(int kind)
{
	return kind == KT_UNOTIF && !unotif_from_syscalls;
}

static __always_inline void count_other(bool dropped)
{
	__u32 zero = 0;
	struct kt_counts *c = bpf_map_lookup_elem(&counts, &zero);

	if (!c)
		return;
	if (dropped)
		__sync_fetch_and_add(&c->events_dropped, 1);
	else
		__sync_fetch_and_add(&c->state_unavailable, 1);
}

static __always_inline void hist_add(struct kt_khist *h, __u64 v)
{
	__u64 slot = kt_slot(v);

	if (~v > h->min_inv)
		h->min_inv = ~v;
	if (v > h->max)
		h->max = v;
	h->sum += v;
	barrier_var(slot);
	if (slot >= KT_HIST_SLOTS)
		return;		/* never: for the verifier */
	h->slot[slot]++;
}

static __always_inline bool comm_passes(struct task_struct *task)
{
	if (!targ_comm[0])
		return true;
	for (int i = 0; i < KT_COMM_LEN; i++) {
		char c = task->comm[i];

		if (c != targ_comm[i])
			return false;
		if (!c)
			break;
	}
	return true;
}

/* Selected by --pid/COMMAND/--comm; without a filter everybody is. */
static __always_inline bool task_passes(struct task_struct *task, struct kt_task *st)
{
	if (!have_filter)
		return true;
	if (use_tree && (!st || !st->selected))
		return false;
	return comm_passes(task);
}

static __always_inline struct kt_task *slot_of(__u32 tid)
{
	__u32 key = tid & slot_mask;

	return bpf_map_lookup_elem(&slots, &key);
}

/* Thread tid's state when it holds its slot (tid 0, the idle task, never has one). */
static __always_inline struct kt_task *slot_state(__u32 tid)
{
	struct kt_task *st = slot_of(tid);

	return st && tid && st->tid == tid ? st : NULL;
}

static __always_inline struct kt_task *task_state(struct task_struct *task)
{
	struct kt_task *st = slot_state(task->pid);

	if (st || !storage_used)
		return st;
	return bpf_task_storage_get(&tasks, task, 0, 0);
}

/*
 * The state of the task an event names by pid (the global pid: the
 * tracepoints' and, assumed, the listener's). Only a task kept in task
 * storage needs its task_struct, and a reference to it.
 */
static __always_inline struct kt_task *pid_state(pid_t pid)
{
	struct task_struct *task;
	struct kt_task *st = slot_state(pid);

	if (st || !storage_used)
		return st;
	task = bpf_task_from_pid(pid);
	if (!task)
		return NULL;
	/* the storage outlives the reference: it is freed under RCU, which this program holds */
	st = bpf_task_storage_get(&tasks, task, 0, 0);
	bpf_task_release(task);
	return st;
}

/*
 * A task's state from now on: its slot when free (taken atomically: another
 * CPU may want it for another task), else its task storage.
 */
static __always_inline struct kt_task *task_state_new(struct task_struct *task)
{
	__u32 tid = task->pid;
	struct kt_task *st = slot_of(tid);

	if (st && tid) {
		if (st->tid == tid)
			return st;
		if (__sync_val_compare_and_swap(&st->tid, 0, tid) == 0)
			return st;	/* a freed slot is all zeros */
	}
	storage_used = true;
	st = bpf_task_storage_get(&tasks, task, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!st)
		count_other(false);
	return st;
}

/* Frees task's slot: every field zeroed before the owner, so that a new owner finds it clean. */
static __always_inline void slot_free(__u32 tid)
{
	struct kt_task *st = slot_state(tid);

	if (!st)
		return;
	st->queued = st->sent = st->replied = st->id = 0;
	st->sup_tgid = st->sup_pid = 0;
	st->nr = st->last_nr = 0;
	st->kind = st->flags = st->active = st->tracked = 0;
	st->interrupted = st->gone = st->supervisor = st->selected = 0;
	barrier();
	__sync_fetch_and_and(&st->tid, 0);	/* a full barrier, then free */
}

/* A slot is freed when its task exits (before its pid can be reused). */
SEC("tp_btf/sched_process_exit")
int BPF_PROG(on_exit, struct task_struct *p)
{
	slot_free(p->pid);
	return 0;
}

/*
 * A thread other than the leader that calls execve() takes the leader's
 * pid: its state moves to the slot of that pid (the old leader exited and
 * freed it). Task storage follows the task by itself.
 */
SEC("tp_btf/sched_process_exec")
int BPF_PROG(on_exec, struct task_struct *p, pid_t old_pid)
{
	struct kt_task *old, *st;

	if (old_pid == p->pid)
		return 0;
	old = slot_state(old_pid);
	if (!old)
		return 0;
	st = task_state_new(p);
	if (st) {
		st->selected = old->selected;
		st->supervisor = old->supervisor;
		st->tracked = old->tracked;
		st->last_nr = old->last_nr;
	}
	slot_free(old_pid);
	return 0;
}

/*
 * The state of a task whose wake-ups and sleeps may be queue moments. Only
 * a --comm filter alone makes it here (a tree filter has it made at fork,
 * no filter when a supervisor first names the target: a new target's first
 * notification then lacks its queue stamp, counted, never guessed).
 */
static __always_inline struct kt_task *sched_state(struct task_struct *task)
{
	struct kt_task *st = task_state(task);

	if (st || !have_filter || use_tree || !comm_passes(task))
		return st;
	return task_state_new(task);
}

/*
 * Queued candidate: the first wake-up or sleep of a task inside a syscall
 * that has not reached its dispatch yet (x86 keeps ax = -ENOSYS until then;
 * a page fault or a finished syscall does not, so they never stamp).
 */
static __always_inline void stamp_queue(struct task_struct *task, struct kt_task *st)
{
	struct pt_regs *regs;

	if (st->queued || st->active || st->supervisor || !task_passes(task, st))
		return;
	regs = (struct pt_regs *)bpf_task_pt_regs(task);
	if (!regs || regs->ax != (unsigned long)-ENOSYS_)
		return;
	st->queued = bpf_ktime_get_ns();
	st->nr = (__s32)regs->orig_ax;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(on_switch, bool preempt, struct task_struct *prev, struct task_struct *next,
	     unsigned int prev_state)
{
	struct kt_task *st;

	if (!(prev_state & TASK_SLEEPING))
		return 0;
	st = sched_state(prev);
	if (st)
		stamp_queue(prev, st);
	return 0;
}

/* With a tree filter: what a selected task forks (threads too) is selected. */
SEC("tp_btf/sched_process_fork")
int BPF_PROG(on_fork, struct task_struct *parent, struct task_struct *child)
{
	struct kt_task *pst = task_state(parent), *cst;

	if (!pst || !pst->selected)
		return 0;
	cst = task_state_new(child);
	if (cst)
		cst->selected = 1;
	return 0;
}

static __always_inline bool interrupted_ret(long ret)
{
	return ret == -512 || ret == -513 || ret == -514 || ret == -516;	/* -ERESTART* */
}

static __always_inline __s64 span(__u64 from, __u64 to)
{
	return from && to && to >= from ? (__s64)(to - from) : -1;
}

/* the queue moment, or 0 where mark_sent() counted no_queue_stamp (a racing stamp may stand there) */
static __always_inline __u64 queue_stamp(const struct kt_task *st)
{
	return st->flags & KT_F_NO_QUEUE_STAMP ? 0 : st->queued;
}

static __always_inline void emit(struct kt_task *st, __u32 tid, struct task_struct *task, long ret,
				 __u64 now, int outcome)
{
	struct kt_event *e;

	if (!want_events)
		return;
	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		count_other(true);
		return;
	}
	e->queued_ns = queue_stamp(st);
	e->sent_ns = st->sent;
	e->replied_ns = st->replied;
	e->resumed_ns = now;
	e->id = st->id;
	e->ret = ret;
	e->pid = tid;
	e->tgid = task->tgid;
	e->sup_pid = st->sup_pid;
	e->nr = st->nr;
	e->kind = st->kind;
	e->outcome = (__u8)outcome;
	e->flags = st->flags;
	e->pad = 0;
	for (int i = 0; i < KT_COMM_LEN; i++)
		e->comm[i] = task->comm[i];	/* direct BTF reads: no helper call */
	bpf_ringbuf_submit(e, bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA) >= WAKE_AT ?
			   BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP);
}

/* A resumed notification's phases, into this CPU's histograms (the same rules as trace_report.c's). */
static __always_inline void add_phases(struct kt_task *st, __u64 now)
{
	__u64 queued = queue_stamp(st);
	__s64 qw = span(queued, st->sent), th = span(st->sent, st->replied);
	__s64 wk = span(st->replied, now);
	__u32 key = bpf_get_smp_processor_id() * KT_KIND_COUNT +
		    (st->kind == KT_PTRACE ? KT_PTRACE : KT_UNOTIF);
	struct kt_phases *p = bpf_map_lookup_elem(&hists, &key);

	if (!p)
		return;
	if (qw >= 0)
		hist_add(&p->ph[KT_PH_QUEUE_WAIT], qw);
	if (th >= 0)
		hist_add(&p->ph[KT_PH_THINK], th);
	if (wk >= 0)
		hist_add(&p->ph[KT_PH_WAKE], wk);
	if (qw >= 0 && th >= 0 && wk >= 0)
		hist_add(&p->ph[KT_PH_ROUND_TRIP], now - queued);
}

/* The target leaves a call that a supervisor received: counted, its phases added, state reset. */
static __always_inline void finish(struct kt_task *st, __u32 tid, struct task_struct *task, long ret,
				   __u64 now)
{
	struct kt_counts *c = counts_here();
	int outcome;

	if (counted_at_end(st->kind)) {
		if (st->queued)
			count_in(c, KT_UNOTIF, KT_QUEUED);
		if (st->sent)
			count_in(c, KT_UNOTIF, KT_SENT);
		if (st->replied)
			count_in(c, KT_UNOTIF, KT_REPLIED);
	}
	if (st->interrupted || interrupted_ret(ret)) {
		outcome = KT_OUT_INTERRUPTED;
		if (st->replied)
			st->flags |= KT_F_REPLY_LOST;
		count_in(c, st->kind, KT_INTERRUPTED);
	} else if (st->gone || (!st->replied && ret == -ENOSYS_)) {
		outcome = KT_OUT_ENOSYS;
		count_in(c, st->kind, KT_ENOSYS);
	} else if (st->replied) {
		outcome = KT_OUT_RESUMED;
		count_in(c, st->kind, KT_RESUMED);
		add_phases(st, now);
	} else if (st->kind == KT_UNOTIF) {
		/*
		 * Only a reply ends a notification with anything but -ERESTART* or
		 * ENOSYS. It came while the target was still awake (a supervisor on
		 * another CPU answering before the target slept), so no wake-up
		 * showed its moment: counted, its phases left unknown.
		 */
		outcome = KT_OUT_RESUMED;
		st->flags |= KT_F_REPLY_UNSEEN;
		count_in(c, st->kind, KT_REPLIED);
		count_in(c, st->kind, KT_REPLY_UNSEEN);
		count_in(c, st->kind, KT_RESUMED);
		add_phases(st, now);	/* the queue wait, if seen */
	} else {
		outcome = KT_OUT_UNEXPLAINED;
		count_in(c, st->kind, KT_UNEXPLAINED);
	}
	emit(st, tid, task, ret, now, outcome);
	st->last_nr = st->nr;
	st->queued = st->sent = st->replied = 0;
	st->active = st->interrupted = st->gone = 0;
	st->flags = 0;
}

/*
 * The state of target task as a supervisor (current) takes its
 * notification or stop: created when the supervisor is selected, so that a
 * target that is not (another process, --pid of the supervisor) is still
 * followed.
 */
static __always_inline struct kt_task *target_state(pid_t pid, struct kt_task *sup)
{
	struct kt_task *st = pid_state(pid);
	struct task_struct *task;

	if (st)
		return st;
	if (have_filter && !task_passes(bpf_get_current_task_btf(), sup))
		return NULL;
	task = bpf_task_from_pid(pid);
	if (!task)
		return NULL;
	st = task_state_new(task);
	bpf_task_release(task);
	return st;
}

/* the word of notified_nrs for nr, masked so that the verifier sees the bound */
static __always_inline __u64 *nr_word(long nr)
{
	if (nr < 0 || nr >= KT_NR_MAX)
		return NULL;
	return &notified_nrs[((__u32)nr / 64) & (KT_NR_WORDS - 1)];
}

static __always_inline bool was_notified_nr(long nr)
{
	__u64 *w = nr_word(nr);

	return w && (*w & (1ULL << (nr & 63)));
}

/*
 * The interrupted calls of nr held back until a RECV of nr showed it is
 * notified: counted now. An exchange, so that each is counted once by
 * whoever takes it (the first RECV, or a late exit that saw the bit set).
 */
static __always_inline void fold_unconfirmed(long nr)
{
	__u64 n = __sync_lock_test_and_set(&unconfirmed[nr & (KT_NR_MAX - 1)], 0);
	struct kt_counts *c;

	if (n) {
		c = counts_here();
		count_n(c, KT_UNOTIF, KT_NO_QUEUE_STAMP, n);
		count_n(c, KT_UNOTIF, KT_INTERRUPTED, n);
	}
}

static __always_inline void note_notified_nr(__s32 nr)
{
	__u64 *w = nr_word(nr), bit = 1ULL << (nr & 63);

	if (w && !(*w & bit)) {
		__sync_fetch_and_or(w, bit);
		fold_unconfirmed(nr);
	}
}

/*
 * A target leaves a call with a signal's -ERESTART* before any supervisor
 * received it: a notification ended by a signal (SIGKILL too: the syscall
 * exit comes before the task dies). Often it never slept (the signal was
 * pending when it queued, and a busy supervisor was not woken), so there
 * is no queue stamp to go by; it is known by its number instead: a task
 * under a filter, in a call of a number some supervisor receives in the
 * trace (before, or later: such a call is held back until then, and
 * dropped if none comes). What this cannot tell apart, said here and in
 * trace/README.md: an interrupted call of a notified number that this
 * task's filter let through (counted).
 */
static __always_inline bool interrupted_unreceived(struct task_struct *cur, struct kt_task *st,
						   long nr, long ret)
{
	return !st->active && interrupted_ret(ret) && nr >= 0 && nr < KT_NR_MAX &&
	       cur->seccomp.mode == SECCOMP_MODE_FILTER_;
}

/*
 * SENT (the supervisor has it). The queue stamp counts only when it is the
 * same call's (nr_ok) and came first: a supervisor already running on
 * another CPU takes a notification without being woken, and the target's
 * sleep may come after this moment.
 */
static __always_inline void mark_sent(struct kt_task *st, int kind, __u64 id, bool nr_ok, __u64 now)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();

	count(kind, KT_SENT);
	if (st->queued && st->queued <= now && nr_ok && !st->active) {
		count(kind, KT_QUEUED);
		st->flags = 0;
	} else {
		/*
		 * A stale or foreign stamp must not become a phase. The flag, not
		 * only queued = 0: the target's stamp_queue() on another CPU may
		 * have read active == 0 just before this and still write a stamp.
		 */
		st->queued = 0;
		st->flags = KT_F_NO_QUEUE_STAMP;
		count(kind, KT_NO_QUEUE_STAMP);
	}
	st->kind = (__u8)kind;
	st->id = id;
	st->sent = now;
	st->replied = 0;
	st->sup_tgid = pid_tgid >> 32;
	st->sup_pid = (__u32)pid_tgid;
	st->active = 1;
	st->tracked = 1;
}

/*
 * Current takes notifications (or ptrace stops) of a target we follow: its
 * wake-ups are replies from now on, and its sleeps and wake-ups are never
 * queue moments (a supervisor that is itself a notified target loses its
 * own queue stamps: counted as no_queue_stamp).
 */
static __always_inline struct kt_task *mark_supervisor(struct task_struct *cur, struct kt_task *sup)
{
	if (!sup)
		sup = task_state_new(cur);
	if (sup)
		sup->supervisor = 1;
	return sup;
}

/* A supervisor's NOTIF_RECV returned 0: the notification is SENT. */
static __always_inline void on_recv(struct task_struct *cur, struct kt_task *sup, unsigned long uptr)
{
	struct {
		__u64 id;
		__u32 pid, flags;
		__s32 nr;
	} n;
	struct kt_task *st;

	if (bpf_probe_read_user(&n, sizeof(n), (void *)uptr))
		return;
	/* the listener's pid namespace: the tracer's own is assumed */
	st = target_state(n.pid, sup);
	if (st) {
		mark_sent(st, KT_UNOTIF, n.id, st->nr == n.nr, bpf_ktime_get_ns());
		st->nr = n.nr;
		note_notified_nr(n.nr);
		mark_supervisor(cur, sup);
	}
}

/* REPLIED, now. */
static __always_inline void mark_replied(struct kt_task *st, int kind, __u8 flags)
{
	st->replied = bpf_ktime_get_ns();
	st->flags |= flags;
	if (!counted_at_end(kind))
		count(kind, KT_REPLIED);
}

static __always_inline bool resumes(long req)
{
	return req == PTRACE_CONT_ || req == PTRACE_SYSCALL_ || req == PTRACE_DETACH_ ||
	       req == PTRACE_SINGLESTEP_ || req == PTRACE_KILL_ || req == PTRACE_SYSEMU_ ||
	       req == PTRACE_SYSEMU_SINGLESTEP_;
}

/*
 * REPLIED: the supervisor, inside NOTIF_SEND (or ADDFD with FLAG_SEND, or a
 * resuming ptrace request), wakes the target it answers. Its registers say
 * which call it is in, so no sys_enter probe has to run for every syscall.
 */
static __always_inline void on_wake_target(struct task_struct *cur, struct task_struct *p)
{
	struct kt_task *st = task_state(p);
	struct pt_regs *regs;
	unsigned int cmd;
	__u64 arg[3];
	long nr;

	if (!st || !st->active || st->replied || !st->sent)
		return;
	regs = (struct pt_regs *)bpf_task_pt_regs(cur);
	if (!regs)
		return;
	nr = (long)regs->orig_ax;
	if (st->kind == KT_PTRACE) {
		if (nr == NR_ptrace && resumes((long)regs->di) && (__u32)regs->si == (__u32)p->pid)
			mark_replied(st, KT_PTRACE, 0);
		return;
	}
	if (nr != NR_ioctl || !unotif_from_syscalls || cur->tgid != st->sup_tgid)
		return;
	/*
	 * struct seccomp_notif_resp {u64 id; s64 val; s32 error; u32 flags} and
	 * struct seccomp_notif_addfd {u64 id; u32 flags; u32 srcfd, newfd,
	 * newfd_flags} are both 24 bytes: one read serves either.
	 */
	cmd = (unsigned int)regs->si;
	if ((cmd != NOTIF_SEND && cmd != NOTIF_ADDFD) ||
	    bpf_probe_read_user(&arg, sizeof(arg), (void *)regs->dx) || arg[0] != st->id)
		return;
	if (cmd == NOTIF_SEND) {
		mark_replied(st, KT_UNOTIF, (arg[2] >> 32) & NOTIF_FLAG_CONTINUE ? KT_F_CONTINUE : 0);
		return;
	}
	count(KT_UNOTIF, KT_ADDFD);
	if ((__u32)arg[1] & ADDFD_FLAG_SEND)
		mark_replied(st, KT_UNOTIF, KT_F_ADDFD);
}

SEC("tp_btf/sched_waking")
int BPF_PROG(on_waking, struct task_struct *p)
{
	struct task_struct *cur = bpf_get_current_task_btf();
	struct kt_task *st = sched_state(cur);

	if (!st)
		return 0;
	/* a supervisor wakes its target to reply; a target wakes its supervisor */
	if (st->supervisor)
		on_wake_target(cur, p);
	else
		stamp_queue(cur, st);
	return 0;
}

/* The tracer's wait4() returned child: a seccomp stop becomes SENT; any other stop voids stamps. */
static __always_inline void on_wait4_exit(struct task_struct *cur, struct kt_task *sup,
					  struct pt_regs *regs, long child)
{
	int *ustatus = (int *)regs->si;
	struct kt_task *st;
	int status;

	if (!ustatus || bpf_probe_read_user(&status, sizeof(status), ustatus))
		return;
	if ((status & 0xff) != 0x7f)
		return;		/* not a stop */
	if (status >> 8 != (SIGTRAP_ | (PTRACE_EVENT_SECCOMP_ << 8))) {
		st = pid_state((pid_t)child);
		if (st && !st->active)
			st->queued = 0;	/* a signal or syscall stop: not ours */
	} else {
		st = target_state((pid_t)child, sup);
		if (st) {
			mark_sent(st, KT_PTRACE, 0, true, bpf_ktime_get_ns());
			mark_supervisor(cur, sup);
		}
	}
}

SEC("tp_btf/sys_exit")
int BPF_PROG(on_sys_exit, struct pt_regs *regs, long ret)
{
	struct task_struct *cur = bpf_get_current_task_btf();
	long nr = (long)regs->orig_ax;
	struct kt_task *st = task_state(cur);

	if (nr == NR_ioctl && unotif_from_syscalls) {
		unsigned int cmd = (unsigned int)regs->si;

		if (cmd == NOTIF_RECV && ret == 0)
			on_recv(cur, st, regs->dx);
		else if ((cmd == NOTIF_SEND || cmd == NOTIF_ADDFD) && ret < 0 && st && st->supervisor)
			count(KT_UNOTIF, KT_REPLY_FAILED);	/* ENOENT: the target left */
		return 0;	/* a supervisor's own ioctl is never a notified call */
	}
	if (nr == NR_wait4 && ret > 0 && want_ptrace) {
		on_wait4_exit(cur, st, regs, ret);
		return 0;
	}
	if (!st)
		return 0;	/* not a task we know: the common case, done */
	if (unotif_from_syscalls && interrupted_unreceived(cur, st, nr, ret)) {
		bool known = was_notified_nr(nr);

		if (st->nr != nr || !known)
			st->queued = 0;	/* a stamp of another call, or of one not yet known */
		st->nr = (__s32)nr;
		st->kind = KT_UNOTIF;
		st->id = 0;
		st->sent = st->replied = 0;
		st->sup_pid = st->sup_tgid = 0;	/* nobody received it */
		st->flags = st->queued ? 0 : KT_F_NO_QUEUE_STAMP;
		if (known) {
			struct kt_counts *c = counts_here();

			count_in(c, KT_UNOTIF, st->queued ? KT_QUEUED : KT_NO_QUEUE_STAMP);
			count_in(c, KT_UNOTIF, KT_INTERRUPTED);
		} else {
			/*
			 * No RECV of this number yet (the trace's first calls):
			 * held back, counted if one comes (fold_unconfirmed());
			 * the record says so, and knotif-trace holds it too.
			 */
			__sync_fetch_and_add(&unconfirmed[nr & (KT_NR_MAX - 1)], 1);
			if (was_notified_nr(nr))
				fold_unconfirmed(nr);	/* the RECV came meanwhile */
			st->flags |= KT_F_UNCONFIRMED;
		}
		emit(st, cur->pid, cur, ret, bpf_ktime_get_ns(), KT_OUT_INTERRUPTED);
		if (known) {
			st->tracked = 1;
			st->last_nr = (__s32)nr;
		}
		st->queued = 0;
		st->flags = 0;
		return 0;
	}
	if (!st->active && !st->tracked) {
		st->queued = 0;
		return 0;
	}
	if (st->active && st->kind == KT_UNOTIF && unotif_from_syscalls && nr != st->nr) {
		/*
		 * The RECV's exit was traced after the target had already left
		 * the call (counted above as interrupted before any RECV): this
		 * exit is another call's (rt_sigreturn's, with -EINTR restored),
		 * and the stale state must not count it.
		 */
		st->active = 0;
		st->queued = 0;
		return 0;
	}
	if (st->active && (st->kind == KT_PTRACE || unotif_from_syscalls)) {
		finish(st, cur->pid, cur, ret, bpf_ktime_get_ns());
	} else if (st->tracked && unotif_from_syscalls && ret == -ENOSYS_ && nr == st->last_nr &&
		   st->kind == KT_UNOTIF) {
		/* no listener any more: the filter answered ENOSYS without queueing */
		st->nr = (__s32)nr;
		st->id = 0;
		st->sent = st->replied = 0;
		count(KT_UNOTIF, KT_ENOSYS);
		emit(st, cur->pid, cur, ret, bpf_ktime_get_ns(), KT_OUT_ENOSYS);
		st->queued = 0;
	} else {
		st->queued = 0;
	}
	return 0;
}

/* ---- source fentry: the moment seccomp runs the filter, exactly ---- */

SEC("fentry/__seccomp_filter")
int BPF_PROG(fentry_seccomp_filter, int this_syscall, bool recheck_after_trace)
{
	struct task_struct *cur = bpf_get_current_task_btf();
	struct kt_task *st = sched_state(cur);

	if (st && !st->active && !recheck_after_trace && task_passes(cur, st)) {
		st->queued = bpf_ktime_get_ns();
		st->nr = this_syscall;
	}
	return 0;
}

/* ---- source tracepoint: seccomp:seccomp_notif_* (kernel/patches, the tracepoints) ---- */

/*
 * The events in the target's own context (queued, addfd, interrupted,
 * resumed, listener_gone with id 0) use current's state; received, replied
 * and listener_gone of a closing listener come from the supervisor and name
 * the target by pid: its slot, found without a task reference. tp_btf, not
 * raw_tp: bpf_task_from_pid() (a target in task storage) is for
 * BPF_PROG_TYPE_TRACING.
 */
static __always_inline bool tp_same(struct kt_task *st, __u64 id)
{
	return st && st->active && st->id == id;
}

/* the target's own state, made when it is selected */
static __always_inline struct kt_task *tp_current(void)
{
	struct task_struct *cur = bpf_get_current_task_btf();
	struct kt_task *st = task_state(cur);

	if (!task_passes(cur, st))
		return NULL;
	return st ? st : task_state_new(cur);
}

SEC("tp_btf/seccomp_notif_queued")
int BPF_PROG(tp_queued, __u64 filter, __u64 id, pid_t pid, int nr)
{
	struct kt_task *st = tp_current();

	if (!st)
		return 0;
	st->queued = bpf_ktime_get_ns();
	st->sent = st->replied = 0;
	st->id = id;
	st->nr = nr;
	st->kind = KT_UNOTIF;
	st->flags = 0;
	st->active = 1;
	st->tracked = 1;
	st->interrupted = st->gone = 0;
	return 0;	/* counted when it ends */
}

SEC("tp_btf/seccomp_notif_received")
int BPF_PROG(tp_received, __u64 filter, __u64 id, pid_t pid, int nr)
{
	struct kt_task *st = pid_state(pid);

	if (!tp_same(st, id))
		return 0;
	st->sent = bpf_ktime_get_ns();
	if (want_events) {	/* only the stream says who received it */
		__u64 pid_tgid = bpf_get_current_pid_tgid();

		st->sup_tgid = pid_tgid >> 32;
		st->sup_pid = (__u32)pid_tgid;
	}
	return 0;	/* counted when it ends */
}

SEC("tp_btf/seccomp_notif_replied")
int BPF_PROG(tp_replied, __u64 filter, __u64 id, pid_t pid, int nr, int error, __s64 val, __u32 flags)
{
	struct kt_task *st = pid_state(pid);

	/*
	 * An ADDFD with FLAG_SEND is traced as addfd, then (kernel/patches
	 * from issue 10 on) as replied too: the addfd event marked it already.
	 */
	if (tp_same(st, id) && !st->replied)
		mark_replied(st, KT_UNOTIF, flags & NOTIF_FLAG_CONTINUE ? KT_F_CONTINUE : 0);
	return 0;
}

SEC("tp_btf/seccomp_notif_addfd")
int BPF_PROG(tp_addfd, __u64 filter, __u64 id, pid_t pid, int nr, int fd, __u32 flags)
{
	struct kt_task *st = task_state(bpf_get_current_task_btf());

	if (!tp_same(st, id))
		return 0;
	if (fd < 0)
		return 0;	/* nothing installed: counted by no source */
	count(KT_UNOTIF, KT_ADDFD);
	if (flags & ADDFD_FLAG_SEND) {
		/* the target marks itself REPLIED: there is no replied event for it */
		mark_replied(st, KT_UNOTIF, KT_F_ADDFD);
	}
	return 0;
}

SEC("tp_btf/seccomp_notif_interrupted")
int BPF_PROG(tp_interrupted, __u64 filter, __u64 id, pid_t pid, int nr, int err)
{
	struct kt_task *st = task_state(bpf_get_current_task_btf());

	if (tp_same(st, id))
		st->interrupted = 1;
	return 0;
}

SEC("tp_btf/seccomp_notif_listener_gone")
int BPF_PROG(tp_listener_gone, __u64 filter, __u64 id, pid_t pid, int nr)
{
	struct kt_task *st;

	if (id == 0) {
		/* no listener at all, in the target's own context: no queued event came */
		st = tp_current();
		if (st) {
			st->queued = st->sent = st->replied = 0;
			st->id = 0;
			st->nr = nr;
			st->kind = KT_UNOTIF;
			st->flags = 0;
			st->active = 1;
			st->gone = 1;
		}
		return 0;
	}
	st = pid_state(pid);
	if (tp_same(st, id))
		st->gone = 1;
	return 0;
}

SEC("tp_btf/seccomp_notif_resumed")
int BPF_PROG(tp_resumed, __u64 filter, __u64 id, pid_t pid, int nr, int error, __s64 val, bool cont)
{
	struct task_struct *cur = bpf_get_current_task_btf();
	struct kt_task *st = task_state(cur);

	if (!tp_same(st, id))
		return 0;
	finish(st, cur->pid, cur, error ? error : val, bpf_ktime_get_ns());
	return 0;
}

/*
 * The done source: one event when a notification ends, carrying one
 * pointer to the notification's record (struct seccomp_notif_record): its
 * moments (CLOCK_MONOTONIC ns, which the kernel takes only while the event
 * is enabled), its outcome, its result. The pointer is a tp_btf argument,
 * trusted: its fields are plain loads. The program keeps no
 * state between events and reads no clock; it counts and bins as finish()
 * does, without finish()'s inference: the kernel says how it ended. It is
 * the tracer's cost on every notification, so it stays straight-line: the
 * counters by constant index, the four phases without span()'s tests
 * (every moment of a notification queued after the attach was taken).
 */
struct seccomp_notif_times___kt {
	__u64 queued, received, replied, resumed;
} __attribute__((preserve_access_index));

struct seccomp_notif_record___kt {
	__u64 id;
	struct seccomp_notif_times___kt times;
	__s64 val;
	int nr, error;
	__u32 outcome, addfd;
} __attribute__((preserve_access_index));

/* enum seccomp_notif_outcome of kernel/patches' include/trace/events/seccomp.h */
#define DONE_CONTINUED		1
#define DONE_ADDFD_REPLIED	2
#define DONE_INTERRUPTED	3
#define DONE_KILLED		4
#define DONE_NO_LISTENER	5

/* --events: the record finish() would stream for it */
static __always_inline void emit_done(struct task_struct *cur,
				      const struct seccomp_notif_record___kt *r)
{
	struct kt_task n = {
		.queued = r->times.queued, .sent = r->times.received,
		.replied = r->times.replied, .id = r->id, .nr = r->nr, .kind = KT_UNOTIF,
	};
	__u32 outcome = r->outcome;
	int out = KT_OUT_RESUMED;

	if (outcome == DONE_CONTINUED)
		n.flags = KT_F_CONTINUE;
	else if (outcome == DONE_ADDFD_REPLIED)
		n.flags = KT_F_ADDFD;
	if (outcome == DONE_NO_LISTENER) {
		out = KT_OUT_ENOSYS;
	} else if (outcome >= DONE_INTERRUPTED) {
		out = KT_OUT_INTERRUPTED;
		if (n.replied)
			n.flags |= KT_F_REPLY_LOST;
	}
	emit(&n, cur->pid, cur, r->error ? r->error : r->val, r->times.resumed, out);
}

SEC("tp_btf/seccomp_notif_done")
int BPF_PROG(tp_done, const struct seccomp_notif_record___kt *r)
{
	struct task_struct *cur = bpf_get_current_task_btf();
	__u64 queued = r->times.queued, sent, replied, resumed;
	__u32 outcome, addfd;
	unsigned long long *n;
	struct kt_counts *c;
	struct kt_phases *p;
	__u32 key;

	/*
	 * Queued before this tracer attached: not seen whole. The event fires
	 * for a notification queued while it is enabled, and that state is
	 * shared by every consumer: such a one has another consumer's moments.
	 * No listener at all has id 0 and no queue moment.
	 */
	if (queued < attach_ns && r->id)
		return 0;
	if (have_filter && !task_passes(cur, task_state(cur)))
		return 0;
	c = counts_here();
	if (!c)
		return 0;
	n = c->n[KT_UNOTIF];
	outcome = r->outcome;
	addfd = r->addfd;
	if (addfd)
		__sync_fetch_and_add(&n[KT_ADDFD], addfd);
	if (outcome < DONE_INTERRUPTED) {
		/* replied: every moment was taken (the common case, no tests) */
		__sync_fetch_and_add(&n[KT_QUEUED], 1);
		__sync_fetch_and_add(&n[KT_SENT], 1);
		__sync_fetch_and_add(&n[KT_REPLIED], 1);
		__sync_fetch_and_add(&n[KT_RESUMED], 1);
		key = bpf_get_smp_processor_id() * KT_KIND_COUNT + KT_UNOTIF;
		p = bpf_map_lookup_elem(&hists, &key);
		if (p) {
			sent = r->times.received;
			replied = r->times.replied;
			resumed = r->times.resumed;
			hist_add(&p->ph[KT_PH_QUEUE_WAIT], sent - queued);
			hist_add(&p->ph[KT_PH_THINK], replied - sent);
			hist_add(&p->ph[KT_PH_WAKE], resumed - replied);
			hist_add(&p->ph[KT_PH_ROUND_TRIP], resumed - queued);
		}
	} else {
		if (queued)
			__sync_fetch_and_add(&n[KT_QUEUED], 1);
		if (r->times.received)
			__sync_fetch_and_add(&n[KT_SENT], 1);
		if (r->times.replied)
			__sync_fetch_and_add(&n[KT_REPLIED], 1);
		__sync_fetch_and_add(&n[outcome == DONE_NO_LISTENER ? KT_ENOSYS : KT_INTERRUPTED], 1);
	}
	if (want_events)
		emit_done(cur, r);
	return 0;
}

/*
 * --empty-programs, a measuring aid: twins of the per-event probes that
 * return at once, loaded instead of them (the cost left is the probes'
 * dispatch alone). Twins rather than a test in each probe: a knob, even
 * one the verifier folds, leaves its load in every run.
 */
SEC("tp_btf/seccomp_notif_queued")
int empty_queued(void *ctx)
{
	return 0;
}

SEC("tp_btf/seccomp_notif_received")
int empty_received(void *ctx)
{
	return 0;
}

SEC("tp_btf/seccomp_notif_replied")
int empty_replied(void *ctx)
{
	return 0;
}

SEC("tp_btf/seccomp_notif_addfd")
int empty_addfd(void *ctx)
{
	return 0;
}

SEC("tp_btf/seccomp_notif_interrupted")
int empty_interrupted(void *ctx)
{
	return 0;
}

SEC("tp_btf/seccomp_notif_listener_gone")
int empty_listener_gone(void *ctx)
{
	return 0;
}

SEC("tp_btf/seccomp_notif_resumed")
int empty_resumed(void *ctx)
{
	return 0;
}

SEC("tp_btf/seccomp_notif_done")
int empty_done(void *ctx)
{
	return 0;
}

SEC("tp_btf/sys_exit")
int empty_sys_exit(void *ctx)
{
	return 0;
}

SEC("tp_btf/sched_switch")
int empty_switch(void *ctx)
{
	return 0;
}

SEC("tp_btf/sched_waking")
int empty_waking(void *ctx)
{
	return 0;
}

SEC("fentry/__seccomp_filter")
int empty_seccomp_filter(void *ctx)
{
	return 0;
}
