// SPDX-License-Identifier: GPL-2.0
/*
 * Every knotif-stress strategy, in the order of --help and of the reports:
 * one line per file. A line M(x) names strategies/x.c, which defines
 * `const struct strategy strategy_x`. The CLI, --help, the run names and the
 * tests (knotif-stress --list-strategies) all read this table.
 */
#include <string.h>

#include "supervisor.h"

#define STRATEGY_FILES(M)	\
	M(blocking)		\
	M(poll)			\
	M(epoll)		\
	M(io_uring)		\
	M(spin)			\
	M(rw_batch)

#define DECLARE(x) extern const struct strategy strategy_##x;
STRATEGY_FILES(DECLARE)
#define LIST(x) &strategy_##x,
static const struct strategy *const table[] = { STRATEGY_FILES(LIST) };

_Static_assert(sizeof(table) / sizeof(table[0]) <= STRATEGY_MAX, "raise STRATEGY_MAX in stress.h");

int strategy_count(void)
{
	return (int)(sizeof(table) / sizeof(table[0]));
}

const struct strategy *strategy_at(int i)
{
	return i >= 0 && i < strategy_count() ? table[i] : NULL;
}

int strategy_find(const char *name)
{
	for (int i = 0; i < strategy_count(); i++)
		if (!strcmp(table[i]->name, name))
			return i;
	return -1;
}

int strategy_probe(int i, char *why, size_t len)
{
	return table[i]->probe ? table[i]->probe(why, len) : 0;
}
