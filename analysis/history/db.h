/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_HISTORY_DB_H
#define KNOTIF_HISTORY_DB_H

#include <stdbool.h>
#include <stddef.h>

#include "gbread.h"
#include "store.h"

/*
 * The run history, in either store (store.h). Every recorded run keeps its
 * whole result document (so a baseline is rebuilt from exactly what was
 * measured) plus the facts people filter on as columns — its machine class
 * and the gate's verdict among them — and its per-repetition figures in
 * `results` for ad-hoc SQL. meta.schema_version says which layout a store
 * has; history_open creates it or migrates an older one in one transaction.
 *   1  runs, results
 *   2  runs.machine_class (class.h) and runs.gate ('pass', 'fail' or NULL)
 *   3  runs.content_sha256: the SHA-256 of the run's normalised document
 *      (filled in for the runs an older store holds), so that one result
 *      file is never recorded twice
 */
#define HISTORY_SCHEMA_VERSION 3

/* ${XDG_DATA_HOME:-$HOME/.local/share}/knotif/history.sqlite, into buf */
int history_default_path(char *buf, size_t len);

/*
 * Opens the history at uri (store.h) and brings its schema to this
 * version, creating it when create is set. A store without a history is
 * never written when create is not set. Returns 0 or -errno, why set.
 */
int history_open(struct store **s, const char *uri, bool create, char *why, size_t len);

/*
 * Stores the run in one transaction, retried when it loses a race with
 * another writer; *id gets its id. gate is "pass", "fail" or NULL.
 * -EEXIST when name is taken; -EALREADY when the history holds this run
 * already (the same document, however formatted); -EPIPE when the server
 * went away or stopped answering (nothing stored, unless why says the
 * commit itself was cut off); -ENOSPC when the disk under an SQLite file
 * failed.
 */
int history_record(struct store *s, const struct gb_file *run, const char *source, const char *name,
		   const char *gate, long long *id, char *why, size_t len);

/*
 * Run ids a selector names, oldest first: "last" / "last:N" (the N newest
 * runs the gate did not fail), "first" / "first:N" (the N oldest such),
 * "id:N", or a run name; with machine_class,
 * only runs of that class. -ENOENT / -EINVAL with the reason in why.
 */
int history_select(struct store *s, const char *selector, const char *machine_class,
		   long long **ids, size_t *n, char *why, size_t len);

/* The stored document of one run; label (kept, not copied) names it in messages. */
int history_document(struct store *s, long long id, const char *label, struct gb_file *out,
		     char *why, size_t len);

/* A selector's runs pooled into one baseline document (pool.h); NULL with why on failure. */
json_t *history_baseline(struct store *s, const char *selector, const char *machine_class,
			 size_t *nruns, char *why, size_t len);

#endif
