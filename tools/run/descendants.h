/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_RUN_DESCENDANTS_H
#define KNOTIF_RUN_DESCENDANTS_H

#include <sys/types.h>

/*
 * Sends sig to every living descendant of root, found by their parent
 * links in /proc (the command's main process may be gone while its
 * children run on). Returns how many were signalled, or -errno.
 */
int signal_descendants(pid_t root, int sig);

/*
 * SIGKILL to every descendant, again until a pass finds none alive (one
 * may fork between a pass's scan and its kill), at most about one second.
 * Returns 0, or -EBUSY if some were still alive then.
 */
int kill_descendants(pid_t root);

#endif
