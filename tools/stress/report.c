// SPDX-License-Identifier: GPL-2.0
#include "report.h"

#include <math.h>
#include <string.h>

#include "gbagg.h"
#include "gbjson.h"
#include "supervisor.h"
#include "table.h"

/* The quantiles may come from a sample of the calls; max is over all of them. */
static void latency_counters(json_t *row, const struct summary *s, int64_t max)
{
	struct summary all = *s;

	all.max = max;
	gb_latency_counters(row, &all);
}

static void ledger_counters(json_t *row, const struct ledger *l)
{
	const struct {
		const char *key;
		int64_t v;
	} k[] = {
		{ "issued", l->issued }, { "replied", l->replied }, { "eintr", l->eintr },
		{ "enosys", l->enosys }, { "killed_in_call", l->killed_in_call },
		{ "received", l->received }, { "sent", l->sent }, { "send_enoent", l->send_enoent },
		{ "recv_enoent", l->recv_enoent }, { "recv_eintr", l->recv_eintr },
		{ "toctou_invalid", l->toctou_invalid }, { "lost_after_send", l->lost_after_send },
		{ "abandoned", l->abandoned }, { "killed", l->killed },
		{ "signals_sent", l->signals_sent }, { "signals_caught", l->signals_caught },
	};

	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++)
		gb_counter(row, k[i].key, (double)k[i].v);
}

static json_t *stress_row(const struct run_result *r, int family, int rep, int reps)
{
	json_t *row = gb_iteration(r->c.name, family, rep, reps, r->ledger.replied, r->lat.mean, r->sup_cpu_per_op);

	latency_counters(row, &r->lat, r->lat_max);
	gb_counter(row, "items_per_second", r->ops);
	gb_counter(row, "supervisor_cpu_time", r->sup_cpu_per_op);
	gb_counter(row, "syscalls_per_op", r->syscalls_per_op);
	if (r->read_cpu_per_op > 0 || r->write_cpu_per_op > 0) {
		/* of supervisor_cpu_time, what the listener's read() and write() took */
		gb_counter(row, "listener_read_cpu_time", r->read_cpu_per_op);
		gb_counter(row, "listener_write_cpu_time", r->write_cpu_per_op);
	}
	gb_counter(row, "batch_mean", r->batch_mean);
	gb_counter(row, "batch_max", (double)r->batch_max);
	gb_counter(row, "wakeups", (double)r->wakeups);
	for (int b = 0; b < BATCH_BUCKETS; b++)
		gb_counter(row, batch_bucket_name(b), (double)r->batch_hist[b]);
	gb_counter(row, "targets", r->c.targets);
	gb_counter(row, "listeners", r->listeners);
	gb_counter(row, "supervisor_threads", r->sup_threads);
	gb_counter(row, "wall_time", (double)r->wall_ns);
	gb_counter(row, "latency_samples", (double)r->lat.n);
	ledger_counters(row, &r->ledger);
	return row;
}

static json_t *pending_row(const struct run_result *r, int family, int rep, int reps)
{
	json_t *row = gb_iteration(r->c.name, family, rep, reps, (int64_t)r->cycle.n, r->cycle.mean, r->send.mean);

	latency_counters(row, &r->cycle, r->cycle.max);
	gb_counter(row, "pending", r->c.targets);
	gb_counter(row, "send_p50", r->send.p50);
	gb_counter(row, "send_p99", r->send.p99);
	gb_counter(row, "id_valid_p50", r->id_valid.p50);
	gb_counter(row, "id_valid_p99", r->id_valid.p99);
	gb_counter(row, "target_p50", r->lat.p50);
	gb_counter(row, "target_p99", r->lat.p99);
	ledger_counters(row, &r->ledger);
	return row;
}

json_t *report_rows(const struct run_result *r, int n, int reps)
{
	json_t *rows = json_array();

	for (int i = 0; i < n; i++) {
		const struct run_result *g = &r[i * reps];
		json_t *its, *aggs;
		int bad = -1;

		for (int rep = 0; rep < reps && bad < 0; rep++)
			if (g[rep].status != RUN_OK)
				bad = rep;
		if (bad >= 0) {
			json_array_append_new(rows, gb_error(g[bad].c.name, i, g[bad].message));
			continue;
		}
		its = json_array();
		for (int rep = 0; rep < reps; rep++)
			json_array_append_new(its, g[rep].c.pending ? pending_row(&g[rep], i, rep, reps)
								    : stress_row(&g[rep], i, rep, reps));
		json_array_extend(rows, its);
		aggs = reps > 1 ? gb_aggregate_rows(its, i) : NULL;
		if (aggs)
			json_array_extend(rows, aggs);
		json_decref(aggs);
		json_decref(its);
	}
	return rows;
}

/* The repetition a person reads: the failure if any, else the median by the run's headline figure. */
static const struct run_result *pick(const struct run_result *g, int reps)
{
	const struct run_result *order[64];
	int n = reps < 64 ? reps : 64;

	for (int rep = 0; rep < reps; rep++)
		if (g[rep].status != RUN_OK)
			return &g[rep];
	for (int i = 0; i < n; i++) {
		const struct run_result *x = &g[i];
		int j = i;

		/* insertion sort: by throughput (stress) or cycle p50 (pending) */
		while (j > 0 && (x->c.pending ? order[j - 1]->cycle.p50 > x->cycle.p50 : order[j - 1]->ops > x->ops)) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = x;
	}
	return order[(n - 1) / 2];
}

static void us(char *buf, double ns)
{
	snprintf(buf, 32, "%.2f", ns / 1000.0);
}

static void stress_table(const struct run_result *r, int n, int reps, FILE *out)
{
	static const char *const headers[] = {
		"Run", "notif/s", "p50 µs", "p99 µs", "p99.9 µs", "max µs", "sup CPU µs/n", "syscalls/n",
		"batch", "batch max", "ENOENT", "EINTR", "ledger",
	};
	struct table *t = table_new(13, headers, "lrrrrrrrrrrrl");
	char cells[13][32], note[sizeof(r->message) + sizeof(r->c.name) + 16];
	bool any = false;

	for (int i = 0; i < n; i++) {
		const struct run_result *x = pick(&r[i * reps], reps);
		const char *row[13];

		if (x->c.pending)
			continue;
		any = true;
		if (x->status != RUN_OK) {
			snprintf(note, sizeof(note), "%s  %s%s", x->c.name,
				 x->status == RUN_FAILED ? "FAILED: " : "", x->message);
			table_add_note(t, note);
			continue;
		}
		snprintf(cells[1], 32, "%.0f", x->ops);
		us(cells[2], x->lat.p50);
		us(cells[3], x->lat.p99);
		us(cells[4], x->lat.p999);
		us(cells[5], (double)x->lat_max);
		us(cells[6], x->sup_cpu_per_op);
		snprintf(cells[7], 32, "%.2f", x->syscalls_per_op);
		snprintf(cells[8], 32, "%.2f", x->batch_mean);
		snprintf(cells[9], 32, "%lld", (long long)x->batch_max);
		snprintf(cells[10], 32, "%lld", (long long)(x->ledger.recv_enoent + x->ledger.send_enoent));
		snprintf(cells[11], 32, "%lld", (long long)x->ledger.eintr);
		snprintf(cells[12], 32, "ok");
		row[0] = x->c.name;
		for (int c = 1; c < 13; c++)
			row[c] = cells[c];
		table_add(t, row);
	}
	if (any)
		table_print(t, out);
	table_free(t);
}

double report_pending_slope(const struct run_result *r, int n, int reps)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0;
	int k = 0;

	for (int i = 0; i < n; i++) {
		const struct run_result *g = pick(&r[i * reps], reps);
		double x = g->c.targets, y = g->id_valid.p50;

		if (!g->c.pending || g->status != RUN_OK)
			continue;
		sx += x;
		sy += y;
		sxx += x * x;
		sxy += x * y;
		k++;
	}
	if (k < 2 || k * sxx - sx * sx == 0)
		return NAN;
	return (k * sxy - sx * sy) / (k * sxx - sx * sx);
}

static void pending_table(const struct run_result *r, int n, int reps, FILE *out)
{
	static const char *const headers[] = {
		"Pending curve", "M", "cycle p50 µs", "cycle p99 µs", "SEND p50 ns", "ID_VALID p50 ns",
		"ID_VALID ×M=first", "target p50 µs",
	};
	struct table *t = table_new(8, headers, "lrrrrrrr");
	char cells[8][32], note[sizeof(r->message) + sizeof(r->c.name) + 16];
	double first = NAN, slope = report_pending_slope(r, n, reps);
	bool any = false;

	for (int i = 0; i < n; i++) {
		const struct run_result *x = pick(&r[i * reps], reps);
		const char *row[8];

		if (!x->c.pending)
			continue;
		any = true;
		if (x->status != RUN_OK) {
			snprintf(note, sizeof(note), "%s  FAILED: %s", x->c.name, x->message);
			table_add_note(t, note);
			continue;
		}
		if (isnan(first))
			first = x->id_valid.p50;
		snprintf(cells[1], 32, "%d", x->c.targets);
		us(cells[2], x->cycle.p50);
		us(cells[3], x->cycle.p99);
		snprintf(cells[4], 32, "%.0f", x->send.p50);
		snprintf(cells[5], 32, "%.0f", x->id_valid.p50);
		snprintf(cells[6], 32, "%.2f", x->id_valid.p50 / first);
		us(cells[7], x->lat.p50);
		row[0] = x->c.name;
		for (int c = 1; c < 8; c++)
			row[c] = cells[c];
		table_add(t, row);
	}
	if (any) {
		table_print(t, out);
		if (!isnan(slope))
			fprintf(out, "# ID_VALID list walk: %.2f ns per pending notification (least squares of p50 over M)\n",
				slope);
	}
	table_free(t);
}

void report_console(const struct run_result *r, int n, int reps, FILE *out)
{
	char line[1024];

	if (reps > 1)
		fprintf(out, "# %d repetitions per run: each line is the median repetition "
			"(by notif/s; pending: by cycle p50)\n", reps);
	stress_table(r, n, reps, out);
	pending_table(r, n, reps, out);
	for (int i = 0; i < n; i++) {
		const struct run_result *x = pick(&r[i * reps], reps);

		if (x->status != RUN_OK)
			continue;
		ledger_format(&x->ledger, line, sizeof(line));
		fprintf(out, "# ledger %s: %s\n", x->c.name, line);
	}
}
