// SPDX-License-Identifier: GPL-2.0
#include "pdeath.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

/*
 * The parent's pid from /proc/self/stat, not getppid(): a caller may sit
 * under a seccomp filter that traps getppid (knotif-stress's targets do).
 */
static pid_t parent_of_self(void)
{
	char buf[512], *end;
	int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
	ssize_t n;
	int ppid;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	buf[n] = 0;
	end = strrchr(buf, ')');	/* comm may hold spaces and parentheses */
	if (!end || sscanf(end + 1, " %*c %d", &ppid) != 1)
		return -EIO;
	return ppid;
}

int pdeath_follow(pid_t parent, int sig)
{
	pid_t now;

	if (prctl(PR_SET_PDEATHSIG, sig))
		return -errno;
	now = parent_of_self();
	if (now < 0)
		return now;
	return now == parent ? 0 : -ESRCH;
}
