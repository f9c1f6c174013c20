// SPDX-License-Identifier: GPL-2.0
#include "emulate_mount.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/syscall.h>

#include "target_mem.h"

/* the flags of a mount(2) call that changes an existing mount instead of making a filesystem */
#define NOT_NEW (MS_REMOUNT | MS_BIND | MS_MOVE | MS_SHARED | MS_PRIVATE | MS_SLAVE | MS_UNBINDABLE)

const char *const mount_verdict_names[3] = {
	[MOUNT_MOUNTED] = "mounted", [MOUNT_REFUSED] = "refused", [MOUNT_FAILED] = "failed",
};

int emulate_mount_rules(struct filter_rule *out)
{
	/*
	 * Calls carrying the old MS_MGC_VAL magic in the high bits (it sets
	 * MS_PRIVATE's) look like propagation changes here: the kernel decides
	 * them with the command's own privileges, never the supervisor.
	 */
	out[0] = (struct filter_rule){ .nr = SYS_mount, .arg = 3, .mask = NOT_NEW, .values = { 0 }, .nvalues = 1 };
	return 1;
}

int emulate_mount_wants(const struct seccomp_notif *req)
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
			snprintf(c->why, sizeof(c->why), "reading the %s: %s", names[i],
				 n < 0 ? strerror((int)-n) : "longer than a page");
		}
		*out[i] = c->strings[i];
	}
	target_mem_close(&m);
	return 0;
}

int emulate_mount(int listener, struct notif_buf *nb, int mounted, struct mount_call *c)
{
	const struct seccomp_notif *req = nb->req;
	struct mount_spec spec;
	int ret;

	memset(c, 0, sizeof(*c));
	c->flags = (unsigned long)req->data.args[3];
	c->verdict = MOUNT_REFUSED;
	ret = read_strings(listener, req, c);
	if (ret)
		return ret;
	if (c->read_error) {
		c->error = c->read_error;
		c->verdict = MOUNT_FAILED;
	} else if (!c->target) {
		c->error = EFAULT;
		c->verdict = MOUNT_FAILED;
		snprintf(c->why, sizeof(c->why), "no mountpoint");
	} else if ((c->error = mount_policy_check(c->type, c->flags, c->data, &spec, c->why, sizeof(c->why)))) {
		/* refused: c->why says why */
	} else if (mounted >= MOUNT_MAX_COUNT) {
		c->error = EPERM;
		snprintf(c->why, sizeof(c->why), "this run has made its %d mounts", MOUNT_MAX_COUNT);
	} else {
		ret = mount_as(listener, req->id, (pid_t)req->pid, c->target, c->source, &spec, c->why,
			       sizeof(c->why));
		if (ret < 0)
			return ret;
		c->error = ret;
		/* a refusal of mount_as's own (the namespace, the owner) is a refusal, not a failure */
		c->verdict = !ret ? MOUNT_MOUNTED : ret == EPERM ? MOUNT_REFUSED : MOUNT_FAILED;
	}
	return notif_send_emulate(listener, nb, req->id, 0, c->error);
}
