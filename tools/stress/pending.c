// SPDX-License-Identifier: GPL-2.0
/*
 * The pending experiment (--pending=M): what RECV, SEND and ID_VALID cost
 * when M notifications wait on one filter. run.c starts the targets and
 * hands the listener over; this file is the measurement.
 */
#include "pending.h"

#include <errno.h>
#include <stdlib.h>

#include "clock.h"
#include "notif.h"
#include "stress.h"

/* RECV one notification (ENOENT/EINTR are retried); -errno on a real failure. */
static int recv_one(int listener, struct notif_buf *b, struct stress_mem *m)
{
	for (;;) {
		int ret = notif_recv(listener, b);

		if (ret != -ENOENT && ret != -EINTR) {
			if (!ret)
				m->t[b->req->data.args[ARG_IDX]].recv_ok++;
			return ret;
		}
	}
}

static int send_one(int listener, struct notif_buf *b, struct stress_mem *m, uint64_t id, int idx, int64_t seq)
{
	int ret = notif_send_emulate(listener, b, id, stress_expect(idx, seq), 0);

	if (!ret)
		m->t[idx].send_ok++;
	return ret;
}

int pending_measure(const struct config *c, struct stress_mem *m, int listener, struct run_result *r)
{
	int64_t cycles = c->pending_cycles, warm = cycles / 10 < 100 ? cycles / 10 : 100;
	int64_t *cyc = malloc((size_t)cycles * sizeof(int64_t) * 3), *snd = cyc + cycles, *idv = snd + cycles;
	uint64_t *ids = calloc((size_t)c->targets, sizeof(uint64_t)), probe;
	struct notif_buf b;
	int ret = notif_buf_alloc(&b);
	int64_t n = 0;

	if (!ret && (!cyc || !ids))
		ret = -ENOMEM;
	for (int k = 0; !ret && k < c->targets; k++) {
		ret = recv_one(listener, &b, m);
		if (!ret)
			ids[b.req->data.args[ARG_IDX]] = b.req->id;
	}
	probe = ids[0];
	for (int64_t seq = 0; !ret && seq < cycles; seq++) {
		int64_t t0 = now_ns(), t1, t2, t3;

		ret = notif_id_valid(listener, probe);
		t1 = now_ns();
		if (!ret)
			ret = send_one(listener, &b, m, probe, 0, seq);
		t2 = now_ns();
		if (!ret)
			ret = recv_one(listener, &b, m);
		t3 = now_ns();
		if (!ret && b.req->data.args[ARG_IDX] != 0)
			ret = -EPROTO;	/* parked targets are waiting: only the probe can call */
		probe = b.req->id;
		if (seq >= warm) {
			idv[n] = t1 - t0;
			snd[n] = t2 - t1;
			cyc[n++] = t3 - t1;
		}
	}
	if (!ret)
		ret = send_one(listener, &b, m, probe, 0, cycles);
	for (int i = 1; !ret && i < c->targets; i++)
		ret = send_one(listener, &b, m, ids[i], i, 0);
	if (!ret && n) {
		summarize(cyc, (size_t)n, &r->cycle);
		summarize(snd, (size_t)n, &r->send);
		summarize(idv, (size_t)n, &r->id_valid);
	}
	notif_buf_free(&b);
	free(cyc);
	free(ids);
	return ret;
}
