/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --empty-programs, a measuring aid: each per-event probe the run would
 * load gives its hook to a program of two instructions (r0 = 0; exit),
 * loaded and attached here beside the skeleton, so that the cost left is
 * the hooks' dispatch alone. Made here rather than compiled beside each
 * probe: twelve copies of the same two instructions in the object. Each
 * is named empty_<event> (empty_queued for tp_queued), as --prog-stats
 * lists it.
 */
#ifndef KNOTIF_TRACE_EMPTY_PROBES_H
#define KNOTIF_TRACE_EMPTY_PROBES_H

#include <stdio.h>

#include <linux/types.h>

struct knotif_trace_bpf;

#define EMPTY_PROBES_MAX 12	/* the skeleton's per-event probes */

struct empty_probe {
	char name[32];		/* empty_<event> */
	const char *hook;	/* the probe's section, e.g. "tp_btf/sched_switch" */
	int attach_type;	/* enum bpf_attach_type: BPF_TRACE_RAW_TP or BPF_TRACE_FENTRY */
	int prog_fd, link_fd;
};

struct empty_probes {
	int count;
	struct empty_probe probe[EMPTY_PROBES_MAX];
};

/*
 * A tracing program of two instructions at the hook btf_id names
 * (attach_type BPF_TRACE_RAW_TP or BPF_TRACE_FENTRY): its fd, or -errno.
 * Also source.c's trial of fentry.
 */
int empty_prog_load(const char *name, int attach_type, __u32 btf_id);
/* Between open and load: the per-event probes set to load step aside for empty ones. */
void empty_probes_take(struct empty_probes *e, struct knotif_trace_bpf *skel);
/* Load them (0, or -errno with the reason in why), attach them, close them. */
int empty_probes_load(struct empty_probes *e, char *why, size_t len);
int empty_probes_attach(struct empty_probes *e, char *why, size_t len);
void empty_probes_close(struct empty_probes *e);

#endif
