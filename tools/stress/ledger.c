// SPDX-License-Identifier: GPL-2.0
#include "ledger.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <stdbool.h>
#include <sys/wait.h>

__attribute__((format(printf, 3, 4)))
static int broken(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -EPROTO;
}

static void describe_status(char *buf, size_t len, const struct target_slot *t)
{
	if (t->status == -1)
		snprintf(buf, len, "never reaped");
	else if (WIFSIGNALED(t->status))
		snprintf(buf, len, "killed by %s", strsignal(WTERMSIG(t->status)));
	else
		snprintf(buf, len, "exit status %d%s%s", WEXITSTATUS(t->status), t->bad[0] ? ": " : "", t->bad);
}

/* One target's books. */
static int check_target(const struct config *c, const struct stress_mem *m, int i, struct ledger *l,
			char *why, size_t len)
{
	const struct target_slot *t = &m->t[i];
	bool killed = t->status != -1 && WIFSIGNALED(t->status) && WTERMSIG(t->status) == SIGKILL && t->kill_sent;
	int64_t in_call = t->attempts - t->replies - t->eintr - t->enosys;
	int64_t unanswered = t->recv_ok - t->send_ok - t->send_enoent - t->toctou_invalid;
	int64_t lost = t->send_ok - t->replies;
	char st[160];

	describe_status(st, sizeof(st), t);
	if (!killed && (t->status == -1 || !WIFEXITED(t->status) || WEXITSTATUS(t->status)))
		return broken(why, len, "target %d did not finish cleanly: %s", i, st);
	if (killed ? in_call < 0 || in_call > 1 : in_call != 0)
		return broken(why, len, "target %d: issued %lld != replied %lld + eintr %lld + enosys %lld%s",
			      i, (long long)t->attempts, (long long)t->replies, (long long)t->eintr,
			      (long long)t->enosys, killed ? " + at most 1 killed in the call" : "");
	if (t->enosys > 1 || (t->enosys && !m->sh->sup_died))
		return broken(why, len, "target %d saw ENOSYS %lld times with the supervisor %s", i,
			      (long long)t->enosys, m->sh->sup_died ? "dead" : "alive");
	if (!killed && !t->enosys && stress_requests_of(c, i) && t->replies != stress_requests_of(c, i))
		return broken(why, len, "target %d: %lld replies for %lld requests", i, (long long)t->replies,
			      (long long)stress_requests_of(c, i));
	if (unanswered != 0 && !(m->sh->sup_died && unanswered == 1 && t->enosys == 1))
		return broken(why, len, "target %d: received %lld != sent %lld + send ENOENT %lld + id gone %lld",
			      i, (long long)t->recv_ok, (long long)t->send_ok, (long long)t->send_enoent,
			      (long long)t->toctou_invalid);
	/* a successful SEND is lost only when a signal or SIGKILL ends the wait it answered */
	if (lost < 0 || lost > t->eintr + (killed ? in_call : 0))
		return broken(why, len, "target %d: sent %lld replies, received %lld (eintr %lld%s)", i,
			      (long long)t->send_ok, (long long)t->replies, (long long)t->eintr,
			      killed ? ", killed" : "");
	if (t->recv_ok > t->attempts)
		return broken(why, len, "target %d: the supervisor received %lld notifications for %lld calls", i,
			      (long long)t->recv_ok, (long long)t->attempts);
	l->issued += t->attempts;
	l->replied += t->replies;
	l->eintr += t->eintr;
	l->enosys += t->enosys;
	l->killed_in_call += killed ? in_call : 0;
	l->received += t->recv_ok;
	l->sent += t->send_ok;
	l->send_enoent += t->send_enoent;
	l->toctou_invalid += t->toctou_invalid;
	l->lost_after_send += lost;
	l->abandoned += unanswered;
	l->signals_caught += t->signals;
	l->killed += killed;
	l->exited_clean += !killed;
	return 0;
}

int ledger_check(const struct config *c, const struct stress_mem *m, struct ledger *l, char *why, size_t len)
{
	int64_t slot_recv = 0, slot_enoent = 0;
	int ret;

	l->targets = c->targets;
	l->expected_per_target = c->requests;
	l->signals_sent = m->sh->signals_sent;
	l->sup_died = m->sh->sup_died;
	l->kills_sent = m->sh->kills_sent;
	for (int i = 0; i < c->targets; i++) {
		ret = check_target(c, m, i, l, why, len);
		if (ret)
			return ret;
	}
	for (int i = 0; i < m->sh->sup_threads; i++) {
		slot_recv += m->s[i].notifs;
		slot_enoent += m->s[i].send_enoent;
		l->recv_enoent += m->s[i].recv_enoent;
		l->recv_eintr += m->s[i].recv_eintr;
	}
	if (!c->pending && (slot_recv != l->received || slot_enoent != l->send_enoent))
		return broken(why, len, "supervisor threads counted %lld RECVs / %lld SEND ENOENTs, targets' books %lld / %lld",
			      (long long)slot_recv, (long long)slot_enoent, (long long)l->received,
			      (long long)l->send_enoent);
	if (!c->signals && !c->kill && !c->listener_death &&
	    (l->received != l->issued || l->sent != l->replied))
		return broken(why, len, "no faults, yet issued %lld / received %lld / sent %lld / replied %lld",
			      (long long)l->issued, (long long)l->received, (long long)l->sent, (long long)l->replied);
	if (l->orch_fds_after != l->orch_fds_before)
		return broken(why, len, "descriptor leak: the orchestrator had %d open, now %d",
			      l->orch_fds_before, l->orch_fds_after);
	if (!m->sh->sup_died && !c->pending && l->sup_fds_after != l->sup_fds_before)
		return broken(why, len, "descriptor leak: the supervisor started with %d open, ended with %d",
			      l->sup_fds_before, l->sup_fds_after);
	if (c->listener_death && !m->sh->sup_died)
		return broken(why, len, "--listener-death: every target finished before the supervisor died");
	if (c->kill && !l->killed)
		return broken(why, len, "--kill: no target was caught inside its call (give targets more --requests)");
	if (c->signals && !l->signals_sent)
		return broken(why, len, "--signals: no signal was sent");
	return 0;
}

void ledger_format(const struct ledger *l, char *buf, size_t len)
{
	snprintf(buf, len,
		 "issued %lld = replied %lld + eintr %lld + enosys %lld + killed-in-call %lld; "
		 "received %lld = sent %lld + send-ENOENT %lld + id-gone %lld + abandoned %lld; "
		 "sent - replied = %lld lost to a signal/kill after SEND; "
		 "targets %d: %d clean, %d killed; fds orchestrator %d->%d, supervisor %d->%d%s",
		 (long long)l->issued, (long long)l->replied, (long long)l->eintr, (long long)l->enosys,
		 (long long)l->killed_in_call, (long long)l->received, (long long)l->sent,
		 (long long)l->send_enoent, (long long)l->toctou_invalid, (long long)l->abandoned,
		 (long long)l->lost_after_send, l->targets, l->exited_clean, l->killed,
		 l->orch_fds_before, l->orch_fds_after, l->sup_fds_before, l->sup_fds_after,
		 l->sup_died ? " (died on purpose: the kernel closed them)" : "");
}
