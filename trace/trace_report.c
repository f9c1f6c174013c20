// SPDX-License-Identifier: GPL-2.0
#include "trace_report.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "gbjson.h"
#include "hist.h"
#include "table.h"

const char *const phase_key[KT_PHASE_COUNT] = {
	[KT_PH_QUEUE_WAIT] = "queue_wait",
	[KT_PH_THINK] = "think",
	[KT_PH_WAKE] = "wake_to_resume",
	[KT_PH_ROUND_TRIP] = "round_trip",
};

static const char *const phase_title[KT_KIND_COUNT][KT_PHASE_COUNT] = {
	[KT_UNOTIF] = {
		"queue wait (queued -> received)",
		"supervisor think time (received -> reply entered)",
		"wake-up to resume (reply -> target's syscall exit)",
		"round trip (queued -> resumed)",
	},
	[KT_PTRACE] = {
		"stop to tracer (stopped -> wait4 returns)",
		"tracer think time (wait4 -> resuming ptrace entered)",
		"wake-up to resume (ptrace resume -> target's syscall exit)",
		"round trip (stopped -> resumed)",
	},
};

const char *const kind_key[KT_KIND_COUNT] = {
	[KT_UNOTIF] = "unotif",
	[KT_PTRACE] = "ptrace",
};

const char *const transition_key[KT_TRANSITION_COUNT] = {
	[KT_QUEUED] = "queued",
	[KT_SENT] = "sent",
	[KT_REPLIED] = "replied",
	[KT_ADDFD] = "addfd",
	[KT_RESUMED] = "resumed",
	[KT_INTERRUPTED] = "interrupted",
	[KT_ENOSYS] = "enosys",
	[KT_UNEXPLAINED] = "unexplained",
	[KT_NO_QUEUE_STAMP] = "no_queue_stamp",
	[KT_REPLY_FAILED] = "reply_failed",
	[KT_REPLY_UNSEEN] = "reply_unseen",
};

const char *const outcome_key[] = {
	[KT_OUT_RESUMED] = "resumed",
	[KT_OUT_INTERRUPTED] = "interrupted",
	[KT_OUT_ENOSYS] = "enosys",
	[KT_OUT_UNEXPLAINED] = "unexplained",
};

static int64_t span_ns(unsigned long long from, unsigned long long to)
{
	return from && to && to >= from ? (int64_t)(to - from) : -1;
}

int64_t event_phase(const struct kt_event *e, enum kt_phase p)
{
	if (e->outcome != KT_OUT_RESUMED)
		return -1;
	switch (p) {
	case KT_PH_QUEUE_WAIT:
		return span_ns(e->queued_ns, e->sent_ns);
	case KT_PH_THINK:
		return span_ns(e->sent_ns, e->replied_ns);
	case KT_PH_WAKE:
		return span_ns(e->replied_ns, e->resumed_ns);
	default:
		/* only when every phase is known, so the phases sum to it */
		if (span_ns(e->queued_ns, e->sent_ns) < 0 || span_ns(e->sent_ns, e->replied_ns) < 0 ||
		    span_ns(e->replied_ns, e->resumed_ns) < 0)
			return -1;
		return span_ns(e->queued_ns, e->resumed_ns);
	}
}

static const char *const stream_keys[] = {
	"kind", "id", "pid", "tgid", "sup_pid", "comm", "nr", "outcome", "flags", "ret",
	"queued_ns", "sent_ns", "replied_ns", "resumed_ns",
	"queue_wait_ns", "think_ns", "wake_to_resume_ns", "round_trip_ns",
};

void report_stream_header(struct report *r)
{
	size_t n = sizeof(stream_keys) / sizeof(stream_keys[0]);

	if (!r->stream || r->format != EVENTS_CSV)
		return;
	for (size_t i = 0; i < n; i++)
		fprintf(r->stream, "%s%c", stream_keys[i], i + 1 < n ? ',' : '\n');
}

static void flags_text(char *buf, size_t len, unsigned int flags)
{
	snprintf(buf, len, "%s%s%s%s%s%s", flags & KT_F_CONTINUE ? "continue " : "",
		 flags & KT_F_ADDFD ? "addfd " : "", flags & KT_F_REPLY_LOST ? "reply_lost " : "",
		 flags & KT_F_REPLY_UNSEEN ? "reply_unseen " : "",
		 flags & KT_F_NO_QUEUE_STAMP ? "no_queue_stamp " : "", flags ? "" : "-");
	if (flags)
		buf[strlen(buf) - 1] = '\0';
}

/* The comm is a process's chosen name: keep CSV cells unambiguous. */
static void csv_safe(char *dst, const char *src, size_t len)
{
	size_t i;

	for (i = 0; i + 1 < len && src[i]; i++)
		dst[i] = src[i] == ',' || src[i] == '"' || src[i] < ' ' ? '_' : src[i];
	dst[i] = '\0';
}

static void write_event(struct report *r, const struct kt_event *e)
{
	char flags[64], comm[KT_COMM_LEN + 1];
	unsigned long long t[4] = { e->queued_ns, e->sent_ns, e->replied_ns, e->resumed_ns };
	int64_t ph[KT_PHASE_COUNT];

	memcpy(comm, e->comm, KT_COMM_LEN);
	comm[KT_COMM_LEN] = '\0';
	flags_text(flags, sizeof(flags), e->flags);
	for (int p = 0; p < KT_PHASE_COUNT; p++)
		ph[p] = event_phase(e, (enum kt_phase)p);
	if (r->format == EVENTS_JSON) {
		json_t *o = json_pack("{s:s,s:I,s:i,s:i,s:i,s:s,s:i,s:s,s:s,s:I}",
				      "kind", kind_key[e->kind], "id", (json_int_t)e->id,
				      "pid", (int)e->pid, "tgid", (int)e->tgid, "sup_pid", (int)e->sup_pid,
				      "comm", comm, "nr", e->nr, "outcome", outcome_key[e->outcome],
				      "flags", flags, "ret", (json_int_t)e->ret);

		for (int i = 0; i < 4; i++)
			json_object_set_new(o, stream_keys[10 + i], t[i] ? json_integer((json_int_t)t[i]) : json_null());
		for (int p = 0; p < KT_PHASE_COUNT; p++)
			json_object_set_new(o, stream_keys[14 + p], ph[p] >= 0 ? json_integer(ph[p]) : json_null());
		json_dumpf(o, r->stream, JSON_COMPACT);
		fputc('\n', r->stream);
		json_decref(o);
		return;
	}
	csv_safe(comm, comm, sizeof(comm));
	fprintf(r->stream, "%s,%llu,%u,%u,%u,%s,%d,%s,%s,%lld", kind_key[e->kind], e->id, e->pid,
		e->tgid, e->sup_pid, comm, e->nr, outcome_key[e->outcome], flags, e->ret);
	for (int i = 0; i < 4; i++)
		t[i] ? fprintf(r->stream, ",%llu", t[i]) : fputs(",", r->stream);
	for (int p = 0; p < KT_PHASE_COUNT; p++)
		ph[p] >= 0 ? fprintf(r->stream, ",%lld", (long long)ph[p]) : fputs(",", r->stream);
	fputc('\n', r->stream);
}

int report_add(struct report *r, const struct kt_event *e)
{
	if (e->kind >= KT_KIND_COUNT || e->outcome > KT_OUT_UNEXPLAINED)
		return -EPROTO;
	r->events[e->kind]++;
	if (r->stream)
		write_event(r, e);
	return 0;
}

/* Every finished notification has exactly one outcome. */
static unsigned long long finished(const struct kt_counts *c, int kind)
{
	return c->n[kind][KT_RESUMED] + c->n[kind][KT_INTERRUPTED] + c->n[kind][KT_ENOSYS] +
	       c->n[kind][KT_UNEXPLAINED];
}

static bool kind_seen(const struct trace_snapshot *s, int kind)
{
	for (int t = 0; t < KT_TRANSITION_COUNT; t++)
		if (s->c.n[kind][t])
			return true;
	return false;
}

static void fmt_us(char *buf, size_t len, double ns)
{
	snprintf(buf, len, "%.3f", ns / 1000.0);
}

void report_print(const struct trace_snapshot *s, FILE *out, bool histograms)
{
	static const char *const headers[] = {
		"phase", "count", "min µs", "p50 µs", "mean µs", "p90 µs", "p99 µs", "max µs",
	};

	for (int k = 0; k < KT_KIND_COUNT; k++) {
		struct table *t;

		if (!kind_seen(s, k))
			continue;
		fprintf(out, "\n%s transitions:", kind_key[k]);
		for (int i = 0; i < KT_TRANSITION_COUNT; i++)
			fprintf(out, " %s %llu", transition_key[i], s->c.n[k][i]);
		fputc('\n', out);
		if (histograms) {
			for (int p = 0; p < KT_PHASE_COUNT; p++) {
				if (!s->h[k][p].count)
					continue;
				fprintf(out, "\n@%s_%s_ns: %s\n", kind_key[k], phase_key[p], phase_title[k][p]);
				hist_print_log2(out, &s->h[k][p]);
			}
		}
		fputc('\n', out);
		t = table_new(8, headers, "lrrrrrrr");
		for (int p = 0; p < KT_PHASE_COUNT; p++) {
			char cells[8][64];
			const char *row[8];
			struct summary sum;

			snprintf(cells[0], sizeof(cells[0]), "%s", phase_key[p]);
			if (hist_summarize(&s->h[k][p], &sum)) {
				snprintf(cells[1], sizeof(cells[1]), "0");
				for (int c = 2; c < 8; c++)
					snprintf(cells[c], sizeof(cells[c]), "-");
			} else {
				snprintf(cells[1], sizeof(cells[1]), "%zu", sum.n);
				fmt_us(cells[2], sizeof(cells[2]), (double)sum.min);
				fmt_us(cells[3], sizeof(cells[3]), sum.p50);
				fmt_us(cells[4], sizeof(cells[4]), sum.mean);
				fmt_us(cells[5], sizeof(cells[5]), sum.p90);
				fmt_us(cells[6], sizeof(cells[6]), sum.p99);
				fmt_us(cells[7], sizeof(cells[7]), (double)sum.max);
			}
			for (int c = 0; c < 8; c++)
				row[c] = cells[c];
			table_add(t, row);
		}
		table_print(t, out);
		table_free(t);
	}
}

json_t *report_json(const struct trace_snapshot *s)
{
	json_t *kinds = json_object();

	for (int k = 0; k < KT_KIND_COUNT; k++) {
		json_t *tr = json_object(), *ph = json_object();

		for (int i = 0; i < KT_TRANSITION_COUNT; i++)
			json_object_set_new(tr, transition_key[i], json_integer((json_int_t)s->c.n[k][i]));
		for (int p = 0; p < KT_PHASE_COUNT; p++) {
			struct summary sum;
			json_t *phase;

			if (hist_summarize(&s->h[k][p], &sum)) {
				json_object_set_new(ph, phase_key[p], json_pack("{s:i}", "count", 0));
				continue;
			}
			phase = json_pack("{s:I,s:f}", "count", (json_int_t)sum.n, "mean", sum.mean);
			gb_latency_counters(phase, &sum);
			json_object_set_new(ph, phase_key[p], phase);
		}
		json_object_set_new(kinds, kind_key[k],
				    json_pack("{s:o,s:I,s:o}", "transitions", tr, "events",
					      (json_int_t)finished(&s->c, k), "phases", ph));
	}
	return kinds;
}
