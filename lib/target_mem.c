// SPDX-License-Identifier: GPL-2.0
#include "target_mem.h"

#include <errno.h>
#include <fcntl.h>
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
	m->fd = -1;
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
