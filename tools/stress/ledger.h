/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_STRESS_LEDGER_H
#define KNOTIF_STRESS_LEDGER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stress.h"

/*
 * The books of one run, summed over targets, and the identities they must
 * satisfy. Exact where the kernel makes the outcome observable; where a
 * fault makes it unobservable (a reply SENT an instant before a signal
 * interrupts the wait is discarded by the kernel, see seccomp_do_user_notification),
 * the remainder is named, bounded per target by the faults that explain it,
 * and reported.
 */
struct ledger {
	int64_t issued;			/* trapped calls made by targets, reissues included */
	int64_t replied;		/* right replies received by targets */
	int64_t eintr;			/* calls interrupted by a signal (reissued) */
	int64_t enosys;			/* calls ended by the listener's death */
	int64_t killed_in_call;		/* calls a SIGKILL ended */
	int64_t received;		/* notifications the supervisor RECVd */
	int64_t sent;			/* SENDs that succeeded */
	int64_t send_enoent;		/* SENDs too late: the target had left the call */
	int64_t toctou_invalid;		/* --toctou: ID_VALID said the call was gone; no reply */
	int64_t lost_after_send;	/* sent, but the target was interrupted before it woke (sent - replied) */
	int64_t abandoned;		/* received when the supervisor died, never answered */
	int64_t recv_enoent, recv_eintr;
	int64_t signals_sent, signals_caught, kills_sent;
	int targets, killed, exited_clean;
	bool sup_died;			/* --listener-death happened */
	int orch_fds_before, orch_fds_after, sup_fds_before, sup_fds_after;
	int64_t expected_per_target;	/* --requests, 0 with --duration */
};

/* Sums the mapping into l and checks every identity. 0, or -EPROTO with the first broken one in why. */
int ledger_check(const struct config *c, const struct stress_mem *m, struct ledger *l, char *why, size_t len);

/* One line: "issued 100 = replied 98 + eintr 2 ...". */
void ledger_format(const struct ledger *l, char *buf, size_t len);

#endif
