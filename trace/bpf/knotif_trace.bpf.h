/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What knotif-trace's BPF programs share, whichever probe source they serve:
 * the knobs user space sets before load, the maps and globals (those one
 * source alone uses live in its file), the counters and histograms, a
 * task's state, and how a notification ends. Every .bpf.c of this folder
 * includes it and nothing else of the folder; knotif_trace.bpf.c makes the
 * one object of them all, so what is defined here is defined once in it.
 */
#ifndef KNOTIF_TRACE_BPF_H
#define KNOTIF_TRACE_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "knotif_trace.h"

#define ADDFD_FLAG_SEND	0x2U		/* include/uapi/linux/seccomp.h */
#define NOTIF_FLAG_CONTINUE 0x1U
#define ENOSYS_		38

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

/* set (never cleared) before the first task state goes to task storage; user space sets it too */
bool storage_used;
/* CLOCK_MONOTONIC ns once the programs attached (the done source's start; ~0 until then) */
__u64 attach_ns;

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

/* REPLIED, now. */
static __always_inline void mark_replied(struct kt_task *st, int kind, __u8 flags)
{
	st->replied = bpf_ktime_get_ns();
	st->flags |= flags;
	if (!counted_at_end(kind))
		count(kind, KT_REPLIED);
}

#endif
