// SPDX-License-Identifier: GPL-2.0
/*
 * knotif-trace's kernel side: follows every seccomp user notification (and
 * every SECCOMP_RET_TRACE ptrace stop) from queued to resumed and hands one
 * kt_event per notification to user space through a ring buffer.
 *
 * Three probe sources, picked by knotif_trace.c before load (the losers'
 * programs get autoload off):
 *  - tracepoint: seccomp:seccomp_notif_* of the patched kernel, exact states;
 *  - sched: stock tracepoints only. Queued = the target, inside the trapped
 *    syscall, wakes someone or goes to sleep (whichever comes first); SENT =
 *    the supervisor's NOTIF_RECV ioctl returns naming the target; REPLIED =
 *    NOTIF_SEND (or ADDFD with FLAG_SEND) entered; resumed = the target's
 *    syscall exit. The ptrace timeline is built the same way from the stop,
 *    the tracer's wait4() and its resuming ptrace() request.
 *  - fentry: the sched source, with queued taken exactly at __seccomp_filter.
 * x86-64 only: syscall numbers and pt_regs fields below are that ABI's.
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

/* knobs set by user space before load */
const volatile bool use_tree;			/* only processes in `tree` (--pid, COMMAND) */
const volatile char targ_comm[KT_COMM_LEN];	/* "": any */
const volatile bool have_filter;
/* false with the tracepoint source: the seccomp events replace the ioctl reconstruction */
const volatile bool unotif_from_syscalls = true;

__u64 counts[KT_KIND_COUNT][KT_TRANSITION_COUNT];
__u64 events_dropped;
__u64 map_full;

/* One per thread that may be a target: its notification in flight. */
struct tstate {
	__u64 queued, sent, replied;	/* CLOCK_MONOTONIC ns, 0 = not yet */
	__u64 id;
	__u32 sup_tgid, sup_pid;
	__s32 nr;			/* syscall of the queued stamp / the notification */
	__s32 last_nr;			/* syscall of the last finished notification */
	__u8 kind, flags;
	__u8 active;			/* SENT seen: finishes at the target's exit */
	__u8 tracked;			/* has been notified at least once */
	__u8 interrupted, gone;		/* tracepoint source: seen before resumed */
	__u8 supervisor;		/* has received notifications: never stamped */
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, struct tstate);
} tstates SEC(".maps");


/* Selected processes: --pid's or COMMAND's, and every process they fork. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);
	__type(key, __u32);
	__type(value, __u8);
} tree SEC(".maps");

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

static __always_inline void count(int kind, int t)
{
	if (kind >= 0 && kind < KT_KIND_COUNT && t >= 0 && t < KT_TRANSITION_COUNT)
		__sync_fetch_and_add(&counts[kind][t], 1);
}

static __always_inline bool task_passes(struct task_struct *task)
{
	__u32 tgid = task->tgid;

	if (!have_filter)
		return true;
	if (use_tree && !bpf_map_lookup_elem(&tree, &tgid))
		return false;
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

/*
 * The state of tid; created only for a task the filter selects (without a
 * filter only tasks already known as targets are followed, so a new target's
 * first notification lacks its queue stamp: counted, never guessed).
 */
static __always_inline struct tstate *tstate_of(__u32 tid, struct task_struct *task, bool create)
{
	struct tstate *st = bpf_map_lookup_elem(&tstates, &tid), zero = {};

	if (st || !create || !have_filter || !task_passes(task))
		return st;
	if (bpf_map_update_elem(&tstates, &tid, &zero, BPF_NOEXIST)) {
		__sync_fetch_and_add(&map_full, 1);
		return NULL;
	}
	return bpf_map_lookup_elem(&tstates, &tid);
}

/*
 * Queued candidate: the first wake-up or sleep of a task inside a syscall
 * that has not reached its dispatch yet (x86 keeps ax = -ENOSYS until then;
 * a page fault or a finished syscall does not, so they never stamp).
 */
static __always_inline void stamp_queue(struct task_struct *task, struct tstate *st)
{
	struct pt_regs *regs;

	if (!st || st->queued || st->active || st->supervisor)
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
	if (prev_state & TASK_SLEEPING)
		stamp_queue(prev, tstate_of(prev->pid, prev, true));
	return 0;
}

SEC("tp_btf/sched_process_fork")
int BPF_PROG(on_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 ptgid = parent->tgid, ctgid = child->tgid;
	__u8 one = 1;

	if (use_tree && ptgid != ctgid && bpf_map_lookup_elem(&tree, &ptgid))
		bpf_map_update_elem(&tree, &ctgid, &one, BPF_ANY);
	return 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(on_exit, struct task_struct *p)
{
	__u32 tid = p->pid;

	bpf_map_delete_elem(&tstates, &tid);
	if (p->pid == p->tgid)
		bpf_map_delete_elem(&tree, &tid);	/* its pid may be reused by a stranger */
	return 0;
}

static __always_inline bool interrupted_ret(long ret)
{
	return ret == -512 || ret == -513 || ret == -514 || ret == -516;	/* -ERESTART* */
}

static __always_inline void emit(struct tstate *st, __u32 tid, struct task_struct *task, long ret,
				 __u64 now, int outcome)
{
	struct kt_event *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);

	if (!e) {
		__sync_fetch_and_add(&events_dropped, 1);
		return;
	}
	e->queued_ns = st->queued;
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

/* The target leaves a call that a supervisor received: one event, state reset. */
static __always_inline void finish(struct tstate *st, __u32 tid, struct task_struct *task, long ret,
				   __u64 now)
{
	int outcome;

	if (st->interrupted || interrupted_ret(ret)) {
		outcome = KT_OUT_INTERRUPTED;
		if (st->replied)
			st->flags |= KT_F_REPLY_LOST;
		count(st->kind, KT_INTERRUPTED);
	} else if (st->gone || (!st->replied && ret == -ENOSYS_)) {
		outcome = KT_OUT_ENOSYS;
		count(st->kind, KT_ENOSYS);
	} else if (st->replied) {
		outcome = KT_OUT_RESUMED;
		count(st->kind, KT_RESUMED);
	} else if (st->kind == KT_UNOTIF) {
		/*
		 * Only a reply ends a notification with anything but -ERESTART* or
		 * ENOSYS. It came while the target was still awake (a supervisor on
		 * another CPU answering before the target slept), so no wake-up
		 * showed its moment: counted, its phases left unknown.
		 */
		outcome = KT_OUT_RESUMED;
		st->flags |= KT_F_REPLY_UNSEEN;
		count(st->kind, KT_REPLIED);
		count(st->kind, KT_REPLY_UNSEEN);
		count(st->kind, KT_RESUMED);
	} else {
		outcome = KT_OUT_UNEXPLAINED;
		count(st->kind, KT_UNEXPLAINED);
	}
	emit(st, tid, task, ret, now, outcome);
	st->last_nr = st->nr;
	st->queued = st->sent = st->replied = 0;
	st->active = st->interrupted = st->gone = 0;
	st->flags = 0;
}

/*
 * The state of target tid as a supervisor (current) takes its notification
 * or stop: created when the supervisor is selected, so that a target that is
 * not (another process, --pid of the supervisor) is still followed.
 */
static __always_inline struct tstate *target_state(__u32 tid)
{
	struct tstate *st = bpf_map_lookup_elem(&tstates, &tid), zero = {};

	if (st)
		return st;
	if (have_filter && !task_passes(bpf_get_current_task_btf()))
		return NULL;
	if (bpf_map_update_elem(&tstates, &tid, &zero, BPF_NOEXIST))
		__sync_fetch_and_add(&map_full, 1);
	return bpf_map_lookup_elem(&tstates, &tid);
}

/*
 * SENT (the supervisor has it). The queue stamp counts only when it is the
 * same call's (nr_ok) and came first: a supervisor already running on
 * another CPU takes a notification without being woken, and the target's
 * sleep may come after this moment.
 */
static __always_inline void mark_sent(struct tstate *st, int kind, __u64 id, bool nr_ok, __u64 now)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();

	count(kind, KT_SENT);
	if (st->queued && st->queued <= now && nr_ok && !st->active) {
		count(kind, KT_QUEUED);
	} else {
		st->queued = 0;	/* a stale or foreign stamp must not become a phase */
		count(kind, KT_NO_QUEUE_STAMP);
	}
	st->kind = (__u8)kind;
	st->id = id;
	st->sent = now;
	st->replied = 0;
	st->flags = 0;
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
static __always_inline void mark_supervisor(void)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct tstate *st = bpf_map_lookup_elem(&tstates, &tid), zero = { .supervisor = 1 };

	if (st)
		st->supervisor = 1;
	else if (bpf_map_update_elem(&tstates, &tid, &zero, BPF_NOEXIST))
		__sync_fetch_and_add(&map_full, 1);
}

/* A supervisor's NOTIF_RECV returned 0: the notification is SENT. */
static __always_inline void on_recv(unsigned long uptr, __u64 now)
{
	struct {
		__u64 id;
		__u32 pid, flags;
		__s32 nr;
	} n;
	struct tstate *st;

	if (bpf_probe_read_user(&n, sizeof(n), (void *)uptr))
		return;
	mark_supervisor();
	/* the listener's pid namespace: the tracer's own is assumed */
	st = target_state(n.pid);
	if (!st)
		return;
	mark_sent(st, KT_UNOTIF, n.id, st->nr == n.nr, now);
	st->nr = n.nr;
}

/* REPLIED, now. */
static __always_inline void mark_replied(struct tstate *st, int kind, __u8 flags)
{
	st->replied = bpf_ktime_get_ns();
	st->flags |= flags;
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
	__u32 tid = p->pid;
	struct tstate *st = bpf_map_lookup_elem(&tstates, &tid);
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
		if (nr == NR_ptrace && resumes((long)regs->di) &&
		    (__u32)regs->si == tid) {
			mark_replied(st, KT_PTRACE, 0);
		}
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
	struct tstate *st = tstate_of(cur->pid, cur, true);

	/* a supervisor wakes its target to reply; a target wakes its supervisor */
	if (st && st->supervisor)
		on_wake_target(cur, p);
	else
		stamp_queue(cur, st);
	return 0;
}

/*
 * A SEND or ADDFD of a supervisor we follow failed (ENOENT: the target left).
 * No id map is kept for this rare case: the reply itself is matched to its
 * target at the wake-up, through the woken task.
 */
static __always_inline void on_reply_failed(void)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct tstate *st = bpf_map_lookup_elem(&tstates, &tid);

	if (st && st->supervisor)
		count(KT_UNOTIF, KT_REPLY_FAILED);
}

/* The tracer's wait4() returned child: a seccomp stop becomes SENT; any other stop voids stamps. */
static __always_inline void on_wait4_exit(struct pt_regs *regs, long child, __u64 now)
{
	int *ustatus = (int *)regs->si;
	__u32 tid = (__u32)child;
	struct tstate *st;
	int status;

	if (!ustatus || bpf_probe_read_user(&status, sizeof(status), ustatus))
		return;
	if ((status & 0xff) != 0x7f)
		return;		/* not a stop */
	if (status >> 8 != (SIGTRAP_ | (PTRACE_EVENT_SECCOMP_ << 8))) {
		st = bpf_map_lookup_elem(&tstates, &tid);
		if (st && !st->active)
			st->queued = 0;	/* a signal or syscall stop: not ours */
		return;
	}
	st = target_state(tid);
	if (!st)
		return;
	mark_sent(st, KT_PTRACE, 0, true, now);
	mark_supervisor();
}

SEC("tp_btf/sys_exit")
int BPF_PROG(on_sys_exit, struct pt_regs *regs, long ret)
{
	struct task_struct *cur;
	long nr = (long)regs->orig_ax;
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct tstate *st;
	__u64 now;

	if (nr == NR_ioctl && unotif_from_syscalls) {
		unsigned int cmd = (unsigned int)regs->si;

		if (cmd == NOTIF_RECV && ret == 0)
			on_recv(regs->dx, bpf_ktime_get_ns());
		else if ((cmd == NOTIF_SEND || cmd == NOTIF_ADDFD) && ret < 0)
			on_reply_failed();
	} else if (nr == NR_wait4 && ret > 0) {
		on_wait4_exit(regs, ret, bpf_ktime_get_ns());
	}

	st = bpf_map_lookup_elem(&tstates, &tid);
	if (!st)
		return 0;
	if (!st->active && !st->tracked) {
		st->queued = 0;
		return 0;
	}
	now = bpf_ktime_get_ns();
	cur = bpf_get_current_task_btf();
	if (st->active && (st->kind == KT_PTRACE || unotif_from_syscalls)) {
		finish(st, tid, cur, ret, now);
	} else if (st->tracked && unotif_from_syscalls && ret == -ENOSYS_ && nr == st->last_nr &&
		   st->kind == KT_UNOTIF) {
		/* no listener any more: the filter answered ENOSYS without queueing */
		st->nr = (__s32)nr;
		st->id = 0;
		st->sent = st->replied = 0;
		count(KT_UNOTIF, KT_ENOSYS);
		emit(st, tid, cur, ret, now, KT_OUT_ENOSYS);
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
	struct tstate *st = tstate_of(cur->pid, cur, true);

	if (st && !st->active && !recheck_after_trace) {
		st->queued = bpf_ktime_get_ns();
		st->nr = this_syscall;
	}
	return 0;
}

/* ---- source tracepoint: seccomp:seccomp_notif_* (kernel/patches/0001) ---- */

/* pid's state; created (when current is selected) only where pid's notification begins */
static __always_inline struct tstate *tp_state(pid_t pid, bool create_for_current)
{
	__u32 tid = (__u32)pid;

	return create_for_current ? target_state(tid) : bpf_map_lookup_elem(&tstates, &tid);
}

SEC("raw_tp/seccomp_notif_queued")
int BPF_PROG(tp_queued, __u64 filter, __u64 id, pid_t pid, int nr)
{
	struct tstate *st = tp_state(pid, true);

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
	count(KT_UNOTIF, KT_QUEUED);
	return 0;
}

SEC("raw_tp/seccomp_notif_received")
int BPF_PROG(tp_received, __u64 filter, __u64 id, pid_t pid, int nr)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	struct tstate *st = tp_state(pid, false);

	if (!st || st->id != id)
		return 0;
	st->sent = bpf_ktime_get_ns();
	st->sup_tgid = pid_tgid >> 32;
	st->sup_pid = (__u32)pid_tgid;
	count(KT_UNOTIF, KT_SENT);
	return 0;
}

SEC("raw_tp/seccomp_notif_replied")
int BPF_PROG(tp_replied, __u64 filter, __u64 id, pid_t pid, int nr, int error, __s64 val, __u32 flags)
{
	struct tstate *st = tp_state(pid, false);

	if (!st || st->id != id)
		return 0;
	mark_replied(st, KT_UNOTIF, flags & NOTIF_FLAG_CONTINUE ? KT_F_CONTINUE : 0);
	return 0;
}

SEC("raw_tp/seccomp_notif_addfd")
int BPF_PROG(tp_addfd, __u64 filter, __u64 id, pid_t pid, int nr, int fd, __u32 flags)
{
	struct tstate *st = tp_state(pid, false);

	if (!st || st->id != id)
		return 0;
	count(KT_UNOTIF, KT_ADDFD);
	if ((flags & ADDFD_FLAG_SEND) && fd >= 0) {
		/* the target marks itself REPLIED: there is no replied event for it */
		mark_replied(st, KT_UNOTIF, KT_F_ADDFD);
	}
	return 0;
}

SEC("raw_tp/seccomp_notif_interrupted")
int BPF_PROG(tp_interrupted, __u64 filter, __u64 id, pid_t pid, int nr, int err)
{
	struct tstate *st = tp_state(pid, false);

	if (st && st->id == id)
		st->interrupted = 1;
	return 0;
}

SEC("raw_tp/seccomp_notif_listener_gone")
int BPF_PROG(tp_listener_gone, __u64 filter, __u64 id, pid_t pid, int nr)
{
	/* id 0: no listener at all, in the target's own context: no queued event came */
	struct tstate *st = tp_state(pid, id == 0);

	if (!st)
		return 0;
	if (id == 0) {
		st->queued = st->sent = st->replied = 0;
		st->id = 0;
		st->nr = nr;
		st->kind = KT_UNOTIF;
		st->flags = 0;
		st->active = 1;
	} else if (st->id != id) {
		return 0;
	}
	st->gone = 1;
	return 0;
}

SEC("raw_tp/seccomp_notif_resumed")
int BPF_PROG(tp_resumed, __u64 filter, __u64 id, pid_t pid, int nr, int error, __s64 val, bool cont)
{
	struct tstate *st = tp_state(pid, false);

	if (!st || !st->active || st->id != id)
		return 0;
	finish(st, (__u32)pid, bpf_get_current_task_btf(), error ? error : val,
	       bpf_ktime_get_ns());
	return 0;
}
