/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What knotif_trace.bpf.c and knotif_trace.c share: one record per finished
 * notification (or ptrace seccomp stop), and the transition counters.
 */
#ifndef KNOTIF_TRACE_H
#define KNOTIF_TRACE_H

#define KT_COMM_LEN 16

/* Where the timeline comes from; chosen at run time. */
enum kt_source {
	KT_SRC_TRACEPOINT,	/* seccomp:seccomp_notif_* (patched kernel): exact states */
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
	KT_ADDFD,		/* an ADDFD ioctl (with or without FLAG_SEND) */
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

#define KT_F_CONTINUE	0x1	/* replied with SECCOMP_USER_NOTIF_FLAG_CONTINUE */
#define KT_F_ADDFD	0x2	/* replied by ADDFD with SECCOMP_ADDFD_FLAG_SEND */
#define KT_F_REPLY_LOST	0x4	/* replied, but the target was interrupted first */
#define KT_F_REPLY_UNSEEN 0x8	/* replied while the target was still awake: no wake-up to see */

/* One finished notification; a time is 0 when that moment was not seen. */
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

#endif
