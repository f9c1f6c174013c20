/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_RUN_EMULATION_H
#define KNOTIF_RUN_EMULATION_H

#include <linux/seccomp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "filter.h"
#include "kernel_features.h"

/*
 * An emulated system call: knotif-run --emulate=NAME answers it itself
 * instead of letting it continue. Each is one file (emulate_NAME.c) that
 * defines one struct emulation, and one line of emulations.c's table; the
 * supervisor does the rest the same way for all of them (receive, serve,
 * reply with the outcome's error, log it, count it). tools/run/README.md
 * says how to add one.
 */

/* How an emulated call ended; each emulation names them (verdict_names). */
enum emulated_verdict {
	EMULATED_DONE,		/* allowed and done: the call returns 0 */
	EMULATED_REFUSED,	/* not allowed: an errno (EPERM), nothing done */
	EMULATED_FAILED,	/* allowed, and doing it failed as the thread's own attempt would: its errno */
	EMULATED_VERDICTS
};

/* The first member of every emulation's call: what the supervisor replies and logs. */
struct emulated_outcome {
	enum emulated_verdict verdict;
	int error;		/* what the call returns: 0, or an errno */
	char why[160];		/* why it was refused or failed (which step), for the log */
	/*
	 * The act answers the notification itself (its helper sends error as
	 * the reply right after its report): the supervisor logs, and sends
	 * nothing. A target that left meanwhile is not told apart.
	 */
	bool answered;
};

#define EMULATION_MAX_STRINGS 4

/* what begin() returns besides -errno */
enum { EMULATION_DECIDED, EMULATION_ACTING, EMULATION_DEFER };

struct emulation {
	const char *name;	/* --emulate=NAME, the summary's key */
	/* its --help lines, each "  " + text, after "--emulate=NAME" */
	const char *help;
	const char *verdict_names[EMULATED_VERDICTS];	/* "created", "refused", "failed" */
	enum feature needs;	/* what it probes for before the command starts (FEAT_COUNT: nothing) */
	/*
	 * --policy=FILE (NULL: the emulation's default), before the command
	 * starts: 0, or why it is unusable (exit 2). NULL: it takes no policy.
	 */
	int (*configure)(const char *policy_path, char *why, size_t why_len);
	/* The filter rules that send its calls (FILTER_MAX_SYSCALLS in all): how many. */
	int (*rules)(struct filter_rule *out);
	/* Is req one of its calls? (A watched call the rules also send is still its own.) */
	bool (*wants)(const struct seccomp_notif *req);
	size_t call_size;	/* its call, which starts with struct emulated_outcome */
	/*
	 * Begins one call: reads what it names once and decides. EMULATION_DECIDED
	 * when the outcome is known (a refusal, a failure before acting);
	 * EMULATION_ACTING when an act has started whose outcome finish() takes
	 * once *wait_fd is readable (the supervisor serves other calls
	 * meanwhile, and replies only then); EMULATION_DEFER when it would wait
	 * for an act that has ended and is not yet taken (finish()): nothing was
	 * done, and the call is begun again once ended acts are taken; -ENOENT when the target left before
	 * anything was done (no reply, no line); another -errno ends the run.
	 */
	int (*begin)(int listener, const struct seccomp_notif *req, void *call, int *wait_fd);
	/* The act's outcome, into the call's, once wait_fd is readable. */
	void (*finish)(void *call);
	/*
	 * The supervisor ends with the act unheard: stop it, and fill the
	 * outcome with what is known (EMULATED_FAILED, why: it may still be done).
	 */
	void (*abandon)(void *call);
	/*
	 * The run is over and every act has ended or been abandoned: stop what
	 * it keeps between calls (its helpers). NULL: it keeps nothing.
	 */
	void (*end)(void);
	/*
	 * The summary's count of the helpers it kept (NULL: it keeps none):
	 * how many started, and how many calls went to one already running.
	 */
	void (*helper_counts)(int64_t *started, int64_t *reused);
	/* The strings its log line shows, as acted on (NULL where the call passed none): how many. */
	int (*strings)(const void *call, const char *out[EMULATION_MAX_STRINGS]);
};

/* emulations.c: every emulation, NULL-terminated, in --help's order. */
extern const struct emulation *const emulations[];
#define EMULATIONS_MAX 8

#endif
