// SPDX-License-Identifier: GPL-2.0
#include "small_file.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

ssize_t small_file_read(int dirfd, const char *name, char *buf, size_t size)
{
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	do
		n = read(fd, buf, size - 1);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		n = -errno;
	close(fd);
	if (n < 0)
		return n;
	buf[n] = '\0';
	return (size_t)n == size - 1 ? -E2BIG : n;
}
