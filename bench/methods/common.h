/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_METHODS_COMMON_H
#define KNOTIF_METHODS_COMMON_H

/* What every method file needs: the bench and the harness's services. */
#include "bench.h"
#include "harness.h"

/*
 * How an interceptor answers the trapped call (variants of several
 * families): notif.h's enum reply_kind; EMULATE returns BENCH_MAGIC.
 */
#include "notif.h"

/* The trapped syscall, plain. */
long call_syscall(struct bench *b);
/* The result the kernel gives without interception (taken before any filter). */
int check_real(struct bench *b, long ret);
/* BENCH_MAGIC: the interceptor answered instead of the kernel. */
int check_magic(struct bench *b, long ret);

/*
 * A notification supervisor's loop: receive on listener (read() when rw),
 * hand each notification to answer (stop: the target's last call, with
 * BENCH_STOP_COOKIE), until the stop call is answered or the target has
 * ended. ENOENT from a receive or an answer (the target left the call) and
 * EINTR are normal. answer returns 0 or -errno. 0, or the first -errno.
 */
typedef int (*notif_answer_fn)(struct bench *b, int listener, struct notif_buf *buf, bool stop, void *ctx);
int serve_notifications(struct bench *b, int listener, bool rw, notif_answer_fn answer, void *ctx);

/*
 * What a ptrace supervisor does at one stop of the target (its wait status):
 * answer it, change *resume if it must, and return the signal to deliver
 * with the resume (0: none) or -errno.
 */
typedef int (*tracer_stop_fn)(struct bench *b, int status, int *resume, void *ctx);

/*
 * The ptrace supervisor's loop (the target ran PTRACE_TRACEME and stopped
 * itself): set options (PTRACE_O_EXITKILL always), then resume the target
 * with *resume and hand every stop to on_stop until the target has ended
 * (reaped: the harness reports how). 0, or -errno.
 */
int tracer_run(struct bench *b, long options, int resume, tracer_stop_fn on_stop, void *ctx);

#endif
