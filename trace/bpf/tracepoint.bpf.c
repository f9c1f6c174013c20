// SPDX-License-Identifier: GPL-2.0
/*
 * The tracepoint source: seccomp:seccomp_notif_* of kernel/patches (the
 * tracepoints), exact states.
 *
 * The events in the target's own context (queued, addfd, interrupted,
 * resumed, listener_gone with id 0) use current's state; received, replied
 * and listener_gone of a closing listener come from the supervisor and name
 * the target by pid: its slot, found without a task reference. tp_btf, not
 * raw_tp: bpf_task_from_pid() (a target in task storage) is for
 * BPF_PROG_TYPE_TRACING.
 */
#include "knotif_trace.bpf.h"

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
