/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the BPF side (bpf/) and the user side share: the transition counters
 * and per-phase histograms the kernel side aggregates, the per-notification
 * record it streams only when asked (--events), and the histogram's slots.
 */
#ifndef KNOTIF_TRACE_H
#define KNOTIF_TRACE_H

#define KT_COMM_LEN 16

/* Where the timeline comes from; chosen at run time. */
enum kt_source {
	KT_SRC_DONE,		/* seccomp:seccomp_notif_done (patched kernel): the kernel's moments */
	KT_SRC_TRACEPOINT,	/* seccomp:seccomp_notif_* transitions (patched kernel): exact states */
	KT_SRC_FENTRY,		/* fentry on __seccomp_filter + the sched reconstruction */
	KT_SRC_SCHED,		/* syscalls + sched tracepoints only: reconstructed */
	KT_SRC_COUNT
};

/* What intercepted the call. */
enum kt_kind {
	KT_UNOTIF,		/* SECCOMP_RET_USER_NOTIF */
	KT_PTRACE,		/* SECCOMP_RET_TRACE: a PTRACE_EVENT_SECCOMP stop */
	KT_KIND_COUNT
};

/*
 * Transitions. For ptrace, QUEUED is the stop, SENT the tracer's wait4()
 * returning it, REPLIED the tracer's resuming ptrace() request.
 */
enum kt_transition {
	KT_QUEUED,		/* INIT: queued, target asleep */
	KT_SENT,		/* the listener received it */
	KT_REPLIED,		/* the listener answered */
	KT_ADDFD,		/* a file ADDFD installed (sched, fentry: an ADDFD the target woke for) */
	KT_RESUMED,		/* the target left the call with the reply */
	KT_INTERRUPTED,		/* a signal ended the wait */
	KT_ENOSYS,		/* no listener, or it went away: ENOSYS */
	KT_UNEXPLAINED,		/* left the call with no reply, signal or ENOSYS seen */
	KT_NO_QUEUE_STAMP,	/* received, but the queue moment was not seen */
	KT_REPLY_FAILED,	/* SEND/ADDFD returned an error (e.g. ENOENT) */
	KT_REPLY_UNSEEN,	/* replied (the call returned its answer), moment not seen */
	KT_TRANSITION_COUNT
};

enum kt_outcome {
	KT_OUT_RESUMED,
	KT_OUT_INTERRUPTED,
	KT_OUT_ENOSYS,
	KT_OUT_UNEXPLAINED,
};

/*
 * Phases of a round trip. Each needs both of its moments seen; a
 * notification that was interrupted or failed has none (it is counted).
 */
enum kt_phase {
	KT_PH_QUEUE_WAIT,	/* queued → sent: until the listener picked it up */
	KT_PH_THINK,		/* sent → replied: the supervisor's own work */
	KT_PH_WAKE,		/* replied → resumed: wake-up to the target's exit */
	KT_PH_ROUND_TRIP,	/* queued → resumed, only when the three above are known */
	KT_PHASE_COUNT
};

#define KT_F_CONTINUE	0x1	/* replied with SECCOMP_USER_NOTIF_FLAG_CONTINUE */
#define KT_F_ADDFD	0x2	/* replied by ADDFD with SECCOMP_ADDFD_FLAG_SEND */
#define KT_F_REPLY_LOST	0x4	/* replied, but the target was interrupted first */
#define KT_F_REPLY_UNSEEN 0x8	/* replied while the target was still awake: no wake-up to see */
#define KT_F_NO_QUEUE_STAMP 0x10 /* the queue moment was not seen (counted no_queue_stamp) */
#define KT_F_UNCONFIRMED 0x20	/* interrupted, its number not yet received: knotif-trace holds it */

/* Exact counts, one copy per CPU (BPF_MAP_TYPE_PERCPU_ARRAY, one element). */
struct kt_counts {
	unsigned long long n[KT_KIND_COUNT][KT_TRANSITION_COUNT];
	unsigned long long events_dropped;	/* --events records the ring buffer had no room for */
	unsigned long long state_unavailable;	/* task storage could not be had: not followed */
};

/*
 * A phase's histogram, HDR-style: a value below 2^KT_SUB_BITS ns has a slot
 * of its own; above, each power of two [2^e, 2^(e+1)) is cut into
 * 2^KT_SUB_BITS equal slots of width 2^(e - KT_SUB_BITS). A slot's midpoint
 * is then within 2^-(KT_SUB_BITS + 1) = 0.78% of any value in it. Values
 * from 2^KT_MAX_EXP ns (18 minutes) on share the last slot.
 */
#define KT_SUB_BITS	6
#define KT_SUB		(1 << KT_SUB_BITS)
#define KT_MAX_EXP	40
#define KT_HIST_SLOTS	((KT_MAX_EXP - KT_SUB_BITS + 1) * KT_SUB + 1)

/*
 * A phase's histogram as the kernel side keeps it: what a value costs there
 * is a slot increment, its sum and two compares. The number of values is
 * the sum of the slots, and min is kept complemented (the largest ~v), so
 * that the zeroed map needs no "first value?" test: both are derived when
 * read (hist_from_kernel()).
 */
struct kt_khist {
	unsigned long long sum, max, min_inv;	/* ns; min = ~min_inv when a slot is not 0 */
	unsigned long long slot[KT_HIST_SLOTS];
};

/*
 * All phases of one kind on one CPU, so that a finished notification looks
 * up one value for its four histograms: an array value per CPU and kind
 * (key cpu * KT_KIND_COUNT + kind), not a per-CPU array (whose values may
 * not exceed 32 KiB; these are about 72 KiB).
 */
struct kt_phases {
	struct kt_khist ph[KT_PHASE_COUNT];
};

/* A phase's histogram read back (over CPUs, or between two reads): count and min made explicit. */
struct kt_hist {
	unsigned long long count, sum, min, max;	/* ns; min and max valid when count */
	unsigned long long slot[KT_HIST_SLOTS];
};

/*
 * floor(log2(i)) for 0 < i < 1024 (0 for 0), the one step of kt_slot()
 * where a CPU would count leading zeros (BPF cannot).
 */
#define KT_L2_2(n)	n, n
#define KT_L2_4(n)	KT_L2_2(n), KT_L2_2(n)
#define KT_L2_8(n)	KT_L2_4(n), KT_L2_4(n)
#define KT_L2_16(n)	KT_L2_8(n), KT_L2_8(n)
#define KT_L2_32(n)	KT_L2_16(n), KT_L2_16(n)
#define KT_L2_64(n)	KT_L2_32(n), KT_L2_32(n)
#define KT_L2_128(n)	KT_L2_64(n), KT_L2_64(n)
#define KT_L2_256(n)	KT_L2_128(n), KT_L2_128(n)
#define KT_L2_512(n)	KT_L2_256(n), KT_L2_256(n)
static const unsigned char kt_log2_10[1024] = {
	0, 0, KT_L2_2(1), KT_L2_4(2), KT_L2_8(3), KT_L2_16(4), KT_L2_32(5), KT_L2_64(6),
	KT_L2_128(7), KT_L2_256(8), KT_L2_512(9),
};

/*
 * A value's slot. With e = floor(log2(v)) and sh = e - KT_SUB_BITS (0 below
 * 2^KT_SUB_BITS), the slot is (sh << KT_SUB_BITS) + (v >> sh): v >> sh
 * keeps v's top KT_SUB_BITS + 1 bits. sh is read from kt_log2_10[] of v's
 * bits above the lowest 6, 16, 26 or 36, the first test that holds: a value
 * below 2^16 ns (65 µs, most phases of a round trip) costs one test and one
 * table load. The kernel side runs this for every phase of every
 * notification. 64-bit throughout: a 32-bit value costs BPF two shifts each
 * time it meets a 64-bit one.
 */
_Static_assert(KT_SUB_BITS == 6 && KT_MAX_EXP > 36 && KT_MAX_EXP <= 46, "kt_slot()'s levels are for 6 sub-bucket bits");

static inline unsigned long long kt_slot(unsigned long long v)
{
	unsigned long long sh;

	if (v < (1ULL << 16))
		sh = kt_log2_10[v >> KT_SUB_BITS];
	else if (v < (1ULL << 26))
		sh = kt_log2_10[v >> 16] + 10;
	else if (v < (1ULL << 36))
		sh = kt_log2_10[v >> 26] + 20;
	else if (v < (1ULL << KT_MAX_EXP))
		sh = kt_log2_10[v >> 36] + 30;
	else
		return KT_HIST_SLOTS - 1;
	return (sh << KT_SUB_BITS) + (v >> sh);
}

/* One finished notification (--events only); a time is 0 when that moment was not seen. */
struct kt_event {
	unsigned long long queued_ns, sent_ns, replied_ns, resumed_ns;	/* CLOCK_MONOTONIC */
	unsigned long long id;		/* notification id (0 for ptrace) */
	long long ret;			/* the target's syscall result */
	unsigned int pid, tgid;		/* target thread and process */
	unsigned int sup_pid;		/* supervisor (listener or tracer) thread */
	int nr;				/* syscall number */
	unsigned char kind, outcome, flags, pad;
	char comm[KT_COMM_LEN];		/* target */
};

/*
 * One per task we know: a target's notification in flight, or a
 * supervisor's mark. It lives in the slot array, at its thread id modulo
 * KT_TASK_SLOTS (found from a task or from a pid with one array lookup,
 * which the JIT inlines), and is freed when the task exits. A task whose
 * slot another live task holds, and a thread of --pid that appeared after
 * the tracer attached, get it in task local storage instead (a helper call
 * dearer per probe, looked at only once some task is there). User space
 * writes it for the threads of --pid and for COMMAND, the fork probe for
 * what they fork.
 */
#define KT_TASK_SLOTS	8192	/* by default; a power of two (--task-slots) */

struct kt_task {
	unsigned long long tid;		/* the slot's owner; 0: free (unused in task storage); 64 bits for cmpxchg */
	unsigned long long queued, sent, replied;	/* CLOCK_MONOTONIC ns, 0 = not yet */
	unsigned long long id;
	unsigned int sup_tgid, sup_pid;
	int nr;				/* syscall of the queued stamp / the notification */
	int last_nr;			/* syscall of the last finished notification */
	unsigned char kind, flags;
	unsigned char active;		/* SENT (or queued, tracepoint source) seen: finishes at the exit */
	unsigned char tracked;		/* has been notified at least once */
	unsigned char interrupted, gone;	/* tracepoint source: seen before resumed */
	unsigned char supervisor;	/* has received notifications: never stamped */
	unsigned char selected;		/* in the --pid / COMMAND tree */
};

#endif
