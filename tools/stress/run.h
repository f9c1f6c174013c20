/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_STRESS_RUN_H
#define KNOTIF_STRESS_RUN_H

#include "ledger.h"
#include "stats.h"
#include "stress.h"

enum run_status { RUN_OK, RUN_UNSUPPORTED, RUN_FAILED };

/* Everything one run measured. Times in ns. */
struct run_result {
	struct config c;
	enum run_status status;
	char message[2 * STRESS_ERROR_LEN + 16];
	struct ledger ledger;
	int64_t wall_ns;		/* go to the last target's last reply */
	double ops;			/* replies per second */
	struct summary lat;		/* target-side round trips (kept samples) */
	int64_t lat_max;		/* over every reply, kept or not */
	double sup_cpu_per_op;
	double syscalls_per_op;
	double read_cpu_per_op, write_cpu_per_op;	/* 0: not measured by the strategy */
	double batch_mean;
	int64_t batch_max, wakeups;
	int64_t batch_hist[BATCH_BUCKETS];
	int sup_threads, listeners;
	/* --pending: supervisor-side costs with M notifications pending on the filter */
	struct summary cycle;		/* SEND to the tail id .. RECV of the probe's next call */
	struct summary send;		/* the SEND ioctl alone */
	struct summary id_valid;	/* ID_VALID on the tail id: the list walk, nothing else */
};

/* One knotif-stress run of c. Fills r; r->status says how it ended. */
void run_stress(const struct config *c, struct stress_mem *m, struct run_result *r);
/* One point of the pending-notification scaling curve (c->pending). */
void run_pending(const struct config *c, struct stress_mem *m, struct run_result *r);

#endif
