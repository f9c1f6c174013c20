// SPDX-License-Identifier: GPL-2.0
#include "target_mem.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "notif.h"

static int still_valid(struct target_mem *m)
{
	m->syscalls++;
	return notif_id_valid(m->listener, m->id) ? -ENOENT : 0;
}

int target_mem_open(struct target_mem *m, int listener, uint64_t id, pid_t pid)
{
	char path[64];

	m->listener = listener;
	m->id = id;
	m->pid = pid;
	m->dir = -1;
	m->syscalls = 1;
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
	m->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (m->fd < 0) {
		int err = -errno;

		/* a vanished target explains any failure: report it as such */
		return still_valid(m) ? -ENOENT : err;
	}
	/* the pid might have been reused between the notification and open() */
	if (still_valid(m)) {
		target_mem_close(m);
		return -ENOENT;
	}
	return 0;
}

void target_mem_close(struct target_mem *m)
{
	if (m->fd >= 0) {
		close(m->fd);
		m->syscalls++;
	}
	if (m->dir >= 0) {
		close(m->dir);
		m->syscalls++;
	}
	m->fd = m->dir = -1;
}

int target_mem_open_rw(struct target_mem *m, int listener, uint64_t id, pid_t pid)
{
	char path[64];
	int err = 0;

	m->listener = listener;
	m->id = id;
	m->pid = pid;
	m->fd = -1;
	m->syscalls = 2;
	snprintf(path, sizeof(path), "/proc/%d", (int)pid);
	m->dir = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (m->dir >= 0) {
		m->fd = openat(m->dir, "mem", O_RDWR | O_CLOEXEC);
		m->syscalls++;
	}
	if (m->fd < 0)
		err = -errno;
	/* whatever failed, a vanished target explains it; and what opened is the waiting one's */
	if (still_valid(m)) {
		target_mem_close(m);
		return -ENOENT;
	}
	if (err)
		target_mem_close(m);
	return err;
}

/* Is [addr, addr + len) all in mappings the target may write? (its maps, sorted by address) */
static bool writable(struct target_mem *m, uint64_t addr, size_t len)
{
	uint64_t end = addr + len, lo, hi;
	char line[512], perms[8];
	FILE *f;
	int fd;

	if (end < addr)
		return false;	/* past the end of the address space */
	fd = openat(m->dir, "maps", O_RDONLY | O_CLOEXEC);
	m->syscalls++;
	if (fd < 0 || !(f = fdopen(fd, "re"))) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	/* covered by adjacent writable mappings, from addr on */
	while (addr < end && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s", &lo, &hi, perms) != 3 || hi <= addr)
			continue;
		if (lo > addr || perms[1] != 'w')
			break;
		addr = hi;
	}
	fclose(f);
	return addr >= end;
}

int target_mem_write(struct target_mem *m, uint64_t addr, const void *buf, size_t len)
{
	ssize_t n;

	if (!addr || !writable(m, addr, len))
		return -EFAULT;
	n = pwrite(m->fd, buf, len, (off_t)addr);
	m->syscalls++;
	if (n == (ssize_t)len)
		return 0;
	/* the mapping changed since its maps were read, or the target is gone */
	return n < 0 && errno != EIO ? -errno : -EFAULT;
}

ssize_t target_mem_read(struct target_mem *m, uint64_t addr, void *buf, size_t len)
{
	struct iovec local = { buf, len }, remote = { (void *)(uintptr_t)addr, len };
	ssize_t n = process_vm_readv(m->pid, &local, 1, &remote, 1, 0);
	int err = errno;

	m->syscalls++;
	if (n < 0 && err == ENOSYS) {	/* a kernel without CONFIG_CROSS_MEMORY_ATTACH */
		n = pread(m->fd, buf, len, (off_t)addr);
		err = errno;
		m->syscalls++;
	}

	if (still_valid(m))
		return -ENOENT;
	return n < 0 ? -err : n;
}

ssize_t target_mem_string(struct target_mem *m, uint64_t addr, char *buf, size_t size,
			  int *truncated)
{
	size_t have = 0;
	long page = sysconf(_SC_PAGESIZE);

	*truncated = 0;
	if (!size)
		return -EINVAL;
	/* page by page: a short string near the end of a mapping is still readable */
	while (have < size - 1) {
		uint64_t at = addr + have;
		size_t chunk = (size_t)page - (size_t)(at % (uint64_t)page);
		ssize_t n;
		char *nul;

		if (chunk > size - 1 - have)
			chunk = size - 1 - have;
		n = target_mem_read(m, at, buf + have, chunk);
		if (n < 0)
			return n;
		if (n == 0)
			return -EFAULT;
		nul = memchr(buf + have, '\0', (size_t)n);
		if (nul)
			return nul - buf;
		have += (size_t)n;
		if ((size_t)n < chunk)
			return -EFAULT;	/* ran into unmapped memory before a NUL */
	}
	buf[size - 1] = '\0';
	*truncated = 1;
	return (ssize_t)(size - 1);
}
