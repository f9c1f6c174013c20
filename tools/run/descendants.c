// SPDX-License-Identifier: GPL-2.0
#include "descendants.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "small_file.h"

struct proc {
	pid_t pid, ppid;
	bool zombie;
};

/* pid, state and ppid from /proc/PID/stat; false when it is gone */
static bool read_stat(pid_t pid, struct proc *p)
{
	char path[64], buf[512], *end, state;
	int ppid;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	n = small_file_read(AT_FDCWD, path, buf, sizeof(buf));
	if (n == 0 || (n < 0 && n != -E2BIG))	/* state and ppid lead: a beginning is enough */
		return false;
	end = strrchr(buf, ')');	/* comm may hold spaces and parentheses */
	if (!end || sscanf(end + 1, " %c %d", &state, &ppid) != 2)
		return false;
	*p = (struct proc){ pid, ppid, state == 'Z' || state == 'X' };
	return true;
}

/* Every process on the system; *n of them. */
static struct proc *snapshot(size_t *n)
{
	DIR *d = opendir("/proc");
	struct proc *all = NULL;
	size_t cap = 0;
	struct dirent *e;

	*n = 0;
	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		if (*n == cap) {
			struct proc *more = realloc(all, (cap = cap ? cap * 2 : 256) * sizeof(*all));

			if (!more)
				break;
			all = more;
		}
		if (read_stat((pid_t)atoi(e->d_name), &all[*n]))
			(*n)++;
	}
	closedir(d);
	return all;
}

int signal_descendants(pid_t root, int sig)
{
	size_t n;
	struct proc *all = snapshot(&n);
	bool *mine, grew = true;
	int signalled = 0;

	if (!all)
		return -ENOMEM;
	mine = calloc(n ? n : 1, sizeof(*mine));
	if (!mine) {
		free(all);
		return -ENOMEM;
	}
	/* the tree, by parent links: repeat until no process joins it */
	while (grew) {
		grew = false;
		for (size_t i = 0; i < n; i++) {
			bool parent_mine = all[i].ppid == root;

			for (size_t k = 0; !parent_mine && !mine[i] && k < n; k++)
				parent_mine = mine[k] && all[k].pid == all[i].ppid;
			if (!mine[i] && parent_mine)
				mine[i] = grew = true;
		}
	}
	for (size_t i = 0; i < n; i++)
		if (mine[i] && !all[i].zombie && kill(all[i].pid, sig) == 0)
			signalled++;
	free(mine);
	free(all);
	return signalled;
}

int kill_descendants(pid_t root)
{
	struct timespec gap = { 0, 10000000 };

	for (int pass = 0; pass < 100; pass++) {
		int n = signal_descendants(root, SIGKILL);

		if (n <= 0)
			return n;
		nanosleep(&gap, NULL);
	}
	return -EBUSY;
}
