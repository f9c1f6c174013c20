/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_KERNEL_FEATURES_H
#define KNOTIF_KERNEL_FEATURES_H

#include <stddef.h>

/* Kernel features knotif uses, each probed on the running kernel. */
enum feature {
	FEAT_SECCOMP_FILTER,
	FEAT_RET_ERRNO,
	FEAT_RET_TRAP,
	FEAT_RET_TRACE,
	FEAT_USER_NOTIF,	/* 5.0 */
	FEAT_NOTIF_CONTINUE,	/* 5.5 */
	FEAT_ADDFD_SEND,	/* 5.14 */
	FEAT_WAIT_KILLABLE,	/* 5.19 */
	FEAT_SYNC_WAKE_UP,	/* 6.6 */
	FEAT_SUD,		/* 5.11, x86 and other GENERIC_ENTRY arches */
	FEAT_PTRACE,		/* not switched off by Yama */
	FEAT_NOTIF_RW,		/* knotif kernel series only: read()/write() on a listener */
	FEAT_PTRACE_LISTENER,	/* knotif kernel series only: PTRACE_SECCOMP_GET_LISTENER */
	FEAT_NOTIF_RW_BATCH,	/* knotif kernel series (0008): many notifications per read()/write() */
	FEAT_AS_TARGET,		/* the privileges lib/seccomp/as_target.c's helpers need (root) */
	FEAT_COUNT
};

/*
 * 0 when the running kernel has feature f; otherwise -errno, with a reason a
 * person can act on written to why (meant to follow "unsupported: ").
 * Probes that need a filter run in a short-lived child so the caller stays
 * unfiltered. Each feature is probed once per process; later calls repeat
 * the first answer.
 */
int feature_probe(enum feature f, char *why, size_t why_len);

#endif
