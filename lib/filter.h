/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_FILTER_H
#define KNOTIF_FILTER_H

#include <linux/filter.h>
#include <stddef.h>
#include <stdint.h>

/* Longest program filter_build() writes: 4 fixed instructions + 2 per syscall. */
#define FILTER_MAX_SYSCALLS 64
#define FILTER_MAX_INSNS (4 + 2 * FILTER_MAX_SYSCALLS)

/*
 * Classic BPF program: syscalls in nrs[] get `action`, every other syscall
 * (and any other architecture) is allowed. Returns the instruction count, or
 * -E2BIG when nrs[] has more than FILTER_MAX_SYSCALLS entries.
 */
int filter_build(const int *nrs, size_t n, uint32_t action, struct sock_filter *out);

/*
 * Sets no_new_privs (so no CAP_SYS_ADMIN is needed) and installs the filter
 * for the calling thread. Returns the listener fd when flags carries
 * SECCOMP_FILTER_FLAG_NEW_LISTENER, 0 otherwise, or -errno.
 */
int filter_install(const int *nrs, size_t n, uint32_t action, unsigned int flags);

#endif
