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
 * call's ID_VALID check: lib/seccomp/target_mem.h's target_mem_write().
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

#include "cgroup.h"
#include "emulation.h"
#include "small_file.h"
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

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	n = small_file_read(AT_FDCWD, path, buf, sizeof(buf));
	if (n <= 0)
		return n < 0 ? (int)n : -EINVAL;
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
 * The thread's memory cgroup (its /proc/TID/cgroup, read through proc, an
 * open /proc/TID, found among the supervisor's cgroup mounts): v1's memory
 * hierarchy where one is mounted, else cgroup2's. Its figures, or -errno
 * (-ENOENT: no memory controller here).
 */
static int thread_memcg(int proc, struct memcg *m)
{
	struct cgroup_mount mounts[CGROUP_MAX_MOUNTS];
	const struct cgroup_mount *memory, *v2 = NULL;
	char buf[4096], dir[2 * PATH_MAX], *save = NULL, *line, *controllers, *path;
	const char *v2_path = NULL;
	ssize_t n = small_file_read(proc, "cgroup", buf, sizeof(buf));
	int nmounts = cgroup_mounts(mounts, CGROUP_MAX_MOUNTS);

	if (n < 0)
		return (int)n;
	if (nmounts < 0)
		return nmounts;
	memory = cgroup_hierarchy(mounts, nmounts, "memory");	/* v1's, if it has one */
	*m = (struct memcg){ .limit = UINT64_MAX, .swap_limit = UINT64_MAX };
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const struct cgroup_mount *h;

		if (cgroup_line(line, &controllers, &path))
			continue;
		h = cgroup_hierarchy(mounts, nmounts, controllers);
		if (h && h == memory) {
			snprintf(dir, sizeof(dir), "%s%s", h->point, path);
			return memcg_v1(dir, m);
		}
		if (h && h->v2) {
			v2 = h;
			v2_path = path;
		}
	}
	return v2 ? memcg_v2(v2->point, v2_path, m) : -ENOENT;
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
