// SPDX-License-Identifier: GPL-2.0
#include "progress.h"

#include <stdio.h>
#include <unistd.h>

#include "check.h"

/* "\r" back to the line's start, "\033[K" clears it: a terminal only */
#define CLEAR_LINE "\r\033[K"

void progress_show(int i, int n, const char *name, int rep)
{
	if (!isatty(STDERR_FILENO))
		return;
	if (rep < 0)
		fprintf(stderr, CLEAR_LINE "[%d/%d] %s", i, n, name);
	else
		fprintf(stderr, CLEAR_LINE "[%d/%d] %s #%d", i, n, name, rep);
}

void progress_failed(const char *name, const char *message)
{
	fprintf(stderr, "%s%s: %s: %s\n", isatty(STDERR_FILENO) ? CLEAR_LINE : "", knotif_prog, name,
		message);
}

void progress_end(void)
{
	if (isatty(STDERR_FILENO))
		fputs(CLEAR_LINE, stderr);
}
