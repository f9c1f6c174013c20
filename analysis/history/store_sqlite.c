// SPDX-License-Identifier: GPL-2.0
/* The history in one SQLite file: the default, for one machine. */
#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store_backend.h"
#include "why.h"

/* long enough that concurrent CI jobs on one machine queue instead of failing */
#define BUSY_TIMEOUT_MS 60000

static int fail(struct store *s, int rc, char *why, size_t len)
{
	sqlite3 *db = s->handle;
	int ext = sqlite3_extended_errcode(db);

	if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
		return why_fail(-EAGAIN, why, len, "%s: %s", s->where, sqlite3_errmsg(db));
	/* not what the user gave us: the disk under the file */
	if (rc == SQLITE_FULL || rc == SQLITE_IOERR) {
		s->storage_failed = true;
		return why_fail(-ENOSPC, why, len, "%s: %s", s->where, sqlite3_errmsg(db));
	}
	if (ext == SQLITE_CONSTRAINT_UNIQUE || ext == SQLITE_CONSTRAINT_PRIMARYKEY)
		return why_fail(-EEXIST, why, len, "%s: %s", s->where, sqlite3_errmsg(db));
	return why_fail(-EIO, why, len, "%s: %s", s->where, sqlite3_errmsg(db));
}

static int append_row(struct store_rows *out, sqlite3_stmt *st, size_t *cap)
{
	size_t n = out->ncols;

	if ((out->nrows + 1) * n > *cap) {
		size_t want = *cap ? 2 * *cap : 16 * n;
		char **p = realloc(out->cells, want * sizeof(*p));

		if (!p)
			return -ENOMEM;
		out->cells = p;
		*cap = want;
	}
	for (size_t c = 0; c < n; c++) {
		const char *v = (const char *)sqlite3_column_text(st, (int)c);
		char **cell = &out->cells[out->nrows * n + c];

		*cell = NULL;
		if (v && !(*cell = strdup(v)))
			return -ENOMEM;
	}
	out->nrows++;
	return 0;
}

static int sqlite_query(struct store *s, const char *sql, int nparams, const char *const *params,
			struct store_rows *out, char *why, size_t len)
{
	sqlite3 *db = s->handle;
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc, err = 0;

	memset(out, 0, sizeof(*out));
	rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return fail(s, rc, why, len);
	for (int i = 0; i < nparams; i++) {
		char name[16];
		int idx;

		snprintf(name, sizeof(name), "$%d", i + 1);
		idx = sqlite3_bind_parameter_index(st, name);
		if (idx && params[i])
			sqlite3_bind_text(st, idx, params[i], -1, SQLITE_TRANSIENT);
	}
	out->ncols = (size_t)sqlite3_column_count(st);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if ((err = append_row(out, st, &cap)))
			break;
	if (!err && rc != SQLITE_DONE)
		err = fail(s, rc, why, len);
	else if (err)
		why_fail(err, why, len, "out of memory");
	sqlite3_finalize(st);
	if (err)
		store_rows_free(out);
	return err;
}

static int sqlite_has_table(struct store *s, const char *table, char *why, size_t len)
{
	struct store_rows r;
	int err = sqlite_query(s, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = $1", 1,
			       &table, &r, why, len);

	if (err)
		return err;
	err = r.nrows > 0;
	store_rows_free(&r);
	return err;
}

/*
 * A file this process created is removed again when it is still empty
 * because the disk failed (full): nothing was ever stored in it, and a
 * 0-byte file would pass for a history. Any other failure keeps it: another
 * writer may be creating the history in it at this moment.
 */
static void sqlite_close(struct store *s)
{
	char *path = s->created && s->storage_failed ? strdup(sqlite3_db_filename(s->handle, "main")) : NULL;
	struct stat sb;

	sqlite3_close(s->handle);
	if (path && !stat(path, &sb) && sb.st_size == 0)
		unlink(path);
	free(path);
}

static const struct store_ops sqlite_ops = {
	.name = "sqlite",
	.id_column = "id INTEGER PRIMARY KEY",	/* the rowid: assigned on insert */
	/* takes the write lock now, so a reader never has to upgrade (which fails at once) */
	.begin_write = "BEGIN IMMEDIATE",
	.begin_schema = "BEGIN IMMEDIATE",
	.lock_schema = NULL,
	.query = sqlite_query,
	.has_table = sqlite_has_table,
	.close = sqlite_close,
};

/* An open that failed: the file made for it (still empty) goes too, as at sqlite_close(). */
static int open_failed(struct store *s, sqlite3 *db, const char *path)
{
	sqlite3_close(db);
	if (s->created)
		unlink(path);
	s->created = false;
	return -EIO;
}

int store_sqlite_open(struct store *s, const char *path, bool create, char *why, size_t len)
{
	int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
	sqlite3 *db = NULL;
	struct stat sb;

	if (!create && stat(path, &sb))
		return why_fail(-ENOENT, why, len, "no history at %s (record a run first)", path);
	/* made here rather than by SQLite, to know for certain that it was this process (sqlite_close) */
	if (create) {
		int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

		s->created = fd >= 0;
		if (fd >= 0)
			close(fd);
	}
	if (sqlite3_open_v2(path, &db, flags, NULL) != SQLITE_OK) {
		why_fail(-EIO, why, len, "cannot open history %s: %s", path,
			 db ? sqlite3_errmsg(db) : "out of memory");
		return open_failed(s, db, path);
	}
	sqlite3_busy_timeout(db, BUSY_TIMEOUT_MS);
	s->ops = &sqlite_ops;
	s->handle = db;
	if (sqlite3_exec(db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL) != SQLITE_OK) {
		why_fail(-EIO, why, len, "cannot use history %s: %s", path, sqlite3_errmsg(db));
		return open_failed(s, db, path);
	}
	return 0;
}
