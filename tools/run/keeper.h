/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_RUN_KEEPER_H
#define KNOTIF_RUN_KEEPER_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * The keeper: knotif-run's only child and the parent of the command, there
 * so that no process of the command outlives knotif-run, however it ends
 * (SIGKILL included: it can do nothing then).
 *
 * In a PID namespace of its own (keeper_unshare() succeeded: root), the
 * keeper is the namespace's init, set to die with knotif-run
 * (PR_SET_PDEATHSIG); when it dies the kernel kills every process of the
 * namespace, grandchildren and daemons included. Without one, it is the
 * tree's child subreaper and kills the tree itself once knotif-run is gone
 * (the read end of status_fd, which knotif-run alone holds, closes); that
 * holds as long as nobody kills the keeper too.
 */
struct keeper {
	pid_t supervisor;	/* knotif-run */
	bool own_pidns;		/* keeper_unshare() succeeded */
	int status_fd;		/* write end: the main process's wait status, once */
	int sock;		/* the command's end of the socketpair: closed in the keeper */
};

/*
 * Makes our next child the init of a new PID namespace: returns a
 * descriptor of our own namespace for keeper_forked(), or -1 where we may
 * not have one (no CAP_SYS_ADMIN).
 */
int keeper_unshare(void);

/*
 * In knotif-run once the keeper is forked: our later children are born in
 * our own namespace again (the new one dies with the keeper, and a fork
 * into a dead namespace fails: LeakSanitizer's at exit did).
 */
void keeper_forked(int own_ns);

/*
 * Called in the keeper right after fork(): forks the command and returns
 * in it. In the keeper itself it never returns: it reaps every process
 * of the tree and exits once none is left.
 */
void keeper_run(const struct keeper *k);

#endif
