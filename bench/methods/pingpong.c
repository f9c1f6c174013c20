// SPDX-License-Identifier: GPL-2.0
/*
 * The floor: two processes hand a token back and forth, with no seccomp at
 * all. One round trip costs two wake-ups and two context switches, which is
 * also the least a notification round trip must pay.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common.h"
#include "harness.h"

/* pipe: fds[0..1] carry requests, fds[2..3] replies; the supervisor answers token + 1 */
static int pipe_prepare(struct bench *b)
{
	if (pipe2(&b->fds[0], O_CLOEXEC) || pipe2(&b->fds[2], O_CLOEXEC))
		return -errno;
	return 0;
}

static int pipe_target_setup(struct bench *b)
{
	close(b->fds[0]);
	close(b->fds[3]);
	return 0;
}

static long pipe_call(struct bench *b)
{
	int64_t token = ++b->token, reply;

	if (write(b->fds[1], &token, sizeof(token)) != sizeof(token) ||
	    read(b->fds[2], &reply, sizeof(reply)) != sizeof(reply))
		return -1;
	return (long)reply;
}

static int token_check(struct bench *b, long ret)
{
	if (ret == b->token + 1)
		return 0;
	return bench_fail(b, "ping-pong token %ld came back as %ld", (long)b->token, ret);
}

static void pipe_target_finish(struct bench *b)
{
	close(b->fds[1]);	/* the supervisor reads EOF */
}

static int pipe_supervise(struct bench *b)
{
	int64_t token;
	ssize_t n;

	close(b->fds[1]);
	close(b->fds[2]);
	while ((n = read(b->fds[0], &token, sizeof(token))) == sizeof(token)) {
		token++;
		if (write(b->fds[3], &token, sizeof(token)) != sizeof(token))
			return -errno;
	}
	return n < 0 ? -errno : 0;
}

/*
 * futex: a shared word. The target stores an odd value and waits while it
 * stays; the supervisor waits for an odd value and stores value + 1.
 */
#define FUTEX_STOP UINT32_MAX

static long futex(volatile uint32_t *word, int op, uint32_t val)
{
	/* not FUTEX_PRIVATE_FLAG: the word is shared between processes */
	return syscall(SYS_futex, word, op, val, NULL, NULL, 0);
}

static int futex_prepare(struct bench *b)
{
	b->futex_word = &b->shared->futex_word;
	*b->futex_word = 0;
	return 0;
}

static long futex_call(struct bench *b)
{
	uint32_t mine, seen;

	b->token = b->token ? b->token + 2 : 1;	/* odd: 1, 3, 5, ... */
	mine = (uint32_t)b->token;
	__atomic_store_n(b->futex_word, mine, __ATOMIC_SEQ_CST);
	futex(b->futex_word, FUTEX_WAKE, 1);
	while ((seen = __atomic_load_n(b->futex_word, __ATOMIC_SEQ_CST)) == mine)
		futex(b->futex_word, FUTEX_WAIT, mine);
	return (long)seen;
}

static void futex_target_finish(struct bench *b)
{
	__atomic_store_n(b->futex_word, FUTEX_STOP, __ATOMIC_SEQ_CST);
	futex(b->futex_word, FUTEX_WAKE, 1);
}

static int futex_supervise(struct bench *b)
{
	watch_target_exit();
	for (;;) {
		uint32_t seen = __atomic_load_n(b->futex_word, __ATOMIC_SEQ_CST);

		if (seen == FUTEX_STOP || target_exited())
			return 0;
		if (!(seen & 1)) {
			futex(b->futex_word, FUTEX_WAIT, seen);
			continue;
		}
		__atomic_store_n(b->futex_word, seen + 1, __ATOMIC_SEQ_CST);
		futex(b->futex_word, FUTEX_WAKE, 1);
	}
}

const struct method method_pingpong_pipe = {
	.name = "pingpong/pipe",
	.needs = { FEAT_COUNT },
	.sup_prepare = pipe_prepare,
	.target_setup = pipe_target_setup,
	.call = pipe_call,
	.check = token_check,
	.target_finish = pipe_target_finish,
	.supervise = pipe_supervise,
};

const struct method method_pingpong_futex = {
	.name = "pingpong/futex",
	.needs = { FEAT_COUNT },
	.sup_prepare = futex_prepare,
	.target_setup = NULL,
	.call = futex_call,
	.check = token_check,
	.target_finish = futex_target_finish,
	.supervise = futex_supervise,
};
