// SPDX-License-Identifier: GPL-2.0
/*
 * The design gVisor calls Systrap: SECCOMP_RET_TRAP raises SIGSYS in the
 * target, and the handler, instead of answering itself (the "trap" row),
 * writes the call into memory shared with a supervisor process, wakes it,
 * and waits there for the result, which it puts in the return register.
 * The supervisor answers through the same memory. No ptrace, no listener:
 * one signal delivery plus a futex hand-off each way.
 *
 * Variants: systrap/futex, each side sleeps in FUTEX_WAIT as soon as it
 * waits; systrap/spin, each side first spins on the shared word for at most
 * SYSTRAP_SPIN_NS, then sleeps. A side calls FUTEX_WAKE only when its
 * partner said it sleeps, so a spinning hand-off makes no syscall at all.
 *
 * The supervisor checks that the message is the benchmark's syscall; the
 * target checks the value and that the answer is to its own request.
 */
#include <errno.h>
#include <linux/futex.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "clock.h"
#include "common.h"
#include "compat.h"
#include "filter.h"

/*
 * The spin bound of systrap/spin: 10 µs, about three times what the target
 * needs between a reply and its next call here (returning from SIGSYS and
 * trapping again: the "trap" row, 3 µs), so on two CPUs a busy pair never
 * sleeps; on one CPU the partner cannot run while we spin, so there each
 * wait costs the bound.
 */
#define SYSTRAP_SPIN_NS 10000

enum msg_state {
	MSG_IDLE,		/* no call yet */
	MSG_CALL,		/* the target wrote a call: the supervisor's turn */
	MSG_REPLY,		/* the supervisor wrote the result: the target's turn */
	MSG_STOP,		/* the target is done */
};

/* One page shared by target (its SIGSYS handler) and supervisor. */
struct systrap_msg {
	uint32_t state;			/* enum msg_state; the futex word */
	uint32_t target_sleeps;		/* 1 while the target is (about to be) in FUTEX_WAIT */
	uint32_t sup_sleeps;		/* 1 while the supervisor is */
	int64_t seq;			/* the target's request number */
	long nr;
	unsigned long args[6];
	long ret;
	int64_t answered;		/* the seq the supervisor answered */
};

struct systrap_variant {
	int64_t spin_ns;		/* 0: sleep at once */
};

struct systrap_state {
	struct systrap_msg *msg;
	int64_t spin_ns;
};

/* The SIGSYS handler's way to the message: a signal handler has no argument. */
static struct systrap_state *handler_state;

static long futex(uint32_t *word, int op, uint32_t val)
{
	/* not FUTEX_PRIVATE_FLAG: the word is shared between processes */
	return syscall(SYS_futex, word, op, val, NULL, NULL, 0);
}

/* Waits while *state == old: spins at most spin_ns, then sleeps. Returns the new state. */
static uint32_t wait_change(struct systrap_msg *m, uint32_t *sleeps, uint32_t old, int64_t spin_ns,
			    bool *interrupted)
{
	uint32_t now = __atomic_load_n(&m->state, __ATOMIC_ACQUIRE);

	if (now == old && spin_ns > 0) {
		int64_t until = now_ns() + spin_ns;

		do {
			__builtin_ia32_pause();
			now = __atomic_load_n(&m->state, __ATOMIC_ACQUIRE);
		} while (now == old && now_ns() < until);
	}
	while (now == old) {
		/* say we sleep, then look again: the partner either sees the flag or we see its store */
		__atomic_store_n(sleeps, 1, __ATOMIC_SEQ_CST);
		now = __atomic_load_n(&m->state, __ATOMIC_SEQ_CST);
		if (now == old && futex(&m->state, FUTEX_WAIT, old) && errno == EINTR && interrupted) {
			*interrupted = true;
			__atomic_store_n(sleeps, 0, __ATOMIC_SEQ_CST);
			return __atomic_load_n(&m->state, __ATOMIC_ACQUIRE);
		}
		__atomic_store_n(sleeps, 0, __ATOMIC_SEQ_CST);
		now = __atomic_load_n(&m->state, __ATOMIC_ACQUIRE);
	}
	return now;
}

static void post(struct systrap_msg *m, uint32_t *partner_sleeps, uint32_t state)
{
	__atomic_store_n(&m->state, state, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(partner_sleeps, __ATOMIC_SEQ_CST))
		futex(&m->state, FUTEX_WAKE, 1);
}

#if defined(__x86_64__)
#define ARG_REGS { REG_RDI, REG_RSI, REG_RDX, REG_R10, REG_R8, REG_R9 }
#define ARG(uc, i) ((uc)->uc_mcontext.gregs[i])
#define SET_RESULT(uc, v) ((uc)->uc_mcontext.gregs[REG_RAX] = (v))
#elif defined(__aarch64__)
#define ARG_REGS { 0, 1, 2, 3, 4, 5 }
#define ARG(uc, i) ((uc)->uc_mcontext.regs[i])
#define SET_RESULT(uc, v) ((uc)->uc_mcontext.regs[0] = (v))
#else
#error "knotif: name the syscall argument and return registers for this architecture"
#endif

/* In the target: hand the trapped call to the supervisor and wait for its answer. */
static void on_sigsys(int sig, siginfo_t *info, void *uctx)
{
	static const int arg_regs[6] = ARG_REGS;
	struct systrap_msg *m = handler_state->msg;
	ucontext_t *uc = uctx;
	int saved_errno = errno;

	m->seq++;
	m->nr = info->si_syscall;
	for (int i = 0; i < 6; i++)
		m->args[i] = (unsigned long)ARG(uc, arg_regs[i]);
	post(m, &m->sup_sleeps, MSG_CALL);
	wait_change(m, &m->target_sleeps, MSG_CALL, handler_state->spin_ns, NULL);
	SET_RESULT(uc, m->ret);
	errno = saved_errno;
}

static int sup_prepare(struct bench *b)
{
	const struct systrap_variant *v = b->m->variant;
	struct systrap_state *s = b->state;
	void *page = mmap(NULL, sizeof(*s->msg), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			  -1, 0);

	if (page == MAP_FAILED)
		return -errno;
	s->msg = page;		/* zero: MSG_IDLE */
	s->spin_ns = v->spin_ns;
	return 0;
}

static int target_setup(struct bench *b)
{
	struct sigaction sa;
	int ret;

	handler_state = b->state;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigsys;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSYS, &sa, NULL))
		return -errno;
	ret = filter_install(&b->sys->nr, 1, SECCOMP_RET_TRAP, 0);
	return ret < 0 ? ret : 0;
}

static int check(struct bench *b, long ret)
{
	struct systrap_state *s = b->state;

	if (s->msg->answered != s->msg->seq)
		return bench_fail(b, "the supervisor answered request %lld, the target sent %lld",
				  (long long)s->msg->answered, (long long)s->msg->seq);
	return check_magic(b, ret);
}

static void target_finish(struct bench *b)
{
	struct systrap_state *s = b->state;

	__atomic_store_n(&s->msg->state, MSG_STOP, __ATOMIC_SEQ_CST);
	futex(&s->msg->state, FUTEX_WAKE, 1);
}

static int supervise(struct bench *b)
{
	struct systrap_state *s = b->state;
	struct systrap_msg *m = s->msg;
	uint32_t state = MSG_IDLE;

	watch_target_exit();
	for (;;) {
		bool interrupted = false;
		uint32_t seen = wait_change(m, &m->sup_sleeps, state, s->spin_ns, &interrupted);

		if (seen == MSG_STOP || (interrupted && target_exited(b)))
			return 0;
		if (seen != MSG_CALL) {
			state = seen;
			continue;
		}
		if (m->nr != b->sys->nr)
			return bench_fail(b, "the SIGSYS handler sent syscall %ld, not %s (%d)", m->nr,
					  b->sys->name, b->sys->nr);
		m->ret = BENCH_MAGIC;
		m->answered = m->seq;
		state = MSG_REPLY;
		post(m, &m->target_sleeps, MSG_REPLY);
	}
}

/* the two variants differ in the spin bound only */
#define SYSTRAP(method_name, spin)                                                             \
	(&(const struct method){ .name = method_name, .kind = KIND_SHARED_MEMORY,                \
		.needs = { FEAT_RET_TRAP, FEAT_COUNT },                                       \
		.variant = &(const struct systrap_variant){ .spin_ns = spin },                \
		.state_size = sizeof(struct systrap_state), .sup_prepare = sup_prepare,       \
		.target_setup = target_setup, .call = call_syscall, .check = check,           \
		.target_finish = target_finish, .supervise = supervise })

const struct method *const systrap_methods[] = {
	SYSTRAP("systrap/futex", 0),
	SYSTRAP("systrap/spin", SYSTRAP_SPIN_NS),
	NULL,
};
