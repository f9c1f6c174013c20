// SPDX-License-Identifier: GPL-2.0
/*
 * The sysinfo(2) calls knotif-run --emulate=sysinfo must answer as the
 * kernel would: one call each, printing what it returned ("0" or the
 * errno's name), and for a call that returned 0 the memory it was told of,
 * in bytes: "0 TOTALRAM FREERAM SHAREDRAM BUFFERRAM TOTALSWAP FREESWAP".
 *
 *   sysinfo_probe FORM
 *     FORM   ok        into a buffer on the stack
 *            null      sysinfo(NULL)
 *            ro        into a page mapped read-only
 *            partial   into a buffer that runs off the end of its mapping
 *
 * Linked statically, as run_probe is.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <unistd.h>

static int report(long r, const struct sysinfo *si)
{
	unsigned long long unit;

	if (r) {
		printf("%s\n", strerrorname_np(errno) ? strerrorname_np(errno) : "E?");
		return 0;
	}
	unit = si->mem_unit ? si->mem_unit : 1;
	printf("0 %llu %llu %llu %llu %llu %llu\n", si->totalram * unit, si->freeram * unit, si->sharedram * unit,
	       si->bufferram * unit, si->totalswap * unit, si->freeswap * unit);
	return 0;
}

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE);
	struct sysinfo si;
	char *p;

	if (argc != 2)
		goto usage;
	if (!strcmp(argv[1], "ok"))
		return report(syscall(SYS_sysinfo, &si), &si);
	if (!strcmp(argv[1], "null"))
		return report(syscall(SYS_sysinfo, NULL), NULL);
	/* two pages: the first for the buffer, the second made what the form needs */
	p = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return perror("mmap"), 1;
	if (!strcmp(argv[1], "ro")) {
		if (mprotect(p, 2 * page, PROT_READ))
			return perror("mprotect"), 1;
		return report(syscall(SYS_sysinfo, p), NULL);
	}
	if (!strcmp(argv[1], "partial")) {
		if (munmap(p + page, page))
			return perror("munmap"), 1;
		return report(syscall(SYS_sysinfo, p + page - sizeof(si) / 2), NULL);
	}
usage:
	fprintf(stderr, "usage: sysinfo_probe ok|null|ro|partial\n");
	return 2;
}
