/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_PROGRESS_H
#define KNOTIF_PROGRESS_H

/*
 * What a run matrix shows on stderr while it runs (knotif-bench,
 * knotif-stress): on a terminal one line, "[i/n] name", overwritten by the
 * next and cleared at the end; a failure always gets a whole line of its own,
 * "prog: name: message", terminal or not.
 */
/* rep < 0: the name alone; else "name #rep" */
void progress_show(int i, int n, const char *name, int rep);
void progress_failed(const char *name, const char *message);
void progress_end(void);

#endif
