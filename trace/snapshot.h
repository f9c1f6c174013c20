/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the kernel side has aggregated (struct trace_snapshot): its per-CPU
 * counts and histograms read and summed, and two reads differenced.
 */
#ifndef KNOTIF_TRACE_SNAPSHOT_H
#define KNOTIF_TRACE_SNAPSHOT_H

#include "trace_report.h"

struct knotif_trace_bpf;

/* 0, or -errno */
int snapshot_read(const struct knotif_trace_bpf *skel, struct trace_snapshot *s);

/* d = now - before: what happened between two reads */
void snapshot_delta(struct trace_snapshot *d, const struct trace_snapshot *now,
		    const struct trace_snapshot *before);

#endif
