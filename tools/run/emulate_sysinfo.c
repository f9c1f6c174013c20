// SPDX-License-Identifier: GPL-2.0
/*
 * knotif-run --emulate=sysinfo: sysinfo(2) as a container sees its memory,
 * as LXCFS and Incus answer it. The filter sends every sysinfo call; the
 * supervisor takes the host's own answer and puts in the calling thread's
 * memory cgroup instead of the host's RAM: totalram the cgroup's effective
 * limit (the smallest of its own and its ancestors'; the host's RAM where
 * none is set, or where the host has less), freeram that limit less the
 * cgroup's usage, sharedram its shmem, bufferram 0 (a cgroup has no buffer
 * cache of its own), and the swap the cgroup may use likewise (v2:
 * memory.swap.max, v1: memory.memsw less memory). Uptime, loads and the
 * process count stay the host's. Both cgroup versions: the memory
 * controller's hierarchy is the one /proc/TID/cgroup names, found among the
 * supervisor's cgroup mounts.
 *
 * The answer is written into the thread's buffer as the kernel would write
 * it, only where the thread could write (a read-only or unmapped buffer gets
 * EFAULT, as copy_to_user() gives), through /proc/TID/mem opened before the
 * call's ID_VALID check: lib/target_mem.h's target_mem_write().
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include "emulation.h"
#include "target_mem.h"

struct sysinfo_call {
	struct emulated_outcome out;	/* answered, or failed (EFAULT; EIO when /proc refused) */
	uint64_t addr;			/* the thread's struct sysinfo */
	struct sysinfo info;		/* what it was answered */
};

/* a memory cgroup's figures, in bytes; UINT64_MAX: no limit */
struct memcg {
	uint64_t limit, usage, swap_limit, swap_usage, shmem;
};

static int rules(struct filter_rule *out)
{
	out[0] = (struct filter_rule){ .nr = SYS_sysinfo };
	return 1;
}

static bool wants(const struct seccomp_notif *req)
{
	return req->data.nr == SYS_sysinfo;
}

/* One number from a cgroup file: "max" is UINT64_MAX. 0, or -errno. */
static int read_u64(const char *dir, const char *file, uint64_t *v)
{
	char path[PATH_MAX + 64], buf[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return n < 0 ? -errno : -EINVAL;
	buf[n] = '\0';
	if (!strncmp(buf, "max", 3)) {
		*v = UINT64_MAX;
		return 0;
	}
	return sscanf(buf, "%" SCNu64, v) == 1 ? 0 : -EINVAL;
}

/* One "key value" line of a memory.stat: 0, or -errno (-ENOENT: no such key). */
static int read_stat(const char *dir, const char *key, uint64_t *v)
{
	char path[PATH_MAX + 64], line[256], name[128];
	uint64_t value;
	FILE *f;
	int ret = -ENOENT;

	snprintf(path, sizeof(path), "%s/memory.stat", dir);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (ret && fgets(line, sizeof(line), f))
		if (sscanf(line, "%127s %" SCNu64, name, &value) == 2 && !strcmp(name, key)) {
			*v = value;
			ret = 0;
		}
	fclose(f);
	return ret;
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* v1: the kernel's own hierarchical limits (memory.stat); memsw is memory + swap */
static int memcg_v1(const char *dir, struct memcg *m)
{
	uint64_t memsw = UINT64_MAX, memsw_usage = 0;
	int ret = read_stat(dir, "hierarchical_memory_limit", &m->limit);

	if (!ret)
		ret = read_u64(dir, "memory.usage_in_bytes", &m->usage);
	if (ret)
		return ret;
	read_stat(dir, "total_shmem", &m->shmem);
	/* without swap accounting (no memsw files) no swap is the cgroup's to report */
	if (!read_stat(dir, "hierarchical_memsw_limit", &memsw) &&
	    !read_u64(dir, "memory.memsw.usage_in_bytes", &memsw_usage)) {
		m->swap_limit = memsw > m->limit ? memsw - m->limit : 0;
		m->swap_usage = memsw_usage > m->usage ? memsw_usage - m->usage : 0;
	}
	return 0;
}

/* v2: the smallest limit from the cgroup up to the hierarchy's root (which has none) */
static int memcg_v2(const char *mount, const char *path, struct memcg *m)
{
	char dir[PATH_MAX + 64];
	size_t root_len = strlen(mount);
	uint64_t v;
	int ret;

	snprintf(dir, sizeof(dir), "%s%s", mount, path);
	ret = read_u64(dir, "memory.current", &m->usage);
	if (ret)
		return ret;
	read_stat(dir, "shmem", &m->shmem);
	read_u64(dir, "memory.swap.current", &m->swap_usage);
	for (;;) {
		char *slash;

		if (!read_u64(dir, "memory.max", &v))
			m->limit = min_u64(m->limit, v);
		if (!read_u64(dir, "memory.swap.max", &v))
			m->swap_limit = min_u64(m->swap_limit, v);
		slash = strrchr(dir, '/');
		if (!slash || (size_t)(slash - dir) < root_len)
			break;
		*slash = '\0';
	}
	return 0;
}

/*
 * The mount point of the hierarchy holding the memory controller, from this
 * (the supervisor's) mount namespace: v1 a cgroup mount with "memory" in its
 * options, v2 the cgroup2 mount. 0, or -ENOENT.
 */
static int hierarchy_mount(bool v2, char *point, size_t len)
{
	char *line = NULL, mp[PATH_MAX], fstype[32], super[512];
	size_t cap = 0;
	FILE *f = fopen("/proc/self/mountinfo", "re");
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while (ret && getline(&line, &cap, f) > 0) {
		const char *sep = strstr(line, " - ");
		char root[PATH_MAX];

		if (!sep || sscanf(line, "%*s %*s %*s %4095s %4095s", root, mp) != 2 || strcmp(root, "/") ||
		    sscanf(sep + 3, "%31s %*s %511s", fstype, super) != 2)
			continue;
		if (v2 ? !strcmp(fstype, "cgroup2") :
			 !strcmp(fstype, "cgroup") && (strstr(super, ",memory") || !strncmp(super, "memory", 6))) {
			snprintf(point, len, "%s", mp);
			ret = 0;
		}
	}
	free(line);
	fclose(f);
	return ret;
}

/*
 * The thread's memory cgroup (its /proc/TID/cgroup, read through proc, an
 * open /proc/TID): its figures, or -errno (-ENOENT: no memory controller
 * is mounted here).
 */
static int thread_memcg(int proc, struct memcg *m)
{
	char buf[4096], point[PATH_MAX], dir[2 * PATH_MAX], *save = NULL, *line;
	const char *v2_path = NULL;
	ssize_t n;
	int fd = openat(proc, "cgroup", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return n < 0 ? -errno : -EIO;
	buf[n] = '\0';
	*m = (struct memcg){ .limit = UINT64_MAX, .swap_limit = UINT64_MAX };
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *controllers = strchr(line, ':'), *path;

		path = controllers ? strchr(controllers + 1, ':') : NULL;
		if (!path)
			continue;
		*path++ = '\0';
		controllers++;
		if (!*controllers) {
			v2_path = path;
			continue;
		}
		/* v1: "memory" among the comma-separated controllers */
		for (char *c = controllers, *end; c; c = end ? end + 1 : NULL) {
			end = strchr(c, ',');
			if (end)
				*end = '\0';
			if (!strcmp(c, "memory") && !hierarchy_mount(false, point, sizeof(point))) {
				snprintf(dir, sizeof(dir), "%s%s", point, path);
				return memcg_v1(dir, m);
			}
		}
	}
	if (v2_path && !hierarchy_mount(true, point, sizeof(point)))
		return memcg_v2(point, v2_path, m);
	return -ENOENT;
}

/* The host's answer with the cgroup's memory in it (units: mem_unit bytes). */
static void contain(struct sysinfo *si, const struct memcg *m)
{
	uint64_t unit = si->mem_unit ? si->mem_unit : 1;
	uint64_t total = min_u64((uint64_t)si->totalram * unit, m->limit);
	uint64_t swap = min_u64((uint64_t)si->totalswap * unit, m->swap_limit);

	si->totalram = total / unit;
	si->freeram = (total > m->usage ? total - m->usage : 0) / unit;
	si->sharedram = min_u64(m->shmem, total) / unit;
	si->bufferram = 0;
	si->totalswap = swap / unit;
	si->freeswap = (swap > m->swap_usage ? swap - m->swap_usage : 0) / unit;
}

static int begin(int listener, const struct seccomp_notif *req, void *call, int *wait_fd)
{
	struct sysinfo_call *c = call;
	struct emulated_outcome *o = &c->out;
	struct target_mem mem;
	struct memcg m;
	int ret;

	(void)wait_fd;	/* no act runs apart: the answer is computed and written here */
	memset(c, 0, sizeof(*c));
	c->addr = req->data.args[0];
	o->verdict = EMULATED_FAILED;
	ret = target_mem_open_rw(&mem, listener, req->id, (pid_t)req->pid);
	if (ret == -ENOENT)
		return ret;
	if (ret) {
		o->error = EIO;
		snprintf(o->why, sizeof(o->why), "opening the target's memory: %s", strerror(-ret));
		return EMULATION_DECIDED;
	}
	sysinfo(&c->info);
	ret = thread_memcg(mem.dir, &m);
	if (!ret) {
		contain(&c->info, &m);
	} else if (ret != -ENOENT) {	/* -ENOENT: no memory controller mounted here, the host's answer */
		o->error = EIO;
		snprintf(o->why, sizeof(o->why), "reading the target's memory cgroup: %s", strerror(-ret));
		target_mem_close(&mem);
		return EMULATION_DECIDED;
	}
	ret = target_mem_write(&mem, c->addr, &c->info, sizeof(c->info));
	target_mem_close(&mem);
	if (ret == -EFAULT) {
		o->error = EFAULT;
		snprintf(o->why, sizeof(o->why), "the buffer is not the target's to write");
	} else if (ret) {
		o->error = -ret;
		snprintf(o->why, sizeof(o->why), "writing the answer: %s", strerror(-ret));
	} else {
		o->verdict = EMULATED_DONE;
	}
	return EMULATION_DECIDED;
}

static int strings(const void *call, const char *out[EMULATION_MAX_STRINGS])
{
	(void)call;
	(void)out;
	return 0;
}

const struct emulation sysinfo_emulation = {
	.name = "sysinfo",
	.help = "answer sysinfo(2) with the command's memory cgroup as its RAM\n"
		"and swap (limit, usage, shmem), as LXCFS does\n",
	.verdict_names = { [EMULATED_DONE] = "answered", [EMULATED_REFUSED] = "refused",
			   [EMULATED_FAILED] = "failed" },
	.needs = FEAT_COUNT,	/* its target's memory, as every knotif-run reads it: no root */
	.rules = rules,
	.wants = wants,
	.call_size = sizeof(struct sysinfo_call),
	.begin = begin,
	.strings = strings,
};
