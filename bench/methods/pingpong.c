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
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common.h"

struct pingpong_state {
	int fds[4];			/* pipe: requests fds[0..1], replies fds[2..3] */
	volatile uint32_t *futex_word;	/* futex: in a shared mapping */
	int64_t token;			/* the target's last token */
};

/* pipe: fds[0..1] carry requests, fds[2..3] replies; the supervisor answers token + 1 */
static int pipe_prepare(struct bench *b)
{
	struct pingpong_state *s = b->state;

	if (pipe2(&s->fds[0], O_CLOEXEC) || pipe2(&s->fds[2], O_CLOEXEC))
		return -errno;
	return 0;
}

static int pipe_target_setup(struct bench *b)
{
	struct pingpong_state *s = b->state;

	close(s->fds[0]);
	close(s->fds[3]);
	return 0;
}

static long pipe_call(struct bench *b)
{
	struct pingpong_state *s = b->state;
	int64_t token = ++s->token, reply;

	if (write(s->fds[1], &token, sizeof(token)) != sizeof(token) ||
	    read(s->fds[2], &reply, sizeof(reply)) != sizeof(reply))
		return -1;
	return (long)reply;
}

static int token_check(struct bench *b, long ret)
{
	struct pingpong_state *s = b->state;

	if (ret == s->token + 1)
		return 0;
	return bench_fail(b, "ping-pong token %ld came back as %ld", (long)s->token, ret);
}

static void pipe_target_finish(struct bench *b)
{
	struct pingpong_state *s = b->state;

	close(s->fds[1]);	/* the supervisor reads EOF */
}

static int pipe_supervise(struct bench *b)
{
	struct pingpong_state *s = b->state;
	int64_t token;
	ssize_t n;

	close(s->fds[1]);
	close(s->fds[2]);
	while ((n = read(s->fds[0], &token, sizeof(token))) == sizeof(token)) {
		token++;
		if (write(s->fds[3], &token, sizeof(token)) != sizeof(token))
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
	struct pingpong_state *s = b->state;
	void *word = mmap(NULL, sizeof(uint32_t), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			  -1, 0);

	if (word == MAP_FAILED)
		return -errno;
	s->futex_word = word;	/* zero: no token yet */
	return 0;
}

static long futex_call(struct bench *b)
{
	struct pingpong_state *s = b->state;
	uint32_t mine, seen;

	s->token = s->token ? s->token + 2 : 1;	/* odd: 1, 3, 5, ... */
	mine = (uint32_t)s->token;
	__atomic_store_n(s->futex_word, mine, __ATOMIC_SEQ_CST);
	futex(s->futex_word, FUTEX_WAKE, 1);
	while ((seen = __atomic_load_n(s->futex_word, __ATOMIC_SEQ_CST)) == mine)
		futex(s->futex_word, FUTEX_WAIT, mine);
	return (long)seen;
}

static void futex_target_finish(struct bench *b)
{
	struct pingpong_state *s = b->state;

	__atomic_store_n(s->futex_word, FUTEX_STOP, __ATOMIC_SEQ_CST);
	futex(s->futex_word, FUTEX_WAKE, 1);
}

static int futex_supervise(struct bench *b)
{
	struct pingpong_state *s = b->state;

	watch_target_exit();
	for (;;) {
		uint32_t seen = __atomic_load_n(s->futex_word, __ATOMIC_SEQ_CST);

		if (seen == FUTEX_STOP)
			return 0;
		if (!(seen & 1)) {
			/* asked only when a signal ended the wait: the loop stays one futex call */
			if (futex(s->futex_word, FUTEX_WAIT, seen) && errno == EINTR && target_exited(b))
				return 0;
			continue;
		}
		__atomic_store_n(s->futex_word, seen + 1, __ATOMIC_SEQ_CST);
		futex(s->futex_word, FUTEX_WAKE, 1);
	}
}

const struct method *const pingpong_methods[] = {
	&(const struct method){
		.name = "pingpong/pipe",
		.kind = KIND_FLOOR,
		.needs = { FEAT_COUNT },
		.state_size = sizeof(struct pingpong_state),
		.sup_prepare = pipe_prepare,
		.target_setup = pipe_target_setup,
		.call = pipe_call,
		.check = token_check,
		.target_finish = pipe_target_finish,
		.supervise = pipe_supervise,
	},
	&(const struct method){
		.name = "pingpong/futex",
		.kind = KIND_FLOOR,
		.needs = { FEAT_COUNT },
		.state_size = sizeof(struct pingpong_state),
		.sup_prepare = futex_prepare,
		.call = futex_call,
		.check = token_check,
		.target_finish = futex_target_finish,
		.supervise = futex_supervise,
	},
	NULL,
};
