/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_PDEATH_H
#define KNOTIF_PDEATH_H

#include <sys/types.h>

/*
 * A forked child that must not outlive its parent: PR_SET_PDEATHSIG(sig)
 * (kept across exec), then a check that parent (the pid the parent had
 * before fork) is still our parent. A parent that died between fork() and
 * the prctl() sends no signal, and the child would live on under init.
 * Returns 0, or -ESRCH when the parent is already gone (the caller exits),
 * or -errno from prctl.
 */
int pdeath_follow(pid_t parent, int sig);

#endif
