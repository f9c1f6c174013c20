// SPDX-License-Identifier: GPL-2.0
/*
 * knotif-run --emulate=mount: new filesystems for a command that may not
 * mount, under rigid controls (mount_policy.h). The filter sends only
 * mount(2) calls that make a new filesystem: a remount, a bind, a move
 * or a propagation change is the kernel's to decide, with the command's
 * own privileges, as is the new mount API (fsopen() and the rest). For
 * each, the supervisor reads source, target, type and options once,
 * checks them against the list and mounts as the thread would
 * (mount_as.h). tools/run/README.md states the security model.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/syscall.h>

#include "emulation.h"
#include "mount_as.h"
#include "mount_policy.h"
#include "target_mem.h"

/* the flags of a mount(2) call that changes an existing mount instead of making a filesystem */
#define NOT_NEW (MS_REMOUNT | MS_BIND | MS_MOVE | MS_SHARED | MS_PRIVATE | MS_SLAVE | MS_UNBINDABLE)

struct mount_call {
	/* mounted, refused (not allowed: EPERM; EINVAL, ENODEV for a malformed call) or failed */
	struct emulated_outcome out;
	/* what the call named, read once; NULL where it passed NULL */
	const char *source, *target, *type, *data;
	char strings[4][PATH_MAX];
	int read_error;		/* a string could not be read: its errno */
	unsigned long flags;
	struct as_target_act act;	/* the helper mounting it (EMULATION_ACTING) */
};

/*
 * The mounts this run has made or is making: MOUNT_MAX_COUNT bounds them.
 * A mount is claimed before its helper starts and given back only when the
 * helper reported that it failed: one in flight, or whose helper died
 * unheard, counts as made.
 */
static int claimed;

/* mount, when no remount, bind, move or propagation flag is set */
static int rules(struct filter_rule *out)
{
	/*
	 * Calls carrying the old MS_MGC_VAL magic in the high bits (it sets
	 * MS_PRIVATE's) look like propagation changes here: the kernel decides
	 * them with the command's own privileges, never the supervisor.
	 */
	out[0] = (struct filter_rule){ .nr = SYS_mount, .arg = 3, .mask = NOT_NEW, .values = { 0 }, .nvalues = 1 };
	return 1;
}

static bool wants(const struct seccomp_notif *req)
{
	return req->data.nr == SYS_mount && !((uint32_t)req->data.args[3] & NOT_NEW);
}

/*
 * The four strings, read once: every later step uses these copies, never
 * the target's memory. 0, or -ENOENT when the call went away; a string
 * that cannot be read sets read_error (and why) instead.
 */
static int read_strings(int listener, const struct seccomp_notif *req, struct mount_call *c)
{
	static const char *const names[] = { "source", "target", "filesystem type", "options" };
	/* what the kernel says for each: copy_mount_string() EINVAL, getname() ENAMETOOLONG */
	static const int too_long[] = { EINVAL, ENAMETOOLONG, EINVAL, EINVAL };
	const char **out[] = { &c->source, &c->target, &c->type, &c->data };
	static const int arg[] = { 0, 1, 2, 4 };
	struct target_mem m;
	ssize_t n = target_mem_open(&m, listener, req->id, (pid_t)req->pid);

	if (n)
		return n == -ENOENT ? -ENOENT : (c->read_error = EIO, 0);
	for (int i = 0; i < 4 && !c->read_error; i++) {
		int truncated = 0;

		if (!req->data.args[arg[i]])
			continue;	/* NULL: none (the kernel's own reading) */
		n = target_mem_string(&m, req->data.args[arg[i]], c->strings[i], sizeof(c->strings[i]),
				      &truncated);
		if (n == -ENOENT) {
			target_mem_close(&m);
			return -ENOENT;
		}
		if (n < 0 || truncated) {
			c->read_error = n < 0 ? (int)-n : too_long[i];
			snprintf(c->out.why, sizeof(c->out.why), "reading the %s: %s", names[i],
				 n < 0 ? strerror((int)-n) : "longer than a page");
		}
		*out[i] = c->strings[i];
	}
	target_mem_close(&m);
	return 0;
}

static int begin(int listener, const struct seccomp_notif *req, void *call, int *wait_fd)
{
	struct mount_call *c = call;
	struct emulated_outcome *o = &c->out;
	struct mount_spec spec;
	int ret;

	memset(c, 0, sizeof(*c));
	c->flags = (unsigned long)req->data.args[3];
	o->verdict = EMULATED_REFUSED;
	ret = read_strings(listener, req, c);
	if (ret)
		return ret;
	if (c->read_error) {
		o->error = c->read_error;
		o->verdict = EMULATED_FAILED;
	} else if (!c->target) {
		o->error = EFAULT;
		o->verdict = EMULATED_FAILED;
		snprintf(o->why, sizeof(o->why), "no mountpoint");
	} else if ((o->error = mount_policy_check(c->type, c->flags, c->data, &spec, o->why, sizeof(o->why)))) {
		/* refused: o->why says why */
	} else if (claimed >= MOUNT_MAX_COUNT) {
		o->error = EPERM;
		snprintf(o->why, sizeof(o->why), "this run has made or is making its %d mounts", MOUNT_MAX_COUNT);
	} else {
		ret = mount_as_start(listener, req->id, (pid_t)req->pid, c->target, c->source, &spec, &c->act,
				     o->why, sizeof(o->why));
		if (ret < 0)
			return ret;
		if (ret == 0) {
			claimed++;
			*wait_fd = c->act.fd;
			return EMULATION_ACTING;
		}
		/* a refusal of mount_as's own (the namespace, the owner) is a refusal, not a failure */
		o->error = ret;
		o->verdict = ret == EPERM ? EMULATED_REFUSED : EMULATED_FAILED;
	}
	return EMULATION_DECIDED;
}

static void finish(void *call)
{
	struct mount_call *c = call;
	struct emulated_outcome *o = &c->out;

	o->error = as_target_finish(&c->act, o->why, sizeof(o->why));
	/* the owner and the propagation are checked in the helper: its EPERM is a refusal */
	o->verdict = !o->error ? EMULATED_DONE : o->error == EPERM ? EMULATED_REFUSED : EMULATED_FAILED;
	if (o->error && c->act.reported)
		claimed--;	/* known not mounted */
}

static void abandon(void *call)
{
	struct mount_call *c = call;

	as_target_abandon(&c->act);	/* its claim stays: it may still mount */
	c->out.error = EIO;
	c->out.verdict = EMULATED_FAILED;
	snprintf(c->out.why, sizeof(c->out.why), "knotif-run ended before the helper did: it may have mounted");
}

static int strings(const void *call, const char *out[EMULATION_MAX_STRINGS])
{
	const struct mount_call *c = call;

	out[0] = c->source;
	out[1] = c->target;
	out[2] = c->type;
	out[3] = c->data;
	return 4;
}

const struct emulation mount_emulation = {
	.name = "mount",
	.help = "mount a tmpfs where the command asks (mount) on a directory it\n"
		"owns in its own mount namespace, nosuid,nodev,noexec, bounded;\n"
		"refuse other filesystems with EPERM (needs root; see README)\n",
	.verdict_names = { [EMULATED_DONE] = "mounted", [EMULATED_REFUSED] = "refused",
			   [EMULATED_FAILED] = "failed" },
	.needs = FEAT_AS_TARGET,
	.rules = rules,
	.wants = wants,
	.call_size = sizeof(struct mount_call),
	.begin = begin,
	.finish = finish,
	.abandon = abandon,
	.strings = strings,
};
