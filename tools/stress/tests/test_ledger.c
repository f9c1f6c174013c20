// SPDX-License-Identifier: GPL-2.0
/*
 * The ledger must catch every way the books can fail to balance: feed it a
 * balanced run, then break one identity at a time and expect the message
 * that names it.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "ledger.h"

#define TARGETS 3
#define REQUESTS 10

static int failures;

static void balanced(const struct config *c, struct stress_mem *m)
{
	stress_mem_reset(m, TARGETS, 1);
	m->sh->sup_threads = 1;
	for (int i = 0; i < c->targets; i++) {
		struct target_slot *t = &m->t[i];

		t->attempts = t->replies = t->recv_ok = t->send_ok = REQUESTS;
		t->status = 0;	/* exit 0 */
		t->exited = 1;
		m->s[0].notifs += REQUESTS;
	}
}

static void expect(const char *what, const struct config *c, struct stress_mem *m, const char *want)
{
	struct ledger l = { .orch_fds_before = 5, .orch_fds_after = 5, .sup_fds_before = 6, .sup_fds_after = 6 };
	char why[256] = "";
	int ret = ledger_check(c, m, &l, why, sizeof(why));

	if (!want && ret) {
		printf("not ok: %s: balanced books rejected: %s\n", what, why);
		failures++;
	} else if (want && (!ret || !strstr(why, want))) {
		printf("not ok: %s: want an error containing '%s', got %s'%s'\n", what, want, ret ? "" : "success ",
		       why);
		failures++;
	} else {
		printf("ok: %s%s%s\n", what, want ? ": " : "", want ? why : "");
	}
}

int main(void)
{
	struct config c = { .targets = TARGETS, .requests = REQUESTS };
	struct stress_mem m;

	if (stress_mem_map(&m, TARGETS, 1, TARGETS)) {
		perror("mmap");
		return 1;
	}
	balanced(&c, &m);
	expect("balanced", &c, &m, NULL);

	balanced(&c, &m);
	m.t[1].status = -1;
	m.t[1].exited = 0;
	expect("a target never reaped", &c, &m, "target 1 did not finish cleanly: never reaped");

	balanced(&c, &m);
	m.t[2].status = 1 << 8;
	expect("a target exiting 1", &c, &m, "target 2 did not finish cleanly: exit status 1");

	balanced(&c, &m);
	m.t[0].replies--;
	m.t[0].send_ok--;
	m.t[0].recv_ok--;
	m.s[0].notifs--;
	expect("a target one reply short", &c, &m, "target 0: issued 10 != replied 9");

	balanced(&c, &m);
	m.t[0].send_ok--;
	expect("a received notification never answered", &c, &m, "received 10 != sent 9");

	balanced(&c, &m);
	m.t[1].send_ok++;
	m.t[1].recv_ok++;
	m.s[0].notifs++;
	expect("a reply sent but never received, no fault to explain it", &c, &m, "sent 11 replies, received 10");

	balanced(&c, &m);
	m.t[1].eintr = 1;
	m.t[1].attempts++;
	m.t[1].send_ok++;
	m.t[1].recv_ok++;
	m.s[0].notifs++;
	c.signals = true;
	m.sh->signals_sent = 1;
	expect("a reply lost to a signal after SEND", &c, &m, NULL);
	c.signals = false;

	balanced(&c, &m);
	m.t[2].status = SIGKILL;
	m.t[2].kill_sent = 1;
	m.t[2].attempts++;
	c.kill = true;
	expect("a target killed inside its call", &c, &m, NULL);
	m.t[2].attempts++;
	expect("a killed target with two calls in flight", &c, &m, "at most 1 killed in the call");
	c.kill = false;

	balanced(&c, &m);
	m.t[0].enosys = 1;
	m.t[0].attempts++;
	expect("ENOSYS while the supervisor lives", &c, &m, "saw ENOSYS 1 times with the supervisor alive");

	balanced(&c, &m);
	c.listener_death = true;
	expect("--listener-death that never happened", &c, &m, "every target finished before the supervisor died");
	c.listener_death = false;

	balanced(&c, &m);
	m.s[0].notifs++;
	expect("supervisor threads disagree with the targets' books", &c, &m, "supervisor threads counted 31 RECVs");

	balanced(&c, &m);
	{
		struct ledger l = { .orch_fds_before = 5, .orch_fds_after = 6, .sup_fds_before = 6, .sup_fds_after = 6 };
		char why[256];

		if (ledger_check(&c, &m, &l, why, sizeof(why)) && strstr(why, "the orchestrator had 5 open, now 6")) {
			printf("ok: a leaked descriptor: %s\n", why);
		} else {
			printf("not ok: a leaked descriptor went unnoticed\n");
			failures++;
		}
	}
	stress_mem_unmap(&m);
	return failures ? 1 : 0;
}
