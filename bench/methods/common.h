/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_METHODS_COMMON_H
#define KNOTIF_METHODS_COMMON_H

#include "bench.h"

/* The trapped syscall, plain. */
long call_syscall(struct bench *b);
/* The result the kernel gives without interception (taken before any filter). */
int check_real(struct bench *b, long ret);
/* BENCH_MAGIC: the interceptor answered instead of the kernel. */
int check_magic(struct bench *b, long ret);

/* Method tables, one per file. */
extern const struct method method_null, method_filter_allow, method_errno;
extern const struct method method_trap, method_sud;
extern const struct method method_unotif_async_emulate, method_unotif_async_continue,
	method_unotif_async_addfd, method_unotif_sync_emulate, method_unotif_sync_continue,
	method_unotif_sync_addfd, method_unotif_rw_emulate, method_unotif_ptrace_listener_emulate;
extern const struct method method_ptrace_seccomp_emulate, method_ptrace_seccomp_continue,
	method_ptrace_syscall;
extern const struct method method_pingpong_pipe, method_pingpong_futex;

#endif
