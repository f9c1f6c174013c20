/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --events: the ring buffer's records written to the stream, with the
 * records of interrupted calls whose number no supervisor had received yet
 * (KT_F_UNCONFIRMED, the trace's first calls) held back: each is written
 * once a RECV of its number shows it was a notification (the programs
 * count it then too), or dropped at the end.
 */
#ifndef KNOTIF_TRACE_EVENTS_H
#define KNOTIF_TRACE_EVENTS_H

#include <stddef.h>

#include "knotif_trace.h"
#include "trace_report.h"

struct knotif_trace_bpf;
struct ring_buffer;

#define HELD_MAX 4096

struct event_sink {
	struct report *r;
	const struct knotif_trace_bpf *skel;
	struct ring_buffer *rb;
	struct kt_event held[HELD_MAX];
	size_t nheld;
	unsigned long long held_lost;	/* past HELD_MAX: said at the end */
};

/* The stream's header, and the ring buffer opened: 0, or -errno having said why. */
int event_sink_open(struct event_sink *k, struct report *r, const struct knotif_trace_bpf *skel);

/* Up to timeout_ms for records, then those confirmed written: 0 or -errno (-EINTR: a signal). */
int event_sink_poll(struct event_sink *k, int timeout_ms);

/* At the end: the records left, the held ones confirmed; says what could not be written. */
void event_sink_drain(struct event_sink *k);

void event_sink_free(struct event_sink *k);

#endif
