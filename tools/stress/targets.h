/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_STRESS_TARGETS_H
#define KNOTIF_STRESS_TARGETS_H

#include "stress.h"

/*
 * The spawner process: installs the shared filter (shared topology), starts
 * the N targets as processes or threads, runs the fault injector (--signals,
 * --kill) against them, and reaps them, recording each wait status.
 * sock carries listeners to the supervisor. Never returns.
 */
__attribute__((noreturn)) void spawner_main(const struct config *c, struct stress_mem *m, int sock);

#endif
