// SPDX-License-Identifier: GPL-2.0
#include "mount_as.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <linux/nsfs.h>
#include <linux/openat2.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "as_target.h"
#include "notif.h"

struct mount_work {
	const struct as_target *t;
	int mountinfo;		/* /proc/TID/mountinfo: the target's mounts, as it sees them */
	const char *path, *source;
	const struct mount_spec *spec;
	int owner_userns;	/* the user namespace owning the target's mount namespace; -1: ours */
};

/* Are a and b one namespace? */
static bool same_ns(int a, int b)
{
	struct stat sa, sb;

	return !fstat(a, &sa) && !fstat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/*
 * Is mount mnt_id shared in mountinfo (a peer group: a mount on it would
 * propagate to every peer, in other namespaces, the host's among them)?
 * 1, 0, or -errno (-ENOENT: not listed).
 */
static int is_shared(int mountinfo, uint64_t mnt_id)
{
	char *line = NULL;	/* getline: a long line split would read its tail as another mount's */
	size_t cap = 0;
	int ret = -ENOENT;
	FILE *f = fdopen(mountinfo, "r");

	if (!f)
		return -errno;
	while (getline(&line, &cap, f) > 0) {
		char *end, *sep = strstr(line, " - ");

		if (strtoull(line, &end, 10) != mnt_id || end == line || !sep)
			continue;
		*sep = '\0';	/* the optional fields end there */
		ret = strstr(line, " shared:") != NULL;
		break;
	}
	free(line);
	fclose(f);
	return ret;
}

/* fsconfig() each of spec's options on fs: 0 or the errno */
static int configure(int fs, const char *source, const struct mount_spec *spec)
{
	char v[32];

	if (source && fsconfig(fs, FSCONFIG_SET_STRING, "source", source, 0))
		return errno;
	snprintf(v, sizeof(v), "%llu", spec->size);
	if (fsconfig(fs, FSCONFIG_SET_STRING, "size", v, 0))
		return errno;
	snprintf(v, sizeof(v), "%llu", spec->nr_inodes);
	if (fsconfig(fs, FSCONFIG_SET_STRING, "nr_inodes", v, 0))
		return errno;
	snprintf(v, sizeof(v), "%o", spec->mode);
	if (spec->mode >= 0 && fsconfig(fs, FSCONFIG_SET_STRING, "mode", v, 0))
		return errno;
	if (spec->rdonly && fsconfig(fs, FSCONFIG_SET_FLAG, "ro", NULL, 0))
		return errno;
	return fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) ? errno : 0;
}

/*
 * A directory of a kernel pseudo-filesystem: its owner is a process's or
 * the kernel's (/proc/PID is its process's euid), never a directory the
 * thread made, and a mount over it hides what others read there.
 */
static bool pseudo_fs(int dir)
{
	static const unsigned long magic[] = {
		PROC_SUPER_MAGIC, SYSFS_MAGIC, CGROUP_SUPER_MAGIC, CGROUP2_SUPER_MAGIC, DEBUGFS_MAGIC,
		TRACEFS_MAGIC, SECURITYFS_MAGIC, BPF_FS_MAGIC, DEVPTS_SUPER_MAGIC, PSTOREFS_MAGIC,
		EFIVARFS_MAGIC, BINFMTFS_MAGIC, NSFS_MAGIC, 0x19800202 /* mqueue */, 0x65735543 /* fusectl */,
		0x62656570 /* configfs */,
	};
	struct statfs sf;

	if (fstatfs(dir, &sf))
		return true;	/* unknown: not the thread's */
	for (size_t i = 0; i < sizeof(magic) / sizeof(magic[0]); i++)
		if ((unsigned long)sf.f_type == magic[i])
			return true;
	return false;
}

/* In the helper: the checks, then the mount. 0 or the errno, the step in *step. */
static int mount_here(const struct mount_work *w, const char **step)
{
	struct open_how how = { .flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
				.resolve = RESOLVE_NO_MAGICLINKS };
	struct statx stx;
	struct stat st;
	int dir, fs = -1, mnt = -1, err, shared;

	*step = "resolving the mountpoint";
	dir = (int)syscall(SYS_openat2, AT_FDCWD, w->path, &how, sizeof(how));
	if (dir < 0)
		return errno;
	if (fstat(dir, &st)) {
		*step = "reading the mountpoint's owner";
		err = errno;
		goto out;
	}
	if (st.st_uid != w->t->fsuid) {
		*step = "the mountpoint is not a directory the target owns";
		err = EPERM;
		goto out;
	}
	if (pseudo_fs(dir)) {
		*step = "the mountpoint is on a kernel pseudo-filesystem (proc, sysfs, ...), not a directory the target owns";
		err = EPERM;
		goto out;
	}
	*step = "reading the mountpoint's mount";
	if (statx(dir, "", AT_EMPTY_PATH, STATX_MNT_ID, &stx)) {
		err = errno;
		goto out;
	}
	shared = is_shared(w->mountinfo, stx.stx_mnt_id);
	if (shared) {
		*step = shared > 0 ? "the mountpoint is on a shared mount (a mount there propagates to its peers)"
				   : "finding the mountpoint's mount in the target's mountinfo";
		err = shared > 0 ? EPERM : -shared;
		goto out;
	}
	/* the superblock belongs to the user namespace that would own it if the thread could mount */
	*step = "entering the user namespace owning the target's mount namespace";
	if (w->owner_userns >= 0 && setns(w->owner_userns, CLONE_NEWUSER)) {
		err = errno;
		goto out;
	}
	*step = "fsopen";
	fs = fsopen(w->spec->type, FSOPEN_CLOEXEC);
	if (fs < 0) {
		err = errno;
		goto out;
	}
	*step = "configuring the filesystem";
	err = configure(fs, w->source, w->spec);
	if (err)
		goto out;
	*step = "fsmount";
	mnt = fsmount(fs, FSMOUNT_CLOEXEC, w->spec->attr);
	if (mnt < 0) {
		err = errno;
		goto out;
	}
	*step = "move_mount";
	err = move_mount(mnt, "", dir, "", MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) ? errno : 0;
out:
	if (mnt >= 0)
		close(mnt);
	if (fs >= 0)
		close(fs);
	close(dir);
	return err;
}

static void mount_in_helper(void *arg, int out)
{
	const struct mount_work *w = arg;
	const char *step = "";
	int err = as_target_become(w->t, CAP_SYS_ADMIN, &step);

	if (!err)
		err = mount_here(w, &step);
	as_target_report(out, err, err ? step : "");
}

int mount_as_start(int listener, uint64_t id, pid_t tid, const char *path, const char *source,
		   const struct mount_spec *spec, struct as_target_act *act, char *why, size_t why_len)
{
	struct as_target t = AS_TARGET_INIT;
	struct mount_work w = { .t = &t, .path = path, .source = source, .spec = spec, .owner_userns = -1 };
	int own_mntns = -1, own_userns = -1, ret;
	char name[64];

	/* before as_target_take(): its ID_VALID check then covers this too */
	snprintf(name, sizeof(name), "/proc/%d/mountinfo", (int)tid);
	w.mountinfo = open(name, O_RDONLY | O_CLOEXEC);
	if (w.mountinfo < 0) {
		int err = errno;

		if (notif_id_valid(listener, id))
			return -ENOENT;	/* the target left, and its /proc with it */
		snprintf(why, why_len, "reading the target's mountinfo: %s", strerror(err));
		return EIO;
	}
	ret = as_target_take(&t, listener, id, tid, AT_FDCWD, path, why, why_len);
	if (ret) {
		close(w.mountinfo);
		return ret;
	}
	own_mntns = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
	own_userns = open("/proc/self/ns/user", O_RDONLY | O_CLOEXEC);
	w.owner_userns = ioctl(t.mntns, NS_GET_USERNS);
	if (own_mntns < 0 || own_userns < 0 || w.owner_userns < 0) {
		snprintf(why, why_len, "reading the namespaces: %s", strerror(errno));
		ret = EIO;
	} else if (same_ns(t.mntns, own_mntns)) {
		snprintf(why, why_len, "the target shares the supervisor's mount namespace");
		ret = EPERM;
	} else {
		if (same_ns(w.owner_userns, own_userns)) {
			close(w.owner_userns);
			w.owner_userns = -1;
		}
		ret = as_target_start(&t, mount_in_helper, &w, act, why, why_len);
	}
	/* the helper has its own copies of what follows */
	if (w.owner_userns >= 0)
		close(w.owner_userns);
	if (own_userns >= 0)
		close(own_userns);
	if (own_mntns >= 0)
		close(own_mntns);
	close(w.mountinfo);
	as_target_close(&t);
	return ret;
}
