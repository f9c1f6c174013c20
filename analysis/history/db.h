/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_HISTORY_DB_H
#define KNOTIF_HISTORY_DB_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>

#include "gbread.h"

/*
 * The run history: one SQLite file. Every recorded run keeps its whole
 * result document (so a baseline is rebuilt from exactly what was
 * measured) plus the facts people filter on as columns, and its
 * per-repetition figures in `results` for ad-hoc SQL.
 */
#define HISTORY_SCHEMA_VERSION 1

/* ${XDG_DATA_HOME:-$HOME/.local/share}/knotif/history.sqlite, into buf */
int history_default_path(char *buf, size_t len);

/*
 * Opens (create: creating it and its schema when missing) the history at
 * path. Returns 0 or -errno, with the reason in why.
 */
int history_open(sqlite3 **db, const char *path, bool create, char *why, size_t len);

/* Stores the run; *id gets its row id. -EEXIST when name is taken. */
int history_record(sqlite3 *db, const struct gb_file *run, const char *source, const char *name,
		   long long *id, char *why, size_t len);

/*
 * Run ids a selector names, oldest first: "last" / "last:N" (the N newest
 * runs), "id:N", or a run name. -ENOENT / -EINVAL with the reason in why.
 */
int history_select(sqlite3 *db, const char *selector, long long **ids, size_t *n,
		   char *why, size_t len);

/* The stored document of one run; label (kept, not copied) names it in messages. */
int history_document(sqlite3 *db, long long id, const char *label, struct gb_file *out,
		     char *why, size_t len);

#endif
