// SPDX-License-Identifier: GPL-2.0
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
#include "knotif_trace.bpf.h"

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
