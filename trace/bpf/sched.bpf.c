// SPDX-License-Identifier: GPL-2.0
/*
 * The sched source (and the fentry source's timeline after the queue
 * moment, and ptrace's under every source): stock tracepoints only, the
 * notification rebuilt from the target's wake-ups and sleeps, the
 * supervisor's ioctl()s and the syscall exits (knotif_trace.bpf.c says how).
 */
#include "knotif_trace.bpf.h"

#define NR_ioctl	16
#define NR_wait4	61
#define NR_ptrace	101

/* include/uapi/linux/seccomp.h; _IOWR('!', n, struct …) spelled out */
#define NOTIF_RECV	0xc0502100U
#define NOTIF_SEND	0xc0182101U
#define NOTIF_ADDFD	0x40182103U

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
#define SECCOMP_MODE_FILTER_ 2
#define KT_NR_WORDS	8	/* notified_nrs: call numbers 0-511 */
#define KT_NR_MAX	(KT_NR_WORDS * 64)

/*
 * The system calls a supervisor has received a notification for, one bit
 * each: a call interrupted before any RECV is known to be a notification
 * only by its number (see on_sys_exit). Set once, read on every exit.
 */
__u64 notified_nrs[KT_NR_WORDS];
/* per number: interrupted calls seen before any RECV of it, counted once one comes */
__u64 unconfirmed[KT_NR_MAX];

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
