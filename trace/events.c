// SPDX-License-Identifier: GPL-2.0
#include "events.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "check.h"
#include "knotif_trace.skel.h"

static bool nr_notified(const struct event_sink *k, int nr)
{
	const volatile __u64 *bits = k->skel->bss->notified_nrs;
	size_t nwords = sizeof(k->skel->bss->notified_nrs) / sizeof(bits[0]);

	return nr >= 0 && (size_t)nr / 64 < nwords && (bits[nr / 64] >> (nr % 64) & 1);
}

static int sink_write(struct event_sink *k, struct kt_event *e)
{
	e->flags &= ~KT_F_UNCONFIRMED;
	return report_add(k->r, e);
}

/* writes the held records now confirmed; at_end, drops the rest */
static int sink_release(struct event_sink *k, bool at_end)
{
	size_t kept = 0;
	int err = 0;

	for (size_t i = 0; i < k->nheld; i++) {
		if (nr_notified(k, k->held[i].nr))
			err = err ? err : sink_write(k, &k->held[i]);
		else if (!at_end)
			k->held[kept++] = k->held[i];
	}
	k->nheld = kept;
	return err;
}

static int handle_event(void *ctx, void *data, size_t len)
{
	struct event_sink *k = ctx;
	struct kt_event e;

	if (len < sizeof(e))
		return -EPROTO;
	memcpy(&e, data, sizeof(e));
	if (!(e.flags & KT_F_UNCONFIRMED) || nr_notified(k, e.nr))
		return sink_write(k, &e);
	if (k->nheld == HELD_MAX) {
		k->held_lost++;
		return 0;
	}
	k->held[k->nheld++] = e;
	return 0;
}

int event_sink_open(struct event_sink *k, struct report *r, const struct knotif_trace_bpf *skel)
{
	report_stream_header(r);
	k->r = r;
	k->skel = skel;
	k->rb = ring_buffer__new(bpf_map__fd(skel->maps.events), handle_event, k, NULL);
	if (!k->rb) {
		int err = -errno;

		fprintf(stderr, "%s: ring buffer: %s\n", knotif_prog, strerror(-err));
		return err;
	}
	return 0;
}

int event_sink_poll(struct event_sink *k, int timeout_ms)
{
	int n = ring_buffer__poll(k->rb, timeout_ms);

	return n < 0 ? n : sink_release(k, false);
}

void event_sink_drain(struct event_sink *k)
{
	if (k->rb && (ring_buffer__consume(k->rb) < 0 || sink_release(k, true) < 0))
		fprintf(stderr, "%s: draining the last events failed\n", knotif_prog);
	if (k->held_lost)
		fprintf(stderr, "%s: warning: %llu records of calls interrupted before their "
			"number's first RECV were not kept (more than %d held at once); the counts "
			"hold them\n", knotif_prog, k->held_lost, HELD_MAX);
}

void event_sink_free(struct event_sink *k)
{
	ring_buffer__free(k->rb);
	k->rb = NULL;
}
