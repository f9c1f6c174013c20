// SPDX-License-Identifier: GPL-2.0
#include "snapshot.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "hist.h"
#include "knotif_trace.skel.h"

int snapshot_read(const struct knotif_trace_bpf *skel, struct trace_snapshot *s)
{
	int ncpu = libbpf_num_possible_cpus();
	struct kt_counts *c;
	struct kt_phases *h;
	struct kt_hist one;
	__u32 key = 0;
	int err = 0;

	if (ncpu <= 0)
		return ncpu ? ncpu : -EINVAL;
	c = calloc((size_t)ncpu, sizeof(*c));
	h = calloc(1, sizeof(*h));
	memset(s, 0, sizeof(*s));
	if (!c || !h) {
		err = -ENOMEM;
		goto out;
	}
	if (bpf_map_lookup_elem(bpf_map__fd(skel->maps.counts), &key, c)) {
		err = -errno;
		goto out;
	}
	for (int cpu = 0; cpu < ncpu; cpu++) {
		for (int k = 0; k < KT_KIND_COUNT; k++)
			for (int t = 0; t < KT_TRANSITION_COUNT; t++)
				s->c.n[k][t] += c[cpu].n[k][t];
		s->c.events_dropped += c[cpu].events_dropped;
		s->c.state_unavailable += c[cpu].state_unavailable;
	}
	for (int cpu = 0; cpu < ncpu; cpu++) {
		for (int k = 0; k < KT_KIND_COUNT; k++) {
			key = (__u32)(cpu * KT_KIND_COUNT + k);
			if (bpf_map_lookup_elem(bpf_map__fd(skel->maps.hists), &key, h)) {
				err = -errno;
				goto out;
			}
			for (int p = 0; p < KT_PHASE_COUNT; p++) {
				hist_from_kernel(&one, &h->ph[p]);
				hist_merge(&s->h[k][p], &one);
			}
		}
	}
out:
	free(c);
	free(h);
	return err;
}

void snapshot_delta(struct trace_snapshot *d, const struct trace_snapshot *now,
		    const struct trace_snapshot *before)
{
	for (int k = 0; k < KT_KIND_COUNT; k++) {
		for (int t = 0; t < KT_TRANSITION_COUNT; t++)
			d->c.n[k][t] = now->c.n[k][t] - before->c.n[k][t];
		for (int p = 0; p < KT_PHASE_COUNT; p++)
			hist_delta(&d->h[k][p], &now->h[k][p], &before->h[k][p]);
	}
	d->c.events_dropped = now->c.events_dropped - before->c.events_dropped;
	d->c.state_unavailable = now->c.state_unavailable - before->c.state_unavailable;
}
