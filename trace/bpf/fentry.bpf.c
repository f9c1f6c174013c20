// SPDX-License-Identifier: GPL-2.0
/*
 * The fentry source: the sched source (sched.bpf.c), with the queue moment
 * taken exactly when seccomp runs the filter.
 */
#include "knotif_trace.bpf.h"

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
