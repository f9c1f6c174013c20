// SPDX-License-Identifier: GPL-2.0
#include "common.h"

#include <errno.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

long call_syscall(struct bench *b)
{
	return syscall(b->sys->nr);
}

int check_real(struct bench *b, long ret)
{
	if (ret == b->real_value)
		return 0;
	return bench_fail(b, "%s returned %ld, the real result is %ld", b->sys->name, ret, b->real_value);
}

int check_magic(struct bench *b, long ret)
{
	if (ret == BENCH_MAGIC)
		return 0;
	return bench_fail(b, "%s returned %ld, not the emulated %ld: the call was not intercepted",
			  b->sys->name, ret, BENCH_MAGIC);
}

int serve_notifications(struct bench *b, int listener, bool rw, notif_answer_fn answer, void *ctx)
{
	struct notif_buf buf;
	int ret = notif_buf_alloc(&buf);

	if (ret)
		return ret;
	for (;;) {
		bool stop;

		ret = rw ? notif_recv_rw(listener, &buf) : notif_recv(listener, &buf);
		if (ret == -EINTR && target_exited(b)) {
			ret = 0;
			break;	/* the harness reports how the target ended */
		}
		if (ret == -EINTR || ret == -ENOENT)
			continue;	/* interrupted, or the target left the call */
		if (ret)
			break;
		stop = buf.req->data.args[0] == BENCH_STOP_COOKIE;
		ret = answer(b, listener, &buf, stop, ctx);
		if (ret == -ENOENT)
			ret = 0;	/* the target was interrupted after RECV: normal */
		if (ret || stop)
			break;
	}
	notif_buf_free(&buf);
	return ret;
}

/* 1 with the target stopped (*status), 0 when it has ended (reaped), or -errno */
static int tracer_wait(struct bench *b, int *status)
{
	while (waitpid(b->target_pid, status, 0) != b->target_pid)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(*status) || WIFSIGNALED(*status)) {
		harness_target_reaped(b, *status);
		return 0;
	}
	return 1;
}

int tracer_run(struct bench *b, long options, int resume, tracer_stop_fn on_stop, void *ctx)
{
	int status, sig = 0, ret = tracer_wait(b, &status);

	if (ret > 0 && ptrace(PTRACE_SETOPTIONS, b->target_pid, 0, options | PTRACE_O_EXITKILL))
		return -errno;
	while (ret > 0) {
		if (ptrace((enum __ptrace_request)resume, b->target_pid, 0, sig))
			return -errno;
		ret = tracer_wait(b, &status);
		if (ret > 0) {
			sig = on_stop(b, status, &resume, ctx);
			ret = sig < 0 ? sig : 1;
		}
	}
	return ret;
}
